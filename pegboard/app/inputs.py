"""Input events: what the encoder, the buttons or the keypad tell the app.

Adapters (gpiozero callbacks, the simulator's keyboard, scripts) turn raw pin changes into these
values; debounce, long-press and auto-repeat are decided before an event is made, so the app
only ever sees clean gestures. Every value is immutable and carries no time: the loop passes
``now`` to ``step`` separately.
"""

from __future__ import annotations

import enum

from pegboard.rules.cards import Rank
from pegboard.rules.events import Event
from pegboard.rules.value import Value


class Button(enum.Enum):
    """The named buttons. On the encoder kit, OK is the encoder's push switch; on the keypad
    kit, OK, GO and UNDO are keys and MENU is a long press of OK."""

    OK = "ok"
    GO = "go"
    UNDO = "undo"
    MENU = "menu"


class KnobTurn(Value):
    """The encoder moved ``steps`` detents: positive clockwise, negative anticlockwise."""

    __slots__ = ("steps",)
    __match_args__ = ("steps",)

    steps: int

    def __init__(self, steps: int) -> None:
        object.__setattr__(self, "steps", steps)


class Press(Value):
    """A button was pressed and released (``long=True`` when held past the hold time).

    Auto-repeat while held produces further presses with ``repeat=True``."""

    __slots__ = ("button", "long", "repeat")
    __match_args__ = ("button", "long", "repeat")

    button: Button
    long: bool
    repeat: bool

    def __init__(self, button: Button, long: bool = False, repeat: bool = False) -> None:
        setter = object.__setattr__
        setter(self, "button", button)
        setter(self, "long", long)
        setter(self, "repeat", repeat)


class RankKey(Value):
    """A rank key on the keypad kit (A, 2..10, J, Q, K).

    ``long=True`` when the key was held past the hold time: the card picker then asks which
    suit fact applies (flush, nobs) instead of entering the plain card at once."""

    __slots__ = ("long", "rank")
    __match_args__ = ("rank", "long")

    rank: Rank
    long: bool

    def __init__(self, rank: Rank, long: bool = False) -> None:
        setter = object.__setattr__
        setter(self, "rank", rank)
        setter(self, "long", long)


class Tick(Value):
    """Time passed with no input; lets the app dim and blank the screen when idle."""

    __slots__ = ()


class LinkStatus(Value):
    """The loop reports the LED board link (not a player's input: it does not wake the
    screen). ``detail`` is a short text for the status line, e.g. "LEDs off"."""

    __slots__ = ("detail", "up")
    __match_args__ = ("up", "detail")

    up: bool
    detail: str

    def __init__(self, up: bool, detail: str = "") -> None:
        setter = object.__setattr__
        setter(self, "up", up)
        setter(self, "detail", detail)


class ClubStatus(Value):
    """The loop reports what the club's broker said of the board's results (not a player's
    input: it does not wake the screen). ``refused`` is why the broker refused a result, in
    the publisher's words ("refused by the broker: not authorised for club tuesday ..."),
    or empty once nothing it refused is waiting."""

    __slots__ = ("refused",)
    __match_args__ = ("refused",)

    refused: str

    def __init__(self, refused: str = "") -> None:
        object.__setattr__(self, "refused", refused)


class ClubNight(Value):
    """The club's night as the standings service published it (not a player's input):
    tonight's ``night`` number, the next ``round`` to play and the tournament ``lock``."""

    __slots__ = ("lock", "night", "round")
    __match_args__ = ("night", "round", "lock")

    night: int
    round: int
    lock: bool

    def __init__(self, night: int, round: int, lock: bool) -> None:
        setter = object.__setattr__
        setter(self, "night", night)
        setter(self, "round", round)
        setter(self, "lock", lock)


class SeatEntry(Value):
    """A seat's own entry from outside the box (a paired phone): not a key, but entries the
    seat makes for itself, applied by :mod:`pegboard.app.seat_entry` through the engine like
    a key's.

    ``entries`` are applied together or not at all (the six cards dealt and the two laid
    away come as one); ``seq`` is how many entries of this seat the phone saw in force
    (:func:`pegboard.app.seat_entry.seat_seq`), so a request sent twice, or made from a page
    the game has since moved past, changes nothing; ``ticket`` names the request, so its
    answer (:class:`~pegboard.app.effects.SeatAnswer`) finds the phone that asked.
    """

    __slots__ = ("entries", "seat", "seq", "ticket")
    __match_args__ = ("seat", "entries", "seq", "ticket")

    seat: int
    entries: tuple[Event, ...]
    seq: int
    ticket: int

    def __init__(self, seat: int, entries: tuple[Event, ...], seq: int, ticket: int = 0) -> None:
        setter = object.__setattr__
        setter(self, "seat", seat)
        setter(self, "entries", entries)
        setter(self, "seq", seq)
        setter(self, "ticket", ticket)


class SeatCode(Value):
    """One seat's pairing as the board's pairing port found it: the join code a phone types
    and ``address``, the join address the QR code holds; or ``held``, a phone holds the seat
    (then no code)."""

    __slots__ = ("address", "code", "held", "seat")
    __match_args__ = ("seat", "code", "address", "held")

    seat: int
    code: str
    address: str
    held: bool

    def __init__(self, seat: int, code: str = "", address: str = "", held: bool = False) -> None:
        setter = object.__setattr__
        setter(self, "seat", seat)
        setter(self, "code", code)
        setter(self, "address", address)
        setter(self, "held", held)


class Pairing(Value):
    """The pairing of the game in progress, seat by seat (not a player's input): the pairing
    port's answer to :class:`~pegboard.app.effects.OfferPairing` or
    :class:`~pegboard.app.effects.ReleaseSeat`; ``first`` is the seat to show first. The
    codes are drawn at random by the port (:mod:`pegboard.web.passes`), never by ``step``."""

    __slots__ = ("first", "seats")
    __match_args__ = ("seats", "first")

    seats: tuple[SeatCode, ...]
    first: int

    def __init__(self, seats: tuple[SeatCode, ...], first: int = 0) -> None:
        setter = object.__setattr__
        setter(self, "seats", seats)
        setter(self, "first", first)


class PhoneSeats(Value):
    """The seats phones hold in the game in progress, as the passes have them now (not a
    player's input): sent when a phone joins and when the board starts. The app keeps
    them (:attr:`~pegboard.app.state.AppState.phones`) so that nothing shared depends on
    those seats' private hands, and the box never asks for their cards."""

    __slots__ = ("seats",)
    __match_args__ = ("seats",)

    seats: frozenset[int]

    def __init__(self, seats: frozenset[int]) -> None:
        object.__setattr__(self, "seats", frozenset(seats))


InputEvent = (KnobTurn | Press | RankKey | Tick | LinkStatus | ClubStatus | ClubNight
              | SeatEntry | Pairing | PhoneSeats)
"""Anything the loop can hand to ``step``."""
