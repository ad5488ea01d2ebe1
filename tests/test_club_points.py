"""Club games are counted by the club's game points: a game a board played with classic game
points counts by ACC (2 a win, 3 a skunk) in an ACC club's standings and is flagged, in the
database, the status, the CSV and (against a real mosquitto) the service's answers."""

from __future__ import annotations

import csv
import io
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pegboard.club.results import club_points, connect, store_result
from pegboard.club.scorecard import judge
from pegboard.club.standings import rescored, scorecards_csv, standings
from pegboard.rules.variants import GamePoints
from pegboard.store import Store
from tests.support import club as club_support
from tests.support.club import (
    Publisher,
    Standings,
    expected_standings,
    fast_folder,
    table_of,
    write_club_game,
)
from tests.support.mosquitto import Broker
from tests.test_club_scorecard import club_records


def classic_card(seed: int, members: tuple[str, str] = ("101", "102")) -> dict[str, Any]:
    """``seed``'s game played at a table whose setup said "Game points: classic"."""
    records, _ = club_records(seed, members=members)
    header = dict(records[0])
    rules = header.get("rules") or {}
    assert isinstance(rules, dict)
    header["rules"] = {**rules, "game_points": "classic"}
    card = judge([header, *records[1:]], club="club", board="b1", game_id=f"g{seed}").card
    assert card is not None and card["rules"]["game_points"] == "classic"
    return card


def skunked_seed() -> int:
    """A seed whose game is a skunk (classic 2, ACC 3)."""
    for seed in range(200):
        if classic_card(seed)["skunk"] == "skunk":
            return seed
    raise AssertionError("no skunk in 200 games")


def test_a_classic_game_counts_by_the_clubs_acc_points_and_is_flagged(tmp_path: Path
                                                                      ) -> None:
    db = connect(tmp_path / "r.db")
    seed = skunked_seed()
    card = classic_card(seed)
    winner = card["players"][card["winner"]]["member"]
    assert card["game_points"][card["winner"]] == 2  # as the board scored it
    store_result(db, card)
    points = {p["member"]: p["game_points"] for p in standings(db)}
    assert points[winner] == 3 and sum(points.values()) == 3  # ACC: a skunk is 3
    flagged = rescored(db)
    assert [(r["result"], r["round"], r["table"]) for r in flagged] == [
        (f"b1:g{seed}", seed + 1, seed + 1)]
    board = "-".join(map(str, card["game_points"]))
    club = "-".join("3" if side == card["winner"] else "0" for side in range(2))
    assert flagged[0]["why"] == (f"played with classic game points ({board}); counted with "
                                 f"the club's acc ({club})")
    rows = list(csv.DictReader(io.StringIO(scorecards_csv(db))))
    assert {row["member"]: int(row["game_points"]) for row in rows}[winner] == 3
    assert all("counted with the club's acc" in row["rescored"] for row in rows)
    # an ACC game is not flagged
    store_result(db, judge(club_records(seed, members=("103", "104"), table=90)[0],
                           club="club", board="b2", game_id="g").card or {})
    assert len(rescored(db)) == 1


def test_a_classic_club_counts_an_acc_game_by_its_own_points() -> None:
    records, _ = club_records(skunked_seed())
    card = judge(records, club="club", board="b1", game_id="g").card
    assert card is not None and card["skunk"] == "skunk"
    points, why = club_points(card, GamePoints.CLASSIC)
    assert sorted(points) == [0, 2] and "counted with the club's classic" in why
    assert club_points(card, GamePoints.ACC) == (card["game_points"], "")


@pytest.fixture
def boards(tmp_path: Path) -> Iterator[Path]:
    folder = fast_folder(tmp_path / "boards")
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_without_room_in_dev_shm_the_boards_folder_is_made_in_the_tests_own(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A CI machine's /dev/shm may be 64 MB: the boards then go to the fallback, which a board's
    # log is opened in before anything else writes there.
    monkeypatch.setattr(club_support, "RAM_NEEDED", 2**62)
    folder = club_support.fast_folder(tmp_path / "boards")
    assert folder == tmp_path / "boards" and folder.is_dir()


def test_the_service_counts_a_classic_board_by_acc_on_the_broker(tmp_path: Path,
                                                                 boards: Path) -> None:
    with Broker(tmp_path / "broker") as broker:
        service = Standings(tmp_path / "r.db", broker.address)
        publisher = Publisher(boards / "board-1", broker.address, "board-1")
        try:
            with Store(boards / "board-1", owner="board") as store:
                played = [write_club_game(store, seed, night=1, round_=seed, table=1,
                                          members=("101", f"1{seed:02d}"),
                                          game_points=GamePoints.CLASSIC)
                          for seed in (1, 2, 3)]
            service.wait_for(3)
            # the virtual tables' ACC points (2 a win, 3 when the loser has 90 or less)
            assert table_of(service.get("/api/standings?night=1")) == expected_standings(
                played, 1)
            flagged = service.get("/api/status")["rescored"]  # classic's 1 a win is ACC's 2
            assert [r["round"] for r in flagged] == [1, 2, 3] and all(
                "classic" in r["why"] and "club's acc" in r["why"] for r in flagged)
        finally:
            publisher.stop()
            service.stop()
