"""The two input kits on gpiozero: encoder with buttons, and the 4x4 keypad.

gpiozero reports pin changes on its own threads (lgpio's on a Pi; the caller's thread on
``MockFactory``). Those callbacks do one thing: put a timestamped raw item on the loop's queue.
The loop thread then hands each item to :meth:`InputKit.translate` and calls
:meth:`InputKit.poll` when :meth:`InputKit.next_deadline` comes, and only there are gestures
decided (see :mod:`pegboard.hw.gestures`), so one thread owns all state.

The keypad has no interrupts: the loop scans it at a fixed rate from :meth:`KeypadKit.poll`.
gpiozero itself is imported lazily, so importing this module needs nothing Pi-only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from pegboard import lazy
from pegboard.app.inputs import Button, InputEvent, KnobTurn, Press, RankKey
from pegboard.config import InputConfig
from pegboard.hw.gestures import KeyAction, KeyGestures, RawEdge, Timing
from pegboard.rules.cards import Rank
from pegboard.rules.value import Value

if TYPE_CHECKING:
    import gpiozero
    from gpiozero import Factory

    from pegboard.hw.clock import Clock
else:
    gpiozero = lazy.module("gpiozero")


class EncoderStep(Value):
    """The encoder moved one detent (``+1`` clockwise, ``-1`` anticlockwise) at ``t``."""

    __slots__ = ("direction", "t")
    __match_args__ = ("direction", "t")

    direction: int
    t: float

    def __init__(self, direction: int, t: float) -> None:
        setter = object.__setattr__
        setter(self, "direction", direction)
        setter(self, "t", t)


RawInput = RawEdge | EncoderStep
"""What a gpiozero callback puts on the loop's queue."""

Sink = Callable[[RawInput], None]
"""Where callbacks put raw items (normally ``queue.Queue.put``)."""


_WIRED = InputConfig()
"""The documented wiring: the ``[input]`` section's defaults, the pins' defaults here."""


class EncoderPins(Value):
    """BCM pin numbers of the default kit (the defaults are the documented wiring)."""

    __slots__ = ("a", "b", "go", "menu", "push", "undo")
    __match_args__ = ("a", "b", "push", "go", "undo", "menu")

    a: int
    b: int
    push: int
    go: int
    undo: int
    menu: int

    def __init__(
        self,
        a: int = _WIRED.encoder_a,
        b: int = _WIRED.encoder_b,
        push: int = _WIRED.encoder_push,
        go: int = _WIRED.button_go,
        undo: int = _WIRED.button_undo,
        menu: int = _WIRED.button_menu,
    ) -> None:
        setter = object.__setattr__
        setter(self, "a", a)
        setter(self, "b", b)
        setter(self, "push", push)
        setter(self, "go", go)
        setter(self, "undo", undo)
        setter(self, "menu", menu)


def _four(pins: tuple[int, ...]) -> tuple[int, int, int, int]:
    return (pins[0], pins[1], pins[2], pins[3])


class KeypadPins(Value):
    """BCM pin numbers of the keypad's four row lines and four column lines."""

    __slots__ = ("cols", "rows")
    __match_args__ = ("rows", "cols")

    rows: tuple[int, int, int, int]
    cols: tuple[int, int, int, int]

    def __init__(
        self,
        rows: tuple[int, int, int, int] = _four(_WIRED.keypad_rows),
        cols: tuple[int, int, int, int] = _four(_WIRED.keypad_cols),
    ) -> None:
        setter = object.__setattr__
        setter(self, "rows", rows)
        setter(self, "cols", cols)


def _tap_hold(button: Button) -> KeyAction:
    return KeyAction(Press(button), hold=Press(button, long=True))


ENCODER_KEYS: Mapping[str, KeyAction] = {
    "ok": _tap_hold(Button.OK),
    "go": _tap_hold(Button.GO),
    "undo": KeyAction(Press(Button.UNDO), repeat=Press(Button.UNDO, repeat=True)),
    "menu": _tap_hold(Button.MENU),
}
"""The encoder kit's keys: OK is the encoder's push switch."""

KEYPAD_LAYOUT: tuple[tuple[str, ...], ...] = (
    ("A", "2", "3", "J"),
    ("4", "5", "6", "Q"),
    ("7", "8", "9", "K"),
    ("undo", "10", "go", "ok"),
)
"""What each key of a standard ``1 2 3 A / 4 5 6 B / 7 8 9 C / * 0 # D`` keypad means:
``1`` is the ace, ``0`` the ten, ``A B C`` jack, queen, king, ``*`` UNDO, ``#`` GO, ``D`` OK."""

_RANK_BY_KEY = {"A": Rank.ACE, "J": Rank.JACK, "Q": Rank.QUEEN, "K": Rank.KING} | {
    str(n): Rank(n) for n in range(2, 11)
}


