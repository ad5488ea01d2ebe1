"""Hypothesis strategies the property tests share."""

from __future__ import annotations

from hypothesis import strategies as st

from pegboard.rules.cards import DECK, Card


def different_cards(count: int) -> st.SearchStrategy[list[Card]]:
    """``count`` different cards of one pack, in any order."""
    return st.lists(st.sampled_from(DECK), min_size=count, max_size=count, unique=True)


HAND_AND_STARTER = different_cards(5)
"""Four cards of a hand and, last, the starter."""
