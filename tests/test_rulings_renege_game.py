"""A renege that decides the game can still be claimed (ACC 7.3; docs/rules.md, "Renege").

Ann (seat 0, the pone) is at 115 when she says go at 25 holding 5♠ and 3♥, both of which
fitted. The points she pegs after it (the go, a fifteen, another go) and her hand then count
her out in the show, all in the entry that ends the play. The renege is reported, and its
claim is still accepted: the play goes back to the go, Ann is on 115 again, nobody has won,
and played right she ends the deal on 120.
"""

from __future__ import annotations

import json

import pytest

from pegboard.app import flow
from pegboard.app.state import GameOverScreen
from pegboard.errors import RuleError
from pegboard.rules.cards import Card
from pegboard.rules.state import Phase
from tests.referee import judge
from tests.referee.compare import differences
from tests.support.app_driver import OK, new_game
from tests.support.rulings_records import entry, event, game_of, go, header, play

DEAL = [entry("deal", dealer=0), entry("deal"), entry("starter", card="AC")]
WRONG_PLAY = [
    play(0, "KD"), play(1, "7C"), play(0, "8D"), go(1), go(0),  # Ann reneges at 25
    play(1, "TC"), play(0, "5S"), play(1, "QC"), play(0, "3H"), go(1), play(1, "KC"),
]
RIGHT_PLAY = [play(0, "3H"), go(0), play(1, "TC"), play(0, "5S"), play(1, "QC"), go(1),
              play(1, "KC")]
CLAIM = entry("penalty", player=0, infraction="renege")


def scores_before(ann: int, ben: int) -> list[str]:
    """A game line and a first hand pegged by points, leaving Ann and Ben where given."""
    return [header(match_games=3), entry("deal", dealer=0), entry("peg", player=0, points=ann),
            entry("peg", player=1, points=ben)]


def test_a_renege_that_decided_the_game_is_reported_and_can_be_claimed() -> None:
    game = game_of([*scores_before(115, 80), *DEAL[1:], *WRONG_PLAY])
    won = game.state
    assert won.phase is Phase.GAME_OVER and won.winner == 0 and won.scores[0] == 121
    (report,) = won.reneges
    assert (report.player, report.count, report.points) == (0, 25, 4)
    game.apply(event(CLAIM))
    state = game.state
    assert state.winner is None and state.result is None and state.match.played == ()
    assert state.scores == (115, 80 + 4)  # all Ann pegged since the go is taken back
    assert (state.phase, state.to_act, state.count) == (Phase.PLAY, 0, 25)
    for line in RIGHT_PLAY:
        game.apply(event(line))
    assert game.state.phase is Phase.CRIB and game.state.winner is None
    assert game.state.scores[0] == 120


def test_other_entries_after_that_win_are_refused() -> None:
    game = game_of([*scores_before(115, 80), *DEAL[1:], *WRONG_PLAY])
    with pytest.raises(RuleError, match="the game is over: Ann won"):
        game.apply(event(entry("crib", cards=["2S", "4H", "9D", "9S"])))
    with pytest.raises(RuleError, match="the game is over"):
        game.apply(event(entry("penalty", player=1, infraction="renege")))  # Ben did not


def test_a_renege_by_a_player_whose_last_card_wins_is_reported() -> None:
    # At 117 Ann pegs out in the play: the go after her last card (3♥) makes 121.
    game = game_of([*scores_before(117, 80), *DEAL[1:], *WRONG_PLAY[:-1]])
    assert game.state.winner == 0 and game.state.scores[0] == 121
    (report,) = game.state.reneges
    assert (report.player, report.cards) == (0, (Card.parse("5S"), Card.parse("3H")))
    game.apply(event(CLAIM))
    assert game.state.winner is None and game.state.scores == (117, 84)


def test_a_win_on_points_the_take_back_keeps_stands() -> None:
    game = game_of([*scores_before(100, 100), *DEAL[1:], *WRONG_PLAY,
                    entry("peg", player=1, points=25)])
    assert game.state.winner == 1
    with pytest.raises(RuleError, match=r"Ben reached 121 on points the renege does not take "
                                        r"back: the game is over \(ACC 7\.3"):
        game.apply(event(CLAIM))


def test_a_win_on_the_crib_ends_the_deal_and_the_claim() -> None:
    game = game_of([*scores_before(60, 110), *DEAL[1:], *WRONG_PLAY,
                    entry("crib", cards=["2S", "4H", "9D", "9S"])])
    assert game.state.winner == 1
    with pytest.raises(RuleError, match="the game is over: Ben won"):
        game.apply(event(CLAIM))


def test_the_independent_referee_agrees_on_the_claim_after_the_win() -> None:
    lines = [*scores_before(115, 80), *DEAL[1:], *WRONG_PLAY, CLAIM, *RIGHT_PLAY,
             entry("crib", cards=["2S", "4H", "9D", "9S"])]
    record = [json.loads(line) for line in lines]
    assert differences(record) == []
    verdict = judge(record)
    assert verdict.rejected_line is None and verdict.result.winner is None
    assert verdict.result.scores == [120, 80 + 4 + 1 + 1 + 5 + 6]


def test_the_device_offers_the_claim_after_the_win_and_the_game_goes_on() -> None:
    app = new_game(dealer=1)  # Ben (the second seat) deals, Ann leads
    lines = [entry("peg", player=0, points=115), entry("peg", player=1, points=80),
             entry("starter", card="AC"), *WRONG_PLAY]
    for line in lines:
        app.state, _ = flow.enter(app.state, event(line))
        if line != lines[-1]:
            app.read()
    assert app.game.winner == 0
    titles = []
    while app.pages:
        titles.append(app.pages[0].title)
        app.feed(OK)  # OK on the renege page claims it
    assert "Renege" in titles and titles[-1] == "Taken back"
    assert app.game.winner is None and app.game.phase is Phase.PLAY
    assert not isinstance(app.state.screen, GameOverScreen)
    assert '"infraction": "renege"' in app.record[-1]
