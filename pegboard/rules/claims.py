"""Quick-mode pegs, penalties, and the claims and muggins of a muggins game (ACC 10).

In a muggins game each hand, crib and play score waits for its owner's claim: an over-claim is
corrected to the true score (one that would have pegged out is reported as a false claim of
game, ACC 8.4), an under-claim pegs what was claimed and leaves the rest to an opponent's
muggins until the next score is pegged. Heels, three for last, pegs and penalties are pegged
directly. A hand or crib waiting for its claim is never skipped (:func:`settle_claims`).
"""

from __future__ import annotations

from pegboard.errors import RuleError
from pegboard.rules.events import Claim, Crib, Deal, Event, Muggins, Peg, Penalty, Show, Starter
from pegboard.rules.penalties import Infraction, infraction
from pegboard.rules.renege import can_take_back, choose_report, reveal_held, take_back
from pegboard.rules.show_order import advance_show
from pegboard.rules.speech import number
from pegboard.rules.state import Award, OpenCall, PenaltyOffer, PendingMuggins, Phase, Reason
from pegboard.rules.table import Act, Part, Table, side_name
from pegboard.rules.value import replace

MUGGINS_RULE = "ACC 10 (2020)"
SHOW_RULE = "ACC 9.2 (2020)"
COUNTS = ("hand", "crib")
"""The scores a muggins game never skips: each is claimed before the game goes past it."""


def apply_peg(t: Table, event: Peg, out: list[Award]) -> None:
    """Quick mode: points pegged by hand for a side (never below 0)."""
    t.check_player(event.player)
    points = event.points
    if isinstance(points, bool) or not isinstance(points, int) or points == 0:
        raise RuleError(f"a peg moves 1 or more points (or back, below 0), not {points!r}")
    side = t.side(event.player)
    if points < 0 and -points > t.scores[side]:
        raise RuleError(
            f"{side_name(t, side)} has {t.scores[side]}: cannot peg back {-points}"
        )
    if abs(points) > t.rules.target:
        raise RuleError(f"a peg of {points} is more than the whole board ({t.rules.target})")
    words = f"pegs {number(points)}" if points > 0 else f"pegs back {number(-points)}"
    t.peg(Act(event.player, (Part(Reason.PEG, points, words),)), out, claimable=False)


def apply_penalty(t: Table, event: Penalty, out: list[Award]) -> None:
    """An infraction from the catalogue: points to an opponent and/or back.

    A renege (ACC 7.3) the engine reported in this deal is taken back first
    (:mod:`pegboard.rules.renege`), then paid.
    """
    offender = event.player
    t.check_player(offender)
    rule = infraction(event.infraction)
    back = _checked_penalty(t, event, rule)
    if rule.redeal:
        _require_dealing(t)
    if event.held:
        if rule.id != "renege":
            raise RuleError(
                f"only a renege claim names the cards held, not a {rule.name} penalty"
            )
        reveal_held(t, event)
    points, to = event.points, event.to
    report: int | None = None
    if rule.id == "renege":
        report = choose_report(t, offender)
    elif rule.id == "false-claim-of-game":
        report = _false_claim_offer(t, offender)
    if report is not None:
        found = t.offers[report]
        if points is None:
            points = found.points
        if to is None:
            to = found.to
        mark = can_take_back(t, report) if rule.id == "renege" else None
        if mark is not None:
            take_back(t, mark, out)
        t.offers = tuple(
            replace(r, resolved=True) if i == report else r for i, r in enumerate(t.offers)
        )
    _peg_penalty(
        t, rule, offender,
        rule.points if points is None else points,
        t.opponent_of(offender) if to is None else to,
        back, out,
    )


def _checked_penalty(t: Table, event: Penalty, rule: Infraction) -> int:
    """The points ``event``'s offender loses on top; a receiving seat that is not at the
    table or is on the offender's own side, and points below 0, are refused."""
    to = event.to
    if to is not None:
        t.check_player(to)
        if t.side(to) == t.side(event.player):
            raise RuleError(
                f"penalty points go to an opponent of {t.name(event.player)}, not {t.name(to)}"
            )
    points = event.points
    if isinstance(points, bool) or (points is not None and (
        not isinstance(points, int) or points < 0
    )):
        raise RuleError(f"penalty points must be 0 or more, not {points!r}")
    back = rule.extra_back if event.back is None else event.back
    if isinstance(back, bool) or not isinstance(back, int) or back < 0:
        raise RuleError(f"penalty back points must be 0 or more, not {back!r}")
    return back


