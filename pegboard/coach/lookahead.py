"""The one pegging judgement: the card to lay now, looking two cards ahead (docs/rules.md, "The
play"). The coach's line and its note after a play, the pegging hint, ``pegboard quiz`` and the
game review all judge a card here, from the same :class:`~pegboard.coach.knowledge.Knowledge`,
so they agree on every situation: the coach's card is the hint's, the quiz's right answer, and
never a mistake in the review.

A card is valued by what is known: the points it makes now; then the next player's answer,
every card they could hold equally likely (not the cards seen this deal, nor any the player
was dealt: their own discards are nobody else's; in an open-handed game, where every hand is
open to the table, exactly the cards they hold, so no card in the crib, in another hand or
still in the pack is ever feared or hoped for); the chance that none of the cards they still
hold fits under 31, when the go (or the last card) comes back to the player; and the player's
own best card after the answer. When only the dealt cards are known, each card the player might
still hold counts as often as the holdings that include it; such a judgement names no card as
held (any may be in the crib). Two cards ahead is where the traps are that players learn: a
card whose rank you hold again invites a pair you answer with a pair royal; a card one or two
ranks from another you hold invites a run you extend; a count the next player cannot answer
under 31 gives you the go, and laying on after it the last card too.

What the coach says (:func:`coach_line`, :func:`play_note`) names the player's cards only when
it knows them and the table may see them (an open hand); otherwise it speaks of the count and
the cards laid, which every player sees, or says nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from math import comb

from pegboard.coach.knowledge import Knowledge, OwnCards
from pegboard.rules.cards import DECK, Card, Rank
from pegboard.rules.pegging import play_points, score_play
from pegboard.rules.speech import say_play
from pegboard.rules.value import Value

GO = 1
"""The point for the go, or for the last card (RULES.md, "The play"); 31 scores 2 instead."""


class Ahead(Value):
    """A card valued two cards ahead: its expected points (``value``), the answer it invites
    that pays the player most and the card that would make it pay (``trap`` None: no answer
    pays), ``go`` when the next player surely cannot answer, and ``none`` the chance that
    they cannot."""

    __slots__ = ("card", "go", "none", "trap", "value")
    __match_args__ = ("card", "value", "trap", "go", "none")

    card: Card
    value: Fraction
    trap: tuple[Rank, Card, str] | None
    go: bool
    none: Fraction

    def __init__(
        self,
        card: Card,
        value: Fraction,
        trap: tuple[Rank, Card, str] | None,
        go: bool,
        none: Fraction = Fraction(0),
    ) -> None:
        setter = object.__setattr__
        setter(self, "card", card)
        setter(self, "value", value)
        setter(self, "trap", trap)
        setter(self, "go", go)
        setter(self, "none", none)


def _reply(pile: tuple[Card, ...], holding: Sequence[Card]) -> tuple[int, Card | None]:
    """The player's best card on ``pile`` from ``holding``: its points (with the go or last
    card when nothing can follow it), or the go lost to the other side (-1) when no card
    fits and the count is under 31."""
    count = sum(c.pips for c in pile)
    best: tuple[int, Card | None] = (-GO if count < 31 else 0, None)
    for card in holding:
        if count + card.pips <= 31:
            points = play_points((*pile, card))
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


def _holdings(known: Knowledge, laid: Card) -> list[tuple[Card, ...]]:
    """Each set of cards the player may still hold once ``laid`` is laid, equally likely."""
    rest = tuple(c for c in known.cards if c != laid)
    keep = len(rest) if known.own is OwnCards.KEPT else max(0, min(len(rest), known.holds - 1))
    return [rest] if keep == len(rest) else list(combinations(rest, keep))


def _value(known: Knowledge, card: Card, unseen: list[Card]) -> Ahead:
    laid = (*known.pile, card)
    reached = known.count + card.pips
    value = Fraction(play_points(laid))
    if reached == 31:  # the count starts again: nothing more to look at
        return Ahead(card, value, None, False)
    holdings = _holdings(known, card)
    answers = [c for c in unseen if reached + c.pips <= 31]
    none = _none_fits(len(unseen), len(answers), known.next_left)
    if none:
        alone = sum(_alone(laid, holding) for holding in holdings)
        value += none * Fraction(alone, len(holdings))
    if known.theirs is not None:
        return _open_value(card, value, laid, answers, holdings, none)
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
            lost = play_points(after)
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


def _open_value(card: Card, value: Fraction, laid: tuple[Card, ...], answers: list[Card],
                holdings: list[tuple[Card, ...]], none: Fraction) -> Ahead:
    """``card`` valued at an open-handed table, where the next player holds exactly
    ``answers`` (those that fit) and sees the player's cards as the player sees theirs: they
    answer with the card best for them, the one that leaves them most once the player's best
    card after it is counted (ties: the one that scores them most now, then the lower card).
    The trap is what the player's card after that answer makes, when it scores."""
    if none:  # nothing of theirs fits: the player lays on alone (``value`` counts it)
        return Ahead(card, value, None, True, none)
    best: tuple[tuple[Fraction, int, int, int], Card, list[tuple[int, Card | None]]] | None = None
    for answer in answers:
        after = (*laid, answer)
        lost = play_points(after)
        replies = [_reply(after, holding) for holding in holdings]
        net = Fraction(sum(p for p, _ in replies), len(holdings)) - lost
        order = (net, -lost, answer.pips, answer.index)
        if best is None or order < best[0]:
            best = (order, answer, replies)
    assert best is not None
    (net, *_), answer, replies = best
    trap: tuple[Rank, Card, str] | None = None
    points, mine = max(replies, key=lambda r: r[0])
    if mine is not None and points > 0:
        after = (*laid, answer, mine)
        trap = (answer.rank, mine, say_play(score_play(after),
                                            sum(c.pips for c in after)).lower())
    return Ahead(card, value + net, trap, False, none)


