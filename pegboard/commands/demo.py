"""``pegboard demo``: score a sample hand the way players count it aloud."""

from __future__ import annotations

import argparse

from pegboard.rules import Card, parse_cards, score_hand


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``demo`` subcommand."""
    parser = subparsers.add_parser("demo", help="score a sample hand and show its count")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Score 5♥ 5♠ 5♣ J♦ with the 5♦ turned up: the perfect 29."""
    hand = parse_cards("5H 5S 5C JD")
    starter = Card.parse("5D")
    breakdown = score_hand(hand, starter)
    print(f"Hand {' '.join(c.pretty for c in hand)}, starter {starter.pretty}")
    for item in breakdown.items:
        print(f"  {item.kind:8} {' '.join(c.pretty for c in item.cards):20} {item.points}")
    print(f"Total {breakdown.total}")
    return 0
