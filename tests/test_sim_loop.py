"""The one loop: ordering of effects, durability first, redraw on change, idle, shutdown."""

from __future__ import annotations

import queue
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from gpiozero.pins.mock import MockFactory
from PIL import Image, ImageChops

from pegboard.app import machine
from pegboard.app.effects import (
    Effect,
    LedSide,
    Persist,
    PersistNewGame,
    PersistUndo,
    Quit,
    UpdateLeds,
)
from pegboard.app.inputs import Button, InputEvent, KnobTurn, Press, Tick
from pegboard.app.view import Screen, SideView, View
from pegboard.config import Config, IdleConfig
from pegboard.device.leds import Leds
from pegboard.device.loop import STOP, App, DeviceLoop
from pegboard.errors import StoreError
from pegboard.hw.gestures import RawEdge
from pegboard.hw.inputs import EncoderKit, EncoderStep
from pegboard.hw.oled import OledDisplay, open_dummy
from pegboard.record import dump_line
from pegboard.rules.events import Event, GameHeader, Peg
from pegboard.sim.fakes import FakeClock, RecordingDisplay, press_pin, release_pin
from tests.support.memory_store import MemoryStore


@dataclass(frozen=True)
class Tally:
    """A tiny app: OK adds a point (persisted), GO starts a game, UNDO takes one back."""

    points: int = 0
    turns: tuple[int, ...] = ()
    seen: tuple[str, ...] = ()


def tally_step(state: Tally, event: InputEvent, now: float) -> tuple[Tally, Sequence[Effect]]:
    state = replace(state, seen=(*state.seen, type(event).__name__))
    if isinstance(event, KnobTurn):
        return replace(state, turns=(*state.turns, event.steps)), ()
    if isinstance(event, Press) and event.button is Button.OK:
        new = replace(state, points=state.points + 1)
        entry = Peg(0, new.points)
        return new, (Persist(entry), UpdateLeds((LedSide(new.points, state.points),)))
    if isinstance(event, Press) and event.button is Button.GO:
        return replace(state, points=0), (PersistNewGame(TALLY_GAME),)
    if isinstance(event, Press) and event.button is Button.UNDO:
        return replace(state, points=max(0, state.points - 1)), (PersistUndo(),)
    if isinstance(event, Press) and event.button is Button.MENU:
        return state, (Quit(),)
    return state, ()


TALLY_GAME = GameHeader(("Ann", "Ben"))


def tally_view(state: Tally) -> View:
    return View(Screen.SCORES, title="Tally", sides=(SideView("Ann", state.points),))


TALLY: App[Tally] = App(tally_step, tally_view)


class Journal:
    """Shared log of what the store, display and LEDs did, in order."""

    def __init__(self) -> None:
        self.entries: list[str] = []


class JournalStore(MemoryStore):
    def __init__(self, journal: Journal) -> None:
        super().__init__()
        self.journal = journal

    def append(self, line: Event, *, scores: Sequence[int] | None = None,
               seat: int | None = None) -> None:
        super().append(line, scores=scores, seat=seat)
        self.journal.entries.append("store")


class JournalDisplay(RecordingDisplay):
    def __init__(self, journal: Journal) -> None:
        super().__init__()
        self.journal = journal

    def show(self, image: Image.Image) -> None:
        super().show(image)
        self.journal.entries.append("display")


class JournalLeds:
    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self.shown: list[UpdateLeds] = []

    def show(self, leds: UpdateLeds) -> None:
        self.shown.append(leds)
        self.journal.entries.append("leds")

    def poll(self, now: float) -> list[Any]:
        return []

    def next_deadline(self) -> float | None:
        return None

    def close(self) -> None:
        self.journal.entries.append("leds closed")


class CountingWatchdog:
    def __init__(self) -> None:
        self.ticks: list[float] = []

    def tick(self, now: float) -> bool:
        self.ticks.append(now)
        return True


def make_loop(factory: MockFactory, clock: FakeClock, journal: Journal | None = None,
              ) -> tuple[DeviceLoop[Tally], JournalStore, JournalDisplay, JournalLeds,
                         CountingWatchdog]:
    journal = journal or Journal()
    inbox: queue.Queue[Any] = queue.Queue()
    kit = EncoderKit(inbox.put, clock, pin_factory=factory)
    store, display, leds = JournalStore(journal), JournalDisplay(journal), JournalLeds(journal)
    dog = CountingWatchdog()
    loop = DeviceLoop(TALLY, Tally(), kit=kit, inbox=inbox, display=display, store=store,
                      clock=clock, observers=[Leds(leds)], watchdog=dog)
    store.new_game(TALLY_GAME)
    return loop, store, display, leds, dog


def tap(factory: MockFactory, clock: FakeClock, loop: DeviceLoop[Any], pin: int) -> None:
    press_pin(factory, pin)
    clock.advance(0.05)
    loop.pump()
    release_pin(factory, pin)
    clock.advance(0.05)
    loop.pump()


def test_store_before_screen_before_leds(factory: MockFactory) -> None:
    clock = FakeClock()
    journal = Journal()
    loop, store, _display, leds, _ = make_loop(factory, clock, journal)
    loop.start()
    journal.entries.clear()
    tap(factory, clock, loop, 27)  # OK
    assert journal.entries == ["store", "display", "leds"]
    assert store.games[-1][-1] == '{"type": "peg", "player": 0, "points": 1}'
    assert loop.state.points == 1
    assert leds.shown == [UpdateLeds((LedSide(1, 0),))]