# Kept for the latest situations: the coach's line, its note after the play, the hint and the
# review each judge the same situation, and a finished game's lessons are read by the store's
# summaries and the review alike, so the same judgement would be made several times over (it
# is the costliest part of a game's lessons). A judgement is a value (frozen, of a frozen
# Knowledge), so one made once serves every caller.
@lru_cache(maxsize=1024)
def judge(known: Knowledge) -> tuple[Ahead, ...]:
    """Every card the player may lay that fits under 31, valued two cards ahead, best first
    (ties: the lower card, keeping high ones for 31); none when nothing is known of their
    cards. The first is the coach's card."""
    unseen = known.unseen()
    count = known.count
    out = [_value(known, card, unseen) for card in known.cards if count + card.pips <= 31]
    out.sort(key=lambda a: (-a.value, a.card.pips, a.card.index))
    return tuple(out)


def given_up(known: Knowledge, card: Card) -> Fraction | None:
    """The expected points ``card`` gives up against the best card (0: the best, or as good;
    None: not a card the player may lay that fits). The review calls a play a mistake, and
    the quiz an answer wrong, exactly when this is above 0."""
    found = judge(known)
    chosen = next((a for a in found if a.card == card), None)
    return None if chosen is None else found[0].value - chosen.value


def look_ahead(pile: Sequence[Card], hand: Sequence[Card], seen: Sequence[Card] = (), *,
               next_left: int | None = None,
               theirs: Sequence[Card] | None = None) -> tuple[Ahead, ...]:
    """:func:`judge` for a player holding ``hand`` (kept cards known; the next player's
    ``theirs`` too, when the hands are open to the table)."""
    return judge(Knowledge.kept(pile, hand, seen, next_left=next_left, theirs=theirs))


def coach_card(known: Knowledge, *, open_hand: bool) -> Card | None:
    """The card the coach's line names for the player to act (:func:`card_line`): the best
    of :func:`judge`, when their kept cards are known and open to the table (``open_hand``);
    None when the line names no card (a closed hand, nothing known, or no card fits)."""
    if known.own is not OwnCards.KEPT or not open_hand:
        return None
    found = judge(known)
    return found[0].card if found else None


