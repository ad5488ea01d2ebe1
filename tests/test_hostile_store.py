"""Hostile store contents: lines whose checksum is right but whose content no reader may use
(nested 985 deep, a number of 1e400, a lone surrogate, a megabyte long), a crafted or
damaged index, bit rot in the history, a tail that never ends. Every reader survives every
one: the line is set aside with a message, the index is rebuilt, and nothing acknowledged
is lost."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest

from pegboard.cli import main
from pegboard.record import dump_line
from pegboard.store import Store, StoreReader, engine_check
from pegboard.store.index import INDEX_NAME, GameIndex
from pegboard.web.follow import Follower
from pegboard.web.games import Games
from tests.support.games import random_game
from tests.support.hostile import Board, get
from tests.support.stores import reads_from_now, rot_table
from tests.test_device_recovery import run_device

DEEP = "[" * 985 + "]" * 985


def crafted(text: str) -> bytes:
    """A log line carrying ``text`` with the right checksum (as no Pegboard writes it)."""
    data = text.encode("utf-8", "surrogatepass")
    return b"%08x %s\n" % (zlib.crc32(data), data)


HOSTILE = {
    "deep": '{"seq": %d, "at": 1.0, "record": {"type": "go", "player": 0, "x": ' + DEEP + "}}",
    "1e400 at": '{"seq": %d, "at": 1e400, "record": {"type": "undo"}}',
    "1e400 in the record": '{"seq": %d, "at": 1.0, "record": {"type": "undo", "x": 1e400}}',
    "lone surrogate": '{"seq": %d, "at": 1.0, "record": {"type": "undo", "x": "\\ud800"}}',
    "a megabyte": '{"seq": %d, "at": 1.0, "record": {"type": "undo", "x": "'
    + "y" * (1 << 21) + '"}}',
    "huge whole number": '{"seq": %d, "at": 1.0, "record": {"type": "undo", "x": '
    + "9" * 5000 + "}}",
}


def game_lines(lines: int = 12) -> list[str]:
    made = random_game(3)
    players = len(made.header.players)
    texts = [dump_line(made.header, players)]
    return texts + [dump_line(event, players) for event in made.events][: lines - 1]


def write_game(path: Path, texts: list[str]) -> str:
    with Store(path, check=engine_check) as store:
        store.new_game(texts[0])
        for text in texts[1:]:
            store.append(text)
        game_id = store.current().id  # type: ignore[union-attr]
    return game_id


def run(args: list[str]) -> tuple[int, str, str]:
    """``pegboard ARGS`` in a fresh interpreter (a crash is a traceback and status 1)."""
    done = subprocess.run([sys.executable, "-m", "pegboard", *args], capture_output=True,
                          text=True, check=False, env={**os.environ, "PYTHONPATH":
                                                       str(Path(__file__).parents[1])})
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_a_hostile_line_in_the_game_is_set_aside_by_every_command(
        tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    texts = game_lines()
    game_id = write_game(tmp_path, texts)
    with open(tmp_path / "current.log", "ab") as log:
        log.write(crafted(HOSTILE[kind] % len(texts)))
    for command in (["game", "status"], ["game", "status", "--json"], ["game", "list"],
                    ["game", "export"], ["stats"]):
        assert main([*command, "--store", str(tmp_path)]) == 0, command
        out, err = capsys.readouterr()
        assert f"line {len(texts) + 1} cannot be read" in out + err, command
    assert main(["game", "export", "--store", str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines() == texts
    with Store(tmp_path, check=engine_check) as store:  # what `pegboard run` opens
        [recovery] = store.recoveries
        assert store.current().lines == tuple(texts)  # type: ignore[union-attr]
    assert recovery.kept_as == f"aside/{game_id}.log"


def test_pegboard_run_starts_on_a_line_nested_985_deep(tmp_path: Path) -> None:
    texts = game_lines()
    game_id = write_game(tmp_path, texts)
    with open(tmp_path / "current.log", "ab") as log:
        log.write(crafted(HOSTILE["deep"] % len(texts)))
    code, logged = run_device(tmp_path)
    assert code == 0 and "Traceback" not in logged, logged
    assert (f"Game {game_id}: restored to line {len(texts)} of {len(texts) + 1}: line "
            f"{len(texts) + 1} cannot be read (arrays and objects nested") in logged
    code, out, err = run(["game", "status", "--store", str(tmp_path)])
    assert (code, "Traceback" in err) == (0, False), err
    assert f"restored to line {len(texts)} of {len(texts) + 1}" in out


@pytest.mark.parametrize("line", [3, 1])
def test_a_hostile_line_in_the_history_leaves_the_other_games_listed(
        tmp_path: Path, line: int, capsys: pytest.CaptureFixture[str]) -> None:
    """Nested 985 deep in a record line, or a start time of 1e400 in the header."""
    texts = game_lines()
    write_game(tmp_path, texts)
    with Store(tmp_path) as store:
        store.finish({"abandoned": True})
    [path] = (tmp_path / "history").iterdir()
    data = path.read_bytes().splitlines(keepends=True)
    if line == 1:
        entry = data[0][9:].decode().replace('"at": ', '"at": 1e400, "was": ', 1)
        data[0] = crafted(entry.rstrip("\n"))
    else:
        data.insert(line - 1, crafted(HOSTILE["deep"] % (line - 1)))
    bad = path.with_name("20260101T000000Z-bad.log")
    bad.write_bytes(b"".join(data))
    assert main(["game", "list", "--store", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert path.stem in out and bad.stem not in out
    assert f"{bad} cannot be read: line {line} cannot be read" in err
    assert main(["stats", "--store", str(tmp_path)]) == 0
    assert f"{bad} cannot be read" in capsys.readouterr().out


def follow(tmp_path: Path, texts: list[str]) -> tuple[Follower, Callable[[bytes], None]]:
    write_game(tmp_path, texts)
    follower = Follower(tmp_path)
    assert follower.poll() and follower.lines == len(texts)

    def append(data: bytes) -> None:
        with open(tmp_path / "current.log", "ab") as log:
            log.write(data)

    return follower, append


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_the_scoreboard_shows_a_hostile_line_as_a_problem_and_takes_the_next(
        tmp_path: Path, kind: str) -> None:
    texts = game_lines(30)
    follower, append = follow(tmp_path, texts[:12])
    append(crafted(HOSTILE[kind] % 12))
    follower.poll()
    assert follower.problem is not None and "line 13" in follower.problem
    entry = {"seq": 13, "at": 2.0, "record": json.loads(texts[12])}
    append(crafted(json.dumps(entry)))
    assert follower.poll()
    assert follower.lines == 13 and follower.problems == [follower.problem]
    assert follower.game is not None and len(follower.game.events) == 12


def test_the_scoreboard_keeps_going_past_a_line_the_engine_refuses(tmp_path: Path) -> None:
    texts = game_lines(30)
    follower, append = follow(tmp_path, texts[:12])
    append(crafted(json.dumps({"seq": 12, "at": 2.0,
                               "record": {"type": "game", "players": ["A", "B"]}})))
    append(crafted(json.dumps({"seq": 13, "at": 3.0, "record": json.loads(texts[12])})))
    assert follower.poll()
    assert follower.problems == [
        'line 13 cannot be replayed (a second "game" line; a match continues with '
        'new_game); it was set aside']
    assert follower.game is not None and len(follower.game.events) == 12


def test_an_unterminated_tail_is_read_once_however_often_it_grows(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    texts = game_lines()
    follower, append = follow(tmp_path, texts)
    read: list[int] = []
    real = os.pread

    def counting(fd: int, size: int, offset: int) -> bytes:
        data = real(fd, size, offset)
        read.append(len(data))
        return data

    monkeypatch.setattr(os, "pread", counting)
    grown = 0
    for _ in range(64):  # 16 MiB in steps of 256 KiB, polled after each
        append(b"x" * (1 << 18))
        grown += 1 << 18
        follower.poll()
    # Each byte read once (and a line's first 32 bytes checked again on each poll), not
    # the whole tail on every poll.
    assert grown <= sum(read) <= grown + 64 * 32
    assert follower.problem is not None and "longer than" in follower.problem
    append(b"\n" + crafted(json.dumps({"seq": 13, "at": 2.0, "record": {"type": "undo"}})))
    follower.poll()
    assert follower.lines == len(texts) + 1
    # A damaged last line may be a torn write: it waits for the writer to cut it.
    torn = crafted(json.dumps({"seq": 14, "at": 3.0, "record": {"type": "undo"}}))
    problems = list(follower.problems)
    append(b"0" + torn[1:])  # its checksum is wrong
    assert not follower.poll() and follower.problems == problems
    with open(tmp_path / "current.log", "r+b") as log:  # the writer takes it back
        log.truncate(os.path.getsize(tmp_path / "current.log") - len(torn))
    append(torn)  # and writes the next entry in its place, before the next poll
    assert follower.poll()
    assert follower.problems == problems and follower.lines == len(texts) + 2


def test_an_index_with_crafted_rows_is_rebuilt_with_one_message(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for seed in range(3):
        write_game(tmp_path, game_lines(20 + seed))
        with Store(tmp_path) as store:
            store.finish({"abandoned": True})
    GameIndex(tmp_path).close()
    with sqlite3.connect(tmp_path / INDEX_NAME) as db:
        db.execute("UPDATE games SET players = 'not json', started_at = NULL "
                   "WHERE rowid = 1")
        db.execute("UPDATE games SET events = 'many', summaries = '[{}]' WHERE rowid = 2")
        db.execute("UPDATE games SET result = '[1e999999]' WHERE rowid = 3")
        db.execute("INSERT INTO games (file, size, mtime_ns, id, started_at, finished_at, "
                   "players, rules, events, result) VALUES ('../../etc/passwd', 0, 0, 'x', "
                   "1, 2, '[]', '{}', 0, '{}')")
    assert main(["game", "list", "--store", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 3
    assert err.splitlines() == [f"pegboard game: the games index {tmp_path / INDEX_NAME} had "
                                "3 row(s) that do not match the history; they were rebuilt "
                                "from it"]
    for command in (["stats"], ["game", "list", "--json"]):
        assert main([*command, "--store", str(tmp_path)]) == 0
        out, err = capsys.readouterr()
        assert "rebuilt" not in out + err and "made again" not in out + err
    with GameIndex(tmp_path) as index:
        assert len(index) == 3 and not index.notices
        assert all(game.players == ["Ann", "Ben"] for game in index.games())


def rot_the_games_table(store: Path) -> None:
    """Bit rot in the index's table of games: its first page overwritten with random bytes."""
    rot_table(store / INDEX_NAME, "games")


