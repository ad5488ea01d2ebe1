"""``pegboard score``: count a hand or crib with its starter, aloud and itemised."""

from __future__ import annotations

import argparse
import json

from pegboard.commands import voice_options as voice_cli
from pegboard.rules import Card, parse_cards, say_breakdown, score_hand


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``score`` subcommand."""
    parser = subparsers.add_parser(
        "score",
        help="count a hand or crib the way players say it aloud",
        description="Score a show hand (4 cards, or 3 in five-card cribbage) with its starter. "
        "Cards are rank then suit: 5H, TH or 10H, QC, A♠.",
    )
    parser.add_argument("cards", nargs="+", metavar="CARD", help="the hand, e.g. 5H 5S 5C JD")
    parser.add_argument("--starter", required=True, metavar="CARD", help="the turned-up card")
    parser.add_argument(
        "--crib", action="store_true", help="score as the crib (a flush needs the starter too)"
    )
    parser.add_argument("--json", action="store_true", help="print the itemised score as JSON")
    voice_cli.add_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the spoken count and the total (or the JSON breakdown); ``--say`` says the count
    aloud, ``--wav FILE`` writes it spoken."""
    hand = parse_cards(args.cards)
    starter = Card.parse(args.starter)
    breakdown = score_hand(hand, starter, crib=args.crib)

    def spoken() -> str:
        from pegboard.voice.phrases import count_words

        return count_words(breakdown.items)

    if args.json:
        print(json.dumps(breakdown.to_json(), ensure_ascii=False))
        return voice_cli.deliver(spoken, args)
    what = "Crib" if args.crib else "Hand"
    print(f"{what} {' '.join(c.pretty for c in hand)}, starter {starter.pretty}")
    print(say_breakdown(breakdown))
    print(f"Total: {breakdown.total}")
    return voice_cli.deliver(spoken, args)
