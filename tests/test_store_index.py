"""The index of finished games: always what the history files say, however it was left."""

from __future__ import annotations

import io
import json
import os
import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from pegboard.cli import main
from pegboard.record import write
from pegboard.stats import compute
from pegboard.store import Store, StoreReader
from pegboard.store import index_rows as index_module
from pegboard.store.index import INDEX_NAME, LAYOUT, GameIndex
from pegboard.store.logfile import encode_line, scan
from tests.support.games import random_game
from tests.support.stores import reads_from_now


def _record_lines(seed: int, players: int = 2) -> list[str]:
    game = random_game(seed, players, mode="cards")
    text = io.StringIO()
    write(text, game.header, game.events)
    return text.getvalue().splitlines()


def _fill(path: Path, seeds: range, *, abandon: int | None = None) -> None:
    clock = iter(range(1_800_000_000, 1_900_000_000, 1000))
    with Store(path, owner="test", clock=lambda: float(next(clock))) as store:
        for seed in seeds:
            lines = _record_lines(seed, 2 + seed % 2)
            store.new_game(lines[0])
            for line in lines[1:] if seed != abandon else lines[1:20]:
                store.append(line)
            if seed != abandon:
                store.finish({"scores": [seed, 0], "winner": 0})
        if abandon is not None and store.current() is not None:
            store.finish({"abandoned": True})


def _listed(path: Path, **kwargs: bool) -> list[tuple[str, float, dict[str, object], int]]:
    with GameIndex(path, **kwargs) as index:
        return [(g.id, g.started_at, g.result, g.events) for g in index.games()]


