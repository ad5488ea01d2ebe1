"""A phone seat's own view of the game, and its taps read into the engine's entries.

:func:`seat_json` is what one seat's phone is sent: its cards (dealt, laid away, kept, still
held), what the table asks of it now, the cards it may lay, its sequence number, and its own
pegging hint on its turn. It is rendered from the engine's game for that seat alone and sent
only to the phone holding that seat; the shared facts (scores, count, whose turn, the last
award, the counts) come from the scoreboard's own stream, which names no private card.

:func:`read_action` turns a phone's request body into the entries it asks for, refusing with
a sentence anything that is not well formed; the engine then judges the entries themselves.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pegboard import lazy
from pegboard.app import open_hands
from pegboard.app.seat_entry import seat_seq
from pegboard.app.session import Session
from pegboard.errors import InvalidCardError, PegboardError
from pegboard.rules.cards import Card, EnteredCard, Suit
from pegboard.rules.events import (
    Claim,
    Deal,
    Dealt,
    Event,
    Go,
    LaidAway,
    Muggins,
    NewGame,
    Play,
    Starter,
    StarterSuit,
)
from pegboard.rules.facts import Counted, ShowStep
from pegboard.rules.game import Game
from pegboard.rules.state import GameState, Phase, Reason
from pegboard.web.follow import Entry
from pegboard.web.snapshot import entered, open_claim, show_json

if TYPE_CHECKING:
    from pegboard.coach import advice, hints, knowledge, lookahead, review
else:
    advice = lazy.module("pegboard.coach.advice")
    hints = lazy.module("pegboard.coach.hints")
    knowledge = lazy.module("pegboard.coach.knowledge")
    lookahead = lazy.module("pegboard.coach.lookahead")
    review = lazy.module("pegboard.coach.review")

__all__ = ["ActionError", "advice_json", "held_by_rank", "read_action", "seat_json"]

MAX_CARDS = 6
"""The most cards one request names (the six dealt)."""


class ActionError(PegboardError, ValueError):
    """A phone's request that is not a well-formed action (nothing is entered)."""


def helps(game: Game, seat: int) -> bool:
    """The table may help this seat with advice and a hint: not under the night's
    tournament lock, unless the seat is a guest's (docs/club.md)."""
    club = game.header.club
    return club is None or club.helps(seat)


def asks(gs: GameState, seat: int, waiting: Sequence[int] = ()) -> str:
    """What the table waits for from ``seat`` now: ``cards`` (its six and the two laid
    away), ``starter`` (the dealer, once the cards are in, and in an open-handed deal once
    every hand is in: ``waiting`` are the seats still to enter theirs), ``play`` (its turn:
    a card or go), ``suit`` (its count, or its crib's, waits for the starter's suit, entered by rank
    alone: asked on this phone and on the box alike, the first answer taken), ``claim`` (a
    muggins game: its score waits for its claim), else ``wait``."""
    if gs.asked is not None and gs.asked.player == seat:
        return "suit"
    if gs.pending_claims and gs.pending_claims[0].player == seat:
        return "claim"
    if gs.phase is Phase.STARTER:
        if gs.dealt[seat] is None:
            return "cards"
        if gs.dealer == seat and not waiting:
            return "starter"
    if gs.phase is Phase.PLAY and gs.to_act == seat:
        return "play"
    return "wait"


def fall_back(gs: GameState, seat: int, asked: str, waiting: Sequence[int]) -> str | None:
    """While the starter waits for phones' hands (``waiting``), how one is entered on the box
    instead (:func:`pegboard.app.open_hands.fall_back_words`): said to the phone asked for
    its cards, and to a phone that waits for another's; None otherwise."""
    if not waiting or asked not in ("cards", "wait") or (asked == "cards") != (seat in waiting):
        return None
    return open_hands.fall_back_words(gs, waiting, seat)


