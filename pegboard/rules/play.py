"""The play (pegging): whose turn it is, go, 31, the reset, the last card (docs/rules.md).

The player left of the dealer leads and play goes clockwise; the count never passes 31. A player
who says go is out of that count; a player with no cards left is out. When everybody is out the
player who laid the last card pegs 1 ("go"); a card making 31 pegs 2 and ends the count at once
(never 3). The next count is led by the player left of the last card's player, skipping empty
hands. The very last card pegs 1 ("last card"), or 2 at 31. Five-card cribbage has one count.
"""

from __future__ import annotations

from functools import partial

from pegboard.errors import RuleError
from pegboard.rules.cards import Card, EnteredCard
from pegboard.rules.events import Go, Play
from pegboard.rules.facts import Fact, Laid, SaidGo
from pegboard.rules.pegging import laid_points
from pegboard.rules.renege import check_reneges
from pegboard.rules.scoring import Breakdown
from pegboard.rules.show_order import advance_show, named_cards
from pegboard.rules.speech import number, say_play
from pegboard.rules.state import Award, Phase, Reason, still_held
from pegboard.rules.table import Act, GoMark, Part, Table, phase_message

_REASON = {reason.value: reason for reason in Reason}
"""Each reason by its value: a scoring item's kind names the reason it is pegged for."""


def _require_turn(t: Table, player: int, card: Card | None) -> None:
    t.check_player(player)
    if t.phase is not Phase.PLAY:
        raise RuleError(phase_message(t, "say go" if card is None else f"play {card}"))
    if player != t.to_act:
        assert t.to_act is not None
        why = ""
        if player in t.said_go:
            why = f": {t.name(player)} said go and is out of this count"
        elif t.cards_left(player) == 0:
            why = f": {t.name(player)} has played all {t.hand_size} cards"
        raise RuleError(f"it is {t.name(t.to_act)}'s turn, not {t.name(player)}'s{why}")


def apply_play(t: Table, event: Play, out: list[Award]) -> None:
    """A card laid: checked (turn, unseen, fits under 31), scored, turn passed on."""
    player, card = event.player, event.card
    _require_turn(t, player, card)
    if card in t.seen:
        raise t.seen_refusal(card)
    known = t.dealt[player]
    if known is not None and card not in known:
        listed = " ".join(str(c) for c in known)
        raise RuleError(f"{card} was not dealt to {t.name(player)} (dealt {listed})")
    away = t.laid_away[player]
    if away is not None and card in away:
        raise RuleError(f"{t.name(player)} laid {card} away to the crib: it cannot be played")
    _require_from_known_hand(t, player, card)
    if t.count + card.pips > 31:
        room = 31 - t.count
        raise RuleError(
            f"count is {t.count}: {card} would make {t.count + card.pips} — play a card of "
            f"{number(room) if room > 1 else 'ace'}{' or less' if room > 1 else ''}, "
            "or say go"
        )
    t.play_started = True
    t.moves += 1
    if event.named and not t.suit_named(card):
        t.named_laid = t.named_laid | {card}
    t.pile = (*t.pile, card)
    t.count += card.pips
    t.played[player] = (*t.played[player], card)
    t.seen = t.seen | {card}
    t.last_player = player
    answer = _next_in(t, player, include_self=False)
    named = (t.starter_suit_known and t.cards_whole) or card in named_cards(t)
    # The answering player's cards, when every player sees them: the coach judged this card
    # with them, and the review judges it with the same.
    held = (still_held(t.hand(answer), t.played[answer])
            if answer is not None and t.options.hands_open else None)
    t.note_later(partial(_laid, player, card, t.count, t.pile,
                         0 if answer is None else t.cards_left(answer), named, held))
    # The pile is the cards laid since the count restarted, each checked unseen and to fit
    # under 31 as it was laid: scored without checking it again.
    breakdown = laid_points(t.pile, t.count)
    # Each item is its own award; the last one's sentence is the whole call for the card.
    # A card that scores nothing makes no act: it would peg nothing, and the go or last-card
    # point that may end the count is then an act of its own, as after any act of no parts.
    items = breakdown.items
    acts = [Act(player, tuple(
        Part(_REASON[item.kind], item.points, say_play(Breakdown(items[: i + 1]), t.count),
             (item,), item.cards)
        for i, item in enumerate(items)
    ))] if items else []
    # Every hand laid out: no seat has laid a number of cards other than a hand's (the
    # counts compared by map, as this runs for every card of a restored game).
    all_played = not any(map(t.hand_size.__ne__, map(len, t.played)))
    if t.count == 31:
        _end_count(t, acts, go_point=False, all_played=all_played)
    elif all_played:
        _end_count(t, acts, go_point=True, all_played=True)
    else:
        nxt = _next_in(t, player, include_self=True)
        if nxt is None:
            _end_count(t, acts, go_point=True, all_played=False)
        else:
            t.to_act = nxt
    _peg_acts(t, acts, out)


