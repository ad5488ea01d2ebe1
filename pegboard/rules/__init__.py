"""The cribbage rules core: pure functions and values, no I/O, no clock, no randomness."""

from __future__ import annotations

from pegboard.rules.cards import DECK, Card, Rank, Suit, parse_cards, require_distinct
from pegboard.rules.fast import hand_total, hand_total_idx
from pegboard.rules.pegging import score_play
from pegboard.rules.scoring import Breakdown, ScoreItem
from pegboard.rules.show import score_hand
from pegboard.rules.speech import say_breakdown, say_play

__all__ = [
    "DECK",
    "Breakdown",
    "Card",
    "Rank",
    "ScoreItem",
    "Suit",
    "hand_total",
    "hand_total_idx",
    "parse_cards",
    "require_distinct",
    "say_breakdown",
    "say_play",
    "score_hand",
    "score_play",
]