def wait_words(gs: GameState, seat: int, phones: Collection[int],
               waiting: Sequence[int] = ()) -> str | None:
    """What the table waits for while it asks nothing of ``seat``, and where it is entered
    (on a phone, or on the box), naming no card: whose hands the starter waits for, the
    dealer's starter, the next card of the play, a claim, the starter's suit a count needs
    (None: none of these; the page then shows the table's own line, what it does next)."""
    def where(other: int) -> str:
        return "on their phone" if other in phones else "on the box"

    if gs.phase is Phase.GAME_OVER:
        return "The game is over."
    if waiting:
        return open_hands.waiting_words(gs, waiting, phones)
    if gs.asked is not None:
        return (f"Waiting for the starter's suit, for {gs.names[gs.asked.player]}'s count "
                f"(on their phone or on the box).")
    if gs.pending_claims:
        owner = gs.pending_claims[0].player
        return f"Waiting for {gs.names[owner]}'s claim ({where(owner)})."
    if gs.phase is Phase.STARTER and gs.dealer is not None and gs.dealer != seat:
        return f"Waiting for {gs.names[gs.dealer]} to turn the starter ({where(gs.dealer)})."
    if gs.phase is Phase.PLAY and gs.to_act is not None and gs.to_act != seat:
        return f"Waiting for {gs.names[gs.to_act]} to play ({where(gs.to_act)})."
    return None


def seat_json(game: Game, seat: int, *, game_id: str | None, phones: Collection[int],
              notice: dict[str, object] | None = None) -> dict[str, Any]:
    """The private view of ``seat`` (see the module doc): for its own phone only.
    ``phones``: the seats phones hold (the board's own account), so that a wait says where
    the hand or the card waited for is entered (on a phone, or on the box). ``notice``: the
    last words for this seat alone (a card the box entered that its hand holds was refused:
    which card, and what to do), numbered so the page says each once."""
    gs = game.state
    dealt = gs.dealt[seat]
    away = gs.laid_away[seat]
    hand = gs.hands[seat]
    played = gs.played[seat]
    held = [c for c in hand if c not in played] if hand is not None else None
    club = game.header.club
    table = Session.resume(game).table
    teaching = table.teaching and not (club is not None and club.lock)
    waiting = open_hands.starter_waits_for(game, phones)
    asked = asks(gs, seat, waiting)
    data: dict[str, Any] = {
        "game": game_id,
        "seat": seat,
        "name": gs.names[seat],
        "names": list(gs.names),
        "seq": seat_seq(game, seat),
        "deal_no": gs.deal_no,
        "phase": gs.phase.value,
        "dealer": gs.dealer,
        "to_act": gs.to_act,
        "count": gs.count,
        "asks": asked,
        "dealt": _cards(dealt),
        "away": _cards(away),
        # Held cards as entered: one whose suit no player entered (laid by rank on the box,
        # then taken back after a renege) is its rank alone, and the phone lays it by that
        # name (:func:`held_by_rank`); the wheel's suit never leaves the box.
        "held": [entered(gs, c) for c in held] if held is not None else None,
        "by_rank": [entered(gs, c) for c in held or () if not gs.suit_entered(c)],
        # Cards the table has seen, named as entered: a card entered by its rank alone on the
        # box is its rank ("5"), so its stand-in suit never greys out the phone's real card.
        "played": [entered(gs, c) for c in played],
        "seen": sorted(entered(gs, c) for c in gs.seen),
        "playable": [entered(gs, c) for c in held or () if gs.can_play(seat, c)],
        "lays": gs.rules.dealt_size(gs.players) - gs.rules.hand_size(),
        "help": helps(game, seat),
        "hint": None,
        "claim": None,
        "call": None,
        "suit": None,
        "counts": counts(game, seat),
        "last_count": last_count(game),
        "notice": notice,
        # Whom the starter waits for, and where (names only, never a card).
        "waiting": ({"for": [gs.names[other] for other in waiting],
                     "text": open_hands.waiting_words(gs, waiting, phones)}
                    if waiting else None),
        "wait": wait_words(gs, seat, phones, waiting) if asked == "wait" else None,
        # How a phone's hand the starter waits for is entered on the box instead.
        "fall_back": fall_back(gs, seat, asked, [other for other in waiting if other in phones]),
        "coach": coach_json(game, seat, asked) if teaching else None,
        "review": review_json(game, seat) if teaching else None,
    }
    call = gs.open_call
    if gs.rules.muggins and call is not None and gs.side_of(call.owner) != gs.side_of(seat):
        # The chance to call muggins, the same whether or not points were missed.
        data["call"] = {"owner": gs.names[call.owner], "claimed": call.claimed,
                        "for": [r.value for r in (call.claim.reasons or (call.claim.reason,))],
                        **counted_json(game, call.owner, call.claim.reason)}
    if asked == "suit" and gs.asked is not None:
        data["suit"] = suit_json(gs, seat)
    if asked == "claim":
        pending = gs.pending_claims[0]
        # The cards a count's claim is for, as the seat counts them: its own hand kept, or
        # its crib (turned up at the table for its count), with the starter.
        counted = (gs.hands[seat] if pending.reason is Reason.HAND
                   else gs.crib if pending.reason is Reason.CRIB else None)
        data["claim"] = {"for": [r.value for r in (pending.reasons or (pending.reason,))],
                         "cards": ([entered(gs, c) for c in counted]
                                   if counted is not None else None),
                         # a card entered by its rank alone, named by its rank
                         "by_rank": [entered(gs, c) for c in (*(counted or ()), gs.starter)
                                     if c is not None and not gs.suit_entered(c)],
                         "starter": (entered(gs, gs.starter)
                                     if counted and gs.starter else None)}
    if asked == "play" and held is not None and data["help"]:
        known = knowledge.knowledge_for(gs)
        if known is not None:
            try:
                found = hints.hint(known)
            except PegboardError:
                found = None
            if found is not None:
                data["hint"] = {"card": entered(gs, found.card) if found.card else None,
                                "reason": found.reason}
    return data


