"""The pretend table's real cards: the game's options, a seeded deck for every deal, the
players' discards and plays, and the suit facts each hand and crib really has.

Everything here is a pure function of the game's seed and of where the table is, so a card
taken back with UNDO, or a deal interrupted by a restart, is entered again exactly as before.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import combinations

from pegboard.app.suit_facts import SuitFact
from pegboard.rules.cards import DECK, Card, Rank, Suit
from pegboard.rules.fast import rank_key, rank_points
from pegboard.rules.pegging import score_play
from pegboard.rules.show import score_hand
from pegboard.rules.variants import Rules

NAMES = ("Ann", "Ben", "Cy", "Dee")
"""The players' names, in seat order (the first names the setup screen offers)."""
KITS = ("encoder", "keypad")


def mix(*parts: int) -> int:
    """One seed from the game's seed and the place of a decision (the same every run).

    >>> mix(1, 2) == mix(1, 2) != mix(2, 1)
    True
    """
    value = 0x2545F491
    for part in parts:
        value = (value * 1_000_003 + part + 0x9E37) % (1 << 61)
    return value


def rng_at(*parts: int) -> random.Random:
    """A random source for one decision (see :func:`mix`)."""
    return random.Random(mix(*parts))


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game the pretend table plays: its seed, the input kit and the table's options.

    ``short`` plays to 61 (a five-card game always does); ``mistakes`` lets the players make
    the scripted human mistakes; ``cut`` cuts for the first deal instead of naming the dealer.
    """

    seed: int
    kit: str = "encoder"
    players: int = 2
    five_card: bool = False
    muggins: bool = False
    teaching: bool = False
    short: bool = False
    mistakes: bool = True
    cut: bool = False

    def __post_init__(self) -> None:
        if self.kit not in KITS:
            raise ValueError(f"kit must be one of {KITS}, not {self.kit!r}")
        if self.players not in (2, 3, 4):
            raise ValueError(f"2, 3 or 4 players, not {self.players!r}")
        if self.five_card and self.players != 2:
            raise ValueError("five-card cribbage is for 2 players")

    @property
    def target(self) -> int:
        """The holes to win: 61 for five-card or a short game, else 121."""
        return 61 if self.five_card or self.short else 121

    @property
    def names(self) -> tuple[str, ...]:
        """The players, in seat order."""
        return NAMES[: self.players]

    @property
    def hand_size(self) -> int:
        """Cards kept for the play and the show."""
        return 3 if self.five_card else 4

    @property
    def dealt_size(self) -> int:
        """Cards dealt to each player (RULES.md, "The deal")."""
        if self.players == 2:
            return 5 if self.five_card else 6
        return 5

    def rules(self) -> Rules:
        """The engine rules of this table."""
        return Rules(target=self.target, five_card=self.five_card, muggins=self.muggins)

    @property
    def table(self) -> str:
        """The table size: "2p", "five-card", "3p" or "4p partners"."""
        if self.five_card:
            return "five-card"
        return {2: "2p", 3: "3p", 4: "4p partners"}[self.players]

    @property
    def mode(self) -> str:
        """Muggins and teaching, as one word each ("plain" when neither)."""
        words = [w for w, on in (("muggins", self.muggins), ("teaching", self.teaching)) if on]
        return "+".join(words) or "plain"

    def label(self) -> str:
        """A one-line name for reports: "seed 7 keypad 3p muggins 61"."""
        return f"seed {self.seed} {self.kit} {self.table} {self.mode} {self.target}"


@dataclass(frozen=True, slots=True)
class RealDeal:
    """One deal's real cards: what each seat was dealt and kept, the crib, the starter."""

    number: int
    dealer: int
    dealt: tuple[tuple[Card, ...], ...]
    kept: tuple[tuple[Card, ...], ...]
    crib: tuple[Card, ...]
    starter: Card


def deal_cards(spec: GameSpec, number: int, dealer: int) -> RealDeal:
    """Shuffle deal ``number``'s deck and deal it from the left of ``dealer`` (RULES.md, "The
    deal"): 6 each to two (5 in five-card), 5 each to three with one card from the pack to
    the crib, 5 each to four. Each player then lays away (see :func:`choose_keep`); the
    starter is the first card of the rest of the pack."""
    rng = rng_at(spec.seed, number, 1)
    deck = list(DECK)
    rng.shuffle(deck)
    n, size = spec.players, spec.dealt_size
    hands: list[list[Card]] = [[] for _ in range(n)]
    for i in range(size * n):
        hands[(dealer + 1 + i) % n].append(deck[i])
    rest = deck[size * n:]
    extra = (rest.pop(0),) if n == 3 else ()
    kept = tuple(choose_keep(tuple(hand), spec.hand_size, rng) for hand in hands)
    crib = tuple(c for p in range(n) for c in hands[p] if c not in kept[p]) + extra
    return RealDeal(number, dealer, tuple(tuple(h) for h in hands), kept, crib, rest[0])


def choose_keep(dealt: tuple[Card, ...], size: int, rng: random.Random) -> tuple[Card, ...]:
    """What a player keeps: mostly the cards whose fifteens, pairs and runs are worth most
    (a flush counted in, a jack liked a little for his nobs), sometimes any cards at all."""
    options = list(combinations(dealt, size))
    if rng.random() < 0.25:
        return rng.choice(options)

    def worth(keep: tuple[Card, ...]) -> float:
        flush = len(keep) if len({c.suit for c in keep}) == 1 else 0
        jacks = sum(0.25 for c in keep if c.rank is Rank.JACK)
        return rank_points(rank_key(int(c.rank) for c in keep)) + flush + jacks + rng.random()

    return max(options, key=worth)


