"""The pegging coach: the card to lay now, looking two cards ahead (docs/rules.md, "The play").

A card is valued by what the box knows of the table (:class:`Known`): the points it makes
now; then the next player's answer, every card they could hold equally likely (not the cards
seen this deal, nor any the player was dealt: their own discards are nobody else's); the
chance that none of the cards they still hold fits under 31, when the go (or the last card)
comes back to the player; and the player's own best card after the answer. When the box knows
the six dealt cards but not which two went to the crib, each card the player might still hold
counts as often as the holdings that include it. Two cards ahead is where the traps are that
players learn: a card whose rank you hold again invites a pair you answer with a pair royal;
a card one or two ranks from another you hold invites a run you extend; a count the next
player cannot answer under 31 gives you the go, and laying on after it the last card too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import comb

from pegboard.rules.cards import DECK, Card, Rank
from pegboard.rules.pegging import score_play
from pegboard.rules.speech import say_play
from pegboard.rules.state import GameState, Phase

GO = 1
"""The point for the go, or for the last card (RULES.md, "The play"); 31 scores 2 instead."""


@dataclass(frozen=True, slots=True)
class Known:
    """What the box knows when a player is to lay a card.

    ``cards`` are the cards the player may hold (the dealt cards not yet laid, or the hand
    when it is known) and ``holds`` how many of them they hold (fewer than ``cards`` while
    the box does not know which were laid away; None: all of them). ``dead`` are cards the
    next player cannot hold besides the pile and ``cards`` (the starter, the cards laid in
    earlier counts). ``next_left`` is how many cards the next player still holds (0 once
    they have said go or laid them all; None: not known, assume they hold an answer if
    there is one)."""

    pile: tuple[Card, ...]
    cards: tuple[Card, ...]
    dead: tuple[Card, ...] = ()
    holds: int | None = None
    next_left: int | None = None

    @property
    def count(self) -> int:
        """The count before the card is laid."""
        return sum(c.pips for c in self.pile)

    def unseen(self) -> list[Card]:
        """The cards the next player might hold."""
        known = {*self.pile, *self.cards, *self.dead}
        return [card for card in DECK if card not in known]

    def holdings(self, laid: Card) -> list[tuple[Card, ...]]:
        """Each set of cards the player may still hold once ``laid`` is laid, equally
        likely."""
        rest = tuple(c for c in self.cards if c != laid)
        keep = len(rest) if self.holds is None else max(0, min(len(rest), self.holds - 1))
        return [rest] if keep == len(rest) else list(combinations(rest, keep))


@dataclass(frozen=True, slots=True)
class Ahead:
    """A card valued two cards ahead: its expected points (``value``), the answer it invites
    that pays the player most and the card that would make it pay (``trap`` None: no answer
    pays), ``go`` when the next player surely cannot answer, and ``none`` the chance that
    they cannot."""

    card: Card
    value: Fraction
    trap: tuple[Rank, Card, str] | None
    go: bool
    none: Fraction = Fraction(0)


def _reply(pile: tuple[Card, ...], holding: Sequence[Card]) -> tuple[int, Card | None]:
    """The player's best card on ``pile`` from ``holding``: its points (with the go or last
    card when nothing can follow it), or the go lost to the other side (-1) when no card
    fits and the count is under 31."""
    count = sum(c.pips for c in pile)
    best: tuple[int, Card | None] = (-GO if count < 31 else 0, None)
    for card in holding:
        if count + card.pips <= 31:
            points = score_play((*pile, card)).total
            if best[1] is None or points > best[0]:
                best = (points, card)
    return best


def _alone(pile: tuple[Card, ...], holding: Sequence[Card]) -> int:
    """The player lays on alone (nobody else can answer): the best card's points, then the
    go or last card unless it made 31; the go for the count as it stands with no card."""
    count = sum(c.pips for c in pile)
    points, card = _reply(pile, holding)
    if card is None:
        return GO if count < 31 else 0
    return points + (GO if count + card.pips < 31 else 0)


def _none_fits(unseen: int, fitting: int, held: int | None) -> Fraction:
    """The chance that none of the ``held`` cards the next player holds (drawn from
    ``unseen``) is one of the ``fitting`` ones."""
    if held is None:
        return Fraction(0 if fitting else 1)
    if held <= 0 or fitting == 0:
        return Fraction(1)
    held = min(held, unseen)
    return Fraction(comb(unseen - fitting, held), comb(unseen, held))


def _value(known: Known, card: Card, unseen: list[Card]) -> Ahead:
    laid = (*known.pile, card)
    reached = known.count + card.pips
    value = Fraction(score_play(laid).total)
    if reached == 31:  # the count starts again: nothing more to look at
        return Ahead(card, value, None, False)
    holdings = known.holdings(card)
    answers = [c for c in unseen if reached + c.pips <= 31]
    none = _none_fits(len(unseen), len(answers), known.next_left)
    if none:
        alone = sum(_alone(laid, holding) for holding in holdings)
        value += none * Fraction(alone, len(holdings))
    trap: tuple[Rank, Card, str] | None = None
    gained = 0
    if none < 1:
        share = (1 - none) / len(answers)
        by_rank: dict[Rank, list[Card]] = {}
        for answer in answers:  # the suit of an answer never changes a play's points
            by_rank.setdefault(answer.rank, []).append(answer)
        for same in by_rank.values():
            answer = same[0]
            after = (*laid, answer)
            lost = score_play(after).total
            replies = [_reply(after, holding) for holding in holdings]
            value += share * len(same) * (
                Fraction(sum(p for p, _ in replies), len(holdings)) - lost)
            for points, mine in replies:
                if mine is not None and points > gained:
                    gained = points
                    made = reached + answer.pips + mine.pips
                    trap = (answer.rank, mine, say_play(score_play((*after, mine)),
                                                        made).lower())
    return Ahead(card, value, trap, none == 1 and bool(unseen), none)


def known_for(gs: GameState) -> Known | None:
    """What the box knows for the player to act in the play: None unless it knows their
    cards (the hand, once known, else the dealt cards entered, of which the player holds
    as many as they have left). The next player is the first after them still in this
    count with cards left (none: nobody can answer)."""
    player = gs.to_act
    if gs.phase is not Phase.PLAY or player is None:
        return None
    hand = gs.hands[player] if gs.hands[player] is not None else gs.dealt[player]
    if hand is None:
        return None
    cards = tuple(c for c in hand if c not in gs.played[player])
    dead = tuple(c for c in gs.seen if c not in gs.pile and c not in cards)
    seats = gs.players
    after = ((player + k) % seats for k in range(1, seats))
    nxt = next((s for s in after if s not in gs.said_go and gs.cards_left[s] > 0), None)
    return Known(gs.pile, cards, dead, gs.cards_left[player],
                 0 if nxt is None else gs.cards_left[nxt])


def look_ahead(pile: Sequence[Card], hand: Sequence[Card], seen: Sequence[Card] = (), *,
               holds: int | None = None, next_left: int | None = None) -> list[Ahead]:
    """Every card of ``hand`` that fits under 31 on ``pile``, valued two cards ahead, best
    first (ties: the lower card, keeping high ones for 31); see :class:`Known` for the
    rest."""
    return look_ahead_known(Known(tuple(pile), tuple(hand), tuple(seen), holds, next_left))


def look_ahead_known(known: Known) -> list[Ahead]:
    """:func:`look_ahead` of what the box knows."""
    unseen = known.unseen()
    count = known.count
    out = [_value(known, card, unseen) for card in known.cards if count + card.pips <= 31]
    out.sort(key=lambda a: (-a.value, a.card.pips, a.card.index))
    return out


def coach_line(pile: Sequence[Card], hand: Sequence[Card], seen: Sequence[Card] = (), *,
               holds: int | None = None, next_left: int | None = None) -> str | None:
    """One line for the player to act: the card to lay and the trap it sets, or the go it
    wins (None: no card fits, the player says go)."""
    return known_line(Known(tuple(pile), tuple(hand), tuple(seen), holds, next_left))


def known_line(known: Known) -> str | None:
    """:func:`coach_line` of what the box knows."""
    found = look_ahead_known(known)
    if not found:
        return None
    best = found[0]
    rank = _name(best.card.rank)
    laid = (*known.pile, best.card)
    count = sum(c.pips for c in laid)
    now = score_play(laid)
    if now.total:
        return f"Lay {rank}: {say_play(now, count).lower()}"
    if best.trap is not None and not best.go:
        answer, mine, said = best.trap
        return f"Lay {rank}: {_a(answer)} back, your {_name(mine.rank)} makes {said}"
    if best.go:
        last = "last card" if known.next_left == 0 else "the go"
        return f"Lay {rank}: at {count} nobody can answer, {last} is yours"
    return f"Lay {rank}: to {count}, the least they can score back"


def play_note(known: Known, played: Card) -> str | None:
    """The one-line note after ``played`` was laid, when it gave points away or missed a
    score against the coach's card (a point or more on average); None otherwise."""
    found = look_ahead_known(known)
    chosen = next((a for a in found if a.card == played), None)
    if chosen is None or not found or found[0].value - chosen.value < 1:
        return None
    best = found[0]
    laid = (*known.pile, best.card)
    now = score_play(laid)
    mine = score_play((*known.pile, played)).total
    better = _name(best.card.rank)
    if now.total > mine:
        said = say_play(now, sum(c.pips for c in laid)).lower()
        unsure = known.holds is not None and known.holds < len(known.cards)
        kept = " (if you kept it)" if unsure else ""  # it may have gone to the crib
        return f"Missed: your {better}{kept} made {said}"
    worst = _worst_answer(known, played)
    if worst is not None:
        answer, said = worst
        return f"Gave away: {_a(answer)} back made {said}; {better} was safer"
    return f"Your {better} was worth more on average"


def _worst_answer(known: Known, played: Card) -> tuple[Rank, str] | None:
    """The answer to ``played`` that scores most (None: no answer scores)."""
    laid = (*known.pile, played)
    reached = sum(c.pips for c in laid)
    worst: tuple[int, Rank, str] | None = None
    for answer in known.unseen():
        if reached + answer.pips > 31 or answer in laid:
            continue
        made = score_play((*laid, answer))
        if made.total and (worst is None or made.total > worst[0]):
            worst = (made.total, answer.rank, say_play(made, reached + answer.pips).lower())
    return None if worst is None else (worst[1], worst[2])


def _a(rank: Rank) -> str:
    article = "an" if rank in (Rank.ACE, Rank.EIGHT) else "a"
    return f"{article} {_name(rank)}"


def _name(rank: Rank) -> str:
    return "10" if rank is Rank.TEN else rank.symbol
