"""Suits after the fact: a flush or his nobs added (or taken off) once the hand is counted.

The card wheel enters a card's rank with a stand-in suit that makes no flush and no nobs;
a player who forgot to hold OK for "flush" or "nobs" says so on the count's page (or before
claiming it) with one press of GO. The entries of the deal that hold the hand's cards are then
taken back and entered again with the suits that make the fact true, so the engine counts
the hand exactly as if every suit had been named. Suits never change a pegging score, so
nothing else at the table moves. Cards whose suits were named (a dealt hand entered for
advice) are never changed.
"""

from __future__ import annotations

from collections.abc import Sequence, Set
from itertools import product

from pegboard.app import wheels
from pegboard.app.effects import Effect, Persist, PersistUndo
from pegboard.app.session import Session
from pegboard.app.state import AppState, Count
from pegboard.app.suit_facts import FLUSH_OF, SuitFact, suit_words
from pegboard.errors import PegboardError
from pegboard.rules.cards import DECK, Card, Rank, Suit
from pegboard.rules.events import Crib, Event, Play, Show, Starter, StarterSuit
from pegboard.rules.facts import Report
from pegboard.rules.scoring import ScoreItem
from pegboard.rules.state import GameState
from pegboard.rules.value import replace

SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
_CARD = {(card.rank, card.suit): card for card in DECK}
"""Each card by rank and suit (the deck's own, rather than a new one each time)."""

Fact = tuple[int, bool]
"""What the suits of a hand make: the flush's length (0 for none) and his nobs."""

Replayed = list[tuple[GameState, Report, GameState]]
"""Each re-entered entry with the table before it, its report, and the table after it."""


def fact_of(cards: tuple[Card, ...], starter: Card, *, crib: bool) -> Fact:
    """The flush and nobs ``cards`` make with ``starter`` (a crib flush needs the starter)."""
    suits = {c.suit for c in cards}
    flush = 0
    if len(suits) == 1:
        same = starter.suit in suits
        if same:
            flush = len(cards) + 1
        elif not crib:
            flush = len(cards)
    nobs = any(c.rank is Rank.JACK and c.suit is starter.suit for c in cards)
    return flush, nobs


def counted_fact(gs: GameState, cards: tuple[Card, ...], *, crib: bool) -> Fact:
    """The fact ``cards`` make with the starter as the table entered it. A starter entered by
    its rank alone counts with its stand-in suit, except with cards named with their suits
    (a dealt hand): of one suit the starter may have, they make a flush with it, which the
    engine then asks the starter's suit for (its stand-in never scores with them)."""
    starter = gs.starter
    assert starter is not None
    if not gs.starter_suit_known and gs.turned is not None:
        if gs.turned.suit is not None:  # asked, and answered
            starter = _CARD[starter.rank, gs.turned.suit]
        elif any(c in gs.suits_entered for c in cards):
            suits = {c.suit for c in cards}
            if len(suits) == 1 and _CARD[starter.rank, cards[0].suit] not in gs.named:
                starter = _CARD[starter.rank, cards[0].suit]
    return fact_of(cards, starter, crib=crib)


def choices(gs: GameState, count: Count) -> dict[Fact, dict[Card, Card]]:
    """Every fact the hand's suits could make, each as the change of cards that makes it with
    the fewest suits changed. Only cards entered by their ranks change: a card named with its
    suit (a dealt hand) keeps it, so a crib partly named and partly entered by rank may still
    be a flush. Another hand's stand-in holding a card the fact needs moves to a suit that
    changes nothing of its own hand. Empty when every suit of the hand is known."""
    if gs.starter is None:
        return {}
    known = gs.named
    if all(c in known for c in count.cards):
        return {}
    mine = set(count.cards)
    blocked = set(gs.seen - mine) | {gs.starter} | (known - mine)
    owners = {c: q for q, laid in enumerate(gs.played) for c in laid if q != count.player}
    best: dict[Fact, tuple[int, dict[Card, Card]]] = {}
    ways = [(c.suit,) if c in known else SUITS for c in count.cards]
    for suits in product(*ways):
        cards = tuple(_CARD[c.rank, s] for c, s in zip(count.cards, suits, strict=True))
        if len(set(cards)) < len(cards):
            continue
        change = {a: b for a, b in zip(count.cards, cards, strict=True) if a != b}
        fact = counted_fact(gs, cards, crib=count.crib)
        if fact in best and best[fact][0] <= len(change):
            continue  # moving other stand-ins only adds changes: this cannot make it fewer
        moves = _make_room(gs, cards, blocked, owners, known)
        if moves is None:
            continue
        change.update(moves)
        if fact not in best or len(change) < best[fact][0]:
            best[fact] = (len(change), change)
    return {fact: change for fact, (_, change) in best.items()}


