"""``pegboard demo``: the perfect 29, counted the way players say it aloud."""

from __future__ import annotations

import argparse
import textwrap

from pegboard.rules.cards import Card, parse_cards
from pegboard.rules.show import score_hand
from pegboard.rules.speech import say_breakdown


def register(parser: argparse.ArgumentParser) -> None:
    """The ``demo`` command\'s arguments."""
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Score 5♥ 5♠ 5♣ J♦ with the 5♦ turned up: the perfect 29."""
    hand = parse_cards("5H 5S 5C JD")
    starter = Card.parse("5D")
    breakdown = score_hand(hand, starter)
    print(f"Hand:    {'  '.join(c.pretty for c in hand)}")
    print(f"Starter: {starter.pretty}")
    print()
    # One phrase per line, as a player would point at the cards while counting.
    for phrase in say_breakdown(breakdown).replace(" — ", ", ").split(", "):
        print(textwrap.indent(phrase[0].upper() + phrase[1:], "  "))
    print()
    print(f"Total: {breakdown.total} — the highest hand in cribbage")
    return 0
