"""The one loop: inputs in, ``step``, effects out, in a single thread that owns all state.

Each turn of :meth:`DeviceLoop.run`:

1. Wait on the queue until an item arrives or the next deadline (a hold or repeat, a keypad
   scan, an observer's timed work such as the LED link's heartbeat, the idle tick, the
   watchdog) comes.
2. Take that item and everything else already queued; the kit turns raw items into gestures
   (neighbouring encoder detents are merged into one ``KnobTurn``), then the kit's and the
   observers' timed work adds theirs, and an idle ``Tick`` is added once per ``tick_s``.
3. For each event: ``state, effects = step(state, event, now)``; the store effects run first
   and durably; if one fails, the step is dropped (the state stays as it was, so the app and
   the store still agree) and a "not saved" notice is shown. The engine's reports of the
   entries saved and of those taken back are kept for the observers
   (:class:`~pegboard.app.effects.Changes`).
4. Then, once for the whole batch, every observer is told what it did
   (:class:`~pegboard.device.observers.Seen`: the state, the reports added and withdrawn,
   the effects asked of the outputs, the view): the OLED first, then the voice and the LED
   board, in the order of the one observer list (:mod:`pegboard.device.observers`). So no
   output ever shows or says anything the store does not have. A voice that cannot be heard
   is shown once as a notice until the next key.
5. The watchdog is pinged from here, so a stuck loop is restarted by systemd.

:meth:`DeviceLoop.pump` runs steps 2 to 5 without waiting, which is how the tests and the
scripted simulator drive it under a :class:`~pegboard.sim.fakes.FakeClock`.
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from PIL import Image

from pegboard import lazy
from pegboard.app.effects import (
    AudioMode,
    BringUp,
    Changes,
    Earcon,
    Effect,
    FactsEntered,
    FinishGame,
    OfferPairing,
    Persist,
    PersistNewGame,
    PersistUndo,
    PowerOff,
    Quit,
    ReadScreen,
    ReleaseSeat,
    SayAgain,
    SayScore,
    SeatAnswer,
    SeatNotice,
    SetBrightness,
    UpdateLeds,
)
from pegboard.app.inputs import InputEvent, KnobTurn, Tick
from pegboard.app.view import Screen, View
from pegboard.device.observers import Closing, Oled, Polled, Seen, Voice
from pegboard.errors import PegboardError
from pegboard.rules.value import Value
from pegboard.ui.render import render

if TYPE_CHECKING:  # the kit's module comes with the kit (the simulator's, on the first key)
    from pegboard.device import ports
    from pegboard.device.observers import Observer
    from pegboard.device.ports import BenchTests, GameStore, Watchdog
    from pegboard.hw.clock import Clock
    from pegboard.hw.inputs import InputKit, RawInput
    from pegboard.hw.oled import Display
else:  # the bring-up probes' reports: only once "Test the box" has run
    ports = lazy.module("pegboard.device.ports")

__all__ = ["STOP", "App", "Bringup", "DeviceLoop", "FrameStats", "NoWatchdog"]

log = logging.getLogger(__name__)

S = TypeVar("S")
S_contra = TypeVar("S_contra", contravariant=True)

STOP = object()
"""Put this on the queue to make :meth:`DeviceLoop.run` return after the current turn."""



class App(Value, Generic[S]):
    """The pure app as the loop uses it: ``step`` and ``view``."""

    __slots__ = ("scores", "step", "view")
    __match_args__ = ("step", "view", "scores")

    step: Callable[[S, InputEvent, float], tuple[S, Sequence[Effect]]]
    view: Callable[[S], View]
    scores: Callable[[S], Sequence[int] | None] | None
    """The scores a state shows, kept with each saved entry for the next start-up's first
    frame (None: the store keeps none)."""

    def __init__(
        self,
        step: Callable[[S, InputEvent, float], tuple[S, Sequence[Effect]]],
        view: Callable[[S], View],
        scores: Callable[[S], Sequence[int] | None] | None = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "step", step)
        setter(self, "view", view)
        setter(self, "scores", scores)


class Bringup:
    """How the loop hands the box to its bring-up tests and takes it back: ``open(now)`` opens
    the tests' probes on the pins the kit has let go of (the first call loads them, when the
    builder picks "Test the box"); ``kit()`` makes the input kit again once the tests are
    closed."""

    def __init__(self, open: Callable[[float], BenchTests],
                 kit: Callable[[], InputKit]) -> None:
        self.open = open
        self.kit = kit


class NoWatchdog:
    """Not running under systemd's watchdog."""

    def tick(self, now: float) -> bool:
        """Nothing to ping."""
        return False


