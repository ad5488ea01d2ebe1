"""The cards laid away (``laid_away``, docs/record.md): after a player's dealt cards, which of
them went to the crib. The engine then knows the hand kept: plays come from it, a go while
one of it fits is refused, the hand is counted without a ``show`` line, and the crib holds the
cards laid away (counted without a ``crib`` line once every card of it is known)."""

from __future__ import annotations

import io

import pytest

from pegboard.errors import RuleError
from pegboard.record.parse import parse_line
from pegboard.record.reader import read_game
from pegboard.record.writer import dump_line, write
from pegboard.rules.cards import Card, parse_cards
from pegboard.rules.events import (
    Crib,
    Deal,
    Dealt,
    Event,
    GameHeader,
    Go,
    LaidAway,
    OptionsChanged,
    Play,
    Show,
    Starter,
    TableOptions,
    Undo,
)
from pegboard.rules.game import Game
from pegboard.rules.state import Phase, Reason
from pegboard.rules.variants import Rules

ANN = "AH 2S 3D 9C TC QS"  # Ann deals and lays TC QS away
BEN = "5H 5S 6D JC 4C KS"  # Ben lays 4C KS away


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def card(text: str) -> Card:
    return Card.parse(text)


def laid(game: Game, *events: Event) -> Game:
    for event in events:
        game = game.after(event)[0]
    return game


def dealt_and_laid_away(rules: Rules | None = None) -> Game:
    game = Game(("Ann", "Ben"), rules)
    return laid(game, Deal(0), Dealt(0, cards(ANN)), Dealt(1, cards(BEN)),
                LaidAway(1, cards("4C KS")), LaidAway(0, cards("TC QS")))


PLAY = "1 5H,0 AH,1 5S,0 9C,1 6D,0 2S,1 go,0 3D,1 JC"


def played(game: Game, script: str = PLAY) -> Game:
    for step in script.split(","):
        seat, what = step.split()
        game = game.after(Go(int(seat)) if what == "go" else Play(int(seat), card(what)))[0]
    return game


def refused(game: Game, event: Event, words: str) -> None:
    before = game.state
    with pytest.raises(RuleError, match=words):
        game.after(event)
    assert game.state == before


def test_the_hand_kept_is_known_and_the_laid_away_cards_are_recorded() -> None:
    game = dealt_and_laid_away()
    gs = game.state
    assert gs.laid_away == (cards("TC QS"), cards("4C KS"))
    assert gs.hands == (cards("AH 2S 3D 9C"), cards("5H 5S 6D JC"))


def test_laid_away_is_refused_without_the_dealt_cards_twice_or_wrong() -> None:
    game = laid(Game(("Ann", "Ben")), Deal(0))
    refused(game, LaidAway(1, cards("4C KS")), "enter the cards dealt to Ben first")
    game = laid(game, Dealt(1, cards(BEN)))
    refused(game, LaidAway(1, cards("4C")), "lays 2 cards away to the crib, got 1")
    refused(game, LaidAway(1, cards("4C 4C")), "twice")
    refused(game, LaidAway(1, cards("4C AH")), "AH was not dealt to Ben")
    refused(game, LaidAway(3, cards("4C KS")), "not at this table")
    game = laid(game, LaidAway(1, cards("4C KS")))
    refused(game, LaidAway(1, cards("5H 5S")), "Ben laid 4C KS away already")
    later = laid(game, Starter(card("7D")))
    refused(later, LaidAway(0, cards("TC QS")), "before the starter")


def test_three_players_lay_one_card_away() -> None:
    game = laid(Game(("Ann", "Ben", "Cy")), Deal(0), Dealt(1, cards("AH 2S 3D 9C TC")))
    refused(game, LaidAway(1, cards("9C TC")), "lays 1 card away to the crib, got 2")
    assert laid(game, LaidAway(1, cards("TC"))).state.hands[1] == cards("AH 2S 3D 9C")


def test_a_card_laid_away_cannot_be_played_and_a_false_go_is_refused() -> None:
    game = laid(dealt_and_laid_away(), Starter(card("7D")))
    refused(game, Play(1, card("KS")), "Ben laid KS away to the crib")
    assert not game.state.can_play(1, card("KS"))
    assert game.state.can_play(1, card("5H"))
    game = played(game, "1 5H,0 AH,1 5S,0 9C,1 6D,0 2S,1 go")
    refused(game, Go(0), "Ann holds 3D, which fits at 28")


def test_the_show_and_the_crib_need_no_entry() -> None:
    game = played(laid(dealt_and_laid_away(), Starter(card("7D"))))
    gs = game.state
    assert gs.phase is Phase.DEAL and gs.deal_no == 1
    assert gs.crib == cards("TC QS 4C KS")
    counted = [(a.player, a.reason, a.points) for a in gs.awards]
    assert counted == [
        (0, Reason.THIRTY_ONE, 2), (1, Reason.LAST_CARD, 1), (1, Reason.HAND, 12),
        (0, Reason.HAND, 5),
    ]  # the crib (10 Q 4 K with the 7) makes nothing, so nothing is pegged
    assert gs.scores == (7, 13)


