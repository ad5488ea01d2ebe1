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

from dataclasses import replace

from pegboard.app import flow, views
from pegboard.app.effects import Persist
from pegboard.app.inputs import InputEvent
from pegboard.app.keys import number_edit
from pegboard.app.picker import rank_label
from pegboard.app.state import (
    AppState,
    Count,
    OwnCount,
    Page,
    Reading,
    Result,
    ScreenState,
)
from pegboard.app.view import Screen, View
from pegboard.app.views import board
from pegboard.app.words import count_heading, count_lines, count_page, no_suits
from pegboard.errors import PegboardError
from pegboard.rules import events
from pegboard.rules.facts import CountSaid
from pegboard.rules.scoring import Breakdown
from pegboard.rules.state import GameState, HeldCount, Reason

MAX_COUNT = 29
"""The most a hand or crib can make."""


def held(gs: GameState, count: Count | None) -> bool:
    """Whether the engine holds ``count`` for its owner's own count."""
    return count is not None and count.claimed is None and any(
        h.player == count.player and (h.reason is Reason.CRIB) == count.crib
        for h in gs.held_counts)


def reading(state: AppState, pages: tuple[Page, ...]) -> ScreenState:
    """The screen for ``pages``: read in turn, except that the owner of the first count the
    engine holds (count it yourself) turns in theirs before its page. Nothing shows that
    count before then: the pages read first show the board as it stood before it."""
    assert state.session is not None
    gs = state.session.state
    if gs.held_counts:
        at = next((i for i, page in enumerate(pages) if held(gs, page.count)), None)
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


def held_screen(gs: GameState) -> OwnCount:
    """The owner's count screen for the counts the engine holds, as after a power cut or
    an undo: each count's page with the board before it and once it was pegged."""
    boards = [(h.scores, h.back_pegs) for h in gs.held_counts[1:]]
    boards.append((gs.scores, gs.back_pegs))
    return OwnCount(tuple(
        replace(count_page(gs, _count(gs, h)),
                before=views.sides(gs, scores=h.scores, backs=h.back_pegs),
                sides=views.sides(gs, scores=after[0], backs=after[1]))
        for h, after in zip(gs.held_counts, boards, strict=True)))


def _count(gs: GameState, count: HeldCount) -> Count:
    crib = count.reason is Reason.CRIB
    cards = gs.crib if crib else gs.hands[count.player]
    return Count(count.player, crib, cards or (), count.items)


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
        from pegboard.coach import teaching
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
                          "cards: " + " ".join(rank_label(c.rank) for c in count.cards)),
                   hint="OK say it")
