"""The show and its claims: pages to read, a count's forgotten flush or nobs, claims in a
muggins game (the calls that follow them: :mod:`pegboard.app.calls`).

Pages: OK goes on (OK on an offered penalty applies it, GO lets it pass); turning scrolls the
page and never leaves it, so a knob still turning never reaches the next screen; UNDO takes
back the entry that brought the page up. On a count's page GO adds the flush or nobs the
wheel entered without (see :mod:`pegboard.app.resuit`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pegboard import lazy
from pegboard.app import flow
from pegboard.app.effects import Persist
from pegboard.app.inputs import InputEvent, KnobTurn
from pegboard.app.keys import number_edit, steps
from pegboard.app.session import Session
from pegboard.app.state import AppState, Claiming, Count, Page, Reading, Result
from pegboard.app.view import Screen, View
from pegboard.app.views import board
from pegboard.app.words import cards_lines, count_page, owed_label
from pegboard.errors import PegboardError
from pegboard.rules.cards import Card
from pegboard.rules.events import Event, LetPass, Penalty
from pegboard.rules.show import score_hand
from pegboard.rules.state import GameState, Reason
from pegboard.rules.value import replace

if TYPE_CHECKING:
    from pegboard.app import calls, resuit
    from pegboard.app import pages as app_pages
else:
    app_pages = lazy.module("pegboard.app.pages")
    calls = lazy.module("pegboard.app.calls")
    resuit = lazy.module("pegboard.app.resuit")

MAX_CLAIM = 29
"""The most a claim can be (the best hand)."""
PAGE_ROWS = 2
"""Lines of a page surely on screen at once (below the board header)."""


def _gs(state: AppState) -> GameState:
    assert state.session is not None
    return state.session.state


# -- reading pages ------------------------------------------------------------------------------


def page_ok(state: AppState, screen: Reading, event: InputEvent) -> Result:
    """OK: apply an offered penalty, else the next page (after the last, on to the table)."""
    page = screen.pages[0]
    rest = replace(screen, pages=screen.pages[1:], scroll=0)
    if page.offer is not None:
        return flow.enter(_leave(state, rest), page.offer)
    return _next(state, rest)


def page_go(state: AppState, screen: Reading, event: InputEvent) -> Result:
    """GO: let an offered penalty pass (an entry: the offer is not put again, after a power
    cut either); on a count, add the forgotten flush or nobs; else next."""
    page = screen.pages[0]
    if page.offer is not None:
        return _let_pass(state, replace(screen, pages=screen.pages[1:], scroll=0), page.offer)
    if page.count is not None:
        change = resuit.next_fact(_gs(state), page.count)
        if change is not None:
            return _resuit_page(state, screen, page.count, change[1])
    return _next(state, replace(screen, pages=screen.pages[1:], scroll=0))


def _let_pass(state: AppState, rest: Reading, offer: Event) -> Result:
    """The table lets ``offer`` pass: entered, then the pages still to read (it brings up
    none of its own)."""
    assert state.session is not None and isinstance(offer, Penalty)
    event = LetPass(offer.player, offer.infraction)
    try:
        session, _ = state.session.apply(event)
    except PegboardError as error:
        return flow.refuse(state, str(error)), ()
    moved, effects = _next(replace(state, session=session), rest)
    return moved, (Persist(event, session.report), *effects)


def page_turn(state: AppState, screen: Reading, event: InputEvent) -> Result:
    """Turning scrolls the page; it never goes past the page's ends (in large print, where
    a few lines fill the screen, until the last line is at the top)."""
    rows = 1 if state.setup.large_print else PAGE_ROWS
    bottom = max(0, len(screen.pages[0].lines) - rows)
    scroll = max(0, min(bottom, screen.scroll + steps(event)))
    return replace(state, screen=replace(screen, scroll=scroll)), ()


def page_undo(state: AppState, screen: Reading, event: InputEvent) -> Result:
    """UNDO: back to the screen a notice was put over, else take back the entry."""
    if screen.then is not None:
        return replace(state, screen=screen.then), ()
    return flow.undo(state)


def _leave(state: AppState, rest: Reading) -> AppState:
    """Where the table is once this page is gone (the remaining pages come back after an
    offered penalty is applied: see ``flow.enter``)."""
    return replace(state, screen=rest if rest.pages else (rest.then or state.screen))


def close(state: AppState, screen: Reading) -> Result:
    """Leave the pages at once (what comes after the last one)."""
    return _next(state, replace(screen, pages=()))


def _next(state: AppState, rest: Reading) -> Result:
    if rest.pages:
        return replace(state, screen=rest), ()
    if rest.then is not None:
        return replace(state, screen=rest.then), ()
    return flow.settle(state)


def _resuit_page(state: AppState, screen: Reading, count: Count, change: dict[Card, Card],
                 ) -> Result:
    assert state.session is not None
    cards = tuple(change.get(c, c) for c in count.cards)
    done = resuit.rebuild(state.session, change)
    if done is None:
        return state, ()
    session, effects, replayed = done
    state = replace(state, session=session)
    if session.state.asked is not None:
        # The suits chosen make the count depend on the starter's suit, entered by its rank
        # alone (a flush with cards named with their suits): the engine asks it first.
        return flow.settle(state, list(effects))
    counts: list[Page] = []
    for before, report, after in replayed:
        counts.extend(app_pages.count_pages(before, after, report))
    at = next((i for i, p in enumerate(counts) if p.count is not None
               and (p.count.player, p.count.crib) == (count.player, count.crib)), None)
    if at is None:  # not counted again (the game ended before it): show it as it stands
        starter = session.state.starter
        assert starter is not None
        items = score_hand(cards, starter, crib=count.crib).items
        counts, at = [count_page(session.state, replace(count, cards=cards, items=items))], 0
    page = screen.pages[0]
    kept = [p for p in screen.pages[1:] if p.count is None]
    pages = (replace(counts[at], award=page.award), *counts[at + 1:], *kept)
    return replace(state, screen=Reading(pages, then=screen.then)), tuple(effects)


def _next_fact(session: Session, count: Count) -> tuple[resuit.Fact, dict[Card, Card]] | None:
    """What GO would make of a count's suits (worked out once per entry, not per frame)."""
    return session.memo(("next fact", count),
                        lambda: resuit.next_fact(session.state, count))


