"""Practice drills on random deals: count a hand, lay away to the crib, pick the card to peg.

Each drill is a question made from a seeded random deal (the same seed gives the same
questions) and a check of the answer against the scorer or the advice engine:

* **count**: four cards and a starter (now and then a crib); the answer is a total, checked
  against :func:`pegboard.rules.show.score_hand`, with the count said the way the box says it.
* **discard**: six cards dealt, as dealer or pone; the answer is the cards laid away, reviewed
  by :func:`pegboard.coach.review.review_discard` (right when nothing is given up on average).
* **peg**: a count in the play and a hand; the answer is a card, judged by the pegging
  coach's look-ahead (:func:`pegboard.coach.lookahead.given_up`: right when no card is worth
  more), the judgement the coach, the hint and the game review make of the same situation.
  With open hands, as a first game is played, the next player's cards are shown too, and
  the judgement weighs those cards alone, as the coach does at an open-handed table.
"""

from __future__ import annotations

import enum
import random

from pegboard.coach.hints import hint
from pegboard.coach.knowledge import Knowledge
from pegboard.coach.lookahead import given_up, judge
from pegboard.coach.review import points_text, review_discard
from pegboard.errors import InvalidCardError
from pegboard.rules.cards import DECK, Card, parse_cards
from pegboard.rules.pegging import score_play
from pegboard.rules.show import score_hand
from pegboard.rules.speech import say_breakdown, say_play
from pegboard.rules.value import Value

__all__ = ["Drill", "Marked", "Question", "ask", "mark"]


class Drill(enum.StrEnum):
    """The kinds of drill ``pegboard quiz`` runs."""

    COUNT = "count"
    DISCARD = "discard"
    PEG = "peg"


class Question(Value):
    """One question: the cards it shows and the prompt that asks it."""

    __slots__ = ("cards", "crib", "dealer", "drill", "next_left", "pile", "seen", "starter",
                 "theirs")
    __match_args__ = ("drill", "cards", "starter", "crib", "dealer", "pile", "seen", "next_left",
                      "theirs")

    drill: Drill
    cards: tuple[Card, ...]
    starter: Card | None
    crib: bool
    dealer: bool
    pile: tuple[Card, ...]
    seen: tuple[Card, ...]
    next_left: int | None
    theirs: tuple[Card, ...] | None

    def __init__(
        self,
        drill: Drill,
        cards: tuple[Card, ...],
        starter: Card | None = None,
        crib: bool = False,
        dealer: bool = False,
        pile: tuple[Card, ...] = (),
        seen: tuple[Card, ...] = (),
        next_left: int | None = None,
        theirs: tuple[Card, ...] | None = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "drill", drill)
        setter(self, "cards", cards)
        setter(self, "starter", starter)
        setter(self, "crib", crib)
        setter(self, "dealer", dealer)
        setter(self, "pile", pile)
        setter(self, "seen", seen)
        setter(self, "next_left", next_left)
        setter(self, "theirs", theirs)

    @property
    def known(self) -> Knowledge:
        """What the peg drill's player knows: the cards they hold, the pile, any other cards
        seen (none in a random question), the next player's cards left (not known in a
        random question: taken to hold an answer if there is one) and, when the hands are
        open, which cards they are (``theirs``)."""
        return Knowledge.kept(self.pile, self.cards, self.seen, next_left=self.next_left,
                              theirs=self.theirs)

    def prompt(self) -> str:
        """The question as it is asked."""
        cards = " ".join(c.pretty for c in self.cards)
        if self.drill is Drill.COUNT:
            what = "the crib" if self.crib else "the hand"
            starter = self.starter.pretty if self.starter else ""
            return f"Count {what} {cards} with the starter {starter}: "
        if self.drill is Drill.DISCARD:
            whose = "you deal: your own crib" if self.dealer else "they deal: their crib"
            return f"Dealt {cards} ({whose}). Lay away two: "
        count = sum(c.pips for c in self.pile)
        pile = " ".join(c.pretty for c in self.pile) or "nothing yet, you lead"
        theirs = ("" if self.theirs is None else
                  f" Open hands: the next player holds {' '.join(c.pretty for c in self.theirs)}."
                  if self.theirs else " Open hands: the next player holds nothing.")
        return f"The count is {count} ({pile}). You hold {cards}.{theirs} Lay which card? "


