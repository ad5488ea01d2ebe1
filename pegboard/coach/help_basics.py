"""The basics of the game for a first-time player: how a deal goes, counting a hand, the crib
and the play, in plain words.

Every worked example is a :class:`Worked` hand or a :class:`PlayedCards` count whose points are
written down here and checked against the scorer by the tests; the words of a count are the
ones :func:`pegboard.rules.speech.say_breakdown` says, so the topic counts the way the box does.
"""

from __future__ import annotations

from pegboard.coach.help_shape import Topic, rules_page
from pegboard.rules.cards import Card, parse_cards
from pegboard.rules.scoring import Breakdown
from pegboard.rules.show import score_hand
from pegboard.rules.speech import say_breakdown
from pegboard.rules.value import Value, replace

__all__ = ["BASICS", "WORKED", "PlayedCards", "Worked"]


class Worked(Value):
    """A hand counted with its starter in a topic, and the points the topic says it makes."""

    __slots__ = ("crib", "hand", "points", "starter")
    __match_args__ = ("hand", "starter", "points", "crib")

    hand: str
    starter: str
    points: int
    crib: bool

    def __init__(self, hand: str, starter: str, points: int, crib: bool = False) -> None:
        setter = object.__setattr__
        setter(self, "hand", hand)
        setter(self, "starter", starter)
        setter(self, "points", points)
        setter(self, "crib", crib)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The hand's (or crib's) four cards."""
        return tuple(parse_cards(self.hand))

    @property
    def turned(self) -> Card:
        """The starter."""
        return Card.parse(self.starter)

    def breakdown(self) -> Breakdown:
        """The scorer's count of this hand."""
        return score_hand(self.cards, self.turned, crib=self.crib)

    def words(self) -> str:
        """The example as the topic prints it: cards, starter, and the count aloud."""
        cards = " ".join(c.pretty for c in self.cards)
        whose = "crib" if self.crib else "hand"
        return (f"The {whose} {cards} with the starter {self.turned.pretty}: "
                f"{say_breakdown(self.breakdown())}. {self.points} points.")

    def screen(self) -> str:
        """The example in the screen's ASCII: ranks and suit letters, then the points."""
        return f"{self.hand} + {self.starter} = {self.points}"


class PlayedCards(Value):
    """Cards laid in one count of the play, oldest first, and what the last one pegs."""

    __slots__ = ("cards", "points")
    __match_args__ = ("cards", "points")

    cards: str
    points: int

    def __init__(self, cards: str, points: int) -> None:
        setter = object.__setattr__
        setter(self, "cards", cards)
        setter(self, "points", points)

    @property
    def pile(self) -> tuple[Card, ...]:
        """The count's cards in the order they were laid."""
        return tuple(parse_cards(self.cards))

    @property
    def ranks(self) -> str:
        """The cards as the topic writes them, ranks only: ``7 8 8``."""
        return " ".join(c.rank.symbol for c in self.pile)


_FIRST = Worked("5H 5S 6D JC", "4C", 17)
_FLUSH = Worked("2H 6H 9H KH", "3C", 8)
_NOBS = Worked("JD 4D 8C 9S", "7D", 6)
_CRIB = Worked("2S 3H KD QC", "JH", 9, crib=True)
_DOUBLE = Worked("7H 8C 8D 9S", "KS", 12)

WORKED: dict[str, tuple[Worked, ...]] = {
    "counting": (_FIRST, _DOUBLE, _FLUSH, _NOBS),
    "crib": (_CRIB,),
}
"""The hands each basic topic counts as an example, by topic id."""

PLAYED: dict[str, tuple[PlayedCards, ...]] = {
    "the-play": (
        PlayedCards("7H 8C", 2),  # fifteen
        PlayedCards("7H 8C 8D", 2),  # a pair
        PlayedCards("3H 3C 3D", 6),  # pair royal
        PlayedCards("2S 4H 3C", 3),  # a run of three in any order
        PlayedCards("KS QD 5H 6C", 2),  # thirty-one
    ),
}
"""The counts each basic topic plays as an example, by topic id."""

def _with_worked(topic: Topic) -> Topic:
    """The topic with the hands it counts as examples (:data:`WORKED`) at the end of its text
    and of its screens."""
    hands = WORKED[topic.id]
    return replace(
        topic,
        text=topic.text + "\n\n".join(w.words() for w in hands),
        screen=(*topic.screen, *(w.screen() for w in hands)),
    )


