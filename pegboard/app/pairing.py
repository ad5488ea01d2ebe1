"""Phones: each seat's join code on the board, and releasing a lost phone (docs/pairing.md).

With ``[phones] enabled``, a new game asks the pairing port for every seat's code
(:class:`~pegboard.app.effects.OfferPairing`), and so does "Phones" on the menu at any time.
The port (the device's, over :mod:`pegboard.web.passes`) draws the codes and answers with a
:class:`~pegboard.app.inputs.Pairing` input, which brings up this screen over whatever was
on screen; ``step`` itself never draws a code.

The screen shows one seat at a time: its name, its join code in large characters and the QR
code of its join address (a seat a phone holds says so instead). Turning the knob or GO goes
to another seat; OK goes on to the next seat and, after the last, back to where the table
was; UNDO goes back at once. A phone joining by the code on screen moves the screen on by
itself (to the next seat still to join, or back once every seat is held). On a seat a phone
holds (one turned to, or every seat shown from the menu), OK asks "Release Ann's phone?"
(No first): Yes frees the seat (:class:`~pegboard.app.effects.ReleaseSeat`), its phone's
token stops working, and the port answers with that seat's new code.

The code is said letter by letter in the screen's words, so audio mode reads it as it reads
any page.

A seat falls back to the box at the moment it matters too: while the starter waits for
phones' hands, the box's wait says "OK: on the box", and OK asks "On the box instead?" (No
first, then each hand waited for, "Ben's hand"). Choosing a hand frees that seat from its
phone (:class:`~pegboard.app.effects.ReleaseSeat`, offering no code: the port answers with
the seats phones still hold), and the box goes on as for a seat of its own: the starter,
or in an open-handed deal the seat's cards asked on the box. Each phone's page says the
same while it is asked for its cards, or waits for another's
(:func:`pegboard.app.open_hands.fall_back_words`).
"""

from __future__ import annotations

from pegboard.app import flow
from pegboard.app.effects import OfferPairing, ReleaseSeat
from pegboard.app.inputs import InputEvent, Pairing, SeatCode
from pegboard.app.keys import Key, key_of, list_move, steps
from pegboard.app.state import (
    AppState,
    Confirm,
    FallBack,
    Menu,
    Page,
    PairingScreen,
    Reading,
    Result,
    Saved,
)
from pegboard.app.view import PageKind, Screen, View
from pegboard.app.views import numbered
from pegboard.app.words import wrap
from pegboard.rules.value import replace

MENU_ROW = "Phones"
"""The menu's row that shows the pairing again."""


def offer(state: AppState) -> OfferPairing | None:
    """The effect asking for every seat's code of the game in progress (None: phones off,
    or no game), shown from the seat last taken on the box whose phone has not joined again
    (its phone gets it back with the fewest presses), else from the first."""
    if not state.config.phones.enabled or state.session is None:
        return None
    seats = len(state.session.state.names)
    first = state.let_go if state.let_go is not None and 0 <= state.let_go < seats else 0
    return OfferPairing(seats, first)


def arrived(state: AppState, event: Pairing) -> Result:
    """The port's answer: the pairing screen over the current screen (over what a menu was
    opened on), from the seat ``event.first``; kept up to date if it is already up."""
    screen = state.screen
    if state.session is None or not event.seats or isinstance(screen, Saved):
        return state, ()
    state = replace(state, phones=frozenset(seat.seat for seat in event.seats if seat.held))
    index = next((i for i, seat in enumerate(event.seats) if seat.seat == event.first), 0)
    if isinstance(screen, PairingScreen):
        return replace(state, screen=replace(screen, seats=event.seats, index=index,
                                             asking=False, answer=0)), ()
    under = screen.under if isinstance(screen, Menu | Confirm) else screen
    return replace(state, screen=PairingScreen(event.seats, under, index)), ()


def held(state: AppState, seats: frozenset[int]) -> AppState:
    """The seats phones hold now: kept by the app, and shown as held on the pairing screen
    if it is up. When the seat on screen is the one whose phone has just joined (by the code
    on it), the screen goes on by itself to the next seat still to join, or back to where
    the table was once every seat is held: the key the table was about to press ("OK
    next") must not then ask to release the phone that has just joined."""
    if state.session is None:
        return state
    players = state.session.state.players
    back = state.let_go if state.let_go in seats else None  # the seat taken, its phone back
    state = replace(state, phones=frozenset(s for s in seats if 0 <= s < players),
                    let_go=None if back is not None else state.let_go)
    screen = state.screen
    if isinstance(screen, PairingScreen):
        count = len(screen.seats)
        current = screen.seats[screen.index % count]
        shown = tuple(SeatCode(seat.seat, held=True) if seat.seat in seats else seat
                      for seat in screen.seats)
        screen = replace(screen, seats=shown)
        if current.seat == back and not current.held and not screen.asking:
            # Phones was opened to give that seat its phone back: done, back to the table
            # (the other seats without a phone are the box's by choice).
            return replace(state, screen=screen.under)
        if not current.held and current.seat in seats and not screen.asking:
            after = (screen.index + k for k in range(1, count))
            rest = [index % count for index in after if not shown[index % count].held]
            if not rest:
                return replace(state, screen=screen.under)
            screen = replace(screen, index=rest[0])
        state = replace(state, screen=screen)
    return state


