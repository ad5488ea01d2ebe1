"""A phone seat's discard review: on its own phone, and nowhere else.

In a teaching game the box reviews a hand's discard when the hand is counted
(:mod:`pegboard.coach.review`); for a seat a phone holds it keeps that review off its shared
screen, and the seat's phone shows it instead, through the next deal. Checked over the raw
answers: the seat's own ``/phone/me`` holds the review; the other seat's, the scoreboard's
``/api/game`` and ``/events``, and every screen the box drew do not.
"""

from __future__ import annotations

import json
from pathlib import Path

from pegboard.app.view import View
from pegboard.coach import review
from pegboard.rules.cards import Card, EnteredCard
from pegboard.rules.events import (
    Claim,
    OptionsChanged,
)
from pegboard.rules.game import Game
from pegboard.rules.state import Phase
from pegboard.rules.variants import Rules
from pegboard.web.phone_view import review_json, seat_json
from tests.support.phones import Listener, phone_board, request
from tests.test_phone_games import played_deal
from tests.test_phone_server import ANN_SIX, BEN_SIX, joined, me, play_deal


def cards(words: list[str]) -> tuple[Card, ...]:
    return tuple(Card.parse(word) for word in words)


def expected_lines(six: list[str], starter: str, *, dealer: bool) -> list[str]:
    """The coach's own review of keeping the first four of ``six``."""
    dealt = cards(six)
    found = review.review_discard(dealt, dealt[:4], dealer=dealer,
                                  starter=EnteredCard.of(Card.parse(starter)))
    return list(found.lines())


def box_text(views: list[View]) -> str:
    """Everything the box's screen showed (every frame's view, as text)."""
    return "\n".join(repr(view) for view in views)


def test_the_review_of_a_phones_discard_is_on_that_phone_alone(tmp_path: Path) -> None:
    """A teaching game, both seats on phones: after the deal's show each phone's raw view
    holds the review of its own discard (the coach's words, for the deal counted) and not
    the other seat's; the scoreboard's answers and stream, and the box's screens, hold
    neither."""
    with phone_board(tmp_path, dealer=0, first=(OptionsChanged(teaching=True),)) as board:
        tokens = joined(board)
        spectator = Listener(board.port, "/events")
        try:
            assert me(board, tokens[0])["review"] is None  # nothing counted yet
            play_deal(board, tokens, starter="7S")
            assert board.game.deal_no == 2 and board.game.phase is Phase.STARTER
            lines = len(board.store.current().records)  # type: ignore[union-attr]
            spectator.wait_for(f'"lines":{lines},'.encode(), "the scoreboard's last line")
        finally:
            spectator.close()
        ann, ben = me(board, tokens[0]), me(board, tokens[1])
        ann_review = expected_lines(ANN_SIX, "7S", dealer=True)
        ben_review = expected_lines(BEN_SIX, "7S", dealer=False)
        assert ann["review"] == {"deal_no": 1, "lines": ann_review}, ann["review"]
        assert ben["review"] == {"deal_no": 1, "lines": ben_review}, ben["review"]
        assert ann["last_count"]["deal_no"] == 1  # the deal the "Last count" shows
        assert ann_review != ben_review
        status, scoreboard = request(board.port, "GET", "/api/game")
        assert status == 200
        public = {"the scoreboard's /api/game": json.dumps(scoreboard, ensure_ascii=False),
                  "the scoreboard's /events": bytes(spectator.raw).decode(),
                  "the box's screens": box_text(board.views),
                  "Ben's phone": json.dumps(ben, ensure_ascii=False)}
        for where, text in public.items():
            for line in ann_review:
                assert line not in text, (where, line)
        for where in ("the scoreboard's /api/game", "the scoreboard's /events",
                      "the box's screens"):
            for line in ben_review:
                assert line not in public[where], (where, line)
        # The box's screen never showed a discard's review page either.
        assert not any(view.title in ("Right discard", "The cut favoured")
                       or view.title.startswith("Discard:") for view in board.views)


def test_the_review_waits_for_the_claim_and_names_the_deal_counted() -> None:
    """Pure: no review outside teaching or before the seat's hand is counted; in a muggins
    game none while the seat's claim for its hand is still to come; after the count, the
    review of that deal, kept through the next deal's play, until that deal's own counts
    (then its review, once the seat's hand is claimed)."""
    ann, ben = cards(ANN_SIX), cards(BEN_SIX)
    game = Game(["Ann", "Ben"], Rules(muggins=True))
    for event in (OptionsChanged(teaching=True), *played_deal(0, ann, ben)):
        game.push(event)

    def claim_next() -> None:
        pending = game.state.pending_claims[0]
        game.push(Claim(pending.player, pending.points))

    claim_next()  # Ann's last card
    assert game.state.pending_claims[0].player == 1  # Ben's hand, counted, to be claimed
    assert review_json(game, 1) is None and review_json(game, 0) is None
    claim_next()
    ben_review = review_json(game, 1)
    assert ben_review == {"deal_no": 1, "lines": expected_lines(BEN_SIX, "7S", dealer=False)}
    assert seat_json(game, 1, game_id=None, phones=(0, 1))["review"] == ben_review
    assert review_json(game, 0) is None  # Ann's hand still waits for her claim
    claim_next()
    ann_review = review_json(game, 0)
    assert ann_review == {"deal_no": 1, "lines": expected_lines(ANN_SIX, "7S", dealer=True)}
    claim_next()  # Ann's crib
    assert not game.state.pending_claims
    # The next deal, Ben dealing, through its play: still the first deal's reviews.
    for event in played_deal(1, ben, ann)[:-1]:
        game.push(event)
    assert game.state.deal_no == 2 and game.state.phase is Phase.PLAY
    assert (review_json(game, 0), review_json(game, 1)) == (ann_review, ben_review)
    # A game not taught has no review.
    plain = Game(["Ann", "Ben"])
    for event in played_deal(0, ann, ben):
        plain.push(event)
    assert seat_json(plain, 1, game_id=None, phones=(0, 1))["review"] is None
