"""A game is never lost to one bad line: restored up to it, kept whole aside, brought back.

Real files in tmp_path, the real engine as the store's check, real fsync.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path

import pytest

from pegboard.commands.game import restore
from pegboard.errors import StoreError
from pegboard.store import FinishedGame, Store, StoreReader, engine_check
from pegboard.store.logfile import encode_line, scan
from tests.support.stores import Clock, enter_game

HEADER = {"type": "game", "players": ["Ann", "Ben"], "rules": {"target": 121}}


def open_store(path: Path, check: object = engine_check) -> Store:
    return Store(path, owner="pegboard test", clock=Clock(), check=check)  # type: ignore[arg-type]


def record_game(path: Path, lines: int = 81, seed: int = 3) -> tuple[str, list[str]]:
    """A real game of ``lines`` record lines (header included) in the store; its id and lines."""
    with open_store(path) as store:
        return enter_game(store, lines, seed)


def flip_bit(path: Path, line: int, offset: int = 30) -> bytes:
    """Flip one bit inside line ``line`` (from 1) of a file; its new bytes."""
    data = bytearray(path.read_bytes())
    start = 0
    for _ in range(line - 1):
        start = data.index(b"\n", start) + 1
    data[start + offset] ^= 0x04
    path.write_bytes(bytes(data))
    return bytes(data)


def test_one_flipped_bit_in_line_3_of_81_restores_lines_1_and_2_and_keeps_the_whole_game(
    tmp_path: Path,
) -> None:
    game_id, texts = record_game(tmp_path)
    damaged = flip_bit(tmp_path / "current.log", 3)
    with open_store(tmp_path) as store:
        [recovery] = store.recoveries
        current = store.current()
        assert current is not None and current.lines == tuple(texts[:2])
        assert (recovery.restored, recovery.total) == (2, 81)
        assert recovery.reason == "line 3 is damaged or out of place"
        assert recovery.kept_as == f"aside/{game_id}.log"
        assert store.notices == [recovery.message()]
        assert f"Game {game_id}: restored to line 2 of 81: line 3 is damaged" in (
            recovery.message())
        assert recovery.screen()[1] == (
            "Restored to line 2 of 81: line 3 is damaged or out of place.")
        store.append(texts[2])  # the game goes on from where it stopped
    assert (tmp_path / "aside" / f"{game_id}.log").read_bytes() == damaged  # byte for byte
    # The restored game remembers what happened, for `pegboard game status`, and opening it
    # again restores nothing more.
    with open_store(tmp_path) as store:
        assert store.recoveries == []
        again = store.current()
    assert again is not None and again.lines == tuple(texts[:3])
    assert again.recovered == recovery.note()
    assert len(list((tmp_path / "aside").iterdir())) == 1


def test_a_reader_shows_what_a_writer_would_restore_and_moves_nothing(tmp_path: Path) -> None:
    _, texts = record_game(tmp_path, lines=20)
    damaged = flip_bit(tmp_path / "current.log", 7)
    reader = StoreReader(tmp_path, check=engine_check)
    current = reader.current()
    assert current is not None and current.lines == tuple(texts[:6])
    [recovery] = reader.recoveries
    assert recovery.kept_as is None
    assert "when Pegboard next opens the store it restores the game to line 6 of 20" in (
        recovery.message())
    assert (tmp_path / "current.log").read_bytes() == damaged
    assert not any((tmp_path / "aside").iterdir())


def refuse_from(line: int):  # type: ignore[no-untyped-def]
    """A check standing in for an engine whose ruling changed at record line ``line``."""

    def check(lines: Sequence[str]) -> tuple[int, str | None]:
        if len(lines) < line:
            return len(lines), None
        return line - 1, f"line {line} cannot be replayed (a ruling changed)"

    return check


def test_a_record_the_engine_refuses_midway_is_restored_up_to_the_refusal(
    tmp_path: Path,
) -> None:
    game_id, texts = record_game(tmp_path, lines=40)
    # The engine itself refuses an impossible line written behind its back ...
    with Store(tmp_path, clock=Clock()) as raw:
        raw.append({"type": "play", "player": 0, "card": "ZZ"})
        raw.append(json.loads(texts[1]))
    with open_store(tmp_path) as store:
        [recovery] = store.recoveries
        current = store.current()
    assert current is not None and current.lines == tuple(texts)
    assert (recovery.restored, recovery.total) == (40, 42)
    assert recovery.reason.startswith("line 41 cannot be replayed (")
    assert restore(current).state is not None  # what was kept replays
    # ... and a later release whose ruling differs refuses a line an earlier one wrote.
    with open_store(tmp_path, check=refuse_from(25)) as store:
        [recovery] = store.recoveries
        current = store.current()
    assert current is not None and current.lines == tuple(texts[:24])
    assert recovery.reason == "line 25 cannot be replayed (a ruling changed)"
    assert sorted(path.name for path in (tmp_path / "aside").iterdir()) == [
        f"{game_id}-2.log", f"{game_id}.log"]


@pytest.mark.parametrize(
    ("header", "why"),
    [
        ({**HEADER, "version": 99}, "line 1 cannot be replayed (record version 99"),
        ({**HEADER, "players": ["Ann"]}, "line 1 cannot be replayed ("),
    ],
)
def test_a_header_the_engine_refuses_sets_the_whole_game_aside(
    tmp_path: Path, header: dict[str, object], why: str
) -> None:
    with Store(tmp_path, clock=Clock()) as raw:
        raw.new_game(header)
        raw.append({"type": "deal", "dealer": 0})
        game_id = raw.current().id  # type: ignore[union-attr]
    data = (tmp_path / "current.log").read_bytes()
    with open_store(tmp_path) as store:
        assert store.current() is None
        [recovery] = store.recoveries
        assert recovery.restored == 0 and recovery.reason.startswith(why)
        assert recovery.screen() == (
            "Game not restored", f"Game {game_id} could not be read: {recovery.reason}.",
            f"Kept as aside/{game_id}.log.", "OK for a new game.")
        store.new_game(HEADER)
    assert (tmp_path / "aside" / f"{game_id}.log").read_bytes() == data


def test_damage_right_after_the_header_sets_the_whole_game_aside(tmp_path: Path) -> None:
    game_id, _ = record_game(tmp_path, lines=10)
    flip_bit(tmp_path / "current.log", 2)
    with open_store(tmp_path) as store:
        assert store.current() is None
        [recovery] = store.recoveries
    assert (recovery.restored, recovery.total, recovery.kept_as) == (
        0, 10, f"aside/{game_id}.log")


def test_a_torn_tail_after_damage_is_kept_in_the_copy_and_not_counted(tmp_path: Path) -> None:
    _, texts = record_game(tmp_path, lines=12)
    flip_bit(tmp_path / "current.log", 5)
    with open(tmp_path / "current.log", "ab") as stream:
        stream.write(b"0badc0de {\"seq\": 12")
    with open_store(tmp_path) as store:
        [recovery] = store.recoveries
        current = store.current()
    assert current is not None and current.lines == tuple(texts[:4])
    assert (recovery.restored, recovery.total) == (4, 13)


def test_a_recovery_cut_short_by_a_crash_does_not_copy_the_file_twice(tmp_path: Path) -> None:
    game_id, texts = record_game(tmp_path, lines=15)
    damaged = flip_bit(tmp_path / "current.log", 9)
    # What a crash after the copy into aside/ and before the rename leaves behind:
    (tmp_path / "aside" / f"{game_id}.log").write_bytes(damaged)
    (tmp_path / "current.log.new").write_bytes(b"half a new file")
    with open_store(tmp_path) as store:
        current = store.current()
    assert current is not None and current.lines == tuple(texts[:8])
    assert [path.name for path in (tmp_path / "aside").iterdir()] == [f"{game_id}.log"]
    assert not (tmp_path / "current.log.new").exists()


def test_files_set_aside_by_earlier_releases_move_into_aside(tmp_path: Path) -> None:
    (tmp_path / "current.log.unreadable-20261121T221503Z").write_bytes(b"old damage\n")
    (tmp_path / "current.log.unreadable-20261121T221503Z-3fa2").write_bytes(b"more\n")
    with open_store(tmp_path) as store:
        names = [game.name for game in store.set_aside()]
    assert sorted(names) == ["unreadable-20261121T221503Z", "unreadable-20261121T221503Z-3fa2"]
    assert not list(tmp_path.glob("current.log.unreadable-*"))


def test_a_copy_into_aside_cut_short_goes_and_the_whole_files_stay(tmp_path: Path) -> None:
    aside = tmp_path / "aside"
    aside.mkdir()
    for name in ("g1.log.partial", ".partial", "g2.log", "g3.partial.log", "partial"):
        (aside / name).write_bytes(b"x\n")
    (tmp_path / "kept.partial").write_bytes(b"x\n")  # only aside/ holds copies being made
    with open_store(tmp_path):
        pass
    assert sorted(path.name for path in aside.iterdir()) == ["g2.log", "g3.partial.log",
                                                             "partial"]
    assert (tmp_path / "kept.partial").exists()


# -- bringing a game back ---------------------------------------------------------------------


def test_a_game_an_older_engine_refused_is_restored_whole_by_one_that_reads_it(
    tmp_path: Path,
) -> None:
    game_id, texts = record_game(tmp_path, lines=30)
    with open_store(tmp_path, check=refuse_from(1)) as store:  # reads nothing of it
        assert store.current() is None
        [aside] = store.set_aside()
        assert (aside.name, aside.restorable, aside.total) == (game_id, 0, 30)
    with open_store(tmp_path) as store:  # a release that reads it again
        [aside] = store.set_aside()
        assert (aside.restorable, aside.problem) == (30, None)
        done = store.restore(game_id)
        assert done.recovery is None and done.moved is None
        current = store.current()
        store.append(texts[1])
    assert current is not None and current.lines == tuple(texts)
    assert current.recovered is None
    assert not (tmp_path / "aside" / f"{game_id}.log").exists()  # all of it is back


def test_restore_never_overwrites_a_game_in_progress(tmp_path: Path) -> None:
    game_id, texts = record_game(tmp_path, lines=12)
    flip_bit(tmp_path / "current.log", 12)
    (tmp_path / "current.log").write_bytes(
        (tmp_path / "current.log").read_bytes() + encode_line({"seq": 12, "at": 1.0,
                                                                "record": {"type": "undo"}}))
    with open_store(tmp_path) as store:  # restored to line 11; line 12 damaged
        current = store.current()
        assert current is not None and current.events == 10
        with pytest.raises(StoreError, match=r"a game is in progress \(.*--set-aside-current"):
            store.restore(game_id)
        assert store.current() == current
        done = store.restore(game_id, skip_damaged=True, set_aside_current=True)
        assert done.moved == tmp_path / "aside" / f"{game_id}-2.log"
        assert done.recovery is not None and "damaged lines 12 were left out" in (
            done.recovery.reason)
        restored = store.current()
    assert restored is not None
    assert restored.lines == (*texts[:11], '{"type": "undo"}')
    assert scan((tmp_path / "aside" / f"{game_id}-2.log").read_bytes()).damaged is None
    with open_store(tmp_path) as store:
        names = sorted(game.name for game in store.set_aside())
        assert store.current() is not None and store.current().lines == restored.lines  # type: ignore[union-attr]
    assert names == [game_id, f"{game_id}-2"]


def test_restore_refuses_what_cannot_be_brought_back_and_names_the_choice(
    tmp_path: Path,
) -> None:
    game_id, _ = record_game(tmp_path, lines=8)
    flip_bit(tmp_path / "current.log", 2)
    with open_store(tmp_path) as store:
        with pytest.raises(StoreError, match=r"nothing of .* line 2 is damaged .*--skip-damaged"):
            store.restore(game_id)
        with pytest.raises(StoreError, match="no set-aside game 'nothing'"):
            store.restore("nothing")
        with pytest.raises(StoreError, match="is not a set-aside game"):
            store.restore("../current")
        # Leaving the damaged deal out does not help: the engine refuses what follows it.
        with pytest.raises(StoreError, match=r"line 2 cannot be replayed \(who deals\?"):
            store.restore(game_id, skip_damaged=True)
        assert store.current() is None and len(store.set_aside()) == 1


def test_a_finished_game_brought_back_goes_to_the_history(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.new_game(HEADER)
        store.append({"type": "deal", "dealer": 0})
        finished = store.finish({"winner": 0})
    os.rename(finished.path, tmp_path / "aside" / "kept.log")
    with open_store(tmp_path) as store:
        done = store.restore("kept")
        assert isinstance(done.game, FinishedGame) and store.current() is None
        assert [game.result for game in store.history()] == [{"winner": 0}]
        assert store.set_aside() == []
