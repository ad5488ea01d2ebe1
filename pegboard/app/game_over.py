"""The end of a game: who won, the skunk and the game points, all on one screen; GO shows
the score race; OK starts the match's next game or leaves the game for the history.

The score race is folded from every entry's report (:mod:`pegboard.rules.fold`), so it is
made when GO first shows it, once for the game (:func:`race`), never for the result: a game
restored on its result reads only the reports the result shows (:func:`ended`).

A club game (its header names a club seat) is confirmed first: OK is each player's press, in
seat order, entered as a ``confirm`` for the seat named on the screen; once every seat has
confirmed, OK goes on as in any game. UNDO takes back the last press."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from pegboard import lazy
from pegboard.app import flow, menus
from pegboard.app.inputs import InputEvent
from pegboard.app.keys import steps
from pegboard.app.session import Session
from pegboard.app.state import AppState, GameOverScreen, Result
from pegboard.app.view import Screen, View
from pegboard.app.views import board
from pegboard.app.words import result_lines
from pegboard.rules.events import Confirm, NewGame
from pegboard.rules.facts import GameOver, Report
from pegboard.rules.value import replace

if TYPE_CHECKING:
    from pegboard.rules import fold
else:
    fold = lazy.module("pegboard.rules.fold")


def race_or_result(state: AppState, screen: GameOverScreen, event: InputEvent) -> Result:
    """GO switches between the result and the score race of the game."""
    return replace(state, screen=GameOverScreen(not screen.race_shown)), ()


def next_game(state: AppState, screen: GameOverScreen, event: InputEvent) -> Result:
    """OK: a club game's next confirmation; then the match's next game, or home with the
    game kept in the history."""
    assert state.session is not None
    seat = awaiting(state.session)
    if seat is not None:
        return flow.enter(state, Confirm(seat))
    gs = state.session.state
    if gs.match.winner is None and gs.rules.match_games > 1:
        return flow.enter(state, NewGame())
    return menus.finish(state)


def scroll(state: AppState, screen: GameOverScreen, event: InputEvent) -> Result:
    """Large print, where two rows of big words fit under the scores: turning scrolls the
    result a line at a time (the title first), so each line is shown whole in turn."""
    if not state.setup.large_print or screen.race_shown:
        return state, ()
    last = len(view(state, screen).lines)  # the title is line 0
    moved = max(0, min(last, screen.scroll + steps(event)))
    return replace(state, screen=replace(screen, scroll=moved)), ()


def take_back(state: AppState, screen: GameOverScreen, event: InputEvent) -> Result:
    """UNDO takes back the entry that won the game."""
    return flow.undo(state)


def view(state: AppState, screen: GameOverScreen) -> View:
    assert state.session is not None
    gs = state.session.state
    if screen.race_shown:
        return replace(board(gs, Screen.RACE, "Score race"), race=race(state.session),
                       hint="GO result  OK next")
    title, lines = result_lines(gs)
    kind = Screen.MATCH if gs.match.winner is not None and gs.rules.match_games > 1 \
        else Screen.GAME_OVER
    hint = "OK next  GO race"
    seat = awaiting(state.session)
    if seat is not None:  # a club game: each player confirms the result with one press
        hint = f"OK {gs.names[seat][:7]} confirms"
    base = board(gs, kind, title)
    over = ended(state.session)
    if over is not None:  # the board as the engine shows the end: the winner at the target
        base = replace(base, sides=tuple(replace(side, score=over.shown[s])
                                         for s, side in enumerate(base.sides)))
        lines = (*lines, f"Spread {over.spread} (from {gs.rules.target})")
    if state.teaching and seat is None:
        lines = (*lines, REVIEW_LINE)  # a learner finds the review where the game ends
    return replace(base, lines=lines, hint=hint,
                   first_line=screen.scroll if state.setup.large_print else 0)


REVIEW_LINE = "MENU: the review"
"""The game-over screen's line, with teaching on, saying where the game's review is."""


def race(session: Session) -> tuple[tuple[int, ...], ...]:
    """Each side's score after every deal of the game just ended (for the race picture): the
    race of the engine's reports folded (:mod:`pegboard.rules.fold`), from all zeros to the
    final score, the winner at the target. Folded when first shown, once for the session (a
    win taken back and made again is another session, with its own race)."""
    game = session.game
    return session.memo("race", lambda: fold.fold_reports(
        game.header, game.reports()).game.race.scores)


def ended(session: Session) -> GameOver | None:
    """The engine's report of how the game in play ended (None while it goes on): the
    newest report saying so, read back from the last entry (what follows a win is a few
    confirmations, options or offers let pass, so the reports before it are never made)."""
    gs = session.state
    if gs.winner is None:
        return None

    def newest() -> GameOver | None:
        for report in newest_first(session):
            if report.game_over is not None and report.game_over.game_no == gs.game_no:
                return report.game_over
        return None
    return session.memo("game over", newest)


def newest_first(session: Session) -> Iterator[Report]:
    """The reports of the entries in force, newest first, each made only when reached: read
    in windows that double going back, so finding one near the end makes only the last few."""
    done = len(session.events)
    window = 1
    while done > 0:
        start = max(0, done - window)
        yield from reversed(session.game.reports(start)[: done - start])
        done, window = start, window * 2


def awaiting(session: Session) -> int | None:
    """The seat whose confirmation a club game waits for, from the engine's last
    :class:`~pegboard.rules.facts.Confirmed` (None: not a club game, or confirmed)."""
    if session.header.club is None or session.state.winner is None:
        return None
    report = session.report
    confirmed = report.confirmed if report is not None else None
    if confirmed is not None and confirmed.complete:
        return None
    done = set(confirmed.confirmed) if confirmed is not None else set()
    return next(seat for seat in range(len(session.state.names)) if seat not in done)
