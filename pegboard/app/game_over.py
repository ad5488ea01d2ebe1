"""The end of a game: who won, the skunk and the game points, all on one screen; GO shows
the score race; OK starts the match's next game or leaves the game for the history.

A club game (its header names a club seat) is confirmed first: OK is each player's press, in
seat order, entered as a ``confirm`` for the seat named on the screen; once every seat has
confirmed, OK goes on as in any game. UNDO takes back the last press."""

from __future__ import annotations

from pegboard.app import flow, menus
from pegboard.app.inputs import InputEvent
from pegboard.app.keys import steps
from pegboard.app.session import Session
from pegboard.app.state import AppState, GameOverScreen, Result
from pegboard.app.view import Screen, View
from pegboard.app.views import board
from pegboard.app.words import result_lines
from pegboard.rules.events import Confirm, NewGame
from pegboard.rules.facts import GameOver
from pegboard.rules.value import replace


def race(state: AppState, screen: GameOverScreen, event: InputEvent) -> Result:
    """GO switches between the result and the score race of the game."""
    if not state.race:
        return state, ()
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
        return flow.enter(replace(state, race=()), NewGame())
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
    return flow.undo(replace(state, race=()))


def view(state: AppState, screen: GameOverScreen) -> View:
    assert state.session is not None
    gs = state.session.state
    if screen.race_shown and state.race:
        return replace(board(gs, Screen.RACE, "Score race"), race=state.race,
                       hint="GO result  OK next")
    title, lines = result_lines(gs)
    kind = Screen.MATCH if gs.match.winner is not None and gs.rules.match_games > 1 \
        else Screen.GAME_OVER
    hint = "OK next  GO race" if state.race else "OK next"
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
    return replace(base, lines=lines, race=state.race, hint=hint,
                   first_line=screen.scroll if state.setup.large_print else 0)


REVIEW_LINE = "MENU: the review"
"""The game-over screen's line, with teaching on, saying where the game's review is."""


def ended(session: Session) -> GameOver | None:
    """The engine's report of how the game in play ended (None while it goes on)."""
    gs = session.state
    if gs.winner is None:
        return None
    return session.memo("game over", lambda: next(
        (report.game_over for report in reversed(session.game.reports())
         if report.game_over is not None and report.game_over.game_no == gs.game_no), None))


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
