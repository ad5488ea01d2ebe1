"""A starter entered by rank alone: its stand-in suit never scores (docs/rules.md, "The
starter").

Ben entered his six dealt cards for advice, the J♣ among them, and laid the jack in Ann's
crib. The starter was entered as a queen only; the device recorded it with a stand-in suit,
clubs. That made-up suit must not give the crib his nobs (4, not 5), nor make a flush of
five with cards named with their suits; the record says the suit was not entered, and the
replay shows it so. From record version 7 the count that could score with the starter's
suit waits for it (a ``starter_suit`` entry); records written before keep their scores.
"""

from __future__ import annotations

import io

import pytest

from pegboard.app import flow, teach
from pegboard.commands.replay import replay
from pegboard.errors import RecordError, RuleError
from pegboard.record import dump_line, parse_line
from pegboard.rules.cards import Card, Suit, parse_cards
from pegboard.rules.events import Dealt, Starter, StarterSuit
from tests.support.app_driver import new_game
from tests.support.rulings_records import entry, event, game_of, header, play

BEN_DEALT = entry("dealt", player=1, cards=["JC", "4H", "2S", "3S", "6D", "8D"])
SHOWS = [entry("show", player=1, cards=["2S", "3S", "6D", "8D"]),
         entry("show", player=0, cards=["7C", "7D", "KH", "AS"])]
CRIB = entry("crib", cards=["JC", "4H", "5D", "9S"])  # J+5, Q+5: 4; his nobs only with Q♣


def deal(starter: str, version: int = 5) -> list[str]:
    return [header(version), entry("deal", dealer=0), BEN_DEALT, starter, *SHOWS, CRIB]


def crib_points(lines: list[str]) -> int:
    game = game_of(lines)
    (crib,) = [a for a in game.state.awards if a.reason.value == "crib"]
    return crib.points


def test_a_stand_in_suit_gives_no_nobs_to_a_named_jack() -> None:
    stand_in = entry("starter", card="QC", suit_known=False)
    assert crib_points(deal(stand_in)) == 4
    assert crib_points(deal(entry("starter", card="QC"))) == 5  # the suit was named


def test_a_stand_in_suit_makes_no_flush_of_five_with_named_cards() -> None:
    lines = [header(5), entry("deal", dealer=0),
             entry("dealt", player=1, cards=["2H", "4H", "6H", "8H", "KS", "KD"]),
             entry("starter", card="QH", suit_known=False),
             entry("show", player=1, cards=["2H", "4H", "6H", "8H"])]
    (hand,) = [a for a in game_of(lines).state.awards if a.reason.value == "hand"]
    assert hand.points == 4  # the hand's flush of four; the made-up heart adds nothing
    named = [*lines[:3], entry("starter", card="QH"), lines[-1]]
    (real,) = [a for a in game_of(named).state.awards if a.reason.value == "hand"]
    assert real.points == 5


def test_from_version_7_the_crib_waits_for_the_suit_and_scores_with_it() -> None:
    lines = deal(entry("starter", card="QD", suit_known=False), version=7)
    game = game_of(lines)
    asked = game.state.asked
    assert asked is not None and asked.crib and asked.player == 0
    assert not [a for a in game.state.awards if a.reason.value == "crib"]
    assert game.state.phase.value == "crib"  # the deal is not over: the crib is not counted
    assert crib_points([*lines, entry("starter_suit", suit="C")]) == 5  # his nobs
    assert crib_points([*lines, entry("starter_suit", suit="H")]) == 4
    answered = game_of([*lines, entry("starter_suit", suit="C")])
    assert answered.state.turned is not None and answered.state.turned.pretty == "Q♣"


def test_from_version_7_a_hand_that_cannot_score_by_suit_is_not_asked() -> None:
    # Ben's hand has no jack and no flush: counted at once, whatever the starter's suit.
    lines = deal(entry("starter", card="QD", suit_known=False), version=7)[:-1]
    game = game_of(lines)
    assert game.state.asked is None
    assert game.state.turned is not None and game.state.turned.suit is None
    assert game.state.turned.pretty == "Q (suit not entered)"


def test_a_flush_of_five_with_the_suit_entered_when_asked() -> None:
    lines = [header(), entry("deal", dealer=0),
             entry("dealt", player=1, cards=["2H", "4H", "6H", "8H", "KS", "KD"]),
             entry("starter", card="QC", suit_known=False),
             entry("show", player=1, cards=["2H", "4H", "6H", "8H"])]
    game = game_of(lines)
    assert game.state.asked is not None and not game.state.asked.crib
    # Every suit may be the starter's but for a card Ben was dealt (none is a queen).
    assert [s.letter for s in game.state.asked.suits] == ["C", "D", "H", "S"]
    hearts = game_of([*lines, entry("starter_suit", suit="H")])
    (hand,) = [a for a in hearts.state.awards if a.reason.value == "hand"]
    assert hand.points == 5
    spades = game_of([*lines, entry("starter_suit", suit="S")])
    (hand,) = [a for a in spades.state.awards if a.reason.value == "hand"]
    assert hand.points == 4


def test_while_the_suit_is_asked_the_deal_waits_and_a_wrong_suit_is_refused() -> None:
    lines = deal(entry("starter", card="QD", suit_known=False), version=7)
    game = game_of(lines)
    before = game.state
    with pytest.raises(RuleError, match="needs the starter's suit"):
        game.apply(event(entry("deal")))
    assert game.state == before
    with pytest.raises(RuleError, match="no count needs it"):
        game_of(lines[:-1]).apply(event(entry("starter_suit", suit="C")))
    named = game_of([header(), entry("deal", dealer=0),
                     entry("dealt", player=1, cards=["JC", "QH", "2S", "3S", "6D", "8D"]),
                     entry("starter", card="QD", suit_known=False), *SHOWS, CRIB])
    assert named.state.asked is not None
    assert [s.letter for s in named.state.asked.suits] == ["C", "D", "S"]  # Ben holds Q♥
    with pytest.raises(RuleError, match="cannot be Q♥: that card was dealt to Ben"):
        named.apply(event(entry("starter_suit", suit="H")))
    game.apply(event(entry("starter_suit", suit="C")))
    game.undo()
    assert game.state == before  # undone like any entry


