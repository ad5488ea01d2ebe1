"""Numbers in words, for the sentences the engine puts on awards and in its messages.

Hand and play counts are worded by :mod:`pegboard.rules.speech`; this module only spells the
numbers that go with the short fixed phrases ("go for one", "count is twenty-five").
"""

from __future__ import annotations

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
