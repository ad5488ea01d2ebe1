"""The app's state machine: ``step(state, event, now) -> (state, effects)``.

Pure: no I/O, no clock (``now`` is seconds from the loop's injected clock), no randomness.
The loop keeps the latest state, runs the returned effects in order (persisting first), and
draws ``view(state)`` when it differs from the last frame.

Idle: after ``idle.dim_after_s`` seconds without input the screen dims, after
``idle.blank_after_s`` it blanks (``Tick`` events let the app notice time passing). Any input
wakes the screen, and the waking input does nothing else, so a player who nudges a dark box
never enters a card by accident.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from pegboard.app.effects import Effect, SetBrightness
from pegboard.app.inputs import InputEvent, LinkStatus, Tick
from pegboard.app.view import Brightness, Screen, View
from pegboard.config import Config


@dataclass(frozen=True, slots=True)
class AppState:
    """Everything the app knows: settings, idle bookkeeping and the current screen."""

    config: Config
    brightness: Brightness = Brightness.NORMAL
    last_input: float | None = None
    link: str = ""


def initial_state(config: Config, *, resume: tuple[str, ...] | None = None) -> AppState:
    """The state at power-on; ``resume`` is an unfinished game's record lines to continue."""
    del resume  # resuming lands with the game flows
    return AppState(config=config)


def step(state: AppState, event: InputEvent, now: float) -> tuple[AppState, tuple[Effect, ...]]:
    """Apply one input event at time ``now``; return the new state and the effects to run."""
    if isinstance(event, LinkStatus):
        return replace(state, link="" if event.up else (event.detail or "LEDs off")), ()
    if isinstance(event, Tick):
        return _idle(state, now)
    if state.last_input is None:
        state = replace(state, last_input=now)
    if state.brightness is not Brightness.NORMAL:
        awake = replace(state, brightness=Brightness.NORMAL, last_input=now)
        return awake, (SetBrightness(Brightness.NORMAL),)
    return replace(state, last_input=now), ()


def _idle(state: AppState, now: float) -> tuple[AppState, tuple[Effect, ...]]:
    if state.last_input is None:
        return replace(state, last_input=now), ()
    idle = now - state.last_input
    dim, blank = state.config.idle.dim_after_s, state.config.idle.blank_after_s
    level = state.brightness
    if blank and idle >= blank:
        level = Brightness.BLANK
    elif dim and idle >= dim and level is Brightness.NORMAL:
        level = Brightness.DIM
    if level is state.brightness:
        return state, ()
    return replace(state, brightness=level), (SetBrightness(level),)


def view(state: AppState) -> View:
    """What the screen shows in ``state``."""
    return View(
        screen=Screen.HOME, title="Pegboard", lines=("New game",), selected=0,
        link=state.link, brightness=state.brightness,
    )
