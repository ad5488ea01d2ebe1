"""Playing cards: ranks, suits, and the short notation players and records use.

A card is written rank then suit: ``5H``, ``TH`` (or ``10H``), ``QC``, ``A♠``. Ranks are
``A 2 3 4 5 6 7 8 9 T J Q K`` (``10`` is accepted for ``T``), suits ``C D H S`` or the unicode
symbols ``♣ ♦ ♥ ♠`` (either outline or filled); any case. ``str(card)`` is the canonical form
and always parses back to the same card.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence

from pegboard.errors import InvalidCardError
from pegboard.rules.value import Value


class Rank(enum.IntEnum):
    """Card rank, ace low (ace = 1, king = 13). Runs go by rank, ace low, no wrap."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def pips(self) -> int:
        """Counting value: ace 1, two to ten face value, jack, queen and king 10."""
        return min(int(self), 10)

    @property
    def symbol(self) -> str:
        """One-character notation: ``A 2 ... 9 T J Q K``."""
        return _RANK_SYMBOLS[int(self) - 1]

    @property
    def spoken(self) -> str:
        """The rank as a player says it ("ace", "seven", "jack")."""
        return _RANK_WORDS[int(self) - 1]


class Suit(enum.Enum):
    """Card suit. Suits matter only for the flush and his nobs."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def symbol(self) -> str:
        """The unicode suit symbol (♣ ♦ ♥ ♠)."""
        return _SUIT_SYMBOLS[self]

    @property
    def letter(self) -> str:
        """The one-letter notation (C D H S)."""
        return self.value


_RANK_SYMBOLS = "A23456789TJQK"
_RANK_WORDS = (
    "ace", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "jack", "queen", "king",
)
_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_ORDER = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)

_RANK_BY_TEXT = {s: Rank(i + 1) for i, s in enumerate(_RANK_SYMBOLS)} | {"10": Rank.TEN}
_SUIT_BY_TEXT = {
    "C": Suit.CLUBS, "D": Suit.DIAMONDS, "H": Suit.HEARTS, "S": Suit.SPADES,
    "♣": Suit.CLUBS, "♧": Suit.CLUBS,
    "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS,
    "♥": Suit.HEARTS, "♡": Suit.HEARTS,
    "♠": Suit.SPADES, "♤": Suit.SPADES,
}
_ACCEPTED = (
    "a rank (A 2 3 4 5 6 7 8 9 10 T J Q K) followed by a suit "
    "(C D H S or ♣ ♦ ♥ ♠), for example 5H, TH, 10H, Q♣"
)


class Card(Value):
    """One playing card. Immutable and hashable; ``Card.parse(str(c)) == c``."""

    __slots__ = ("index", "pips", "rank", "suit")
    __match_args__ = ("rank", "suit")

    rank: Rank
    suit: Suit
    pips: int
    """Counting value of the card (face cards 10): worked out from the rank, not a field."""
    index: int
    """A dense index 0..51 (rank-major), handy for fast tables: worked out, not a field."""

    def __init__(self, rank: Rank, suit: Suit) -> None:
        setter = object.__setattr__
        setter(self, "rank", rank)
        setter(self, "suit", suit)
        # Kept on the card, not worked out on each use: the scorers read them in their
        # innermost loops, where a chain of enum properties costs more than the counting.
        setter(self, "pips", min(int(rank), 10))
        setter(self, "index", (int(rank) - 1) * 4 + _SUIT_ORDER.index(suit))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card from its short notation (any case, ``10`` or ``T``, unicode suits).

        >>> Card.parse("10h")
        Card.parse('TH')
        """
        if not isinstance(text, str):
            raise InvalidCardError(f"{text!r} is not a card: expected text, {_ACCEPTED}")
        written = text.strip().upper()  # a rank's one or two characters, then a suit's one
        if cls is Card:
            # Every way of writing each card, made once: a record's every card is read here.
            card = _WRITTEN.get(written)
            if card is None:
                raise InvalidCardError(f"{text!r} is not a card: expected {_ACCEPTED}")
            return card
        rank, suit = _RANK_BY_TEXT.get(written[:-1]), _SUIT_BY_TEXT.get(written[-1:])
        if rank is None or suit is None:
            raise InvalidCardError(f"{text!r} is not a card: expected {_ACCEPTED}")
        return cls(rank, suit)

    @property
    def pretty(self) -> str:
        """Display form with the suit symbol, e.g. ``7♥``, ``10♣``."""
        return _PRETTY[self.index]

    def __str__(self) -> str:
        return _SHORT[self.index]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    # Equal and hashed by the dense index, which names the rank and suit together: the same
    # equality as by the fields, without hashing two enums for every card put in a set or a
    # key (the wheels and the re-suiting do that hundreds of thousands of times a game).
    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return bool(self.index == other.index)

    def __hash__(self) -> int:
        return self.index