def _laid(player: int, card: Card, count: int, pile: tuple[Card, ...], answer_left: int,
          named: bool, answer_held: tuple[Card, ...] | None) -> Fact:
    """The fact of a card laid, a :class:`Laid` (made when its entry's report is first
    read)."""
    return Laid(player, card, count, pile, answer_left, EnteredCard.of(card, suit_known=named),
                answer_held)


def apply_go(t: Table, event: Go, out: list[Award]) -> None:
    """A go: the player is out of this count; when everybody is out the count ends."""
    player = event.player
    _require_turn(t, player, None)
    if t.count == 0:
        raise RuleError(
            f"the count is 0: every card fits, so {t.name(player)} must lead a card"
        )
    hand = t.known[player] or t.kept(player)
    if hand is not None:
        # The hand is known (a renege was taken back, or the cards laid away were entered):
        # a go is accepted only when true.
        fits = [c for c in hand if c not in t.played[player] and t.count + c.pips <= 31]
        if fits:
            raise t.held_refusal(
                player, f"{t.name(player)} holds ", fits,
                f", which fits at {t.count}: a card that fits must be played (a go now would "
                "be a renege, ACC 7.3)")
    t.play_started = True
    t.note(SaidGo(player, t.count))
    t.gos = (*t.gos, GoMark(player, t.count, len(t.played[player]), t.rewind_point()))
    t.moves += 1
    t.said_go = t.said_go | {player}
    nxt = _next_in(t, player, include_self=False)
    acts: list[Act] = []
    if nxt is None:
        _end_count(t, acts, go_point=True, all_played=False)
    else:
        t.to_act = nxt
    _peg_acts(t, acts, out)


def _require_from_known_hand(t: Table, player: int, card: Card) -> None:
    """After a renege's take-back the known hands are laid again, card for card. A refusal
    names each held card as entered: one laid by its rank alone by its rank (its suit is
    the card wheel's stand-in, no fact)."""
    if t.known.count(None) == len(t.known):
        return  # no renege was taken back this deal: no hand is known
    for seat, other in enumerate(t.known):
        if seat != player and other is not None and card in other:
            if t.suit_named(card):
                raise RuleError(f"{card} is in {t.name(seat)}'s hand (known since the renege)",
                                holder=seat)
            raise t.stand_in_refusal(card, f"in {t.name(seat)}'s hand, known since the renege",
                                     seat)
    hand = t.known[player]
    if hand is not None and card not in hand:
        raise t.held_refusal(
            player, f"{card} is not in {t.name(player)}'s hand: after the renege was taken back "
            f"{t.name(player)} holds ", (c for c in hand if c not in t.played[player]))


def _next_in(t: Table, player: int, *, include_self: bool) -> int | None:
    """The next seat clockwise still in this count (not said go, cards left)."""
    n, hand_size, played, said_go = t.n, t.hand_size, t.played, t.said_go
    for k in range(1, n + 1):
        seat = (player + k) % n
        if seat == player and not include_self:
            continue
        if seat not in said_go and len(played[seat]) < hand_size:  # cards left
            return seat
    return None


def _end_count(t: Table, acts: list[Act], *, go_point: bool, all_played: bool) -> None:
    """Close the count: the go (or last card) point, then reset or finish the play."""
    last = t.last_player
    assert last is not None
    if go_point:
        reason = Reason.LAST_CARD if all_played else Reason.GO
        if acts and acts[-1].player == last and acts[-1].parts:
            # The card that ends the count pegs its go or last-card point together with its
            # fifteens, pairs and runs ("fifteen two and one for last is three"): one act, so a
            # card that reaches the target scores all of it.
            prior = acts[-1].parts
            items = tuple(item for part in prior for item in part.items)
            call = say_play(Breakdown(items), t.count, closing=reason)
            acts[-1] = Act(last, (*prior, Part(reason, 1, call)))
        else:
            words = "One for last card" if all_played else "Go for one"
            acts.append(Act(last, (Part(reason, 1, words),)))
    t.count = 0
    t.pile = ()
    t.said_go = frozenset()
    t.last_player = None
    if all_played or t.rules.five_card:
        t.to_act = None
        t.phase = Phase.SHOW
        return
    leader = _next_with_cards(t, last)
    t.to_act = leader


def _next_with_cards(t: Table, player: int) -> int | None:
    for k in range(1, t.n + 1):
        seat = (player + k) % t.n
        if t.cards_left(seat) > 0:
            return seat
    return None


def _peg_acts(t: Table, acts: list[Act], out: list[Award]) -> None:
    if t.rules.muggins:
        # One entry's points are claimed together by their owner.
        merged: list[Act] = []
        for act in acts:
            if merged and merged[-1].player == act.player:
                merged[-1] = Act(act.player, merged[-1].parts + act.parts)
            else:
                merged.append(act)
        acts = merged
    for act in acts:
        t.peg(act, out)
    if t.winner is not None:
        # A card that won the game may have been the last of a hand that reneged: that hand
        # is known now, so its gos are checked (and the renege can still be claimed).
        check_reneges(t)
    elif t.phase is Phase.SHOW:
        check_reneges(t)
        advance_show(t, out)