def test_the_suit_entry_reads_and_writes() -> None:
    assert parse_line('{"type": "starter_suit", "suit": "h"}', 9) == StarterSuit(Suit.HEARTS)
    assert dump_line(StarterSuit(Suit.CLUBS)) == '{"type": "starter_suit", "suit": "C"}'
    with pytest.raises(RecordError, match="must be a suit"):
        parse_line('{"type": "starter_suit", "suit": "X"}', 9)


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
    assert "fifteen 4 (5? Q?)" in told  # the starter and the 5 (entered by rank): no suit


def test_the_device_enters_a_plain_starter_by_rank_with_its_suit_unknown() -> None:
    app = new_game(dealer=0)
    app.pick("Q")
    assert parse_line(app.record[-1], 2) == Starter(Card.parse("QC"), suit_known=False)


def test_the_device_asks_the_suit_when_a_named_jack_could_take_it() -> None:
    app = new_game(dealer=0)
    dealt = Dealt(1, tuple(parse_cards(["JC", "4H", "2S", "3S", "6D", "8D"])))
    app.state, _ = flow.enter(app.state, dealt)
    app.read()
    app.pick("Q♣")  # holding OK names the suit: the J♣ may take his nobs with it
    assert parse_line(app.record[-1], 2) == Starter(Card.parse("QC"), by_rank=True)
    app.state, _ = flow.undo(app.state)
    app.pick("Q")  # the rank alone: a stand-in suit, which gives the J♣ nothing
    assert parse_line(app.record[-1], 2) == Starter(Card.parse("QD"), suit_known=False)
    # (the stand-in takes a suit no named card can score with: not the J♣'s clubs)


PLAYED = [play(1, "3S"), play(0, "KC"), play(1, "2S"), play(0, "5C"), play(1, "4H"),
          play(0, "7C"), play(1, "JC"), play(0, "8H")]
WHEEL_CRIB = entry("crib", cards=["6D", "8D", "9S", "AS"])


def test_the_replay_shows_cards_entered_by_rank_without_suits() -> None:
    # A device record: every card entered by its rank, the wheel choosing each suit.
    lines = [header(), entry("deal", dealer=0), entry("starter", card="QD", suit_known=False),
             *PLAYED, WHEEL_CRIB]
    out = io.StringIO()
    replay(lines, out)
    told = out.getvalue()
    assert not set("♣♦♥♠") & set(told), told  # no suit was entered, none is shown
    assert "  Ben plays 3: three" in told and "  Ann plays K: thirteen" in told
    assert "  Ann's hand K 5 7 8 with Q (suit not entered): six" in told
    assert "Ann: hand 5? 7? 8? K?: Fifteen 2 (5? K?), fifteen 4 (5? Q?)" in told
    assert "Ann: crib A? 6? 8? 9?: Fifteen 2 (6? 9?)" in told


def test_the_replay_shows_the_suits_of_the_cards_dealt_by_name_only() -> None:
    # Ben named his six dealt cards; Ann's cards and the starter were entered by rank.
    lines = [header(5), entry("deal", dealer=0), BEN_DEALT,
             entry("starter", card="QD", suit_known=False), *PLAYED, WHEEL_CRIB]
    out = io.StringIO()
    replay(lines, out)
    told = out.getvalue()
    assert "  Ben plays 3♠: three" in told and "  Ann plays K: thirteen" in told
    assert "  Ben's hand 3♠ 2♠ 4♥ J♣ with Q (suit not entered): seven" in told
    assert "Ben: hand 2♠ 3♠ 4♥ J♣: Fifteen 2 (2♠ 3♠ J♣), fifteen 4 (2♠ 3♠ Q?)" in told
    assert "  Ann's crib 6♦ 8♦ 9 A with Q (suit not entered): four" in told
    assert "Ann: crib A? 6♦ 8♦ 9?: Fifteen 2 (6♦ 9?)" in told


ADVISED = entry("show", player=1, cards=["5H", "5S", "6D", "4C"])  # the advice's first keep


def favoured_page(version: int, starter: str) -> tuple[str, ...]:
    """The teaching page "The cut favoured" after Ben shows the keep the advice gave."""
    lines = [header(version), entry("deal", dealer=0),
             entry("dealt", player=1, cards=["5H", "5S", "6D", "JC", "4C", "KS"]),
             entry("starter", card=starter, suit_known=False), ADVISED]
    state = game_of(lines).state
    awards = tuple(a for a in state.awards if a.reason.value == "hand")
    pages = {page.title: page.lines for page in teach._discard_reviews(state, awards)}
    assert "Right discard" in pages
    return pages["The cut favoured"]


def test_the_discard_review_names_a_starter_entered_by_rank_by_its_rank() -> None:
    # Version 7: the engine's own suit for the queen (not clubs) is never named.
    assert favoured_page(7, "QD") == ("5♥ 5♠ J♣ K♠", "17 with the Q", "(yours scored 16)")


def test_the_discard_review_gives_no_nobs_for_a_made_up_suit() -> None:
    # An older record's stand-in queen of clubs: the J♣ kept would not have had his nobs
    # (17, not 18), and the clubs are not named.
    assert favoured_page(5, "QC") == ("5♥ 5♠ J♣ K♠", "17 with the Q", "(yours scored 16)")
