"""The LED board's observer: the pegs the app asks for go to the board (loaded with the board,
only when the config names one; :mod:`pegboard.device.observers` has what every device
has)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Generic, TypeVar

from pegboard.app.effects import UpdateLeds
from pegboard.app.inputs import InputEvent
from pegboard.errors import PegboardError

if TYPE_CHECKING:
    from pegboard.device.observers import Seen
    from pegboard.device.ports import LedBoard

log = logging.getLogger(__name__)

S = TypeVar("S")


class Leds(Generic[S]):
    """The LED board: the pegs the app asked for; the side that scored is the one whose act
    the engine reported last (kept as it was when a batch pegged nothing)."""

    def __init__(self, board: LedBoard) -> None:
        self.board = board

    def saw(self, seen: Seen[S]) -> None:
        asked = [effect for effect in seen.asked if isinstance(effect, UpdateLeds)]
        if not asked:
            return
        try:
            self.board.show(asked[-1])
        except (PegboardError, OSError) as error:  # the link reports itself down
            log.warning("LED board: %s", error)

    def poll(self, now: float) -> Sequence[InputEvent]:
        return self.board.poll(now)

    def next_deadline(self) -> float | None:
        return self.board.next_deadline()

    def close(self) -> None:
        self.board.close()