def _keypad_action(name: str) -> KeyAction:
    if name == "ok":
        # The keypad has no MENU key: holding OK opens the menu.
        return KeyAction(Press(Button.OK), hold=Press(Button.MENU))
    if name == "go":
        return _tap_hold(Button.GO)
    if name == "undo":
        return KeyAction(Press(Button.UNDO), repeat=Press(Button.UNDO, repeat=True))
    rank = _RANK_BY_KEY[name]
    # Held, a rank key asks for that rank's suit facts ("J, with nobs", "7, in the flush").
    return KeyAction(RankKey(rank), hold=RankKey(rank, long=True))


KEYPAD_KEYS: Mapping[str, KeyAction] = {
    name: _keypad_action(name) for row in KEYPAD_LAYOUT for name in row
}
"""The keypad kit's keys, by the names in :data:`KEYPAD_LAYOUT`."""


# Protocols only the type checker reads (no isinstance on them): not made at run time.
if TYPE_CHECKING:
    class InputKit(Protocol):
        """A physical input kit as the loop sees it."""

        def translate(self, item: RawInput) -> list[InputEvent]:
            """Gestures completed by one raw item from the queue."""
            ...

        def poll(self, now: float) -> list[InputEvent]:
            """Gestures that became due by ``now`` (holds, repeats, keypad scans)."""
            ...

        def next_deadline(self) -> float | None:
            """When :meth:`poll` must next be called, if at all."""
            ...

        def close(self) -> None:
            """Release the pins."""
            ...


def _factory_kwargs(pin_factory: Factory | None) -> dict[str, Any]:
    return {} if pin_factory is None else {"pin_factory": pin_factory}


class EncoderKit:
    """A KY-040 style encoder (A, B, push) and the GO, UNDO and MENU buttons.

    All switches are wired to ground and use the Pi's internal pull-ups. Turns are decoded by
    gpiozero's :class:`~gpiozero.RotaryEncoder` (its state machine already rejects contact
    chatter); each button is a plain :class:`~gpiozero.DigitalInputDevice` without gpiozero's
    own bounce handling, whose edges go through :class:`KeyGestures` (:func:`_button`).
    """

    def __init__(
        self,
        sink: Sink,
        clock: Clock,
        *,
        pins: EncoderPins | None = None,
        timing: Timing | None = None,
        pin_factory: Factory | None = None,
    ) -> None:
        self.pins = pins or EncoderPins()
        self.gestures = KeyGestures(dict(ENCODER_KEYS), timing)
        kw = _factory_kwargs(pin_factory)
        self._devices: list[Any] = []
        # max_steps=0: an unbounded counter; only the direction of each detent is used.
        encoder = gpiozero.RotaryEncoder(self.pins.a, self.pins.b, max_steps=0, **kw)
        encoder.when_rotated_clockwise = lambda: sink(EncoderStep(1, clock.now()))
        encoder.when_rotated_counter_clockwise = lambda: sink(EncoderStep(-1, clock.now()))
        self._devices.append(encoder)
        named = {"ok": self.pins.push, "go": self.pins.go, "undo": self.pins.undo,
                 "menu": self.pins.menu}
        for name, pin in named.items():
            self._devices.append(_button(pin, name, sink, clock, kw))

    def translate(self, item: RawInput) -> list[InputEvent]:
        """A detent becomes ``KnobTurn(±1)``; a button edge goes through the gesture rules."""
        if isinstance(item, EncoderStep):
            return [*self.gestures.poll(item.t), KnobTurn(item.direction)]
        return self.gestures.edge(item)

    def poll(self, now: float) -> list[InputEvent]:
        """Holds and repeats due by ``now``."""
        return self.gestures.poll(now)

    def next_deadline(self) -> float | None:
        """The next hold or repeat time, if a button is down."""
        return self.gestures.next_deadline()

    def close(self) -> None:
        """Release every pin."""
        for device in reversed(self._devices):
            device.close()
        self._devices.clear()


def _button(pin: int, name: str, sink: Sink, clock: Clock, kw: dict[str, Any]) -> Any:
    """A button wired to ground (the Pi's pull-up; pressed is low), its edges put in ``sink``.

    A :class:`~gpiozero.DigitalInputDevice`, not a :class:`~gpiozero.Button`: a Button starts
    a thread of its own for its hold events, which wakes ten times a second for as long as
    the board runs, and the holds here are :class:`KeyGestures`'s."""
    button = gpiozero.DigitalInputDevice(pin, pull_up=True, bounce_time=None, **kw)
    button.when_activated = _edge_callback(sink, clock, name, True)
    button.when_deactivated = _edge_callback(sink, clock, name, False)
    return button


def _edge_callback(sink: Sink, clock: Clock, key: str, pressed: bool) -> Callable[[], None]:
    def callback() -> None:
        sink(RawEdge(key, pressed, clock.now()))

    return callback


