"""A club night against a real mosquitto: boards' publishers and the standings service as
processes, the standings equal to an independent computation from the virtual tables."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from pegboard.store import Store
from tests.support.club import (
    MEMBERS,
    Played,
    Publisher,
    Standings,
    expected_standings,
    fast_folder,
    results_of,
    table_of,
    write_club_game,
)
from tests.support.mosquitto import Broker


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with Broker(tmp_path / "broker") as running:
        yield running


@pytest.fixture
def boards(tmp_path: Path) -> Iterator[Path]:
    folder = fast_folder(tmp_path / "boards")
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def seating(tables: int, round_: int) -> list[tuple[str, str]]:
    """Round-robin pairs: the second of each pair moves one table a round."""
    players = MEMBERS[: tables * 2]
    fixed, moving = players[::2], players[1::2]
    moving = moving[round_ % tables:] + moving[: round_ % tables]
    return list(zip(fixed, moving, strict=True))


def start_publishers(boards: Path, broker: Broker, tables: int) -> list[Publisher]:
    publishers = []
    for t in range(1, tables + 1):
        Store(boards / f"board-{t}", owner="board").close()  # the board's store exists
        publishers.append(Publisher(boards / f"board-{t}", broker.address, f"board-{t}"))
    return publishers


def play_night(boards: Path, tables: int, rounds: int, night: int = 1
               ) -> tuple[list[Played], list[Path]]:
    stores = [boards / f"board-{t}" for t in range(1, tables + 1)]
    played: list[Played] = []
    for round_ in range(1, rounds + 1):
        for t, pair in enumerate(seating(tables, round_), start=1):
            with Store(stores[t - 1], owner="board") as store:
                played.append(write_club_game(
                    store, night * 1000 + round_ * 50 + t, night=night, round_=round_,
                    table=t, members=pair))
    return played, stores


def test_a_night_of_4_tables_and_3_rounds_gives_the_independent_standings(
        tmp_path: Path, broker: Broker, boards: Path) -> None:
    service = Standings(tmp_path / "results.db", broker.address)
    try:
        publishers = start_publishers(boards, broker, 4)
        played, stores = play_night(boards, 4, 3)
        status = service.wait_for(12)
        assert status["results"] == 12
        assert table_of(service.get("/api/standings?night=1")) == expected_standings(played)
        assert table_of(service.get("/api/standings")) == expected_standings(played)
        for publisher in publishers:
            assert publisher.stop() == 0
        assert sum(len(results_of(store)) for store in stores) == 12
        rows = service.get("/export/scorecards.csv").splitlines()
        assert len(rows) == 1 + 24
    finally:
        service.stop()