def _peg_penalty(
    t: Table, rule: Infraction, offender: int, points: int, to: int, back: int,
    out: list[Award],
) -> None:
    """Peg a penalty: ``points`` back for a "back" infraction, else ``points`` to ``to`` and
    ``back`` from the offender; a redeal infraction deals the hand again."""
    label = f"{rule.name} ({rule.rule})"
    if rule.back:
        act = Act(offender, (Part(Reason.PENALTY, -points, f"{label}: {number(points)} back"),))
        t.peg(act, out, claimable=False)
    else:
        if points:
            words = f"{label}: {number(points)} from {t.name(offender)}"
            t.peg(Act(to, (Part(Reason.PENALTY, points, words),)), out, claimable=False)
        if back and t.winner is None:
            act = Act(offender, (Part(Reason.PENALTY, -back, f"{label}: {number(back)} back"),))
            t.peg(act, out, claimable=False)
    if out:
        out[:] = [replace(a, rule=rule.rule) for a in out]
        t.awards = t.awards[: len(t.awards) - len(out)] + tuple(out)
    if rule.redeal and t.winner is None and t.dealer is not None:
        t.pending_claims = ()  # the cards are dealt again: nothing of this deal is owed
        t.claim_acts = ()
        t.deal_no -= 1
        t.next_dealer = t.dealer
        t._new_deal_state()
        t.phase = Phase.DEAL
        t.to_act = t.dealer


def _require_dealing(t: Table) -> None:
    """A misdeal (ACC 4.3) deals the hand again, so it is called while the hand is being
    dealt: after the ``deal``, before the starter is turned and before anything of the deal is
    pegged (record version 6). Once the deal has been played, dealing it again would keep what
    it pegged: the deal stands, and a hand found with the wrong number of cards is ACC 4.4's
    penalty. Earlier records keep the misdeal their release accepted at any time."""
    if t.version < 6:
        return
    why = ""
    if t.phase is Phase.DEAL or t.dealer is None:
        dealer = t.name(t.next_dealer) if t.next_dealer is not None else "the dealer"
        why = f"no hand is being dealt: {dealer} deals the next hand"
    elif t.play_started or t.phase in (Phase.SHOW, Phase.CRIB):
        why = "the play has begun"
    elif t.phase is not Phase.STARTER:
        why = "the starter is turned"
    else:
        pegged = [a for a in t.awards[t.deal_awards:] if a.reason is Reason.PEG]
        if pegged:
            seat = pegged[0].player
            points = sum(a.points for a in pegged if a.player == seat)
            why = f"{t.name(seat)} has pegged {points} in this deal"
    if why:
        raise RuleError(
            f"cannot deal this hand again: {why}. A misdeal is called while dealing, before "
            "the starter (ACC 4.3 (2020)); a played deal stands, and a hand found with the "
            "wrong number of cards takes that penalty (ACC 4.4 (2020))"
        )


def _false_claim_offer(t: Table, offender: int) -> int | None:
    """The false claim of game (ACC 8.4) a penalty without points settles: the latest the
    engine found for ``offender`` in this deal and not yet applied. An offer the table let
    pass lapses when the deal moves on (record version 3; earlier records paid the oldest
    open one, whatever its deal)."""
    first = t.deal_offers if t.version >= 3 else 0
    found = [
        i for i, r in enumerate(t.offers)
        if i >= first and r.player == offender and not r.resolved
        and r.infraction == "false-claim-of-game"
    ]
    if not found:
        return None
    return found[-1] if t.version >= 3 else found[0]


