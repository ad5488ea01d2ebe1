"""The show: hands in order (pone first, clockwise, dealer last), then the crib.

Hands whose cards were all laid in the play are counted by the engine itself the moment the
play ends; other hands come as ``show`` entries, in show order. Once a hand is known, every go
its owner said is checked for a renege (ACC 7.3), which is reported; only a ``penalty`` entry
applies it (:mod:`pegboard.rules.renege`).
"""

from __future__ import annotations

from functools import partial

from pegboard.errors import RuleError
from pegboard.rules.cards import Card, EnteredCard, Suit
from pegboard.rules.events import Crib, Show, StarterSuit
from pegboard.rules.facts import Counted, Fact, ShowStep
from pegboard.rules.renege import check_reneges
from pegboard.rules.scoring import Breakdown, ScoreItem
from pegboard.rules.show import score_hand
from pegboard.rules.speech import CountWords
from pegboard.rules.state import Award, Phase, Reason, SuitQuestion
from pegboard.rules.table import Act, Part, Table, distinct, phase_message


def advance_show(t: Table, out: list[Award]) -> None:
    """Count every hand that is known, in show order, until one must be shown or all are."""
    order = t.show_order()
    while t.show_index < len(order) and t.winner is None:
        player = order[t.show_index]
        hand = t.hand(player)
        if hand is None:
            t.to_act = player
            return
        if _ask_suit(t, player, hand, crib=False):
            return
        t.show_index += 1
        _count_hand(t, player, hand, out)
    if t.winner is None:
        t.phase = Phase.CRIB
        t.to_act = t.dealer
        crib = t.crib_known()
        if crib is not None:  # every crib card was laid away by name: nothing to enter
            _count_crib(t, crib, out)


def stand_in_scores_nothing(
    t: Table, cards: tuple[Card, ...], breakdown: Breakdown, *, crib: bool
) -> Breakdown:
    """A starter entered by rank alone has a stand-in suit, which never scores with cards
    named with their suits (the dealt cards entered): no nobs for such a jack, and a flush of
    such cards is a hand's flush without the starter (none in the crib; from record version
    4 no crib flush at all once one of its cards was named). Cards whose suits are stand-ins
    too follow the suit facts the players chose, the starter's included."""
    if t.starter_suit_known:
        return breakdown
    named = named_cards(t)
    items: list[ScoreItem] = []
    for item in breakdown.items:
        if item.kind == "nobs" and item.cards[0] in named:
            continue
        if item.kind == "flush" and crib and t.version >= 4 and any(c in named for c in cards):
            continue  # a crib flush needs the starter's suit, which nobody entered
        if item.kind == "flush" and all(card in named for card in cards):
            if crib:
                continue
            item = ScoreItem("flush", cards, len(cards))
        items.append(item)
    return Breakdown(tuple(items))


SUITS: tuple[Suit, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)


def named_cards(t: Table) -> set[Card]:
    """The cards named with their suits this deal: the dealt hands entered, and the cards
    laid with their suits named (``Play.named``)."""
    return {card for dealt in t.dealt if dealt is not None for card in dealt} | t.named_laid


def counted(t: Table, cards: tuple[Card, ...], *, crib: bool,
            suit: Suit | None = None) -> Breakdown:
    """What ``cards`` score with the starter as the table knows it (``suit``: the starter's
    suit entered, when it was asked; else the one named at the cut, if any).

    A starter named with its suit scores as dealt. Entered by rank alone, the engine counts
    with a suit of its own choosing: cards entered by rank alone take their suits from the
    facts the players chose (a "J nobs" is the jack of that suit), while cards named with
    their suits score with the starter's real suit once it is entered, and never with the
    made-up one (:func:`stand_in_scores_nothing`)."""
    assert t.starter is not None
    base = score_hand(cards, t.starter, crib=crib)
    if t.starter_suit_known:
        return base
    real = suit if suit is not None else t.starter_suit
    named = named_cards(t)
    if not any(card in named for card in cards):
        return base
    if real is None and t.version >= 7:
        # Not asked: every suit the starter may have gives this count (record version 7).
        real = next(iter(starter_suits(t)), None)
    if real is None:
        return stand_in_scores_nothing(t, cards, base, crib=crib)
    starter = Card(t.starter.rank, real)
    told = score_hand(_off(cards, starter, named), starter, crib=crib)
    # A jack entered by rank alone keeps the nobs its player chose (the made-up suit's).
    items = [item for item in told.items if item.kind != "nobs" or item.cards[0] in named]
    items += [item for item in base.items if item.kind == "nobs" and item.cards[0] not in named]
    return Breakdown(tuple(items))


def _off(cards: tuple[Card, ...], starter: Card, named: set[Card]) -> tuple[Card, ...]:
    """``cards`` with a card entered by rank alone that is ``starter`` counted in another
    suit of its rank: a stand-in's suit is no fact, so a starter's suit named later may be
    the one a stand-in was given, and the stand-in gives way (it scores nothing with named
    cards in any suit). A card named with its suit never moves."""
    if starter not in cards or starter in named:
        return cards
    free = next(Card(starter.rank, suit) for suit in SUITS
                if Card(starter.rank, suit) not in cards and Card(starter.rank, suit) != starter)
    return tuple(free if card == starter else card for card in cards)


