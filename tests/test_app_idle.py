"""Idle dimming and blanking, and waking without acting."""

from __future__ import annotations

from pegboard.app.effects import SetBrightness
from pegboard.app.inputs import Button, LinkStatus, Press, Tick
from pegboard.app.machine import initial_state, step, view
from pegboard.app.view import Brightness
from pegboard.config import Config, IdleConfig


def test_dims_then_blanks_then_wakes_on_input() -> None:
    state = initial_state(Config(idle=IdleConfig(dim_after_s=10, blank_after_s=30)))
    state, effects = step(state, Tick(), 0.0)
    assert effects == ()
    state, effects = step(state, Tick(), 9.9)
    assert effects == () and view(state).brightness is Brightness.NORMAL
    state, effects = step(state, Tick(), 10.0)
    assert effects == (SetBrightness(Brightness.DIM),)
    state, effects = step(state, Tick(), 20.0)
    assert effects == ()
    state, effects = step(state, Tick(), 30.0)
    assert effects == (SetBrightness(Brightness.BLANK),)
    assert view(state).brightness is Brightness.BLANK
    state, effects = step(state, Press(Button.OK), 31.0)
    assert effects == (SetBrightness(Brightness.NORMAL),)
    assert view(state).brightness is Brightness.NORMAL
    state, effects = step(state, Tick(), 40.0)
    assert effects == ()


def test_link_status_shows_but_does_not_wake() -> None:
    state = initial_state(Config(idle=IdleConfig(dim_after_s=5, blank_after_s=0)))
    state, _ = step(state, Tick(), 0.0)
    state, _ = step(state, Tick(), 6.0)
    state, effects = step(state, LinkStatus(up=False, detail="LEDs off"), 7.0)
    assert effects == ()
    assert view(state).link == "LEDs off"
    assert view(state).brightness is Brightness.DIM
