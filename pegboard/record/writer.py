"""Writing the record: the engine's values as record lines, and a game's result as the
history keeps it."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, TextIO

from pegboard.record.parse import Line
from pegboard.rules.cards import Card, Suit
from pegboard.rules.events import Event, GameHeader
from pegboard.rules.state import GameState
from pegboard.rules.value import Value


def dump(item: Line, players: int = 2) -> dict[str, object]:
    """The JSON object for a header or event (``players`` shortens the rules object)."""
    if isinstance(item, GameHeader):
        header: dict[str, object] = {
            "type": "game", "version": item.version, "players": list(item.players),
            "rules": item.rules.to_json(len(item.players)),
        }
        table = {
            key: True for key in ("teaching", "points_only", "count_yourself", "open_hands")
            if getattr(item.table, key)
        }
        if table:
            header["table"] = table
        if item.club is not None:
            club: dict[str, object] = {
                "night": item.club.night, "round": item.club.round, "table": item.club.table,
                "members": list(item.club.members),
            }
            if item.club.lock:
                club["lock"] = True
            if item.club.guests:
                club["guests"] = list(item.club.guests)
            header["club"] = club
        return header
    out: dict[str, object] = {"type": item.TYPE}
    defaults = _DEFAULTS.get(item.TYPE)
    if defaults is None:
        defaults = _DEFAULTS[item.TYPE] = _defaults(item)
    for name in item.__match_args__:
        value = getattr(item, name)
        # A field left at its default is not written (a deal without a dealer, a penalty
        # without a target, a starter whose suit was entered), as readers take the default.
        if name in defaults and value == defaults[name]:
            continue
        if isinstance(value, Card):
            value = str(value)
        elif isinstance(value, Suit):
            value = value.letter
        elif isinstance(value, tuple):
            value = [str(card) for card in value]
        out[name] = value
    return out


_DEFAULTS: dict[str, dict[str, object]] = {}
"""Each entry type's fields that have a default, by its record type."""


def _defaults(item: Value) -> dict[str, object]:
    """The fields of ``item``'s type that have a default, with it (its ``__init__``'s last
    parameters)."""
    names = item.__match_args__
    values = getattr(type(item).__init__, "__defaults__", None) or ()  # Undo: object's
    return dict(zip(names[len(names) - len(values):], values, strict=True))


def dump_line(item: Line, players: int = 2) -> str:
    """One record line (no newline)."""
    return json.dumps(dump(item, players), ensure_ascii=False)


def write(stream: TextIO, header: GameHeader, events: Iterable[Event]) -> None:
    """Write a whole record, one line per entry."""
    players = len(header.players)
    stream.write(dump_line(header, players) + "\n")
    for event in events:
        stream.write(dump_line(event, players) + "\n")




def result_json(state: GameState) -> dict[str, Any]:
    """What the history keeps as the result of a game or match: the ``pegboard replay
    --json`` result line (``type``, ``scores``, ``winner``, ``skunk``, ``game_points``) of the
    last game, plus ``abandoned`` (the game or match was not over) and the ``match`` totals."""
    match = state.match
    over = match.winner is not None or (state.result is not None and match.games <= 1)
    last = state.result
    return {
        "type": "result",
        "scores": list(state.scores),
        "winner": state.winner,
        "skunk": last.skunk if last is not None else "none",
        "game_points": list(last.game_points) if last is not None else [0] * len(state.scores),
        "abandoned": not over,
        "match": {
            "games": match.games,
            "played": [played.to_json() for played in match.played],
            "wins": list(match.wins),
            "game_points": list(match.game_points),
            "winner": match.winner,
        },
    }