def pairing_key(state: AppState, screen: PairingScreen, event: InputEvent) -> Result:
    """The keys of the pairing screen and of its "Release?" question (see the module doc)."""
    key = key_of(event)
    seat = screen.seats[screen.index % len(screen.seats)]
    if screen.asking:
        if key is Key.UNDO:
            return replace(state, screen=replace(screen, asking=False, answer=0)), ()
        answer, row = list_move(screen.answer, event, 2)
        if row is None:
            return replace(state, screen=replace(screen, answer=answer)), ()
        asked = replace(screen, asking=False, answer=0)
        if row == 0:
            return replace(state, screen=asked), ()
        return replace(state, screen=asked), (ReleaseSeat(seat.seat, len(screen.seats)),)
    count = len(screen.seats)
    if key is Key.TURN:
        return replace(state, screen=replace(screen, index=(screen.index + steps(event))
                                             % count)), ()
    if key is Key.GO:
        return replace(state, screen=replace(screen, index=(screen.index + 1) % count)), ()
    if key is Key.UNDO:
        return replace(state, screen=screen.under), ()
    if key is Key.OK:
        if seat.held:
            return replace(state, screen=replace(screen, asking=True, answer=0)), ()
        if screen.index + 1 >= count:
            return replace(state, screen=screen.under), ()
        return replace(state, screen=replace(screen, index=screen.index + 1)), ()
    return state, ()


def spelled(code: str) -> str:
    """A code letter by letter, as it is said and typed: "C E F 3 4 7".

    >>> spelled("CEF347")
    'C E F 3 4 7'
    """
    return " ".join(code)


def _name(state: AppState, seat: SeatCode) -> str:
    names = state.session.state.names if state.session is not None else ()
    return names[seat.seat] if seat.seat < len(names) else f"Seat {seat.seat + 1}"


def pairing_view(state: AppState, screen: PairingScreen) -> View:
    """A seat's code and QR code; a seat a phone holds; or "Release Ann's phone?"."""
    seat = screen.seats[screen.index % len(screen.seats)]
    name = _name(state, seat)
    if screen.asking:
        return View(Screen.CONFIRM, f"Release {name}'s phone?",
                    numbered(state.keypad, ["No", "Yes"]), screen.answer % 2)
    last = screen.index % len(screen.seats) + 1 >= len(screen.seats)
    place = f"Seat {screen.index % len(screen.seats) + 1} of {len(screen.seats)}"
    if seat.held:
        return View(Screen.MESSAGE, f"{name}'s phone",
                    (f"{place}: a phone holds it.", "OK: release it (a lost phone)."),
                    hint="OK release  GO next")
    return View(Screen.PAIR, name,
                (f"{place}: join code {spelled(seat.code)}.",
                 "Scan the QR code, or type the code on the phone's page."),
                hint="OK done" if last else "OK next", qr=seat.address, code=seat.code)


FALL_BACK_TITLE = "On the box instead?"
"""The question OK asks on the box's wait for phones' hands."""


def taken_words(name: str) -> tuple[str, str]:
    """What the box says when it takes ``name``'s seat from a phone: the title, and which
    seat now enters on the box and how that player gets the phone back."""
    return (f"{name}'s hand: on the box",
            f"{name}'s phone is let go: {name} enters on the box now. To play on the phone "
            f"again: menu, Phones, and join with {name}'s code.")


def fall_back_key(state: AppState, screen: FallBack, event: InputEvent) -> Result:
    """"On the box instead?": No (the first row) goes back to the wait; a hand frees its
    seat from its phone, the box says so in words (which seat now enters on the box, and
    how its player gets the phone back: :func:`taken_words`), and the box goes on without
    waiting for it. The Phones screen then opens on that seat until its phone is back."""
    index, row = list_move(screen.index, event, len(screen.seats) + 1)
    if row is None:
        return replace(state, screen=replace(screen, index=index)), ()
    back = replace(state, screen=screen.under)
    if row == 0 or state.session is None:
        return back, ()
    seat = screen.seats[row - 1]
    title, said = taken_words(_name(state, SeatCode(seat)))
    # What comes after the notice is the table's next screen without that phone (the port
    # frees the seat at the loop's next turn): the starter, or the seat's own cards.
    after = flow.table_screen(replace(state, phones=state.phones - {seat}))
    notice = Page(title, wrap(said), kind=PageKind.NOTICE)
    return (replace(state, screen=Reading((notice,), then=after), let_go=seat),
            (ReleaseSeat(seat, state.session.state.players, offer=False),))


def fall_back_back(state: AppState, screen: FallBack, event: InputEvent) -> Result:
    """UNDO: back to the wait."""
    return replace(state, screen=screen.under), ()


def fall_back_view(state: AppState, screen: FallBack) -> View:
    """No, then each hand the starter waits for on a phone, by its player's name."""
    names = state.session.state.names if state.session is not None else ()
    rows = ["No: keep waiting",
            *(f"{names[seat]}'s hand" if seat < len(names) else f"Seat {seat + 1}"
              for seat in screen.seats)]
    return View(Screen.CONFIRM, FALL_BACK_TITLE, numbered(state.keypad, rows),
                screen.index % len(rows), hint="OK choose  UNDO back")
