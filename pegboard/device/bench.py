"""The bring-up tests on the box itself: "Test the box" on the home menu, for a builder with
no SSH. They are ``pegboard bringup``'s probes (:mod:`pegboard.hw.bringup`) and LED walk
(:mod:`pegboard.link.walk`), shown on the panel instead of a terminal, in three stages:

1. **Inputs**: every press of GO, UNDO and MENU and of the knob (or every keypad key) with the
   GPIO it came in on (a key with its row and column pins), every detent of the knob with its
   direction and the running count. Single presses are what is tested here, so the way on is
   to **press any switch or key twice** within :data:`DOUBLE_S` seconds, or to **hold** one
   for :data:`HOLD_S` seconds: any one that works will do, the knob's push alone included
   (a builder who has wired only the encoder). A press counts towards a double press only
   after its switch was open for :data:`BOUNCE_S` (the game's debounce), so a contact that
   bounces does not skip the page.
2. **OLED**: the panel's test pattern; any press or detent goes on.
3. **LED walk**: each LED of the strip's chain lit alone in turn, the panel naming its hole;
   any press (as it is let go) or detent leaves, as it does once the walk is done.

Nothing pressed for :data:`IDLE_S` seconds also leaves. The loop has let go of the input kit
while the tests run and makes it again after (:class:`~pegboard.device.loop.Bringup`).
"""

from __future__ import annotations

import collections
import enum
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from PIL import Image

from pegboard.app.view import Screen, View
from pegboard.config import Config
from pegboard.device import build
from pegboard.device.ports import BenchReport
from pegboard.hw.bringup import (
    ENCODER_PUSH,
    Detent,
    EncoderProbe,
    KeyEdge,
    KeypadProbe,
    Probed,
    SwitchEdge,
    SwitchProbe,
    button_switches,
    oled_pattern,
)
from pegboard.link.board import BoardState
from pegboard.link.layout import LedConfig, led_config_from
from pegboard.link.walk import walk_order, walk_screen, walk_step
from pegboard.link.wiring import BCM_TO_HEADER
from pegboard.ui.render import render

if TYPE_CHECKING:
    from gpiozero import Factory

    from pegboard.hw.clock import Clock

HOLD_S = 2.0
"""Holding any switch or key this long on the inputs' page goes on to the next test."""
DOUBLE_S = 0.5
"""Two presses of one switch or key this close (the first press to the second) on the inputs'
page go on to the next test."""
BOUNCE_S = 0.02
"""A press counts towards a double press only after its switch was open this long: the
bounces of one press (edges a few milliseconds apart) are not two presses."""
IDLE_S = 120.0
"""Nothing pressed or turned for this long: the tests end and the game's screens come back."""
STEP_S = 0.3
"""How long each LED of the walk stays lit."""
SCAN_S = 0.02
"""How often the keypad's matrix is scanned (as the game scans it)."""
ROOM = 4
"""Lines of text the panel shows under the title (the hint takes the last)."""


class Stage(enum.Enum):
    """The bring-up tests, in the order the builder goes through them."""

    INPUTS = "inputs"
    OLED = "OLED"
    LEDS = "LED walk"


NO_LED_BOARD = ("No LED board: the", "config's [link] names", "no device.")
"""The walk's page when the box has no LED board."""

WHAT_THE_PATTERN_SHOWS = ("A frame on all four", "edges, the triangle", "top left, every",
                          "square of the board.")
"""The test pattern's page in words (for a screen that cannot show the pattern's pixels,
the simulator's terminal): what a good panel shows (:func:`oled_pattern`)."""

ScanSeen = Callable[[frozenset[str], float], None]
"""Told the keys down at each scan of the keypad and its time (the simulator's hands, which
hold a key until a scan has seen it)."""


class WalkBoard(Protocol):
    """The LED board as the walk uses it (:class:`~pegboard.link.led_board.SerialLedBoard`)."""

    def show_board(self, board: BoardState) -> None:
        """Show this board as it is."""
        ...

    @property
    def is_up(self) -> bool:
        """Whether the Pico answers."""
        ...


def switch_line(edge: SwitchEdge) -> str:
    """A switch pressed, as the panel says it: its name, GPIO and header pin
    ("UNDO GPIO 23 pin 16"; the knob's push is "push")."""
    name = "push" if edge.name == ENCODER_PUSH else edge.name
    header = BCM_TO_HEADER.get(edge.pin)
    return f"{name} GPIO {edge.pin}" + ("" if header is None else f" pin {header}")


def detent_line(detent: Detent) -> str:
    """A detent, as the panel says it: its direction and the count since the tests began."""
    return f"{'clockwise' if detent.direction > 0 else 'anticlockwise'} {detent.count:+d}"


