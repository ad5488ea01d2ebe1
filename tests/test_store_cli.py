"""``pegboard game``: new, add, undo, status, export, list on a real store."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pegboard.cli import main
from pegboard.commands.game import GameSession
from pegboard.record import dump_line
from pegboard.store import Store, StoreReader
from tests.support.games import random_game
from tests.support.waiting import line_from

HEADER = '{"type": "game", "players": ["Ann", "Ben"], "rules": {"target": 121}}'
DEAL = [
    '{"type": "deal", "dealer": 0}',
    '{"type": "starter", "card": "JH"}',  # his heels: 2 for Ann, the dealer
    '{"type": "play", "player": 1, "card": "5C"}',
    '{"type": "play", "player": 0, "card": "TD"}',  # fifteen: 2 for Ann
]


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "store"
    monkeypatch.setenv("PEGBOARD_STORE", str(path))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    return path


def game(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["game", *args])
    out, err = capsys.readouterr()
    return code, out, err


def status(capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    code, out, _ = game(capsys, "status", "--json")
    assert code == 0
    data: dict[str, object] = json.loads(out)
    return data


def test_a_game_recorded_from_the_shell(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = game(capsys, "new", HEADER)
    assert code == 0 and out.startswith("New game ") and out.endswith(": Ann v Ben\n")
    for line in DEAL:
        assert game(capsys, "add", line)[0] == 0
    now = status(capsys)
    assert now["scores"] == [4, 0]
    assert now["events"] == 4
    assert now["winner"] is None
    assert now["to_act"] == 1
    assert now["players"] == ["Ann", "Ben"]
    code, out, _ = game(capsys, "status")
    assert out.splitlines()[0] == "Ann 4  Ben 0"
    assert "Ben to act (play)" in out


def test_add_prints_what_it_pegged(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game(capsys, "new", HEADER)
    game(capsys, "add", DEAL[0])
    code, out, _ = game(capsys, "add", DEAL[1])
    assert code == 0 and "heels" in out


def test_an_illegal_event_exits_2_with_the_engine_message_and_changes_nothing(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game(capsys, "new", HEADER)
    for line in DEAL[:2]:
        game(capsys, "add", line)
    before = (store / "current.log").read_bytes()
    code, _, err = game(capsys, "add", '{"type": "play", "player": 0, "card": "5C"}')
    assert code == 2
    assert err.startswith("pegboard game: ") and "Ben" in err  # it is pone's turn
    assert (store / "current.log").read_bytes() == before
    for bad in ["{not json", '{"type": "fly"}', '{"type": "play", "player": 1, "card": "ZZ"}']:
        code, _, err = game(capsys, "add", bad)
        assert code == 2 and err.startswith("pegboard game: line 4"), err
    assert (store / "current.log").read_bytes() == before


def test_add_and_new_read_stdin(
    store: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def stdin(data: bytes) -> None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))

    stdin((HEADER + "\n").encode())
    assert game(capsys, "new")[0] == 0
    stdin(("\n" + DEAL[0] + "\n\n").encode())
    assert game(capsys, "add", "-")[0] == 0
    stdin((DEAL[1] + "\n" + DEAL[2] + "\n").encode())
    code, _, err = game(capsys, "add")
    assert code == 2 and "expected exactly one event line on stdin, got 2" in err
    stdin('{"type": "peg", "player": 0, "points": 2, "note": "Ren\u00e9"}\n'.encode("latin-1"))
    code, _, err = game(capsys, "add", "-")
    assert code == 2 and "standard input: line 1, byte" in err and "not UTF-8" in err, err
    assert status(capsys)["events"] == 1


def test_undo_is_recorded_and_export_replays(
    store: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game(capsys, "new", HEADER)
    for line in DEAL:
        game(capsys, "add", line)
    assert game(capsys, "undo")[0] == 0
    assert status(capsys)["scores"] == [2, 0]
    assert status(capsys)["events"] == 3
    code, record, _ = game(capsys, "export")
    assert code == 0
    assert record.splitlines() == [HEADER, *DEAL, '{"type": "undo"}']
    exported = tmp_path / "game.jsonl"
    exported.write_text(record)
    assert main(["replay", "--json", str(exported)]) == 0
    result = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert result["scores"] == [2, 0]


def test_undo_with_nothing_left_is_refused(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game(capsys, "new", HEADER)
    code, _, err = game(capsys, "undo")
    assert code == 2 and "nothing to undo" in err
    assert status(capsys)["events"] == 0
    assert StoreReader(store).current() is not None
    assert StoreReader(store).current().events == 0  # type: ignore[union-attr]


def test_new_keeps_the_previous_game_and_list_shows_both(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game(capsys, "new", HEADER)
    game(capsys, "add", DEAL[0])
    code, _, err = game(capsys, "new", '{"type": "game", "players": ["Cy", "Di", "Ed"]}')
    assert code == 0 and "kept in the history as abandoned" in err
    code, out, _ = game(capsys, "list")
    lines = out.splitlines()
    assert len(lines) == 2
    assert "Ann v Ben" in lines[0] and lines[0].endswith("abandoned")
    assert "Cy v Di v Ed" in lines[1] and "in progress" in lines[1]
    code, out, _ = game(capsys, "list", "--json")
    rows = json.loads(out)
    assert [row["players"] for row in rows] == [["Ann", "Ben"], ["Cy", "Di", "Ed"]]
    assert rows[0]["result"]["abandoned"] is True and rows[0]["events"] == 1
    code, out, _ = game(capsys, "export", "--id", rows[0]["id"])
    assert out.splitlines() == [HEADER, DEAL[0]]
    code, _, err = game(capsys, "export", "--id", "nope")
    assert code == 2 and "no game 'nope'" in err


def test_a_bad_header_is_refused(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = game(capsys, "new", '{"type": "game", "players": ["Ann"]}')
    assert code == 2 and err.startswith("pegboard game: ")
    code, _, err = game(capsys, "new", DEAL[0])
    assert code == 2 and "starts with its header" in err
    assert not (store / "current.log").exists()


def test_nothing_in_progress(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert game(capsys, "status")[1] == "No game in progress.\n"
    assert status(capsys) == {"id": None, "scores": [], "events": 0, "winner": None,
                              "to_act": None, "recovery": None, "set_aside": []}
    code, _, err = game(capsys, "add", DEAL[0])
    assert code == 2 and "no game in progress" in err
    code, _, err = game(capsys, "export")
    assert code == 2 and "no game in progress" in err
    assert game(capsys, "list")[1] == "No games yet.\n"


def test_the_store_option_wins_over_the_environment(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other"
    assert game(capsys, "new", "--store", str(other), HEADER)[0] == 0
    assert (other / "current.log").exists() and not store.exists()


def test_a_second_writer_is_told_who_holds_the_store(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game(capsys, "new", HEADER)
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys; from pegboard.store import Store; "
         "s = Store(sys.argv[1], owner='pegboard run'); print('ready', flush=True); "
         "sys.stdin.read()", str(store)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout is not None
        assert line_from(holder.stdout, "the holder's ready", process=holder) == "ready\n"
        done = subprocess.run(
            [sys.executable, "-m", "pegboard", "game", "add", DEAL[0]],
            capture_output=True, text=True, env={**os.environ, "PEGBOARD_STORE": str(store)},
            check=False,
        )
        assert done.returncode == 2
        assert done.stderr == (
            f"pegboard game: the store at {store} is in use by process {holder.pid} "
            "(pegboard run); stop it or use --store for another store\n"
        )
        # Reading still works while the device holds the store.
        assert status(capsys)["events"] == 0
    finally:
        holder.kill()
        holder.wait()
    assert game(capsys, "add", DEAL[0])[0] == 0


def test_a_stored_game_the_engine_cannot_replay_is_reported_and_set_aside_by_the_next_writer(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Store(store) as raw:
        raw.new_game(json.loads(HEADER))
        raw.append({"type": "play", "player": 0, "card": "5C"})  # no deal yet: illegal
        game_id = raw.current().id  # type: ignore[union-attr]
    code, out, _ = game(capsys, "status")
    assert code == 0
    assert out.startswith("No game in progress.\n")
    assert f"Game {game_id} cannot be read (line 2 cannot be replayed" in out
    assert "keeps the file aside and a new game can start" in out
    code, _, err = game(capsys, "new", HEADER)
    assert code == 0
    assert f"Game {game_id} could not be read (line 2 cannot be replayed" in err
    assert f"kept as aside/{game_id}.log" in err
    assert StoreReader(store).history() == []  # not a finished game: kept aside, whole
    assert (store / "aside" / f"{game_id}.log").exists()


def test_a_game_played_out_goes_to_the_history_with_the_engine_result(tmp_path: Path) -> None:
    made = random_game(11, players=3)
    players = len(made.header.players)
    with Store(tmp_path / "store") as raw:
        session = GameSession(raw)
        session.new(dump_line(made.header, players))
        for event in made.events:
            session.add(dump_line(event, players))
        assert session.status() is not None
        assert session.status()["winner"] == made.winner  # type: ignore[index]
        session.new(HEADER)
        [kept] = raw.history()
    assert kept.result["type"] == "result"
    assert kept.result["abandoned"] is False
    assert kept.result["winner"] == made.winner
    assert kept.result["scores"] == made.scores
    assert kept.result["skunk"] in ("none", "skunk", "double")
    assert kept.events == len(made.events)


PEGS = [2, 5, 3, 7, 4, 6, 1, 8]


def peg_game(capsys: pytest.CaptureFixture[str]) -> str:
    """A quick-mode game pegged by hand: eight independent lines (any one can be left out)."""
    code, out, _ = game(capsys, "new", HEADER)
    assert code == 0
    for points in PEGS:
        assert game(capsys, "add", json.dumps({"type": "peg", "player": 0,
                                               "points": points}))[0] == 0
    return out.split()[2].rstrip(":")


def test_repair_lists_a_damaged_game_and_restore_brings_it_back(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id = peg_game(capsys)
    data = bytearray((store / "current.log").read_bytes())
    fifth = 0
    for _ in range(4):
        fifth = data.index(b"\n", fifth) + 1
    data[fifth + 30] ^= 0x04  # line 5 (the fourth peg, 7 points) fails its checksum
    (store / "current.log").write_bytes(bytes(data))
    assert game(capsys, "repair")[1] == "No games set aside.\n"
    # The next writer restores lines 1-4 and keeps the whole file aside.
    code, _, err = game(capsys, "add", json.dumps({"type": "peg", "player": 1, "points": 1}))
    assert code == 0
    assert f"Game {game_id}: restored to line 4 of 9: line 5 is damaged" in err
    assert status(capsys)["scores"] == [2 + 5 + 3, 1]
    code, out, _ = game(capsys, "repair")
    lines = out.splitlines()
    assert lines[0].startswith(f"{game_id}  ") and "Ann v Ben" in lines[0]
    assert lines[1:4] == [
        "  9 lines; line 5 is damaged or out of place",
        f"  `pegboard game restore {game_id}` brings back lines 1-4",
        "  with --skip-damaged: 8 lines, leaving out line 5",
    ]
    assert lines[4].startswith("  line 5: '")
    [listed] = json.loads(game(capsys, "repair", "--json")[1])
    assert (listed["name"], listed["lines"], listed["restorable"],
            listed["skipping_damaged"]) == (game_id, 9, 4, 8)
    # A game in progress is never overwritten ...
    code, _, err = game(capsys, "restore", game_id, "--skip-damaged")
    assert code == 2 and "a game is in progress" in err and "--set-aside-current" in err
    # ... unless it is set aside first, and the message says where it went.
    code, out, err = game(capsys, "restore", game_id, "--skip-damaged", "--set-aside-current")
    assert code == 0
    assert out == (f"Restored {game_id} (Ann v Ben) to line 8 of 9: damaged lines 5 were left "
                   f"out. The whole file stays in aside/{game_id}.log.\n")
    assert f"kept as aside/{game_id}-2.log" in err
    assert status(capsys)["scores"] == [sum(PEGS) - 7, 0]
    assert [row["name"] for row in json.loads(game(capsys, "repair", "--json")[1])] == [
        f"{game_id}-2", game_id]


def test_status_with_nothing_in_progress_names_the_games_set_aside(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id = peg_game(capsys)
    data = bytearray((store / "current.log").read_bytes())
    data[data.index(b"\n") + 30] ^= 0x04  # line 2: nothing before it to restore
    (store / "current.log").write_bytes(bytes(data))
    assert game(capsys, "list")[0] == 0  # readers move nothing
    assert game(capsys, "new", HEADER)[0] == 0
    with Store(store) as raw:
        raw.finish({"abandoned": True})
    out = game(capsys, "status")[1]
    assert out.splitlines() == [
        "No game in progress.",
        f"Game {game_id} could not be read (line 2 is damaged or out of place); it is kept as "
        f"aside/{game_id}.log (`pegboard game repair` shows it); a new game can start",
    ]
    assert status(capsys)["set_aside"] == [game_id]
