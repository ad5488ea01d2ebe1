"""``pegboard peg``: lay a count card by card and show what each card scores."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from pegboard import lazy
from pegboard.coach.hints import explain_no_score
from pegboard.commands import voice_options as voice_cli
from pegboard.errors import RuleError
from pegboard.rules.cards import Card, parse_cards, require_distinct
from pegboard.rules.pegging import score_play
from pegboard.rules.scoring import Breakdown
from pegboard.rules.speech import say_play
from pegboard.rules.state import Reason

if TYPE_CHECKING:
    from pegboard.voice import phrases
else:
    phrases = lazy.module("pegboard.voice.phrases")


def register(parser: argparse.ArgumentParser) -> None:
    """The ``peg`` command\'s arguments."""
    parser.add_argument("cards", nargs="+", metavar="CARD", help="cards in play order")
    parser.add_argument(
        "--explain", action="store_true",
        help="say why a card scored nothing when it nearly did (teaching)",
    )
    parser.add_argument("--json", action="store_true", help="print each play as JSON")
    voice_cli.add_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print one line per card: ``3S: 20, run of 5 for 5``; ``--say`` says each card's count
    aloud ("five. fifteen for two. ..."), ``--wav FILE`` writes it spoken."""
    cards = parse_cards(args.cards)
    require_distinct(cards, "the count")
    total = sum(card.pips for card in cards)
    if total > 31:
        running = 0
        for position, card in enumerate(cards):
            running += card.pips
            if running > 31:
                raise RuleError(
                    f"{card} (card {position + 1}) would make the count {running}: a count may "
                    "not pass 31 (a new count starts after a go or 31; give one count at a time)"
                )
    plays: list[tuple[Card, int, Breakdown]] = []
    count = 0
    for number in range(1, len(cards) + 1):
        count += cards[number - 1].pips
        plays.append((cards[number - 1], count, score_play(cards[:number])))

    def spoken() -> str:
        return ". ".join(
            phrases.play_words([(Reason(item.kind), item.points) for item in breakdown.items],
                              reached)
            for _, reached, breakdown in plays)

    if args.json:
        print(json.dumps(
            [{"card": str(card), "count": reached, "points": breakdown.total,
              "said": say_play(breakdown, reached), "items": breakdown.to_json()["items"]}
             for card, reached, breakdown in plays],
            ensure_ascii=False,
        ))
        return voice_cli.deliver(spoken, args)
    for card, reached, breakdown in plays:
        line = f"{card}: {reached}"
        if breakdown.total:
            said = say_play(breakdown, reached)
            line += f", {said[0].lower()}{said[1:]}"
        elif args.explain:
            why = explain_no_score(cards[: cards.index(card) + 1])
            if why:
                line += f" — {why}"
        print(line)
    print(turns_line([breakdown.total for _, _, breakdown in plays]))
    return voice_cli.deliver(spoken, args)


def turns_line(points: list[int]) -> str:
    """What each player pegged, taking turns from the leader: the points of a count belong to
    whoever laid each card, never to one total.

    >>> turns_line([0, 2, 3, 0, 5])
    'Pegged, taking turns: the leader 8 (cards 1, 3, 5), the other player 2 (cards 2, 4)'
    >>> turns_line([0])
    'Pegged: the leader 0 (card 1)'
    """
    parts = []
    for start, who in ((0, "the leader"), (1, "the other player")):
        cards = list(range(start + 1, len(points) + 1, 2))
        if cards:
            numbers = ", ".join(str(n) for n in cards)
            parts.append(f"{who} {sum(points[start::2])} "
                         f"({'cards' if len(cards) > 1 else 'card'} {numbers})")
    head = "Pegged, taking turns" if len(parts) > 1 else "Pegged"
    return f"{head}: {', '.join(parts)}"