def _make_room(gs: GameState, cards: tuple[Card, ...], blocked: Set[Card],
               owners: dict[Card, int], known: Set[Card]) -> dict[Card, Card] | None:
    """Moves of other hands' stand-ins off ``cards`` (None if a card is truly taken: the
    starter, a named card, a card whose suit makes its own hand's flush or nobs). ``owners``
    says whose stand-in each laid card is; ``known`` holds the cards named when dealt."""
    assert gs.starter is not None
    taken = [c for c in cards if c in blocked]
    if not taken:
        return {}
    used = set(blocked) | set(cards)
    moves: dict[Card, Card] = {}
    for card in taken:
        owner = owners.get(card)
        if owner is None or card in known or card == gs.starter:
            return None
        hand = gs.played[owner]
        before = fact_of(hand, gs.starter, crib=False) if len(hand) > 1 else (0, False)
        for suit in SUITS:
            new = _CARD[card.rank, suit]
            moved = tuple(new if c == card else moves.get(c, c) for c in hand)
            after = fact_of(moved, gs.starter, crib=False) if len(hand) > 1 else (0, False)
            if new not in used and after == before and not (
                    new.rank is Rank.JACK and new.suit is gs.starter.suit):
                moves[card] = new
                used.add(new)
                break
        else:
            return None
    return moves


def next_fact(gs: GameState, count: Count) -> tuple[Fact, dict[Card, Card]] | None:
    """What GO makes of the hand next: the following fact in the order nobs, flush, flush
    with nobs, back to neither (the likeliest forgotten first)."""
    options = choices(gs, count)
    if gs.starter is None or len(options) < 2:
        return None
    order = sorted(options, key=lambda f: (f[0] > 0, f[0], f[1]))
    current = counted_fact(gs, count.cards, crib=count.crib)
    at = order.index(current) if current in order else -1
    fact = order[(at + 1) % len(order)]
    return fact, options[fact]


def suit_facts(fact: Fact) -> tuple[SuitFact, ...]:
    """A count's suit fact as the typed facts every output words (never empty: a count
    with neither is plain)."""
    flush, nobs = fact
    facts = [SuitFact.NOBS] if nobs else []
    if flush:
        facts.append(FLUSH_OF.get(flush, SuitFact.IN_FLUSH))
    return tuple(facts) or (SuitFact.PLAIN,)


def fact_words(fact: Fact) -> str:
    """A suit fact in words: "plain", "with nobs", "flush of four", "with nobs, flush of
    five" (:func:`pegboard.app.suit_facts.suit_words`)."""
    return suit_words(suit_facts(fact))


def fact_in(items: Sequence[ScoreItem]) -> Fact:
    """The suit fact a count's items hold (the engine's count): its flush and his nobs."""
    flush = next((item.points for item in items if item.kind == "flush"), 0)
    return flush, any(item.kind == "nobs" for item in items)


def suit_lines(items: Sequence[ScoreItem], change: Fact | None) -> tuple[str, ...]:
    """What a count's suits make, and what GO would make them, in words, where GO can change
    them (cards entered by rank: the suits are what the players said): "suits: plain",
    "GO: with nobs". Nothing where the suits were named (they are the cards' own)."""
    if change is None:
        return ()
    return (f"suits: {fact_words(fact_in(items))}", f"GO: {fact_words(change)}")


def fact_label(fact: Fact) -> str:
    """What GO will do, for the key legend: "+nobs", "+flush 4", "plain"."""
    flush, nobs = fact
    words = [f"flush {flush}"] if flush else []
    if nobs:
        words.append("nobs")
    return "+" + " ".join(words) if words else "plain"


