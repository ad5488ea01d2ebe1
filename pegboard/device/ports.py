"""What the loop needs from the world, as small protocols (the adapters fill them in), what a
bring-up probe puts on the loop's queue, and the LED board of a device without one.

A device loads this module only once the builder picks "Test the box" (the probes' reports);
the loop's own hooks (:class:`~pegboard.device.loop.Bringup`, its watchdog when there is
none) are the loop's."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from PIL import Image

from pegboard.app.effects import UpdateLeds
from pegboard.app.inputs import LinkStatus
from pegboard.app.view import View
from pegboard.rules.events import Event, GameHeader
from pegboard.rules.state import GameState
from pegboard.rules.value import Value

# Protocols only the type checker reads (no isinstance on them): not made at run time.
if TYPE_CHECKING:
    class GameStore(Protocol):
        """The durable store (:class:`pegboard.store.Store`): each call returns once on disk.
        It is handed the engine's values; their record lines are made where they are written."""

        def new_game(self, header: GameHeader) -> Any:
            """Start a game with its header."""
            ...

        def append(self, line: Event, *, scores: Sequence[int] | None = None,
                   seat: int | None = None) -> Any:
            """Record one accepted entry (with the scores it leaves, when known, and the seat
            whose phone made it)."""
            ...

        def undo(self, *, scores: Sequence[int] | None = None) -> Any:
            """Record that the last event was taken back."""
            ...

        def finish(self, result: GameState) -> Any:
            """Move the current game into the history with the result of ``result``, the
            engine's table as the game ended."""
            ...


    class LedBoard(Protocol):
        """The LED pegboard link: takes the pegs to show, reports when it goes up or down."""

        def show(self, leds: UpdateLeds) -> None:
            """Show these pegs (idempotent; resent by the link when it reconnects)."""
            ...

        def poll(self, now: float) -> list[LinkStatus]:
            """Do the link's timed work (heartbeat, retries); returns changes of link state."""
            ...

        def next_deadline(self) -> float | None:
            """When :meth:`poll` must next run."""
            ...

        def close(self) -> None:
            """Let go of the serial port."""
            ...


    class BenchTests(Protocol):
        """The bring-up tests while they run (:class:`pegboard.device.bench.Bench`): the probes'
        reports in, a picture for the panel out, until the builder leaves them."""

        @property
        def done(self) -> bool:
            """The builder has left the tests (or they gave up waiting)."""
            ...

        def take(self, item: object, now: float) -> None:
            """One item from the loop's queue: a probe's :class:`BenchReport` (anything else,
            a key the kit queued before it let go, is ignored)."""
            ...

        def poll(self, now: float) -> None:
            """The tests' timed work: keypad scans, holds, the LED walk's steps."""
            ...

        def next_deadline(self) -> float:
            """When :meth:`poll` must next run."""
            ...

        def picture(self) -> Image.Image:
            """What the panel shows now."""
            ...

        def words(self) -> View:
            """What the panel shows now, as words (the test pattern's: what it should show), for
            a screen that cannot show the panel's pixels legibly (the simulator's terminal)."""
            ...

        def close(self) -> None:
            """Release the probes' pins."""
            ...


    class Watchdog(Protocol):
        """The systemd watchdog, paced by itself (:class:`pegboard.service.notify.Watchdog`)."""

        def tick(self, now: float) -> bool:
            """Ping if a ping is due."""
            ...


class BenchReport(Value):
    """What a bring-up probe's callback puts on the loop's queue: its report, wrapped so the
    loop tells it from the kit's raw inputs (one queued as the tests closed is dropped)."""

    __slots__ = ("report",)
    __match_args__ = ("report",)

    report: object

    def __init__(self, report: object) -> None:
        object.__setattr__(self, "report", report)


class NoLeds:
    """No LED board configured: pegs go nowhere and the link never changes."""

    def __init__(self) -> None:
        self.shown: list[UpdateLeds] = []

    def show(self, leds: UpdateLeds) -> None:
        """Keep the last few requests (useful to tests and the simulator's text board)."""
        self.shown = [*self.shown[-9:], leds]

    def poll(self, now: float) -> list[LinkStatus]:
        """Nothing ever changes."""
        return []

    def next_deadline(self) -> float | None:
        """Never needs polling."""
        return None

    def close(self) -> None:
        """Nothing to release."""