def _truth(path: Path) -> list[tuple[str, float, dict[str, object], int]]:
    return [(g.id, g.started_at, g.result, g.events) for g in StoreReader(path).history()]


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Six games (one abandoned) played into a store once for the module."""
    path = tmp_path_factory.mktemp("filled") / "store"
    _fill(path, range(6), abandon=3)
    return path


@pytest.fixture
def store(filled: Path, tmp_path: Path) -> Path:
    """A copy of the six-game store of its own (files, times and index as written)."""
    path = tmp_path / "store"
    shutil.copytree(filled, path)
    return path


def test_finishing_a_game_indexes_it_with_its_summaries(store: Path) -> None:
    with GameIndex(store) as index:
        assert index.caught_up == 0  # every game was indexed as it was finished
        games = list(index.games())
    assert [(g.id, g.started_at, g.result, g.events) for g in games] == _truth(store)
    assert len(games) == 6 and [g.abandoned for g in games].count(True) == 1
    assert all(g.summaries is not None for g in games)


def test_a_missing_index_is_rebuilt_from_the_history(store: Path) -> None:
    (store / INDEX_NAME).unlink()
    with GameIndex(store) as index:
        assert index.caught_up == 6
    assert _listed(store) == _truth(store)
    with GameIndex(store) as again:
        assert again.caught_up == 0  # kept


def test_a_game_moved_into_history_without_its_row_is_caught_up(store: Path) -> None:
    # A power cut between the move into history and the index update.
    history = store / "history"
    first = sorted(history.iterdir())[0]
    shutil.copy(first, history / "20991231T000000Z-aaaaaa.log")
    (history / sorted(os.listdir(history))[1]).unlink()
    with GameIndex(store) as index:
        assert index.caught_up == 1
    assert _listed(store) == _truth(store)
    assert len(_truth(store)) == 6


def test_a_damaged_index_is_rebuilt_with_a_notice(store: Path) -> None:
    (store / INDEX_NAME).write_bytes(b"this is not a database" * 100)
    with GameIndex(store) as index:
        assert any("damaged" in notice for notice in index.notices)
        assert index.caught_up == 6
    assert _listed(store) == _truth(store)


def test_an_index_of_another_layout_is_rebuilt(store: Path) -> None:
    with sqlite3.connect(store / INDEX_NAME) as db:
        db.execute("UPDATE meta SET value = 'old' WHERE key = 'layout'")
        db.execute("UPDATE games SET result = '{\"scores\": [9, 9]}'")
    with GameIndex(store) as index:
        assert index.caught_up == 6
    assert _listed(store) == _truth(store)
    with sqlite3.connect(store / INDEX_NAME) as db:
        assert db.execute("SELECT value FROM meta").fetchone() == (LAYOUT,)


def test_a_read_only_reader_catches_up_in_memory_and_changes_nothing(store: Path) -> None:
    history = store / "history"
    newest = sorted(history.iterdir())[-1]
    shutil.copy(newest, history / "20991231T000000Z-bbbbbb.log")
    sorted(history.iterdir())[0].unlink()
    before = (store / INDEX_NAME).read_bytes()
    assert _listed(store, writable=False) == _truth(store)
    assert (store / INDEX_NAME).read_bytes() == before
    (store / INDEX_NAME).unlink()
    assert _listed(store, writable=False) == _truth(store)
    assert not (store / INDEX_NAME).exists()


def test_a_file_that_is_not_a_game_is_reported_and_not_listed(store: Path) -> None:
    history = store / "history"
    (history / "20991231T000000Z-cccccc.log").write_bytes(b"garbage\n")
    with GameIndex(store) as index:
        assert len(index) == 6
        assert any("cccccc" in notice and "not counted" in notice for notice in index.notices)


def test_stats_from_the_index_equal_stats_replayed_from_every_record(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = [(f"store game {g.id}", g.record) for g in StoreReader(store).history()
               if not g.abandoned]
    expected = compute(records).to_json()
    assert main(["stats", "--store", str(store), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["players"] == expected["players"]
    assert got["first_dealer"] == expected["first_dealer"]
    assert got["games"] == expected["games"]
    assert [n for n in got["notes"] if "abandoned" in n] == [
        f"1 abandoned store game not counted ({StoreReader(store).history()[3].id})"]
    # The text form shows every race line, in order.
    assert main(["stats", "--store", str(store)]) == 0
    text = capsys.readouterr().out
    assert [line.split(":")[0] for line in text.splitlines() if line.startswith("  game ")] == [
        f"  game {n}" for n in range(1, 6)]


def test_a_rebuilt_index_takes_the_summaries_the_finish_lines_keep(
    store: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["stats", "--store", str(store), "--json"]) == 0
    before = json.loads(capsys.readouterr().out)
    (store / INDEX_NAME).unlink()
    replayed: list[object] = []
    monkeypatch.setattr(index_module, "replay_record", replayed.append)
    assert main(["stats", "--store", str(store), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == before
    assert replayed == []


def _without_kept_summaries(store: Path) -> None:
    """The history as a release that kept no summaries on the finish line left it."""
    for path in (store / "history").iterdir():
        entries = scan(path.read_bytes()).entries
        del entries[-1]["summaries"]
        path.write_bytes(b"".join(encode_line(entry) for entry in entries))


def test_summaries_missing_from_a_rebuilt_index_are_made_once_and_kept(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _without_kept_summaries(store)
    (store / INDEX_NAME).unlink()
    GameIndex(store).close()  # a listing rebuilds without replaying
    with sqlite3.connect(store / INDEX_NAME) as db:
        assert db.execute("SELECT count(*) FROM games WHERE summaries IS NULL").fetchone() == (6,)
    assert main(["stats", "--store", str(store), "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    with sqlite3.connect(store / INDEX_NAME) as db:  # all but the abandoned game's
        assert db.execute("SELECT count(*) FROM games WHERE summaries IS NULL").fetchone() == (1,)
    assert main(["stats", "--store", str(store), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == first


def test_summaries_an_older_layout_kept_are_made_again_from_the_records(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A release that counted differently kept its own summaries on the finish lines and in
    the index: statistics never take them (here made wrong on purpose) but replay the records."""
    assert main(["stats", "--store", str(store), "--json"]) == 0
    truth = json.loads(capsys.readouterr().out)
    for path in (store / "history").iterdir():
        entries = scan(path.read_bytes()).entries
        note = entries[-1].get("summaries")
        if note is not None:
            for game in note["games"]:
                game["tallies"][0]["hand_points"] += 1000
            note["layout"] = "2"
        path.write_bytes(b"".join(encode_line(entry) for entry in entries))
    with sqlite3.connect(store / INDEX_NAME) as db:
        db.execute("UPDATE meta SET value = '2' WHERE key = 'layout'")
    assert main(["stats", "--store", str(store), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == truth
    with sqlite3.connect(store / INDEX_NAME) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'layout'").fetchone() == (LAYOUT,)
        assert LAYOUT != "2"


def test_export_by_id_reads_only_that_games_file(
    store: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    wanted = StoreReader(store).history()[2]
    GameIndex(store).close()
    read = reads_from_now(monkeypatch)
    assert main(["game", "export", "--store", str(store), "--id", wanted.id]) == 0
    assert capsys.readouterr().out == wanted.record
    assert read == [wanted.path.name]


def test_list_streams_the_same_games_as_the_history(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["game", "list", "--store", str(store), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["id"], r["result"]) for r in rows] == [
        (g.id, g.result) for g in StoreReader(store).history()]


def test_stats_reads_each_games_summaries_once_without_the_record_line_reader(
    store: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``pegboard stats`` folds each game's kept summaries once (text or JSON, the races
    shown included), and the index's own JSON never goes through the bounded reader meant
    for record lines from anywhere."""
    import pegboard.record.bounded as bounded

    read: list[str] = []
    summaries = GameIndex.summaries

    def counted(self: GameIndex, game: object, first_number: int) -> object:
        read.append(game.id)  # type: ignore[attr-defined]
        return summaries(self, game, first_number)  # type: ignore[arg-type]

    def refused(*args: object, **kwargs: object) -> object:
        raise AssertionError("the index's JSON went through the record lines' reader")

    GameIndex(store).close()  # caught up first: its rows are the index's own
    monkeypatch.setattr(GameIndex, "summaries", counted)
    monkeypatch.setattr(bounded, "load_json", refused)
    for extra in ([], ["--json"]):
        read.clear()
        assert main(["stats", "--store", str(store), *extra]) == 0
        out = capsys.readouterr().out
        assert len(read) == len(set(read)) == 5, extra  # six games, one abandoned
        assert out.count("game 5") == 1 if not extra else '"game": 5' in out


def test_kept_summaries_are_checked_and_read_with_the_race_at_the_target(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A summary kept before the race stopped at the target reads with the winner at it; a
    best hand whose card is not one the index writes is a row made again, with a notice."""
    assert main(["stats", "--store", str(store), "--json"]) == 0
    before = json.loads(capsys.readouterr().out)
    with sqlite3.connect(store / INDEX_NAME) as db:
        rows = db.execute("SELECT file, summaries FROM games WHERE summaries IS NOT NULL "
                          "ORDER BY started_at").fetchall()
        file, text = rows[0]
        kept = json.loads(text)
        kept[0]["race"][-1] = [score + 4 if score == 121 else score
                               for score in kept[0]["race"][-1]]
        db.execute("UPDATE games SET summaries = ? WHERE file = ?", (json.dumps(kept), file))
        file, text = rows[1]
        kept = json.loads(text)
        best = next(t["best_hand"] for t in kept[0]["tallies"] if t.get("best_hand"))
        best["cards"][0] = "1H"
        db.execute("UPDATE games SET summaries = ? WHERE file = ?", (json.dumps(kept), file))
    assert main(["stats", "--store", str(store), "--json"]) == 0
    after = json.loads(capsys.readouterr().out)
    assert after["games"] == before["games"] and after["players"] == before["players"]
    assert any("'1H' is not a card the index writes" in note and "made again" in note
               for note in after["notes"])


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("writable", [True, False])
def test_an_index_damaged_anywhere_is_rebuilt_with_one_notice(store: Path, seed: int,
                                                              writable: bool) -> None:
    """Bytes overwritten at random inside the file (its schema, its pages, its text no
    longer UTF-8): every reader, one that may write it and one that may not (the
    scoreboard), lists the history as it is and says once what it did, in one printable
    line."""
    path = store / INDEX_NAME
    data = bytearray(path.read_bytes())
    chance = random.Random(seed)
    for _ in range(30):
        at = chance.randrange(100, len(data))
        data[at:at + 16] = bytes(chance.randrange(256) for _ in range(16))
    path.write_bytes(bytes(data))
    with GameIndex(store, writable=writable) as index:
        listed = [(g.id, g.started_at, g.result, g.events) for g in index.games()]
        assert [g.id for g in index.newest(3)] == [g[0] for g in listed[::-1][:3]]
        notices = [n for n in index.notices if "games index" in n]
    assert listed == _truth(store)
    assert len(notices) <= 1 and all(n.isprintable() and len(n) < 400 for n in notices)