class Marked(Value):
    """An answer checked: right or not, and what to say about it."""

    __slots__ = ("lines", "right")
    __match_args__ = ("right", "lines")

    right: bool
    lines: tuple[str, ...]

    def __init__(self, right: bool, lines: tuple[str, ...]) -> None:
        setter = object.__setattr__
        setter(self, "right", right)
        setter(self, "lines", lines)


def ask(drill: Drill, rng: random.Random, *, open_hands: bool = False) -> Question:
    """A question of ``drill`` from the random source (seed it for the same questions);
    ``open_hands`` (peg only): the next player's cards shown, one to four of them."""
    deck = list(DECK)
    rng.shuffle(deck)
    if drill is Drill.COUNT:
        return Question(drill, tuple(deck[:4]), deck[4], crib=rng.random() < 0.25)
    if drill is Drill.DISCARD:
        return Question(drill, tuple(deck[:6]), dealer=rng.random() < 0.5)
    while True:  # a pile that leaves the hand at least two cards that fit
        pile: list[Card] = []
        for card in deck[4:4 + rng.randint(0, 3)]:
            if sum(c.pips for c in pile) + card.pips > 31:
                break
            pile.append(card)
        hand = tuple(deck[:rng.randint(2, 4)])
        theirs = tuple(deck[8:8 + rng.randint(1, 4)]) if open_hands else None
        if len(judge(Knowledge.kept(pile, hand, theirs=theirs))) >= 2:
            return Question(drill, hand, pile=tuple(pile), theirs=theirs)
        rng.shuffle(deck)


def _whole_number(answer: str) -> int:
    text = answer.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 2:  # "²" is a digit
        raise InvalidCardError(f"{text[:20]!r} is not a count: answer with the points, 0 to 29")
    return int(text)


def _cards_of(answer: str, question: Question, number: int) -> tuple[Card, ...]:
    cards = tuple(parse_cards(answer))
    if len(cards) != number or len(set(cards)) != number:
        raise InvalidCardError(f"{answer.strip()[:40]!r}: name {number} different card(s) "
                               f"of {' '.join(str(c) for c in question.cards)}")
    for card in cards:
        if card not in question.cards:
            raise InvalidCardError(f"{card} is not one of your cards: "
                                   f"{' '.join(str(c) for c in question.cards)}")
    return cards


def mark(question: Question, answer: str) -> Marked:
    """Check ``answer`` (a total, two cards, or one card); an answer that is not one raises
    :class:`~pegboard.errors.InvalidCardError` naming what would do."""
    if question.drill is Drill.COUNT:
        points = _whole_number(answer)
        assert question.starter is not None
        count = score_hand(question.cards, question.starter, crib=question.crib)
        said = f"{say_breakdown(count)}."
        if points == count.total:
            return Marked(True, (f"Right: {count.total}.", said))
        return Marked(False, (f"It is {count.total}, not {points}.", said))
    if question.drill is Drill.DISCARD:
        away = _cards_of(answer, question, 2)
        kept = tuple(c for c in question.cards if c not in away)
        found = review_discard(question.cards, kept, dealer=question.dealer)
        head = "Right." if found.followed else f"Given up: {points_text(found.loss)}."
        return Marked(found.followed, (head, *found.lines()))
    (card,) = _cards_of(answer, question, 1)
    known = question.known
    lost = given_up(known, card)
    if lost is None:
        raise InvalidCardError(f"{card} would take the count past 31 (it is {known.count})")
    best = hint(known)
    said = say_play(score_play((*question.pile, card)), known.count + card.pips)
    if lost == 0:
        return Marked(True, (f"Right: {said}.", f"{best.reason}."))
    return Marked(False, (f"{card.pretty}: {said}; {points_text(lost)} given up on average.",
                          f"Better: {best.reason}."))