def reading_view(state: AppState, screen: Reading) -> View:
    page = screen.pages[0]
    suits: tuple[str, ...] = ()
    if page.offer is not None:
        hint = "OK penalty  GO skip"
    elif page.count is not None and state.session is not None and (
            change := _next_fact(state.session, page.count)) is not None:
        hint = f"OK next  GO {resuit.fact_label(change[0])}"
        suits = resuit.suit_lines(page.count.items, change[0])
    elif page.screen is Screen.HELP and screen.then is not None:
        hint = "OK next  UNDO skip"  # help put over a screen: UNDO goes back to it
    else:
        hint = "OK next"
    lines = (*page.lines, *suits)
    if state.session is None:
        return View(page.screen, page.title, lines, hint=hint, first_line=screen.scroll,
                    page=page.kind, named=page.named, suits=suits)
    base = board(_gs(state), page.screen, page.title)
    return replace(base, lines=lines, hint=hint, award=page.award, page=page.kind,
                   named=page.named, suits=suits,
                   first_line=screen.scroll,
                   sides=page.sides if page.sides is not None else base.sides)


# -- claims (muggins games) ---------------------------------------------------------------------


def _claim_count(gs: GameState) -> Count | None:
    """The hand or crib waiting for its owner's claim, as a count (None for a play score)."""
    pending = gs.pending_claims[0]
    if pending.reason == Reason.CRIB and gs.crib is not None:
        return Count(pending.player, True, gs.crib, pending.items)
    hand = gs.hands[pending.player]
    if pending.reason == Reason.HAND and hand is not None:
        return Count(pending.player, False, hand, pending.items)
    return None


FAST_TURN = 0.15
"""Seconds: a detent this soon after the one before on the claim dial is part of a fast turn."""
FAST_STEP = 5
"""Points a detent moves the claim dial during a fast turn (one otherwise)."""


def claim_number(state: AppState, screen: Claiming, event: InputEvent) -> Result:
    """Turning or digit keys set the points claimed. A detent within :data:`FAST_TURN` of the
    dial's last one is part of a fast turn and moves by fives, a slow one by ones, and the
    dial stops at 0 and :data:`MAX_CLAIM`: from a hand's start of 4 a 17 hand is five
    detents (1, then 5, 5 fast, then 1, 1), not thirteen, and 0 is two (1, then 5 fast).
    The first digit typed starts a new number (the dial's start is not a number being
    typed)."""
    if not isinstance(event, KnobTurn):
        typed = number_edit(screen.number if screen.typed else 0, event, MAX_CLAIM)
        return replace(state, screen=Claiming(typed, typed=True)), ()
    now = state.last_input  # step stamps the event's time before a handler runs
    fast = now is not None and screen.turned_at is not None and now - screen.turned_at <= FAST_TURN
    moved = KnobTurn(event.steps * FAST_STEP) if fast else event
    number = number_edit(screen.number, moved, MAX_CLAIM)
    return replace(state, screen=Claiming(number, turned_at=now)), ()


def claim_ok(state: AppState, screen: Claiming, event: InputEvent) -> Result:
    """OK claims the points on screen for the score's owner."""
    pending = _gs(state).pending_claims[0]
    return calls.claim(state, pending.player, screen.number)


def claim_go(state: AppState, screen: Claiming, event: InputEvent) -> Result:
    """GO adds a forgotten flush or nobs to the hand before it is claimed."""
    count = _claim_count(_gs(state))
    change = resuit.next_fact(_gs(state), count) if count is not None else None
    if count is None or change is None:
        return state, ()
    assert state.session is not None
    done = resuit.rebuild(state.session, change[1])
    if done is None:
        return state, ()
    session, effects, _ = done
    return replace(state, session=session), tuple(effects)


def claim_undo(state: AppState, screen: Claiming, event: InputEvent) -> Result:
    """UNDO puts a number turned or typed back where the dial started, then takes back the
    last entry."""
    if screen.typed or screen.turned_at is not None:
        return replace(state, screen=Claiming(flow.claim_start(_gs(state)))), ()
    return flow.undo(state)


def claiming_view(state: AppState, screen: Claiming) -> View:
    gs = _gs(state)
    pending = gs.pending_claims[0]
    count = _claim_count(gs)
    change = resuit.next_fact(gs, count) if count is not None else None
    hint = "OK claim" + (f"  GO {resuit.fact_label(change[0])}" if change else "")
    lines = [f"{owed_label(pending)}: {screen.number}"]
    if count is not None:
        lines.extend(cards_lines(count.cards, gs.suits_entered))
    suits = resuit.suit_lines(pending.items, change[0] if change else None)
    return replace(board(gs, Screen.CLAIM, f"{gs.names[pending.player]} claims"),
                   lines=(*lines, *suits), hint=hint, suits=suits)
