"""The loop's outputs: observers of what each batch of steps did.

Every in-loop output (the OLED, the voice, the LED board) is an :class:`Observer` with one
method, ``saw(seen)``, told once per batch, after the store has every entry of it. ``seen``
holds the state, the engine's :class:`~pegboard.rules.facts.Report` of every entry the batch
added and of every entry it withdrew (taken back), the effects asked of the outputs and the
view now on screen. Observers *render* these: none of them works out a score, a show order,
a phase or a winner, or compares two states to find what is new.

An observer that holds a resource also has ``close()`` (:class:`Closing`); one that needs
time of its own (the LED link's heartbeat and retries) also has ``poll(now)`` and
``next_deadline()`` (:class:`Polled`): the loop polls it and its events come in as inputs.
Outputs beside the loop (the LAN page, the club publisher) are separate processes that
follow the store, never the loop.

An output's observer loads with that output: the LED board's with the board
(:mod:`pegboard.device.leds`), the phones' pairing port's with phones
(:mod:`pegboard.device.pairing`), the club publisher's status with a club board
(:mod:`pegboard.device.club_status`). Every device has the panel's (:class:`Oled`) and the
voice's (:class:`Voice`): with the voice off, the first key may still turn audio mode on, and
:class:`OnDemand` opens the voice then, loading nothing of it before.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar, runtime_checkable

from PIL import Image

from pegboard.app.effects import (
    NO_CHANGES,
    Changes,
    Effect,
    ReadScreen,
    SayAgain,
    SetBrightness,
)
from pegboard.app.inputs import InputEvent
from pegboard.app.view import Brightness, View
from pegboard.rules.facts import Report
from pegboard.rules.value import Value
from pegboard.ui.render import render

if TYPE_CHECKING:
    from pegboard.app.state import AppState
    from pegboard.hw.oled import Display
    from pegboard.voice.hook import VoiceHook

S = TypeVar("S")
S_contra = TypeVar("S_contra", contravariant=True)

DIM_CONTRAST = 16


class Seen(Value, Generic[S]):
    """What one batch of steps did, as the outputs are told it.

    ``changes`` are the engine's reports of the entries the batch added that are still in
    force, in order (one taken back in the same batch is in neither list; a correction's
    entries entered again are there, as new entries of its deal), and of those in force
    before the batch that it withdrew, in the order they had been entered (an undo's, or
    those a correction enters again); ``asked`` the
    effects for the outputs (brightness, LEDs, "say it again", read the screen); ``view``
    what the screen shows now (a notice, or the state's view); ``first`` at start-up, when
    nothing in ``state`` is new; ``stepped`` when a player's input was taken (not just time
    passing).
    """

    __slots__ = ("asked", "changes", "first", "state", "stepped", "view")
    __match_args__ = ("state", "view", "changes", "asked", "first", "stepped")

    state: S
    view: View
    changes: Changes
    asked: tuple[Effect, ...]
    first: bool
    stepped: bool

    def __init__(
        self,
        state: S,
        view: View,
        changes: Changes = NO_CHANGES,
        asked: tuple[Effect, ...] = (),
        first: bool = False,
        stepped: bool = False,
    ) -> None:
        setter = object.__setattr__
        setter(self, "state", state)
        setter(self, "view", view)
        setter(self, "changes", changes)
        setter(self, "asked", asked)
        setter(self, "first", first)
        setter(self, "stepped", stepped)

    @property
    def added(self) -> tuple[Report, ...]:
        """The reports of the entries the batch added, in order."""
        return self.changes.added

    @property
    def withdrawn(self) -> tuple[Report, ...]:
        """The reports of the entries the batch withdrew, in the order they were entered."""
        return self.changes.withdrawn


# Protocols only the type checker reads (no isinstance on them): not made at run time.
if TYPE_CHECKING:
    class Observer(Protocol[S]):
        """An in-loop output."""

        def saw(self, seen: Seen[S]) -> None:
            """Render what a batch did (queue slow work; never block the loop)."""


    class Speech(Protocol[S_contra]):
        """The voice as the loop drives it (:class:`pegboard.voice.hook.VoiceHook`): told each
        batch of keys whole (its state, view, the effects asked and the reports it added and
        withdrew), for the facts and, in audio mode, the keys' sounds and the screen's words;
        asked to repeat or to read a view. Each call only queues work for the voice's own
        thread, so speaking never holds up a key."""

        def heard(self, state: S_contra, view: View, asked: Sequence[Effect],
                  changes: Changes | None = None, *, first: bool = False) -> None:
            """One batch of keys (``first``: the state at start, in which nothing is new),
            with the reports it added and withdrew."""

        def read(self, view: View) -> None:
            """Read ``view`` aloud."""

        def again(self) -> None:
            """Say the last announcement again."""

        def close(self) -> None:
            """Stop speaking."""

        @property
        def problem(self) -> str | None:
            """Why the voice cannot be heard (None: no known reason)."""


@runtime_checkable
class Closing(Protocol):
    """An observer holding a resource, released when the loop closes."""

    def close(self) -> None:
        """Let go of it."""


@runtime_checkable
class Polled(Protocol):
    """An observer with timed work of its own, whose events are inputs to the loop."""

    def poll(self, now: float) -> Sequence[InputEvent]:
        """Do the timed work; the events it brings (a link going up or down)."""

    def next_deadline(self) -> float | None:
        """When :meth:`poll` must next run."""


class Oled(Generic[S]):
    """The OLED panel: the brightness asked, then the view, drawn only when it changed."""

    def __init__(self, display: Display, contrast: int = 255,
                 on_frame: Callable[[View, Image.Image], None] | None = None) -> None:
        self.display = display
        self.contrast = contrast
        self.on_frame = on_frame
        self.shown: View | None = None
        self.frame: Image.Image | None = None
        self.frames = 0

    def saw(self, seen: Seen[S]) -> None:
        """Set the brightness asked, then draw ``seen.view`` if it is new."""
        if seen.first:
            self.display.set_contrast(self.contrast)
        for effect in seen.asked:
            if isinstance(effect, SetBrightness):
                self._brightness(effect.level)
        view = seen.view
        if view == self.shown:
            return
        image = render(view)
        if view.brightness is not Brightness.BLANK:
            self.display.show(image)
        self.shown, self.frame = view, image
        self.frames += 1
        if self.on_frame is not None:
            self.on_frame(view, image)

    def picture(self, image: Image.Image, words: View | None = None) -> None:
        """Put a picture that is no view of the app's on the panel, at full brightness (the
        bring-up tests'), when it changed; the next view is drawn whatever it is. ``words``,
        the picture as a view, goes to the frame hook with it (the simulator's terminal
        writes a frame's words under it)."""
        if self.shown is None and self.frame is not None and (
                self.frame.tobytes() == image.tobytes()):
            return
        if self.shown is not None and self.shown.brightness is not Brightness.NORMAL:
            self._brightness(Brightness.NORMAL)
        self.display.show(image)
        self.shown, self.frame = None, image
        self.frames += 1
        if self.on_frame is not None and words is not None:
            self.on_frame(words, image)

    def _brightness(self, level: Brightness) -> None:
        if level is Brightness.BLANK:
            self.display.set_power(False)
            return
        self.display.set_contrast(DIM_CONTRAST if level is Brightness.DIM else self.contrast)
        self.display.set_power(True)

    def leave(self, final: Image.Image) -> None:
        """Leave ``final`` on the panel and release it."""
        self.display.close(final)
        self.frame = final


class Voice(Generic[S]):
    """The voice: what each batch's states bring is said (in audio mode with the keys'
    sounds and the screen's words); "say it again" and "read the screen" as asked."""

    def __init__(self, speech: Speech[S]) -> None:
        self.speech = speech

    def saw(self, seen: Seen[S]) -> None:
        changes = seen.changes
        # told at start, and whenever a key was taken or an entry saved (time passing may
        # save one too)
        if seen.first or seen.stepped or changes != Changes():
            self.speech.heard(seen.state, seen.view, seen.asked, changes, first=seen.first)
        for effect in seen.asked:
            if isinstance(effect, SayAgain):
                self.speech.again()
            elif isinstance(effect, ReadScreen):
                self.speech.read(seen.view)

    @property
    def problem(self) -> str | None:
        """Why the voice cannot be heard (None: no known reason)."""
        return self.speech.problem

    def close(self) -> None:
        self.speech.close()


class OnDemand:
    """The voice of a device started with it off: nothing of the voice is loaded until a
    player turns audio mode on (GO held first, or the setup row); then the voice is opened
    (by ``opener``: :func:`pegboard.voice.setup.open_voice`) and speaks from there on, saying
    that audio mode is on and the screen. Until then it keeps the last state it was told, in
    which nothing is new to the voice it opens."""

    def __init__(self, opener: Callable[[], VoiceHook | None]) -> None:
        self.opener = opener
        self.hook: VoiceHook | None = None
        self._tried = False
        self._last: AppState | None = None

    def heard(self, state: AppState, view: View, asked: Sequence[Effect],
              changes: Changes | None = None, *, first: bool = False) -> None:
        """Forward to the voice once there is one; open it when audio mode comes on."""
        if self.hook is None and state.audio and not self._tried:
            self._tried = True  # a voice that cannot work is said once, not every key
            self.hook = self.opener()
            if self.hook is not None and self._last is not None:
                self.hook.begin(self._last)
        if self.hook is not None:
            self.hook.heard(state, view, asked, changes, first=first)
        else:
            self._last = state

    def read(self, view: View) -> None:
        if self.hook is not None:
            self.hook.read(view)

    def again(self) -> None:
        if self.hook is not None:
            self.hook.again()

    @property
    def problem(self) -> str | None:
        return self.hook.problem if self.hook is not None else None

    def close(self) -> None:
        if self.hook is not None:
            self.hook.close()
