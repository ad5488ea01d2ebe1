"""The show: hands in order (pone first, clockwise, dealer last), then the crib.

Hands whose cards were all laid in the play are counted by the engine itself the moment the
play ends; other hands come as ``show`` entries, in show order. Once a hand is known, every go
its owner said is checked for a renege (ACC 7.3), which is reported; only a ``penalty`` entry
applies it (:mod:`pegboard.rules.renege`).
"""

from __future__ import annotations

from pegboard.errors import RuleError
from pegboard.rules.cards import Card
from pegboard.rules.events import Crib, Show
from pegboard.rules.facts import Counted, ShowStep
from pegboard.rules.renege import check_reneges
from pegboard.rules.scoring import Breakdown, ScoreItem
from pegboard.rules.show import score_hand
from pegboard.rules.speech import cards_text, say_breakdown
from pegboard.rules.state import Award, Phase, Reason
from pegboard.rules.table import Act, Part, Table, distinct, phase_message, where_seen


def advance_show(t: Table, out: list[Award]) -> None:
    """Count every hand that is known, in show order, until one must be shown or all are."""
    order = t.show_order()
    while t.show_index < len(order) and t.winner is None:
        player = order[t.show_index]
        hand = t.hand(player)
        if hand is None:
            t.to_act = player
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
    named = {card for dealt in t.dealt if dealt is not None for card in dealt}
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


def _said(t: Table, breakdown: Breakdown) -> str:
    """A count in words; a starter's stand-in suit is not shown as if it were real."""
    said = say_breakdown(breakdown)
    if t.starter_suit_known or t.starter is None:
        return said
    return said.replace(t.starter.pretty, f"{t.starter.pretty[:-1]}?")  # the rank alone


def _count_hand(t: Table, player: int, hand: tuple[Card, ...], out: list[Award]) -> None:
    assert t.starter is not None
    breakdown = stand_in_scores_nothing(t, hand, score_hand(hand, t.starter), crib=False)
    laid = t.shown[player] is None
    t.note(ShowStep(player, Counted.HAND, hand, t.starter, breakdown, laid=laid))
    part = Part(
        Reason.HAND, breakdown.total,
        f"hand {cards_text(hand)}: {_said(t, breakdown)}", breakdown.items, hand,
    )
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
    t.show_index += 1
    check_reneges(t)
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
            raise RuleError(f"{card} was already seen this deal ({where_seen(t, card)})")
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
            raise RuleError(f"{card} was already seen this deal ({where_seen(t, card)})")
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
    breakdown = stand_in_scores_nothing(
        t, cards, score_hand(cards, t.starter, crib=True), crib=True
    )
    t.note(ShowStep(t.dealer, Counted.CRIB, cards, t.starter, breakdown))
    part = Part(
        Reason.CRIB, breakdown.total,
        f"crib {cards_text(cards)}: {_said(t, breakdown)}", breakdown.items, cards,
    )
    dealer = t.dealer
    if t.rules.muggins or breakdown.total:
        t.peg(Act(dealer, (part,)), out)
    if t.winner is None:
        t.phase = Phase.DEAL
        t.to_act = t.next_dealer
