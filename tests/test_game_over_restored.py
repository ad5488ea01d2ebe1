"""A game restored on its result (the power cut after the winning point, or the box started
again on the result) reads only what each screen shows: the first page none of the reports
before the last entries, the result the reports back to the win, and the score race, folded
from every report, only when GO first shows it. The screens are those of the game played
without a restart."""

from __future__ import annotations

from pathlib import Path

from pegboard.app import game_over
from pegboard.app.machine import AppState, initial_state, step, view
from pegboard.app.view import Screen, View
from pegboard.config import Config
from pegboard.record.reader import replay
from pegboard.rules.fold import fold_reports
from pegboard.rules.game import Game
from tests.support.app_driver import GO, OK
from tests.support.replay_digest import record_lines

ROOT = Path(__file__).resolve().parent.parent
MUGGINS = ROOT / "examples" / "muggins.jsonl"
"""A two-player game of 246 lines that ends on its last entry (the crib's claim wins it)."""


def made(game: Game) -> int:
    """How many of the game's entries have their report made (each is made when first read:
    :class:`pegboard.rules.history.Node`)."""
    return sum(bool(node._report) for node in game._node.lineage())


def restored() -> Game:
    """The record replayed as the store replays it at start (each entry entered)."""
    game = replay(record_lines(MUGGINS)).game
    assert game is not None and game.state.winner == 0
    return game


def pressed(state: AppState, *keys: object) -> tuple[AppState, View]:
    for key in keys:
        state, _ = step(state, key, 0.0)  # type: ignore[arg-type]
    return state, view(state)


def test_a_game_restored_on_its_result_folds_the_race_only_when_go_shows_it() -> None:
    game = restored()
    entries = len(game.events)
    assert entries == 245 and made(game) == 0

    state = initial_state(Config(), resume=game)
    first = view(state)
    assert first.title == "Game restored" and first.lines[0] == "Ann 121  Ben 120"
    assert made(game) <= 2  # the offers standing: the last entry's reports, no more

    state, result = pressed(state, OK)
    assert result.screen is Screen.GAME_OVER and result.title == "Ann wins"
    assert result.hint == "OK next  GO race" and result.race == ()
    assert result.lines[-1] == "Spread 1 (from 121)"  # the engine's report of the end
    assert made(game) <= 2  # the win is the last entry's: read back no further

    state, chart = pressed(state, GO)
    assert chart.screen is Screen.RACE and chart.hint == "GO result  OK next"
    assert made(game) == entries
    race = fold_reports(game.header, game.reports()).game.race.scores
    assert chart.race == race and race[0] == (0, 0) and race[-1] == (121, 120)

    state, again = pressed(state, GO, GO)  # the race is folded once for the game
    assert again.race is chart.race


def test_the_result_and_race_restored_are_those_of_the_game_played_on() -> None:
    # The same record played entry by entry (each report made as it is entered, as the box
    # makes them in play) and shown without a restart: the same result and the same race.
    entered = restored()
    played = Game.from_header(entered.header)
    for event in entered.events:
        played, _ = played.after(event)
    assert made(played) == len(played.events) == 245

    def screens(game: Game) -> tuple[View, View]:
        state, result = pressed(initial_state(Config(), resume=game), OK)
        return result, pressed(state, GO)[1]

    assert screens(played) == screens(restored())


def test_reports_newest_first_are_the_games_reports_reversed() -> None:
    # The result reads the reports back from the last entry in windows that double: every
    # report comes once, in order, whatever the length.
    game = restored()
    session = initial_state(Config(), resume=game).session
    assert session is not None
    newest = game_over.newest_first(session)
    assert next(newest) is game.report and made(game) <= 2
    assert [next(newest) for _ in range(5)] == list(reversed(game.reports(239)))[1:]
    assert made(game) <= 8
    rest = list(newest)
    assert len(rest) == 245 - 6 and rest == list(reversed(game.reports()))[6:]
