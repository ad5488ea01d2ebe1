"""An announcer beside a game, and a key script run with the voice listening, for the tests
of what the voice says as the screens change."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TypeVar

from pegboard.app.session import Session
from pegboard.app.state import AppState
from pegboard.config import Config
from pegboard.device.build import open_store
from pegboard.rules.events import GameHeader
from pegboard.rules.variants import Rules
from pegboard.sim.keys import parse_script as parse_keys
from pegboard.sim.script import run_script
from pegboard.voice.announce import Announcer
from pegboard.voice.hook import Sink, VoiceHook
from tests.support.games import parse_script


def announcer_after(names: tuple[str, ...], script: str) -> tuple[Announcer, AppState]:
    """An announcer that began with a new game of ``names``, and the app state after the
    entries of ``script`` (which the announcer has not heard yet)."""
    session = Session.new(GameHeader(names, Rules()))
    state = AppState(Config(), session=session)
    announcer = Announcer()
    announcer.begin(state)
    for event in parse_script(script):
        session, _ = session.apply(event)
    return announcer, replace(state, session=session)


Heard = TypeVar("Heard", bound=Sink)


def said_over_keys(keys: str, config: Config, folder: Path, sink: Heard) -> Heard:
    """``sink`` after the key script ``keys`` ran on the simulated device with ``config`` (its
    store in ``folder``), the voice sending it every announcement."""
    store = open_store(folder / "store", owner="test")
    try:
        run_script(parse_keys(keys), config, store, speech=VoiceHook(sink))
    finally:
        store.close()
    return sink
