"""Discard review: once a hand is shown, what the kept cards were worth on average, the best
discard, the points given up, and why, in words a player can use again.

Every figure is the exact advice engine's (:func:`pegboard.coach.advice.advise`): the kept
hand averaged over every starter the player had not seen, the crib over every starter and every
set of cards the others could lay away. The crib counts for the dealer and against the pone, so
the pone's crib figure is a cost, written with a minus sign (docs/rules.md, "The deal",
"The show").

The loss is the best discard's average minus the kept cards' average: never negative, and 0
exactly when the player kept cards worth as much as the advice's first (the first itself, or
one tied with it). A zero loss is "the right discard"; when another keep would have scored more
with the starter that came, the review says the cut favoured it, without calling the discard
wrong: the starter is not known when the cards are laid away.

The reasons (:class:`Why`) are combinations the scorer finds: those the kept cards make before
the cut (the same whatever the starter), those the cards laid away make in the crib already,
and those they make with any one card of a value (2-3 makes fifteen with any ten-card).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations

from pegboard.coach.advice import DiscardChoice, advise, best_keep
from pegboard.coach.help_shape import paginate
from pegboard.errors import InvalidCardError
from pegboard.rules.cards import DECK, Card, EnteredCard, Rank, Suit
from pegboard.rules.pegging import score_play
from pegboard.rules.show import score_hand
from pegboard.rules.value import Value

__all__ = [
    "DiscardReview", "Where", "Why", "cards_words", "hand_words", "points_text", "review_discard",
    "screen_pages",
]


class Where(enum.StrEnum):
    """Where a reason's combination scores."""

    HAND = "hand"
    """In the kept cards, before the cut: it scores whatever the starter."""
    CRIB = "crib"
    """In the cards laid away: it scores in the crib whatever else goes there."""
    CRIB_WITH = "crib with"
    """The cards laid away with any one card of the values in ``needs``."""


_TEN_CARD = 10


def cards_words(cards: Sequence[Card], joiner: str = "-") -> str:
    """Ranks as a player says them, lowest first: ``7-8-9``, ``2-3``, ``10-J``."""
    ordered = sorted(cards, key=lambda c: (c.rank, c.index))
    return joiner.join("10" if c.rank is Rank.TEN else c.rank.symbol for c in ordered)


def _value_words(value: int) -> str:
    return "any ten-card" if value == _TEN_CARD else f"any {'ace' if value == 1 else value}"


class Why(Value):
    """One reason: a combination, where it scores, and its points.

    For :attr:`Where.CRIB_WITH`, ``needs`` are the card values (1 to 10, ten-cards as 10) or,
    for a run, the ranks, any one of which completes ``kind`` with ``cards``.
    """

    __slots__ = ("cards", "kind", "needs", "points", "where")
    __match_args__ = ("where", "kind", "cards", "points", "needs")

    where: Where
    kind: str
    cards: tuple[Card, ...]
    points: int
    needs: tuple[int, ...]

    def __init__(
        self,
        where: Where,
        kind: str,
        cards: tuple[Card, ...],
        points: int,
        needs: tuple[int, ...] = (),
    ) -> None:
        setter = object.__setattr__
        setter(self, "where", where)
        setter(self, "kind", kind)
        setter(self, "cards", cards)
        setter(self, "points", points)
        setter(self, "needs", needs)

    def words(self, *, own_crib: bool) -> str:
        """A crib reason in plain words (``own_crib``: the crib is the player's own); a hand
        reason's words come from :func:`hand_words`, which groups them as players count."""
        joiner = "+" if self.kind == "fifteen" else "-"
        cards = cards_words(self.cards, joiner)
        if self.where is Where.HAND:
            return f"{cards} {_GROUPS[self.kind][1]}"
        crib = "your own crib" if own_crib else "their crib"
        if self.where is Where.CRIB:
            return f"{cards} in {crib} is {_GROUPS[self.kind][1]} already"
        if self.kind == "fifteen":
            return f"{cards} in {crib} makes fifteen with {_value_words(self.needs[0])}"
        ranks = " or ".join(_rank_words(r) for r in self.needs)
        return f"{cards} in {crib} makes a run with {ranks}"


