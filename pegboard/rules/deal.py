"""The cut, the deal, the dealt cards, the starter and new games (docs/rules.md, "The deal").

- The deal passes left every hand; the first dealer is named or cut for (lowest card deals).
- A jack turned as starter pegs 2 for the dealer at once ("his heels", ACC 6.3).
- A new hand is dealt once the crib is counted, or at any time when the hand was pegged by
  points (no card of a hand or the crib entered).
- After a game of a match the next dealer is named, cut for, alternates, or is the loser.
"""

from __future__ import annotations

from pegboard.errors import RuleError
from pegboard.rules.cards import Rank
from pegboard.rules.events import Cut, Deal, Dealt, LaidAway, NewGame, Starter
from pegboard.rules.state import Award, GameResult, Phase, Reason
from pegboard.rules.table import Act, Part, Table, distinct, phase_message, side_name


def apply_cut(t: Table, event: Cut) -> None:
    if t.phase is not Phase.CUT:
        raise RuleError("no cut is needed now: the dealer is already decided")
    cards = tuple(event.cards)
    if len(cards) != t.n:
        raise RuleError(f"a cut needs one card per player ({t.n}), got {len(cards)}")
    distinct(cards, "the cut")
    low = min(int(card.rank) for card in cards)
    lowest = [p for p, card in enumerate(cards) if int(card.rank) == low]
    if len(lowest) > 1:
        return  # a tie for lowest: cut again (still in the CUT phase)
    t.next_dealer = lowest[0]
    t.phase = Phase.DEAL
    t.to_act = lowest[0]


def apply_deal(t: Table, event: Deal, out: list[Award]) -> None:
    _require_hand_over(t)
    expected = t.next_dealer
    if event.dealer is not None:
        t.check_player(event.dealer)
        if expected is not None and event.dealer != expected:
            raise RuleError(
                f"{t.name(expected)} deals this hand, not {t.name(event.dealer)}: "
                + (
                    "the deal passes to the left every hand"
                    if t.deal_no > 0 else "that was decided by the cut or the last game"
                )
            )
        dealer = event.dealer
    elif expected is None:
        raise RuleError(
            "who deals? cut for the deal first (lowest card deals) or name the dealer"
        )
    else:
        dealer = expected
    if t.version < 5:
        t.pending_muggins = None  # earlier records: the deal shut the muggins window
    t.deal_no += 1
    t.dealer = dealer
    if t.first_dealer is None:
        t.first_dealer = dealer
    t.next_dealer = t.left_of(dealer)
    t._new_deal_state()
    t.deal_open = True
    t.phase = Phase.STARTER
    t.to_act = dealer
    if t.rules.five_card and not any(a.reason is Reason.THREE_FOR_LAST for a in t.awards):
        pone = t.left_of(dealer)
        t.peg(Act(pone, (Part(Reason.THREE_FOR_LAST, 3, "Three for last"),)), out, claimable=False)


def _require_hand_over(t: Table) -> None:
    """A new hand is dealt once the last one is over: its crib counted (docs/rules.md, "The
    deal"). A hand pegged by points, with no card of a hand or the crib entered, may end at any
    time: the next ``deal`` drops nothing (the starter may have been turned, for the heels)."""
    if t.phase in (Phase.CUT, Phase.DEAL):
        return
    entered = (
        t.play_started or any(t.dealt) or any(t.shown) or t.phase in (Phase.SHOW, Phase.CRIB)
    )
    if not entered:
        return  # quick mode: this hand was pegged by points
    if t.phase is Phase.STARTER:
        need = "cards were dealt to the players, so turn the starter and play this hand"
        message = f"cannot deal the next hand now: {need}"
    else:
        message = phase_message(t, "deal the next hand")
    raise RuleError(
        f"{message} (a new hand is dealt after the crib is counted; only a hand pegged by "
        "points, with no cards entered, may end early)"
    )


def apply_dealt(t: Table, event: Dealt) -> None:
    t.check_player(event.player)
    if t.phase is not Phase.STARTER:
        raise RuleError("the dealt cards are entered after the deal, before the starter")
    cards = tuple(event.cards)
    size = t.rules.dealt_size(t.n)
    if len(cards) != size:
        raise RuleError(f"each player is dealt {size} cards, got {len(cards)}")
    distinct(cards, "the dealt cards")
    for other, known in enumerate(t.dealt):
        if other != event.player and known is not None:
            clash = set(cards) & set(known)
            if clash:
                card = min(clash)
                raise RuleError(f"{card} was dealt to {t.name(other)} already")
    t.dealt[event.player] = cards