def rebuild(session: Session, change: dict[Card, Card],
            ) -> tuple[Session, list[Effect], Replayed] | None:
    """The deal's entries from the first that holds a changed card, taken back and entered
    again with the new cards (None if the engine refuses any of them)."""
    events = session.events
    start = wheels.last_starter(events)
    start = len(events) if start < 0 else start
    first = next((i for i in range(start, len(events)) if _mapped(events[i], change)
                  != events[i]), len(events))
    redo = [_mapped(e, change) for e in events[first:]]
    effects: list[Effect] = []
    replayed: Replayed = []
    rebuilt = session
    try:
        for _ in redo:
            effects.append(PersistUndo(rebuilt.report))
            rebuilt = rebuilt.undo()
        for event in redo:
            before = rebuilt.state
            rebuilt, report = rebuilt.apply(event)
            effects.append(Persist(event, rebuilt.report))
            replayed.append((before, report, rebuilt.state))
    except PegboardError:
        return None
    return rebuilt, effects, replayed


def make_way(session: Session, event: Event) -> tuple[Session, list[Effect]]:
    """Before a card's suit is named, a card entered by rank alone this deal that holds
    that suit as a stand-in (laid in the play, in the crib, held again after a renege's
    take-back, or the starter entered by its rank) moves to another suit of its rank that
    no card of the deal holds, keeping what its own hand's suits make where it can. The
    suit is named by the starter's suit a count asked for, or by a card laid with its suit
    named (``Play.named``: a phone's tap on its real card). A stand-in suit is never a fact,
    so the suit named is taken as said; the deal's entries are entered again with the
    stand-in moved (the session as it was when nothing needs to move, or no suit is free:
    the engine then refuses the entry, saying what is known)."""
    gs = session.state
    starter = gs.starter
    if starter is None:
        return session, []
    if isinstance(event, StarterSuit) and gs.asked is not None:
        card = _CARD[gs.asked.rank, event.suit]
        if card == starter:
            return session, []
    elif isinstance(event, Play) and event.named:
        card = event.card
    else:
        return session, []
    named = gs.named
    held = {c for hand in gs.hands for c in hand or ()}
    if card in named or (card not in gs.seen and card not in held):
        return session, []
    if card == starter and (gs.starter_suit_known or gs.turned is None
                            or gs.turned.suit is not None):
        return session, []  # the starter named: its suit is a fact
    taken = gs.seen | named | held | {starter, card}
    free = [_CARD[card.rank, suit] for suit in SUITS if _CARD[card.rank, suit] not in taken]
    hand = next((laid for laid in (*gs.hands, *gs.played) if laid and card in laid), None)
    crib = gs.crib or ()
    if card == starter:
        # The starter: a suit that makes no nobs and no flush with any hand laid that it
        # did not make before.
        laid = [cards for cards in gs.played if cards]
        free.sort(key=lambda new: sum(fact_of(cards, new, crib=False)
                                      != fact_of(cards, starter, crib=False)
                                      for cards in laid))
    elif card in crib:
        # A crib card: a suit the crib's other cards hold least, so that it makes no flush.
        free.sort(key=lambda new: sum(c.suit is new.suit for c in crib))
    elif hand is not None and len(hand) > 1:
        # A card laid in the play: its hand's flush and nobs stay as its player chose them.
        before = fact_of(hand, starter, crib=False)
        free.sort(key=lambda new: fact_of(tuple(new if c == card else c for c in hand),
                                          starter, crib=False) != before)
    for new in free:
        done = rebuild(session, {card: new})
        if done is not None:
            return done[0], done[1]
    return session, []


def swap_plays(state: AppState, change: dict[Card, Card]) -> tuple[AppState, tuple[Effect, ...]]:
    """Re-suit stand-ins laid earlier this deal (a suit fact chosen on a later card showed
    what they must have been)."""
    assert state.session is not None
    done = rebuild(state.session, change)
    if done is None:
        return state, ()
    session, effects, _ = done
    return replace(state, session=session), tuple(effects)


def _mapped(event: Event, change: dict[Card, Card]) -> Event:
    if isinstance(event, Play):
        return Play(event.player, change.get(event.card, event.card), event.named)
    if isinstance(event, Starter) and not event.suit_known:  # its suit a stand-in
        return Starter(change.get(event.card, event.card), False, event.by_rank)
    if isinstance(event, Show):
        return Show(event.player, tuple(change.get(c, c) for c in event.cards))
    if isinstance(event, Crib):
        return Crib(tuple(change.get(c, c) for c in event.cards))
    return event
