"""What a suit does to a count, as a player sets it on a card with GO or a held OK, and its
one wording: loaded with the card wheel, or the first count whose suits matter (a restored
game's first page needs neither)."""

from __future__ import annotations

import enum


class SuitFact(enum.Enum):
    """What a suit does to a count, as GO or a held OK sets it on a card, a claim or a
    count. The value is its words: the screen, the 80x24 text panel and the voice all say
    a fact by them (:func:`suit_words`), and nothing reads them back."""

    PLAIN = "plain"
    """No flush and no nobs (what a hold or GO goes round to last)."""
    NOBS = "with nobs"
    """His nobs: the jack of the starter's suit."""
    IN_FLUSH = "in the flush"
    """The suit of the hand's cards so far (a crib's: the starter's), before its last card."""
    FLUSH_OF_THREE = "flush of three"
    FLUSH_OF_FOUR = "flush of four"
    FLUSH_OF_FIVE = "flush of five"
    NOT_NEEDED = "suit not needed"
    """A card whose suit decides nothing there (the cut for deal: the lowest rank deals, and
    a suit breaks no tie): what a hold on it says, in place of "plain", which speaks of a
    flush and nobs."""


    @property
    def short(self) -> str:
        """The fact in the fewest letters, where a line is too narrow for its words (large
        print, a full OLED line): "nobs", "flush 4"."""
        return _SHORT[self]


_SHORT = {SuitFact.PLAIN: "plain", SuitFact.NOBS: "nobs", SuitFact.IN_FLUSH: "flush",
          SuitFact.FLUSH_OF_THREE: "flush 3", SuitFact.FLUSH_OF_FOUR: "flush 4",
          SuitFact.FLUSH_OF_FIVE: "flush 5", SuitFact.NOT_NEEDED: "no suit"}


FLUSH_OF: dict[int, SuitFact] = {3: SuitFact.FLUSH_OF_THREE, 4: SuitFact.FLUSH_OF_FOUR,
                                 5: SuitFact.FLUSH_OF_FIVE}
"""A whole flush by its length (a five-card game's hand of three flushes in three)."""


def suit_words(facts: tuple[SuitFact, ...], *, short: bool = False) -> str:
    """Suit facts in words, the one wording of every output: "with nobs", "flush of four",
    "with nobs, flush of five", "plain" (empty: no fact set); ``short``: "nobs flush 5"."""
    if short:
        return " ".join(fact.short for fact in facts)
    return ", ".join(fact.value for fact in facts)


def entered_words(card: str, facts: tuple[SuitFact, ...]) -> str:
    """A card with the suit facts set on it, the one wording of the wheel, the screen and the
    voice: "J, with nobs", "7, flush of four"; the card alone when no fact is set."""
    return f"{card}, {suit_words(facts)}" if facts else card
