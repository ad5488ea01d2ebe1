"""Sentences for awards: what players say aloud when they peg ("fifteen two", "go for one").

Hand and play counts are spoken the way a player counts them, item by item with a running
total; the other awards are short fixed phrases.
"""

from __future__ import annotations

from pegboard.rules.scoring import Breakdown, ScoreItem

_NUMBERS = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty",
)
_TENS = {20: "twenty", 30: "thirty", 40: "forty", 50: "fifty", 60: "sixty", 70: "seventy",
         80: "eighty", 90: "ninety"}


def number(n: int) -> str:
    """A number in words (0 to 199), as players say scores.

    >>> number(29)
    'twenty-nine'
    """
    if n < 0:
        return "minus " + number(-n)
    if n < len(_NUMBERS):
        return _NUMBERS[n]
    if n < 100:
        tens, units = divmod(n, 10)
        word = _TENS[tens * 10]
        return word if units == 0 else f"{word}-{_NUMBERS[units]}"
    hundreds, rest = divmod(n, 100)
    head = f"{_NUMBERS[hundreds]} hundred"
    return head if rest == 0 else f"{head} and {number(rest)}"


def _cards(item: ScoreItem) -> str:
    return " ".join(card.pretty for card in item.cards)


def say_hand(breakdown: Breakdown) -> str:
    """A hand or crib counted aloud: "fifteen two (5♥ K♠), pair four (5♥ 5♠) ... = 4".

    >>> from pegboard.rules.cards import parse_cards, Card
    >>> from pegboard.rules.show import score_hand
    >>> say_hand(score_hand(parse_cards("2C 3D 7H 9S"), Card.parse("KC")))
    'nineteen (nothing)'
    """
    if not breakdown.items:
        return "nineteen (nothing)"
    total = 0
    parts = []
    for item in breakdown.items:
        total += item.points
        name = {"nobs": "one for his nobs", "flush": f"flush of {len(item.cards)}"}.get(
            item.kind, item.kind
        )
        if item.kind == "run":
            name = f"run of {len(item.cards)}"
        parts.append(f"{name} {number(total)} ({_cards(item)})")
    return ", ".join(parts)


def say_play(breakdown: Breakdown, count: int) -> str:
    """A card in the play: the count, then what it makes ("fifteen two and a pair is four")."""
    if not breakdown.items:
        return number(count)
    total = 0
    parts = []
    for item in breakdown.items:
        total += item.points
        if item.kind in ("fifteen", "thirty-one"):
            parts.append(f"{item.kind} for {number(total)}")
        elif item.kind == "run":
            parts.append(f"run of {len(item.cards)} for {number(total)}")
        else:
            parts.append(f"{item.kind} for {number(total)}")
    head = "" if count in (15, 31) else f"{number(count)}, "
    return head + " and ".join(parts)