BASICS: tuple[Topic, ...] = (
    Topic(
        id="how-to-play",
        title="How to play",
        reference=rules_page("The deal", "The starter", "The play", "The show", "Winning"),
        text=(
            "Cribbage is a race to 121 points, kept on a board with pegs. Two players each "
            "get six cards. Each lays two of them away, face down, into the crib: a third "
            "hand that belongs to the dealer and is counted last. Keep the cards that score "
            "well together; lay away to your own crib cards that may score there, and to your "
            "opponent's crib cards that will not.\n\n"
            "The player who did not deal (the pone) cuts the pack, and the dealer turns up the "
            "top card: the starter. It counts with every hand and the crib. A jack turned up "
            "pegs the dealer 2 at once (his heels).\n\n"
            "The play: the pone lays a card face up and says its value, then the dealer, in "
            "turn, each saying the running count. A card that makes the count 15 or 31, a "
            "pair or a run pegs points. Nobody may pass 31: a player who cannot play says "
            "\"go\", the other plays on, and the last card laid pegs 1 (2 at exactly 31). "
            "Then the count starts again at 0.\n\n"
            "The show: the pone counts their hand with the starter, then the dealer counts "
            "theirs, then the crib. Then the deal passes to the other player. The first to "
            "reach 121 wins at that moment, even in the middle of a count."
        ),
        screen=(
            "A race to 121. Each player gets 6 cards and lays 2 away to the dealer's crib.",
            "The pone cuts; the dealer turns the top card: the starter.",
            "Play cards in turn, adding up to 31. 15, 31, pairs and runs peg.",
            "Can't play? Say go. The last card pegs 1.",
            "Show: pone's hand, dealer's hand, then the crib. First to 121 wins.",
        ),
    ),
    _with_worked(Topic(
        id="counting",
        title="Counting a hand",
        reference=rules_page("Card values and combinations", "The show"),
        text=(
            "A hand is counted with the starter: five cards. Count in this order, saying the "
            "running total aloud.\n\n"
            "Fifteens: every different set of cards that adds up to 15 scores 2. Face cards "
            "count 10 and an ace 1. Say \"fifteen 2, fifteen 4\" as you find them.\n\n"
            "Pairs: two cards of the same rank score 2; three of a kind (a pair royal) 6; "
            "four of a kind 12.\n\n"
            "Runs: three or more cards in sequence (ace low, no wrap) score 1 a card. A run "
            "made twice over because of a pair is a double run: 8 for three cards with the "
            "pair in it, 10 for four. Three of a kind in a run of three is a triple run, 15; "
            "two pairs in a run of three is a double double run, 16.\n\n"
            "Flush: four hand cards of one suit score 4, and 5 with the starter too. His "
            "nobs: the jack of the starter's suit in your hand scores 1.\n\n"
        ),
        screen=(
            "Count your 4 cards with the starter.",
            "Fifteens 2 each: every set adding to 15. Face cards 10, ace 1.",
            "Pairs 2 each (3 of a kind 6, 4 of a kind 12).",
            "Runs of 3+: 1 a card. Double run of 3 with its pair: 8.",
            "Flush of 4 in hand: 4 (5 with starter). Jack of starter suit: 1.",
        ),
    )),
    _with_worked(Topic(
        id="crib",
        title="The crib",
        reference=rules_page("The deal", "The show"),
        text=(
            "The crib is the four cards the players lay away after the deal (two each with two "
            "players). It belongs to the dealer and is counted last, with the starter, like a "
            "hand, except that a flush in the crib needs all five cards of one suit.\n\n"
            "So when you deal, lay away cards that score together or with the cards your "
            "opponent may lay: a 5, a pair, two cards adding to 5 (any ten-card makes them "
            "fifteen). When your opponent deals, the crib scores against you: lay away cards "
            "far apart, and keep 5s out of it.\n\n"
        ),
        screen=(
            "The 4 laid-away cards are the dealer's crib, counted last with the starter.",
            "A crib flush needs all 5 cards of one suit.",
            "Your crib: lay away 5s, pairs, 2+3. Theirs: lay away far-apart cards.",
        ),
    )),
    Topic(
        id="the-play",
        title="The play",
        reference=rules_page("The play"),
        text=(
            "After the starter is turned, the pone lays the first card face up and says its "
            "value. Players then take turns, each laying one card and saying the new count: "
            "\"7\", \"fifteen for 2\". The count may never pass 31.\n\n"
            "The card you lay pegs: 2 if the count is now 15 (7 8); 2 if it pairs the "
            "card before it (7 8 8), 6 for three of a kind (3 3 3) and 12 for four; 1 a card "
            "for a run of the last three or more cards in any order (2 4 3), a run of 3; 2 "
            "if the count is exactly 31 (K Q 5 6).\n\n"
            "A player who cannot lay a card without passing 31 says \"go\". The other keeps "
            "playing while they can; the last card laid pegs 1, or 2 at exactly 31. The count "
            "then starts again at 0, led by the player who did not lay the last card. The last "
            "card of all pegs 1. Your cards go back in your hand for the show."
        ),
        screen=(
            "Pone leads; each lays a card in turn and says the count. Never past 31.",
            "Count 15: 2. Pair the last card: 2. Run of 3+ in any order: 1 a card.",
            "Exactly 31: 2. Can't play? Say go: the last card laid pegs 1.",
            "Then the count starts again at 0.",
        ),
    ),
)
"""The basic topics, in the order a first-time player reads them."""
