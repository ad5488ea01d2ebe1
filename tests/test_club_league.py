"""Past one club: a club's broker bridged (mosquitto's own bridge) to the league's broker,
two clubs' boards, and the league's standings equal to the union of the clubs'."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from pegboard.club.setup import bridge
from pegboard.store import Store
from tests.support.club import (
    Played,
    Publisher,
    Standings,
    expected_standings,
    fast_folder,
    table_of,
    write_club_game,
)
from tests.support.mosquitto import Broker


@pytest.fixture
def boards(tmp_path: Path) -> Iterator[Path]:
    folder = fast_folder(tmp_path / "boards")
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def night(boards: Path, club: str, members: list[str], broker: Broker
          ) -> tuple[list[Played], list[Publisher]]:
    played: list[Played] = []
    publishers = []
    for t in (1, 2):
        store_dir = boards / f"{club}-{t}"
        Store(store_dir, owner="board").close()
        publishers.append(Publisher(store_dir, broker.address, f"board-{t}", club=club))
    for round_ in (1, 2):
        for t in (1, 2):
            pair = (members[t - 1], members[2 + (t + round_) % 2])
            with Store(boards / f"{club}-{t}", owner="board") as store:
                played.append(write_club_game(
                    store, hash((club, round_, t)) % 10_000, night=1, round_=round_, table=t,
                    members=pair))
    return played, publishers


def test_the_league_ranks_the_union_of_two_bridged_clubs(tmp_path: Path, boards: Path
                                                         ) -> None:
    with Broker(tmp_path / "league") as league:
        north_broker = Broker(tmp_path / "north", extra=bridge("north", ("127.0.0.1",
                                                                         league.port)))
        with north_broker:
            north = Standings(tmp_path / "north.db", north_broker.address, club="north")
            south = Standings(tmp_path / "south.db", league.address, club="south")
            everyone = Standings(tmp_path / "league.db", league.address)
            publishers: list[Publisher] = []
            try:
                played_north, more = night(boards, "north", ["201", "202", "203", "204"],
                                           north_broker)
                publishers += more
                played_south, more = night(boards, "south", ["301", "302", "303", "304"],
                                           league)
                publishers += more
                north.wait_for(4)
                south.wait_for(4)
                assert everyone.wait_for(8)["results"] == 8
                assert table_of(north.get("/api/standings")) == expected_standings(
                    played_north)
                union = expected_standings(played_north + played_south)
                assert table_of(everyone.get("/api/standings")) == union
                assert sorted(table_of(everyone.get("/api/standings"))) == sorted(
                    table_of(north.get("/api/standings"))
                    + table_of(south.get("/api/standings")))
                assert table_of(everyone.get("/api/standings?club=north")) == table_of(
                    north.get("/api/standings"))
            finally:
                for publisher in publishers:
                    publisher.stop()
                for service in (north, south, everyone):
                    service.stop()
