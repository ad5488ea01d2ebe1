"""A seat's own entries from outside the box (a paired phone), as one typed input.

The box has one authority: a phone's tap reaches the game as a
:class:`~pegboard.app.inputs.SeatEntry` on the loop's queue, goes through this pure step and
the engine like a key, and is written by the store before anyone is told. The rules here:

* **Only the seat's own entries**: its dealt cards with the cards it laid away (one request,
  both or neither), a card it plays, its go, its claim and its muggins call (a muggins
  game), the starter when the seat deals, and the starter's suit when its count (or its
  crib's) asks for it. Each names the seat as its player.
* **Nothing stale or twice**: ``seq`` must be the number of the seat's entries in force
  (:func:`seat_seq`); a request sent again after it was taken, or made from a page the game
  has moved past (an undo on the box, the seat's card entered on the box), is refused with
  a sentence saying so, and changes nothing.
* **"No muggins" gives nothing away**: said on a claim that missed no points, it enters
  nothing (the window stays open until the next score, as at the box) and is answered as
  taken, as it is when points were missed and it enters the table's pass.
* **The engine judges**: a refused entry changes nothing, and its reason goes to the seat
  alone (:class:`~pegboard.app.effects.SeatAnswer`), never to the box's screen; a reason that
  would name a card another seat holds privately is replaced by one that names none, and
  every card it names is said in words, as a phone's screen reader reads it ("eight of
  hearts"; a card whose suit nobody entered by its rank alone: :func:`in_words`).
* **The box follows**: a taken entry brings up the pages it brings up when keyed on the box
  (the end of the play, each count, a penalty offered), after any page still being read;
  whatever else the box showed (a menu, a card half-entered on the wheel) gives way to the
  table's next screen, since the game it was about has changed. No teaching page comes of a
  phone's entry: the coach speaks to that seat on its phone.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from pegboard.app import flow, open_hands, resuit
from pegboard.app.effects import Effect, Persist, SeatAnswer, SetBrightness
from pegboard.app.inputs import SeatEntry
from pegboard.app.session import Session
from pegboard.app.state import AppState, Page, Reading, Result
from pegboard.app.view import Brightness, PageKind
from pegboard.errors import PegboardError
from pegboard.rules.cards import Card, EnteredCard
from pegboard.rules.events import (
    Claim,
    Deal,
    Dealt,
    Event,
    Go,
    LaidAway,
    Muggins,
    Play,
    Starter,
    StarterSuit,
)
from pegboard.rules.game import Game
from pegboard.rules.state import GameState, Phase
from pegboard.rules.value import replace

SEAT_EVENTS = (Dealt, LaidAway, Play, Go, Claim, Muggins)
"""The entries a seat makes for itself, each naming it as ``player`` (and counted by
:func:`seat_seq`)."""

NO_GAME = "No game is in progress on the board."
STALE = ("The board has moved on since your page was drawn (an entry was made or taken back "
         "meanwhile): nothing was changed. Your page now shows the game as it is.")
CLASH = ("One of those cards was entered by another seat: nothing was changed. Check your "
         "cards; if they are right, the table sorts out which entry is wrong.")


def seat_seq(session: Session | Game | None, seat: int) -> int:
    """How many entries in force name ``seat`` as the player making them: the sequence
    number a phone sends with its next request."""
    if session is None:
        return 0
    return sum(1 for event in session.events
               if isinstance(event, SEAT_EVENTS) and event.player == seat)


def enter(state: AppState, request: SeatEntry, now: float) -> Result:
    """Apply a seat's own entries (see the module doc): the new state with the entries'
    effects and the seat's answer, or the state unchanged and a refusal."""
    if _passing_nothing(state, request):
        # "No muggins" on a claim that missed nothing: nothing to enter (the window stays
        # open until the next score, as at the box), and the phone is answered as when
        # points were missed, so the answer says nothing of the claim.
        return state, (SeatAnswer(request.ticket, request.seat, True),)
    if state.session is not None:
        request = replace(request, entries=tuple(
            past_stand_in(state.session.state, event) for event in request.entries))
    refused = _check(state, request)
    if refused is not None:
        if state.session is not None:
            refused = in_words(state.session.state, request.seat, refused,
                               named_cards(request.entries))
        return state, (SeatAnswer(request.ticket, request.seat, False, refused),)
    screen = state.screen
    # Pages still to be read on the box stay first; a refusal shown for a box key, and any
    # other screen (a menu, the wheel half-way through a hand), give way to the table.
    first = tuple(page for page in screen.pages if page.kind is not PageKind.REFUSED) if (
        isinstance(screen, Reading) and screen.then is None) else ()
    effects: list[Effect] = []
    if state.brightness is not Brightness.NORMAL:
        effects.append(SetBrightness(Brightness.NORMAL))
    state = replace(state, brightness=Brightness.NORMAL, last_input=now, fresh=False,
                    phones=state.phones | {request.seat})
    for event in request.entries:
        state, done = flow.enter(state, event, first, teach=False)
        effects.extend(done)
        first = _unread(state)
    state, dealt = _deal_when_due(state)
    effects.extend(dealt)
    # Every entry the request made (the next deal with it) brought no lesson to the box:
    # kept as the phone's, so that a resumed game does not count them as the box's.
    effects = [replace(effect, seat=request.seat) if isinstance(effect, Persist) else effect
               for effect in effects]
    effects.append(SeatAnswer(request.ticket, request.seat, True))
    return state, tuple(effects)