_GROUPS: dict[str, dict[int, str]] = {
    "fifteen": {1: "a fifteen", 2: "two fifteens", 3: "three fifteens", 4: "four fifteens"},
    "pair": {1: "a pair", 3: "a pair royal", 6: "a double pair royal"},
    "run": {1: "a run", 2: "a double run", 3: "a triple run", 4: "a double double run"},
    "flush": {1: "a flush"},
}
"""What players call n combinations of a kind over the same ranks (pairs: n pairs of a rank)."""


def _rank_words(rank: int) -> str:
    if rank == 1:
        return "an ace"
    name = "10" if rank == 10 else Rank(rank).symbol
    return f"an {name}" if rank == 8 else f"a {name}"


def hand_words(reasons: Sequence[Why]) -> str:
    """The hand's reasons as a player counts them before the cut: ``7+8 is a fifteen and 7-8-9
    a run``; the same ranks twice are ``two fifteens``, a run made twice by a pair is a
    ``double run`` of the ranks with the pair in them (``4-5-5-6``), its pair not said again.
    """
    groups: dict[tuple[str, str], list[Why]] = {}
    for why in reasons:
        if why.where is Where.HAND:
            joiner = "+" if why.kind == "fifteen" else "-"
            groups.setdefault((why.kind, cards_words(why.cards, joiner)), []).append(why)
    runs = {(k, w): g for (k, w), g in groups.items() if k == "run" and len(g) > 1}
    in_runs = {c.rank for g in runs.values() for why in g for c in why.cards}
    phrases = []
    for (kind, words), group in groups.items():
        if kind == "pair" and group[0].cards[0].rank in in_runs:
            continue  # said with its double run
        if (kind, words) in runs or (kind == "pair" and len(group) > 1):
            words = cards_words(tuple({c for why in group for c in why.cards}))
        phrases.append(f"{words} {_GROUPS[kind].get(len(group), _GROUPS[kind][1])}")
    if not phrases:
        return ""
    phrases[0] = phrases[0].replace(" ", " is ", 1)
    return _and(phrases)


def _hand_reasons(keep: tuple[Card, ...], dealt: tuple[Card, ...]) -> tuple[Why, ...]:
    """What the kept cards score before the cut: the scorer's items without the starter.

    His nobs is never one of them: it waits for the starter's suit (ACC 6.4)."""
    suits = {c.suit for c in keep}
    # A starter of another suit than a one-suit hand, so a four-card flush stays the hand's.
    neutral = next(
        c for c in DECK
        if c not in dealt and c.rank is not Rank.JACK and (len(suits) > 1 or c.suit not in suits)
    )
    items = score_hand(keep, neutral).items
    return tuple(Why(Where.HAND, i.kind, i.cards, i.points)
                 for i in items if neutral not in i.cards and i.kind != "nobs")


def _crib_reasons(discard: tuple[Card, ...], dealt: tuple[Card, ...]) -> tuple[Why, ...]:
    """What the cards laid away score in the crib already, and with one card of a value (only
    values and ranks of which some card is still unseen: with every 5 in hand, 4-6 waits for
    nothing)."""
    out = set(DECK) - set(dealt)
    values = {c.pips for c in out}
    ranks_out = {int(c.rank) for c in out}
    reasons: list[Why] = []
    if len(discard) == 2:
        for item in score_play(discard).items:
            reasons.append(Why(Where.CRIB, item.kind, discard, item.points))
    pips = sum(c.pips for c in discard)
    if pips < 15 and 15 - pips in values and not any(r.kind == "fifteen" for r in reasons):
        reasons.append(Why(Where.CRIB_WITH, "fifteen", discard, 2, (15 - pips,)))
    elif len(discard) == 2:
        for card in discard:
            if card.pips == 5:
                reasons.append(Why(Where.CRIB_WITH, "fifteen", (card,), 2, (_TEN_CARD,)))
                break
    ranks = sorted(int(c.rank) for c in discard)
    if len(discard) == 2 and ranks[1] - ranks[0] in (1, 2):
        low, high = ranks
        needs = tuple(r for r in ((low + 1,) if high - low == 2 else (low - 1, high + 1))
                      if r in ranks_out)
        if needs:
            reasons.append(Why(Where.CRIB_WITH, "run", discard, 3, needs))
    return tuple(reasons)


def points_text(value: Fraction) -> str:
    """An average to one decimal place: ``8.3``."""
    return f"{float(value):.1f}"


