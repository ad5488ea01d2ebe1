"""The game is a value: ``after`` gives a new game and leaves the old one exactly as it was;
``push`` and ``pop`` change a game in place (python-chess's Board); the app's session holds the
engine's game itself."""

from __future__ import annotations

import pytest

from pegboard.app.session import Session
from pegboard.errors import RuleError
from pegboard.record import dump_line
from pegboard.rules.cards import Card
from pegboard.rules.events import OptionsChanged, Play, Undo
from pegboard.rules.game import Game
from tests.support.games import parse_script, random_game

C = Card.parse


def replayed(game: Game) -> Game:
    fresh = Game.from_header(game.header)
    for event in game.events:
        fresh.push(event)
    return fresh


@pytest.mark.parametrize("seed", range(6))
def test_after_leaves_the_original_unchanged_and_equal_to_a_fresh_replay(seed: int) -> None:
    rg = random_game(seed, 2 + seed % 3, muggins=seed % 2 == 1)
    half = len(rg.events) // 2
    game = Game.from_header(rg.header)
    for event in rg.events[:half]:
        game.push(event)
    state, events = game.state, tuple(game.events)
    later = game
    for event in rg.events[half:]:
        later, _ = later.after(event)
    # The original is exactly as it was, and equal to the same entries replayed afresh.
    assert game.state == state and tuple(game.events) == events == tuple(rg.events[:half])
    assert game == replayed(game) and game.state == replayed(game).state
    # The new game is the whole record, as a fresh replay of it gives.
    assert later == replayed(later) and later.state == replayed(later).state
    assert later.state.winner == rg.winner and later != game


def test_two_futures_of_one_game_do_not_see_each_other() -> None:
    game = Game(["Ann", "Ben"])
    for event in parse_script("deal 0; starter 2C"):
        game.push(event)
    five, five_report = game.after(Play(1, C("5C")))
    king, _ = game.after(Play(1, C("KC")))
    assert (five.state.count, king.state.count, game.state.count) == (5, 10, 0)
    assert five_report.next.count == 5 and five.report is five_report
    assert tuple(five.events)[-1] == Play(1, C("5C")) and len(game.events) == 2
    back, undone = five.after(Undo())
    assert back == game and back.state == game.state and undone.next.to_act == 1


def test_an_illegal_entry_leaves_the_game_as_it_was() -> None:
    game = Game(["Ann", "Ben"])
    game.push(parse_script("deal 0")[0])
    state = game.state
    with pytest.raises(RuleError, match="turn the starter"):
        game.after(Play(1, C("5C")))
    with pytest.raises(RuleError, match="turn the starter"):
        game.push(Play(1, C("5C")))
    assert game.state is state and len(game.events) == 1


def test_push_and_pop_change_the_game_in_place() -> None:
    game = Game(["Ann", "Ben"])
    copy = game.copy()
    report = game.push(parse_script("deal 0")[0])
    assert game.report is report and copy.report is None and len(copy.events) == 0
    assert game.pop() == parse_script("deal 0")[0]
    assert game == copy and game.report is None
    with pytest.raises(RuleError, match="nothing to undo"):
        game.pop()


def test_the_session_holds_the_game_and_apply_returns_the_report() -> None:
    session = Session.new(Game(["Ann", "Ben"]).header)
    session, _ = session.apply(parse_script("deal 0")[0])
    start = session
    heels, report = session.apply(parse_script("starter JH")[0])
    assert [(a.reason, a.points) for a in report.awards] == [("his heels", 2)]
    assert heels.report is report and heels.game.state.scores == (2, 0)
    assert start.state.scores == (0, 0) and len(start.events) == 1  # unchanged
    taught, _ = heels.apply(OptionsChanged(teaching=True))
    assert taught.table.teaching and not heels.table.teaching
    assert not taught.undo().table.teaching and taught.undo() == heels
    lines = [dump_line(heels.header), *(dump_line(event) for event in heels.events)]
    assert Session.resume(lines) == heels
