"""A suit nobody entered never makes a flush, from the players' side: Ann entered her six
dealt cards with their suits (for discard advice) and laid 5♣ 7♣ away; the starter was
entered by its rank alone, so its suit is a stand-in. The crib wheel then offers no "flush"
on any card (the crib's flush would need the starter's suit), and a crib entered all in clubs
scores no flush (record version 4; a version-3 record keeps the score it was played to)."""

from __future__ import annotations

from bench.input_plan import table_slots
from pegboard.app.machine import initial_state
from pegboard.config import Config
from pegboard.rules.state import Reason
from tests.support.app_driver import App
from tests.support.rulings_records import entry, game_of, header, play

PLAYS = ((1, "2H"), (0, "QH"), (1, "3S"), (0, "KD"), (1, "4S"), (0, "2S"), (1, "6H"),
         (0, "9D"))


def lines(version: int) -> list[str]:
    return [header(version=version), entry("deal", dealer=0),
            entry("dealt", player=0, cards=["5C", "7C", "9D", "KD", "QH", "2S"]),
            entry("starter", card="4C", suit_known=False),
            *(play(p, card) for p, card in PLAYS)]


def test_the_crib_wheel_offers_no_flush_from_a_stand_in_starter() -> None:
    app = App(initial_state(Config(), resume=lines(4)))
    app.read()
    assert app.view.picker is not None and app.view.picker.prompt == "Crib card 1/4"
    for label in ("5♣", "7♣", "8", "9"):
        slots = table_slots(app.state)
        assert slots is not None
        offered = [option.label for slot in slots for option in slot]
        assert not [label for label in offered if "flush" in label.split()], offered
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
