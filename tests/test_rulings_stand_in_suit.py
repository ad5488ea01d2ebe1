"""A starter entered by rank alone: its stand-in suit never scores (docs/rules.md, "The
starter").

Ben entered his six dealt cards for advice, the J♣ among them, and laid the jack in Ann's
crib. The starter was entered as a queen only; the device recorded it with a stand-in suit,
clubs. That made-up suit must not give the crib his nobs (4, not 5), nor make a flush of
five with cards named with their suits; the record says the suit was not entered, and the
replay shows it so. When a named card could score with the starter's suit, the device asks
for the suit instead.
"""

from __future__ import annotations

import io

from pegboard.app import flow
from pegboard.commands.replay import replay
from pegboard.record import dump_line, parse_line
from pegboard.rules.cards import Card, parse_cards
from pegboard.rules.events import Dealt, Starter
from tests.support.app_driver import new_game
from tests.support.rulings_records import entry, game_of, header

BEN_DEALT = entry("dealt", player=1, cards=["JC", "4H", "2S", "3S", "6D", "8D"])
SHOWS = [entry("show", player=1, cards=["2S", "3S", "6D", "8D"]),
         entry("show", player=0, cards=["7C", "7D", "KH", "AS"])]
CRIB = entry("crib", cards=["JC", "4H", "5D", "9S"])  # J+5, Q+5: 4; his nobs only with Q♣


def deal(starter: str) -> list[str]:
    return [header(), entry("deal", dealer=0), BEN_DEALT, starter, *SHOWS, CRIB]


def crib_points(lines: list[str]) -> int:
    game = game_of(lines)
    (crib,) = [a for a in game.state.awards if a.reason.value == "crib"]
    return crib.points


def test_a_stand_in_suit_gives_no_nobs_to_a_named_jack() -> None:
    stand_in = entry("starter", card="QC", suit_known=False)
    assert crib_points(deal(stand_in)) == 4
    assert crib_points(deal(entry("starter", card="QC"))) == 5  # the suit was named


def test_a_stand_in_suit_makes_no_flush_of_five_with_named_cards() -> None:
    lines = [header(), entry("deal", dealer=0),
             entry("dealt", player=1, cards=["2H", "4H", "6H", "8H", "KS", "KD"]),
             entry("starter", card="QH", suit_known=False),
             entry("show", player=1, cards=["2H", "4H", "6H", "8H"])]
    (hand,) = [a for a in game_of(lines).state.awards if a.reason.value == "hand"]
    assert hand.points == 4  # the hand's flush of four; the made-up heart adds nothing
    named = [*lines[:3], entry("starter", card="QH"), lines[-1]]
    (real,) = [a for a in game_of(named).state.awards if a.reason.value == "hand"]
    assert real.points == 5


def test_the_record_keeps_the_suit_unknown_and_old_lines_read_as_named() -> None:
    line = dump_line(Starter(Card.parse("QC"), suit_known=False))
    assert '"suit_known": false' in line
    assert parse_line(line, 3) == Starter(Card.parse("QC"), suit_known=False)
    assert parse_line('{"type": "starter", "card": "QC"}', 3) == Starter(Card.parse("QC"))
    assert '"suit_known"' not in dump_line(Starter(Card.parse("QC")))


def test_the_replay_does_not_show_a_stand_in_suit_as_real() -> None:
    out = io.StringIO()
    replay(deal(entry("starter", card="QC", suit_known=False)), out)
    told = out.getvalue()
    assert "Starter Q (suit not entered)" in told
    assert "with Q (suit not entered)" in told and "Q♣" not in told
    assert "fifteen 4 (5♦ Q?)" in told  # the starter in a count: its rank only


def test_the_device_enters_a_plain_starter_by_rank_with_its_suit_unknown() -> None:
    app = new_game(dealer=0)
    app.pick("Q")
    assert parse_line(app.record[-1], 2) == Starter(Card.parse("QC"), suit_known=False)


def test_the_device_asks_the_suit_when_a_named_jack_could_take_it() -> None:
    app = new_game(dealer=0)
    dealt = Dealt(1, tuple(parse_cards(["JC", "4H", "2S", "3S", "6D", "8D"])))
    app.state, _ = flow.enter(app.state, dealt)
    app.read()
    app.pick("Q ♣")  # holding OK names the suit: the J♣ may take his nobs with it
    assert parse_line(app.record[-1], 2) == Starter(Card.parse("QC"))
    app.state, _ = flow.undo(app.state)
    app.pick("Q")  # the rank alone: a stand-in suit, which gives the J♣ nothing
    assert parse_line(app.record[-1], 2) == Starter(Card.parse("QD"), suit_known=False)
    # (the stand-in takes a suit no named card can score with: not the J♣'s clubs)
