"""What is known when a player is to lay a card in the play: the one input of every pegging
judgement (the coach's line and its note after a play, the pegging hint, ``pegboard quiz`` and
the game review all value a card from a :class:`Knowledge`, by :mod:`pegboard.coach.lookahead`).

Of the player's own cards the box knows one of three things (:class:`OwnCards`): the cards
kept (the hand, once the engine knows it, or the cards a player named for a hint); only the
cards dealt, not which of them were laid away, so any of them not yet laid may be in the crib;
or nothing. Besides that: the pile (this count), the cards seen that the next player cannot
hold, and how many cards the next player to answer still holds; and in an open-handed game,
where every hand is open to the table, the very cards the next player holds (``theirs``): then
no card in the crib, in another hand or still in the pack is ever taken for their answer.

Read off the engine's state by :func:`knowledge_for`: the kept hand is ``GameState.hands``
(known once the engine knows it), the dealt cards ``GameState.dealt``, the next player's open
hand ``GameState.open_hand``, the rest ``pile``, ``seen``, ``played``, ``said_go`` and
``cards_left``. The review reads the same facts off the engine's report of the card laid
(:class:`~pegboard.rules.facts.Laid`), so it judges each play with what was known then.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from pegboard.rules.cards import DECK, Card
from pegboard.rules.state import GameState, Phase
from pegboard.rules.value import Value

__all__ = ["Knowledge", "OwnCards", "knowledge_for"]


class OwnCards(enum.StrEnum):
    """How much is known of the cards the player to lay holds."""

    KEPT = "kept"
    """The cards held are known: exactly ``Knowledge.cards``."""
    DEALT = "dealt"
    """The cards dealt are known, not which went to the crib: ``Knowledge.cards`` are the dealt
    cards not yet laid, of which the player holds ``Knowledge.holds``; any of them may be in
    the crib, so no judgement may name one as held."""
    NOTHING = "nothing"
    """Nothing is known of the player's cards: only the pile and the cards seen."""


class Knowledge(Value):
    """What is known when a player is to lay a card.

    ``cards`` and ``holds`` as ``own`` says (:class:`OwnCards`); ``pile`` is this count,
    oldest first; ``seen`` every other card known not to be the next player's (the starter,
    the cards laid in earlier counts, the player's own discards when known); ``next_left`` how
    many cards the next player to answer still holds (0 once nobody can answer; None: not
    known, and they are taken to hold an answer if there is one); ``theirs`` the very cards
    the next player to answer holds, when every player sees them (an open-handed game; None:
    not known, and any card not seen may be theirs). With ``theirs`` known, ``next_left`` is
    how many they are."""

    __slots__ = ("cards", "holds", "next_left", "own", "pile", "seen", "theirs")
    __match_args__ = ("own", "cards", "holds", "pile", "seen", "next_left", "theirs")

    own: OwnCards
    cards: tuple[Card, ...]
    holds: int
    pile: tuple[Card, ...]
    seen: tuple[Card, ...]
    next_left: int | None
    theirs: tuple[Card, ...] | None

    def __init__(
        self,
        own: OwnCards,
        cards: tuple[Card, ...],
        holds: int,
        pile: tuple[Card, ...],
        seen: tuple[Card, ...] = (),
        next_left: int | None = None,
        theirs: tuple[Card, ...] | None = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "own", own)
        setter(self, "cards", cards)
        setter(self, "holds", holds)
        setter(self, "pile", pile)
        setter(self, "seen", seen)
        setter(self, "next_left", len(theirs) if theirs is not None else next_left)
        setter(self, "theirs", theirs)

    @classmethod
    def kept(cls, pile: Sequence[Card], cards: Sequence[Card], seen: Sequence[Card] = (), *,
             next_left: int | None = None, theirs: Sequence[Card] | None = None) -> Knowledge:
        """The player holds exactly ``cards`` (and the next player ``theirs``, when every
        player sees them)."""
        return cls(OwnCards.KEPT, tuple(cards), len(cards), tuple(pile), tuple(seen), next_left,
                   None if theirs is None else tuple(theirs))

    @property
    def count(self) -> int:
        """The count before the card is laid."""
        return sum(c.pips for c in self.pile)

    @property
    def held(self) -> tuple[Card, ...]:
        """The cards the player surely holds: ``cards`` when they are the kept ones, else
        none (a dealt card may have gone to the crib)."""
        return self.cards if self.own is OwnCards.KEPT else ()

    def unseen(self) -> list[Card]:
        """The cards the next player might hold: exactly ``theirs`` when every player sees
        them, else every card not known to be elsewhere."""
        if self.theirs is not None:
            return list(self.theirs)
        known = {*self.pile, *self.cards, *self.seen}
        return [card for card in DECK if card not in known]


def knowledge_for(gs: GameState, *, holding: Sequence[Card] | None = None) -> Knowledge | None:
    """What is known for the player to act in the play (None outside the play).

    ``holding``: the cards the player holds, when known from elsewhere (the hand shown later
    in the deal, for the review; the cards named for a hint); else the engine's kept hand, or
    its dealt cards, or nothing. The player's own discards are seen whenever both the dealt
    cards and the kept ones are known. The next player is the first after them still in this
    count with cards left (none: nobody can answer, ``next_left`` 0); their cards are known
    exactly when the hands are open to the table (:meth:`~pegboard.rules.state.GameState.
    open_hand`), never otherwise, whatever the box knows of them (a closed hand is its
    player's own)."""
    player = gs.to_act
    if gs.phase is not Phase.PLAY or player is None:
        return None
    laid = gs.played[player]
    dealt = gs.dealt[player]
    hand = gs.hands[player]
    own = OwnCards.NOTHING
    cards: tuple[Card, ...] = ()
    if holding is not None:
        own, cards = OwnCards.KEPT, tuple(holding)
    elif hand is not None:
        own, cards = OwnCards.KEPT, tuple(c for c in hand if c not in laid)
    elif dealt is not None:
        own, cards = OwnCards.DEALT, tuple(c for c in dealt if c not in laid)
    seen = [c for c in gs.seen if c not in gs.pile and c not in cards]
    if own is OwnCards.KEPT and dealt is not None:
        seen += [c for c in dealt if c not in cards and c not in laid and c not in gs.seen]
    holds = len(cards) if own is OwnCards.KEPT else gs.cards_left[player]
    seats = gs.players
    after = ((player + k) % seats for k in range(1, seats))
    nxt = next((s for s in after if s not in gs.said_go and gs.cards_left[s] > 0), None)
    if nxt is None:
        return Knowledge(own, cards, holds, gs.pile, tuple(seen), 0)
    return Knowledge(own, cards, holds, gs.pile, tuple(seen), gs.cards_left[nxt],
                     gs.open_hand(nxt))