def coach_json(game: Game, seat: int, asked: str) -> dict[str, str | None]:
    """The pegging coach of a teaching game for this seat alone (the box's own coach,
    :mod:`pegboard.coach.lookahead`, which the box keeps off its screen for a phone's seat):
    at its turn the card to lay, looking two cards ahead, its own cards named (the phone is
    the player's own, as an open hand is the table's); after its card, until its next turn,
    the coach's note on that card when it gave points away."""
    gs = game.state
    line = None
    if asked == "play":
        known = knowledge.knowledge_for(gs)
        line = lookahead.coach_line(known, open_hand=True) if known is not None else None
    return {"line": line, "note": None if asked == "play" else _play_note(game, seat)}


def _play_note(game: Game, seat: int) -> str | None:
    """The coach's note on the seat's last card of this deal's play, judged with what was
    known as it was laid (None: no such card, or nothing to say of it)."""
    if game.state.phase is not Phase.PLAY:
        return None
    back = game.copy()
    while back.events:
        event = back.pop()  # ``back`` is now the game as the card was laid
        if isinstance(event, Deal | NewGame | Starter):
            return None
        if isinstance(event, Play) and event.player == seat:
            known = knowledge.knowledge_for(back.state)
            return (lookahead.play_note(known, event.card, open_hand=True)
                    if known is not None else None)
    return None


def counted_json(game: Game, owner: int, reason: Reason) -> dict[str, Any]:
    """The cards a hand's or crib's count was made of, with its starter, as the table saw
    them turned up for it (a card entered by its rank alone by its rank, listed in
    ``by_rank``): what a player calling muggins on that count counts, as at the table; never
    what it scored. Empty for a claim of the play (its cards are the count's, on the page)."""
    if reason not in (Reason.HAND, Reason.CRIB):
        return {}
    counted = Counted.HAND if reason is Reason.HAND else Counted.CRIB
    back = game.copy()
    while back.events:
        report = back.report
        for step in report.of(ShowStep) if report is not None else ():
            if step.player == owner and step.counted is counted:
                gs = back.state
                starter = step.turned or EnteredCard.of(step.starter)
                cards = [entered(gs, card) for card in step.cards]
                return {"cards": cards,
                        "starter": str(starter.card) if starter.card else starter.rank.symbol,
                        "by_rank": [entered(gs, card) for card in step.cards
                                    if not gs.suit_entered(card)]}
        if isinstance(back.pop(), NewGame):
            break
    return {}


