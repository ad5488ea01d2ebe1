"""Games written by an earlier release keep opening: records and a whole store, as fixtures.

``tests/data/written-by-0.1.0/`` was written once by release 0.1.0 (git 0d136d1) and is never
regenerated: ``records/`` are that release's example records, ``store/`` a store its
``pegboard game`` commands wrote (seven finished or abandoned games and one in progress), and
``expected.json`` what that release replayed them to. A later release that changes a ruling
must still open every one of them, to the same scores — by reading the record's ``version``
(or the absence of a newer rule) and keeping the old ruling for old records. If a test here
fails, a stored game of a player would no longer open as it was played.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from pegboard.commands.game import result_of, status_of
from pegboard.store import Store, StoreReader, engine_check
from pegboard.store.replay import replay

DATA = Path(__file__).resolve().parent / "data" / "written-by-0.1.0"
EXPECTED: dict[str, Any] = json.loads((DATA / "expected.json").read_text(encoding="utf-8"))


def record_lines(name: str) -> list[str]:
    text = (DATA / "records" / name).read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.strip()]


@pytest.mark.parametrize("name", sorted(EXPECTED["records"]))
def test_every_record_of_the_earlier_release_replays_to_the_same_result(name: str) -> None:
    expected = EXPECTED["records"][name]
    replayed = replay(record_lines(name))
    assert replayed.problem is None, f"{name} no longer opens: {replayed.problem}"
    assert replayed.game is not None
    assert result_of(replayed.game) == expected["result"]
    assert len(replayed.game.events) == expected["events"]


def test_the_store_of_the_earlier_release_opens_whole_and_as_it_was(tmp_path: Path) -> None:
    store_path = tmp_path / "store"
    shutil.copytree(DATA / "store", store_path)
    before = {path.relative_to(store_path): path.read_bytes()
              for path in store_path.rglob("*.log")}
    with Store(store_path, owner="pegboard test", check=engine_check) as store:
        assert store.notices == [] and store.recoveries == []
        current = store.current()
        history = store.history()
    assert current is not None
    replayed = replay(current.lines)
    assert replayed.problem is None and replayed.game is not None
    assert status_of(replayed.game, current) == EXPECTED["store"]["current"]
    assert [{"id": game.id, "result": game.result, "lines": len(game.records)}
            for game in history] == EXPECTED["store"]["history"]
    for game in history:  # each game still replays to the result it was kept with
        finished = replay(game.lines)
        assert finished.problem is None and finished.game is not None
        assert result_of(finished.game) == game.result, game.id
    after = {path.relative_to(store_path): path.read_bytes()
             for path in store_path.rglob("*.log")}
    assert after == before  # opening changed nothing


def test_a_reader_sees_the_same_store_without_notices() -> None:
    reader = StoreReader(DATA / "store", check=engine_check)
    assert reader.current() is not None
    assert len(reader.history()) == len(EXPECTED["store"]["history"])
    assert reader.notices == [] and reader.set_aside() == []
