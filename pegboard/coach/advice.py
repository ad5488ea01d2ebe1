"""Discard advice: every way to lay away cards, ranked by the points it is expected to bring.

For each possible discard the kept hand is averaged over every starter the player has not seen,
and the crib over every starter *and* every set of unseen cards the other players (and, with
three players, the pack) could add to it, each equally likely. Nothing is sampled: the averages
are exact fractions. The crib counts for the dealer and against the other players::

    net = hand + crib   (dealer)        net = hand - crib   (pone)

The deals (docs/rules.md, "The deal"):

==================  =====  ============  ====================================
game                dealt  laid away     the rest of the crib
==================  =====  ============  ====================================
2 players           6      2             2 of the opponent's
2 players, 5-card   5      2             2 of the opponent's
3 players           5      1             1 from each other player + 1 pack card
4 players           5      1             1 from each of the other three
==================  =====  ============  ====================================

Speed comes from the rank multisets of :mod:`pegboard.rules.fast`: the unseen cards are
grouped by rank, so the crib's fifteens, pairs and runs are summed over a few hundred rank
patterns weighted by how many card choices produce each, and the flush and his nobs (the only
suit rules) are counted separately and added by linearity of expectation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations, combinations_with_replacement
from math import comb

from pegboard.errors import InvalidCardError, RuleError
from pegboard.rules.cards import DECK, Card, require_distinct
from pegboard.rules.fast import CARD_BIT, JACK, RANK_BIT, hand_total_idx, rank_points
from pegboard.rules.scoring import Breakdown
from pegboard.rules.show import score_hand
from pegboard.rules.value import Value


class Deal(Value):
    """The shape of a deal: cards dealt to the player, laid away, and added by others."""

    __slots__ = ("five_card", "players")
    __match_args__ = ("players", "five_card")

    players: int
    five_card: bool

    def __init__(self, players: int, five_card: bool) -> None:
        setter = object.__setattr__
        setter(self, "players", players)
        setter(self, "five_card", five_card)

    @property
    def dealt(self) -> int:
        """Cards each player is dealt."""
        return 6 if self.players == 2 and not self.five_card else 5

    @property
    def discards(self) -> int:
        """Cards the player lays away to the crib."""
        return 2 if self.players == 2 else 1

    @property
    def others(self) -> int:
        """Crib cards that come from other players or the pack (unseen by this player)."""
        return 4 - self.discards

    @property
    def name(self) -> str:
        """A short description for messages."""
        if self.five_card:
            return "five-card cribbage"
        return f"a {('two', 'three', 'four')[self.players - 2]}-player game"


def deal_shape(players: int = 2, five_card: bool = False) -> Deal:
    """Check the table size and game and return the deal shape."""
    if players not in (2, 3, 4):
        raise RuleError(f"advice is for 2, 3 or 4 players, not {players}")
    if five_card and players != 2:
        raise RuleError("five-card cribbage is a two-player game: use --players 2")
    return Deal(players, five_card)


class DiscardChoice(Value):
    """One way to lay away cards, with exact expectations.

    ``hand`` and ``crib`` are expected totals (``crib`` is the crib's own expected total,
    whoever owns it); ``net`` adds the crib for the dealer and subtracts it for pone.
    ``best`` and ``worst`` are the highest and lowest totals the kept hand can reach, with the
    starters that give them.
    """

    __slots__ = (
        "best",
        "best_starters",
        "crib",
        "discard",
        "hand",
        "keep",
        "net",
        "worst",
        "worst_starters",
    )
    __match_args__ = ("discard", "keep", "hand", "crib", "net", "best", "best_starters", "worst",
                      "worst_starters")

    discard: tuple[Card, ...]
    keep: tuple[Card, ...]
    hand: Fraction
    crib: Fraction
    net: Fraction
    best: int
    best_starters: tuple[Card, ...]
    worst: int
    worst_starters: tuple[Card, ...]

    def __init__(
        self,
        discard: tuple[Card, ...],
        keep: tuple[Card, ...],
        hand: Fraction,
        crib: Fraction,
        net: Fraction,
        best: int,
        best_starters: tuple[Card, ...],
        worst: int,
        worst_starters: tuple[Card, ...],
    ) -> None:
        setter = object.__setattr__
        setter(self, "discard", discard)
        setter(self, "keep", keep)
        setter(self, "hand", hand)
        setter(self, "crib", crib)
        setter(self, "net", net)
        setter(self, "best", best)
        setter(self, "best_starters", best_starters)
        setter(self, "worst", worst)
        setter(self, "worst_starters", worst_starters)

    def to_json(self, places: int = 6) -> dict[str, object]:
        """``{"discard": [...], "keep": [...], "hand": 15.96, "crib": 3.95, "net": 19.91, ...}``."""
        return {
            "discard": [str(c) for c in self.discard],
            "keep": [str(c) for c in self.keep],
            "hand": round(float(self.hand), places),
            "crib": round(float(self.crib), places),
            "net": round(float(self.net), places),
            "best": self.best,
            "best_starters": [str(c) for c in self.best_starters],
            "worst": self.worst,
            "worst_starters": [str(c) for c in self.worst_starters],
        }


def _check_dealt(dealt: Sequence[Card], shape: Deal) -> tuple[Card, ...]:
    cards = tuple(dealt)
    if len(cards) != shape.dealt:
        raise InvalidCardError(
            f"{shape.name} deals {shape.dealt} cards to each player, got {len(cards)}: "
            f"{' '.join(str(c) for c in cards)!r}"
        )
    require_distinct(cards, "the dealt cards")
    return cards


def _other_rank_weights(unseen: Sequence[int], others: int) -> dict[int, int]:
    """Rank key of (the unseen crib cards + the starter) -> number of card choices giving it."""
    available = Counter(card >> 2 for card in unseen)  # rank - 1 -> unseen cards of that rank
    weights: Counter[int] = Counter()
    ranks = sorted(available)
    for chosen in combinations_with_replacement(ranks, others):
        taken = Counter(chosen)
        ways = 1
        for rank, number in taken.items():
            ways *= comb(available[rank], number)
        if not ways:
            continue
        key = sum(RANK_BIT[rank + 1] for rank in chosen)
        for starter_rank in ranks:
            left = available[starter_rank] - taken.get(starter_rank, 0)
            if left > 0:
                weights[key + RANK_BIT[starter_rank + 1]] += ways * left
    return dict(weights)


def crib_expectation(
    discard: Sequence[Card], dealt: Sequence[Card], shape: Deal
) -> Fraction:
    """The crib's exact expected total given the player's discard and all cards they hold.

    Every set of ``shape.others`` unseen cards joins the discard, and every remaining unseen
    card may be the starter; each of these equally likely.
    """
    seen = {card.index for card in dealt}
    unseen = [i for i in range(52) if i not in seen]
    weights = _other_rank_weights(unseen, shape.others)
    return _crib_expectation([c.index for c in discard], unseen, shape.others, weights)


def _crib_expectation(
    discard: Sequence[int], unseen: Sequence[int], others: int, weights: dict[int, int]
) -> Fraction:
    pool = len(unseen)
    cases = comb(pool, others) * (pool - others)
    base_key = sum(CARD_BIT[card] for card in discard)
    points = 0
    for key, ways in weights.items():
        points += ways * rank_points(base_key + key)
    unseen_of_suit = Counter(card & 3 for card in unseen)
    # Flush: the whole crib and the starter in the suit of the discard.
    suit = discard[0] & 3
    if all(card & 3 == suit for card in discard):
        same = unseen_of_suit[suit]
        points += 5 * comb(same, others) * max(same - others, 0)
    # His nobs: a jack in the crib with a starter of its suit (two jacks never both match).
    for card in discard:
        if card >> 2 == JACK - 1:
            points += unseen_of_suit[card & 3] * comb(pool - 1, others)
    for card in unseen:
        if card >> 2 == JACK - 1:
            points += (unseen_of_suit[card & 3] - 1) * comb(pool - 2, others - 1)
    return Fraction(points, cases)


def advise(
    dealt: Sequence[Card], *, dealer: bool, players: int = 2, five_card: bool = False
) -> list[DiscardChoice]:
    """Every discard from ``dealt``, best first (highest net; ties by hand, then card order).

    >>> from pegboard.rules.cards import parse_cards
    >>> best = advise(parse_cards("5H 5S 6D JC 4C KS"), dealer=True)[0]
    >>> [str(c) for c in best.discard], round(float(best.net), 2)
    (['JC', 'KS'], 19.91)
    """
    shape = deal_shape(players, five_card)
    cards = _check_dealt(dealt, shape)
    indices = [card.index for card in cards]
    seen = set(indices)
    unseen = [i for i in range(52) if i not in seen]
    weights = _other_rank_weights(unseen, shape.others)
    options: list[tuple[tuple[Fraction, Fraction, int], DiscardChoice]] = []
    for order, thrown in enumerate(combinations(range(len(cards)), shape.discards)):
        discard = tuple(cards[i] for i in thrown)
        keep = tuple(card for i, card in enumerate(cards) if i not in thrown)
        keep_idx = [card.index for card in keep]
        totals = [hand_total_idx(keep_idx, starter) for starter in unseen]
        hand = Fraction(sum(totals), len(unseen))
        crib = _crib_expectation([c.index for c in discard], unseen, shape.others, weights)
        net = hand + crib if dealer else hand - crib
        best, worst = max(totals), min(totals)
        option = DiscardChoice(
            discard=discard,
            keep=keep,
            hand=hand,
            crib=crib,
            net=net,
            best=best,
            best_starters=tuple(DECK[s] for s, t in zip(unseen, totals, strict=True) if t == best),
            worst=worst,
            worst_starters=tuple(
                DECK[s] for s, t in zip(unseen, totals, strict=True) if t == worst
            ),
        )
        options.append(((-net, -hand, order), option))
    options.sort(key=lambda pair: pair[0])
    return [option for _, option in options]


class Keep(Value):
    """The best hand that could have been kept for a known starter."""

    __slots__ = ("breakdown", "discard", "keep")
    __match_args__ = ("keep", "discard", "breakdown")

    keep: tuple[Card, ...]
    discard: tuple[Card, ...]
    breakdown: Breakdown

    def __init__(
        self,
        keep: tuple[Card, ...],
        discard: tuple[Card, ...],
        breakdown: Breakdown,
    ) -> None:
        setter = object.__setattr__
        setter(self, "keep", keep)
        setter(self, "discard", discard)
        setter(self, "breakdown", breakdown)


def best_keep(
    dealt: Sequence[Card], starter: Card, *, players: int = 2, five_card: bool = False
) -> Keep:
    """The kept cards that would have scored most with ``starter`` (teaching: "what it could
    have been"). Ties go to the first keep in dealt order.

    >>> from pegboard.rules.cards import parse_cards
    >>> kept = best_keep(parse_cards("5H 5S 6D JC 4C KS"), Card.parse("5D"))
    >>> " ".join(str(c) for c in kept.keep), kept.breakdown.total
    ('5H 5S 6D 4C', 23)
    """
    shape = deal_shape(players, five_card)
    cards = _check_dealt(dealt, shape)
    if starter in cards:
        raise InvalidCardError(f"the starter {starter} is one of the dealt cards")
    starter_idx = starter.index
    best: tuple[int, tuple[Card, ...]] | None = None
    for keep in combinations(cards, shape.dealt - shape.discards):
        total = hand_total_idx([card.index for card in keep], starter_idx)
        if best is None or total > best[0]:
            best = (total, keep)
    assert best is not None
    keep_cards = best[1]
    discard = tuple(card for card in cards if card not in keep_cards)
    return Keep(keep_cards, discard, score_hand(keep_cards, starter))
