"""A club night against a real mosquitto: boards' publishers and the standings service as
processes, the standings equal to an independent computation from the virtual tables."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from pegboard.club.seating import seat, to_json
from pegboard.store import Store
from tests.support.club import (
    MEMBERS,
    Played,
    Standings,
    expected_standings,
    fast_folder,
    results_of,
    seating,
    start_publishers,
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


def play_round(stores: list[Path], round_: int, night: int = 1) -> list[Played]:
    played = []
    for t, pair in enumerate(seating(len(stores), round_), start=1):
        with Store(stores[t - 1], owner="board") as store:
            played.append(write_club_game(
                store, night * 1000 + round_ * 50 + t, night=night, round_=round_, table=t,
                members=pair))
    return played


def run_night(tmp_path: Path, boards: Path, broker: Broker, tables: int, rounds: int, *,
              kills: int, within: float = 120.0) -> None:
    """A night with faults: ``kills`` publishers SIGKILLed each round just after their games
    were confirmed (and started again), the broker restarted after the first round and the
    standings service after the second; the standings equal the virtual tables'."""
    seating = tmp_path / "seating.json"
    seating.write_text(json.dumps(to_json(seat(MEMBERS[: tables * 2], rounds + 1, "moves"))),
                       encoding="utf-8")
    service = Standings(tmp_path / "results.db", broker.address,
                        extra=("--seating", str(seating)))
    assert service.get("/api/seating")["round"] == 1
    publishers = start_publishers(boards, broker.address, tables)
    stores = [boards / f"board-{t}" for t in range(1, tables + 1)]
    played: list[Played] = []
    try:
        for round_ in range(1, rounds + 1):
            played += play_round(stores, round_)
            for victim in range(kills):
                publisher = publishers[(round_ * 7 + victim) % tables]
                publisher.kill()
                publisher.restart()
            if round_ == 1:
                broker.restart()
            if round_ == 2:
                service.restart()
        status = service.wait_for(tables * rounds, within)
        assert status["results"] == tables * rounds  # none lost, none counted twice
        night = service.get("/api/standings?night=1")
        assert table_of(night) == expected_standings(played)
        names = {f"board-{t}" for t in range(1, tables + 1)}
        live = service.wait_for_tables(names)  # the boards' retained live states
        assert {b["board"] for b in live} == names
        assert all(len(b["state"]["players"]) == 2 for b in live)
        upcoming = service.get("/api/seating")  # the seating's extra round is next
        assert upcoming["round"] == rounds + 1 and len(upcoming["tables"]) == tables
        assert sum(p["games"] for p in night["players"]) == 2 * tables * rounds
        for publisher in publishers:
            assert publisher.stop() == 0
        acked = [result for store in stores for result in results_of(store)]
        assert len(set(acked)) == tables * rounds
        rows = service.get("/export/scorecards.csv").splitlines()
        assert len(rows) == 1 + 2 * tables * rounds
    finally:
        for publisher in publishers:
            publisher.stop()
        service.stop()


def test_a_night_of_4_tables_and_3_rounds_through_a_kill_and_two_restarts(
        tmp_path: Path, broker: Broker, boards: Path) -> None:
    run_night(tmp_path, boards, broker, 4, 3, kills=1)
    # The broker's database is one snapshot of everything it keeps, written and fsync-ed
    # whole: not after every message (each live state), which held every PUBACK behind
    # those writes on a loaded host (pegboard.club.setup.SAVE_AFTER_CHANGES).
    saves = sum("Saving in-memory database" in line for line in broker.log)
    assert saves <= 4, saves


@pytest.mark.soak
def test_a_night_of_10_tables_and_9_rounds_through_kills_and_restarts(
        tmp_path: Path, broker: Broker, boards: Path) -> None:
    run_night(tmp_path, boards, broker, 10, 9, kills=3, within=600.0)
