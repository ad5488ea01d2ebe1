"""Games built from record lines, as a table enters them (for the rulings tests).

Each test writes the lines of the game record (docs/record.md) and applies them one by one,
so a ruling is pinned by what the players entered, whatever the engine does inside.
"""

from __future__ import annotations

import json

from pegboard.record import parse_line
from pegboard.rules.events import RECORD_VERSION, Event, GameHeader
from pegboard.rules.game import Game


def header(version: int = RECORD_VERSION, players: tuple[str, ...] = ("Ann", "Ben"),
           **rules: object) -> str:
    """The ``game`` line."""
    return json.dumps({"type": "game", "version": version, "players": list(players),
                       "rules": rules})


def entry(kind: str, **fields: object) -> str:
    """One entry line."""
    return json.dumps({"type": kind, **fields})


def play(seat: int, card: str) -> str:
    return entry("play", player=seat, card=card)


def go(seat: int) -> str:
    return entry("go", player=seat)


def claim(seat: int, points: int) -> str:
    return entry("claim", player=seat, points=points)


def event(line: str) -> Event:
    """An entry line read as the engine's event."""
    parsed = parse_line(line, 2)
    assert not isinstance(parsed, GameHeader)
    return parsed


def game_of(lines: list[str]) -> Game:
    """The game a record's lines make, each line applied in turn."""
    first = parse_line(lines[0], 1)
    assert isinstance(first, GameHeader)
    game = Game.from_header(first)
    for line in lines[1:]:
        game.apply(event(line))
    return game
