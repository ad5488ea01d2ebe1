"""The whole device on a desktop: gpiozero mock pins, the real kit, app, store and loop.

Keys reach the app the same way as on a Pi: :class:`~pegboard.sim.hands.MockHands` drives the
mock pins, gpiozero's devices see the edges and call back, the callbacks put raw items on the
loop's queue, and the one loop does the rest. Only the pin factory and the display differ.

The simulator's keys come from the terminal (or a script), never from the pins themselves,
so the mock pins and the kit on them are made when the first key is pressed rather than
before the first screen: until then no pin can change, so the kit would have nothing to
report. The first key makes them on the thread that presses it, before any pin is driven, so
it goes through the same gpiozero code as every other key and nothing is lost or reordered
(keys typed meanwhile wait in the terminal).

With a real clock the loop runs on its own thread and the keypad's keys are found by its scan,
so the kit reports each poll's scan to the hands' :class:`~pegboard.sim.hands.ScanWatch`: a
typed key is held down until the scan has seen it (:mod:`pegboard.sim.hands`).

"Test the box" on the home menu runs the box's bring-up tests (:mod:`pegboard.device.bench`)
on the same mock pins: the kit lets go of them, the probes open on them, and the keys stand
for the inputs as they do in a game, so each press is shown with its input's name and pins,
each detent with its direction and each keypad key with its row and column. The test pattern
goes on the simulated panel and the LED walk to the simulated board (``--leds``), so a
builder can learn the tests on a desktop before the box is wired.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from PIL import Image

from pegboard import lazy
from pegboard.app.state import AppState
from pegboard.app.view import View
from pegboard.config import Config
from pegboard.device.build import APP, initial_state, make_club_watch, outputs
from pegboard.device.loop import Bringup, DeviceLoop
from pegboard.sim.fakes import FakeClock
from pegboard.sim.keys import KeyStep
from pegboard.store import Store

if TYPE_CHECKING:
    import gpiozero
    from gpiozero.pins import mock

    from pegboard.device import bench, build
    from pegboard.hw import inputs
    from pegboard.sim import fakes
    from pegboard.sim import hands as sim_hands
else:
    bench = lazy.module("pegboard.device.bench")
    build = lazy.module("pegboard.device.build")
    fakes = lazy.module("pegboard.sim.fakes")
    gpiozero = lazy.module("gpiozero")
    sim_hands = lazy.module("pegboard.sim.hands")
    inputs = lazy.module("pegboard.hw.inputs")
    mock = lazy.module("gpiozero.pins.mock")

if TYPE_CHECKING:
    from gpiozero.pins.mock import MockFactory

    from pegboard.app.inputs import InputEvent
    from pegboard.device.bench import WalkBoard
    from pegboard.device.observers import Observer, Speech
    from pegboard.device.ports import LedBoard
    from pegboard.hw.clock import Clock
    from pegboard.hw.inputs import InputKit, RawInput
    from pegboard.hw.oled import Display
    from pegboard.sim.hands import MockHands

FrameHook = Callable[[View, Image.Image], None]

SIM_WITHOUT_LEDS = ("No LED board: start", "pegboard sim --leds", "to walk the sim's.")
"""The LED walk's page in a simulator started without its board."""


class MockPins(NamedTuple):
    """The simulator's pins once made: gpiozero's mock factory (with the default factory it
    replaced, put back at the end), the kit on it and the hands that press its keys."""

    factory: MockFactory
    previous: Any
    kit: InputKit
    hands: MockHands


PINS_MADE = object()
"""Put on the loop's queue once the pins are made, so that a loop waiting out its idle tick
works out its next deadline again at once: the keypad is scanned from then on, before the
hands hold its first key down."""


class KitOnFirstKey:
    """The loop's input kit: none until the first key makes one (``made``).

    Before that no pin exists, so there is nothing to translate, poll or release; afterwards
    every call goes to the kit made.
    """

    def __init__(self) -> None:
        self.made: InputKit | None = None
        # Told the time of each poll of the made kit: the interactive keypad's scan watch.
        self.scanned: Callable[[float], None] | None = None

    def translate(self, item: RawInput) -> list[InputEvent]:
        """Gestures completed by one raw item (only the made kit's pins put any)."""
        if item is PINS_MADE:
            return []
        assert self.made is not None, f"{item!r} before the pins were made"
        return self.made.translate(item)

    def poll(self, now: float) -> list[InputEvent]:
        """The made kit's due gestures; none before the first key."""
        if self.made is None:
            return []
        events = self.made.poll(now)
        if self.scanned is not None:
            self.scanned(now)
        return events

    def next_deadline(self) -> float | None:
        """The made kit's next deadline; none before the first key."""
        return self.made.next_deadline() if self.made is not None else None

    def close(self) -> None:
        """Release the made kit's pins, if any were made."""
        if self.made is not None:
            self.made.close()