class FrameStats:
    """Counters the tests and the benchmark read."""

    __slots__ = ("batches", "failed_saves", "frames", "persisted", "steps")

    def __init__(self) -> None:
        self.steps = 0
        self.frames = 0
        self.persisted = 0
        self.failed_saves = 0
        self.batches: list[float] = []


class DeviceLoop(Generic[S]):
    """Wires a kit, the app, the store and the observers (see module doc). The OLED panel
    ``display`` is the first observer (the loop also leaves the "game saved" frame on it at
    shutdown); ``observers`` follow it in order (the voice, the LED board)."""

    def __init__(
        self,
        app: App[S],
        state: S,
        *,
        kit: InputKit,
        inbox: queue.Queue[Any] | queue.SimpleQueue[Any],
        display: Display,
        store: GameStore,
        clock: Clock,
        observers: Sequence[Observer[S]] = (),
        watchdog: Watchdog | None = None,
        contrast: int = 255,
        tick_s: float = 1.0,
        on_power_off: Callable[[], None] | None = None,
        on_frame: Callable[[View, Image.Image], None] | None = None,
        bringup: Bringup | None = None,
    ) -> None:
        self.app = app
        self.state = state
        self.kit = kit
        self.inbox = inbox
        self.store = store
        self.clock = clock
        self.oled: Oled[S] = Oled(display, contrast, on_frame)
        self.observers: tuple[Observer[S], ...] = (self.oled, *observers)
        self.watchdog = watchdog or NoWatchdog()
        self.tick_s = tick_s
        self.on_power_off = on_power_off
        self.stats = FrameStats()
        self.running = True
        self.powering_off = False
        self._notice: View | None = None
        self._voice_shown: str | None = None
        self._changes = Changes()  # what this batch's saved effects added and withdrew
        self._asked: list[Effect] = []
        self._stepped = False
        self._next_tick = clock.now() + tick_s
        self.bringup = bringup
        self.bench: BenchTests | None = None
        """The bring-up tests while they have the inputs and the panel (else None)."""
        self._benched = False  # whether they ever ran: their probes' reports may still come
        self._bench_asked = False

    # -- driving ----------------------------------------------------------------------------

    @property
    def shown(self) -> View | None:
        """The view on the panel."""
        return self.oled.shown

    @property
    def frame(self) -> Image.Image | None:
        """The image on the panel."""
        return self.oled.frame

    def start(self) -> None:
        """Draw the first frame (call once the hardware is set up): every observer sees the
        state at start, in which nothing is new."""
        self._tell(first=True)

    def run(self) -> None:
        """Serve until a ``Quit``/``PowerOff`` effect or :data:`STOP` on the queue."""
        while self.running:
            timeout = self._timeout()
            try:
                first = self.inbox.get(timeout=timeout)
            except queue.Empty:
                first = None
            self._turn(first)

    def pump(self) -> None:
        """One turn without waiting: take what is queued and what is due, then draw."""
        try:
            first = self.inbox.get_nowait()
        except queue.Empty:
            first = None
        self._turn(first)

    def feed(self, events: Sequence[InputEvent]) -> None:
        """Apply ready-made gestures (bypassing the kit), then draw: for tests and tools."""
        now = self.clock.now()
        for event in events:
            self._step(event, now)
        self._finish_batch()

    def close(self) -> None:
        """Leave the "game saved" frame on the screen and release the hardware."""
        self.oled.leave(render(self.saved_view()))
        if self.bench is not None:
            self.bench.close()
        else:
            self.kit.close()
        for observer in self.observers:
            if isinstance(observer, Closing):
                observer.close()

    def saved_view(self) -> View:
        """The frame left on screen at shutdown: the scores as they were saved."""
        view = self.app.view(self.state)
        return View(Screen.SAVED, title="Game saved", sides=view.sides,
                    lines=("Turn on to continue",) if view.sides else ())

    # -- one turn ---------------------------------------------------------------------------

    def next_deadline(self) -> float:
        """The next time something is due without input (tick, hold, scan, link)."""
        if self.bench is not None:  # the kit is closed: no tick, hold or scan of its own
            deadlines: list[float | None] = [self.bench.next_deadline()]
        else:
            deadlines = [self._next_tick, self.kit.next_deadline()]
        deadlines.extend(o.next_deadline() for o in self.observers if isinstance(o, Polled))
        return min(deadline for deadline in deadlines if deadline is not None)

    def _timeout(self) -> float:
        return min(max(0.0, self.next_deadline() - self.clock.now()), self.tick_s)

    def _turn(self, first: Any) -> None:
        items = [] if first is None else [first]
        while True:
            try:
                items.append(self.inbox.get_nowait())
            except queue.Empty:
                break
        stop_asked = any(item is STOP for item in items)
        items = [item for item in items if item is not STOP]
        now = self.clock.now()
        if self.bench is not None:
            self._bench_turn(self.bench, items, now)
            if stop_asked:
                self.running = False
            self.watchdog.tick(now)
            return
        events: list[InputEvent] = []
        for item in items:
            events.extend(self._translate(item))
        events.extend(self.kit.poll(now))
        for observer in self.observers:
            if isinstance(observer, Polled):
                events.extend(observer.poll(now))
        if now >= self._next_tick:
            events.append(Tick())
            self._next_tick = max(self._next_tick + self.tick_s, now)
        for event in _merge_turns(events):
            if not self.running:  # a Quit or PowerOff earlier in this batch
                break
            self._step(event, now)
        if stop_asked:
            self.running = False
        self._finish_batch()
        self.watchdog.tick(now)

    def _translate(self, item: RawInput | InputEvent) -> list[InputEvent]:
        if isinstance(item, InputEvent):  # ready-made gestures (the simulator's extras)
            return [item]
        if self._benched and isinstance(item, ports.BenchReport):
            return []  # a probe's last report, queued as the tests closed
        return self.kit.translate(item)

    # -- the bring-up tests -----------------------------------------------------------------

    def _open_bench(self, now: float) -> None:
        """Let go of the kit and open the bring-up tests on its pins; if they cannot open,
        take the kit back and say why."""
        self._bench_asked = False
        if self.bringup is None:
            self._notice = View(Screen.MESSAGE, title="No bring-up here",
                                lines=("This device has no pins to test: run pegboard "
                                       "bringup on the box.",))
            return
        self.kit.close()
        try:
            self.bench = self.bringup.open(now)
        except (PegboardError, OSError) as error:
            log.error("bring-up: %s", error)
            self.kit = self.bringup.kit()
            self._notice = View(Screen.MESSAGE, title="Cannot test", lines=(str(error),))
            return
        self._benched = True
        log.info("bring-up tests started")
        self.oled.picture(self.bench.picture(), self.bench.words())

    def _bench_turn(self, bench: BenchTests, items: list[Any], now: float) -> None:
        """A turn while the tests run: the probes' reports go to them (the app sees no key),
        the observers' timed work goes on (the LED link's status still reaches the app), and
        the panel shows the tests' picture; when the builder leaves, the kit comes back and
        the app's screen is drawn again."""
        for item in items:
            bench.take(item, now)
        bench.poll(now)
        for observer in self.observers:
            if isinstance(observer, Polled):
                for event in observer.poll(now):
                    self._step(event, now)
        if not bench.done:
            self.oled.picture(bench.picture(), bench.words())
            self._asked.clear()  # the app's own outputs wait for the tests to end
            return
        bench.close()
        self.bench = None
        assert self.bringup is not None
        self.kit = self.bringup.kit()
        log.info("bring-up tests ended")
        self._next_tick = now + self.tick_s
        self._finish_batch()

    def _step(self, event: InputEvent, now: float) -> None:
        state, effects = self.app.step(self.state, event, now)
        self.stats.steps += 1
        scores = (self.app.scores(state) if self.app.scores is not None and effects else None)
        try:
            for effect in effects:
                self._persist(effect, scores)
        except (PegboardError, OSError) as error:
            # Nothing after a failed save may be shown: keep the old state and say so.
            log.error("could not save: %s", error)
            self.stats.failed_saves += 1
            self._notice = View(
                Screen.MESSAGE, title="Not saved",
                lines=(f"{error}", "That entry was not recorded: please enter it again."),
            )
            # A phone waiting for its answer is told the same, its entry not taken.
            self._asked.extend(
                SeatAnswer(e.ticket, e.seat, False, f"Not saved on the board ({error}): "
                           "nothing was changed; please try again.")
                for e in effects if isinstance(e, SeatAnswer))
            return
        self.state = state
        if not isinstance(event, Tick):
            self._notice = None
            self._stepped = True
        for effect in effects:
            self._apply(effect)

    def _persist(self, effect: Effect, scores: Sequence[int] | None) -> None:
        if isinstance(effect, PersistNewGame):
            self.store.new_game(effect.header)
        elif isinstance(effect, Persist):
            self.store.append(effect.entry, scores=scores, seat=effect.seat)
        elif isinstance(effect, PersistUndo):
            self.store.undo(scores=scores)
        elif isinstance(effect, FinishGame):
            self.store.finish(effect.state)
        else:
            return
        self._changes = self._changes.after(effect)
        self.stats.persisted += 1

    def _apply(self, effect: Effect) -> None:
        if isinstance(effect, PowerOff):
            self.running = False
            self.powering_off = True
        elif isinstance(effect, Quit):
            self.running = False
        elif isinstance(effect, BringUp):
            self._bench_asked = True
        elif isinstance(effect, _FOR_OUTPUTS):
            self._asked.append(effect)

    def _finish_batch(self) -> None:
        self._voice_problem()
        self._tell()
        if self._bench_asked:
            self._open_bench(self.clock.now())
            if self.bench is None:  # they could not open: the reason is on the panel
                self._tell()

    def _tell(self, *, first: bool = False) -> None:
        """Tell every observer what this batch did (the store has all of it)."""
        seen = Seen(self.state, self._notice or self.app.view(self.state), self._changes,
                    tuple(self._asked), first=first, stepped=self._stepped)
        self._changes, self._asked, self._stepped = Changes(), [], False
        before = self.oled.frames
        for observer in self.observers:
            observer.saw(seen)
        self.stats.frames += self.oled.frames - before

    def _voice_problem(self) -> None:
        problem = next((o.problem for o in self.observers if isinstance(o, Voice)), None)
        if problem is None or problem == self._voice_shown:
            return
        self._voice_shown = problem  # once: the journal has it already (the voice's notice)
        reason = problem.removeprefix("voice: ").split("; the game goes on")[0]
        self._notice = View(Screen.MESSAGE, title="No sound",
                            lines=(reason, "The game goes on without the voice."))


_FOR_OUTPUTS = (SetBrightness, UpdateLeds, SayAgain, ReadScreen, SayScore, Earcon, AudioMode,
                SeatAnswer, SeatNotice, OfferPairing, ReleaseSeat, FactsEntered)
"""The effects the loop hands to its observers."""


def _merge_turns(events: list[InputEvent]) -> list[InputEvent]:
    """Neighbouring encoder detents become one ``KnobTurn`` (a fast spin is one step)."""
    merged: list[InputEvent] = []
    for event in events:
        last = merged[-1] if merged else None
        if isinstance(event, KnobTurn) and isinstance(last, KnobTurn) and (
            (event.steps > 0) == (last.steps > 0)
        ):
            merged[-1] = KnobTurn(last.steps + event.steps)
            continue
        merged.append(event)
    return merged