class EnteredCard(Value):
    """A card as the table entered it: its rank always, its suit only when a player named it
    (``None``: not entered). Outputs show this, never a suit the engine chose to fill a gap.

    >>> EnteredCard(Rank.QUEEN, None).pretty, EnteredCard(Rank.TEN, Suit.HEARTS).pretty
    ('Q (suit not entered)', '10♥')
    >>> EnteredCard(Rank.QUEEN, None).spoken, EnteredCard(Rank.TEN, Suit.HEARTS).spoken
    ('queen, suit not entered', 'ten of hearts')
    """

    __slots__ = ("rank", "suit")
    __match_args__ = ("rank", "suit")

    rank: Rank
    suit: Suit | None

    def __init__(self, rank: Rank, suit: Suit | None) -> None:
        setter = object.__setattr__
        setter(self, "rank", rank)
        setter(self, "suit", suit)

    @classmethod
    def of(cls, card: Card, *, suit_known: bool = True) -> EnteredCard:
        """``card`` as entered: with its suit when ``suit_known``, else its rank alone."""
        return cls(card.rank, card.suit if suit_known else None)

    @property
    def card(self) -> Card | None:
        """The card itself, when its suit is known."""
        return None if self.suit is None else Card(self.rank, self.suit)

    @property
    def short(self) -> str:
        """The rank, and the suit's symbol when known: ``Q``, ``10♥``."""
        rank = "10" if self.rank is Rank.TEN else self.rank.symbol
        return rank if self.suit is None else f"{rank}{self.suit.symbol}"

    @property
    def pretty(self) -> str:
        """The card with its suit, or its rank saying the suit was not entered."""
        return self.short if self.suit is not None else f"{self.short} (suit not entered)"

    @property
    def spoken(self) -> str:
        """The card in words: "ten of hearts", "queen, suit not entered"."""
        if self.suit is None:
            return f"{self.rank.spoken}, suit not entered"
        return f"{self.rank.spoken} of {self.suit.name.lower()}"


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in Rank for suit in _SUIT_ORDER)
"""All 52 cards, ordered ace of clubs .. king of spades (``DECK[c.index] is c``-equal)."""

_SHORT = tuple(f"{card.rank.symbol}{card.suit.letter}" for card in DECK)
"""Each card's canonical form (``str``), by its index."""
_PRETTY = tuple(f"{'10' if card.rank is Rank.TEN else card.rank.symbol}{card.suit.symbol}"
                for card in DECK)
"""Each card's display form (``pretty``), by its index."""
_WRITTEN = {rank_text + suit_text: DECK[(int(rank) - 1) * 4 + _SUIT_ORDER.index(suit)]
            for rank_text, rank in _RANK_BY_TEXT.items()
            for suit_text, suit in _SUIT_BY_TEXT.items()}
"""Each card by every text :meth:`Card.parse` accepts for it (after ``strip().upper()``): a
rank's text then a suit's."""

written_card: Callable[[str], Card | None] = _WRITTEN.get
"""The card a text names as it is written, in capitals with nothing around it (``"5H"``, as
a record writes cards), or None for any other text (which :meth:`Card.parse` may still read):
every such text is its own ``strip().upper()``, so the card is the one ``Card.parse`` gives."""


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse cards separated by spaces or commas (or an iterable of card texts).

    >>> parse_cards("5H 5S 5C JD")
    [Card.parse('5H'), Card.parse('5S'), Card.parse('5C'), Card.parse('JD')]
    """
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Card.parse(part) for part in parts]


def require_distinct(cards: Sequence[Card], what: str = "cards") -> None:
    """Reject a collection that names the same card twice (a real deck has one of each)."""
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            listed = " ".join(str(c) for c in cards)
            raise InvalidCardError(
                f"{card} appears twice in {what} {listed!r}: every card must be different"
            )
        seen.add(card)
