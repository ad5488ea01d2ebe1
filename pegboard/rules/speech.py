"""Scores in words, the way players count aloud at the table.

The show is counted in a fixed order, each phrase ending in the running total: fifteens one by
one with their cards, then pairs (three of a kind is a *pair royal*, four a *double pair
royal*), then runs (two runs over the same ranks are a *double run*, three a *triple run*, four a
*quadruple run*), the flush, and last of all his nob::

    Fifteen 2 (7♥ 8♣), fifteen 4 (7♥ 8♦), a pair is 6, a double run of three is 12 — and his
    nob is 13

A hand that scores nothing is a "nineteen" (a total no hand can make). One card in the play is
said with its points: "Fifteen for 2", "Pair royal for 6", "Run of 4 for 4".
"""

from __future__ import annotations

from collections import Counter

from pegboard.rules.cards import Card
from pegboard.rules.scoring import Breakdown, ScoreItem

_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven")
_MULTIPLE = {1: "a run", 2: "a double run", 3: "a triple run", 4: "a quadruple run"}
_PAIRS_OF_A_KIND = {1: "a pair", 3: "pair royal", 6: "double pair royal"}
_COUNT_WORDS = {15: "Fifteen", 31: "Thirty-one"}


def cards_text(cards: tuple[Card, ...]) -> str:
    """Cards as a player reads them, ordered by rank: ``7♥ 8♣``."""
    return " ".join(card.pretty for card in sorted(cards, key=lambda c: (c.rank, c.index)))


def say_breakdown(breakdown: Breakdown) -> str:
    """The spoken count of a show breakdown, each phrase with the running total.

    >>> from pegboard.rules import Card, parse_cards, score_hand
    >>> print(say_breakdown(score_hand(parse_cards("7H 8C 8D JS"), Card.parse("9S"))))
    Fifteen 2 (7♥ 8♣), fifteen 4 (7♥ 8♦), a pair is 6, a double run of three is 12
    — and his nob is 13
    >>> say_breakdown(score_hand(parse_cards("2C 4D 6H 8S"), Card.parse("KC")))
    'Nineteen — no score'
    """
    phrases: list[str] = []
    running = 0
    by_kind: dict[str, list[ScoreItem]] = {}
    for item in breakdown.items:
        by_kind.setdefault(item.kind, []).append(item)

    for item in by_kind.get("fifteen", []):
        running += item.points
        phrases.append(f"fifteen {running} ({cards_text(item.cards)})")

    pairs_by_rank = Counter(item.cards[0].rank for item in by_kind.get("pair", []))
    first_pair = True
    for rank in sorted(pairs_by_rank):
        number = pairs_by_rank[rank]
        running += 2 * number
        name = _PAIRS_OF_A_KIND.get(number, f"{number} pairs")
        if number == 1 and not first_pair:
            name = "another pair"
        phrases.append(f"{name} is {running}")
        first_pair = False

    runs_by_length = Counter(len(item.cards) for item in by_kind.get("run", []))
    for length in sorted(runs_by_length, reverse=True):
        number = runs_by_length[length]
        running += length * number
        name = _MULTIPLE.get(number, f"{number} runs")
        phrases.append(f"{name} of {_NUMBER_WORDS[length]} is {running}")

    for item in by_kind.get("flush", []):
        running += item.points
        phrases.append(f"a flush of {len(item.cards)} is {running}")

    nobs = by_kind.get("nobs", [])
    for item in nobs:
        running += item.points
    if not phrases and not nobs:
        return "Nineteen — no score"
    text = ", ".join(phrases)
    if nobs:
        text = f"{text} — and his nob is {running}" if text else f"his nob is {running}"
    return text[0].upper() + text[1:]


def say_play(breakdown: Breakdown, count: int, *, closing: str | None = None) -> str:
    """What a player says for one card laid in the play (``count`` is the count it makes).

    A card that scores one thing is "Fifteen for 2", "Thirty-one for 2", "Pair for 2",
    "Pair royal for 6", "Double pair royal for 12" or "Run of 4 for 4"; several things are
    chained with the running total ("Fifteen for 2 and a pair is 4"); a card that scores
    nothing is just the count ("22").

    ``closing`` is ``"go"`` or ``"last card"`` when this card also ends the count: it adds
    "one for the go" / "one for last card" — except at 31, which already scored 2 (never 3).

    >>> from pegboard.rules import parse_cards, score_play
    >>> say_play(score_play(parse_cards("5H 5S 5C")), 15)
    'Fifteen for 2 and pair royal is 8'
    >>> say_play(score_play(parse_cards("4S 2H 6D 5C 3S")), 20)
    'Run of 5 for 5'
    >>> say_play(score_play(parse_cards("KS 9H 8C")), 27, closing="go")
    'One for the go'
    """
    if closing not in (None, "go", "last card"):
        raise ValueError(f"closing must be None, 'go' or 'last card', not {closing!r}")
    phrases: list[str] = []
    running = 0
    for item in breakdown.items:
        running += item.points
        if item.kind in ("fifteen", "thirty-one"):
            name = _COUNT_WORDS[15 if item.kind == "fifteen" else 31]
        elif item.kind == "run":
            name = f"run of {len(item.cards)}"
        else:
            name = item.kind
        if phrases:
            article = "a " if item.kind in ("pair", "run") else ""
            phrases.append(f"{article}{name} is {running}")
        else:
            phrases.append(f"{name} for {running}")
    if closing is not None and count != 31:
        running += 1
        what = "the go" if closing == "go" else "last card"
        phrases.append(f"one for {what} is {running}" if phrases else f"one for {what}")
    if not phrases:
        return str(count)
    text = " and ".join(phrases)
    return text[0].upper() + text[1:]
