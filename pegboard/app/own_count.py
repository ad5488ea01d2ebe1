"""Count it yourself (teaching, the ``count_yourself`` table option; no penalty).

At the show the owner of each hand and crib turns in the count they make it before the box
shows it; the box then shows the whole count on one page, in players' words, with a card's
suit wherever another card of its rank is in the count (:func:`pegboard.app.words.count_lines`),
titled with what was said when it differs, and what was missed, combination by combination.
Nothing is pegged differently: the count was already pegged by the engine.
"""

from __future__ import annotations

from dataclasses import replace

from pegboard.app import flow
from pegboard.app.inputs import InputEvent
from pegboard.app.keys import number_edit
from pegboard.app.picker import rank_label
from pegboard.app.state import AppState, OwnCount, Page, Reading, Result, ScreenState
from pegboard.app.view import Screen, View
from pegboard.app.views import board
from pegboard.app.words import count_heading, count_lines, no_suits
from pegboard.rules.scoring import Breakdown

MAX_COUNT = 29
"""The most a hand or crib can make."""


def reading(state: AppState, pages: tuple[Page, ...]) -> ScreenState:
    """The screen for ``pages``: read in turn, except that with count it yourself on, the
    owner of the first count not yet said turns in theirs before its page. Nothing shows
    that count before then: the pages read first show the board as it stood before it."""
    if state.teaching and state.table.count_yourself:
        at = next((i for i, page in enumerate(pages)
                   if page.count is not None and page.count.claimed is None), None)
        if at is not None:
            own = OwnCount(pages[at:])
            before = pages[at].before
            first = tuple(page if page.sides is not None else replace(page, sides=before)
                          for page in pages[:at])
            return Reading(first, then=own) if at else own
    return Reading(pages)


def own_number(state: AppState, screen: OwnCount, event: InputEvent) -> Result:
    """Turning or digit keys set the count said."""
    return replace(state, screen=replace(screen, number=number_edit(
        screen.number, event, MAX_COUNT))), ()


def own_ok(state: AppState, screen: OwnCount, event: InputEvent) -> Result:
    """OK: the whole count on one page, with what was said and what was missed."""
    assert state.session is not None
    page = screen.pages[0]
    assert page.count is not None
    count = replace(page.count, claimed=screen.number)
    lines = count_lines(count)
    if screen.number < count.points:
        from pegboard.rules import teaching

        missed = teaching.missed_combinations(Breakdown(count.items), screen.number)
        lines = (*lines, *(no_suits(line) for line in missed.lines()))
    elif screen.number > count.points:
        lines = (*lines, f"said {screen.number - count.points} too many")
    else:
        lines = (*lines, "all found")
    title, first = count_heading(count, state.session.state.names)
    shown = replace(page, title=title, lines=(*first, *lines),
                    count=count)
    return replace(state, screen=reading(state, (shown, *screen.pages[1:]))), ()


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
                          "cards: " + " ".join(rank_label(c.rank) for c in count.cards)),
                   hint="OK say it")
