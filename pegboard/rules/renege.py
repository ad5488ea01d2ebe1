"""Renege: found once a hand is known, and taken back when the penalty is applied (ACC 7.3).

A player who says go while holding a card that fits has reneged (docs/rules.md, "Renege").
The engine cannot see a hand until it is known (every card laid, or shown), so it checks each
go then and *reports* a renege; the table decides whether to claim it with a ``penalty``
entry.

A claimed renege takes the play back to the moment of the go, in the deal it was made in and
before that deal's crib is counted:

- the go is withdrawn, and every card laid after it (by anyone, across resets) goes back to
  its player's hand;
- the points pegged from the go on are retracted: the play's combinations, go, 31 and last
  card (the go's own point too); the hands counted after that play, which are counted again
  when it is over; and muggins taken on any of them. Penalties and pegs entered meanwhile
  stand;
- the play goes on at the count of the go with the offender to play. Hands known by then stay
  known, so those cards must be laid again from them, and the offender may not say go while
  one of them fits;
- then the opponent pegs 2 for each card that could have been played.

A renege penalty with no report of this deal (the table saw it, or the deal is over) only
pays the points. A game won in the play or show of the deal stays open to the claim until the
crib would have been counted (:func:`claimable_after_win`): a take-back that cancels the
points that won cancels the win too.
"""

from __future__ import annotations

from pegboard.errors import RuleError
from pegboard.rules.cards import Card
from pegboard.rules.events import Event, Penalty
from pegboard.rules.state import (
    RETRACTABLE,
    Award,
    PenaltyOffer,
    Phase,
    Reason,
    TakeBack,
    settled_renege,
)
from pegboard.rules.table import GoMark, Table, distinct, side_name
from pegboard.rules.value import replace

RENEGE_RULE = "ACC 7.3 (2020)"
TAKE_BACK = Reason.RENEGE_TAKE_BACK


def check_reneges(t: Table) -> None:
    """Report every go said while holding a card that fitted, once the hand is known."""
    unchecked = []
    for mark in t.gos:
        hand = t.hand(mark.player)
        if hand is None:
            unchecked.append(mark)
            continue
        before = t.played[mark.player][: mark.played_before]
        held = tuple(card for card in hand if card not in before)
        fitted = tuple(card for card in held if mark.count + card.pips <= 31)
        if fitted:
            report = PenaltyOffer(
                infraction="renege", player=mark.player, count=mark.count, cards=fitted,
                points=2 * len(fitted), to=t.opponent_of(mark.player), rule=RENEGE_RULE,
            )
            t.renege_marks = (*t.renege_marks, (len(t.offers), mark))
            t.offers = (*t.offers, report)
    t.gos = tuple(unchecked)  # each go is checked once, when its hand became known


def choose_report(t: Table, offender: int) -> int | None:
    """Which open renege report a penalty for ``offender`` settles (its index in offers):
    :func:`pegboard.rules.state.settled_renege`."""
    return settled_renege(t.offers, {i for i, _ in t.renege_marks}, offender)


def can_take_back(t: Table, report: int) -> GoMark | None:
    """The go a report is about, when the play can still be taken back to it (never in a
    version-1 record: that release paid a renege without taking anything back)."""
    if t.version < 2:
        return None
    if t.phase is Phase.GAME_OVER:
        if t.crib is not None:
            return None  # won on the crib: the deal was over
    elif t.phase not in (Phase.PLAY, Phase.SHOW, Phase.CRIB):
        return None  # the deal is over: the cards are gathered
    return next((mark for i, mark in t.renege_marks if i == report), None)


def claimable_after_win(t: Table, event: Event) -> bool:
    """A game won in the play or show of a deal with a renege reported in it stays open to
    that renege's claim until the deal's crib would have been counted (ACC 7.3; docs/rules.md,
    "Renege"): the win holds only if the points that made it were rightly pegged. A claim
    that shows the cards its offender still held (``held``) is judged from them first."""
    if not isinstance(event, Penalty) or event.infraction != "renege":
        return False
    if event.held:
        reveal_held(t, event)
    report = choose_report(t, event.player) if 0 <= event.player < t.n else None
    return report is not None and can_take_back(t, report) is not None


def reveal_held(t: Table, event: Penalty) -> None:
    """A renege claimed by showing the cards the offender still holds (``event.held``): their
    hand becomes known (the cards laid this deal and those held), and their gos are checked
    as for any hand once known (ACC 7.3). Refused when the hand is known already, when the
    cards cannot be what the offender holds, or when no card of them fitted at any go."""
    player = event.player
    t.check_player(player)
    name = t.name(player)
    held = tuple(event.held)
    laid = t.played[player]
    hand = (*laid, *held)
    shown = t.known[player]
    if shown is not None and set(shown) == set(hand):
        return  # shown already by this entry (the game-over gate judged it first)
    known = t.hand(player)
    if known is not None:
        listed = " ".join(str(card) for card in known)
        raise RuleError(
            f"{name}'s hand is known ({listed}): claim the renege without naming cards"
        )
    gos = [mark for mark in t.gos if mark.player == player]
    if not gos:
        raise RuleError(
            f"{name} said no go this deal that is still unchecked: the cards held are shown "
            f"only to claim a renege at a go said while {name}'s hand was unseen"
        )
    left = t.cards_left(player)
    if len(held) != left:
        what = "it" if left == 1 else "them"
        raise RuleError(
            f"{name} holds {left} card{'' if left == 1 else 's'} ({t.hand_size} kept, "
            f"{len(laid)} laid): name {what}, not {len(held)}"
        )
    distinct(held, "the cards held")
    for card in held:
        _require_unseen_elsewhere(t, player, card)
    t.known[player] = hand
    before = len(t.offers)
    check_reneges(t)
    if not any(offer.player == player for offer in t.offers[before:]):
        counts = ", ".join(str(mark.count) for mark in gos)
        listed = " ".join(str(card) for card in held)
        raise RuleError(
            f"{name} holding {listed}: no card fitted at {name}'s go"
            f"{'s' if len(gos) > 1 else ''} at {counts}, so there was no renege ({RENEGE_RULE})"
        )


