"""The LED pegboard as the loop sees it: pegs in, link up/down changes out.

Wraps the serial link (:class:`pegboard.link.serial_link.SerialLink`, which never blocks and
heals itself): the app's :class:`~pegboard.app.effects.UpdateLeds` becomes a
:class:`~pegboard.link.board.BoardState`, the link is polled from the loop at a steady rate,
and a change of the link's health becomes a :class:`~pegboard.app.inputs.LinkStatus` event
so the screen can show the link-down mark. Right after start the link gets a grace period to
find the board before it is reported missing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from pegboard.app.effects import UpdateLeds
from pegboard.app.inputs import LinkStatus
from pegboard.config import LedsConfig, LinkConfig
from pegboard.link.board import BoardState, Colour, parse_colour


class Link(Protocol):
    """The part of :class:`~pegboard.link.serial_link.SerialLink` used here."""

    def show(self, board: BoardState) -> None: ...

    def poll(self, now: float) -> None: ...

    @property
    def is_up(self) -> bool: ...

    def close(self) -> None: ...


class LinkedBoard:
    """An LED board behind a link, polled every ``poll_s`` seconds."""

    def __init__(self, link: Link, *, colours: Sequence[Colour] = (), poll_s: float = 0.05,
                 grace_s: float = 3.0, start: float = 0.0) -> None:
        self.link = link
        self.colours = tuple(colours)
        self.poll_s = poll_s
        self._next = start
        self._grace_until = start + grace_s
        self._reported_up = True
        self._board: BoardState | None = None

    def show(self, leds: UpdateLeds) -> None:
        """Send the app's pegs (2 or 3 sides; partnerships are already 2)."""
        if len(leds.sides) not in (2, 3):
            return
        fronts = [side.front for side in leds.sides]
        backs = [min(side.back, side.front) for side in leds.sides]
        winners = [i for i, side in enumerate(leds.sides) if side.winner]
        last = self._mover(fronts)
        colours = self.colours[: len(fronts)] if len(self.colours) >= len(fronts) else ()
        board = BoardState.from_scores(fronts, backs, last=last,
                                       winner=winners[0] if winners else None,
                                       target=leds.target if leds.target in (61, 121) else 121,
                                       colours=colours)
        self._board = board
        self.link.show(board)

    def _mover(self, fronts: list[int]) -> int | None:
        previous = self._board
        if previous is None or previous.sides != len(fronts):
            return None
        moved = [(abs(f - p), s) for s, (f, p) in enumerate(zip(fronts, previous.front,
                                                                 strict=True)) if f != p]
        return max(moved)[1] if moved else previous.last

    def poll(self, now: float) -> list[LinkStatus]:
        """Let the link work; report when it comes up or goes down."""
        if now < self._next:
            return []
        self._next = now + self.poll_s
        self.link.poll(now)
        up = self.link.is_up
        if up == self._reported_up or (not up and now < self._grace_until):
            return []
        self._reported_up = up
        return [LinkStatus(up=up, detail="" if up else "LEDs off")]

    def next_deadline(self) -> float | None:
        """The next poll."""
        return self._next

    def close(self) -> None:
        """Close the serial port."""
        self.link.close()


def open_led_board(link: LinkConfig, leds: LedsConfig, now: float) -> LinkedBoard | None:
    """The LED board the ``[link]`` and ``[leds]`` sections describe (None: no board)."""
    if not link.device and not link.serial_number:
        return None
    from pegboard.link.layout import LedConfig
    from pegboard.link.serial_link import SerialLink

    layout = LedConfig(
        tracks=leds.sides,
        count=leds.count,
        serpentine=leds.serpentine,
        hole1_end="left" if leds.hole1_end == "start" else "right",
        brightness=max(1, min(255, round(leds.brightness * 255))),
        budget_ma=leds.budget_ma,
    )
    serial = SerialLink(link.device or "auto", config=layout,
                        serial_number=link.serial_number or None)
    return LinkedBoard(serial, colours=[parse_colour(c) for c in leds.colours], start=now)