def starter_suits(t: Table) -> tuple[Suit, ...]:
    """The suits the starter may have: those whose card of its rank no player was dealt."""
    assert t.starter is not None
    named = named_cards(t)
    return tuple(suit for suit in SUITS if Card(t.starter.rank, suit) not in named)


def suit_question(t: Table, player: int, cards: tuple[Card, ...], *,
                  crib: bool) -> SuitQuestion | None:
    """The starter's suit, when counting ``cards`` needs it (record version 7): the starter
    was entered by rank alone and the count differs between the suits it may have (a jack
    named with its suit makes his nobs with one, named cards of one suit a flush with it)."""
    if (t.version < 7 or t.starter is None or t.starter_suit_known
            or t.starter_suit is not None):
        return None
    if not any(card in named_cards(t) for card in cards):
        return None
    suits = starter_suits(t)
    counts = [counted(t, cards, crib=crib, suit=suit) for suit in suits]
    if len({count.total for count in counts}) < 2:
        return None
    # What the suit decides: a kind of score some suits give and others do not.
    kinds = [{item.kind: item.points for item in count.items if item.kind in _DECIDED}
             for count in counts]
    makes = tuple(kind for kind in _DECIDED if len({found.get(kind) for found in kinds}) > 1)
    return SuitQuestion(player, crib, suits, t.starter.rank, makes)


_DECIDED = ("nobs", "flush")
"""The kinds of score a starter's suit decides, in the order a question names them."""


def _ask_suit(t: Table, player: int, cards: tuple[Card, ...], *, crib: bool) -> bool:
    """Stop before a count that needs the starter's suit, asking it; True when asked."""
    question = suit_question(t, player, cards, crib=crib)
    if question is None:
        return False
    t.asked = question
    t.to_act = player
    return True


def apply_starter_suit(t: Table, event: StarterSuit, out: list[Award]) -> None:
    """The starter's suit, named when a count asked for it: the count waiting is made with
    it, and so is every later count of the deal."""
    question = t.asked
    if question is None:
        if t.starter is not None and not t.starter_suit_known and t.starter_suit is None:
            raise RuleError("the starter's suit is entered when a count needs it, and no "
                            "count needs it now")
        raise RuleError("the starter's suit is not asked: it was named with the starter "
                        "or already entered")
    if event.suit not in question.suits:
        assert t.starter is not None
        card = Card(t.starter.rank, event.suit)
        owner = next((p for p, dealt in enumerate(t.dealt) if dealt is not None
                      and card in dealt), None)
        if owner is None:  # laid in the play with its suit named (``Play.named``)
            raise RuleError(f"the starter cannot be {card.pretty}: that card was laid in "
                            "the play, its suit named")
        raise RuleError(f"the starter cannot be {card.pretty}: that card was dealt to "
                        f"{t.name(owner)}")
    t.starter_suit = event.suit
    t.asked = None
    if question.crib:
        _crib_counted(t, out)
        return
    player = question.player
    hand = t.hand(player)
    assert hand is not None
    t.show_index += 1
    _count_hand(t, player, hand, out)
    if t.winner is None:
        advance_show(t, out)


def _entered(t: Table, cards: tuple[Card, ...]) -> frozenset[Card]:
    """Which of a count's cards, and its starter, had their suits entered by a player: every
    card of a deal whose starter was named with its suit (cards entered whole, as the
    command line does), else the cards dealt by name and the starter's suit when named or
    asked (a named starter whose deal is entered by rank: ``Starter.by_rank``)."""
    assert t.starter is not None
    if t.starter_suit_known and t.cards_whole:
        return frozenset((*cards, t.starter))
    named = named_cards(t)
    known = {card for card in cards if card in named}
    starter = turned(t).card
    return frozenset(known | ({starter} if starter is not None else set()))


def turned(t: Table) -> EnteredCard:
    """The starter as entered: its suit only when named (at the cut, or when asked)."""
    assert t.starter is not None
    return EnteredCard(t.starter.rank, t.starter_suit)


def _count_hand(t: Table, player: int, hand: tuple[Card, ...], out: list[Award]) -> None:
    assert t.starter is not None
    breakdown = counted(t, hand, crib=False)
    laid = t.shown[player] is None
    entered = _entered(t, hand)
    t.note_later(partial(_show_step, player, Counted.HAND, hand, t.starter, t.starter_suit,
                         t.starter_suit_known, breakdown, laid, entered))
    words = CountWords(t.name(player), False, hand, breakdown, entered)
    part = Part(Reason.HAND, breakdown.total, words, breakdown.items, hand)
    act = Act(player, (part,))
    if t.rules.muggins or breakdown.total:
        t.peg(act, out)