def coach_line(known: Knowledge, *, open_hand: bool) -> str | None:
    """The coach's line for the player to act. Their cards known and open to the table
    (``open_hand``): the card to lay (:func:`card_line`). Else, when anything of their cards
    is known, what the count offers (:func:`count_line`), which names none of them: a dealt
    card may be in the crib, and a closed hand is the player's own. Nothing known: None."""
    if known.own is OwnCards.KEPT and open_hand:
        return card_line(known)
    if known.own is OwnCards.NOTHING:
        return None
    return count_line(known.pile)


def card_line(known: Knowledge) -> str | None:
    """The card to lay and the trap it sets, or the go it wins, or that it is the only card
    that fits (None: no card fits, the player says go; or their cards are not known, and no
    card is named)."""
    if known.own is not OwnCards.KEPT:
        return None
    found = judge(known)
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
    if len(found) == 1:  # no choice to explain: say so, not that it was chosen
        only = "your last card" if len(known.cards) == 1 else "the only card that fits"
        return f"Lay {rank}: {only}, to {count}"
    return f"Lay {rank}: to {count}, the least they can score back"


def count_line(pile: Sequence[Card]) -> str:
    """What the count offers, from the pile alone (every player sees it; it says nothing of
    anyone's cards and asks no one to lay one), short enough for the play screen's line: the
    rank that scores most on it now ("At 8: 7 for 15", "At 17: 7 for a pair royal"; any
    ten-card is "10" when a 15 or 31 is all it makes), else the count to keep clear of, where
    any ten-card makes 15 or 31."""
    pile = tuple(pile)
    count = sum(c.pips for c in pile)
    if not pile:
        return "Lead: under 5, no 15"
    best: tuple[int, int, Card] | None = None
    for rank in Rank:
        card = next((c for c in DECK if c.rank is rank and c not in pile), None)
        if card is None or count + card.pips > 31:
            continue
        points = score_play((*pile, card)).total
        if points and (best is None or (points, card.pips) > best[:2]):
            best = (points, card.pips, card)
    if best is not None:
        card = best[2]
        items = score_play((*pile, card)).items
        kinds = {item.kind for item in items}
        if len(items) > 1:
            what = f"{best[0]} points"
        elif kinds <= {"fifteen", "thirty-one"}:
            what = "15" if "fifteen" in kinds else "31"
        else:
            what = f"a {items[0].kind}" if items[0].kind.endswith(("pair", "royal", "run")) \
                else items[0].kind
        name = "10" if card.pips == 10 and kinds <= {"fifteen", "thirty-one"} else (
            _name(card.rank))
        return f"At {count}: {name} for {what}"
    left = next((left for left in (5, 21) if count < left <= count + 10), None)
    return f"At {count}: avoid {left}" if left is not None else f"At {count}: nothing scores"


def play_note(known: Knowledge, played: Card, *, open_hand: bool) -> str | None:
    """The one-line note after ``played`` was laid, when it gave a point or more away on
    average against the coach's card (:func:`given_up`); None otherwise, and always when
    the player's cards were not known (no card that went to the crib is ever held against
    them). A closed hand's note names no card the player still held: only the answer the
    card laid invited."""
    if known.own is not OwnCards.KEPT:
        return None
    found = judge(known)
    chosen = next((a for a in found if a.card == played), None)
    if chosen is None or found[0].value - chosen.value < 1:
        return None
    best = found[0]
    laid = (*known.pile, best.card)
    now = score_play(laid)
    mine = score_play((*known.pile, played)).total
    better = _name(best.card.rank)
    worst = _worst_answer(known, played)
    if open_hand and now.total > mine:
        said = say_play(now, sum(c.pips for c in laid)).lower()
        return f"Missed: your {better} made {said}"
    if worst is not None:
        answer, said = worst
        safer = f"; {better} was safer" if open_hand else ""
        return f"Gave away: {_a(answer)} back made {said}{safer}"
    return f"Your {better} was worth more on average" if open_hand else None


def _worst_answer(known: Knowledge, played: Card) -> tuple[Rank, str] | None:
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
