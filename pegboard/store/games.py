"""The games a store holds, as read from their log files (engine-agnostic values)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pegboard.errors import RecordError, StoreError
from pegboard.record.bounded import load_json, shown
from pegboard.rules.value import FieldsOf, Value
from pegboard.store.ids import is_valid_id


def record_text(record: Mapping[str, Any]) -> str:
    """One record line as JSON text, in the record's usual spacing.

    >>> record_text({"type": "peg", "player": 0, "points": 2})
    '{"type": "peg", "player": 0, "points": 2}'
    """
    return json.dumps(record, ensure_ascii=False, allow_nan=False)


def parse_record_line(line: str | Mapping[str, Any]) -> dict[str, Any]:
    """A record line as a JSON object with a string ``type``, or a clear StoreError."""
    record: object
    if isinstance(line, Mapping):
        record = dict(line)
    else:
        try:
            record = load_json(line)
        except RecordError as error:
            why = str(error).removeprefix("line 1: ")
            raise StoreError(f"not a JSON record line ({why}): {shown(line)}") from None
    if not isinstance(record, dict) or not isinstance(record.get("type"), str):
        raise StoreError(
            f'a record line must be a JSON object with a "type", like {{"type": "undo"}}: '
            f"{shown(line)}"
        )
    try:
        record_text(record)
    except (TypeError, ValueError) as error:
        raise StoreError(f"cannot be saved as JSON ({error}): {line!r}") from None
    return record


class _Game(Value):
    """A game's record as the store keeps it: its id, file, lines and their times."""

    __slots__ = ("id", "path", "records", "recovered", "times")
    __match_args__ = ("id", "path", "records", "times", "recovered")

    id: str
    path: Path
    records: tuple[dict[str, Any], ...]
    times: tuple[float, ...]
    recovered: Mapping[str, Any] | None
    """When this game was restored from a damaged file: what happened (see :class:`Recovery`
    in :mod:`pegboard.store.recovery`); None for a game read whole."""

    def __init_subclass__(cls) -> None:
        cls._fields_of = FieldsOf()  # each kind of game is compared by its own fields

    def __init__(self, id: str, path: Path, records: tuple[dict[str, Any], ...],
                 times: tuple[float, ...], recovered: Mapping[str, Any] | None = None) -> None:
        setter = object.__setattr__
        setter(self, "id", id)
        setter(self, "path", path)
        setter(self, "records", records)
        setter(self, "times", times)
        setter(self, "recovered", recovered)

    @property
    def lines(self) -> tuple[str, ...]:
        """The record lines as JSON text, header first, undo lines included."""
        return tuple(record_text(record) for record in self.records)

    @property
    def record(self) -> str:
        """The whole record as JSON Lines text (what ``pegboard replay`` reads)."""
        return "".join(line + "\n" for line in self.lines)

    @property
    def header(self) -> dict[str, Any]:
        """The record's first line, ``{"type": "game", ...}``."""
        return self.records[0]

    @property
    def players(self) -> list[Any]:
        """The players named in the header (empty if it names none)."""
        players = self.header.get("players", [])
        return list(players) if isinstance(players, list) else []

    @property
    def rules(self) -> dict[str, Any]:
        """The rules given in the header (the engine's defaults apply to the rest)."""
        rules = self.header.get("rules", {})
        return dict(rules) if isinstance(rules, dict) else {}

    @property
    def started_at(self) -> float:
        """When the game was started (Unix seconds)."""
        return self.times[0]

    @property
    def events(self) -> int:
        """How many lines follow the header (undo lines count as lines too)."""
        return len(self.records) - 1


class CurrentGame(_Game):
    """The unfinished game: its record so far, with the time each line was accepted."""

    __slots__ = ("seats",)
    __match_args__ = ("id", "path", "records", "times", "recovered", "seats")

    seats: tuple[int | None, ...]
    """For each line, the seat whose phone made its entry (None: made on the box), as the
    log keeps it beside the record (a hint, as the scores are: the once-a-game lessons a
    resumed game gave on the box leave out those of a phone's entries, which only that
    phone showed); empty when none is known (a game restored from a damaged file)."""

    def __init__(self, id: str, path: Path, records: tuple[dict[str, Any], ...],
                 times: tuple[float, ...], recovered: Mapping[str, Any] | None = None,
                 seats: tuple[int | None, ...] = ()) -> None:
        super().__init__(id, path, records, times, recovered)
        object.__setattr__(self, "seats", seats)


class FinishedGame(_Game):
    """A game in the history: the full record, when each line was made, and the result.

    ``result`` is what the caller passed to :meth:`Store.finish` — for a game played out,
    the engine's result (scores, winner, skunk, game points); ``{"abandoned": true, ...}``
    when a new game was started before this one ended.
    """

    __slots__ = ("finished_at", "result", "summaries")
    __match_args__ = ("id", "path", "records", "times", "result", "finished_at", "summaries",
                      "recovered")

    result: dict[str, Any]
    finished_at: float
    summaries: Any
    """The statistics summaries the writer kept beside the result on the finish line
    (``{"layout": ..., "games": [...]}``, see :mod:`pegboard.store.index_rows`), so that an
    index made again from the history need not replay the record; None when there are none."""

    def __init__(self, id: str, path: Path, records: tuple[dict[str, Any], ...],
                 times: tuple[float, ...], result: dict[str, Any], finished_at: float,
                 summaries: Any = None, recovered: Mapping[str, Any] | None = None) -> None:
        super().__init__(id, path, records, times, recovered)
        setter = object.__setattr__
        setter(self, "result", result)
        setter(self, "finished_at", finished_at)
        setter(self, "summaries", summaries)

    @property
    def abandoned(self) -> bool:
        """Whether the game was left unfinished (a new game was started instead)."""
        return self.result.get("abandoned") is True


def header_problem(entries: list[dict[str, Any]]) -> str | None:
    """Why the first log entry is not a game's header line (None when it is one).

    The id, when there is one, becomes a file name (``history/<id>.log``), so it must be a
    valid id: a crafted ``../`` or NUL in it must never reach a path.
    """
    record = entries[0].get("record")
    if not isinstance(record, dict) or record.get("type") != "game":
        return "it does not start with a game header"
    game_id = entries[0].get("id")
    if game_id is not None and not is_valid_id(game_id):
        return (f"its game id {game_id!r} is not valid (ids are letters, digits, '-' and '_')")
    return None


def game_from_entries(
    entries: list[dict[str, Any]], path: Path
) -> CurrentGame | FinishedGame | None:
    """Turn good log entries into a game; None if they do not make one.

    A log without an id (none was ever written without one) takes its file's name, which
    the caller has checked to be a valid id.
    """
    if not entries or header_problem(entries) is not None:
        return None
    body = entries[:-1] if "finish" in entries[-1] else entries
    if any("record" not in entry for entry in body):
        return None
    game_id = str(entries[0].get("id") or path.stem)
    records = tuple(entry["record"] for entry in body)
    times = tuple(float(entry["at"]) for entry in body)
    note = entries[0].get("recovered")
    recovered = dict(note) if isinstance(note, dict) else None
    if "finish" in entries[-1]:
        return FinishedGame(
            game_id,
            path,
            records,
            times,
            recovered=recovered,
            result=dict(entries[-1]["finish"]),
            finished_at=float(entries[-1]["at"]),
            summaries=entries[-1].get("summaries"),
        )
    seats = tuple(seat if isinstance(seat := entry.get("seat"), int) else None
                  for entry in body)
    return CurrentGame(game_id, path, records, times, recovered=recovered, seats=seats)