def apply_show(t: Table, event: Show, out: list[Award]) -> None:
    """A hand shown in show order; counted at once, then any known hands after it."""
    player = event.player
    t.check_player(player)
    if t.phase is Phase.PLAY and not t.play_started:
        t.phase = Phase.SHOW  # the play was pegged by points, not entered card by card
        t.to_act = None
        advance_show(t, out)  # hands known from the cards laid away count first
    if t.phase is not Phase.SHOW:
        raise RuleError(phase_message(t, f"show {t.name(player)}'s hand"))
    order = t.show_order()
    expected = order[t.show_index]
    if player != expected:
        if t.hand(player) is not None and order.index(player) < t.show_index:
            raise RuleError(f"{t.name(player)}'s hand was already counted")
        raise RuleError(_show_turn_message(t, expected, player))
    cards = tuple(event.cards)
    _check_shown(t, player, cards)
    t.shown[player] = cards
    t.seen = t.seen | set(cards)
    check_reneges(t)
    if _ask_suit(t, player, cards, crib=False):
        return
    t.show_index += 1
    _count_hand(t, player, cards, out)
    if t.winner is None:
        advance_show(t, out)


def _check_shown(t: Table, player: int, cards: tuple[Card, ...]) -> None:
    """A hand shown is whole, holds no card twice, holds every card its player laid in the
    play, no card seen elsewhere this deal, and only cards dealt to the player (when known)."""
    if len(cards) != t.hand_size:
        raise RuleError(
            f"a hand has {t.hand_size} cards, got {len(cards)} for {t.name(player)}"
        )
    distinct(cards, f"{t.name(player)}'s hand")
    missing = [card for card in t.played[player] if card not in cards]
    if missing:
        raise RuleError(
            f"{t.name(player)} played {missing[0]} this deal, so it must be in the hand shown"
        )
    for card in cards:
        if card in t.seen and card not in t.played[player]:
            raise t.seen_refusal(card)
    known = t.dealt[player]
    if known is not None:
        for card in cards:
            if card not in known:
                raise RuleError(f"{card} was not dealt to {t.name(player)}")


def _show_turn_message(t: Table, expected: int, player: int) -> str:
    name = t.name(expected)
    if t.show_index == 0:
        return f"{name} counts first: {name} sits left of the dealer"
    if player == t.dealer:
        return f"{name} counts next: the dealer's hand is counted last, after everyone else's"
    return f"{name} counts next, before {t.name(player)}: hands are counted clockwise"


def apply_crib(t: Table, event: Crib, out: list[Award]) -> None:
    """The crib's four cards, counted for the dealer; the deal then passes left."""
    if t.phase is not Phase.CRIB:
        raise RuleError(phase_message(t, "count the crib"))
    cards = tuple(event.cards)
    if len(cards) != 4:
        raise RuleError(f"the crib has 4 cards, got {len(cards)}")
    distinct(cards, "the crib")
    for card in cards:
        if card in t.seen:
            raise t.seen_refusal(card)
    for p, away in enumerate(t.laid_away):
        missing = [card for card in away or () if card not in cards]
        if missing:
            raise RuleError(f"{t.name(p)} laid {missing[0]} away: it must be in the crib")
        kept = t.kept(p)
        held = [card for card in cards if kept is not None and card in kept]
        if held:
            raise RuleError(f"{held[0]} is in {t.name(p)}'s hand, not the crib")
    _count_crib(t, cards, out)


def _count_crib(t: Table, cards: tuple[Card, ...], out: list[Award]) -> None:
    """The crib counted for the dealer; the deal then passes left."""
    assert t.starter is not None and t.dealer is not None
    t.crib = cards
    t.seen = t.seen | set(cards)
    if _ask_suit(t, t.dealer, cards, crib=True):
        return
    _crib_counted(t, out)


def _show_step(player: int, what: Counted, cards: tuple[Card, ...], starter: Card,
               suit: Suit | None, suit_known: bool, breakdown: Breakdown, laid: bool,
               entered: frozenset[Card]) -> Fact:
    """The :class:`ShowStep` of a count (made when its entry's report is first read), from
    the starter as the table held it then: counted with its real suit once that was
    entered, and turned as entered (:func:`turned`)."""
    scored_with = starter if suit is None or suit_known else Card(starter.rank, suit)
    return ShowStep(player, what, cards, scored_with, breakdown, laid=laid,
                    turned=EnteredCard(starter.rank, suit), entered=entered)


def _crib_counted(t: Table, out: list[Award]) -> None:
    """The crib (already given) counted for the dealer; the deal then passes left."""
    assert t.starter is not None and t.dealer is not None and t.crib is not None
    cards = t.crib
    breakdown = counted(t, cards, crib=True)
    entered = _entered(t, cards)
    t.note_later(partial(_show_step, t.dealer, Counted.CRIB, cards, t.starter, t.starter_suit,
                         t.starter_suit_known, breakdown, False, entered))
    words = CountWords(t.name(t.dealer), True, cards, breakdown, entered)
    part = Part(Reason.CRIB, breakdown.total, words, breakdown.items, cards)
    dealer = t.dealer
    if t.rules.muggins or breakdown.total:
        t.peg(Act(dealer, (part,)), out)
    if t.winner is None:
        t.phase = Phase.DEAL
        t.to_act = t.next_dealer