def test_a_damaged_index_file_is_rebuilt_while_a_writer_holds_the_store(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_game(tmp_path, game_lines())
    with Store(tmp_path) as store:
        store.finish({"abandoned": True})
    GameIndex(tmp_path).close()
    rot_the_games_table(tmp_path)
    with Store(tmp_path):  # the device keeps running
        assert main(["game", "list", "--store", str(tmp_path)]) == 0
        out, err = capsys.readouterr()
        assert "abandoned" in out
        assert err.count("rebuilt") == 1
        assert main(["stats", "--store", str(tmp_path)]) == 0
        assert "rebuilt" not in capsys.readouterr().err


def test_bit_rot_in_a_history_file_gets_a_final_answer_from_export(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game_id = write_game(tmp_path, game_lines())
    with Store(tmp_path) as store:
        store.finish({"abandoned": True})
    GameIndex(tmp_path).close()
    path = tmp_path / "history" / f"{game_id}.log"
    stat = path.stat()
    data = bytearray(path.read_bytes())
    data[200] ^= 0x04  # one bit, size and time unchanged
    path.write_bytes(bytes(data))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    for _ in range(2):
        assert main(["game", "export", "--id", game_id, "--store", str(tmp_path)]) == 2
        err = capsys.readouterr().err
        assert "again" not in err
        assert f"{path.name} cannot be read: line" in err
    reader = StoreReader(tmp_path)
    assert reader.history() == [] and reader.notices


def test_the_scoreboard_reads_a_history_without_its_index_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for lines in (14, 16, 18):
        write_game(tmp_path, game_lines(lines))
        with Store(tmp_path) as store:
            store.finish({"abandoned": True})
    (tmp_path / INDEX_NAME).unlink()  # lost, and the scoreboard may not write one
    newest = [game.id for game in StoreReader(tmp_path).history()][:0:-1]
    read = reads_from_now(monkeypatch)
    games = Games(tmp_path)
    assert [game["id"] for game in games.newest(2)] == newest
    assert len(read) == 3
    write_game(tmp_path, game_lines(20))
    with Store(tmp_path) as store:
        store.finish({"abandoned": True})
    (tmp_path / INDEX_NAME).unlink()
    assert len(games.newest(2)) == 2 and len(read) == 4  # only the new game's file
    assert not (tmp_path / INDEX_NAME).exists()


def test_the_scoreboard_lists_the_games_of_a_damaged_index_with_one_notice(
        tmp_path: Path) -> None:
    """The LAN page over a store whose index has bit rot in its games table: ``/api/games``
    answers 200 with every finished game, again and again, and so does each game's review
    page; the log says once that the index was read again from the history; no 500, no
    traceback."""
    for seed in range(3):
        write_game(tmp_path, game_lines(14 + 2 * seed))
        with Store(tmp_path) as store:
            store.finish({"abandoned": True})
    GameIndex(tmp_path).close()
    truth = sorted(game.id for game in StoreReader(tmp_path).history())
    rot_the_games_table(tmp_path)
    board = Board(tmp_path, tmp_path / "web.log")
    try:
        for _ in range(3):
            status, answer = get(board.port, "/api/games?limit=10")
            assert status == 200, answer[:400]
            body = json.loads(answer.partition(b"\r\n\r\n")[2])
            assert sorted(game["id"] for game in body["games"]) == truth
        for game_id in truth * 2:  # the review page reads the same index
            status, answer = get(board.port, f"/review/{game_id}")
            assert status == 200, answer[:400]
    finally:
        _, log = board.stop()
    assert "Traceback" not in log, log
    said = [line for line in log.splitlines() if "index" in line]
    assert len(said) == 1 and "games index" in said[0], log
