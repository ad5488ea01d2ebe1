"""The restore path's replay reports exactly what it reported before it was made faster.

Every record kept in the repository and a set of seeded generated games are replayed as a
restore replays them (:func:`pegboard.record.reader.replay`, from the objects the store
decodes), and each entry's report, each state in force and the last state are compared with
the digests in ``tests/data/replay_digest.json`` (:mod:`tests.support.replay_digest`, which
regenerates them). Any report, state or score that changes fails here, naming the game and
the entry.
"""

from __future__ import annotations

import json
import sys
import threading

import pytest

from pegboard.record.reader import replay
from pegboard.rules.cards import Card
from pegboard.rules.events import Deal, Play
from pegboard.rules.facts import Report
from pegboard.rules.game import Game
from tests.support.replay_digest import (
    DIGEST,
    ROOT,
    canonical,
    compute,
    digest,
    games,
    record_lines,
)


def test_every_report_and_state_is_what_the_engine_reported_before() -> None:
    wanted = json.loads(DIGEST.read_text(encoding="utf-8"))
    found = compute()
    assert sorted(found) == sorted(wanted)
    for name, made in found.items():
        was = wanted[name]
        for key in ("accepted", "problem", "final"):
            assert made[key] == was[key], (name, key)
        for key in ("applied", "kept"):
            mine, theirs = made[key], was[key]
            assert isinstance(mine, list) and isinstance(theirs, list)
            changed = next((i for i, (a, b) in enumerate(zip(mine, theirs, strict=False))
                            if a != b), None)
            assert changed is None, f"{name}: {key} entry {changed} differs"
            assert len(mine) == len(theirs), (name, key)


def test_the_digest_covers_long_games_of_every_kind() -> None:
    wanted = json.loads(DIGEST.read_text(encoding="utf-8"))
    names = [name for name, _ in games()]
    assert len(names) >= 25 and "examples/muggins.jsonl" in names
    assert sum(len(digest["kept"]) for digest in wanted.values()) > 3000
    assert all(digest["problem"] is None for digest in wanted.values())


def test_the_written_form_tells_every_field_and_set_apart() -> None:
    five, six = Card.parse("5H"), Card.parse("6H")
    assert canonical(Play(0, five)) != canonical(Play(0, six)) != canonical(Play(1, six))
    assert canonical(frozenset({five, six})) == canonical(frozenset({six, five}))
    assert canonical(Deal(None)) != canonical(Deal(0))
    with pytest.raises(TypeError, match="no canonical form"):
        canonical(object())


def test_a_changed_entry_changes_the_digest_from_that_entry_on() -> None:
    lines = record_lines(ROOT / "examples" / "two-player.jsonl")
    was = digest(lines)
    changed = [*lines[:20], {**lines[20], "card": "AS"}, *lines[21:]] if lines[20].get(
        "type") == "play" else None
    assert changed is not None
    now = digest(changed)
    mine, theirs = now["applied"], was["applied"]
    assert isinstance(mine, list) and isinstance(theirs, list)
    assert mine[:20] == theirs[:20] and mine[20] != theirs[20]


def test_a_report_made_when_first_read_is_one_object_whichever_thread_reads_it_first() -> None:
    # The loop's thread and the phones' server both read a restored game's reports, and the
    # voice knows a withdrawn report by identity: first reads of one entry's report on several
    # threads must give one object. Switching threads every microsecond puts one thread's
    # switch inside another's making of a report many times over, in each of several restores.
    lines = record_lines(ROOT / "examples" / "muggins.jsonl")
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for _ in range(4):
            restored = replay(lines).game
            assert restored is not None
            start = threading.Barrier(3)
            read: list[tuple[Report, ...]] = []

            def reader(game: Game = restored, start: threading.Barrier = start,
                       read: list[tuple[Report, ...]] = read) -> None:
                start.wait(timeout=30)
                read.append(game.reports())

            threads = [threading.Thread(target=reader) for _ in range(3)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=60)
            first, *others = read
            assert len(others) == 2 and len(first) > 200
            for other in others:
                assert all(one is two for one, two in zip(first, other, strict=True))
    finally:
        sys.setswitchinterval(interval)