def choose_play(held: tuple[Card, ...], pile: tuple[Card, ...], count: int,
                rng: random.Random) -> Card | None:
    """The card a player lays: one that fits under 31 (None: they say go), mostly the one
    that scores most now, sometimes any that fits."""
    fitting = [c for c in held if count + c.pips <= 31]
    if not fitting:
        return None
    if rng.random() < 0.3:
        return rng.choice(fitting)
    return max(fitting, key=lambda c: (score_play((*pile, c)).total, rng.random()))


def cut_cards(spec: GameSpec, attempt: int) -> tuple[Card, ...]:
    """The cards the players cut for the first deal (a fresh pack each attempt)."""
    rng = rng_at(spec.seed, attempt, 2)
    return tuple(rng.sample(DECK, spec.players))


def fact_points(cards: tuple[Card, ...], starter: Card, *, crib: bool) -> int:
    """What the suits alone are worth in a count: the flush and his nobs (a stand-in suit
    makes neither, so a hand entered without its facts counts exactly this much less)."""
    return sum(item.points for item in score_hand(cards, starter, crib=crib).items
               if item.kind in ("flush", "nobs"))


def fact_label(cards: tuple[Card, ...], starter: Card, *, crib: bool) -> str:
    """The app's name for the facts of ``cards`` ("+flush 4", "+nobs", "+flush 5 nobs",
    "plain"): what the show's GO must reach to count them."""
    flush = next((len(item.cards) for item in score_hand(cards, starter, crib=crib).items
                  if item.kind == "flush"), 0)
    nobs = any(c.rank is Rank.JACK and c.suit is starter.suit for c in cards)
    words = [f"flush {flush}"] if flush else []
    if nobs:
        words.append("nobs")
    return "+" + " ".join(words) if words else "plain"


@dataclass(frozen=True, slots=True)
class Want:
    """The suit fact a card must be entered with on the wheel: part of a flush, his nobs,
    and (a hand's last card of a flush) whether the flush takes in the starter."""

    flush: bool = False
    nobs: bool = False
    five: bool | None = None

    @property
    def plain(self) -> bool:
        """No fact at all: the rank's first place on the wheel."""
        return not (self.flush or self.nobs)


def want_in_hand(card: Card, entered: tuple[Card, ...], hand: tuple[Card, ...],
                 starter: Card) -> Want:
    """The fact of ``card`` in a hand whose ``entered`` cards are already on the wheel.

    The wheel's flush follows the suit of the hand's cards so far, so the first card is
    entered plain (or as his nobs) and every later card of a flush hand as "flush"; the last
    says whether the starter is of the flush's suit ("flush 5") or not ("flush 4")."""
    suits = {c.suit for c in hand}
    flush_suit: Suit | None = hand[0].suit if len(suits) == 1 else None
    nobs = card.rank is Rank.JACK and card.suit is starter.suit
    if flush_suit is None or not entered:
        return Want(nobs=nobs)
    last = len(entered) == len(hand) - 1
    return Want(flush=True, nobs=nobs, five=(flush_suit is starter.suit) if last else None)


def want_in_crib(card: Card, crib: tuple[Card, ...], starter: Card) -> Want:
    """The fact of ``card`` in the crib: a crib flush needs the starter's suit throughout,
    so each of its cards is "flush" (the jack "nobs"); otherwise only the jack of the
    starter's suit is "nobs"."""
    flush = all(c.suit is starter.suit for c in crib)
    nobs = card.rank is Rank.JACK and card.suit is starter.suit
    return Want(flush=flush, nobs=nobs)


FLUSH_LENGTH = {SuitFact.FLUSH_OF_THREE: 3, SuitFact.FLUSH_OF_FOUR: 4, SuitFact.FLUSH_OF_FIVE: 5}


def facts_fit(facts: tuple[SuitFact, ...], want: Want, *, crib: bool, size: int = 4) -> bool:
    """Do the suit facts the wheel shows on a card (``()`` or ``(PLAIN,)``: none; ``(NOBS,
    FLUSH_OF_FIVE)``) enter the wanted fact? ``size`` is a hand's cards (a whole flush one
    longer takes in the starter).

    In the crib the starter's suit is both the flush and the nobs, so any fact means
    the starter's suit."""
    nobs = SuitFact.NOBS in facts
    flush = any(fact not in (SuitFact.PLAIN, SuitFact.NOBS) for fact in facts)
    if crib:
        return (flush or nobs) == (want.flush or want.nobs)
    if (flush, nobs) != (want.flush, want.nobs):
        return False
    whole = [FLUSH_LENGTH[fact] for fact in facts if fact in FLUSH_LENGTH]
    if whole and want.five is not None:
        return (whole[0] > size) == want.five
    return True


def rank_label(rank: Rank) -> str:
    """A rank as the wheel writes it: ``A 2 .. 9 10 J Q K``."""
    return "10" if rank is Rank.TEN else rank.symbol


def label_rank(label: str) -> Rank | None:
    """The rank a wheel label starts with (None for anything else)."""
    head = label.split(" ", 1)[0] if label else ""
    for rank in Rank:
        if head == rank_label(rank):
            return rank
    return None
