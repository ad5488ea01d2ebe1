"""Points entered by hand: pegging by points, and penalties from the catalogue."""

from __future__ import annotations

from pegboard.app import flow
from pegboard.app.inputs import InputEvent
from pegboard.app.keys import list_move, number_edit
from pegboard.app.state import AppState, CardEntry, PenaltyScreen, QuickPeg, Result
from pegboard.app.view import Screen, View
from pegboard.app.views import board, numbered
from pegboard.app.words import side_name
from pegboard.rules.events import Peg, Penalty
from pegboard.rules.penalties import CATALOGUE
from pegboard.rules.state import GameState, Phase
from pegboard.rules.value import replace

PENALTY_TOP = 61
"""The most points a penalty can be turned to."""


def _gs(state: AppState) -> GameState:
    assert state.session is not None
    return state.session.state


# -- pegging by points -------------------------------------------------------------------------


def peg_number(state: AppState, screen: QuickPeg, event: InputEvent) -> Result:
    """Turning or digit keys set the points."""
    number = number_edit(screen.number, event, _gs(state).rules.target)
    return replace(state, screen=replace(screen, number=number)), ()


def peg_side(state: AppState, screen: QuickPeg, event: InputEvent) -> Result:
    """GO chooses the next side."""
    side = (screen.side + 1) % _gs(state).sides
    return replace(state, screen=replace(screen, side=side, number=0)), ()


def peg_ok(state: AppState, screen: QuickPeg, event: InputEvent) -> Result:
    """OK pegs the points for the chosen side (nothing for 0)."""
    gs = _gs(state)
    if screen.number == 0:
        return state, ()
    seat = next(p for p in range(gs.players) if gs.side_of(p) == screen.side % gs.sides)
    new, effects = flow.enter(state, Peg(seat, screen.number))
    if screen.under is not None and isinstance(new.screen, QuickPeg):
        new = replace(new, screen=QuickPeg(side=screen.side, under=screen.under))
    elif isinstance(new.screen, QuickPeg):
        new = replace(new, screen=QuickPeg(side=screen.side))
    return new, effects


def peg_back(state: AppState, screen: QuickPeg, event: InputEvent) -> Result:
    """UNDO clears the number, then leaves (opened from the menu) or takes back the last
    entry."""
    if screen.number:
        return replace(state, screen=replace(screen, number=0)), ()
    if screen.under is not None:
        return replace(state, screen=screen.under), ()
    return flow.undo(state)


def peg_view(state: AppState, screen: QuickPeg) -> View:
    gs = _gs(state)
    side = screen.side % gs.sides
    lines = tuple(f"{side_name(gs, s)} {gs.shown[s]}" for s in range(gs.sides))
    return replace(board(gs, Screen.PEG, f"Peg +{screen.number}"), lines=lines, selected=side,
                   award=state.award, hint="OK peg  GO side")


# -- penalties ---------------------------------------------------------------------------------


def penalty_key(state: AppState, screen: PenaltyScreen, event: InputEvent) -> Result:
    """Which penalty, then who offended, then the points (turn) and OK applies it."""
    gs = _gs(state)
    if screen.penalty is None:
        index, row = list_move(screen.index, event, len(CATALOGUE))
        return replace(state, screen=replace(screen, index=index, penalty=row)), ()
    if screen.offender is None:
        index, row = list_move(screen.index, event, gs.players)
        if row is None:
            return replace(state, screen=replace(screen, index=index)), ()
        item = CATALOGUE[screen.penalty]
        points = item.points
        settled = gs.renege_settled(row) if item.id == "renege" else None
        if settled is not None:  # the report the penalty settles: its points
            points = settled.points
        if item.id == "renege" and held_unseen(gs, row):
            # Won in the play with the offender's hand unseen: the claim shows the cards
            # still held, and the engine judges the renege from them (ACC 7.3).
            return replace(state, screen=CardEntry("renege", screen.under, row)), ()
        return replace(state, screen=replace(screen, offender=row, number=points, index=0)), ()
    return replace(state, screen=replace(
        screen, number=number_edit(screen.number, event, PENALTY_TOP))), ()


def held_unseen(gs: GameState, offender: int) -> bool:
    """A renege by ``offender`` is claimed by the cards they still hold: the game was won in
    the play with a go of theirs unchecked (their hand unseen) and no renege of theirs
    reported open."""
    return gs.phase is Phase.GAME_OVER and not any(
        offer.player == offender and not offer.resolved for offer in gs.reneges
    ) and any(go.player == offender and go.held for go in gs.unchecked_gos)


def penalty_ok(state: AppState, screen: PenaltyScreen, event: InputEvent) -> Result:
    if screen.penalty is None or screen.offender is None:
        return penalty_key(state, screen, event)
    item = CATALOGUE[screen.penalty]
    return flow.enter(replace(state, screen=screen.under),
                      Penalty(screen.offender, item.id, screen.number))


def penalty_back(state: AppState, screen: PenaltyScreen, event: InputEvent) -> Result:
    """UNDO steps back: the points, the offender, the penalty, then out."""
    if screen.offender is not None:
        return replace(state, screen=replace(screen, offender=None, index=0)), ()
    if screen.penalty is not None:
        return replace(state, screen=replace(screen, penalty=None, index=0)), ()
    return replace(state, screen=screen.under), ()


def penalty_view(state: AppState, screen: PenaltyScreen) -> View:
    gs = _gs(state)
    if screen.penalty is None:
        rows = [item.label for item in CATALOGUE]
        return View(Screen.PENALTIES, "Penalty", numbered(state.keypad, rows),
                    screen.index % len(rows), hint="OK choose  UNDO back")
    item = CATALOGUE[screen.penalty]
    if screen.offender is None:
        return View(Screen.PENALTIES, "Who offended?", numbered(state.keypad, list(gs.names)),
                    screen.index % gs.players, hint=item.rule)
    where = "back" if item.back else "to the opponent"
    lines = (item.name, f"{gs.names[screen.offender]}: {screen.number} {where}", item.rule)
    return replace(board(gs, Screen.PENALTIES, "Apply penalty?"), lines=lines,
                   hint="turn points  OK apply")
