"""``pegboard advise``: rank every discard by the points it is expected to bring."""

from __future__ import annotations

import argparse
import json

from pegboard.coach.advice import DiscardChoice, advise, deal_shape
from pegboard.rules.cards import Card, parse_cards


def register(parser: argparse.ArgumentParser) -> None:
    """The ``advise`` command\'s arguments."""
    parser.add_argument("cards", nargs="+", metavar="CARD", help="the dealt cards, e.g. 5H 5S")
    whose = parser.add_mutually_exclusive_group(required=True)
    whose.add_argument("--dealer", action="store_true", help="you deal: the crib is yours")
    whose.add_argument("--pone", action="store_true", help="you do not deal: the crib is not")
    parser.add_argument(
        "--players", type=int, choices=(2, 3, 4), default=2, help="players at the table"
    )
    parser.add_argument(
        "--five-card", action="store_true", help="five-card cribbage (2 players, keep 3)"
    )
    parser.add_argument("--json", action="store_true", help="print the options as JSON")
    parser.set_defaults(func=run)


def _cards(cards: tuple[Card, ...]) -> str:
    return " ".join(card.pretty for card in cards)


def _starters(option_starters: tuple[Card, ...]) -> str:
    ranks: list[str] = []
    for card in option_starters:
        rank = "10" if card.rank.symbol == "T" else card.rank.symbol
        if rank not in ranks:
            ranks.append(rank)
    return ",".join(ranks)


def _table(options: list[DiscardChoice], dealer: bool) -> list[str]:
    sign = "+" if dealer else "-"
    width = max(len("discard"), *(len(_cards(o.discard)) for o in options))
    keep_width = max(len(_cards(o.keep)) for o in options)
    lines = [
        f"  {'discard':<{width}}  {'keep':<{keep_width}}  {'hand':>5}  {sign + 'crib':>5}"
        f"  {'net':>6}   {'best (starter)':<16}  {'worst':>5}"
    ]
    for option in options:
        best = f"{option.best} ({_starters(option.best_starters)})"
        lines.append(
            f"  {_cards(option.discard):<{width}}  {_cards(option.keep):<{keep_width}}"
            f"  {float(option.hand):5.2f}  {float(option.crib):5.2f}  {float(option.net):6.2f}"
            f"   {best:<16}  {option.worst:>5}"
        )
    return lines


def run(args: argparse.Namespace) -> int:
    """Print the ranked options (or a JSON list, best first)."""
    shape = deal_shape(args.players, args.five_card)
    dealt = parse_cards(args.cards)
    options = advise(dealt, dealer=args.dealer, players=args.players, five_card=args.five_card)
    if args.json:
        print(json.dumps([option.to_json() for option in options]))
        return 0
    owner = "your crib" if args.dealer else "the dealer's crib"
    print(f"Dealt {_cards(tuple(dealt))} in {shape.name}; the discard goes to {owner}.")
    print(
        "Expected points, exact over every starter and every card the others could lay away:"
    )
    for line in _table(options, args.dealer):
        print(line)
    best = options[0]
    verb = "adds" if args.dealer else "costs"
    print(
        f"Best: lay away {_cards(best.discard)} — hand {float(best.hand):.2f}, crib {verb} "
        f"{float(best.crib):.2f}, net {float(best.net):.2f}."
    )
    return 0