def test_failed_save_keeps_state_and_shows_nothing_unsaved(factory: MockFactory) -> None:
    clock = FakeClock()
    loop, store, _display, leds, _ = make_loop(factory, clock)
    loop.start()
    store.fail_next = StoreError("disk full")
    tap(factory, clock, loop, 27)
    assert loop.state.points == 0  # the step was dropped
    assert store.games[-1] == [dump_line(TALLY_GAME)]
    assert leds.shown == []
    assert loop.shown is not None and loop.shown.title == "Not saved"
    assert "disk full" in loop.shown.lines[0]
    # The next entry saves and shows normally.
    tap(factory, clock, loop, 27)
    assert loop.state.points == 1
    assert loop.shown is not None and loop.shown.title == "Tally"
    assert loop.stats.failed_saves == 1


def test_redraw_only_on_change(factory: MockFactory) -> None:
    clock = FakeClock()
    loop, _, display, _, _ = make_loop(factory, clock)
    loop.start()
    assert len(display.frames) == 1
    for _ in range(30):  # idle ticks change nothing on screen
        clock.advance(1.0)
        loop.pump()
    assert "Tick" in loop.state.seen
    assert len(display.frames) == 1
    tap(factory, clock, loop, 27)
    assert len(display.frames) == 2


def test_queued_detents_become_one_turn(factory: MockFactory) -> None:
    clock = FakeClock()
    loop, *_ = make_loop(factory, clock)
    for _ in range(3):
        loop.inbox.put(EncoderStep(1, clock.now()))
    loop.inbox.put(EncoderStep(-1, clock.now()))
    loop.pump()
    assert loop.state.turns == (3, -1)


def test_watchdog_is_pinged_from_the_loop(factory: MockFactory) -> None:
    clock = FakeClock()
    loop, _, _, _, dog = make_loop(factory, clock)
    for _ in range(5):
        clock.advance(0.5)
        loop.pump()
    assert len(dog.ticks) == 5
    assert dog.ticks == sorted(dog.ticks)


def test_run_serves_queue_until_stop(factory: MockFactory) -> None:
    clock = FakeClock()
    loop, *_ = make_loop(factory, clock)
    loop.inbox.put(RawEdge("ok", True, clock.now()))
    loop.inbox.put(RawEdge("ok", False, clock.now() + 0.1))
    loop.inbox.put(STOP)
    clock.advance(0.2)
    loop.run()
    assert not loop.running
    assert loop.state.points == 1


def test_quit_effect_ends_the_loop(factory: MockFactory) -> None:
    clock = FakeClock()
    loop, *_ = make_loop(factory, clock)
    tap(factory, clock, loop, 24)  # MENU -> Quit in the tally app
    assert not loop.running


def test_close_leaves_game_saved_frame_on_luma_dummy(factory: MockFactory) -> None:
    clock = FakeClock()
    device = open_dummy()
    inbox: queue.Queue[Any] = queue.Queue()
    kit = EncoderKit(inbox.put, clock, pin_factory=factory)
    loop = DeviceLoop(TALLY, Tally(points=7), kit=kit, inbox=inbox,
                      display=OledDisplay(device), store=MemoryStore(), clock=clock)
    loop.start()
    loop.close()
    assert device.persist is True
    saved = loop.frame
    assert saved is not None
    # luma's cleanup ran and did not clear the panel: the saved frame is still there.
    assert device.image is not None
    assert ImageChops.logical_xor(device.image.convert("1"), saved).getbbox() is None
    assert loop.saved_view().screen is Screen.SAVED
    assert loop.saved_view().sides == (SideView("Ann", 7),)


def test_real_app_dims_blanks_and_wakes(factory: MockFactory) -> None:
    clock = FakeClock()
    config = Config(idle=IdleConfig(dim_after_s=180, blank_after_s=900))
    inbox: queue.Queue[Any] = queue.Queue()
    kit = EncoderKit(inbox.put, clock, pin_factory=factory)
    display = RecordingDisplay()
    app = App(machine.step, machine.view)
    loop = DeviceLoop(app, machine.initial_state(config), kit=kit, inbox=inbox,
                      display=display, store=MemoryStore(), clock=clock, contrast=200)
    loop.start()
    assert display.contrast_levels == [200]
    for _ in range(181):
        clock.advance(1.0)
        loop.pump()
    assert display.contrast_levels[-1] < 200 and display.on
    for _ in range(720):
        clock.advance(1.0)
        loop.pump()
    assert not display.on
    tap(factory, clock, loop, 22)  # any key wakes the screen
    assert display.on and display.contrast_levels[-1] == 200


def test_frames_are_the_rendered_view(factory: MockFactory) -> None:
    from pegboard.ui.render import render

    clock = FakeClock()
    loop, _, display, _, _ = make_loop(factory, clock)
    loop.start()
    tap(factory, clock, loop, 27)
    expected = render(tally_view(Tally(points=1)))
    assert ImageChops.logical_xor(display.last, expected).getbbox() is None
    assert display.last.size == (128, 64) and display.last.mode == "1"


def test_ready_made_events_can_be_fed(factory: MockFactory) -> None:
    clock = FakeClock()
    loop, *_ = make_loop(factory, clock)
    loop.feed([Press(Button.OK), Press(Button.OK), Tick()])
    assert loop.state.points == 2