def test_a_crib_that_scores_is_pegged_for_the_dealer() -> None:
    game = Game(("Ann", "Ben"))
    game = laid(game, Deal(0), Dealt(0, cards("AH 2S 3D 9C 5C TD")),
                Dealt(1, cards("4H 4S 6D JC 8C KS")), LaidAway(0, cards("5C TD")),
                LaidAway(1, cards("8C KS")), Starter(card("QH")))
    game = played(game, "1 4H,0 9C,1 4S,0 AH,1 6D,0 3D,1 go,0 2S,1 JC")
    crib = [a for a in game.state.awards if a.reason is Reason.CRIB]
    assert [(a.player, a.points) for a in crib] == [(0, 6)]  # 5 10, 5 Q, 5 K: three fifteens
    assert game.state.phase is Phase.DEAL


def test_a_crib_line_must_hold_the_cards_laid_away() -> None:
    game = Game(("Ann", "Ben", "Cy"))
    game = laid(game, Deal(0), Dealt(1, cards("AH 2S 3D 9C TC")), LaidAway(1, cards("TC")),
                Starter(card("7D")))
    # The play pegged by points: the first hand shown after it is Cy's, Ben's being known.
    refused(game, Show(1, cards("AH 2S 3D TC")), "Ben's hand was already counted")
    game = laid(game, Show(2, cards("4C 5C 6C 8S")), Show(0, cards("KH KD QH JS")))
    counted = [(a.player, a.points) for a in game.state.awards if a.reason is Reason.HAND]
    assert counted == [(1, 5), (2, 9), (0, 8)]
    assert game.state.phase is Phase.CRIB  # three players: a crib card came from the pack
    refused(game, Crib(cards("QC QD QS KS")), "Ben laid TC away: it must be in the crib")
    refused(game, Crib(cards("TC 9C QD QS")), "9C is in Ben's hand")
    assert laid(game, Crib(cards("TC QD QS KS"))).state.phase is Phase.DEAL


def test_undo_takes_the_laid_away_cards_back() -> None:
    game = dealt_and_laid_away()
    game = laid(game, Undo())
    assert game.state.laid_away == (None, cards("4C KS"))
    assert game.state.hands[0] is None


def test_a_record_keeps_the_laid_away_cards_through_a_restart() -> None:
    header = GameHeader(("Ann", "Ben"), table=TableOptions(teaching=True, open_hands=True))
    events: list[Event] = [Deal(0), Dealt(0, cards(ANN)), Dealt(1, cards(BEN)),
                           LaidAway(1, cards("4C KS")), LaidAway(0, cards("TC QS")),
                           Starter(card("7D")), Play(1, card("5H"))]
    buffer = io.StringIO()
    write(buffer, header, events)
    text = buffer.getvalue()
    assert '{"type": "laid_away", "player": 1, "cards": ["4C", "KS"]}' in text
    assert '"table": {"teaching": true, "open_hands": true}' in text
    game = read_game(text.splitlines())
    assert game.state.hands[1] == cards("5H 5S 6D JC")
    assert game.state.laid_away[0] == cards("TC QS")


def test_laid_away_and_open_hands_lines_round_trip() -> None:
    for item in (LaidAway(1, cards("4C KS")), OptionsChanged(open_hands=True)):
        assert parse_line(dump_line(item)) == item
    with pytest.raises(Exception, match="accepted are count_yourself, open_hands"):
        parse_line('{"type": "game", "players": ["A", "B"], "table": {"open": true}}')


def test_the_pegging_knowledge_is_the_hand_kept_with_the_crib_cards_seen() -> None:
    from pegboard.coach.knowledge import OwnCards, knowledge_for

    only_dealt = laid(Game(("Ann", "Ben")), Deal(0), Dealt(1, cards(BEN)), Starter(card("7D")))
    known = knowledge_for(only_dealt.state)
    assert known is not None and known.own is OwnCards.DEALT and known.held == ()
    game = laid(dealt_and_laid_away(), Starter(card("7D")))
    known = knowledge_for(game.state)
    assert known is not None and known.own is OwnCards.KEPT
    assert known.cards == cards("5H 5S 6D JC") and known.held == known.cards
    assert set(cards("4C KS")) <= set(known.seen)  # Ben's own crib cards: not Ann's to hold


def test_the_replay_tells_the_cards_laid_away(tmp_path: object,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    from pegboard.cli import main

    assert isinstance(tmp_path, Path)
    buffer = io.StringIO()
    write(buffer, GameHeader(("Ann", "Ben")), [
        Deal(0), Dealt(1, cards(BEN)), LaidAway(1, cards("4C KS")), Starter(card("7D"))])
    record = tmp_path / "game.jsonl"
    record.write_text(buffer.getvalue(), encoding="utf-8")
    assert main(["replay", str(record)]) == 0
    assert "  Ben lays 4♣ K♠ away to the crib\n" in capsys.readouterr().out
