"""An announcer beside a game, for the tests of what the voice says as the screens change."""

from __future__ import annotations

from dataclasses import replace

from pegboard.app.session import Session
from pegboard.app.state import AppState
from pegboard.config import Config
from pegboard.rules.events import GameHeader
from pegboard.rules.variants import Rules
from pegboard.voice.announce import Announcer
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
