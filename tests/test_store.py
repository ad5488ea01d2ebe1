"""The durable store: restore exactly, cut torn tails, set aside damage, keep history, lock."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from pegboard.errors import PegboardError, StoreError
from pegboard.record import dump_line, result_json
from pegboard.rules.game import Game
from pegboard.store import Store, StoreReader, find_store_path
from pegboard.store import logfile as logfile_module
from pegboard.store.logfile import encode_line, scan
from tests.support.games import random_game
from tests.support.stores import Clock, fail_next_sync
from tests.support.waiting import line_from

HEADER: dict[str, Any] = {"type": "game", "players": ["Ann", "Ben"], "rules": {"target": 121}}
EVENTS: list[dict[str, Any]] = [
    {"type": "deal", "dealer": 0},
    {"type": "starter", "card": "JH"},
    {"type": "play", "player": 1, "card": "5C"},
    {"type": "peg", "player": 0, "points": 3},
]


def open_store(path: Path) -> Store:
    return Store(path, owner="pegboard test", clock=Clock())


def current_log(path: Path) -> Path:
    return path / "current.log"


@contextmanager
def begun(path: Path) -> Iterator[tuple[Store, bytes]]:
    """The store open with a game begun (its header saved), and its log's bytes then: what a
    refused entry must leave."""
    with open_store(path) as store:
        store.new_game(HEADER)
        yield store, current_log(path).read_bytes()


def test_a_game_is_restored_exactly_after_reopening(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        assert store.current() is None
        store.new_game(json.dumps(HEADER))
        for event in EVENTS:
            store.append(json.dumps(event))
        store.undo()
        before = store.current()
    assert before is not None
    with open_store(tmp_path) as store:
        after = store.current()
        assert store.notices == []
    assert after == before
    assert after.records == (HEADER, *EVENTS, {"type": "undo"})
    assert after.players == ["Ann", "Ben"]
    assert after.rules == {"target": 121}
    assert after.events == 5
    assert after.record.splitlines()[0] == (
        '{"type": "game", "players": ["Ann", "Ben"], "rules": {"target": 121}}'
    )
    # times come from the injected clock, one reading per line
    assert after.times == tuple(1_790_000_001.0 + i for i in range(6))


def test_append_returns_only_line_numbers_in_order_and_the_log_holds_them(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.new_game(HEADER)
        assert [store.append(event) for event in EVENTS] == [1, 2, 3, 4]
    entries = scan(current_log(tmp_path).read_bytes()).entries
    assert [entry["seq"] for entry in entries] == [0, 1, 2, 3, 4]
    assert [entry["record"] for entry in entries] == [HEADER, *EVENTS]


def test_finished_games_go_to_the_history_with_their_result(tmp_path: Path) -> None:
    result = {"scores": [121, 88], "winner": 0, "skunk": "skunk", "game_points": [3, 0]}
    with open_store(tmp_path) as store:
        store.new_game(HEADER)
        store.append(EVENTS[0])
        finished = store.finish(result)
        assert store.current() is None
        store.new_game({"type": "game", "players": ["Cy", "Di", "Ed"]})
    assert not finished.abandoned
    assert finished.path.parent == tmp_path / "history"
    assert finished.path.name == f"{finished.id}.log"
    with open_store(tmp_path) as store:
        history = store.history()
        current = store.current()
    assert [game.result for game in history] == [result]
    assert history[0].records == (HEADER, EVENTS[0])
    assert history[0].players == ["Ann", "Ben"]
    assert history[0].finished_at > history[0].started_at
    assert current is not None and current.players == ["Cy", "Di", "Ed"]


def test_a_new_game_keeps_the_unfinished_one_as_abandoned(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.new_game(HEADER)
        store.append(EVENTS[0])
        store.new_game(HEADER)
        assert any("kept in the history as abandoned" in n for n in store.notices)
        history = store.history()
    assert len(history) == 1 and history[0].abandoned
    assert history[0].records == (HEADER, EVENTS[0])


@pytest.mark.parametrize("keep", range(0, 60, 3))
def test_a_torn_last_line_is_cut_off_and_nothing_confirmed_is_lost(
    tmp_path: Path, keep: int
) -> None:
    with open_store(tmp_path) as store:
        store.new_game(HEADER)
        for event in EVENTS[:3]:
            store.append(event)
    confirmed = current_log(tmp_path).read_bytes()
    torn = encode_line({"seq": 4, "at": 1.0, "record": EVENTS[3]})
    assert keep < len(torn)
    current_log(tmp_path).write_bytes(confirmed + torn[:keep])
    with open_store(tmp_path) as store:
        game = store.current()
        assert game is not None and game.records == (HEADER, *EVENTS[:3])
        if keep:
            assert any("cut off an unfinished write" in n for n in store.notices)
        # the log continues cleanly after the cut
        store.append(EVENTS[3])
    assert current_log(tmp_path).read_bytes().startswith(confirmed)
    with open_store(tmp_path) as store:
        again = store.current()
    assert again is not None and again.records == (HEADER, *EVENTS)


def test_a_tail_of_zeros_after_a_power_cut_is_cut_off(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.new_game(HEADER)
        store.append(EVENTS[0])
    with open(current_log(tmp_path), "ab") as stream:
        stream.write(b"\0" * 4096)
    with open_store(tmp_path) as store:
        game = store.current()
    assert game is not None and game.records == (HEADER, EVENTS[0])


def test_damage_with_no_entry_before_it_sets_the_whole_file_aside_and_a_new_game_can_start(
    tmp_path: Path,
) -> None:
    with open_store(tmp_path) as store:
        store.new_game(HEADER)
        for event in EVENTS:
            store.append(event)
        game_id = store.current().id  # type: ignore[union-attr]
    data = bytearray(current_log(tmp_path).read_bytes())
    second_line = data.index(b"\n") + 1
    data[second_line + 20] ^= 0x01  # one flipped bit inside line 2
    current_log(tmp_path).write_bytes(bytes(data))
    with open_store(tmp_path) as store:
        assert store.current() is None
        [notice] = store.notices
        [recovery] = store.recoveries
        assert "line 2 is damaged or out of place" in notice
        assert (recovery.restored, recovery.total) == (0, 5)
        assert recovery.kept_as == f"aside/{game_id}.log"
        assert recovery.kept_as in notice and "a new game can start" in notice
        store.new_game(HEADER)
    aside = tmp_path / "aside" / f"{game_id}.log"
    assert aside.read_bytes() == bytes(data)  # kept byte for byte


@pytest.mark.parametrize(
    "content",
    [b"hello, this is not a pegboard store\n", b"\xff\xfe\x00garbage", b"{}\n", b"x" * 50],
)
def test_a_file_that_is_not_a_log_is_set_aside(tmp_path: Path, content: bytes) -> None:
    current_log(tmp_path).write_bytes(content)
    with open_store(tmp_path) as store:
        assert store.current() is None
        assert "could not be read" in store.notices[0]
        store.new_game(HEADER)
    [aside] = (tmp_path / "aside").glob("unreadable-*.log")
    assert aside.read_bytes() == content


def test_a_log_without_a_game_header_is_set_aside(tmp_path: Path) -> None:
    current_log(tmp_path).write_bytes(encode_line({"seq": 0, "at": 1.0, "record": EVENTS[0]}))
    with open_store(tmp_path) as store:
        assert store.current() is None
        assert "does not start with a game header" in store.notices[0]


def test_an_empty_current_file_means_no_game(tmp_path: Path) -> None:
    current_log(tmp_path).write_bytes(b"")
    with open_store(tmp_path) as store:
        assert store.current() is None
        assert store.notices == []
    assert not current_log(tmp_path).exists()


def test_a_finish_interrupted_before_the_move_is_completed(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.new_game(HEADER)
        store.append(EVENTS[0])
    with open(current_log(tmp_path), "ab") as stream:
        stream.write(encode_line({"seq": 2, "at": 5.0, "finish": {"winner": 1}}))
    assert [game.result for game in StoreReader(tmp_path).history()] == [{"winner": 1}]
    with open_store(tmp_path) as store:
        assert store.current() is None
        assert [game.result for game in store.history()] == [{"winner": 1}]
    assert not current_log(tmp_path).exists()


def test_a_second_writer_gets_a_clear_error_and_changes_nothing(tmp_path: Path) -> None:
    with begun(tmp_path) as (store, before):
        with pytest.raises(StoreError) as caught:
            Store(tmp_path, owner="pegboard game add")
        assert str(caught.value) == (
            f"the store at {tmp_path} is in use by process {os.getpid()} (pegboard test); "
            "stop it or use --store for another store"
        )
        assert current_log(tmp_path).read_bytes() == before
        store.append(EVENTS[0])
    # released on close
    with open_store(tmp_path) as store:
        game = store.current()
        assert game is not None and game.events == 1


def test_the_lock_of_another_process_names_it_and_dies_with_it(tmp_path: Path) -> None:
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from pegboard.store import Store; "
            "s = Store(sys.argv[1], owner='pegboard run'); print('ready', flush=True); "
            "sys.stdin.read()",
            str(tmp_path),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None
        assert line_from(holder.stdout, "the holder's ready", process=holder) == "ready\n"
        with pytest.raises(StoreError, match=f"in use by process {holder.pid} \\(pegboard run\\)"):
            open_store(tmp_path)
    finally:
        holder.kill()
        holder.wait()
    with open_store(tmp_path) as store:  # a killed holder leaves no stale lock
        assert store.current() is None


def test_a_reader_sees_the_game_while_a_writer_holds_the_lock_and_changes_nothing(
    tmp_path: Path,
) -> None:
    with open_store(tmp_path) as store:
        store.new_game(HEADER)
        store.append(EVENTS[0])
        with open(current_log(tmp_path), "ab") as stream:
            stream.write(b"0000")  # a write in progress
        data = current_log(tmp_path).read_bytes()
        reader = StoreReader(tmp_path)
        game = reader.current()
        assert game is not None and game.records == (HEADER, EVENTS[0])
        assert current_log(tmp_path).read_bytes() == data


def test_a_reader_of_a_missing_store_sees_nothing(tmp_path: Path) -> None:
    reader = StoreReader(tmp_path / "nowhere")
    assert reader.current() is None
    assert reader.history() == []
    assert not (tmp_path / "nowhere").exists()


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("not json", "not a JSON record line"),
        ("[1, 2]", 'must be a JSON object with a "type"'),
        ('{"player": 1}', 'must be a JSON object with a "type"'),
        ('{"type": 3}', 'must be a JSON object with a "type"'),
    ],
)
def test_bad_lines_are_refused_and_leave_the_store_unchanged(
    tmp_path: Path, line: str, message: str
) -> None:
    with begun(tmp_path) as (store, before):
        with pytest.raises(StoreError, match=message):
            store.append(line)
        assert current_log(tmp_path).read_bytes() == before
        game = store.current()
        assert game is not None and game.events == 0


def test_a_game_needs_a_header_and_events_need_a_game(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        with pytest.raises(StoreError, match="no game in progress"):
            store.append(EVENTS[0])
        with pytest.raises(StoreError, match='starts with its header line'):
            store.new_game(EVENTS[0])
        with pytest.raises(StoreError, match="no game in progress to finish"):
            store.finish({})
        assert store.current() is None


def test_a_failed_write_is_reported_and_leaves_no_partial_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with begun(tmp_path) as (store, before):
        real_write = os.write

        def half_then_full(fd: int, data: bytes | memoryview) -> int:
            real_write(fd, bytes(data)[: len(data) // 2])
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(os, "write", half_then_full)
        with pytest.raises(StoreError, match=r"cannot save to .*No space left on device"):
            store.append(EVENTS[0])
        monkeypatch.undo()
        assert current_log(tmp_path).read_bytes() == before
        game = store.current()
        assert game is not None and game.events == 0
        store.append(EVENTS[0])  # and the log carries on with the right line number
    with open_store(tmp_path) as store:
        game = store.current()
    assert game is not None and game.records == (HEADER, EVENTS[0])


def test_an_unreadable_history_file_is_reported_and_skipped(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.new_game(HEADER)
        store.finish({"winner": 0})
        store.new_game(HEADER)
        store.finish({"winner": 1})
    first = sorted((tmp_path / "history").glob("*.log"))[0]
    first.write_bytes(b"garbage\n" + first.read_bytes())
    reader = StoreReader(tmp_path)
    assert [game.result for game in reader.history()] == [{"winner": 1}]
    assert any(str(first) in notice for notice in reader.notices)


def test_set_aside_current_moves_the_game_out_of_the_way(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.new_game(HEADER)
        aside = store.set_aside_current("the engine cannot replay it")
        assert aside is not None and aside.exists()
        assert store.current() is None
        assert "the engine cannot replay it" in store.notices[-1]
        store.new_game(HEADER)


def test_a_store_path_that_cannot_be_a_directory_is_a_store_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError, match=f"cannot use {blocker / 'store'} as the game store"):
        Store(blocker / "store")
    with pytest.raises(StoreError, match="is not a directory"):
        StoreReader(blocker)
    assert issubclass(StoreError, PegboardError) and issubclass(StoreError, OSError)


def test_the_store_is_found_in_the_documented_order(tmp_path: Path) -> None:
    env = {
        "PEGBOARD_STORE": "/env",
        "STATE_DIRECTORY": "/var/lib/pegboard:/var/lib/other",
        "XDG_DATA_HOME": "/xdg",
        "HOME": "/home/ann",
    }
    assert find_store_path("/cli", configured="/cfg", environ=env) == Path("/cli")
    assert find_store_path(None, configured="/cfg", environ=env) == Path("/env")
    del env["PEGBOARD_STORE"]
    assert find_store_path(None, configured="/cfg", environ=env) == Path("/cfg")
    assert find_store_path(None, environ=env) == Path("/var/lib/pegboard")
    del env["STATE_DIRECTORY"]
    assert find_store_path(None, environ=env) == Path("/xdg/pegboard")
    env["XDG_DATA_HOME"] = "relative"
    assert find_store_path(None, environ=env) == Path("/home/ann/.local/share/pegboard")


def test_scan_tells_a_torn_tail_from_damage() -> None:
    lines = [encode_line({"seq": i, "at": 1.0, "record": {"type": "go"}}) for i in range(3)]
    clean = b"".join(lines)
    assert scan(clean).torn_bytes == 0 and len(scan(clean).entries) == 3
    torn = scan(clean + lines[0][:7])
    assert (len(torn.entries), torn.torn_bytes, torn.damaged) == (3, 7, None)
    gap = scan(lines[0] + lines[2])
    assert gap.damaged == "line 2 is damaged or out of place, and intact lines follow"
    after_finish = lines[0] + encode_line({"seq": 1, "at": 1.0, "finish": {}}) + encode_line(
        {"seq": 2, "at": 1.0, "record": {"type": "go"}}
    )
    assert scan(after_finish).damaged == "a line follows the finish line"
    both = encode_line({"seq": 0, "at": 1.0, "record": {"type": "go"}, "finish": {}})
    assert scan(both).entries == [] and scan(both).damaged is not None


def test_the_log_lines_shown_in_the_docs_are_real() -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "store.md").read_text()
    shown = [line for line in doc.splitlines() if len(line) > 9 and line[8] == " "
             and all(c in "0123456789abcdef" for c in line[:8])]
    assert len(shown) == 3
    for line in shown:
        entry = json.loads(line[9:])
        assert encode_line(entry) == (line + "\n").encode()


def test_a_failed_sync_takes_the_unconfirmed_line_back_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with begun(tmp_path) as (store, before):
        fail_next_sync(monkeypatch)
        with pytest.raises(StoreError, match="Input/output error"):
            store.append(EVENTS[0])  # written whole, but never confirmed on disk
        assert current_log(tmp_path).read_bytes() == before
        store.append(EVENTS[1])
    with open_store(tmp_path) as store:
        game = store.current()
        assert store.notices == []
    assert game is not None and game.records == (HEADER, EVENTS[1])


def test_when_even_the_cut_back_fails_the_stray_line_is_spoiled_and_dropped_on_the_next_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with open_store(tmp_path) as store:
        store.new_game(HEADER)
        store.append(EVENTS[0])
        confirmed = current_log(tmp_path).read_bytes()

        def sync_fails(fd: int) -> None:
            raise OSError(errno.EIO, "Input/output error")

        def refuse(fd: int, length: int) -> None:
            raise OSError(errno.EROFS, "Read-only file system")

        monkeypatch.setattr(logfile_module, "_sync", sync_fails)
        monkeypatch.setattr(os, "ftruncate", refuse)
        with pytest.raises(StoreError, match=r"Input/output error.*restart Pegboard"):
            store.append(EVENTS[1])  # written whole; neither synced nor cut back
        stray = current_log(tmp_path).read_bytes()[len(confirmed):]
        assert stray.startswith(b"x") and stray.endswith(b"\n")  # its checksum spoiled
        with pytest.raises(StoreError, match="restart Pegboard to recover the store"):
            store.append(EVENTS[1])  # nothing is written after the stray line
    monkeypatch.undo()
    with open_store(tmp_path) as store:  # the next start cuts the spoiled line off
        game = store.current()
        assert any("cut off an unfinished write" in n for n in store.notices)
        store.append(EVENTS[1])
    assert game is not None and game.records == (HEADER, EVENTS[0])
    with open_store(tmp_path) as store:
        again = store.current()
    assert again is not None and again.records == (HEADER, EVENTS[0], EVENTS[1])


def test_a_writer_whose_cut_back_failed_once_recovers_when_the_disk_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with open_store(tmp_path) as store:
        store.new_game(HEADER)
        real_write = os.write

        def half(fd: int, data: bytes | memoryview) -> int:
            real_write(fd, bytes(data)[:10])
            raise OSError(errno.ENOSPC, "No space left on device")

        def refuse(fd: int, length: int) -> None:
            raise OSError(errno.EIO, "Input/output error")

        monkeypatch.setattr(os, "write", half)
        monkeypatch.setattr(os, "ftruncate", refuse)
        with pytest.raises(StoreError, match="No space left"):
            store.append(EVENTS[0])
        monkeypatch.undo()
        store.append(EVENTS[0])  # the cut back is tried again first, and now works
    with open_store(tmp_path) as store:
        game = store.current()
        assert store.notices == []
    assert game is not None and game.records == (HEADER, EVENTS[0])


def test_the_engine_values_are_written_as_their_record_lines_with_one_encoding_each(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The device hands the store the engine's values (a header, entries, the state the game
    ended in): the store writes the record lines the writer makes of them, the same as the
    text of those lines, and makes each line's text once (the log line), never parsing it."""
    made = random_game(7)
    events = list(made.events)[:12]
    end = Game.from_header(made.header)
    for event in events:
        end, _ = end.after(event)
    with open_store(tmp_path / "text") as by_text:
        by_text.new_game(dump_line(made.header))
        for event in events:
            by_text.append(dump_line(event))
        by_text.finish(result_json(end.state))
    passes: list[str] = []
    for name in ("dumps", "loads"):
        real = getattr(json, name)

        def counted(*args: object, _real: object = real, _name: str = name,
                    **kwargs: object) -> object:
            passes.append(_name)
            return _real(*args, **kwargs)  # type: ignore[operator]

        monkeypatch.setattr(json, name, counted)
    with open_store(tmp_path / "typed") as typed:
        typed.new_game(made.header)
        passes.clear()
        for event in events:
            typed.append(event)
        assert passes == ["dumps"] * len(events)  # one encoding an entry, nothing parsed
        typed.finish(end.state)
    monkeypatch.undo()
    text, by_values = (StoreReader(tmp_path / name).history() for name in ("text", "typed"))
    assert [game.records for game in by_values] == [game.records for game in text]
    assert by_values[0].result == text[0].result == result_json(end.state)
    assert by_values[0].records[1:] == tuple(json.loads(dump_line(e)) for e in events)
