"""The LED board as the device loop sees it: the ``LedBoard`` port of ``pegboard.device``.

:class:`SerialLedBoard` turns the app's ``UpdateLeds`` effects into full boards for
:class:`~pegboard.link.serial_link.SerialLink` (with the side that just scored as the engine
reported it, so the firmware can animate it; nothing is worked out here) and reports the
link going up or down as ``LinkStatus`` events for the screen.
"""

from __future__ import annotations

from collections.abc import Sequence

from pegboard.app.effects import UpdateLeds
from pegboard.app.inputs import LinkStatus
from pegboard.config import Config
from pegboard.link.board import DEFAULT_COLOURS, BoardState, Colour, parse_colour
from pegboard.link.layout import led_config_from
from pegboard.link.serial_link import SerialLink


class SerialLedBoard:
    """The loop's LED port over a :class:`SerialLink`. Never blocks and never raises."""

    def __init__(self, link: SerialLink, colours: Sequence[Colour] = DEFAULT_COLOURS) -> None:
        self.link = link
        self.colours = tuple(colours)
        self.board: BoardState | None = None
        self._reported: bool | None = None
        self._now = 0.0

    @classmethod
    def from_config(cls, config: Config) -> SerialLedBoard | None:
        """The board the config file describes, or None when ``[link] device`` is empty."""
        if not config.link.device and not config.link.serial_number:
            return None
        link = SerialLink(
            config.link.device or "auto",
            serial_number=config.link.serial_number or None,
            config=led_config_from(config.leds),
        )
        return cls(link, [parse_colour(c) for c in config.leds.colours])

    def show(self, leds: UpdateLeds) -> None:
        """Show the app's pegs (sent on the next poll; resent after any reconnect)."""
        sides = leds.sides
        colours = [*self.colours, *DEFAULT_COLOURS][: len(sides)]
        winner = next((i for i, side in enumerate(sides) if side.winner), None)
        previous = self.board
        last = leds.last
        if last is None and previous is not None and previous.sides == len(sides):
            last = previous.last  # this entry pegged nothing: the board keeps its mover
        self.board = BoardState.from_scores(
            [side.front for side in sides], [side.back for side in sides],
            last=last, winner=winner, target=leds.target, colours=colours,
        )
        self.link.show(self.board)

    def show_board(self, board: BoardState) -> None:
        """Show a whole board as it is (the bring-up's walk: one LED at a time); the next
        ``show`` puts the game's pegs back."""
        self.board = board
        self.link.show(board)

    @property
    def is_up(self) -> bool:
        """Whether the Pico answers (its handshake done, its firmware the one expected)."""
        return self.link.is_up

    def poll(self, now: float) -> list[LinkStatus]:
        """Let the link work; a ``LinkStatus`` when it went up or down since last time."""
        self._now = now
        self.link.poll(now)
        up = self.link.is_up
        if up == self._reported:
            return []
        self._reported = up
        return [LinkStatus(up, "" if up else self.link.summary)]

    def next_deadline(self) -> float | None:
        """When the link next needs a poll."""
        return self.link.next_deadline(self._now)

    def close(self) -> None:
        """Say goodbye (the board goes dark instead of showing link-lost), then let go of the
        serial port. Called when the device shuts down or the service stops on purpose."""
        self.link.goodbye()
        self.link.close()
