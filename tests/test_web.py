"""``pegboard web`` without a browser: the follower, the JSON against the engine and the app's
words, the event stream from a real uvicorn server, the headers, read-only routes, errors."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import httpx2
import pytest
from starlette.testclient import TestClient

from pegboard.cli import main
from pegboard.link.layout import HOLES, LedConfig, hole_position
from pegboard.web.app import CSP, create_app
from pegboard.web.board import board_for
from pegboard.web.follow import Follower
from tests.support.web import EXAMPLES, ScriptedGame, WebServer, random_record, record_game

LINES = (EXAMPLES / "two-player.jsonl").read_text(encoding="utf-8").splitlines()


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return tmp_path / "store"


# --- the follower ------------------------------------------------------------------------


def test_the_follower_reads_only_the_bytes_appended_since_its_last_look(
        store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = ScriptedGame(store, LINES)
    game.play_to(20)
    follower = Follower(store)
    assert follower.poll()
    reads: list[tuple[int, int]] = []
    real_pread = os.pread

    def pread(fd: int, length: int, offset: int) -> bytes:
        reads.append((offset, length))
        return real_pread(fd, length, offset)

    monkeypatch.setattr(os, "pread", pread)
    size = (store / "current.log").stat().st_size
    assert not follower.poll()  # nothing new: a stat, no read
    assert reads == []
    game.step()
    assert follower.poll()
    new_size = (store / "current.log").stat().st_size
    assert reads == [(size, new_size - size)]
    assert follower.game is not None and follower.game.state == game.state
    game.close()


def test_a_line_still_being_written_waits_until_it_is_whole(store: Path) -> None:
    game = ScriptedGame(store, LINES)
    game.play_to(10)
    game.close()
    path = store / "current.log"
    data = path.read_bytes()
    last = data.rstrip(b"\n").rfind(b"\n") + 1
    path.write_bytes(data[:last + 12])  # the last line cut short: a write in progress
    follower = Follower(store)
    follower.poll()
    assert follower.lines == 9 and follower.problem is None
    with path.open("ab") as out:
        out.write(data[last + 12:])
    assert follower.poll()
    assert follower.lines == 10


def test_a_new_game_replaces_the_old_one_and_a_finished_game_is_kept_in_view(
        store: Path) -> None:
    first = ScriptedGame(store, LINES)
    first.play_to(30)
    follower = Follower(store)
    follower.poll()
    first.play_to(len(LINES))
    first.finish()  # the last lines and the move into history, between two looks
    assert follower.poll()
    assert follower.lines == len(LINES)
    assert follower.finished_id == first.store.history()[-1].id
    assert follower.game is not None and follower.game.state.winner == 1
    first.close()
    second = ScriptedGame(store, random_record(5))
    second.play_to(3)
    assert follower.poll()
    assert follower.lines == 3 and follower.finished_id is None
    assert follower.game is not None and follower.game.state == second.state
    second.close()


def test_an_undo_takes_back_the_last_award(store: Path) -> None:
    game = ScriptedGame(store, LINES)
    follower = Follower(store)
    while not any(entry.awards for entry in follower.entries[-1:]):
        game.step()
        follower.poll()
    scored = follower.entries[-1]
    game.store.undo()
    follower.poll()
    assert scored not in follower.entries
    assert len(follower.entries) == scored.line - 2  # header and the undone line
    game.close()


def test_a_line_the_engine_refuses_stops_the_game_there(store: Path) -> None:
    game = ScriptedGame(store, LINES)
    game.play_to(5)
    game.store.append({"type": "play", "player": 0, "card": "KD"})  # the starter
    follower = Follower(store)
    follower.poll()
    assert follower.lines == 6
    assert follower.problem is not None and follower.problem.startswith("line 6 cannot be")
    assert follower.game is not None and len(follower.game.events) == 4
    game.close()


# --- the page and the board ---------------------------------------------------------------


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def test_the_page_has_no_inline_script_or_style_and_no_outside_address(store: Path) -> None:
    ScriptedGame(store, LINES).close()
    with TestClient(create_app(store)) as client:
        html = client.get("/").text
        tv = client.get("/?tv=1").text
        script = client.get("/static/web.js").text
        css = client.get("/static/web.css").text
    tags = _Tags()
    tags.feed(html)
    scripts = [attrs for tag, attrs in tags.tags if tag == "script"]
    assert scripts == [{"src": "/static/web.js", "defer": None}]
    assert not [tag for tag, attrs in tags.tags if tag == "style" or "style" in attrs
                or any(name.startswith("on") for name in attrs)]
    for text in (html, script, css):
        assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", text)
    assert '<html lang="en" class="tv">' in tv and '<html lang="en" class="">' in html
    assert 'aria-live="polite"' in html


def test_the_board_puts_each_hole_where_the_led_layout_table_does() -> None:
    svg = board_for(2, 121)
    cfg = LedConfig(tracks=2)
    centres = {(int(s), int(h)): (float(x), float(y)) for s, h, x, y in re.findall(
        r'id="h(\d)-(\d+)" cx="([\d.]+)" cy="([\d.]+)"', svg)}
    assert len(centres) == 2 * 122
    for side in range(2):
        placed = [(hole_position(cfg, side, hole), centres[side, hole])
                  for hole in range(1, HOLES + 1)]
        for (row_a, col_a), (x_a, y_a) in placed:
            for (row_b, col_b), (x_b, y_b) in placed:
                # the drawing keeps the layout table's rows and columns, in order
                assert (row_a < row_b) == (y_a < y_b) and (row_a == row_b) == (y_a == y_b)
                assert (col_a < col_b) == (x_a < x_b) and (col_a == col_b) == (x_a == x_b)
        assert centres[side, 2][0] > centres[side, 1][0]  # street 1 runs away from hole 1
        assert centres[side, 31][0] == centres[side, 30][0]  # street 2 comes back
    assert svg.count('class="skunk"') == 2
    assert board_for(3, 61).count('class="skunk"') == 1
    assert 'id="peg2-front"' in board_for(3, 121)


# --- safety -------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/api/game", "/api/games", "/static/web.js",
                                  "/board/2-121.svg", "/nothing-here"])
def test_every_answer_has_the_policy_and_no_cookie(store: Path, path: str) -> None:
    ScriptedGame(store, LINES).close()
    with TestClient(create_app(store)) as client:
        for method in ("GET", "HEAD"):
            answer = client.request(method, path)
            assert answer.headers["content-security-policy"] == CSP
            assert answer.headers["x-content-type-options"] == "nosniff"
            assert "set-cookie" not in answer.headers
        assert "'unsafe-inline'" not in CSP and "'unsafe-eval'" not in CSP


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH"])
@pytest.mark.parametrize("path", ["/", "/api/game", "/api/games", "/events", "/static/web.js"])
def test_nothing_but_get_and_head_is_accepted(store: Path, path: str, method: str) -> None:
    ScriptedGame(store, LINES[:8]).close()
    before = (store / "current.log").read_bytes()
    with TestClient(create_app(store)) as client:
        answer = client.request(method, path, content=b'{"type": "undo"}')
    assert answer.status_code == 405
    assert (store / "current.log").read_bytes() == before


def test_the_scoreboard_never_writes_to_the_store(store: Path) -> None:
    for seed in (1, 2):
        record_game(store, random_record(seed))
    (store / "index.sqlite3").unlink()  # the index too is left as it is found: missing
    game = ScriptedGame(store, LINES)
    game.play_to(30)

    def files() -> dict[str, tuple[bytes, int]]:
        return {str(p.relative_to(store)): (p.read_bytes(), p.stat().st_mtime_ns)
                for p in sorted(store.rglob("*")) if p.is_file()}

    before = files()
    with TestClient(create_app(store)) as client:
        for path in ("/", "/?tv=1", "/api/game", "/api/games", "/api/games?limit=1",
                     "/board/2-121.svg", "/static/web.js"):
            assert client.get(path).status_code == 200
        assert len(client.get("/api/games").json()["games"]) == 2
    assert files() == before
    game.close()


def test_a_store_that_disappears_is_a_friendly_message_not_a_traceback(store: Path) -> None:
    ScriptedGame(store, LINES[:8]).close()
    app = create_app(store)
    with TestClient(app) as client:
        shutil.rmtree(store)
        app.state.hub.refresh()
        answer = client.get("/api/game")
        page = client.get("/")
    assert answer.status_code == 503
    assert answer.json() == {"game": None, "error": (
        f"The game store {store} is not there. Start a game on the Pegboard, or check the "
        "store folder.")}
    assert page.status_code == 200 and "Traceback" not in page.text


def test_an_error_inside_is_a_short_message_never_a_traceback(
        store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record_game(store, random_record(1))

    def broken(self: object, limit: int) -> list[object]:
        raise RuntimeError("secret detail")

    monkeypatch.setattr("pegboard.store.index.GameIndex.newest", broken)
    with TestClient(create_app(store), raise_server_exceptions=False) as client:
        answer = client.get("/api/games")
    assert answer.status_code == 500
    assert answer.json() == {"error": "Something went wrong showing this page; the game itself "
                             "is not affected."}


def test_a_missing_store_is_exit_2_with_a_message(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "no-store"
    assert main(["web", "--store", str(missing), "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err == (f"pegboard web: no game store at {missing}: start a game on the Pegboard "
                   "first, or give the store folder with --store\n")


@pytest.mark.parametrize(("argv", "message"), [
    (["--host", "pi.local"], "argument --host: 'pi.local' is not an IP address: give one such "
     "as 127.0.0.1, 0.0.0.0 (every IPv4 address) or ::"),
    (["--port", "70000"], "argument --port: '70000' is not a port: give a number from 1 to "
     "65535 (0: any free port)"),
    (["--port", "\u00b2"], "argument --port: '\u00b2' is not a port: give a number from 1 "
     "to 65535 (0: any free port)"),
    (["--poll", "-1"], "argument --poll: '-1' is not a number of seconds from 0 to 5"),
])
def test_bad_arguments_are_exit_2_with_a_message(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str],
        message: str) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["web", "--store", str(tmp_path), *argv])
    assert stopped.value.code == 2
    assert capsys.readouterr().err == f"pegboard web: {message} (see pegboard web --help)\n"


def test_a_port_in_use_is_exit_2_naming_it(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["web", "--store", str(tmp_path), "--port", str(port)]) == 2
    assert capsys.readouterr().err == (f"pegboard web: cannot listen on 127.0.0.1 port {port}: "
                                       "Address already in use\n")


# --- the event stream from a real server ------------------------------------------------


def _events(lines: Any) -> Any:
    name = ""
    for line in lines:
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: ") and name:
            yield name, json.loads(line[6:])
            name = ""


def test_the_event_stream_sends_each_entry_as_it_is_written(store: Path) -> None:
    game = ScriptedGame(store, LINES)
    game.play_to(4)
    with WebServer(store) as server, httpx2.Client(timeout=60) as client, client.stream(
            "GET", server.url + "events") as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        assert stream.headers["content-security-policy"] == CSP
        events = _events(stream.iter_lines())
        seen = [next(events), next(events)]
        assert {name for name, _ in seen} == {"game", "games"}
        assert next(data for name, data in seen if name == "game")["game"]["lines"] == 4
        for _ in range(3):
            line = game.step()
            name, data = next(events)
            assert name == "game"
            assert data["game"]["lines"] == line
            assert data["game"]["scores"] == list(game.state.scores)
    game.close()


def test_the_server_stops_cleanly_on_sigterm_with_browsers_connected(store: Path) -> None:
    ScriptedGame(store, LINES[:3]).close()
    # The timeout only bounds a wait on a busy machine; the server is stopped whatever happens.
    with WebServer(store) as server, httpx2.Client(timeout=60) as client, client.stream(
            "GET", server.url + "events") as s:
        next(s.iter_lines())
        status, err = server.stop()
    # uvicorn shuts down gracefully, then dies of the signal it caught, as systemd expects
    assert status == -signal.SIGTERM, err
    assert err == ""


@pytest.mark.parametrize("argv", [["rules"], ["web", "--store", "/nonexistent/store"]])
def test_the_server_libraries_are_imported_only_to_serve(argv: list[str]) -> None:
    code = (
        "import sys, contextlib, io\n"
        "from pegboard.cli import main\n"
        "out, err = io.StringIO(), io.StringIO()\n"
        "with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):\n"
        f"    main({argv!r})\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('starlette', 'uvicorn')\n"
        "             or m.startswith('pegboard.web')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"
