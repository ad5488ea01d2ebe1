"""What the shared screen may not tell: the cards phones entered for their own seats.

A seat a phone holds enters its dealt cards on the phone, in private. Until the table sees
those cards (played, or counted), nothing the box shows or says may depend on them: not the
cards a wheel offers, not a refusal's words. A seat entered on the box (a teaching game's
advice, an open-handed deal) was entered in front of the table, so its cards are the
table's to know.

The rule for a card the box enters that a phone's hand holds (a starter, or the starter's
suit asked at a count): the box offers it like any card the table has not seen, and the
engine refuses it; the box says only :data:`CLASH`, which names no seat, no reason and no
other card. This is what a tournament director asks of a misentry: the record never holds
an impossible deal, nothing about a hand is shown, and the refusal is on the shared screen,
so a player trying cards one by one to learn a hand does it in front of the table.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from pegboard.rules.cards import Card, EnteredCard
from pegboard.rules.state import GameState

CLASH = ("That card clashes with a hand entered on a phone: check the card turned. If it "
         "is right, a phone's hand was entered wrong: the table takes that entry back "
         "(Undo) and its player enters the hand again.")
"""The box's refusal of a card a phone's hand holds: whose, and why, stay private."""

SUIT_CLASH = ("The count waits for the starter's suit: enter it first (the suit of the card "
              "turned).")
"""The box's refusal of an entry while a count waits for the starter's suit, when phones
hold hands (the engine's names the suits no hand holds)."""

_CARD = re.compile(r"\b(?:10|[2-9TJQKA])[CDHS]\b")


def phone_cards(gs: GameState, phones: Collection[int], but: int | None = None,
                ) -> frozenset[Card]:
    """The cards dealt to seats phones hold (but ``but``) that the table has not seen."""
    return frozenset(card for seat, dealt in enumerate(gs.dealt)
                     if seat in phones and seat != but and dealt is not None
                     for card in dealt if card not in gs.seen)


def public_dealt(gs: GameState, phones: Collection[int]) -> frozenset[Card]:
    """The dealt cards entered on the box (seats no phone holds): the table's to know."""
    return frozenset(card for seat, dealt in enumerate(gs.dealt)
                     if seat not in phones and dealt is not None for card in dealt)


def names_any(reason: str, cards: Collection[Card]) -> bool:
    """The sentence names one of ``cards`` (as ``7H`` or as ``7♥``)."""
    if not cards:
        return False
    named = set(_CARD.findall(reason))
    return any(str(card) in named or card.pretty in reason for card in cards)


def public_reason(gs: GameState, phones: Collection[int], reason: str) -> str:
    """The engine's refusal of an entry made on the box as the shared screen may show it:
    one naming a card a phone's hand holds unseen is :data:`CLASH`; one listing the
    starter's possible suits, while a phone's hand is private, is :data:`SUIT_CLASH`."""
    hidden = phone_cards(gs, phones)
    if names_any(reason, hidden):
        return CLASH
    if hidden and gs.asked is not None and "starter_suit" in reason:
        return SUIT_CLASH
    return reason


def holders(gs: GameState, phones: Collection[int], card: Card) -> tuple[int, ...]:
    """The seats phones hold whose hand (entered on the phone, unseen) holds ``card``."""
    return tuple(seat for seat, dealt in enumerate(gs.dealt)
                 if seat in phones and dealt is not None and card in dealt
                 and card not in gs.seen)


def holder_words(card: Card, *, suit: bool) -> str:
    """What the phone whose hand holds a card the box entered is told, privately: which
    card, that nothing was entered, and what to do (the box said only :data:`CLASH`). The card
    is said in words ("the five of hearts"), as a phone's screen reader reads it: the box named
    it with its suit."""
    spoken = EnteredCard.of(card).spoken
    what = f"The starter's suit entered on the box makes it the {spoken}, which" if suit else (
        f"The starter entered on the box, the {spoken},")
    return (f"{what} is in your hand as you entered it: the box refused it and nothing was "
            "changed. If your cards are right, tell the table the card turned was entered "
            "wrong. If you entered a card wrong, the table takes your hand back (Undo on "
            "the box) and you enter it again.")
