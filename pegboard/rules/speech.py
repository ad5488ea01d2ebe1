"""Scores in words, the way players count aloud at the table.

The show is counted in a fixed order, each phrase ending in the running total: fifteens one by
one with their cards, then pairs (three of a kind is a *pair royal*, four a *double pair
royal*), then runs, the flush, and last of all his nob. A run made twice over by a pair is said
with its pair as one phrase, the way players count it: a *double run* (8 for three cards, 10
for four), a *triple run* (15) and a *double double run* (16)::

    Fifteen 2 (7♥ 8♣), fifteen 4 (7♥ 8♦), a double run is 12, and his nob is 13

:func:`count_phrases` is that count as values, the one wording the command line, the screen
and the voice each render. A hand that scores nothing is a "nineteen" (a total no hand can
make). One card in the play is said with its points: "Fifteen for 2", "Pair royal for 6",
"Run of 4 for 4". Numbers are spelled here too (:func:`number`), for the short fixed phrases the
engine puts on awards and in its messages ("go for one", "count is twenty-five")."""

from __future__ import annotations

import enum
from operator import attrgetter

from pegboard.rules.cards import Card, EnteredCard, Rank
from pegboard.rules.scoring import Breakdown, ScoreItem
from pegboard.rules.value import Value

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


_COUNT_WORDS = {15: "Fifteen", 31: "Thirty-one"}

_BY_RANK = attrgetter("index")
"""Cards in the order players read them, by rank then suit: a card's index is rank-major."""


class Said(enum.StrEnum):
    """What a phrase of a count names, in the words players use."""

    FIFTEEN = "fifteen"
    PAIR = "a pair"
    ANOTHER_PAIR = "another pair"
    PAIR_ROYAL = "pair royal"
    DOUBLE_PAIR_ROYAL = "double pair royal"
    RUN = "a run"
    DOUBLE_RUN = "a double run"
    TRIPLE_RUN = "a triple run"
    DOUBLE_DOUBLE_RUN = "a double double run"
    FLUSH = "a flush"
    NOBS = "his nob"


_MULTIPLE_RUN = {2: Said.DOUBLE_RUN, 3: Said.TRIPLE_RUN, 4: Said.DOUBLE_DOUBLE_RUN}
_OF_A_KIND = {1: Said.PAIR, 3: Said.PAIR_ROYAL, 6: Said.DOUBLE_PAIR_ROYAL}


class Phrase(Value):
    """One phrase of a count said aloud: what it names, its points, the running ``total`` it
    ends on, its cards, and ``length`` (the cards of a run or a flush)."""

    __slots__ = ("cards", "length", "points", "said", "total")
    __match_args__ = ("said", "points", "total", "cards", "length")

    said: Said
    points: int
    total: int
    cards: tuple[Card, ...]
    length: int

    def __init__(
        self,
        said: Said,
        points: int,
        total: int,
        cards: tuple[Card, ...],
        length: int = 0,
    ) -> None:
        setter = object.__setattr__
        setter(self, "said", said)
        setter(self, "points", points)
        setter(self, "total", total)
        setter(self, "cards", cards)
        setter(self, "length", length)


def count_phrases(breakdown: Breakdown) -> tuple[Phrase, ...]:
    """A show breakdown as players count it: fifteens one by one, then pairs, then runs, the
    flush, his nob. A run made more than once by a pair is said with its pairs, as one phrase:
    a double run (of three: 8, of four: 10), a triple run (15), a double double run (16).

    >>> from pegboard.rules.cards import Card, parse_cards
    >>> from pegboard.rules.show import score_hand
    >>> [(p.said.value, p.total) for p in count_phrases(
    ...     score_hand(parse_cards("7H 8C 8D KS"), Card.parse("9S")))]
    [('fifteen', 2), ('fifteen', 4), ('a double run', 12)]
    """
    by_kind: dict[str, list[ScoreItem]] = {}
    for item in breakdown.items:
        by_kind.setdefault(item.kind, []).append(item)
    runs: dict[frozenset[int], list[ScoreItem]] = {}
    for item in by_kind.get("run", []):
        runs.setdefault(frozenset(int(c.rank) for c in item.cards), []).append(item)
    multiple = {ranks for ranks, same in runs.items() if len(same) > 1}
    in_multiple = set().union(*multiple) if multiple else set()
    phrases: list[Phrase] = []
    total = 0

    def say(said: Said, items: list[ScoreItem], length: int = 0) -> None:
        nonlocal total
        points = sum(i.points for i in items)
        total += points
        cards = tuple(sorted({c for i in items for c in i.cards}, key=_BY_RANK))
        phrases.append(Phrase(said, points, total, cards, length))

    for item in by_kind.get("fifteen", []):
        say(Said.FIFTEEN, [item])
    pairs: dict[Rank, list[ScoreItem]] = {}
    for item in by_kind.get("pair", []):
        pairs.setdefault(item.cards[0].rank, []).append(item)
    first = True
    for rank in sorted(pairs):
        if int(rank) in in_multiple:
            continue  # said with its run
        said = _OF_A_KIND.get(len(pairs[rank]), Said.PAIR)
        say(Said.ANOTHER_PAIR if said is Said.PAIR and not first else said, pairs[rank])
        first = False
    for ranks, same in sorted(runs.items(), key=lambda kv: -len(kv[0])):
        inside = [i for rank, group in pairs.items() if int(rank) in ranks for i in group]
        said = _MULTIPLE_RUN.get(len(same), Said.RUN) if len(same) > 1 else Said.RUN
        say(said, [*same, *inside], len(ranks))
    for item in by_kind.get("flush", []):
        say(Said.FLUSH, [item], len(item.cards))
    for item in by_kind.get("nobs", []):
        say(Said.NOBS, [item])
    return tuple(phrases)


