"""A suit nobody entered never makes a flush, from the players' side: Ann entered her six
dealt cards with their suits (for discard advice) and laid 5♣ 7♣ away; the starter was
entered by its rank alone, so its suit is a stand-in. The crib wheel then offers no "flush"
on any card (the crib's flush would need the starter's suit), and a crib entered all in clubs
scores no flush (record version 4; a version-3 record keeps the score it was played to).
A player who says the crib is a flush (GO on its page, or holding OK on the crib's wheel in a
game that asks the starter's suit) changes only the cards entered by rank, and the box then
asks the starter's suit the flush needs."""

from __future__ import annotations

import json

from bench.input_plan import table_slots
from pegboard.app.machine import initial_state
from pegboard.app.suit_facts import SuitFact
from pegboard.config import Config
from pegboard.rules.state import Reason
from tests.support.app_driver import GO, App
from tests.support.rulings_records import entry, game_of, header, play

PLAYS = ((1, "2H"), (0, "QH"), (1, "3S"), (0, "KD"), (1, "4S"), (0, "2S"), (1, "6H"),
         (0, "9D"))


def lines(version: int) -> list[str]:
    return [header(version=version), entry("deal", dealer=0),
            entry("dealt", player=0, cards=["5C", "7C", "9D", "KD", "QH", "2S"]),
            entry("starter", card="4C", suit_known=False),
            *(play(p, card) for p, card in PLAYS)]


def test_in_an_old_record_the_crib_wheel_offers_no_flush_from_a_stand_in_starter() -> None:
    """Version 4, before the box asked the starter's suit: the flush would be made up."""
    app = App(initial_state(Config(), resume=lines(4)))
    app.read()
    assert app.view.picker is not None and app.view.picker.prompt == "Crib card 1/4"
    for label in ("5♣", "7♣", "8", "9"):
        slots = table_slots(app.state)
        assert slots is not None
        offered = [option.facts for slot in slots for option in slot]
        assert not [facts for facts in offered if SuitFact.IN_FLUSH in facts], offered
        app.pick(label)
    crib = [a for a in app.game.awards if a.reason is Reason.CRIB]
    assert crib and "flush" not in crib[-1].sentence


def test_a_crib_of_one_suit_with_a_stand_in_starter_scores_no_flush() -> None:
    crib = entry("crib", cards=["5C", "7C", "8C", "TC"])
    now = game_of([*lines(4), crib])
    items = [item.kind for award in now.state.awards if award.reason is Reason.CRIB
             for item in award.items]
    assert "flush" not in items
    before = game_of([*lines(3), crib])  # as it was played then
    items = [item.kind for award in before.state.awards if award.reason is Reason.CRIB
             for item in award.items]
    assert "flush" in items


# -- a crib partly named, partly entered by rank: GO states its flush ---------------------------

MIXED = [header(), entry("deal", dealer=0),
         entry("dealt", player=0, cards=["5H", "7H", "TS", "QS", "KS", "2D"]),
         entry("starter", card="4C", suit_known=False),
         play(1, "8C"), play(0, "TS"), play(1, "6D"), play(0, "2D"), play(1, "3C"),
         entry("go", player=0), play(1, "AD"), play(0, "QS"), play(0, "KS")]
"""Ann (the dealer) entered her dealt cards and kept 10♠ Q♠ K♠ 2♦: 5♥ 7♥ are in her crib by
name. Ben's cards, the 9 and K he laid away among them, are entered by rank."""


def mixed_crib(starter: str | None = None) -> App:
    lines = MIXED if starter is None else [
        *MIXED[:3], entry("starter", card=starter, by_rank=True), *MIXED[4:]]
    app = App(initial_state(Config(), resume=lines))
    app.read()
    for label in ("5♥", "7♥", "9", "K"):  # Ben's two by rank: the wheel gives them suits
        app.pick(label)
    assert app.pages[0].title == "Ann's crib: 2"
    return app


def crib_points(app: App) -> int:
    return [a for a in app.game.awards if a.reason is Reason.CRIB][-1].points


def test_go_states_the_flush_of_a_crib_partly_named_and_the_box_asks_the_starter() -> None:
    """The starter by its rank alone: GO offers the flush of five (the table's 9 and K are
    hearts, like the 5♥ 7♥ named); the crib is entered again in hearts and, the flush needing
    the starter's suit, the box asks it; a heart makes the flush of five, exactly."""
    app = mixed_crib()
    assert app.view.hint == "OK next  GO +flush 5"
    app.feed(GO)
    assert app.game.asked is not None and app.game.asked.crib
    assert app.game.asked.makes == ("flush",)
    assert json.loads(app.record[-1])["cards"] == ["5H", "7H", "9H", "KH"]
    app.pick("4♥")
    assert crib_points(app) == 2 + 5  # fifteen 2, a flush of five
    assert app.pages[0].title == "Ann's crib: 7"


def test_the_starter_s_suit_answered_otherwise_makes_no_crib_flush() -> None:
    app = mixed_crib()
    app.feed(GO)
    app.pick("4♣")
    assert crib_points(app) == 2  # a crib flush needs the starter's suit


def test_go_states_the_flush_of_a_crib_partly_named_with_the_starter_named() -> None:
    app = mixed_crib("4H")
    assert app.view.hint == "OK next  GO +flush 5"
    app.feed(GO)
    assert app.game.asked is None and crib_points(app) == 7
    assert app.pages[0].title == "Ann's crib: 7"


def test_holding_ok_on_the_crib_wheel_offers_the_flush_of_the_named_cards_and_asks_the_starter(
        ) -> None:
    """The starter by its rank alone, 5♥ 7♥ named in the crib: a hold on Ben's 9 and K offers
    them in hearts ("9, in the flush"), and the crib entered so, its flush needing the
    starter's suit, the box asks it, as GO on the crib's page does; a heart makes the flush
    of five, any other suit none."""
    for suit, points in (("♥", 2 + 5), ("♣", 2)):
        app = App(initial_state(Config(), resume=MIXED))
        app.read()
        app.pick("5♥")
        app.pick("7♥")
        slots = table_slots(app.state)
        assert slots is not None
        nine = next(slot for slot in slots if slot[0].label == "9")
        assert [o.facts for o in nine] == [(), (SuitFact.IN_FLUSH,)]
        assert nine[1].card.pretty == "9♥"
        app.pick("9, in the flush")
        app.pick("K, in the flush")
        asked = app.game.asked
        assert asked is not None and asked.crib and asked.makes == ("flush",)
        assert json.loads(app.record[-1])["cards"] == ["5H", "7H", "9H", "KH"]
        app.pick(f"4{suit}")
        assert crib_points(app) == points

