"""The loop's outputs are one list of observers, each told once a batch what the store has:
the engine's report of every entry saved, the effects asked of the outputs, the view."""

from __future__ import annotations

import inspect
import queue
from dataclasses import dataclass, field
from functools import reduce
from typing import Any

from gpiozero.pins.mock import MockFactory

from pegboard.app.effects import (
    Changes,
    Effect,
    Persist,
    PersistNewGame,
    PersistUndo,
    UpdateLeds,
)
from pegboard.app.inputs import Button, KnobTurn, Press
from pegboard.app.machine import AppState, initial_state
from pegboard.app.session import Session
from pegboard.config import Config
from pegboard.device.build import APP, outputs
from pegboard.device.leds import Leds
from pegboard.device.loop import DeviceLoop
from pegboard.device.observers import Oled, Seen, Voice
from pegboard.device.ports import NoLeds
from pegboard.errors import StoreError
from pegboard.hw.inputs import EncoderKit
from pegboard.rules.cards import Card
from pegboard.rules.events import Deal, GameHeader, Play, Starter
from pegboard.rules.facts import Scored
from pegboard.sim.fakes import FakeClock, RecordingDisplay
from tests.support.memory_store import MemoryStore

OK = Press(Button.OK)


@dataclass
class Recorder:
    """An observer that keeps what it saw and the store's lines at that moment."""

    name: str
    told: list[str]
    store: MemoryStore
    seen: list[Seen[AppState]] = field(default_factory=list)
    saved: list[list[str]] = field(default_factory=list)

    def saw(self, seen: Seen[AppState]) -> None:
        self.told.append(self.name)
        self.seen.append(seen)
        self.saved.append(list(self.store.games[-1]) if self.store.games else [])


def make_loop(factory: MockFactory) -> tuple[DeviceLoop[AppState], MemoryStore, list[str],
                                             Recorder, Recorder]:
    clock = FakeClock()
    store, told = MemoryStore(), list[str]()
    first, second = Recorder("first", told, store), Recorder("second", told, store)
    inbox: queue.Queue[Any] = queue.Queue()
    loop = DeviceLoop(APP, fresh_state(), kit=EncoderKit(inbox.put, clock, pin_factory=factory),
                      inbox=inbox, display=RecordingDisplay(), store=store, clock=clock,
                      observers=[first, second])
    return loop, store, told, first, second


def fresh_state() -> AppState:
    return initial_state(Config())


def test_the_loop_takes_one_observer_list_and_each_observer_has_one_method() -> None:
    params = inspect.signature(DeviceLoop.__init__).parameters
    assert "observers" in params
    assert not {"leds", "speech", "voice"} & set(params)
    for kind in (Oled, Voice, Leds):
        assert callable(kind.saw)


def test_observers_are_told_in_order_once_a_batch_after_the_store(factory: MockFactory,
                                                                  ) -> None:
    loop, store, told, first, second = make_loop(factory)
    loop.start()
    assert told == ["first", "second"] and first.seen[0].first
    assert loop.observers[0] is loop.oled  # the panel is told first
    loop.feed([OK, OK, KnobTurn(1), OK])  # new game, start, P1 deals
    told.clear()
    loop.feed([KnobTurn(1)])  # the starter wheel moves: nothing saved
    assert told == ["first", "second"] and first.seen[-1].added == ()
    loop.feed([OK])  # the starter
    reports = first.seen[-1].added
    assert len(reports) == 1 and isinstance(reports[0].event, Starter)
    assert first.saved[-1] == store.games[-1]  # the store had it before anyone was told
    assert second.seen[-1] is first.seen[-1]  # one value for every observer
    assert first.seen[-1].view == loop.shown


def test_every_entry_of_a_batch_is_reported_in_order(factory: MockFactory) -> None:
    loop, _store, _told, first, _ = make_loop(factory)
    loop.start()
    loop.feed([OK, OK, KnobTurn(1), OK])  # the deal is entered with the choice of dealer
    events = [type(report.event) for seen in first.seen for report in seen.added]
    assert Deal in events
    loop.feed([OK, *[OK] * 8])  # the starter, then eight cards as the wheel offers them
    reports = [report for report in first.seen[-1].added]
    assert len(reports) == 9
    assert [type(r.event).__name__ for r in reports][:2] == ["Starter", "Play"]
    scored = [act for r in reports for act in r.of(Scored)]
    assert all(act.scores for act in scored)


