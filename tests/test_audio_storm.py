"""Audio mode's asking keys under a storm, through the device loop (gpiozero's mock pins):
GO held (say it again) and MENU held (say the score) between every key of a game lose,
add and reorder no entry, and the voice's queue stays bounded while the voice is busy."""

from __future__ import annotations

import queue
import threading
from collections.abc import Sequence
from typing import Any

from gpiozero.pins.mock import MockFactory

from pegboard.app.inputs import Button, InputEvent, KnobTurn, Press
from pegboard.app.machine import AppState, initial_state
from pegboard.app.sounds import Sound
from pegboard.config import parse_config
from pegboard.device.build import APP
from pegboard.device.loop import DeviceLoop
from pegboard.device.observers import Voice
from pegboard.hw.inputs import EncoderKit
from pegboard.sim.fakes import FakeClock, RecordingDisplay
from pegboard.voice.hook import VoiceHook
from pegboard.voice.speaker import MOST_WAITING, Speaker
from tests.support.memory_store import MemoryStore

OK = Press(Button.OK)
ASKING = (Press(Button.GO, long=True), Press(Button.MENU, long=True))
GAME: tuple[InputEvent, ...] = (OK, OK, KnobTurn(1), OK, OK, *[OK] * 8, KnobTurn(3), OK)
"""New game, Start, P1 deals, the starter, eight cards as the wheel offers them, then on."""


class BusyVoice:
    """A voice still saying its first words until the test lets it go."""

    def __init__(self) -> None:
        self.began = threading.Event()
        self.go_on = threading.Event()

    def speak(self, text: str) -> None:
        self.began.set()
        self.go_on.wait(timeout=60)

    def play(self, sound: Sound) -> None:
        self.speak(sound.value)

    def stop(self) -> None:
        pass


def played(factory: MockFactory, storm: Sequence[InputEvent]) -> tuple[list[str], int]:
    """The store's lines after GAME with ``storm`` after every key, and the most waiting."""
    clock = FakeClock()
    store = MemoryStore()
    inbox: queue.Queue[Any] = queue.Queue()
    voice = BusyVoice()
    speaker = Speaker(voice, clock)
    state: AppState = initial_state(parse_config("[voice]\naudio = true\n"))
    loop = DeviceLoop(APP, state, kit=EncoderKit(inbox.put, clock, pin_factory=factory),
                      inbox=inbox, display=RecordingDisplay(), store=store, clock=clock,
                      observers=[Voice(VoiceHook(speaker))])
    most = 0
    try:
        loop.start()
        assert voice.began.wait(timeout=60)
        for key in GAME:
            loop.feed([key])
            for asked in storm:
                loop.feed([asked])
                with speaker._lock:
                    most = max(most, len(speaker.queue.pending))
        return list(store.games[-1]), most
    finally:
        voice.go_on.set()
        speaker.close()


def test_asking_between_every_key_changes_no_entry_and_the_queue_stays_bounded(
        factory: MockFactory) -> None:
    quiet, _ = played(factory, ())
    assert len(quiet) > 10
    stormed, most = played(factory, ASKING * 20)
    assert stormed == quiet
    assert most <= MOST_WAITING
