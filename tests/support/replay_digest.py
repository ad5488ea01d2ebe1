"""A digest of what the engine reports when it replays a record: every entry's report and
every state, as the restore path makes them (:func:`pegboard.record.reader.replay`).

``tests/data/replay_digest.json`` holds the digests the engine gave for the records under
``examples/`` and ``tests/data`` and for a set of seeded generated games; ``tests/
test_replay_digest.py`` replays them all again and compares entry by entry, so a change made
to the restore path for speed that changes any report, state or score fails, naming the game
and the entry. Regenerate the file (only when a report changes on purpose, in a commit of
its own) with::

    .venv/bin/python -m tests.support.replay_digest

Each value is written out field by field (:func:`canonical`) before it is hashed: a set's
members sorted, an enum by its name, so the digest is the same under any hash seed.
"""

from __future__ import annotations

import enum
import hashlib
import io
import json
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from pegboard import record
from pegboard.record.reader import Replayer, replay
from pegboard.rules.cards import Card
from pegboard.rules.game import Game
from pegboard.rules.history import Node
from pegboard.rules.value import Value
from tests.support.games import TABLES, random_game

ROOT = Path(__file__).resolve().parents[2]
DIGEST = ROOT / "tests" / "data" / "replay_digest.json"
RECORDS = (
    *sorted((ROOT / "examples").glob("*.jsonl")),
    *sorted((ROOT / "tests" / "data" / "written-by-0.1.0" / "records").glob("*.jsonl")),
    *sorted((ROOT / "tests" / "data" / "referee_cases").glob("*.jsonl")),
)
"""Every record kept in the repository: the examples, the records an older release wrote
(earlier record versions), the referee's cases."""

GENERATED: tuple[tuple[str, int, dict[str, object]], ...] = tuple(
    table for table in TABLES if table[0] in {
        "two-show-mode", "three-mixed-61", "two-muggins", "four-muggins-mixed", "two-dealt",
        "three-muggins", "two-reneges", "four-reneges", "five-card-reneges"})
"""Generated tables (of those ``tests/test_game_random.py`` plays) the records above do not
cover alone: claims and muggins calls, dealt hands, reneges and their penalties, each played
from one seed."""

SEED = 3

BY_RANK = ("two-dealt", "two-muggins", "four-reneges")
"""Generated tables played again as the box enters them: every starter named with
``by_rank`` (the deal's other cards entered by rank alone, their suits the card wheel's), so
the counts name only the cards whose suits were entered."""


def canonical(value: object, seen: dict[int, tuple[object, str]] | None = None) -> str:
    """``value`` written out whole, the same under any hash seed: a value by its class and
    fields, a set with its members sorted, an enum by its class and name. ``seen`` keeps what
    was written of each object met (by identity, the object kept alive beside it), so that
    the states of one game, which share their awards, are written in linear time."""
    if type(value) in _PLAIN:
        return repr(value)
    if seen is None:
        seen = {}
    known = seen.get(id(value))
    if known is not None and known[0] is value:
        return known[1]
    text = _written(value, seen)
    seen[id(value)] = (value, text)
    return text


_PLAIN = frozenset({type(None), bool, int, float, str})


def _written(value: object, seen: dict[int, tuple[object, str]]) -> str:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    if isinstance(value, Value):
        fields = _each([getattr(value, name) for name in value.__match_args__], seen)
        return f"{type(value).__qualname__}({fields})"
    if isinstance(value, tuple):
        return f"({_each(value, seen)})"
    if isinstance(value, list):
        return f"[{_each(value, seen)}]"
    if isinstance(value, frozenset | set):
        return "{" + ",".join(sorted(canonical(item, seen) for item in value)) + "}"
    if isinstance(value, Mapping):
        return "{" + ",".join(sorted(f"{canonical(k, seen)}:{canonical(v, seen)}"
                                     for k, v in value.items())) + "}"
    raise TypeError(f"no canonical form for {type(value).__name__}: {value!r}")


def _each(values: Sequence[object], seen: dict[int, tuple[object, str]]) -> str:
    return ",".join([repr(item) if type(item) in _PLAIN else canonical(item, seen)
                     for item in values])


def _hash(seen: dict[int, tuple[object, str]], *values: object) -> str:
    text = "|".join(canonical(value, seen) for value in values)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def record_lines(path: Path) -> list[dict[str, object]]:
    """A record file's lines as the store hands them to the replay: decoded objects."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]


def generated_lines(players: int, options: dict[str, object], *, by_rank: bool = False,
                    ) -> list[dict[str, object]]:
    """A seeded generated game written as a record and read back as objects (``by_rank``:
    every starter marked as the box enters it)."""
    game = random_game(SEED, players, **options)  # type: ignore[arg-type]
    buffer = io.StringIO()
    record.write(buffer, game.header, game.events)
    lines: list[dict[str, object]] = [json.loads(line) for line in
                                      buffer.getvalue().splitlines() if line.strip()]
    if by_rank:
        lines = [{**line, "by_rank": True} if line["type"] == "starter" else line
                 for line in lines]
    return lines


def games() -> Iterator[tuple[str, list[dict[str, object]]]]:
    """Every game digested: its name and its record's lines."""
    for path in RECORDS:
        yield path.relative_to(ROOT).as_posix(), record_lines(path)
    for name, players, options in GENERATED:
        yield f"generated/{name}/{SEED}", generated_lines(players, options)
        if name in BY_RANK:
            yield (f"generated/{name}/{SEED}/by-rank",
                   generated_lines(players, options, by_rank=True))


def digest(lines: list[dict[str, object]]) -> dict[str, object]:
    """What the engine makes of one record.

    ``applied``: each line's report as :meth:`Replayer.apply` returns it, read at once
    (an undo's included). ``kept``: after the whole record is replayed as a restore replays it
    (:func:`replay`), the report and the state of every entry in force, read only then,
    oldest first, and the last state. ``accepted`` and ``problem`` say how far it went.
    """
    seen: dict[int, tuple[object, str]] = {}
    replayer = Replayer()
    applied = []
    for line in lines:
        try:
            done = replayer.apply(line)
        except Exception as error:  # the refusal is part of the digest
            applied.append(f"refused: {error}")
            break
        applied.append(_hash(seen, None if done is None else done[1]))
    restored = replay(lines)
    game = restored.game
    kept: list[str] = []
    final = ""
    if game is not None:
        kept = [_hash(seen, node.report, node.state) for node in _nodes(game)]
        final = _hash(seen, game.state, game.header)
    return {"accepted": restored.accepted, "problem": restored.problem,
            "applied": applied, "kept": kept, "final": final}


def _nodes(game: Game) -> list[Node]:
    nodes = list(game._node.lineage())  # every state in force, oldest first
    nodes.reverse()
    return nodes


def compute() -> dict[str, dict[str, object]]:
    """The digest of every game."""
    return {name: digest(lines) for name, lines in games()}


def main() -> int:
    rows = [f"{json.dumps(name)}: {json.dumps(digest, sort_keys=True)}"
            for name, digest in sorted(compute().items())]
    DIGEST.write_text("{\n" + ",\n".join(rows) + "\n}\n", encoding="utf-8")
    print(f"wrote {DIGEST.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