def _require_unseen_elsewhere(t: Table, player: int, card: Card) -> None:
    """A card ``player`` says they hold must be one nobody has seen elsewhere this deal."""
    if card in t.seen or (t.crib is not None and card in t.crib):
        raise t.seen_refusal(card)
    dealt = t.dealt[player]
    if dealt is not None and card not in dealt:
        raise RuleError(f"{card} was not dealt to {t.name(player)}")
    for seat in range(t.n):
        if seat == player:
            continue
        other = t.hand(seat)
        if (other is not None and card in other) or (
            t.dealt[seat] is not None and card in (t.dealt[seat] or ())
        ):
            raise RuleError(f"{card} is {t.name(seat)}'s, not {t.name(player)}'s")


def take_back(t: Table, mark: GoMark, out: list[Award]) -> None:
    """Return the play to just before ``mark``'s go and retract what was pegged since."""
    back = mark.rewind
    taken = tuple(t.played[p][len(back.played[p]):] for p in range(t.n))
    # Hands known now stay known: the cards taken back are the ones laid again.
    for p in range(t.n):
        hand = t.hand(p)
        if hand is not None:
            t.known[p] = hand
    retractions = _retract(t, back.awards, back.scores, back.back_pegs)
    out.extend(retractions)
    # Later reports were about goes that are taken back too: they no longer stand.
    t.offers = tuple(
        replace(offer, resolved=True, withdrawn=True)
        if not offer.resolved and any(
            i == index and later.rewind.moves > back.moves for i, later in t.renege_marks
        ) else offer
        for index, offer in enumerate(t.offers)
    )
    t.gos = tuple(m for m in t.gos if m.rewind.moves < back.moves)
    t.count = back.count
    t.pile = back.pile
    t.last_player = back.last_player
    t.said_go = back.said_go
    t.played = list(back.played)
    t.seen = back.seen
    t.moves = back.moves
    t.shown = [None] * t.n
    t.show_index = 0
    # Scores waiting for a claim were all made after the go: they are cancelled with it.
    t.pending_claims = ()
    t.claim_acts = ()
    if t.pending_muggins is not back.muggins or t.call is not back.call:
        # Points missed after the go are cancelled with it. A window that stood at the go,
        # with nothing pegged since, stays as it was: the take-back itself pegs nothing.
        t.close_muggins("the play was taken back after the renege")
    if t.winner is not None:
        _reopen(t)
    t.phase = Phase.PLAY
    t.to_act = mark.player
    lost = [0] * t.sides
    for award in retractions:
        lost[award.side] -= award.points
    t.take_backs = (*t.take_backs, TakeBack(mark.player, mark.count, taken, tuple(lost)))


def _reopen(t: Table) -> None:
    """The game was won on points the take-back cancels: it goes on, unless points that
    stand (a penalty, a peg by hand) keep a side at the target."""
    reached = [side for side in range(t.sides) if t.scores[side] >= t.rules.target]
    if reached:
        raise RuleError(
            f"{side_name(t, reached[0])} reached {t.rules.target} on points the renege does "
            f"not take back: the game is over ({RENEGE_RULE})"
        )
    t.winner = None
    t.result = None
    t.results = t.results[:-1]
    t.match_winner = None  # the match was not decided before this game


def _retract(
    t: Table, since: int, scores: tuple[int, ...], back_pegs: tuple[int, ...],
) -> list[Award]:
    """One negative award for each award since ``since`` that the take-back cancels."""
    cancel = [
        i for i in range(since, len(t.awards))
        if i not in t.retracted and t.awards[i].reason in RETRACTABLE and t.awards[i].points
    ]
    before = list(t.scores)
    retractions = []
    for i in cancel:
        award = t.awards[i]
        points = min(award.points, t.scores[award.side])  # never below 0
        t.scores[award.side] -= points
        said = award.sentence.split(": ", 1)[-1]
        retraction = Award(
            player=award.player, side=award.side, points=-points, reason=TAKE_BACK,
            sentence=f"{t.name(award.player)}: taken back after the renege: {said}",
            items=award.items, cards=award.cards, rule=RENEGE_RULE, cancels=award.reason,
        )
        t.awards = (*t.awards, retraction)
        retractions.append(retraction)
    t.retracted = t.retracted | set(cancel)
    for side in {t.awards[i].side for i in cancel}:
        # Both pegs go back where they stood at the renege when nothing else moved them
        # since; otherwise this is a move back like any other (the back peg marks the
        # score before it).
        moved = any(
            award.side == side and award.reason != TAKE_BACK and i not in t.retracted
            for i, award in enumerate(t.awards[since:], start=since)
        )
        if moved or t.scores[side] != scores[side]:
            t.back_pegs[side] = before[side]
        else:
            t.back_pegs[side] = back_pegs[side]
    return retractions