def review_json(game: Game, seat: int) -> dict[str, Any] | None:
    """The teaching review of the seat's discard (:mod:`pegboard.coach.review`, the review the
    box shows of a hand on the box, which it keeps off its screen for a phone's seat), for
    its own phone: from the count of its hand in the latest deal with a count (the deal the
    phone's "Last count" shows, through the next deal), with that deal's number. None: the
    seat's hand was not counted in that deal, its cards were not entered, or, in a muggins
    game, its claim is still to come (the review would help count it)."""
    gs = game.state
    if any(p.player == seat and p.reason is Reason.HAND for p in gs.pending_claims):
        return None
    back = game.copy()
    counted = False  # a count of the latest deal with counts was passed
    while back.events:
        report = back.report
        steps = report.of(ShowStep) if report is not None else ()
        for step in steps:
            if step.counted is Counted.HAND and step.player == seat:
                after = back.state
                dealt = after.dealt[seat]
                if dealt is None or after.dealer is None:
                    return None
                lines = _review_lines(dealt, step.cards, step.turned or EnteredCard.of(
                    step.starter), after.side_of(seat) == after.side_of(after.dealer),
                    after.players, after.rules.five_card)
                return {"deal_no": after.deal_no, "lines": list(lines)} if lines else None
        counted = counted or bool(steps)
        event = back.pop()
        if isinstance(event, NewGame) or (isinstance(event, Deal) and counted):
            return None
    return None


@functools.lru_cache(maxsize=32)
def _review_lines(dealt: tuple[Card, ...], kept: tuple[Card, ...], starter: EnteredCard,
                  dealer: bool, players: int, five_card: bool) -> tuple[str, ...]:
    """The review's sentences (worked out once a hand: every stream of the seat sends its
    view again at each change of the game)."""
    try:
        found = review.review_discard(dealt, kept, dealer=dealer, starter=starter,
                                      players=players, five_card=five_card)
    except PegboardError:
        return ()
    return found.lines()


def suit_json(gs: GameState, seat: int) -> dict[str, Any]:
    """The starter's suit asked of ``seat``: its rank, what the suit decides, and the suits
    offered: every suit whose card the table has not seen named and the seat was not dealt
    (one another hand holds is refused without saying whose), so the question tells this
    seat nothing of another hand. A card seen that was entered by its rank alone rules out
    nothing: its suit is a stand-in, which moves when its suit is named for the starter."""
    asked = gs.asked
    assert asked is not None and gs.starter is not None
    own = gs.dealt[seat] or ()
    facts = {card for card in gs.seen if gs.suit_entered(card)}
    offered = [suit.letter for suit in Suit
               if Card(asked.rank, suit) not in facts and Card(asked.rank, suit) not in own]
    return {"rank": asked.rank.symbol, "suits": offered, "makes": list(asked.makes),
            "crib": asked.crib}


def counts(game: Game, seat: int) -> list[dict[str, Any]]:
    """The seat's hand (and crib) as the engine counted them in the latest deal that has a
    count of the seat's, in the scoreboard's words (:func:`pegboard.web.snapshot.show_json`,
    so a count a muggins call may still be made on reads as the claim alone): the phone
    keeps showing it while the next deal begins."""
    for _, shown in _counted_deals(game):
        mine = [step for step in shown if step["player"] == seat]
        if mine:
            return mine
    return []


def last_count(game: Game) -> dict[str, Any] | None:
    """Every count of the latest deal that has one (the hands and the crib, public once
    counted: the scoreboard shows them during that deal), with the deal's number: the
    phone's "Last count" stays up through the next deal, until that deal's counts replace
    it. None before the first count."""
    for deal_no, shown in _counted_deals(game):
        return {"deal_no": deal_no, "counts": shown}
    return None


def _counted_deals(game: Game) -> Iterator[tuple[int, list[dict[str, Any]]]]:
    """Each deal's counts as the scoreboard shows them, the latest first, with the number of
    the deal in its game (deals with no count left out)."""
    entries = [Entry(n, report.event, report) for n, report in enumerate(game.reports(), 1)]
    if not entries:
        return
    starts = [n for n, entry in enumerate(entries) if isinstance(entry.event, Deal | NewGame)]
    numbers: list[int] = []
    for n in starts:  # a deal's number in its game: 1 after each new game
        numbers.append(0 if isinstance(entries[n].event, NewGame) else (
            numbers[-1] + 1 if numbers else 1))
    turn = entries[-1].report.next
    callable_at = open_claim(entries)
    bounds = [*starts, len(entries)]
    pairs = list(itertools.pairwise(bounds))
    for index in range(len(pairs) - 1, -1, -1):
        first, end = pairs[index]
        shown = show_json(entries[first + 1:end], turn, game.state.names, callable_at)
        if shown:
            yield numbers[index], shown


