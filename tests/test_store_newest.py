"""A start reads the last game's seats from the one history file ``newest`` names: it never
lists (or sorts) the history, whatever its length (docs/store.md, "Finishing")."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from pegboard.store import Store, StoreReader
from pegboard.store.reader import NEWEST_NAME


def _header(*players: str) -> dict[str, object]:
    return {"type": "game", "players": list(players), "version": 6}


def _fill(path: Path, games: list[tuple[str, ...]]) -> list[str]:
    """Each game started and finished in turn; the history files' names, in that order."""
    clock = iter(range(1_800_000_000, 1_900_000_000, 1000))
    names = []
    with Store(path, owner="test", clock=lambda: float(next(clock))) as store:
        for players in games:
            store.new_game(_header(*players))
            names.append(store.finish({"abandoned": True}).path.name)
    return names


@pytest.fixture
def no_listing(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every listing of a directory, recorded (the history must not be among them)."""
    listed: list[str] = []
    scandir, listdir = os.scandir, os.listdir

    def recorded_scandir(path: object = ".") -> object:
        listed.append(str(path))
        return scandir(path)  # type: ignore[call-overload]

    def recorded_listdir(path: object = ".") -> list[str]:
        listed.append(str(path))
        names: list[str] = listdir(path)  # type: ignore[call-overload]
        return names

    monkeypatch.setattr(os, "scandir", recorded_scandir)
    monkeypatch.setattr(os, "listdir", recorded_listdir)
    yield listed


def test_the_last_game_kept_is_noted_and_read_without_listing_the_history(
    tmp_path: Path, no_listing: list[str]
) -> None:
    store = tmp_path / "store"
    names = _fill(store, [("Ann", "Ben"), ("Cat", "Dan", "Eve"), ("Fay", "Gus")])
    assert (store / NEWEST_NAME).read_text().strip() == names[-1]
    no_listing.clear()
    reader = StoreReader(store)
    assert reader.last_players() == ("Fay", "Gus")
    assert not any("history" in path for path in no_listing)


def test_a_store_without_the_note_is_listed_once_and_noted_by_the_next_writer(
    tmp_path: Path, no_listing: list[str]
) -> None:
    """A store kept before the note (or with a note lost) still starts with the last
    game's seats: the history is listed, and the next writer to open it notes the newest."""
    store = tmp_path / "store"
    names = _fill(store, [("Ann", "Ben"), ("Cat", "Dan")])
    (store / NEWEST_NAME).unlink()
    no_listing.clear()
    assert StoreReader(store).last_players() == ("Cat", "Dan")
    assert any("history" in path for path in no_listing)
    Store(store, owner="test").close()
    assert (store / NEWEST_NAME).read_text().strip() == names[-1]
    no_listing.clear()
    assert StoreReader(store).last_players() == ("Cat", "Dan")
    assert not any("history" in path for path in no_listing)


@pytest.mark.parametrize("note", [b"", b"../current.log\n", b"x" * 400, b"not-there.log\n"])
def test_a_note_that_names_no_history_file_is_not_believed(tmp_path: Path, note: bytes) -> None:
    """A note edited by hand, cut short or naming a file gone: the newest is found from the
    history, and the next writer writes the note again."""
    store = tmp_path / "store"
    names = _fill(store, [("Ann", "Ben"), ("Cat", "Dan")])
    (store / NEWEST_NAME).write_bytes(note)
    assert StoreReader(store).last_players() == ("Cat", "Dan")
    Store(store, owner="test").close()
    assert (store / NEWEST_NAME).read_text().strip() == names[-1]


def test_a_note_that_is_a_link_is_not_followed(tmp_path: Path) -> None:
    store = tmp_path / "store"
    _fill(store, [("Ann", "Ben"), ("Cat", "Dan")])
    (store / NEWEST_NAME).unlink()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_text("20000101T000000Z-000000.log\n")
    (store / NEWEST_NAME).symlink_to(elsewhere)
    assert StoreReader(store).last_players() == ("Cat", "Dan")


def test_an_empty_history_has_no_last_players(tmp_path: Path) -> None:
    store = tmp_path / "store"
    Store(store, owner="test").close()
    assert StoreReader(store).last_players() == ()
    assert not (store / NEWEST_NAME).exists()