def test_a_failed_save_tells_the_observers_nothing_new(factory: MockFactory) -> None:
    loop, store, _told, first, _ = make_loop(factory)
    loop.start()
    loop.feed([OK, OK, KnobTurn(1), OK])
    store.fail_next = StoreError("disk full")
    loop.feed([OK])
    assert first.seen[-1].added == () and first.seen[-1].view.title == "Not saved"


def test_the_led_board_is_an_observer_of_the_pegs_asked(factory: MockFactory) -> None:
    board = NoLeds()
    assert [type(o).__name__ for o in outputs(None, board)] == ["Leds"]
    clock = FakeClock()
    inbox: queue.Queue[Any] = queue.Queue()
    loop = DeviceLoop(APP, fresh_state(), kit=EncoderKit(inbox.put, clock, pin_factory=factory),
                      inbox=inbox, display=RecordingDisplay(), store=MemoryStore(),
                      clock=clock, observers=outputs(None, board))
    loop.start()
    loop.feed([OK, OK, KnobTurn(1), OK])
    assert board.shown and isinstance(board.shown[-1], UpdateLeds)
    assert [side.front for side in board.shown[-1].sides] == [0, 0]


def test_an_entry_taken_back_in_its_own_batch_is_not_reported(factory: MockFactory) -> None:
    loop, _store, _told, first, _ = make_loop(factory)
    loop.start()
    loop.feed([OK, OK, KnobTurn(1), OK])
    loop.feed([OK, Press(Button.UNDO)])  # the starter, and at once taken back
    assert loop.state.session is not None and len(loop.state.session.events) == 1
    assert not first.seen[-1].added
    loop.feed([OK, Press(Button.UNDO), OK])  # taken back, entered again: the last in force
    reports = first.seen[-1].added
    assert [type(r.event) for r in reports] == [Starter]
    assert loop.state.session is not None and reports[0] is loop.state.session.report


def test_an_undo_tells_the_observers_the_report_it_withdraws(factory: MockFactory) -> None:
    loop, _store, _told, first, _ = make_loop(factory)
    loop.start()
    loop.feed([OK, OK, KnobTurn(1), OK])
    loop.feed([OK])  # the starter, in a batch of its own
    starter = first.seen[-1].added[0]
    assert isinstance(starter.event, Starter) and first.seen[-1].withdrawn == ()
    loop.feed([Press(Button.UNDO)])
    seen = first.seen[-1]
    assert seen.added == () and seen.withdrawn == (starter,)
    assert seen.withdrawn[0] is starter  # the very report the observers were told of
    loop.feed([OK])  # entered again: a new report, added; nothing withdrawn
    again = first.seen[-1]
    assert again.withdrawn == () and len(again.added) == 1
    assert again.added[0] is not starter and isinstance(again.added[0].event, Starter)


def test_a_batch_that_takes_back_and_enters_again_tells_both(factory: MockFactory) -> None:
    loop, _store, _told, first, _ = make_loop(factory)
    loop.start()
    loop.feed([OK, OK, KnobTurn(1), OK])
    loop.feed([OK])
    starter = first.seen[-1].added[0]
    loop.feed([Press(Button.UNDO), OK, OK])  # taken back, entered again, a card laid
    seen = first.seen[-1]
    assert seen.withdrawn == (starter,)
    assert [type(report.event) for report in seen.added] == [Starter, Play]
    assert loop.state.session is not None
    assert seen.added[-1] is loop.state.session.report


def test_changes_net_what_a_run_of_saved_effects_adds_and_withdraws() -> None:
    session = Session.new(GameHeader(("Ann", "Ben")))
    reports = []
    for event in (Deal(dealer=0), Starter(Card.parse("2S")), Play(1, Card.parse("5C"))):
        session, report = session.apply(event)
        reports.append(report)
    deal, starter, five = reports
    saved: list[Effect] = [PersistUndo(five), PersistUndo(starter),
                           Persist(starter.event, starter), Persist(Deal(), deal),
                           PersistUndo(deal)]
    run = reduce(Changes.after, saved, Changes())
    assert run.withdrawn == (starter, five)  # in the order they had been entered
    assert run.added == (starter,)  # the deal was added and taken back in the run
    assert not run.began
    begun = run.after(PersistNewGame(session.header))
    assert begun == Changes(began=True)  # the old game's entries are not the new one's
    assert Changes().after(Persist(Deal())).after(PersistUndo(deal)) == Changes()
