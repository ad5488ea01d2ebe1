"""Cards entered by rank on the box reach no phone, no scoreboard and no stream with the
suit the card wheel gave them (issue 31: no output invents a missing fact), and a phone's
real card is taken, with its own suit, when a box stand-in was given that suit (the
stand-in moves).

One board for the module's one deal: the starter and Ben's lead entered by rank alone on the
box (the wheel's stand-ins 6C and 5C), Ann's phone holding no entered hand."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pegboard.rules.cards import Card, Rank
from pegboard.rules.events import Play, Starter
from pegboard.rules.state import Phase
from pegboard.web.phone_view import ActionError, held_by_rank, read_action, seat_json
from tests.support.phones import Board, Listener, phone_board, request
from tests.test_app_keys_answer import taken_back
from tests.test_phone_server import act, joined, me

SUITED = re.compile(r"\b(?:10|[2-9TJQKA])[CDHS]\b|[\u2660-\u2667]")
"""A card named with a suit, in the record's names or the page's signs."""

STAND_INS = (Starter(Card.parse("6C"), suit_known=False), Play(1, Card.parse("5C")))
"""The box's entries by rank: the starter (Ann deals) and Ben's lead."""


def followed(board: Board, watcher: Listener) -> None:
    """Until the scoreboard has followed the store to its last line (bounded, naming it)."""
    lines = len(board.store.current().records)  # type: ignore[union-attr]
    watcher.wait_for(f'"lines":{lines},'.encode(), f"the scoreboard's line {lines}")


def test_no_stand_in_suit_is_sent_and_a_phones_real_card_is_taken(tmp_path: Path) -> None:
    with phone_board(tmp_path, dealer=0, first=STAND_INS) as board:
        tokens = joined(board)
        watcher = Listener(board.port, "/events")
        try:
            gs = board.game
            assert gs.phase is Phase.PLAY and gs.to_act == 0, gs.phase
            assert not gs.suit_entered(Card.parse("5C"))
            ann = me(board, tokens[0])
            # The phone's grid is drawn from ``seen``: named by rank, so no real card of
            # Ann's (the 5 of clubs, the 6 of clubs) is greyed out for the wheel's suit.
            assert ann["asks"] == "play" and ann["held"] is None
            assert ann["seen"] == ["5", "6"], ann["seen"]
            assert not SUITED.search(json.dumps(ann)), ann
            followed(board, watcher)
            status, game = request(board.port, "GET", "/api/game")
            assert status == 200 and game["game"]["pile"] == ["5"], game["game"]
            # Ann's real five of clubs, the suit Ben's stand-in was given: taken as the
            # five of clubs (a pair), and Ben's five, entered by its rank alone, moves to a
            # suit nobody holds: the record keeps the phone's real suit.
            status, data = act(board, tokens[0], {"do": "play", "card": "5C"})
            assert status == 200 and data["taken"], data
            gs = board.game
            ben = gs.played[1][0]
            assert gs.played[0] == (Card.parse("5C"),) and ben.rank is Rank.FIVE, gs.played
            assert ben != Card.parse("5C") and gs.pile == (ben, Card.parse("5C"))
            assert gs.suit_entered(Card.parse("5C")) and not gs.suit_entered(ben)
            assert gs.scores == (2, 0)
            recorded = board.recorded()
            assert recorded.played == gs.played and recorded.named_laid == {Card.parse("5C")}
            # The phone's real card is a fact, named whole; Ben's stand-in is never named.
            for token in tokens:
                view = me(board, token)
                assert SUITED.findall(json.dumps(view)) in ([], ["5C"], ["5C", "5C"]), view
            assert me(board, tokens[0])["played"] == ["5C"]
            assert me(board, tokens[0])["seen"] == ["5", "5C", "6"]
            followed(board, watcher)
            status, game = request(board.port, "GET", "/api/game")
            assert status == 200 and game["game"]["pile"] == ["5", "5C"], game["game"]
            assert SUITED.findall(json.dumps(game)) == ["5C"], game
            raw = bytes(watcher.raw).decode()
            assert '"pile":["5","5C"]' in raw.replace(" ", ""), raw[-2000:]
            assert set(SUITED.findall(raw)) == {"5C"}, SUITED.findall(raw)
            assert str(ben) not in SUITED.findall(raw)
        finally:
            watcher.close()


def test_cards_taken_back_by_rank_are_sent_and_laid_by_rank() -> None:
    """After a renege's take-back Ben (P2) holds 2 4 6, each entered by rank alone on the
    box: his phone is sent them by rank, no stand-in suit anywhere in its view, and a tap on
    the "4" lays the very card the engine holds."""
    app = taken_back()
    session = app.state.session
    assert session is not None
    game = session.game
    mine = seat_json(game, 1, game_id="g", phones=frozenset({1}))
    assert mine["held"] == mine["by_rank"] == ["2", "4", "6"], mine
    assert mine["playable"] == ["2", "4", "6"] or set(mine["playable"]) <= {"2", "4", "6"}
    assert not SUITED.search(json.dumps(mine)), mine
    by_rank = held_by_rank(game, 1)
    entries, seq = read_action({"do": "play", "card": "4", "seq": 3}, 1, by_rank)
    four = next(c for c in game.state.hands[1] or () if c.rank is Rank.FOUR)
    assert entries == (Play(1, four),) and seq == 3
    after, _ = session.apply(entries[0])
    assert after.state.count == 24 and four in after.state.played[1]
    # Without the seat's cards by rank, a rank alone is no card.
    with pytest.raises(ActionError):
        read_action({"do": "play", "card": "4", "seq": 3}, 1)