def past_stand_in(gs: GameState, event: Event) -> Event:
    """A phone's card laid with its suit named: marked as named (``Play.named``), so that
    the record keeps the phone's real suit.

    A card the box entered by its rank alone took a suit the card wheel chose, no fact; the
    phone's tap names a real card, which may be that very suit. The phone's card is taken
    as it is, and the stand-in gives way: it moves to a suit of its rank nobody holds or has
    seen, its entries entered again (:func:`pegboard.app.resuit.make_way`). A card whose
    suit is already entered (dealt to the seat, or every card of the deal entered whole)
    and the seat's own held card sent by its rank (its suit unknown) are left as they are."""
    if not isinstance(event, Play) or event.named or gs.suit_entered(event.card):
        return event
    hand = gs.hands[event.player] if 0 <= event.player < gs.players else None
    if hand is not None and event.card in hand and event.card not in gs.played[event.player]:
        return event  # its own card, held by its rank after a take-back
    return Play(event.player, event.card, named=True)


def _passing_nothing(state: AppState, request: SeatEntry) -> bool:
    """The request is a seat's "no muggins" (a ``muggins`` of 0), in its turn to call, on an
    opponent's claim that missed no points."""
    session = state.session
    if session is None or request.seq != seat_seq(session, request.seat):
        return False
    gs = session.state
    call = gs.open_call
    return (request.entries == (Muggins(request.seat, 0),) and call is not None
            and gs.side_of(call.owner) != gs.side_of(request.seat)
            and gs.pending_muggins is None)


def _deal_when_due(state: AppState) -> tuple[AppState, tuple[Effect, ...]]:
    """The next deal entered at once when the crib is counted and nothing waits for a claim:
    the phones go on to their next hand while the box's pages are read (as on the box, the
    deal is the automatic one, taken back with the entry before it)."""
    session = state.session
    if (session is None or session.state.phase is not Phase.DEAL or state.table.points_only
            or flow.waiting(state)):
        return state, ()
    session, report = session.apply(Deal())
    award = flow.dealt_award(state.award, session, list(report.awards))
    return replace(state, session=session, award=award), (Persist(Deal(), session.report),)


def _unread(state: AppState) -> tuple[Page, ...]:
    """The pages the last entry brought up, still to be read before the next one's."""
    screen = state.screen
    return screen.pages if isinstance(screen, Reading) and screen.then is None else ()


def _check(state: AppState, request: SeatEntry) -> str | None:
    """Why the request must change nothing (None: the engine takes every entry of it)."""
    session = state.session
    if session is None:
        return NO_GAME
    gs = session.state
    seat = request.seat
    if not 0 <= seat < gs.players:
        return f"There is no seat {seat + 1} at this table ({gs.players} players)."
    if not request.entries:
        return "The request holds no entry."
    for event in request.entries:
        why = _not_own(gs, seat, event)
        if why is not None:
            return why
    if request.seq != seat_seq(session, seat):
        return STALE
    # The starter comes after every phone's hand (in an open-handed deal, after every hand,
    # a phone's or the box's): the dealer's phone shows whom it waits for, and a tap on a
    # page drawn before is refused with those words.
    waiting = open_hands.hands_to_come(gs, state.table, state.phones,
                                       open_handed=open_hands.open_hands(state))
    if waiting and any(isinstance(event, Starter) for event in request.entries):
        return open_hands.waiting_words(gs, waiting, state.phones)
    trial = session
    for event in request.entries:
        try:
            trial, _ = resuit.make_way(trial, event)
            trial, _ = trial.apply(event)
        except PegboardError as error:
            return private_reason(gs, seat, error)
    return None


