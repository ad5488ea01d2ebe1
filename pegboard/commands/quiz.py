"""``pegboard quiz count|discard|peg``: practice on random deals, answers read from standard
input and checked by the scorer (no muggins, no points lost).

An answer that is not one (a word for a count, a card not in the hand) is refused with a
message saying what would do, and the quiz stops with exit status 2. End of input ends it.
"""

from __future__ import annotations

import argparse
import random
import sys

from pegboard.coach.drills import Drill, ask, mark
from pegboard.errors import PegboardError


def register(parser: argparse.ArgumentParser) -> None:
    """The ``quiz`` command\'s arguments."""
    parser.add_argument("drill", choices=[d.value for d in Drill], help="what to practise")
    parser.add_argument("--seed", type=int, default=None, help="the same seed, the same deals")
    parser.add_argument("--rounds", type=int, default=5, help="questions to ask (default 5)")
    parser.add_argument("--open", action="store_true",
                        help="peg: show the next player's cards too, as in an open-handed game")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Ask, read, check; a score at the end."""
    if not 1 <= args.rounds <= 1000:
        raise PegboardError(f"--rounds {args.rounds}: ask 1 to 1000 questions")
    drill = Drill(args.drill)
    if args.open and drill is not Drill.PEG:
        raise PegboardError(f"--open is for the peg drill (the next player's cards shown), "
                            f"not {drill.value}")
    rng = random.Random(args.seed)
    right = asked = 0
    for _ in range(args.rounds):
        question = ask(drill, rng, open_hands=args.open)
        print(question.prompt(), end="", flush=True)
        answer = sys.stdin.readline()
        if not answer:
            print()
            break
        print()
        marked = mark(question, answer)
        asked += 1
        right += marked.right
        for line in marked.lines:
            print(f"  {line}")
    print(f"{right} of {asked} right.")
    return 0
