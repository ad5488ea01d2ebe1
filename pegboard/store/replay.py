"""The engine's judgement of a stored game: how much of its record it can replay.

The store keeps record lines without understanding them; this module asks the rules engine
(:class:`pegboard.rules.game.Game`, through :func:`pegboard.record.parse_line`) which of them
it still accepts, for the store's ``check`` (:mod:`pegboard.store.recovery`): a game whose
record an engine refuses — written by an older release whose rulings differ, or edited by hand
— is restored up to the line before the refusal, and kept whole aside, instead of stopping the
device from starting.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pegboard.errors import PegboardError
from pegboard.record import parse_line
from pegboard.rules.events import GameHeader
from pegboard.rules.game import Game


@dataclass(frozen=True)
class Replay:
    """A record replayed as far as the engine goes: the game with every accepted line,
    how many lines (header included) it accepted, and why it stopped (None: it took all)."""

    game: Game | None
    accepted: int
    problem: str | None


def replay(lines: Sequence[str]) -> Replay:
    """Replay record lines (header first) through the engine, stopping at the first refusal."""
    game: Game | None = None
    for number, text in enumerate(lines, start=1):
        try:
            item = parse_line(text, number)
            if game is None:
                if not isinstance(item, GameHeader):
                    return Replay(None, 0, f"line {number} is not the game line")
                game = Game.from_header(item)
            elif isinstance(item, GameHeader):
                return Replay(game, number - 1, f"line {number} is a second game line")
            else:
                game.apply(item)
        except PegboardError as error:
            return Replay(game, number - 1, _refusal(number, error))
        except Exception as error:  # an engine bug must not keep the device from starting
            return Replay(game, number - 1,
                          _refusal(number, f"{type(error).__name__}: {error}"))
    return Replay(game, len(lines), None)


def _refusal(number: int, error: object) -> str:
    text = str(error)
    prefix = f"line {number}: "
    if text.startswith(prefix):  # the record reader names the line itself
        text = text[len(prefix):]
    return f"line {number} cannot be replayed ({text})"


def engine_check(lines: Sequence[str]) -> tuple[int, str | None]:
    """The store's ``check``: how many lines the engine accepts, and why it stopped."""
    result = replay(lines)
    return result.accepted, result.problem
