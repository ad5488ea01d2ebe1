"""Claims and muggins calls: the owners' count and the opponents' skill, not the box's.

In a muggins game each owner claims their own score (:mod:`pegboard.app.show`); points they
under-claim may be taken by an opponent who calls "muggins" before the next score is pegged
(ACC 10). Spotting the miss is the opponents' job, so by default the box keeps the true count
to itself and asks nothing:

* after a claim the table goes straight on; the screen says only what was claimed (a hand's
  or crib's claim stays on the award line: "Ann's crib: claimed 6"), and a hand's or crib's
  page of what was right is not shown while muggins can be called on it: it comes when the
  window shuts (the next claim, a call), never while an opponent may still call;
* an opponent calls with a key of their own while the window is open: the menu's
  "Muggins: Ben" row, there after **every** claim until the next score is pegged (a right
  claim too, so the row gives nothing away); the call takes what was missed, or says
  nothing was;
* the crib's claim ends the deal's counting and the next deal's starter is asked for at once:
  the call stays open across the deal until the next score is pegged (record version 5), so
  no page waits to be passed; its page comes if the window shuts before the next deal begins
  (a call made at the next starter), and not at all once it has (never in the middle of
  the play);
* a go's point or the last card's, alone, is claimed by the entry that wins it (the owner's
  GO, the last card laid): players say "one for go" as they say it, and there is nothing to
  count (:func:`pegboard.app.flow.said_with`).

With teaching on, the box keeps the open way, as a lesson: the table is asked only when
points were missed, the title naming them ("Ann missed 2"), the opponent first; "No muggins"
is an entry of the record (a ``muggins`` line of 0 points), so a table resumed after a power
cut is not asked again. The count's page (what was right, with what was said) and the
lessons on what was missed come once the window on the claim is shut, as without teaching
(:func:`pegboard.app.flow.withhold`).
"""

from __future__ import annotations

from pegboard.app import flow
from pegboard.app.inputs import InputEvent
from pegboard.app.keys import list_move
from pegboard.app.state import AppState, Calling, Page, Reading, Result
from pegboard.app.view import PageKind, Screen, View
from pegboard.app.views import board, numbered
from pegboard.app.words import TITLE_CHARS, claimed_line
from pegboard.rules.events import Claim, Muggins
from pegboard.rules.state import GameState, Reason
from pegboard.rules.value import replace

NO_MUGGINS = "No muggins"
COUNTED = (Reason.HAND, Reason.CRIB)
"""The claims the award line words as a count's ("Ann's crib: claimed 6")."""


def _gs(state: AppState) -> GameState:
    assert state.session is not None
    return state.session.state


def claim(state: AppState, player: int, points: int) -> Result:
    """Enter ``player``'s claim of ``points``. The count's page (what was right) is kept back
    while muggins may be called on the claim (:func:`pegboard.app.flow.withhold`): the award
    line says what was claimed."""
    return flow.enter(state, Claim(player, points))


def open_claim(state: AppState) -> int | None:
    """The owner of the claim an opponent may still call muggins on (None: no call can be
    made now): the engine's window (``GameState.open_call``), open after every claim until
    the next score is pegged, the next claim, a muggins call or "no muggins" or the end of
    the game. Whether points were missed plays no part, so the chance to call gives nothing
    away."""
    if state.session is None:
        return None
    call = _gs(state).open_call
    return None if call is None else call.owner


def open_count_claim(state: AppState) -> str | None:
    """The hand's or crib's claim an opponent may still call, as the award line says it
    ("Ann's crib: claimed 6"), from the engine's window so a resumed game shows it too;
    None when the claim open to a call is no count's (or none is)."""
    if state.session is None:
        return None
    gs = _gs(state)
    call = gs.open_call
    if call is None or call.claimed is None or call.claim.reason not in COUNTED:
        return None
    return claimed_line(gs.names[call.owner], call.claim.reason.value, call.claimed)


def callers(state: AppState) -> list[int]:
    """Who may call muggins now: each player of another side than the open claim's owner."""
    owner = open_claim(state)
    if owner is None:
        return []
    gs = _gs(state)
    return [p for p in range(gs.players) if gs.side_of(p) != gs.side_of(owner)]


def call(state: AppState, caller: int) -> Result:
    """``caller`` calls muggins (from the menu): the points missed are theirs, with a page
    saying what was right; a call when nothing was missed says so and changes nothing."""
    gs = _gs(state)
    owner = open_claim(state)
    assert owner is not None
    missed = gs.pending_muggins
    name, whose = gs.names[caller], gs.names[owner]
    if missed is None or missed.points == 0:
        page = Page("Muggins", (f"{name} calls muggins,", f"but {whose} missed nothing."))
        return replace(state, screen=Reading((page,), then=state.screen)), ()
    page = Page("Muggins", (f"{name} takes {missed.points}",
                            f"{gs.names[missed.owner]} missed {missed.points}",
                            f"({missed.reason})"), kind=PageKind.MUGGINS)
    # Pages the call was made over (the crib's) are read after it.
    under = state.screen
    left = under.pages if isinstance(under, Reading) and under.then is None else ()
    return flow.enter(state, Muggins(caller, missed.points), (page, *left))


# -- the question, with teaching on -----------------------------------------------------------


def _rows(gs: GameState) -> list[tuple[int, str]]:
    """Who may call (teaching: the points missed named), and nobody."""
    missed = gs.pending_muggins
    assert missed is not None
    owner = gs.side_of(missed.owner)
    rows = [(p, f"Muggins {missed.points}: {gs.names[p]}")
            for p in range(gs.players) if gs.side_of(p) != owner]
    return [*rows, (-1, NO_MUGGINS)]


def call_move(state: AppState, screen: Calling, event: InputEvent) -> Result:
    """Choose who calls muggins (and takes the missed points), or nobody: "No muggins" is
    recorded (a call of 0 points by the owner's next opponent) and shuts the window."""
    gs = _gs(state)
    rows = _rows(gs)
    index, row = list_move(screen.index, event, len(rows))
    if row is None:
        return replace(state, screen=replace(screen, index=index)), ()
    caller = rows[row][0]
    missed = gs.pending_muggins
    assert missed is not None
    if caller < 0:
        return flow.enter(state, Muggins(rows[0][0], 0))
    return flow.enter(state, Muggins(caller, missed.points))


def calling_view(state: AppState, screen: Calling) -> View:
    """The question: who calls muggins, if anyone."""
    gs = _gs(state)
    rows = [label for _, label in _rows(gs)]
    missed = gs.pending_muggins
    assert missed is not None
    title = f"{gs.names[missed.owner]} missed {missed.points}"
    if len(title) > TITLE_CHARS:  # a long name: the count's page before it named the owner
        title = f"Missed {missed.points}"
    return replace(board(gs, Screen.CONFIRM, title), lines=numbered(state.keypad, rows),
                   selected=screen.index % len(rows), hint="OK choose")