def settle_claims(t: Table, event: Event, out: list[Award]) -> None:
    """What becomes of the scores waiting for a claim, and of the muggins window, before an
    entry other than a muggins call is applied.

    From record version 3:

    - a hand or crib waiting for its owner's claim must be claimed (0 for nothing) before
      the game moves past it: each count is pegged before the next is made (ACC 9.2).
      Penalties and pegs by hand leave the scores waiting as they are: a false claim of game
      settled in the show does not skip the hands after it;
    - a play score passed over unclaimed was claimed as nothing: its points are open to
      muggins like any under-claim;
    - the muggins window stays open until the next score is pegged (docs/rules.md, "Muggins";
      ACC 10): a claim, or points pegged directly (:meth:`Table.peg` closes it), also
      across the next deal (version 5: the box still holds the cards the table gathered;
      earlier records shut it when the next hand was dealt).

    Earlier records keep the release's ruling: any entry dropped every score still waiting
    and closed the window.
    """
    if isinstance(event, Muggins):
        return
    if not t.pending_claims and t.pending_muggins is None and t.call is None:
        return  # nothing waits for a claim and no window is open: nothing to settle
    if t.version < 3:
        _settle_before_version_3(t, event)
        return
    if isinstance(event, Claim):
        owners = [c.player for c in t.pending_claims]
        if event.player in owners:
            skip = owners.index(event.player)
            _require_counts_claimed(t, skip, event)
            # Scores queued before the claimant's own were not claimed; this claim is the
            # next score pegged, so nobody can take them any more.
            _pass_over(t, skip)
            t.close_muggins(f"{t.name(event.player)} has claimed since")
        return
    if isinstance(event, Penalty | Peg):
        return
    _require_counts_claimed(t, len(t.pending_claims), event)
    if isinstance(event, Deal):
        _pass_over(t, len(t.pending_claims))
        if t.version < 5:
            t.close_muggins("the next hand was dealt")
        return
    _pass_over(t, len(t.pending_claims))


def _pass_over(t: Table, upto: int) -> None:
    """The first ``upto`` scores waiting were passed over unclaimed: claimed as nothing."""
    if upto == 0:
        return
    missed = [(claim, act) for claim, act in zip(
        t.pending_claims[:upto], t.claim_acts[:upto], strict=True) if act.points]
    t.pending_claims = t.pending_claims[upto:]
    t.claim_acts = t.claim_acts[upto:]
    if missed and t.winner is None:
        # One window at a time: the latest points missed are the ones open to a call.
        claim, act = missed[-1]
        t.open_muggins(PendingMuggins(act.player, act.points, act.parts[0].reason))
        t.open_call(OpenCall(claim, None))


def _settle_before_version_3(t: Table, event: Event) -> None:
    if isinstance(event, Claim):
        owners = [c.player for c in t.pending_claims]
        if event.player in owners:
            skip = owners.index(event.player)
            t.pending_claims = t.pending_claims[skip:]
            t.claim_acts = t.claim_acts[skip:]
            t.pending_muggins = None
            t.call = None
        return
    t.pending_claims = ()
    t.claim_acts = ()
    t.pending_muggins = None
    t.call = None  # any entry shut the window


def _require_counts_claimed(t: Table, upto: int, event: Event) -> None:
    """Refuse ``event`` when it would go past a hand or crib still waiting for its owner's
    claim (the refusal is worded only when made)."""
    owed = next((c for c in t.pending_claims[:upto] if c.reason in COUNTS), None)
    if owed is None:
        return
    owner = t.name(owed.player)
    raise RuleError(
        f"cannot {_doing(t, event)} yet: {owner}'s {owed.reason} waits for {owner}'s claim (0 if "
        f"nothing); each count is pegged before the next is made ({SHOW_RULE})"
    )


def _doing(t: Table, event: Event) -> str:
    """What an entry would do, for a refusal."""
    if isinstance(event, Claim):
        return f"claim for {t.name(event.player)}"
    if isinstance(event, Crib):
        return "count the crib"
    if isinstance(event, Show):
        return "show the next hand"
    if isinstance(event, Deal):
        return "deal the next hand"
    if isinstance(event, Starter):
        return "turn the starter"
    return "go on"


