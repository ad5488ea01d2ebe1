"""An announcer beside a game, and a key script run with the voice listening, for the tests
of what the voice says as the screens change."""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce
from pathlib import Path
from typing import TypeVar

from pegboard.app.effects import Changes, Effect
from pegboard.app.session import Session
from pegboard.app.state import AppState
from pegboard.config import Config
from pegboard.device.build import open_store
from pegboard.rules.events import GameHeader
from pegboard.rules.facts import Report
from pegboard.rules.value import replace
from pegboard.rules.variants import Rules
from pegboard.sim.keys import parse_script as parse_keys
from pegboard.sim.script import run_script
from pegboard.voice.announce import Announcer
from pegboard.voice.hook import Sink, VoiceHook
from tests.support.games import parse_script


def changes_of(effects: Sequence[Effect]) -> Changes:
    """What ``effects``, all saved, added and withdrew (as the loop tells its observers)."""
    return reduce(Changes.after, effects, Changes())


def added(*reports: Report) -> Changes:
    """``reports`` added."""
    return Changes(entered=reports)


def announcer_after(names: tuple[str, ...], script: str, rules: Rules | None = None,
                    ) -> tuple[Announcer, AppState, Changes]:
    """An announcer that began with a new game of ``names`` (under ``rules``), the app state
    after the entries of ``script`` and their reports (which the announcer has not heard
    yet)."""
    session = Session.new(GameHeader(names, rules or Rules()))
    state = AppState(Config(), session=session)
    announcer = Announcer()
    announcer.begin(state)
    reports = []
    for event in parse_script(script):
        session, report = session.apply(event)
        reports.append(report)
    return announcer, replace(state, session=session), added(*reports)


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