class Simulator:
    """Pegboard on mock pins. With a :class:`FakeClock`, time moves only as keys are pressed
    (scripts, tests); with a real clock the loop is meant to run on its own thread."""

    def __init__(
        self,
        config: Config,
        store: Store | Any,
        display: Display,
        *,
        clock: Clock,
        on_frame: FrameHook | None = None,
        leds: LedBoard | None = None,
        notice: Callable[[str], None] | None = None,
        speech: Speech[AppState] | None = None,
        phones: Observer[AppState] | None = None,
        walk: WalkBoard | None = None,
        status: Observer[AppState] | None = None,
    ) -> None:
        self.config = config
        self.walk = walk  # the board the bring-up's LED walk lights (``leds``'s, with --leds)
        self.clock = clock
        self.store = store
        self.inbox: queue.Queue[Any] = queue.Queue()
        self._kit = KitOnFirstKey()
        self._pins: MockPins | None = None
        self._making = threading.Lock()
        self._ended = False
        state = initial_state(config, store, notice)
        self.loop = DeviceLoop(
            APP, state, kit=self._kit, inbox=self.inbox, display=display, store=store,
            clock=clock, observers=[*outputs(speech, leds, phones, make_club_watch(config)),
                                    *([status] if status is not None else [])],
            contrast=config.display.contrast,
            on_frame=on_frame,
            bringup=Bringup(open=self._open_tests, kit=self._kit_again),
        )

    @property
    def factory(self) -> MockFactory:
        """gpiozero's mock pin factory the keys are pressed on (made with the kit)."""
        return self.mock_pins().factory

    @property
    def hands(self) -> MockHands:
        """The hands that press keys on the mock pins (made with the kit)."""
        return self.mock_pins().hands

    def mock_pins(self) -> MockPins:
        """The mock pins, the kit on them and the hands, made now if not yet: gpiozero's
        factory becomes the default, the keypad's wiring is laid before its devices (as
        :class:`~pegboard.sim.fakes.MockKeypadMatrix` needs) and the loop's kit is the
        one made here from then on."""
        with self._making:
            if self._pins is None:
                self._pins = self._make_pins()
                self._kit.made = self._pins.kit
                self._kit.scanned = self._scanned(self._pins)
                self.inbox.put(PINS_MADE)
            return self._pins

    def _make_pins(self) -> MockPins:
        config = self.config.input
        factory = mock.MockFactory()
        previous = gpiozero.Device.pin_factory
        gpiozero.Device.pin_factory = factory
        matrix = None
        if config.kit == "keypad":
            pins = build.keypad_pins(config)
            matrix = fakes.MockKeypadMatrix(factory, pins.rows, pins.cols)
        kit = build.make_kit(config, self.inbox.put, self.clock, pin_factory=factory)
        fake = isinstance(self.clock, FakeClock)
        wait = self._fake_wait if fake else time.sleep
        # Under a real clock the loop scans the keypad on its own thread: the hands hold each
        # key until the scan has seen it. Under a fake clock ``wait`` runs the scans itself.
        scan = sim_hands.ScanWatch() if matrix is not None and not fake else None
        if scan is not None and self._ended:
            scan.end()
        hands = sim_hands.MockHands(factory, config.kit, wait, hold_s=config.hold_s,
                                    encoder_pins=build.encoder_pins(config), keypad=matrix,
                                    scan=scan)
        return MockPins(factory, previous, kit, hands)

    @staticmethod
    def _scanned(pins: MockPins) -> Callable[[float], None] | None:
        """What tells the hands' watch each poll of the keypad kit (None without a watch)."""
        scan, kit = pins.hands.scan, pins.kit
        if scan is None or not isinstance(kit, inputs.KeypadKit):
            return None
        return lambda now: scan.saw(kit.down, now)

    def _open_tests(self, now: float) -> bench.Bench:
        """The bring-up tests on the mock pins the kit has just let go of (made now, and let
        go of, if no key has made them yet)."""
        made_now = self._pins is None
        pins = self.mock_pins()
        if made_now:
            pins.kit.close()
        scan = pins.hands.scan
        return bench.Bench(self.config, self.inbox.put, self.clock, leds=self.walk,
                           pin_factory=pins.factory, without_leds=SIM_WITHOUT_LEDS,
                           scanned=scan.saw if scan is not None else None)

    def _kit_again(self) -> KitOnFirstKey:
        """The kit made again on the mock pins once the tests let go of them; the loop's kit
        is the same stand-in, now holding it."""
        with self._making:
            assert self._pins is not None, "the tests ran before the pins were made"
            kit = build.make_kit(self.config.input, self.inbox.put, self.clock,
                                 pin_factory=self._pins.factory)
            self._pins = self._pins._replace(kit=kit)
            self._kit.made = kit
            self._kit.scanned = self._scanned(self._pins)
        return self._kit

    def start(self) -> None:
        """Draw the first frame."""
        self.loop.start()

    def press(self, step: KeyStep) -> None:
        """Perform one key step on the mock pins (made first, on the first key)."""
        self.hands.do(step)

    def _fake_wait(self, seconds: float) -> None:
        # Move the fake clock deadline by deadline, so holds, repeats, scans and idle ticks
        # happen at the moments they would on the real device.
        assert isinstance(self.clock, FakeClock)
        end = self.clock.now() + seconds
        while True:
            now = self.clock.now()
            target = min(self.loop.next_deadline(), end)
            if target > now:
                self.clock.advance(target - now)
            self.loop.pump()
            if self.clock.now() >= end or not self.loop.running:
                return

    def loop_ended(self) -> None:
        """The loop runs no more: hands holding a key for its scan to see let go at once."""
        with self._making:
            self._ended = True
            if self._pins is not None and self._pins.hands.scan is not None:
                self._pins.hands.scan.end()

    def power_cut(self) -> None:
        """Stop dead, as when the plug is pulled: nothing more is drawn or saved."""
        self.loop.running = False
        self.loop_ended()
        self._release_pins()

    def close(self) -> None:
        """Leave the "game saved" frame, release the pins and restore the pin factory."""
        self.loop_ended()
        try:
            self.loop.close()
        finally:
            self._release_pins()

    def _release_pins(self) -> None:
        with self._making:
            if self._pins is not None:
                self._pins.factory.reset()
                gpiozero.Device.pin_factory = self._pins.previous
