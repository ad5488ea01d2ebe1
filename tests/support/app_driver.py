"""A small driver for app tests: feeds inputs through ``step`` and keeps a record like the
store would (every Persist effect appended, undo recorded as an undo line)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import reduce

from pegboard.app.effects import (
    Changes,
    Effect,
    FinishGame,
    Persist,
    PersistNewGame,
    PersistUndo,
)
from pegboard.app.inputs import Button, InputEvent, KnobTurn, Press, RankKey
from pegboard.app.machine import AppState, initial_state, step, view
from pegboard.app.session import Session
from pegboard.app.state import Page, Reading
from pegboard.app.view import View
from pegboard.config import Config, InputConfig
from pegboard.record import dump_line, result_json
from pegboard.rules.cards import Rank
from pegboard.rules.state import GameState

OK = Press(Button.OK)
GO = Press(Button.GO)
UNDO = Press(Button.UNDO)
MENU = Press(Button.MENU)
HOLD_OK = Press(Button.OK, long=True)


@dataclass
class App:
    """One app, its clock, and the record a store would hold."""

    state: AppState
    now: float = 0.0
    record: list[str] = field(default_factory=list)
    finished: list[dict[str, object]] = field(default_factory=list)
    effects: list[Effect] = field(default_factory=list)
    changes: Changes = field(default_factory=Changes)
    """The reports the steps since :meth:`take_changes` added and withdrew."""

    @classmethod
    def start(cls, kit: str = "encoder", **config: object) -> App:
        return cls(initial_state(Config(input=InputConfig(kit=kit), **config)))  # type: ignore[arg-type]

    def feed(self, *events: InputEvent) -> App:
        for event in events:
            self.now += 1.0
            self.state, effects = step(self.state, event, self.now)
            self.effects = list(effects)
            self.changes = reduce(Changes.after, effects, self.changes)
            for effect in effects:
                if isinstance(effect, PersistNewGame):
                    self.record = [dump_line(effect.header)]
                elif isinstance(effect, Persist):
                    self.record.append(dump_line(effect.entry))
                elif isinstance(effect, PersistUndo):
                    self.record.append('{"type": "undo"}')
                elif isinstance(effect, FinishGame):
                    self.finished.append(result_json(effect.state))
        return self

    def take_changes(self) -> Changes:
        """The reports added and withdrawn since the last call (as the loop tells them)."""
        changes, self.changes = self.changes, Changes()
        return changes

    @property
    def view(self) -> View:
        return view(self.state)

    @property
    def game(self) -> GameState:
        assert self.state.session is not None
        return self.state.session.state

    def rank(self, rank: Rank, *, long: bool = False) -> App:
        return self.feed(RankKey(rank, long=long))

    def pick(self, label: str) -> App:
        """Turn the wheel the short way to ``label``'s card, hold OK until the wheel shows
        its suit facts in words (``"J, with nobs"``, ``"6, flush of five"``), then OK."""
        pv = self.view.picker
        assert pv is not None, self.view
        base = label.split(", ")[0]
        bases = list(pv.options)
        if base not in bases:  # a card whose suit a hold names ("4♥" on the rank 4)
            base = base.rstrip("♣♦♥♠")
            bases = [option.rstrip("♣♦♥♠") for option in bases]
        assert base in bases, (label, pv.options)
        target = bases.index(base)
        n = len(bases)
        right, left = (target - pv.index) % n, (pv.index - target) % n
        self.feed(KnobTurn(right) if right <= left else KnobTurn(-left))
        for _ in range(4):
            if self.view.picker is not None and self.view.picker.entering == label:
                break
            self.feed(HOLD_OK)
        assert self.view.picker is not None and self.view.picker.entering == label, (
            label, self.view.picker,
        )
        return self.feed(OK)

    @property
    def pages(self) -> tuple[Page, ...]:
        """The notices on screen (first one showing), if any."""
        screen = self.state.screen
        return screen.pages if isinstance(screen, Reading) else ()

    def read(self) -> App:
        """Press OK through every notice on screen."""
        while self.pages:
            self.feed(OK)
        return self

    def replayed(self) -> GameState:
        """The game rebuilt from the record the store would hold."""
        return Session.resume(self.record).state


def new_game(kit: str = "encoder", *, dealer: int = 0, setup: tuple[InputEvent, ...] = ()) -> App:
    """A 2-player game started with the defaults and ``dealer`` named."""
    app = App.start(kit)
    app.feed(OK, *setup)  # New game, then any option changes
    while app.view.selected != 0:
        app.feed(KnobTurn(1))
    app.feed(OK)  # Start
    app.feed(KnobTurn(dealer + 1), OK)
    return app


def started(*options: str) -> App:
    """A 2-player game set up with each option row named in ``options`` changed once (by its
    label as the setup screen shows it, e.g. ``"Muggins: off"``), then Start pressed."""
    app = App.start()
    app.feed(OK)  # New game
    for option in options:
        rows = list(app.view.lines)
        app.feed(KnobTurn(rows.index(option) - (app.view.selected or 0)), OK)
    app.feed(KnobTurn(-(app.view.selected or 0)), OK)  # Start
    if app.view.title == "The basics":  # a teaching game offers them: UNDO skips
        app.feed(UNDO)
    return app


def muggins_game(*options: str) -> App:
    """A 2-player muggins game (with any other ``options`` changed too), P1 dealing."""
    return started("Muggins: off", *options).feed(KnobTurn(1), OK)
