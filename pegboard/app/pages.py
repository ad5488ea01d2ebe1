"""The pages an entry brings up, read off the engine's report of it.

Nothing here works out a show order, a score or a phase: the engine reports each hand and
crib it counted (:class:`~pegboard.rules.facts.ShowStep`, in the order it counted them), each
scoring act with the board once it was pegged (:class:`~pegboard.rules.facts.Scored`), the
claims it closed and what the table does next (:class:`~pegboard.rules.facts.Turn`). A page
shows the board as that fact left it, so the pegs move on screen one act at a time.

* **The end of the play**: when a card or a go ends the play and pegs a point (the last card,
  a go, a 31), a page says so with the board after it, before any count: the point is seen
  on its own, never merged into the first hand's jump.
* **A count**: every hand and crib counted, a hand of nothing too (muggins games: once its
  owner claimed it, with what was said).
* **A take-back**: what a renege's penalty returned.
"""

from __future__ import annotations

from collections.abc import Sequence

from pegboard.app import views
from pegboard.app.state import Count, Page
from pegboard.app.view import PageKind, Screen
from pegboard.app.words import awards_text, count_page, take_back_page
from pegboard.rules.events import Claim, Go, Play
from pegboard.rules.facts import (
    ClaimClosed,
    ClaimOpened,
    ClaimOutcome,
    Counted,
    Report,
    Scored,
    ShowStep,
    TakenBack,
)
from pegboard.rules.state import GameState, Phase, Reason
from pegboard.rules.value import replace

SHOWN = (Reason.HAND, Reason.CRIB)
"""The reasons a count's page shows (the award line says the rest)."""
NOT_SAID = (*SHOWN, Reason.RENEGE_TAKE_BACK)
"""Reasons the award line leaves to a page of their own."""
ANSWERED = (ClaimOutcome.EXACT, ClaimOutcome.UNDER, ClaimOutcome.OVER)
"""How a claim window closes when its owner claimed."""
END_OF_PLAY = "End of the play"


def last_scored(report: Report | None) -> int | None:
    """The side whose scoring act ``report`` pegged last (None: it pegged nothing)."""
    acts = [act for act in report.scored if act.points] if report is not None else []
    return acts[-1].side if acts else None


def said(report: Report) -> list[Scored]:
    """The scoring acts the play screen's award line says (not a count, not a take-back)."""
    return [act for act in report.scored
            if not any(reason in NOT_SAID for reason in act.reasons)]


def entry_pages(before: GameState, after: GameState, report: Report, spoken: str = "",
                opening: Sequence[Page] = ()) -> list[Page]:
    """Every page ``report`` brings up, in the order it happened (see the module doc).
    ``spoken`` (the award line) stays in view on the first page, unless that page is the
    end of the play, which says it. ``opening`` (the coach's show order) comes after the end
    of the play and before the counts it explains, with the board as it stood before them
    (the counts' points are told on their own pages, not ahead of them)."""
    ended = _end_of_play(after, report)
    pages = [*count_pages(before, after, report)]
    if opening and pages and pages[0].before is not None:
        opening = [replace(page, sides=pages[0].before) for page in opening]
    pages.extend(take_back_page(after, fact.take_back) for fact in report.of(TakenBack))
    if pages and spoken and not ended:
        pages[0] = replace(pages[0], award=spoken)
    return [*ended, *opening, *pages]


def count_pages(before: GameState, after: GameState, report: Report) -> list[Page]:
    """A page for every hand and crib this entry counted (a hand of nothing included) or,
    in a muggins game, whose claim it answered, with the board as that count left it."""
    board = (before.scores, before.back_pegs)
    facts = report.facts
    pages: list[Page] = []
    for at, fact in enumerate(facts):
        if isinstance(fact, Scored) and fact.scores:
            board = (fact.scores, fact.back_pegs)
            continue
        count = _count(after, report, fact, facts[at + 1:])
        if count is None:
            continue
        pegs = _pegged(count.player, facts[at + 1:])
        earlier = views.sides(after, scores=board[0], backs=board[1])
        if pegs is not None:
            board = (pegs.scores, pegs.back_pegs)
        sides = views.sides(after, scores=board[0], backs=board[1])
        pages.append(replace(count_page(after, count), sides=sides, before=earlier,
                             scored=pegs.side if pegs is not None else None))
    return pages


def _count(after: GameState, report: Report, fact: object, rest: Sequence[object],
           ) -> Count | None:
    if isinstance(fact, ShowStep):
        if rest and isinstance(rest[0], ClaimOpened):
            return None  # its page comes once the owner has claimed it
        crib = fact.counted is Counted.CRIB
        return Count(fact.player, crib, fact.cards, fact.items, entered=fact.entered)
    if isinstance(fact, ClaimClosed) and isinstance(report.event, Claim) and (
            fact.claim.reason in SHOWN and fact.outcome in ANSWERED):
        claim = fact.claim
        crib = claim.reason is Reason.CRIB
        cards = after.crib if crib else after.hands[claim.player]
        return Count(claim.player, crib, cards or (), claim.items, fact.claimed)
    return None


def _pegged(player: int, rest: Sequence[object]) -> Scored | None:
    """The act that pegged a count: the next one, when it is that count's."""
    for fact in rest:
        if isinstance(fact, Scored):
            if fact.player == player and any(r in SHOWN for r in fact.reasons) and fact.scores:
                return fact
            return None
        if isinstance(fact, ShowStep | ClaimClosed):
            return None
    return None


def _end_of_play(after: GameState, report: Report) -> list[Page]:
    """The page for the point that ended the play (see the module doc); none while the play
    goes on, and none when the game ended (the result says who won)."""
    if not isinstance(report.event, Play | Go) or report.next.phase is Phase.PLAY:
        return []
    if report.game_over is not None or report.next.phase is Phase.GAME_OVER:
        return []
    acts = [act for act in said(report) if act.scores]
    if not acts:
        return []
    last = acts[-1]
    awards = [award for act in acts for award in act.awards]
    lines = awards_text(awards, after.names).split("; ")
    sides = views.sides(after, scores=last.scores, backs=last.back_pegs)
    return [Page(END_OF_PLAY, tuple(lines), Screen.SHOW, sides=sides, scored=last.side,
                 kind=PageKind.END_OF_PLAY)]
