"""The smart card picker: which cards to offer, in what order, and when a suit matters.

Every card at the table is entered, so the picker is built to need as few actions as possible:

* It offers only what can happen: in the play, ranks that fit under 31 with a card of that
  rank not yet seen this deal; elsewhere, ranks with an unseen card left.
* Every wheel is in rank order A..K and keeps that order, so a card is always where the
  player last saw it. In the play the wheel starts on the most likely card: a rank that would
  score now (a pair, fifteen, thirty-one, a run), best first, because players take points
  when they can. The crib wheel starts on the 4 (:data:`CRIB_START_RANK`) and then stays
  where the last card was picked, so entering the crib in rank order costs little.
* Suits change a score only through a flush or his nobs, so the picker never asks for a plain
  suit. A rank appears once on the wheel, entered with a stand-in suit chosen so that it makes
  no flush and no nobs. When a suit fact could score, holding OK (or the rank key) on that rank
  switches to it (:class:`~pegboard.app.suit_facts.SuitFact`): "J, with nobs" (the jack of the
  starter's suit) first, as the likelier, then "7, in the flush" (the same suit as this hand's
  other cards so far, or for the crib, as the starter's), and on a hand's last card "7, flush
  of four" or "7, flush of five" (also the starter's suit). Stand-ins are always cards
  not yet seen, so the engine checks the deal exactly as if every suit had been named; when a
  fact chosen later shows what earlier stand-ins must have been, they are re-suited.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

from pegboard.app.suit_facts import FLUSH_OF, SuitFact
from pegboard.rules.cards import Card, Rank, Suit
from pegboard.rules.pegging import score_play
from pegboard.rules.value import Value

SUITS: tuple[Suit, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
RANKS: tuple[Rank, ...] = tuple(Rank)
START_RANK = Rank.SIX
"""Where a wheel with no better guess starts: the middle, and the first card of the 6-9 group,
so that either way is short and GO reaches the ten-cards and the low cards in one or two."""
CRIB_START_RANK = Rank.FOUR
"""Where the crib's wheel starts for its first card: its four cards are entered in any order,
and from the 4 the way round them all is shortest on average (the A-5 group a detent or two
either way, the rest a sweep up with GO's jumps)."""
GUESS_FLOOR = 0.2
"""A rank less likely than this (by its weight) is not put first as a scoring guess: in
practice a rank the player could not hold, having said go when it would have fitted."""


class WheelChoice(Value):
    """One entry of the wheel: its label (the card as the wheel shows it), the card it enters
    and the suit facts that card makes (empty for a plain card or a card named whole).

    ``swaps`` re-suits stand-ins entered earlier in the same hand (old card, new card) so that
    a suit fact chosen now holds for the whole hand: a flush that turns out to match the
    starter, for example."""

    __slots__ = ("card", "facts", "label", "plain", "swaps")
    __match_args__ = ("label", "card", "plain", "swaps", "facts")

    label: str
    card: Card
    plain: bool
    swaps: tuple[tuple[Card, Card], ...]
    facts: tuple[SuitFact, ...]

    def __init__(
        self,
        label: str,
        card: Card,
        plain: bool = True,
        swaps: tuple[tuple[Card, Card], ...] = (),
        facts: tuple[SuitFact, ...] = (),
    ) -> None:
        setter = object.__setattr__
        setter(self, "label", label)
        setter(self, "card", card)
        setter(self, "plain", plain)
        setter(self, "swaps", swaps)
        setter(self, "facts", facts)

    @property
    def rank(self) -> Rank:
        """The option's rank (what a keypad rank key selects)."""
        return self.card.rank


def rank_label(rank: Rank) -> str:
    """How a rank is shown on the wheel: ``A 2 .. 9 10 J Q K``."""
    return "10" if rank is Rank.TEN else rank.symbol


def suit_options(
    rank: Rank,
    seen: Collection[Card],
    *,
    starter: Card | None,
    group: Sequence[Card] = (),
    crib: bool = False,
    last: bool = False,
    allowed: Collection[Card] | None = None,
    avoid: Collection[Suit] = (),
    entered: Callable[[Card], bool] | None = None,
) -> list[WheelChoice]:
    """The entries for one rank: the plain card first, then each suit fact that can score.

    ``group`` is the cards already in the same hand (or crib) and ``last`` says this card
    completes a hand; ``allowed`` limits the cards to a known set (a player's dealt cards);
    ``avoid`` are suits other hands may still need for a flush, so stand-ins take them last.
    A known card is shown with its suit only where ``entered`` says a player entered that
    suit (by default every known card's was): a card known by its rank alone (laid by its
    rank, then taken back after a renege) is shown by its rank, once however many such
    cards of the rank there are, since nothing tells them apart.
    """
    available = [
        Card(rank, suit) for suit in SUITS
        if Card(rank, suit) not in seen and (allowed is None or Card(rank, suit) in allowed)
    ]
    if not available:
        return []
    if allowed is not None:
        # Known cards: each named with the suit a player entered, or by its rank alone.
        named = [card for card in available if entered is None or entered(card)]
        by_rank = [card for card in available if card not in named][:1]
        return [WheelChoice(card.pretty if card in named else rank_label(rank), card,
                            plain=False) for card in available if card in named + by_rank]
    starter_suit = starter.suit if starter is not None else None
    common = _flush_suit(group, starter_suit, crib=crib)

    def fact(card: Card) -> tuple[bool, bool]:
        flush = common is not None and card.suit is common
        nobs = rank is Rank.JACK and starter_suit is not None and card.suit is starter_suit
        return flush, nobs

    # Stand-ins avoid the starter's suit where they can (so that a later "flush" of this hand
    # is a four-card flush, the common case, and the crib and nobs keep their cards), and the
    # suits other hands are following, which they may need for their own flush.
    available.sort(key=lambda c: (
        (c.suit is starter_suit) + (c.suit in avoid), SUITS.index(c.suit),
    ))
    by_fact: dict[tuple[bool, bool], WheelChoice] = {}
    for card in available:
        by_fact.setdefault(fact(card), WheelChoice("", card))
    # A hand following a suit other than the starter's may really be following the starter's
    # suit: offer that too (nobs with the flush, or a five-card flush), re-suiting its cards.
    if (
        not crib and common is not None and starter_suit is not None
        and common is not starter_suit and (last or rank is Rank.JACK)
    ):
        target = Card(rank, starter_suit)
        moved = tuple((c, Card(c.rank, starter_suit)) for c in group)
        if target not in seen and all(new not in seen for _, new in moved):
            key = (True, rank is Rank.JACK)
            by_fact[(key[0], key[1]) if key[1] else (True, True)] = WheelChoice(
                "", target, swaps=moved)
    options: list[WheelChoice] = []
    # His nobs before a flush: a jack of the starter's suit (one chance in four) is far
    # likelier than a hand all of one suit, so the first hold on a jack is nobs.
    for key in ((False, False), (False, True), (True, False), (True, True)):
        option = by_fact.get(key)
        if option is not None:
            facts = _facts(option.card, key, crib=crib, last=last, size=len(group) + 1,
                           starter_suit=starter_suit)
            options.append(WheelChoice(rank_label(rank), option.card, plain=not options,
                                       swaps=option.swaps, facts=facts))
    return options


def _flush_suit(group: Sequence[Card], starter_suit: Suit | None, *, crib: bool) -> Suit | None:
    """The suit a card must have to keep a flush going: the crib's is the starter's (a crib
    flushes only with it), a hand's the one suit of its cards so far; None when none can."""
    if crib:
        if starter_suit is not None and all(c.suit is starter_suit for c in group):
            return starter_suit
        return None
    if group and len({c.suit for c in group}) == 1:
        return group[0].suit
    return None


def _facts(card: Card, key: tuple[bool, bool], *, crib: bool, last: bool, size: int,
           starter_suit: Suit | None) -> tuple[SuitFact, ...]:
    """The suit facts a card makes: his nobs, a flush going, or on a hand's last card (its
    ``size``-th) the whole flush, one longer with the starter's suit."""
    flush, nobs = key
    facts: list[SuitFact] = []
    if nobs and card.rank is Rank.JACK:
        facts.append(SuitFact.NOBS)
    if flush and not (crib and nobs):  # in the crib the starter's suit is the flush
        five = card.suit is starter_suit
        facts.append(FLUSH_OF.get(size + five, SuitFact.IN_FLUSH) if last
                     else SuitFact.IN_FLUSH)
    return tuple(facts)


Slot = list[WheelChoice]
"""One place on the wheel: a rank's plain entry first, then its suit facts (chosen by hold)."""


def slots_of(options: list[WheelChoice]) -> list[Slot]:
    """Wheel places for one rank's options: one place, or one per card for known cards."""
    if not options:
        return []
    if all(not o.plain for o in options):
        return [[o] for o in options]
    return [options]


def play_order(
    pile: Sequence[Card], ranks: Sequence[Rank], weights: Mapping[Rank, float] | None = None,
    *, held: int = 4,
) -> tuple[list[Rank], int]:
    """Wheel order for the play and the start index.

    The order is always A..K (the ranks that can be laid), so a player finds every card where
    they found it last time, the 10 among the ten-cards. The wheel starts where the fewest
    moves are expected (detents, and a held GO's jump back a group: :func:`wheel_moves`): a
    player holding ``held`` cards is taken to lay the best-scoring rank they hold (players
    take points when they can), each rank held with a chance that grows with its copies still
    unseen (``weights``: the share of each rank's copies unseen, by default all). A rank
    weighted below ``GUESS_FLOOR`` counts as not held (a player who said go at this count
    cannot hold it).

    >>> from pegboard.rules.cards import parse_cards
    >>> order, start = play_order(parse_cards("5H"), list(Rank))
    >>> [r.symbol for r in order[:3]], order[start].symbol
    (['A', '2', '3'], 'J')
    """
    weight = {r: 1.0 for r in ranks} if weights is None else dict(weights)
    order = sorted(ranks)
    if not order:
        return order, 0
    likely = _play_chances(pile, order, weight, held)
    n = len(order)
    neighbours = _neighbours(order, ahead=not pile)  # the same wheel from every start

    def cost(s: int) -> tuple[float, float]:
        # Expected moves, held GO counted; of equal starts, the one fewest detents away.
        moves = _moves(neighbours, s)
        return (round(sum(likely[r] * moves[i] for i, r in enumerate(order)), 9),
                sum(likely[r] * min((i - s) % n, (s - i) % n) for i, r in enumerate(order)))

    return order, min(range(n), key=cost)


def wheel_moves(ranks: Sequence[Rank], start: int, *, ahead: bool = False) -> list[int]:
    """The fewest moves from ``start`` to each place of the play's wheel showing ``ranks``:
    a detent either way round, or a held GO back to the first card of the group before, and
    with ``ahead`` GO on to the first of the next (in the play GO says go, but for a lead).

    >>> wheel_moves(list(Rank), 5)  # from the 6: the ace one held GO away, the 10 two
    [1, 2, 3, 2, 1, 0, 1, 2, 3, 2, 3, 3, 2]
    """
    return _moves(_neighbours(ranks, ahead=ahead), start)


def _neighbours(ranks: Sequence[Rank], *, ahead: bool) -> list[tuple[int, ...]]:
    """Each place of the play's wheel and the places one move takes it to: a detent either
    way, a held GO back, and with ``ahead`` GO on."""
    n = len(ranks)
    return [((here + 1) % n, (here - 1) % n, jump_back_index(ranks, here),
             *((jump_index(ranks, here),) if ahead else ())) for here in range(n)]


def _moves(neighbours: Sequence[tuple[int, ...]], start: int) -> list[int]:
    """The fewest moves from ``start`` to each place, one move to each of its
    ``neighbours`` (breadth first)."""
    moves = {start: 0}
    queue = [start]
    for here in queue:
        for there in neighbours[here]:
            if there not in moves:
                moves[there] = moves[here] + 1
                queue.append(there)
    return [moves[i] for i in range(len(neighbours))]


def _play_chances(pile: Sequence[Card], order: Sequence[Rank], weight: Mapping[Rank, float],
                  held: int) -> dict[Rank, float]:
    """How likely each rank is to be laid next by a player who takes the most points."""
    copies = {r: 4 * weight.get(r, 1.0) if weight.get(r, 1.0) >= GUESS_FLOOR else 0.0
              for r in order}
    unseen = sum(copies.values()) or 1.0
    hold = {r: 1 - (1 - min(1.0, copies[r] / unseen)) ** max(1, held) for r in order}
    points = {r: score_play((*pile, Card(r, _other_suit(pile, r)))).total for r in order}
    chance: dict[Rank, float] = {}
    none_better = 1.0
    for value in sorted({p for p in points.values() if p > 0}, reverse=True):
        tier = [r for r in order if points[r] == value]
        for r in tier:
            chance[r] = none_better * hold[r]
        for r in tier:
            none_better *= 1 - hold[r]
    rest = [r for r in order if points[r] == 0]
    spread = sum(hold[r] for r in rest) or 1.0
    for r in rest:
        chance[r] = none_better * hold[r] / spread
    return chance


def natural_order(ranks: Sequence[Rank], anchor: Rank | None) -> tuple[list[Rank], int]:
    """Wheel order A..K starting at ``anchor`` (or the nearest rank above it)."""
    order = sorted(ranks)
    return order, _start_index(order, anchor if anchor is not None else START_RANK)


GROUPS: tuple[Rank, ...] = (Rank.ACE, Rank.SIX, Rank.TEN)
"""Where the groups that GO jumps between begin: A-5, 6-9 and the ten-cards 10-K."""


def group_of(rank: Rank) -> int:
    """Which jump group ``rank`` is in: 0 for A-5, 1 for 6-9, 2 for 10-K."""
    return _GROUP_OF[rank]


_GROUP_OF = {rank: sum(1 for first in GROUPS[1:] if rank >= first) for rank in Rank}
"""Each rank's jump group, worked out once: the wheels ask it for every place from every
start."""


def jump_back_index(ranks: Sequence[Rank], index: int) -> int:
    """Where a held GO takes the table's wheel showing ``ranks`` from ``index`` (GO, where it
    jumps, goes ahead): the first place of the group before, going round from A-5 to 10-K.

    >>> wheel = list(Rank)
    >>> [wheel[jump_back_index(wheel, i)].symbol for i in (0, 4, 5, 9, 12)]
    ['T', 'T', 'A', '6', '6']
    """
    if not ranks:
        return 0
    here = group_of(ranks[index % len(ranks)])
    for step in range(1, len(GROUPS) + 1):
        wanted = (here - step) % len(GROUPS)
        for i, rank in enumerate(ranks):
            if group_of(rank) == wanted:
                return i
    return index % len(ranks)


def jump_index(ranks: Sequence[Rank], index: int) -> int:
    """Where GO takes a wheel showing ``ranks`` (in A..K order) from ``index``: the first
    place of the next group that has a card on the wheel, going round from 10-K to A-5.

    >>> wheel = list(Rank)
    >>> [wheel[jump_index(wheel, i)].symbol for i in (0, 4, 5, 9, 12)]
    ['6', '6', 'T', 'A', 'A']
    >>> jump_index([Rank.TWO, Rank.THREE], 0)
    0
    """
    if not ranks:
        return 0
    here = group_of(ranks[index % len(ranks)])
    for step in range(1, len(GROUPS) + 1):
        wanted = (here + step) % len(GROUPS)
        for i, rank in enumerate(ranks):
            if group_of(rank) == wanted:
                return i
    return index % len(ranks)


def _start_index(order: Sequence[Rank], anchor: Rank) -> int:
    for index, rank in enumerate(order):
        if rank >= anchor:
            return index
    return 0


def _other_suit(pile: Sequence[Card], rank: Rank) -> Suit:
    # score_play looks at ranks only; any suit not already used by this rank will do.
    used = {c.suit for c in pile if c.rank is rank}
    return next(s for s in SUITS if s not in used) if len(used) < 4 else SUITS[0]