def apply_claim(t: Table, event: Claim, out: list[Award]) -> None:
    """Muggins games: the owner's claim for the score waiting to be pegged."""
    t.check_player(event.player)
    if not t.rules.muggins:
        raise RuleError("claims are used only when muggins is on: scores are pegged for you")
    if not t.pending_claims or t.pending_claims[0].player != event.player:
        owners = ", ".join(t.name(c.player) for c in t.pending_claims) or "nobody"
        raise RuleError(
            f"{t.name(event.player)} has no score to claim now (waiting for: {owners})"
        )
    points = event.points
    if isinstance(points, bool) or not isinstance(points, int) or points < 0:
        raise RuleError(f"a claim is 0 or more points, not {points!r}")
    pending = t.pending_claims[0]
    act = t.claim_acts[0]
    t.pending_claims = t.pending_claims[1:]
    t.claim_acts = t.claim_acts[1:]
    true = act.points
    if points >= true:
        t.peg(act, out, claimable=False)
        if points > true:
            side = t.side(event.player)
            if t.scores[side] - true + points >= t.rules.target and t.winner is None:
                offer = PenaltyOffer(
                    infraction="false-claim-of-game", player=event.player, count=-1,
                    cards=(), points=points - true, to=t.opponent_of(event.player),
                    rule="ACC 8.4 (2020)",
                )
                t.offers = (*t.offers, offer)
    else:
        if points:
            part = Part(pending.reason, points, f"{pending.reason}, as claimed: {number(points)}")
            t.peg(Act(event.player, (part,)), out, claimable=False)
        if t.winner is None:
            # Points missed are open to muggins only while the game goes on: a claim that
            # reached the target ended it, and nothing is scored after that.
            t.open_muggins(PendingMuggins(event.player, true - points, pending.reason))
    # Right or short, the claim is open to a call until its window shuts: the chance to call
    # says nothing of whether points were missed.
    t.open_call(OpenCall(pending, points))
    if t.phase is Phase.SHOW and t.winner is None:
        advance_show(t, out)


def apply_muggins(t: Table, event: Muggins, out: list[Award]) -> None:
    """Muggins games: an opponent takes points the owner under-claimed."""
    caller = event.player
    t.check_player(caller)
    if not t.rules.muggins:
        raise RuleError("muggins is off at this table (it is an option: rules muggins)")
    points = event.points
    if points == 0 and not isinstance(points, bool) and t.version >= 4:
        _no_muggins(t, caller)
        return
    if isinstance(points, bool) or not isinstance(points, int) or points <= 0:
        raise RuleError(f"muggins takes 1 or more points, not {points!r}")
    missed = t.pending_muggins
    if t.pending_claims and (missed is None or (
        t.side(caller) == t.side(missed.owner)
        and t.side(caller) != t.side(t.pending_claims[0].player)
    )):
        # The owner has not claimed yet: calling muggins means they claimed nothing.
        act = t.claim_acts[0]
        missed = PendingMuggins(act.player, act.points, act.parts[0].reason)
        t.pending_claims = t.pending_claims[1:]
        t.claim_acts = t.claim_acts[1:]
    missed = _opponents_miss(t, caller, missed, "call muggins on")
    taken = min(points, missed.points)
    if missed is t.pending_muggins:
        t.pending_muggins = None
    t.lapsed_muggins = None
    words = f"muggins: {number(taken)} missed by {t.name(missed.owner)} ({MUGGINS_RULE})"
    t.peg(Act(caller, (Part(Reason.MUGGINS, taken, words),)), out, claimable=False)
    if t.phase is Phase.SHOW and t.winner is None:
        advance_show(t, out)


def _no_muggins(t: Table, caller: int) -> None:
    """"No muggins" (record version 4): the table lets the points missed pass, and the window
    shuts as if the next score had been pegged (ACC 10: nobody called), so a table resumed
    after a power cut is not asked again. ``caller`` is an opponent of the owner, for the
    table."""
    _opponents_miss(t, caller, t.pending_muggins, "pass on muggins for")
    t.close_muggins("the table said no muggins")


def _opponents_miss(t: Table, caller: int, missed: PendingMuggins | None,
                    doing: str) -> PendingMuggins:
    """The points missed that ``caller`` may call (or pass on): some are open, and they are
    an opponent's, never the caller's own side's."""
    if missed is None or missed.points == 0:
        raise RuleError(_nothing_open(t))
    if t.side(caller) == t.side(missed.owner):
        raise RuleError(
            f"{t.name(caller)} cannot {doing} their own side's score ({t.name(missed.owner)})")
    return missed


def _nothing_open(t: Table) -> str:
    """Why a muggins call finds nothing to take, truly: nothing missed, or the window shut."""
    lapsed = t.lapsed_muggins
    if lapsed is None:
        return "no points were missed: muggins can be called only on an under-count"
    missed, why = lapsed
    return (
        f"{t.name(missed.owner)}'s {number(missed.points)} missed ({missed.reason}) can no "
        f"longer be taken: {why}; muggins is called before the next score is pegged "
        f"({MUGGINS_RULE})"
    )