class DiscardReview(Value):
    """The review of one player's discard; see the module docstring for the rules."""

    __slots__ = ("best", "dealer", "dealt", "favoured", "kept", "scored", "starter")
    __match_args__ = ("dealt", "kept", "best", "dealer", "starter", "scored", "favoured")

    dealt: tuple[Card, ...]
    kept: DiscardChoice
    best: DiscardChoice
    dealer: bool
    starter: EnteredCard | None
    """The starter as entered: its suit ``None`` when only its rank was (never shown)."""
    scored: int | None
    """What the kept hand scored with the starter, when it was shown."""
    favoured: tuple[tuple[Card, ...], int] | None
    """The keep the starter favoured (cards, points) when it beat the hand that was kept."""

    def __init__(
        self,
        dealt: tuple[Card, ...],
        kept: DiscardChoice,
        best: DiscardChoice,
        dealer: bool,
        starter: EnteredCard | None,
        scored: int | None,
        favoured: tuple[tuple[Card, ...], int] | None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "dealt", dealt)
        setter(self, "kept", kept)
        setter(self, "best", best)
        setter(self, "dealer", dealer)
        setter(self, "starter", starter)
        setter(self, "scored", scored)
        setter(self, "favoured", favoured)

    @property
    def loss(self) -> Fraction:
        """Points given up on average: the best discard's net minus the kept cards' net."""
        return self.best.net - self.kept.net

    @property
    def followed(self) -> bool:
        """The kept cards were worth as much as the advice's first."""
        return self.loss == 0

    def why_best(self) -> tuple[Why, ...]:
        """Why the best discard is best: its hand before the cut, then its crib."""
        return (*_hand_reasons(self.best.keep, self.dealt),
                *_crib_reasons(self.best.discard, self.dealt))

    def why_kept(self) -> tuple[Why, ...]:
        """What the cards the player kept and laid away do, in the same words."""
        return (*_hand_reasons(self.kept.keep, self.dealt),
                *_crib_reasons(self.kept.discard, self.dealt))

    def value_text(self, option: DiscardChoice) -> str:
        """``16.4 (hand 12.3, crib -4.1)``: the pone's crib is a cost."""
        sign = "+" if self.dealer else "-"
        return (f"{points_text(option.net)} (hand {points_text(option.hand)}, "
                f"crib {sign}{points_text(option.crib)})")

    def reasons_text(self, reasons: Sequence[Why]) -> str:
        """Reasons joined the way a player says them, the hand's first ("before the cut")."""
        hand = hand_words(reasons)
        crib = [r.words(own_crib=self.dealer) for r in reasons if r.where is not Where.HAND]
        return "; ".join([f"{hand} before the cut"] * bool(hand) + crib)

    def lines(self) -> tuple[str, ...]:
        """The review in sentences: figures, the verdict, and why."""
        kept = " ".join(c.pretty for c in self.kept.keep)
        out = [f"Kept {kept}: {self.value_text(self.kept)} on average."]
        if self.followed:
            out.append("The right discard.")
            if self.favoured is not None:
                cards, points = self.favoured
                starter = self.starter.pretty if self.starter else ""
                out.append(f"The cut favoured {' '.join(c.pretty for c in cards)} "
                           f"({points} with the {starter}).")
        else:
            best = " ".join(c.pretty for c in self.best.keep)
            away = " ".join(c.pretty for c in self.best.discard)
            out.append(f"Best: lay away {away}, keep {best}: {self.value_text(self.best)}.")
            out.append(f"Given up: {points_text(self.loss)} on average.")
        why = self.reasons_text(self.why_best())
        if why:
            out.append(f"Why: {why}.")
        if not self.followed:
            shared = set(self.why_best())
            yours = self.reasons_text([r for r in self.why_kept() if r not in shared])
            if yours:
                out.append(f"Yours: {yours}.")
        return tuple(out)


