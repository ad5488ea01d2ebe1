"""Scoring one card in the play (docs/rules.md, "The play").

The pile is the cards laid since the count last restarted, oldest first; only the last card
scores. Fifteen 2, thirty-one 2, pair 2, pair royal 6, double pair royal 12 (equal ranks at
the end of the pile), and a run of k when the last k >= 3 cards are k distinct consecutive
ranks in any order (the longest such k). There are no double runs in the play. Go and last card
are awarded by the game, not here.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from pegboard.errors import RuleError
from pegboard.rules.cards import Card, Rank, Suit, require_distinct
from pegboard.rules.scoring import Breakdown, ScoreItem

_OF_A_KIND = {2: ("pair", 2), 3: ("pair royal", 6), 4: ("double pair royal", 12)}


def score_play(pile: Sequence[Card]) -> Breakdown:
    """Points made by the last card of ``pile`` (a count never passes 31).

    >>> from pegboard.rules.cards import parse_cards
    >>> score_play(parse_cards("4S 2H 6D 5C 3S")).total
    5
    """
    pile = tuple(pile)
    require_distinct(pile, "the pile")
    count = sum(card.pips for card in pile)
    if count > 31:
        raise RuleError(
            f"the count {' '.join(str(c) for c in pile)!r} is {count}: a count may not pass 31"
        )
    if not pile:
        return Breakdown(())
    return laid_points(pile, count)


_NOTHING = Breakdown(())
"""A card that scores nothing (a value: one serves every such card)."""


def laid_points(pile: tuple[Card, ...], count: int) -> Breakdown:
    """:func:`score_play` of a pile the engine laid card by card: ``count`` its count, every
    card of it different and the count at most 31, as the engine checked when each card was
    laid (:func:`pegboard.rules.play.apply_play`), so neither is checked again here."""
    items: list[ScoreItem] = []
    if count == 15:
        items.append(ScoreItem("fifteen", pile, 2))
    elif count == 31:
        items.append(ScoreItem("thirty-one", pile, 2))
    last = pile[-1].rank
    same = 1
    while same < len(pile) and pile[-1 - same].rank is last:
        same += 1
    if same >= 2:
        kind, points = _OF_A_KIND[same]
        items.append(ScoreItem(kind, pile[-same:], points))
    # The longest run at the end of the pile: the last ``size`` cards are a run when their
    # ranks are all different and span ``size`` ranks. Widened a card at a time from the last
    # one, until a rank comes twice (no wider window can be a run then). A card's index is
    # rank-major, so index >> 2 orders the ranks as the ranks do.
    ranks: set[int] = set()
    low = high = pile[-1].index >> 2
    run = 0
    for size in range(1, len(pile) + 1):
        rank = pile[-size].index >> 2
        if rank in ranks:
            break
        ranks.add(rank)
        if rank < low:
            low = rank
        elif rank > high:
            high = rank
        if size >= 3 and high - low == size - 1:
            run = size
    if run:
        items.append(ScoreItem("run", pile[-run:], run))
    return Breakdown(tuple(items)) if items else _NOTHING


def play_points(pile: Sequence[Card]) -> int:
    """The points the last card of ``pile`` makes: :func:`score_play`'s total, worked out once
    for each sequence of ranks (a card's suit never scores in the play), for the look-ahead,
    which asks it of the same few piles many times over."""
    return _points_of_ranks(tuple(card.rank for card in pile))


_SUITS = tuple(Suit)


@lru_cache(maxsize=1 << 16)
def _points_of_ranks(ranks: tuple[Rank, ...]) -> int:
    seen: dict[Rank, int] = {}
    pile = []
    for rank in ranks:  # any cards of these ranks score the same: one suit per copy
        copy = seen.get(rank, 0)
        seen[rank] = copy + 1
        pile.append(Card(rank, _SUITS[copy % len(_SUITS)]))
    return score_play(pile).total