def apply_laid_away(t: Table, event: LaidAway) -> None:
    """Which of a player's dealt cards went to the crib (docs/rules.md, "The deal"): entered
    after their dealt cards, before the starter, once a deal. The rest is the hand they kept,
    known from here on (:meth:`Table.kept`)."""
    t.check_player(event.player)
    if t.phase is not Phase.STARTER:
        raise RuleError("the cards laid away are entered after the deal, before the starter")
    name = t.name(event.player)
    dealt = t.dealt[event.player]
    away = t.rules.dealt_size(t.n) - t.hand_size
    if dealt is None:
        raise RuleError(f"enter the cards dealt to {name} first: the cards laid away are "
                        "among them")
    earlier = t.laid_away[event.player]
    if earlier is not None:
        laid = " ".join(str(c) for c in earlier)
        raise RuleError(f"{name} laid {laid} away already (undo that entry to change it)")
    cards = tuple(event.cards)
    if len(cards) != away:
        raise RuleError(f"each player lays {away} card{'s' if away > 1 else ''} away to the "
                        f"crib, got {len(cards)}")
    distinct(cards, "the cards laid away")
    for card in cards:
        if card not in dealt:
            listed = " ".join(str(c) for c in dealt)
            raise RuleError(f"{card} was not dealt to {name} (dealt {listed})")
    t.laid_away[event.player] = cards


WHOLE_SAID = 8
"""The record version from which a named starter without ``by_rank`` says the deal's cards
were entered whole (the command line). An earlier record cannot say: the device wrote its
card wheel's suits for the cards it entered by rank without marking them until ``by_rank``
came, and the command line wrote whole cards alike. A careful director states no suit a
record cannot vouch for, so there every card but the dealt hands and the starter is shown by
its rank alone; the counts are made with the suits the record holds, as they were played."""
STARTER_SAID = 4
"""The record version from which a named starter's suit is the one a player entered: the
device marked a starter entered by rank alone (``suit_known: false``) during version 3, and
before that wrote its card wheel's suit for it, so a starter in an earlier record is shown by
its rank alone (and counts with the suit the record holds)."""


def apply_starter(t: Table, event: Starter, out: list[Award]) -> None:
    if t.phase is not Phase.STARTER:
        raise RuleError(phase_message(t, "turn the starter"))
    card = event.card
    for p, known in enumerate(t.dealt):
        if known is not None and card in known:
            raise RuleError(f"{card} was dealt to {t.name(p)}: it cannot be the starter")
    t.starter = card
    t.starter_suit_known = event.suit_known
    t.cards_whole = event.suit_known and not event.by_rank and t.version >= WHOLE_SAID
    t.starter_suit = card.suit if event.suit_known and t.version >= STARTER_SAID else None
    t.seen = frozenset({card})
    t.phase = Phase.PLAY
    assert t.dealer is not None
    t.to_act = t.left_of(t.dealer)
    if card.rank is Rank.JACK:
        dealer_side = t.side(t.dealer)
        blocked = t.rules.no_heels_last and (
            t.scores[dealer_side] > t.rules.target - t.rules.no_heels_last
        )
        if not blocked:
            shown = card.pretty if event.suit_known else "J, suit not entered"
            part = Part(Reason.HIS_HEELS, 2, f"Two for his heels ({shown})", cards=(card,))
            t.peg(Act(t.dealer, (part,)), out, claimable=False)


def apply_new_game(t: Table, event: NewGame) -> None:
    if t.phase is not Phase.GAME_OVER:
        raise RuleError("a new game starts only when this one is over")
    if t.match_winner is not None:
        raise RuleError(
            f"the match is over: {side_name(t, t.match_winner)} won it; start a new match"
        )
    assert t.result is not None
    last_first = t.first_dealer
    t.game_no += 1
    t.deal_no = 0
    t.scores = [0] * t.sides
    t.back_pegs = [0] * t.sides
    t.awards = ()
    t.winner = None
    t.result = None
    t.offers = ()
    t.take_backs = ()
    t.retracted = frozenset()
    t.first_dealer = None
    t.dealer = None
    t._new_deal_state()
    if event.dealer is not None:
        t.check_player(event.dealer)
        t.next_dealer = event.dealer
    elif t.rules.next_game_dealer == "cut":
        t.next_dealer = None
    elif t.rules.next_game_dealer == "alternate":
        assert last_first is not None
        t.next_dealer = t.left_of(last_first)
    else:
        t.next_dealer = _loser_seat(t, t.results[-1], last_first)
    t.phase = Phase.CUT if t.next_dealer is None else Phase.DEAL
    t.to_act = t.next_dealer


def _loser_seat(t: Table, result: GameResult, last_first: int | None) -> int:
    """Who deals first after a game: the loser (lowest score; first clockwise on a tie)."""
    start = last_first if last_first is not None else 0
    low = min(s for i, s in enumerate(result.scores) if i != result.winner)
    for k in range(t.n):
        seat = (start + k) % t.n
        side = t.side(seat)
        if side != result.winner and result.scores[side] == low:
            return seat
    return t.left_of(start)  # pragma: no cover - some seat always lost
