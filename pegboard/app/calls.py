"""Muggins calls: the opponents' skill, not the box's.

In a muggins game each owner claims their own score (:mod:`pegboard.app.show`); points they
under-claim may be taken by an opponent who calls "muggins" (ACC 10). Spotting the miss is the
opponents' job, so by default the box keeps the true count to itself:

* after **every** claim the table is asked whether anyone calls, so the question itself gives
  nothing away; the screen says only what was claimed;
* "No muggins" is listed first and is where the list starts: no side is ever pre-selected;
* once the table has answered, the count's page shows what was right ("Ann's hand: 12 (said
  10)"); a call made when nothing was missed says so and takes nothing.

With teaching on, the box keeps today's open way, as a lesson: the table is asked only when
points were missed, the title naming them ("Ann missed 2"), with the opponent first.
"""

from __future__ import annotations

from dataclasses import replace

from pegboard.app import flow
from pegboard.app.effects import Effect
from pegboard.app.inputs import InputEvent
from pegboard.app.keys import list_move
from pegboard.app.state import AppState, Calling, Page, Reading, Result
from pegboard.app.view import Screen, View
from pegboard.app.views import board, numbered
from pegboard.rules.events import Claim, Muggins
from pegboard.rules.state import GameState

NO_MUGGINS = "No muggins"


def _gs(state: AppState) -> GameState:
    assert state.session is not None
    return state.session.state


def claim(state: AppState, player: int, points: int) -> Result:
    """Enter ``player``'s claim of ``points``; without teaching, ask the table whether anyone
    calls muggins before the pages that show what the score really was."""
    assert state.session is not None
    entries = len(state.session.events)
    new, effects = flow.enter(state, Claim(player, points))
    refused = new.session is None or len(new.session.events) == entries
    if refused or new.teaching or not isinstance(new.screen, Reading) or (
            not flow.muggins_open(new)):
        return new, effects
    return replace(new, screen=flow.question(new, new.screen.pages)), effects


def _rows(gs: GameState, screen: Calling) -> list[tuple[int, str]]:
    """Who may call: each player of another side than the owner's, and nobody."""
    if screen.blind:
        callers = [p for p in range(gs.players) if gs.side_of(p) != gs.side_of(screen.owner)]
        return [(-1, NO_MUGGINS), *[(p, f"{gs.names[p]}: muggins") for p in callers]]
    missed = gs.pending_muggins
    assert missed is not None
    owner = gs.side_of(missed.owner)
    rows = [(p, f"{gs.names[p]}: muggins {missed.points}")
            for p in range(gs.players) if gs.side_of(p) != owner]
    return [*rows, (-1, NO_MUGGINS)]


def call_move(state: AppState, screen: Calling, event: InputEvent) -> Result:
    """Choose who calls muggins (and takes the missed points), or nobody."""
    gs = _gs(state)
    rows = _rows(gs, screen)
    index, row = list_move(screen.index, event, len(rows))
    if row is None:
        return replace(state, screen=replace(screen, index=index)), ()
    caller = rows[row][0]
    assert state.session is not None
    if not screen.blind:
        if caller < 0:
            return flow.settle(replace(state, passed=len(state.session.events)))
        missed = gs.pending_muggins
        assert missed is not None
        return flow.enter(state, Muggins(caller, missed.points))
    declined = replace(state, passed=len(state.session.events))
    missed = gs.pending_muggins
    if caller < 0 or screen.missed == 0 or missed is None:
        pages = screen.then
        if caller >= 0:
            owner = gs.names[screen.owner]
            pages = (Page("Muggins", (f"{gs.names[caller]} calls muggins,",
                                      f"but {owner} missed nothing.")), *pages)
        return _then(declined, pages, ())
    return flow.enter(state, Muggins(caller, missed.points), screen.then)


def _then(state: AppState, pages: tuple[Page, ...], effects: tuple[Effect, ...]) -> Result:
    """Read ``pages`` (what was right), then on to what the table needs next."""
    if pages:
        return replace(state, screen=Reading(pages)), effects
    return flow.settle(state, list(effects))


def calling_view(state: AppState, screen: Calling) -> View:
    """The question: who calls muggins, if anyone."""
    gs = _gs(state)
    rows = [label for _, label in _rows(gs, screen)]
    if screen.blind:
        title = screen.title
    else:
        missed = gs.pending_muggins
        assert missed is not None
        title = f"{gs.names[missed.owner]} missed {missed.points}"
    return replace(board(gs, Screen.CONFIRM, title), lines=numbered(state.keypad, rows),
                   selected=screen.index % len(rows), hint="OK choose")