def _and(parts: Sequence[str]) -> str:
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def review_discard(
    dealt: Sequence[Card],
    kept: Sequence[Card],
    *,
    dealer: bool,
    starter: Card | EnteredCard | None = None,
    players: int = 2,
    five_card: bool = False,
) -> DiscardReview:
    """Review keeping ``kept`` from ``dealt`` (see the module docstring).

    ``starter`` as entered: when its suit was not entered, a keep scores what it scores
    whatever that suit may be (a suit whose card was not dealt), so no made-up suit makes
    a flush or his nobs, nor is named.

    >>> from pegboard.rules.cards import parse_cards
    >>> dealt = parse_cards("7H 8C 9D 2S 3C KH")
    >>> r = review_discard(dealt, parse_cards("7H 8C 9D KH"), dealer=True)
    >>> r.followed, points_text(r.kept.net)
    (True, '14.0')
    >>> r = review_discard(dealt, parse_cards("7H 8C 9D KH"), dealer=False)
    >>> r.followed, points_text(r.loss), [str(c) for c in r.best.discard]
    (False, '3.6', ['2S', 'KH'])
    """
    dealt_cards = tuple(dealt)
    kept_cards = tuple(kept)
    options = advise(dealt_cards, dealer=dealer, players=players, five_card=five_card)
    wanted = sorted(c.index for c in kept_cards)
    chosen = next((o for o in options if sorted(c.index for c in o.keep) == wanted), None)
    if chosen is None:
        raise InvalidCardError(
            f"the kept cards {' '.join(str(c) for c in kept_cards)!r} are not "
            f"{len(options[0].keep)} of the dealt cards {' '.join(str(c) for c in dealt_cards)!r}"
        )
    scored: int | None = None
    favoured: tuple[tuple[Card, ...], int] | None = None
    turned = EnteredCard.of(starter) if isinstance(starter, Card) else starter
    known = turned.card if turned is not None else None
    if known is not None:
        scored = score_hand(kept_cards, known).total
        top = best_keep(dealt_cards, known, players=players, five_card=five_card)
        if top.breakdown.total > scored:
            favoured = (top.keep, top.breakdown.total)
    elif turned is not None:
        scored, favoured = _whatever_the_suit(dealt_cards, kept_cards, turned.rank)
    return DiscardReview(dealt_cards, chosen, options[0], dealer, turned, scored, favoured)


def _whatever_the_suit(dealt: tuple[Card, ...], kept: tuple[Card, ...], rank: Rank,
                       ) -> tuple[int, tuple[tuple[Card, ...], int] | None]:
    """What ``kept`` scored with a starter of ``rank`` whose suit was not entered (the least
    over the suits it may have), and the keep that would have scored most so (ties: the first
    in dealt order) when it beat that."""
    starters = [Card(rank, suit) for suit in Suit if Card(rank, suit) not in dealt]

    def least(keep: tuple[Card, ...]) -> int:
        return min(score_hand(keep, starter).total for starter in starters)

    scored = least(kept)
    best: tuple[int, tuple[Card, ...]] | None = None
    for keep in combinations(dealt, len(kept)):
        total = least(keep)
        if best is None or total > best[0]:
            best = (total, keep)
    favoured = (best[1], best[0]) if best is not None and best[0] > scored else None
    return scored, favoured



def _cards(cards: Sequence[Card]) -> str:
    return " ".join(c.pretty for c in cards)


def _figures(review: DiscardReview, option: DiscardChoice) -> str:
    sign = "+" if review.dealer else "-"
    return f"hand {points_text(option.hand)} crib {sign}{points_text(option.crib)}"


def screen_pages(review: DiscardReview) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The review as screen pages (title, lines of at most 21 characters): the verdict with
    the figures, the keep the cut favoured (a right discard only), then why."""
    pages: list[tuple[str, tuple[str, ...]]] = []
    kept = (f"kept {_cards(review.kept.keep)}", _figures(review, review.kept))
    if review.followed:
        pages.append(("Right discard", (*kept, f"= {points_text(review.kept.net)} on average")))
        if review.favoured is not None and review.starter is not None:
            cards, points = review.favoured
            # The rank alone when the suit was not entered: the line holds 21 characters.
            pages.append(("The cut favoured", (_cards(cards), f"{points} with the "
                          f"{review.starter.short}", f"(yours scored {review.scored})")))
    else:
        pages.append((f"Discard: {points_text(review.loss)} lost", (
            *kept, f"best {_cards(review.best.keep)}", _figures(review, review.best))))
    why = review.reasons_text(review.why_best())
    if why:
        body = paginate([f"{why[:1].upper()}{why[1:]}."])
        for number, lines in enumerate(body, start=1):
            title = "Why" if len(body) == 1 else f"Why {number}/{len(body)}"
            pages.append((title, lines))
    return tuple(pages)
