"""Which screen a count the engine holds for its owner asks for (count it yourself,
:mod:`pegboard.app.own_count`): the pages read before it, then the owner's count; on a table
resumed, or after an undo, the owner's count screen for every count still held."""

from __future__ import annotations

from pegboard.app import views
from pegboard.app.state import AppState, Count, OwnCount, Page, Reading, ScreenState
from pegboard.app.words import count_page
from pegboard.rules.state import GameState, HeldCount, Reason
from pegboard.rules.value import replace


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