def _cards(cards: Sequence[Card] | None) -> list[str] | None:
    return None if cards is None else [str(card) for card in cards]


def advice_json(game: Game, seat: int, cards: Sequence[Card]) -> list[dict[str, Any]]:
    """The discard advice for six cards the seat holds (not entered: advice asked is no
    entry), best first, three at most: each with the cards to lay away and keep, what the
    kept cards make at the least and on average, and what the crib is worth on average."""
    gs = game.state
    mine = gs.dealer is not None and gs.side_of(seat) == gs.side_of(gs.dealer)
    options = advice.advise(cards, dealer=mine, players=gs.players,
                            five_card=gs.rules.five_card)
    return [{"away": [str(c) for c in o.discard], "keep": [str(c) for c in o.keep],
             "least": o.worst, "hand": round(float(o.hand), 1),
             "crib": round(float(o.crib), 1), "own_crib": mine}
            for o in options[:3]]


def parse_cards(value: object, most: int = MAX_CARDS) -> tuple[Card, ...]:
    """A list of card names (``["5H", "JD"]``) as cards; anything else is an ActionError."""
    if not isinstance(value, list) or len(value) > most:
        raise ActionError(f"cards must be a list of at most {most} card names")
    if not all(isinstance(text, str) and len(text) <= 3 for text in value):
        raise ActionError("each card is named by its rank and suit, as 5H or TD")
    try:
        return tuple(Card.parse(text) for text in value)
    except InvalidCardError as error:
        raise ActionError(str(error)) from None


def held_by_rank(game: Game | None, seat: int) -> dict[str, Card]:
    """The seat's held cards whose suits no player entered, by the names its phone is sent
    (their ranks, :func:`seat_json`): what a ``play`` naming a rank alone lays."""
    if game is None:
        return {}
    gs = game.state
    hand = gs.hands[seat] if 0 <= seat < gs.players else None
    held = [c for c in hand or () if c not in gs.played[seat] and not gs.suit_entered(c)]
    return {entered(gs, c): c for c in reversed(held)}


def read_action(body: Mapping[str, Any], seat: int,
                by_rank: Mapping[str, Card] | None = None) -> tuple[tuple[Event, ...], int]:
    """The entries a phone's action asks for and the sequence number it was made at.
    ``by_rank``: the seat's held cards sent by their ranks alone (:func:`held_by_rank`),
    which a ``play`` may name.

    ``{"do": "hand", "dealt": [6 cards], "away": [2 cards], "seq": N}``, ``{"do": "play",
    "card": "5H"}``, ``{"do": "go"}``, ``{"do": "starter", "card": "JD"}``, ``{"do": "claim",
    "points": 8}``, ``{"do": "muggins", "points": 2}``, ``{"do": "suit", "suit": "H"}``,
    each with ``seq``."""
    seq = body.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool) or not 0 <= seq < 10_000:
        raise ActionError("seq must be the whole number the phone's page was drawn with")
    do = body.get("do")
    if do == "hand":
        return (Dealt(seat, parse_cards(body.get("dealt"))),
                LaidAway(seat, parse_cards(body.get("away"), 2))), seq
    named = body.get("card")
    if do == "play" and by_rank and isinstance(named, str) and named in by_rank:
        return (Play(seat, by_rank[named]),), seq
    if do in ("play", "starter"):
        card = parse_cards([named], 1)
        if len(card) != 1:
            raise ActionError("name one card")
        return ((Play(seat, card[0]) if do == "play" else Starter(card[0])),), seq
    if do == "go":
        return (Go(seat),), seq
    if do == "suit":
        letter = body.get("suit")
        suit = next((s for s in Suit if s.letter == letter), None)
        if suit is None:
            raise ActionError("suit must be one of C, D, H or S")
        return (StarterSuit(suit),), seq
    if do in ("claim", "muggins"):
        points = body.get("points")
        if not isinstance(points, int) or isinstance(points, bool) or not 0 <= points <= 99:
            raise ActionError("points must be a whole number from 0 to 99")
        return ((Claim(seat, points) if do == "claim" else Muggins(seat, points)),), seq
    shown = repr(do)[:20]
    raise ActionError(f"{shown} is not an action: hand, play, go, starter, suit, claim or "
                      "muggins")
