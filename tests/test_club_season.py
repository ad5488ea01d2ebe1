"""Season standings across nights with season points (RULES.md's club section: season points
to players with 12 or more game points in a night, by the club's own table), and the night's
pots with who won each, in the API, the page's answer and CSV; against a real mosquitto."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from pegboard.cli import main
from pegboard.club.results import connect, store_result
from pegboard.club.scorecard import judge
from pegboard.club.standings import (
    DEFAULT_SEASON,
    SeasonPoints,
    pots_csv,
    season,
    season_csv,
    standings,
)
from pegboard.club.topics import result_topic
from pegboard.errors import ClubError
from tests.support.club import Standings
from tests.support.mosquitto import Broker
from tests.test_club_broker import Client
from tests.test_club_scorecard import club_records


def card(seed: int, members: tuple[str, str], night: int) -> dict[str, Any]:
    records, _ = club_records(seed, members=members, night=night)
    found = judge(records, club="club", board="b1", game_id=f"g{night}-{seed}").card
    assert found is not None
    return found


def nights_of(db: Any) -> None:
    """Night 1: 101 plays 102 six times; night 2: once more."""
    for seed in range(1, 7):
        store_result(db, card(seed, ("101", "102"), 1))
    store_result(db, card(7, ("101", "102"), 2))


def test_season_points_by_the_clubs_table(tmp_path: Path) -> None:
    db = connect(tmp_path / "r.db")
    nights_of(db)
    table = SeasonPoints.parse("6=1,12=2")
    ranked = season(db, None, table)
    for player in ranked:
        expected = sum(table.points(p["game_points"]) for n in (1, 2)
                       for p in standings(db, n) if p["member"] == player["member"])
        assert player["season_points"] == expected
        assert player["nights"] == 2
        totals = next(p for p in standings(db) if p["member"] == player["member"])
        assert (player["game_points"], player["wins"], player["spread"]) == (
            totals["game_points"], totals["wins"], totals["spread"])
    assert [p["season_points"] for p in ranked] == sorted(
        (p["season_points"] for p in ranked), reverse=True)
    sheet = list(csv.DictReader(io.StringIO(season_csv(db, table))))
    assert [(r["member"], int(r["season_points"])) for r in sheet] == [
        (p["member"], p["season_points"]) for p in ranked]
    for bad in ("12", "x=1", "12=0", "12=1,", "-3=1"):
        with pytest.raises(ClubError, match="GAMEPOINTS=POINTS"):
            SeasonPoints.parse(bad)


def test_the_pots_say_who_won_each(tmp_path: Path) -> None:
    db = connect(tmp_path / "r.db")
    found = card(21, ("101", "102"), 1)  # a game with a special hand
    assert found["special"]
    store_result(db, found)
    rows = list(csv.DictReader(io.StringIO(pots_csv(db, 1))))
    assert [(r["pot"], r["member"], r["name"], r["cards"].split()[-1]) for r in rows] == [
        (h["hand"], h["member"], h["name"], h["starter"]) for h in found["special"]]
    assert pots_csv(db, 2).splitlines() == [pots_csv(db, 2).splitlines()[0]]


def test_the_service_serves_the_season_and_the_pots(tmp_path: Path) -> None:
    with Broker(tmp_path / "broker") as broker:
        service = Standings(tmp_path / "r.db", broker.address,
                            extra=("--season-points", "6=1,12=2"))
        board = Client(broker.port)
        try:
            sent = [card(seed, ("101", "102"), 1) for seed in range(1, 7)]
            sent.append(card(21, ("101", "102"), 2))
            for one in sent:
                board.send(result_topic("club", "b1", one["game"]), json.dumps(one).encode())
            service.wait_for(len(sent))
            answer = service.get("/api/season")
            assert answer["season_points"] == "6=1,12=2"
            db = connect(tmp_path / "r.db")
            assert answer["players"] == season(db, None, SeasonPoints.parse("6=1,12=2"))
            assert service.get("/api/page")["season"] == answer["players"]
            assert service.get("/export/season.csv") == season_csv(
                db, SeasonPoints.parse("6=1,12=2"))
            assert service.get("/export/pots.csv?night=2") == pots_csv(db, 2)
            db.close()
        finally:
            board.close()
            service.stop()


def test_the_defaults_follow_the_rules_where_they_speak_and_say_where_they_are_silent(
        capsys: pytest.CaptureFixture[str]) -> None:
    """RULES.md's club section: season points to a player with 12 or more game points in a
    night, none below; how many, and how a bye is credited, it does not say, and club
    serve's help says so beside each default."""
    assert [DEFAULT_SEASON.points(gp) for gp in (0, 11, 12, 27)] == [0, 0, 1, 1]
    with pytest.raises(SystemExit) as done:
        main(["club", "serve", "--help"])
    assert done.value.code == 0
    said = " ".join(capsys.readouterr().out.split())
    assert "Default 12=1: RULES.md says Grass Roots clubs award season points for 12 or " \
        "more game points in a night, and not how many; the one point is this program's " \
        "choice" in said
    assert "No rule says how: RULES.md says only that there are byes when the count is " \
        "odd, so the default is this program's choice, not ACC practice" in said
