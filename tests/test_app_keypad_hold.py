"""Keypad, from the player's side: holding a rank key enters the card with its suit fact, as a
tap enters the plain card; where a rank has several facts the hold shows them in turn and a tap
of the same key enters the one shown. Nothing the hold showed is lost to a later key."""

from __future__ import annotations

from pegboard.app.inputs import RankKey
from pegboard.rules.cards import Rank
from pegboard.rules.state import Phase
from tests.support.app_driver import App


def keypad_play() -> App:
    """Keypad game: P1 deals, starter 5 entered by its key, P2 to lead."""
    app = App.start("keypad")
    app.feed(RankKey(Rank.ACE), RankKey(Rank.ACE), RankKey(Rank.TWO))
    app.rank(Rank.FIVE)
    assert app.game.phase is Phase.PLAY
    return app


def test_holding_the_jack_enters_it_with_nobs() -> None:
    app = keypad_play()
    app.rank(Rank.JACK, long=True)
    assert len(app.game.played[1]) == 1  # entered by the hold itself
    starter = app.game.starter
    assert starter is not None and app.game.played[1][0].suit is starter.suit
    app.rank(Rank.KING)  # the next tap is the next player's card, not a different jack
    assert [c.rank for c in app.game.played[1]] == [Rank.JACK]
    assert [c.rank for c in app.game.played[0]] == [Rank.KING]


def test_the_jack_and_its_nobs_score_in_the_show() -> None:
    app = keypad_play()
    for rank, long in ((Rank.JACK, True), (Rank.ACE, False), (Rank.TWO, False),
                       (Rank.ACE, False), (Rank.THREE, False), (Rank.ACE, False),
                       (Rank.FOUR, False), (Rank.TWO, False)):
        app.rank(rank, long=long)
    hand = next(a for a in app.game.awards if a.reason == "hand" and a.player == 1)
    assert any(item.kind == "nobs" for item in hand.items)
