"""The game record: the engine's event log as JSON Lines (one object per line).

The first line is the game header, ``{"type": "game", "players": [...], "rules": {...}}``;
every later line is one event. ``docs/record.md`` describes every type and field. Reading is
strict about what it needs (a missing or wrong-typed field is a :class:`RecordError` naming the
line and the field) and tolerant of what it does not know (extra keys are ignored, so newer
writers stay readable). Blank lines are skipped.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, TextIO

from pegboard.errors import InvalidCardError, RecordError, RuleError
from pegboard.rules.cards import Card
from pegboard.rules.events import (
    EVENT_TYPES,
    RECORD_VERSION,
    Claim,
    Crib,
    Cut,
    Deal,
    Dealt,
    Event,
    GameHeader,
    Go,
    Muggins,
    NewGame,
    Option,
    Peg,
    Penalty,
    Play,
    Show,
    Starter,
    TableOptions,
    Undo,
)
from pegboard.rules.state import GameState
from pegboard.rules.variants import Rules

Line = GameHeader | Event
"""Anything a record line can hold."""

_TYPES = ", ".join([GameHeader.TYPE, *(cls.TYPE for cls in EVENT_TYPES)])


class _Fields:
    """Typed access to one line's object, raising RecordError that names the line."""

    def __init__(self, data: Mapping[str, object], line: int) -> None:
        self.data = data
        self.line = line

    def fail(self, reason: str) -> RecordError:
        return RecordError(f"line {self.line}: {reason}")

    def _get(self, key: str) -> object:
        if key not in self.data:
            kind = self.data.get("type")
            raise self.fail(f"{kind!r} needs the field {key!r}")
        return self.data[key]

    def whole(self, key: str) -> int:
        value = self._get(key)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(f"{key!r} must be a whole number, got {value!r}")
        return value

    def opt_int(self, key: str) -> int | None:
        if self.data.get(key) is None:
            return None
        return self.whole(key)

    def opt_bool(self, key: str) -> bool | None:
        value = self.data.get(key)
        if value is not None and not isinstance(value, bool):
            raise self.fail(f"{key!r} must be true or false, got {value!r}")
        return value

    def text(self, key: str) -> str:
        value = self._get(key)
        if not isinstance(value, str):
            raise self.fail(f"{key!r} must be text, got {value!r}")
        return value

    def card(self, key: str) -> Card:
        return self._card(self._get(key), key)

    def _card(self, value: object, key: str) -> Card:
        if not isinstance(value, str):
            raise self.fail(f"{key!r} must be a card like \"5H\", got {value!r}")
        try:
            return Card.parse(value)
        except InvalidCardError as error:
            raise self.fail(f"{key!r}: {error}") from None

    def cards(self, key: str) -> tuple[Card, ...]:
        value = self._get(key)
        if not isinstance(value, list):
            raise self.fail(f"{key!r} must be a list of cards like [\"5H\", \"KD\"], got {value!r}")
        return tuple(self._card(item, key) for item in value)


