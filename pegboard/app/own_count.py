"""Count it yourself (teaching, the ``count_yourself`` table option; no penalty).

At the show the owner of each hand and crib turns in the count they make it before the box
shows it; the box then shows the whole count on one page, in players' words, with a card's
suit wherever another card of its rank is in the count (:func:`pegboard.app.words.count_lines`),
titled with what was said when it differs, and what was missed, combination by combination.
Nothing is pegged differently: the count was already pegged by the engine. The engine holds
each such count (:mod:`pegboard.rules.own_count`) until the owner's count is entered (an
``own_count`` line of the record), so the LAN page holds it too, and a table resumed after a
power cut asks the owner again for a count they had not turned in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pegboard import lazy
from pegboard.app import flow
from pegboard.app.effects import Persist
from pegboard.app.held_counts import reading
from pegboard.app.inputs import InputEvent
from pegboard.app.keys import number_edit
from pegboard.app.state import AppState, OwnCount, Result
from pegboard.app.view import Screen, View
from pegboard.app.views import board
from pegboard.app.words import cards_lines, count_heading, count_lines, no_suits
from pegboard.errors import PegboardError
from pegboard.rules import events
from pegboard.rules.facts import CountSaid
from pegboard.rules.scoring import Breakdown
from pegboard.rules.value import replace

if TYPE_CHECKING:
    from pegboard.coach import teaching
else:
    teaching = lazy.module("pegboard.coach.teaching")

MAX_COUNT = 29
"""The most a hand or crib can make."""


def own_number(state: AppState, screen: OwnCount, event: InputEvent) -> Result:
    """Turning or digit keys set the count said."""
    return replace(state, screen=replace(screen, number=number_edit(
        screen.number, event, MAX_COUNT))), ()


def own_ok(state: AppState, screen: OwnCount, event: InputEvent) -> Result:
    """OK: the owner's count is entered (an ``own_count`` line: the engine then lets the
    count be shown), and the whole count is on one page, with what was said and what was
    missed."""
    assert state.session is not None
    page = screen.pages[0]
    assert page.count is not None
    entry = events.OwnCount(page.count.player, screen.number)
    try:
        session, report = state.session.apply(entry)
    except PegboardError as error:
        return flow.refuse(state, str(error)), ()
    said = report.first(CountSaid)
    assert said is not None
    state = replace(state, session=session)
    count = replace(page.count, claimed=said.said)
    lines = count_lines(count)
    if said.said < said.points:
        missed = teaching.missed_combinations(Breakdown(count.items), said.said)
        lines = (*lines, *(no_suits(line) for line in missed.lines()))
    elif said.said > said.points:
        lines = (*lines, f"said {said.said - said.points} too many")
    else:
        lines = (*lines, "all found")
    title, first = count_heading(count, session.state.names)
    shown = replace(page, title=title, lines=(*first, *lines),
                    count=count)
    return (replace(state, screen=reading(state, (shown, *screen.pages[1:]))),
            (Persist(entry, report),))


def own_undo(state: AppState, screen: OwnCount, event: InputEvent) -> Result:
    """UNDO clears the number, then takes back the last entry."""
    if screen.number:
        return replace(state, screen=replace(screen, number=0)), ()
    return flow.undo(state)


def own_view(state: AppState, screen: OwnCount) -> View:
    assert state.session is not None
    gs = state.session.state
    count = screen.pages[0].count
    assert count is not None
    what = "crib" if count.crib else "hand"
    base = board(gs, Screen.CLAIM, f"{gs.names[count.player]}, count your {what}")
    before = screen.pages[0].before  # the board before this count was pegged: not a hint
    return replace(base, sides=before if before is not None else base.sides,
                   lines=(f"count: {screen.number}",
                          *cards_lines(count.cards, count.entered | gs.suits_entered)),
                   hint="OK say it")
