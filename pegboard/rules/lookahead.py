"""The pegging coach: the card to lay now, looking two cards ahead (docs/rules.md, "The play").

A card is valued by the points it makes now, less what the next player's answer scores on
average, plus what the player's own best card after that answer scores on average (every card
not yet seen equally likely to be the answer). Two cards ahead is where the traps are that
players learn: a card whose rank you hold again invites a pair you answer with a pair royal;
a card one or two ranks from another you hold invites a run you extend; a count the next
player cannot answer under 31 gives you the go.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from pegboard.rules.cards import DECK, Card, Rank
from pegboard.rules.pegging import score_play
from pegboard.rules.speech import say_play


@dataclass(frozen=True, slots=True)
class Ahead:
    """A card valued two cards ahead: the answer it invites that pays the player most, and the
    card that would make it pay (``trap`` None: no answer pays)."""

    card: Card
    value: Fraction
    trap: tuple[Rank, Card, str] | None
    go: bool


def _best_after(pile: tuple[Card, ...], hand: Sequence[Card]) -> tuple[int, Card | None]:
    best: tuple[int, Card | None] = (0, None)
    count = sum(c.pips for c in pile)
    for card in hand:
        if count + card.pips <= 31:
            points = score_play((*pile, card)).total
            if best[1] is None or points > best[0]:
                best = (points, card)
    return best


def look_ahead(pile: Sequence[Card], hand: Sequence[Card], seen: Sequence[Card] = (),
               ) -> list[Ahead]:
    """Every card of ``hand`` that fits under 31 on ``pile``, valued two cards ahead, best
    first (ties: the lower card, keeping high ones for 31)."""
    pile, hand = tuple(pile), tuple(hand)
    known = {*pile, *hand, *seen}
    unseen = [card for card in DECK if card not in known]
    count = sum(c.pips for c in pile)
    out: list[Ahead] = []
    for card in hand:
        reached = count + card.pips
        if reached > 31:
            continue
        laid = (*pile, card)
        rest = [c for c in hand if c != card]
        value = Fraction(score_play(laid).total)
        answers = [c for c in unseen if reached < 31 and reached + c.pips <= 31]
        trap: tuple[Rank, Card, str] | None = None
        gained = 0
        for answer in answers:
            after = (*laid, answer)
            points, mine = _best_after(after, rest)
            value += Fraction(points - score_play(after).total, len(answers))
            if mine is not None and points > gained:
                gained = points
                made = reached + answer.pips + mine.pips
                trap = (answer.rank, mine, say_play(score_play((*after, mine)), made).lower())
        go = 0 < reached < 31 and not answers and bool(unseen)
        if go:
            value += 1
        out.append(Ahead(card, value, trap, go))
    out.sort(key=lambda a: (-a.value, a.card.pips))
    return out


def coach_line(pile: Sequence[Card], hand: Sequence[Card], seen: Sequence[Card] = (),
               ) -> str | None:
    """One line for the player to act: the card to lay and the trap it sets, or the go it
    wins (None: no card fits, the player says go)."""
    found = look_ahead(pile, hand, seen)
    if not found:
        return None
    best = found[0]
    rank = _name(best.card.rank)
    laid = (*pile, best.card)
    count = sum(c.pips for c in laid)
    now = score_play(laid)
    if now.total:
        return f"Lay {rank}: {say_play(now, count).lower()}"
    if best.trap is not None:
        answer, mine, said = best.trap
        article = "an" if answer in (Rank.ACE, Rank.EIGHT) else "a"
        return f"Lay {rank}: {article} {_name(answer)} back, your {_name(mine.rank)} makes {said}"
    if best.go:
        return f"Lay {rank}: at {count} nobody can answer, the go is yours"
    return f"Lay {rank}: to {count}, the least they can score back"


def _name(rank: Rank) -> str:
    return "10" if rank is Rank.TEN else rank.symbol