def parse_line(text: str, line: int = 1) -> Line:
    """Read one record line (header or event); RecordError says which line and why.

    >>> parse_line('{"type": "play", "player": 1, "card": "5C"}')
    Play(player=1, card=Card.parse('5C'))
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(
            f"line {line}: not valid JSON ({error.msg} at column {error.colno})"
        ) from None
    if not isinstance(data, dict):
        raise RecordError(f"line {line}: expected a JSON object {{...}}, got {data!r}")
    f = _Fields(data, line)
    kind = data.get("type")
    if not isinstance(kind, str):
        raise f.fail(f"every line needs a \"type\" (one of {_TYPES})")
    if kind == GameHeader.TYPE:
        return _header(f)
    if kind == Cut.TYPE:
        return Cut(f.cards("cards"))
    if kind == Deal.TYPE:
        return Deal(f.opt_int("dealer"))
    if kind == Dealt.TYPE:
        return Dealt(f.whole("player"), f.cards("cards"))
    if kind == Starter.TYPE:
        return Starter(f.card("card"))
    if kind == Play.TYPE:
        return Play(f.whole("player"), f.card("card"))
    if kind == Go.TYPE:
        return Go(f.whole("player"))
    if kind == Show.TYPE:
        return Show(f.whole("player"), f.cards("cards"))
    if kind == Crib.TYPE:
        return Crib(f.cards("cards"))
    if kind == Peg.TYPE:
        return Peg(f.whole("player"), f.whole("points"))
    if kind == Penalty.TYPE:
        return Penalty(
            f.whole("player"), f.text("infraction"), f.opt_int("points"), f.opt_int("to"),
            f.opt_int("back"),
        )
    if kind == Claim.TYPE:
        return Claim(f.whole("player"), f.whole("points"))
    if kind == Muggins.TYPE:
        return Muggins(f.whole("player"), f.whole("points"))
    if kind == Undo.TYPE:
        return Undo()
    if kind == NewGame.TYPE:
        return NewGame(f.opt_int("dealer"))
    if kind == Option.TYPE:
        option = Option(f.opt_bool("teaching"), f.opt_bool("points_only"))
        if option == Option():
            raise f.fail("an option line names teaching or points_only (true or false)")
        return option
    raise f.fail(f"unknown type {kind!r}: expected one of {_TYPES}")


def _header(f: _Fields) -> GameHeader:
    version = f.opt_int("version")
    if version is None:
        version = 1
    if not 1 <= version <= RECORD_VERSION:
        raise f.fail(f"record version {version} is not supported (this reader knows 1 to "
                     f"{RECORD_VERSION})")
    players = f._get("players")
    if not isinstance(players, list) or not all(
        isinstance(p, str) and p.strip() for p in players
    ):
        raise f.fail(f"'players' must be a list of 2 to 4 names, got {players!r}")
    rules_data = f.data.get("rules", {})
    if not isinstance(rules_data, dict):
        raise f.fail(f"'rules' must be an object, got {rules_data!r}")
    try:
        rules = Rules.from_json(rules_data, len(players))
    except RuleError as error:
        raise f.fail(str(error)) from None
    table_data = f.data.get("table", {})
    if not isinstance(table_data, dict):
        raise f.fail(f"'table' must be an object, got {table_data!r}")
    unknown = sorted(set(table_data) - {"teaching", "points_only"})
    if unknown:
        raise f.fail(f"unknown table option {unknown[0]!r}: accepted are points_only, teaching")
    table = _Fields(table_data, f.line)
    options = TableOptions(
        bool(table.opt_bool("teaching")), bool(table.opt_bool("points_only")),
    )
    return GameHeader(tuple(players), rules, version, options)


def dump(item: Line, players: int = 2) -> dict[str, object]:
    """The JSON object for a header or event (``players`` shortens the rules object)."""
    if isinstance(item, GameHeader):
        header: dict[str, object] = {
            "type": "game", "version": item.version, "players": list(item.players),
            "rules": item.rules.to_json(len(item.players)),
        }
        table = {
            key: True for key in ("teaching", "points_only") if getattr(item.table, key)
        }
        if table:
            header["table"] = table
        return header
    out: dict[str, object] = {"type": item.TYPE}
    if isinstance(item, Cut | Crib):
        out["cards"] = [str(card) for card in item.cards]
    elif isinstance(item, Deal | NewGame):
        if item.dealer is not None:
            out["dealer"] = item.dealer
    elif isinstance(item, Dealt | Show):
        out["player"] = item.player
        out["cards"] = [str(card) for card in item.cards]
    elif isinstance(item, Starter):
        out["card"] = str(item.card)
    elif isinstance(item, Play):
        out["player"] = item.player
        out["card"] = str(item.card)
    elif isinstance(item, Go):
        out["player"] = item.player
    elif isinstance(item, Option):
        for key in ("teaching", "points_only"):
            value = getattr(item, key)
            if value is not None:
                out[key] = value
    elif isinstance(item, Peg | Claim | Muggins):
        out["player"] = item.player
        out["points"] = item.points
    elif isinstance(item, Penalty):
        out["player"] = item.player
        out["infraction"] = item.infraction
        for key in ("points", "to", "back"):
            value = getattr(item, key)
            if value is not None:
                out[key] = value
    return out


def dump_line(item: Line, players: int = 2) -> str:
    """One record line (no newline)."""
    return json.dumps(dump(item, players), ensure_ascii=False)


def iter_lines(lines: Iterable[str]) -> Iterator[tuple[int, Line]]:
    """Parse record lines lazily as (line number, header or event); blank lines skipped."""
    for number, text in enumerate(lines, start=1):
        if text.strip():
            yield number, parse_line(text, number)


def read(stream: TextIO | Iterable[str]) -> tuple[GameHeader, list[Event]]:
    """Read a whole record: its header and events (RecordError on the first bad line)."""
    header: GameHeader | None = None
    events: list[Event] = []
    for number, item in iter_lines(stream):
        if isinstance(item, GameHeader):
            if header is not None:
                raise RecordError(
                    f"line {number}: a second \"game\" line; a match continues with new_game"
                )
            header = item
        elif header is None:
            raise RecordError(f"line {number}: the first line must be the \"game\" line")
        else:
            events.append(item)
    if header is None:
        raise RecordError("line 1: the record is empty: it needs a \"game\" line first")
    return header, events


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
