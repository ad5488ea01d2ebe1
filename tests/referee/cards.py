"""Cards for the independent referee: a rank (1..13, ace low) and a suit letter.

Deliberately separate from :mod:`pegboard.rules.cards` so that the referee shares no code
with the engine it checks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

RANKS = "A23456789TJQK"
SUITS = "CDHS"
_CARD = re.compile(r"^(10|[2-9TJQKA])([CDHS])$", re.IGNORECASE)


@dataclass(frozen=True, order=True)
class RCard:
    """One card: ``rank`` 1 (ace) .. 13 (king), ``suit`` one of C D H S."""

    rank: int
    suit: str

    @property
    def pips(self) -> int:
        """Counting value: ace 1, two to ten face value, court cards 10."""
        return min(self.rank, 10)

    @property
    def text(self) -> str:
        return RANKS[self.rank - 1] + self.suit

    def __str__(self) -> str:
        return self.text

    def __deepcopy__(self, memo: dict[int, object]) -> RCard:
        """A card never changes: a copy of a deal holds the card itself (deepcopy would
        otherwise rebuild every card of every pile and hand the referee copies)."""
        return self


def card(text: object) -> RCard:
    """Read ``"7H"``, ``"TD"`` or ``"10D"``; raises ValueError for anything else.

    >>> card("10d"), card("AS").pips, card("KC").pips
    (RCard(rank=10, suit='D'), 1, 10)
    """
    if not isinstance(text, str):
        raise ValueError(f"a card must be a string like '7H', not {text!r}")
    match = _CARD.match(text.strip())
    if match is None:
        raise ValueError(f"{text!r} is not a card")
    rank_text = "T" if match.group(1) == "10" else match.group(1).upper()
    return RCard(RANKS.index(rank_text) + 1, match.group(2).upper())


def full_deck() -> list[RCard]:
    """All 52 cards in a fixed order."""
    return [RCard(rank, suit) for suit in SUITS for rank in range(1, 14)]
