"""One entry's :class:`~pegboard.rules.facts.Report`, from the table before and after it.

The engine notes the facts only it sees while it works (each scoring act, each hand or crib
counted, each claim window opened: ``Table.notes``); the rest is read off the two tables: the
claim and muggins windows closed, the penalty offers made or withdrawn, the penalty applied,
the end of the game and what the table does next. Both tables are the engine's own, so nothing
here works anything out again.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from functools import partial

from pegboard.rules.events import Claim, Confirm, Deal, Event, Muggins, Override, Penalty
from pegboard.rules.facts import (
    ClaimClosed,
    ClaimOutcome,
    Confirmed,
    DealEnded,
    Fact,
    GameOver,
    MugginsClosed,
    MugginsOpened,
    Offered,
    PenaltyApplied,
    Report,
    Scored,
    TakenBack,
    Withdrawn,
)
from pegboard.rules.penalties import infraction
from pegboard.rules.result import spread
from pegboard.rules.state import Award, PendingClaim, PendingMuggins, Reason, shown_scores
from pegboard.rules.table import Note, Pegged, Table
from pegboard.rules.turn import Turn


def entry_report(before: Table, after: Table, event: Event, out: Sequence[Award]) -> Report:
    """The report of ``event``, applied to ``before`` with ``after`` and ``out`` its result."""
    facts: list[Fact] = []
    if isinstance(event, Deal) and before.deal_open:
        facts.append(deal_ended(before, tuple(before.scores)))
    if isinstance(event, Penalty):
        facts.extend(_penalty(before, after, event, out))
    windows: list[Fact] = []
    if before.pending_claims or before.pending_muggins or after.pending_muggins:
        windows = list(_windows(before, after, event, out))
    acts = list(_acts(after.notes, out)) if after.notes or out else []
    # A claim pegs first; what it missed is open to muggins after that award.
    first = 1 if isinstance(event, Claim) and acts and isinstance(acts[0], Scored) else 0
    opened = [fact for fact in windows if isinstance(fact, MugginsOpened)]
    facts.extend(fact for fact in windows if not isinstance(fact, MugginsOpened))
    facts.extend(acts[:first])
    facts.extend(opened)
    facts.extend(acts[first:])
    if after.offers is not before.offers:
        facts.extend(_offers(before, after))
    if after.winner is not None and before.winner is None:
        over = game_over(after)
        if after.deal_open:
            # A hand whose claim the end of the game cut off was never counted by its owner.
            unclaimed = {fact.claim.player for fact in facts if isinstance(fact, ClaimClosed)
                         and fact.outcome in (ClaimOutcome.ENDED, ClaimOutcome.PASSED)
                         and fact.claim.reason is Reason.HAND}
            facts.append(deal_ended(after, over.shown, unclaimed))
        facts.append(over)
    if isinstance(event, Confirm | Override):
        facts.append(Confirmed(
            event.player if isinstance(event, Confirm) else None,
            event.director if isinstance(event, Override) else None,
            tuple(sorted(after.confirmed)),
            after.override is not None or len(after.confirmed) == after.n,
        ))
    return Report(event, tuple(facts), turn(after))


def turn(t: Table) -> Turn:
    """What the table does next."""
    return Turn(
        phase=t.phase, to_act=t.to_act, dealer=t.dealer, next_dealer=t.next_dealer,
        game_no=t.game_no, deal_no=t.deal_no, count=t.count, scores=tuple(t.scores),
        claim=t.pending_claims[0] if t.pending_claims else None, muggins=t.pending_muggins,
        held=t.held_counts[0] if t.held_counts else None, call=t.call,
    )


def deal_ended(t: Table, scores: tuple[int, ...],
               unclaimed: Collection[int] = ()) -> DealEnded:
    """The deal ``t`` is in, over with the board at ``scores``: the hands the engine counted
    (the first ``show_index`` of the show order, less the ``unclaimed`` ones), the crib if it
    was counted, and whether its play was entered card by card."""
    assert t.dealer is not None
    counted = t.show_order()[:t.show_index]
    return DealEnded(
        game_no=t.game_no, deal_no=t.deal_no, dealer=t.dealer, scores=scores,
        counted=tuple(seat for seat in counted if seat not in unclaimed),
        crib=t.crib is not None,
        played=t.play_started,
    )


def game_over(t: Table) -> GameOver:
    """How the game that just ended is shown: the winner at the target, the ACC spread."""
    assert t.winner is not None and t.result is not None
    winner, target = t.winner, t.rules.target
    return GameOver(
        game_no=t.game_no, winner=winner, scores=t.result.scores,
        shown=shown_scores(t.scores, target), spread=spread(t.scores, winner, target),
        skunk=t.result.skunk,
        game_points=t.result.game_points, match_winner=t.match_winner,
    )


def _acts(notes: Sequence[Note], out: Sequence[Award]) -> Iterator[Fact]:
    """The noted facts in order, each scoring act as one :class:`Scored`; awards pegged
    outside an act (a renege's retractions) are an act each."""
    done = 0
    for noted in notes:
        # A fact, or the board after a scoring act, noted to be made when the report is.
        note = noted() if isinstance(noted, partial) else noted
        if not isinstance(note, Pegged):
            yield note
            continue
        yield from _single(out, done, note.start)
        if note.end > note.start:
            yield Scored(note.player, out[note.start].side, tuple(out[note.start:note.end]),
                         note.scores, note.back_pegs)
        done = max(done, note.end)
    yield from _single(out, done, len(out))


def _single(out: Sequence[Award], start: int, end: int) -> Iterator[Scored]:
    for award in out[start:end]:
        yield Scored(award.player, award.side, (award,))


def _penalty(
    before: Table, after: Table, event: Penalty, out: Sequence[Award]
) -> Iterator[Fact]:
    rule = infraction(event.infraction)
    paid = [a for a in out if a.reason is Reason.PENALTY and a.points > 0]
    back = -sum(a.points for a in out if a.reason is Reason.PENALTY and a.points < 0)
    settles = None
    if len(after.offers) == len(before.offers):
        settles = next((
            now for was, now in zip(before.offers, after.offers, strict=True)
            if now.resolved and not now.withdrawn and not was.resolved
        ), None)
    yield PenaltyApplied(
        offender=event.player, infraction=rule, to=paid[0].player if paid else None,
        points=sum(a.points for a in paid), back=back, settles=settles,
        redeal=after.deal_no < before.deal_no,
    )
    if len(after.take_backs) > len(before.take_backs):
        yield TakenBack(after.take_backs[-1])


def _windows(
    before: Table, after: Table, event: Event, out: Sequence[Award]
) -> Iterator[Fact]:
    """The claim and muggins windows this entry closed or opened (muggins games)."""
    was, now = before.pending_muggins, after.pending_muggins
    closed = [c for c in before.pending_claims if all(c is not d for d in after.pending_claims)]
    # Muggins called before the owner claimed (a claim of 0): with no points open, or with
    # only the caller's own side's open, it is called on the score waiting for its claim.
    on_claim = isinstance(event, Muggins) and bool(closed) and (
        was is None or before.side(event.player) == before.side(was.owner)
    )
    # "No muggins" (a call of 0 points, record version 4) shuts the window untaken.
    declined = isinstance(event, Muggins) and event.points == 0 and not on_claim
    if was is not None and now is not was and (
            not isinstance(event, Muggins) or on_claim or declined):
        lapsed = after.lapsed_muggins
        yield MugginsClosed(was, None, 0, lapsed[1] if lapsed and lapsed[0] is was else "")
    answered: PendingClaim | None = None
    if on_claim:
        answered = closed[0]
    elif isinstance(event, Claim):
        answered = next((c for c in closed if c.player == event.player), None)
    seen = False
    for claim in closed:
        if claim is answered:
            seen = True
            yield _answer(claim, event)
        else:
            yield ClaimClosed(claim, ClaimOutcome.ENDED if seen else ClaimOutcome.PASSED, 0, 0)
    if isinstance(event, Muggins) and not declined:
        missed = None if on_claim else was
        if answered is not None:
            missed = PendingMuggins(answered.player, answered.points, answered.reason)
        if missed is not None:
            taken = sum(a.points for a in out if a.reason is Reason.MUGGINS)
            yield MugginsClosed(missed, event.player, taken)
    if now is not None and now is not was:
        yield MugginsOpened(now)


def _answer(claim: PendingClaim, event: Event) -> ClaimClosed:
    claimed = event.points if isinstance(event, Claim) else 0
    if claimed == claim.points:
        return ClaimClosed(claim, ClaimOutcome.EXACT, claimed, claim.points)
    if claimed > claim.points:
        return ClaimClosed(claim, ClaimOutcome.OVER, claimed, claim.points)
    return ClaimClosed(claim, ClaimOutcome.UNDER, claimed, claimed)


def _offers(before: Table, after: Table) -> Iterator[Fact]:
    """Offers are only appended (or marked resolved in place) until a new game clears them,
    so the new ones are the tail."""
    kept = len(before.offers) if len(after.offers) >= len(before.offers) else 0
    for was, now in zip(before.offers[:kept], after.offers, strict=False):
        if now.withdrawn and not was.withdrawn:
            yield Withdrawn(now)
    for offer in after.offers[kept:]:
        yield Offered(offer)