def cards_text(cards: tuple[Card, ...], entered: frozenset[Card] | None = None) -> str:
    """Cards as a player reads them, ordered by rank: ``7♥ 8♣``. With ``entered`` (the
    cards whose suits a player entered), any other card is its rank alone: ``5?``.

    >>> from pegboard.rules.cards import parse_cards
    >>> cards_text(tuple(parse_cards("8C 7H")), frozenset(parse_cards("7H")))
    '7♥ 8?'
    """
    return " ".join(_card_text(card, entered)
                    for card in sorted(cards, key=_BY_RANK))


def _card_text(card: Card, entered: frozenset[Card] | None) -> str:
    """A card, or its rank alone when its suit was not entered (never a stand-in suit)."""
    if entered is None or card in entered:
        return card.pretty
    return f"{EnteredCard(card.rank, None).short}?"


def phrase_words(phrase: Phrase) -> str:
    """One phrase in English, without its cards: ``fifteen 4``, ``a double run is 12``,
    ``a run of four is 9``, ``a flush of 4 is 13``, ``his nob is 14``."""
    if phrase.said is Said.FIFTEEN:
        return f"fifteen {phrase.total}"
    name = phrase.said.value
    if phrase.said is Said.RUN or (phrase.said is Said.DOUBLE_RUN and phrase.length > 3):
        name += f" of {number(phrase.length)}"
    elif phrase.said is Said.FLUSH:
        name += f" of {phrase.length}"
    return f"{name} is {phrase.total}"


def join_phrases(phrases: list[str]) -> str:
    """Phrases as one count: commas, and "and" before the last unless all are fifteens."""
    if len(phrases) > 1 and not all(p.startswith("fifteen ") for p in phrases):
        phrases = [*phrases[:-1], f"and {phrases[-1]}"]
    return ", ".join(phrases)


def say_breakdown(breakdown: Breakdown, entered: frozenset[Card] | None = None) -> str:
    """The spoken count of a show breakdown, each phrase with the running total; a fifteen
    names its cards (by rank alone, ``5?``, for a card not in ``entered`` when given).

    >>> from pegboard.rules.cards import Card, parse_cards
    >>> from pegboard.rules.show import score_hand
    >>> print(say_breakdown(score_hand(parse_cards("7H 8C 8D JS"), Card.parse("9S"))))
    Fifteen 2 (7♥ 8♣), fifteen 4 (7♥ 8♦), a double run is 12, and his nob is 13
    >>> say_breakdown(score_hand(parse_cards("2C 4D 6H 8S"), Card.parse("KC")))
    'Nineteen — no score'
    """
    words = [
        f"{phrase_words(p)} ({cards_text(p.cards, entered)})" if p.said is Said.FIFTEEN
        else phrase_words(p)
        for p in count_phrases(breakdown)
    ]
    if not words:
        return "Nineteen — no score"
    text = join_phrases(words)
    return text[0].upper() + text[1:]


class CountWords(Value):
    """A hand's or the crib's count as its award says it, ``Ann: hand 5♥ 6♣ 9♠ 10♦: Fifteen
    2 (5♥ 10♦), ...`` (its cards as :func:`cards_text` reads them, its count as
    :func:`say_breakdown` says it, both with ``entered``: a card whose suit was not entered,
    the starter's or one the card wheel gave a suit, is said by its rank alone, never with a
    stand-in suit), kept as what it says until it is
    first read (:meth:`text`): a game restored from its record counts every hand again, and
    reads the words of none. ``owner`` is the name put before it once the count is pegged for
    a seat ("" while it is not: the text then starts at ``hand``)."""

    __slots__ = ("breakdown", "cards", "crib", "entered", "owner")
    __match_args__ = ("owner", "crib", "cards", "breakdown", "entered")

    owner: str
    crib: bool
    cards: tuple[Card, ...]
    breakdown: Breakdown
    entered: frozenset[Card]

    def __init__(
        self,
        owner: str,
        crib: bool,
        cards: tuple[Card, ...],
        breakdown: Breakdown,
        entered: frozenset[Card],
    ) -> None:
        setter = object.__setattr__
        setter(self, "owner", owner)
        setter(self, "crib", crib)
        setter(self, "cards", cards)
        setter(self, "breakdown", breakdown)
        setter(self, "entered", entered)

    def text(self) -> str:
        """The words."""
        said = (f"{'crib' if self.crib else 'hand'} {cards_text(self.cards, self.entered)}: "
                f"{say_breakdown(self.breakdown, self.entered)}")
        return f"{self.owner}: {said}" if self.owner else said


def say_play(breakdown: Breakdown, count: int, *, closing: str | None = None) -> str:
    """What a player says for one card laid in the play (``count`` is the count it makes).

    A card that scores one thing is "Fifteen for 2", "Thirty-one for 2", "Pair for 2",
    "Pair royal for 6", "Double pair royal for 12" or "Run of 4 for 4"; several things are
    chained with the running total ("Fifteen for 2 and a pair is 4"); a card that scores
    nothing is just the count ("22").

    ``closing`` is ``"go"`` or ``"last card"`` when this card also ends the count: it adds
    "one for the go" / "one for last card" — except at 31, which already scored 2 (never 3).

    >>> from pegboard.rules.cards import parse_cards
    >>> from pegboard.rules.pegging import score_play
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