def _not_own(gs: GameState, seat: int, event: Event) -> str | None:
    name = gs.names[seat]
    if isinstance(event, SEAT_EVENTS):
        if event.player != seat:
            return f"{name}'s phone enters {name}'s own entries only."
        return None
    if isinstance(event, Starter):
        if gs.dealer != seat:
            return "The starter is turned by the dealer: only the dealer's phone enters it."
        return None
    if isinstance(event, StarterSuit):
        if gs.asked is None:
            return ("The starter's suit is not asked now (it was entered already, on the "
                    "box or a phone): nothing was changed.")
        if gs.asked.player != seat:
            return ("The starter's suit is asked by a count: only the phone of the seat "
                    "counting enters it.")
        return None
    return f"A phone does not make {type(event).TYPE!r} entries: use the box."


_CARD = re.compile(r"\b(?:10|[2-9TJQKA])[CDHS]\b")

_NAMED = r"(?:10|[2-9TJQKA])[CDHS\u2663\u2666\u2665\u2660]"
_CARDS = re.compile(rf"(?<![\w]){_NAMED}(?: {_NAMED})*(?![\w])")
"""A card as the engine's reasons name it (``8H``; ``10\u2665`` on the box's pages), or a
run of them listed with spaces (``dealt 5H 5D JC``)."""


def in_words(gs: GameState, seat: int, text: str, named: Collection[Card] = ()) -> str:
    """``text`` with every card it names said in words, for ``seat``'s phone: "count is 25:
    eight of hearts would make 33"; a run of cards as a list ("five of hearts, five of
    diamonds and jack of clubs"). A card is said with its suit when a player entered that
    suit, or when the phone's own request named it (``named``) and it is no card the table
    has seen or the seat holds by its rank; every other card by its rank alone ("eight"):
    its suit is the card wheel's stand-in for a card entered by rank, no fact. A word that
    is a player's name is left as it is.

    >>> from pegboard.rules.game import Game
    >>> in_words(Game(["Ann", "Ben"]).state, 0, "count is 25: 8H would make 33",
    ...          [Card.parse("8H")])
    'count is 25: eight of hearts would make 33'
    """
    hand = gs.hands[seat] if 0 <= seat < gs.players else None
    by_rank = {card for card in hand or () if not gs.suit_entered(card)}

    def said(card: Card) -> str:
        if gs.suit_entered(card) or (card in named and card not in gs.seen
                                     and card not in by_rank):
            return EnteredCard.of(card).spoken
        return card.rank.spoken

    def run(found: re.Match[str]) -> str:
        words = found.group(0).split(" ")
        if any(word in gs.names for word in words):  # a name such as "JC": each word alone
            return " ".join(word if word in gs.names else said(Card.parse(word))
                            for word in words)
        spoken = [said(Card.parse(word)) for word in words]
        return spoken[0] if len(spoken) == 1 else f"{', '.join(spoken[:-1])} and {spoken[-1]}"

    return _CARDS.sub(run, text)


def named_cards(entries: Collection[Event]) -> frozenset[Card]:
    """The cards a request names itself (its hand, the card it lays, the starter)."""
    found: set[Card] = set()
    for event in entries:
        if isinstance(event, Dealt | LaidAway):
            found.update(event.cards)
        elif isinstance(event, Play | Starter):
            found.add(event.card)
    return frozenset(found)


def private_reason(gs: GameState, seat: int, error: PegboardError) -> str:
    """The engine's refusal as ``seat`` may read it: one naming cards another seat holds
    (its ``holder``), or a card another seat holds unseen (dealt to them, not yet played or
    counted), is replaced by :data:`CLASH`, so no refusal tells a phone what another player
    holds. Otherwise its words where it has them (a card entered by its rank alone named by
    its rank in words, :class:`~pegboard.errors.RuleError`), else its message."""
    reason = str(error)
    holder = getattr(error, "holder", None)
    hidden = {str(card) for other, dealt in enumerate(gs.dealt)
              if other != seat and dealt is not None
              for card in dealt if card not in gs.seen}
    if (holder is not None and holder != seat) or any(
            word in hidden for word in _CARD.findall(reason)):
        return CLASH
    words: str | None = getattr(error, "words", None)
    return reason if words is None else words
