"""``pegboard score``: count a hand or crib with its starter, aloud and itemised."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from pegboard import lazy
from pegboard.commands import voice_options as voice_cli
from pegboard.errors import InvalidCardError
from pegboard.rules.cards import Card, parse_cards
from pegboard.rules.show import score_hand
from pegboard.rules.speech import say_breakdown

if TYPE_CHECKING:
    import json

    from pegboard.voice import phrases
else:
    json = lazy.module("json")
    phrases = lazy.module("pegboard.voice.phrases")


def register(parser: argparse.ArgumentParser) -> None:
    """The ``score`` command\'s arguments."""
    parser.add_argument("cards", nargs="+", metavar="CARD", help="the hand, e.g. 5H 5S 5C JD")
    parser.add_argument("--starter", required=True, metavar="CARD", help="the turned-up card")
    parser.add_argument(
        "--crib", action="store_true", help="score as the crib (a flush needs the starter too)"
    )
    parser.add_argument(
        "--five-card", action="store_true", help="five-card cribbage: a hand of 3 cards"
    )
    parser.add_argument("--json", action="store_true", help="print the itemised score as JSON")
    voice_cli.add_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the spoken count and the total (or the JSON breakdown); ``--say`` says the count
    aloud, ``--wav FILE`` writes it spoken."""
    hand = parse_cards(args.cards)
    starter = Card.parse(args.starter)
    _check_size(hand, five_card=args.five_card, crib=args.crib)
    breakdown = score_hand(hand, starter, crib=args.crib)

    def spoken() -> str:
        return phrases.count_words(breakdown.items)

    if args.json:
        print(json.dumps(breakdown.to_json(), ensure_ascii=False))
        return voice_cli.deliver(spoken, args)
    what = "Crib" if args.crib else "Hand"
    print(f"{what} {' '.join(c.pretty for c in hand)}, starter {starter.pretty}")
    print(say_breakdown(breakdown))
    print(f"Total: {breakdown.total}")
    return voice_cli.deliver(spoken, args)


def _check_size(hand: list[Card], *, five_card: bool, crib: bool) -> None:
    """A hand has 4 cards, or 3 in five-card cribbage; a crib has 4 in both games. Three cards
    without ``--five-card`` are most often a card left out, so they are refused, not scored."""
    listed = " ".join(str(card) for card in hand)
    if len(hand) == 3 and not five_card and not crib:
        raise InvalidCardError(
            f"a hand has 4 cards, got 3: {listed!r} (a 3-card hand is five-card cribbage: "
            "add --five-card)"
        )
    if len(hand) == 4 and five_card and not crib:
        raise InvalidCardError(
            f"a five-card cribbage hand has 3 cards, got 4: {listed!r} "
            "(leave out --five-card, or add --crib for a crib)"
        )