class ButtonPins(Value):
    """BCM pin numbers of the GO, UNDO and MENU buttons beside a keypad (wired to ground)."""

    __slots__ = ("go", "menu", "undo")
    __match_args__ = ("go", "undo", "menu")

    go: int
    undo: int
    menu: int

    def __init__(
        self,
        go: int = _WIRED.button_go,
        undo: int = _WIRED.button_undo,
        menu: int = _WIRED.button_menu,
    ) -> None:
        setter = object.__setattr__
        setter(self, "go", go)
        setter(self, "undo", undo)
        setter(self, "menu", menu)


KEYPAD_BUTTONS: Mapping[str, KeyAction] = {
    "button_go": _tap_hold(Button.GO),
    "button_undo": KeyAction(Press(Button.UNDO), repeat=Press(Button.UNDO, repeat=True)),
    "button_menu": _tap_hold(Button.MENU),
}
"""The three buttons as the keypad kit names them (its own keys already use "go", "undo")."""


class KeypadKit:
    """A 4x4 membrane keypad, and the GO, UNDO and MENU buttons when their pins are given.

    The scan drives one row low at a time and reads the columns with pull-ups; a pressed key
    joins its row to its column, so a column reads low while its key's row is driven. Every
    row that is not being scanned is an *input* with a pull-up, never an output driven high:
    two keys held in one column join two row pins, and a high output joined to the low one
    would be a short across the Pi's GPIO drivers (the Linux ``matrix-keypad`` driver and
    CircuitPython's ``keypad.KeyMatrix`` release idle rows in the same way). So at most one
    pin of the matrix is ever an output.

    The loop calls :meth:`poll`, which scans every ``scan_s`` seconds; a change of a key's
    level becomes a :class:`RawEdge` for the gesture rules, timestamped with the scan. The
    buttons report their edges through ``sink`` like the encoder kit's.
    """

    def __init__(
        self,
        clock: Clock,
        *,
        pins: KeypadPins | None = None,
        timing: Timing | None = None,
        scan_s: float = 0.01,
        layout: Sequence[Sequence[str]] = KEYPAD_LAYOUT,
        pin_factory: Factory | None = None,
        buttons: ButtonPins | None = None,
        sink: Sink | None = None,
    ) -> None:
        self.pins = pins or KeypadPins()
        self.layout = tuple(tuple(row) for row in layout)
        keys = {name: KEYPAD_KEYS[name] for row in self.layout for name in row}
        if buttons is not None:
            keys |= KEYPAD_BUTTONS
        self.gestures = KeyGestures(keys, timing)
        self.scan_s = scan_s
        kw = _factory_kwargs(pin_factory)
        # Plain GPIODevices: the scan switches each row's pin between input and output itself.
        self._rows = [gpiozero.GPIODevice(pin, **kw) for pin in self.pins.rows]
        for row in self._rows:
            row.pin.input_with_pull("up")
        self._cols = [gpiozero.DigitalInputDevice(pin, pull_up=True, **kw)
                      for pin in self.pins.cols]
        self._buttons: list[Any] = []
        if buttons is not None:
            if sink is None:
                raise ValueError("the keypad kit's buttons need a sink for their edges")
            named = {"button_go": buttons.go, "button_undo": buttons.undo,
                     "button_menu": buttons.menu}
            for name, pin in named.items():
                self._buttons.append(_button(pin, name, sink, clock, kw))
        self._down: set[str] = set()
        self._next_scan = clock.now()

    def translate(self, item: RawInput) -> list[InputEvent]:
        """A button's edge from the queue goes through the gesture rules (the keypad itself
        puts nothing on the queue)."""
        if isinstance(item, EncoderStep):
            return []
        return self.gestures.edge(item)

    @property
    def down(self) -> frozenset[str]:
        """The keys that were down at the last scan (what the gesture rules were told)."""
        return frozenset(self._down)

    def scan(self) -> set[str]:
        """The names of the keys that are down right now (one pass over the rows)."""
        down: set[str] = set()
        for r, row in enumerate(self._rows):
            row.pin.output_with_state(False)
            try:
                for c, col in enumerate(self._cols):
                    if col.is_active:
                        down.add(self.layout[r][c])
            finally:
                row.pin.input_with_pull("up")
        return down

    def poll(self, now: float) -> list[InputEvent]:
        """Scan if a scan is due, then report gestures due by ``now``."""
        out: list[InputEvent] = []
        if now >= self._next_scan:
            down = self.scan()
            for name in self.gestures.names:
                if (name in down) != (name in self._down):
                    out.extend(self.gestures.edge(RawEdge(name, name in down, now)))
            self._down = down
            following = self._next_scan + self.scan_s
            # A loop that fell behind scans again one period from now, not in a burst.
            self._next_scan = following if following > now else now + self.scan_s
        out.extend(self.gestures.poll(now))
        return out

    def next_deadline(self) -> float | None:
        """The next scan (the keypad is always scanned)."""
        deadline = self.gestures.next_deadline()
        return self._next_scan if deadline is None else min(deadline, self._next_scan)

    def close(self) -> None:
        """Release every pin."""
        for device in [*self._buttons, *self._rows, *self._cols]:
            device.close()
        self._buttons.clear()
        self._rows.clear()
        self._cols.clear()