def key_lines(edge: KeyEdge) -> tuple[str, str]:
    """A keypad key pressed, as the panel says it: its legend, row and column, then the two
    GPIOs that joined (a key named at another place means the ribbon is reversed or
    shifted)."""
    return (f"key {edge.legend}: row {edge.row}, col {edge.col}",
            f"  GPIO {edge.row_pin} x GPIO {edge.col_pin}")


class Bench:
    """The bring-up tests while they run (the loop's
    :class:`~pegboard.device.ports.BenchTests`). The probes open on the config's pins as
    this is made (:class:`~pegboard.hw.bringup.PinsUnavailable` when they cannot); their
    callbacks put :class:`~pegboard.device.ports.BenchReport` items on the loop's queue
    (``sink``), which the loop hands back to :meth:`take`."""

    def __init__(self, config: Config, sink: Callable[[object], None], clock: Clock, *,
                 leds: WalkBoard | None = None, pin_factory: Factory | None = None,
                 without_leds: tuple[str, ...] = NO_LED_BOARD,
                 scanned: ScanSeen | None = None) -> None:
        self.stage = Stage.INPUTS
        self.done = False
        self.keypad = config.input.kit == "keypad"
        self.lines: collections.deque[str] = collections.deque(
            self._invitation(), maxlen=ROOM)
        self._invited = True  # the invitation is on the page until the first report
        self._leds = leds
        self._without_leds = without_leds
        self._scanned = scanned
        self._cfg: LedConfig = led_config_from(config.leds)
        self._walk = walk_order(self._cfg) if leds is not None else []
        self._walked = 0
        self._step_at: float | None = None
        now = clock.now()
        self._last = now  # the last report: the idle limit counts from it
        self._scan_at = now
        self._held: dict[str, float] = {}  # each switch or key down now, since when
        self._spent: set[str] = set()  # held long enough once: counts again after a release
        self._opened: dict[str, float] = {}  # each switch or key let go, when
        self._counted: dict[str, float] = {}  # each one's last press that counted, when
        self._leaving: str | None = None  # pressed to leave: the tests end as it is let go
        self._drawn: tuple[tuple[Stage, tuple[str, ...]], Image.Image] | None = None
        self._probes: list[SwitchProbe | EncoderProbe] = []
        self._matrix: KeypadProbe | None = None

        def put(item: Probed) -> None:
            sink(BenchReport(item))

        i = config.input
        try:
            self._probes.append(SwitchProbe(button_switches(build.button_pins(i)), put, clock,
                                            pin_factory=pin_factory))
            if self.keypad:
                self._matrix = KeypadProbe(build.keypad_pins(i), clock, pin_factory=pin_factory)
            else:
                self._probes.append(EncoderProbe(build.encoder_pins(i), put, clock,
                                                 pin_factory=pin_factory))
        except BaseException:
            self.close()
            raise

    def _invitation(self) -> tuple[str, ...]:
        if self.keypad:
            return ("Press every key, 1", "to D, and GO, UNDO,", "MENU: each shows its",
                    "pins.")
        return ("Press GO, UNDO, MENU", "and the knob; turn", "the knob one detent",
                "each way.")

    def _hint(self) -> str:
        return "Any key twice: next" if self.stage is Stage.INPUTS else "Any key: leave"

    # -- the loop's side ----------------------------------------------------------------------

    def take(self, item: object, now: float) -> None:
        """One item from the loop's queue: a probe's report is seen; anything else (a key
        the kit queued before it let go) is not."""
        if isinstance(item, BenchReport) and isinstance(item.report, SwitchEdge | Detent):
            self._seen(item.report, now)

    def poll(self, now: float) -> None:
        """Scan the keypad, then end what is due: a hold, the idle limit, a step of the
        walk."""
        if self._matrix is not None and now >= self._scan_at:
            for edge in self._matrix.poll():
                self._seen(edge, now)
            self._scan_at = now + SCAN_S
            if self._scanned is not None:
                self._scanned(self._matrix.down, now)
        if self.done:
            return
        if now - self._last >= IDLE_S:
            self.done = True
            return
        if self.stage is Stage.INPUTS:
            for name, since in self._held.items():
                if name not in self._spent and now - since >= HOLD_S:
                    self._spent.add(name)
                    self._next(now)
                    break
        if self._step_at is not None and now >= self._step_at:
            self._step(now)

    def next_deadline(self) -> float:
        """The next scan, hold, walk step or the idle limit, whichever comes first."""
        deadlines = [self._last + IDLE_S]
        if self._matrix is not None:
            deadlines.append(self._scan_at)
        if self.stage is Stage.INPUTS:
            deadlines += [since + HOLD_S for name, since in self._held.items()
                          if name not in self._spent]
        if self._step_at is not None:
            deadlines.append(self._step_at)
        return min(deadlines)

    def picture(self) -> Image.Image:
        """The panel: the test pattern during the OLED's test, else the stage's page (drawn
        again only when it changed: the loop asks at every keypad scan)."""
        shown = (self.stage, tuple(self.lines))
        if self._drawn is not None and self._drawn[0] == shown:
            return self._drawn[1]
        image = oled_pattern() if self.stage is Stage.OLED else render(self.words())
        self._drawn = (shown, image)
        return image

    def words(self) -> View:
        """The page as a view: the stage's lines (the test pattern's, what it should show)
        and what the keys do. The panel draws it but for the test pattern; a screen that
        cannot show the panel's pixels legibly shows these words."""
        number = list(Stage).index(self.stage) + 1
        lines = WHAT_THE_PATTERN_SHOWS if self.stage is Stage.OLED else tuple(self.lines)
        hint = "Any key: next" if self.stage is Stage.OLED else self._hint()
        return View(Screen.MESSAGE, title=f"Test {number}/3: {self.stage.value}",
                    lines=lines, hint=hint)

    def close(self) -> None:
        """Release every probe's pins; a walk left part way puts the pegs back at the start
        (the tests are opened between games only)."""
        if self._leds is not None and self._walked and self._step_at is not None:
            self._leds.show_board(BoardState.start(self._cfg.tracks))
            self._step_at = None
        if self._matrix is not None:
            self._matrix.close()
            self._matrix = None
        for probe in reversed(self._probes):
            probe.close()
        self._probes.clear()

    # -- what the builder does ----------------------------------------------------------------

    def _seen(self, item: Probed, now: float) -> None:
        self._last = now
        lines: tuple[str, ...]
        if isinstance(item, Detent):
            pressed, lines = True, (detent_line(item),)
        else:
            name = f"GPIO {item.pin}" if isinstance(item, SwitchEdge) else f"key {item.legend}"
            pressed = item.pressed
            if not pressed:
                self._held.pop(name, None)
                self._spent.discard(name)
                self._opened[name] = item.t
                if name == self._leaving:
                    self.done = True
                return
            self._held[name] = item.t
            lines = (switch_line(item),) if isinstance(item, SwitchEdge) else key_lines(item)
            if self.stage is Stage.INPUTS and self._twice(name, item.t):
                self._next(now)
                return
        if self.stage is Stage.INPUTS:
            if self._invited:
                self.lines.clear()
                self._invited = False
            self.lines.extend(lines)
        elif self.stage is Stage.LEDS and not isinstance(item, Detent):
            self._leaving = name  # leave once it is let go: the game's kit, made again
            # then, would take a key still down for a press of its own
        elif pressed:  # the pattern and the walk: any press or detent goes on
            self._next(now)

    def _twice(self, name: str, t: float) -> bool:
        """Whether this press of ``name`` at ``t`` is the second of a double press: a press
        counts when its switch had been open for :data:`BOUNCE_S` (a bounce does not), and
        two counted presses within :data:`DOUBLE_S` are a double press."""
        opened = self._opened.get(name)
        if opened is not None and t - opened < BOUNCE_S:
            return False
        last = self._counted.get(name)
        if last is not None and t - last <= DOUBLE_S:
            self._counted.clear()
            return True
        self._counted[name] = t
        return False

    def _next(self, now: float) -> None:
        if self.stage is Stage.INPUTS:
            self.stage = Stage.OLED
        elif self.stage is Stage.OLED:
            self.stage = Stage.LEDS
            self.lines.clear()
            if self._leds is None:
                self.lines.extend(self._without_leds)
            else:
                self._step_at = now
                self._step(now)
        else:
            self.done = True

    def _step(self, now: float) -> None:
        """Light the walk's next LED alone (once the board answers), or, after the last, put
        the pegs at the start and say the walk is done."""
        board = self._leds
        assert board is not None
        self.lines.clear()
        self._step_at = now + STEP_S
        if not board.is_up:
            self.lines.extend(("Waiting for the LED", "board (the Pico on", "USB)."))
            return
        if self._walked < len(self._walk):
            step = self._walk[self._walked]
            _, lit = walk_step(self._cfg, *step)
            self._walked += 1
            board.show_board(lit)
            self.lines.extend(walk_screen(self._cfg, *step))
            return
        board.show_board(BoardState.start(self._cfg.tracks))
        self._step_at = None
        self.lines.extend((f"Done: {len(self._walk)} LEDs", "each lit once."))
