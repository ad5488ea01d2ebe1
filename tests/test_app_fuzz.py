"""Fuzz: random input storms through ``step`` never raise and never corrupt the game.

After every event the view must be drawable and consistent; regularly (and at the end) the
record a store would have written from the effects must replay to exactly the game the app
holds. A shut-down device is powered up again from that record, so resume is fuzzed too.
The normal suite runs 10,000 events per kit (20,000 in all); ``-m soak`` runs 100,000 per kit.
"""

from __future__ import annotations

import random

import pytest

from pegboard.app.inputs import Button, InputEvent, KnobTurn, LinkStatus, Press, RankKey, Tick
from pegboard.app.machine import initial_state
from pegboard.app.session import Session
from pegboard.app.state import Saved
from pegboard.app.view import Brightness, View
from pegboard.config import Config, IdleConfig, InputConfig
from pegboard.rules.cards import Rank
from tests.support.app_driver import App


def random_event(rng: random.Random) -> InputEvent:
    roll = rng.random()
    if roll < 0.30:
        return KnobTurn(rng.choice((-3, -2, -1, -1, 1, 1, 1, 2, 5)))
    if roll < 0.55:
        return Press(Button.OK)
    if roll < 0.62:
        return Press(Button.GO)
    if roll < 0.68:
        return Press(Button.UNDO)
    if roll < 0.70:
        return Press(Button.MENU)
    if roll < 0.715:
        return Press(rng.choice(list(Button)), long=True, repeat=rng.random() < 0.3)
    if roll < 0.90:
        return RankKey(rng.choice(list(Rank)), long=rng.random() < 0.1)
    if roll < 0.99:
        return Tick()
    return LinkStatus(up=rng.random() < 0.5, detail="LEDs off")


def check_view(v: View) -> None:
    if v.selected is not None:
        assert 0 <= v.selected < len(v.lines), v
    if v.picker is not None and v.picker.options:
        assert 0 <= v.picker.index < len(v.picker.options), v
    assert v.first_line >= 0
    if v.brightness is Brightness.NORMAL:
        assert v.screen is not None


def check_record(app: App) -> None:
    session = app.state.session
    if session is None:
        return
    replay = Session.resume(app.record)
    assert replay.events == session.events
    assert replay.state.scores == session.state.scores


def fuzz(kit: str, events: int, seed: int) -> int:
    rng = random.Random(seed)
    config = Config(input=InputConfig(kit=kit), idle=IdleConfig(dim_after_s=30, blank_after_s=90))
    app = App(initial_state(config))
    games = 0
    for n in range(events):
        event = random_event(rng)
        if isinstance(event, Tick):
            app.now += rng.choice((0.5, 5.0, 40.0, 100.0))
        app.feed(event)
        check_view(app.view)
        if n % 2000 == 0:
            check_record(app)
        if isinstance(app.state.screen, Saved):
            # Power cycle: the device comes back from what the store holds.
            check_record(app)
            record = list(app.record) if app.state.session is not None else None
            app = App(initial_state(config, resume=record), now=app.now, record=record or [])
            games += 1
    check_record(app)
    return games


@pytest.mark.parametrize("kit", ["encoder", "keypad"])
def test_fuzz(kit: str) -> None:
    fuzz(kit, 10_000, seed=4 if kit == "encoder" else 5)  # the soak takes 100,000 a kit


@pytest.mark.soak
@pytest.mark.parametrize("kit", ["encoder", "keypad"])
def test_fuzz_soak(kit: str) -> None:
    fuzz(kit, 100_000, seed=40 if kit == "encoder" else 50)
