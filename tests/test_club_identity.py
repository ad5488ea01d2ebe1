"""A result is the game itself: the same game from any board, under any game id, counts
once; a game corrected after it was confirmed replaces the revision counted, both kept in the
audit; another record of the same place in the night is held; a version-1 card (and a
database of them) still reads; the scorecard carries the cards as they were entered."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pegboard.club.check import check_result
from pegboard.club.results import (
    Stored,
    audit,
    connect,
    counters,
    store_result,
)
from pegboard.club.scorecard import judge
from pegboard.club.standings import standings
from pegboard.club.topics import result_topic
from pegboard.record import dump
from pegboard.rules.events import Confirm, Peg, Undo
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
from tests.support.games import random_game
from tests.support.mosquitto import Broker
from tests.test_club_scorecard import club_records

Records = list[dict[str, Any]]


def card(records: Records, board: str = "b1", game: str = "g1", version: int = 2
         ) -> dict[str, Any]:
    found = judge(records, club="club", board=board, game_id=game, version=version).card
    assert found is not None
    return found


def checked(records: Records, board: str = "b1", game: str = "g1", version: int = 2
            ) -> dict[str, Any]:
    """The card as the service takes it off its board's topic."""
    sent = card(records, board, game, version)
    return check_result(result_topic("club", board, game), json.dumps(sent).encode())


def correction(seed: int) -> list[Any]:
    """What a table enters to put a confirmed quick-mode game of ``seed`` right: UNDO the
    two confirmations and the winning peg, peg the 2 the loser was owed, the winning peg
    again, and both confirm again."""
    played = random_game(seed, mode="quick")
    assert played.winner is not None
    assert played.scores[1 - played.winner] + 2 < 121
    return [Undo(), Undo(), Undo(), Peg(1 - played.winner, 2), played.events[-1],
            Confirm(1), Confirm(0)]


def corrected(records: Records, seed: int) -> Records:
    return [*records, *(dump(event) for event in correction(seed))]


def test_the_same_game_from_any_board_or_under_any_game_id_counts_once(tmp_path: Path
                                                                       ) -> None:
    db = connect(tmp_path / "r.db")
    records, _ = club_records(5)
    first = checked(records)
    assert store_result(db, first) is Stored.COUNTED
    # the board renamed, its store moved into the spare, a copy under a new game id
    for board, game in (("b2", "g1"), ("spare", "g1"), ("b1", "g-copy")):
        again = checked(records, board, game)
        assert again["id"] == first["id"] and again["revision"] == first["revision"]
        assert store_result(db, again) is Stored.DUPLICATE
    assert counters(db)["results"] == 1 and counters(db)["duplicates"] == 3
    assert sum(p["games"] for p in standings(db)) == 2
    assert [row["status"] for row in audit(db)] == ["counted"]


def test_a_corrected_game_replaces_the_one_counted_and_both_stay_in_the_audit(
        tmp_path: Path) -> None:
    db = connect(tmp_path / "r.db")
    records, _ = club_records(5, mode="quick")
    before = checked(records)
    assert store_result(db, before) is Stored.COUNTED
    spreads = {p["member"]: p["spread"] for p in standings(db)}
    after = checked(corrected(records, 5))
    assert after["id"] == before["id"] and after["revision"] != before["revision"]
    assert store_result(db, after) is Stored.CORRECTED
    winner = before["players"][before["winner"]]["member"]
    assert {p["member"]: p["spread"] for p in standings(db)} == {
        member: spread - 2 if spread > 0 else spread + 2 for member, spread in spreads.items()}
    assert winner == next(p["member"] for p in standings(db) if p["wins"] == 1)
    assert sum(p["games"] for p in standings(db)) == 2  # replaced, not added
    # the first revision arriving again (a board's --again, the broker's retained copy)
    assert store_result(db, checked(records, "b2")) is Stored.DUPLICATE
    rows = audit(db)
    assert [(row["revision"], row["status"]) for row in rows] == [
        (before["revision"], "replaced"), (after["revision"], "corrected")]
    assert after["revision"] in rows[0]["why"] and before["revision"] in rows[1]["why"]
    assert counters(db) == {"results": 1, "duplicates": 1, "corrections": 1, "held": 0,
                            "refused": 0, "voided": 0}


def test_an_older_revision_after_the_correction_and_a_different_record_of_the_place(
        tmp_path: Path) -> None:
    db = connect(tmp_path / "r.db")
    records, _ = club_records(5, mode="quick")
    assert store_result(db, checked(corrected(records, 5))) is Stored.COUNTED
    assert store_result(db, checked(records)) is Stored.DUPLICATE  # older: counted once
    other, _ = club_records(6, mode="quick", table=6, round_=6)  # seed 5's place, another game
    held = checked(other, "b3", "g7")
    assert held["id"] == checked(records)["id"]
    assert store_result(db, held) is Stored.HELD
    statuses = [(row["board"], row["status"]) for row in audit(db)]
    assert statuses == [("b1", "counted"), ("b1", "older"), ("b3", "held")]
    assert "another record of this game" in audit(db)[-1]["why"]
    assert counters(db)["held"] == 1 and sum(p["games"] for p in standings(db)) == 2
    assert standings(db) == standings(db, 1)


def starter_by_rank(seed: int = 21) -> Records:
    """A version-6 record (a count made at once, the suit not asked) of ``seed``'s game with
    every starter entered by its rank alone: seed 21's crib of four 3s is counted with a
    9 whose suit nobody entered."""
    records, _ = club_records(seed)
    lines = [dict(line) for line in records]
    lines[0]["version"] = 6
    for line in lines:
        if line["type"] == "starter":
            line["suit_known"] = False
    return lines


def test_the_scorecard_carries_a_starter_as_it_was_entered() -> None:
    records = starter_by_rank()
    new, old = card(records), card(records, version=1)
    assert [(h["hand"], h["cards"], h["starter"]) for h in new["special"]] == [
        ("24", ["3", "3", "3", "3"], "9"), ("four of a kind", ["3", "3", "3", "3"], "9")]
    stand_in = old["special"][0]["starter"]
    assert stand_in[0] == "9" and len(stand_in) == 2  # version 1: the engine's stand-in
    # both versions are taken, each rebuilt exactly; the game is one result
    assert checked(records) == new and checked(records, version=1) == old
    forged = dict(new, special=[dict(new["special"][0], starter=stand_in), *new["special"][1:]])
    with pytest.raises(Exception, match="'special' differs"):
        check_result(result_topic("club", "b1", "g1"), json.dumps(forged).encode())
    with pytest.raises(Exception, match="reads versions 1, 2"):
        check_result(result_topic("club", "b1", "g1"), json.dumps(dict(new, version=3)).encode())


def test_a_version_one_card_and_the_same_game_in_version_two_count_once(tmp_path: Path
                                                                       ) -> None:
    db = connect(tmp_path / "r.db")
    records, _ = club_records(7)
    assert store_result(db, checked(records, version=1)) is Stored.COUNTED
    assert store_result(db, checked(records)) is Stored.DUPLICATE
    assert counters(db)["results"] == 1


OLD_SCHEMA = """
CREATE TABLE result (
    id TEXT PRIMARY KEY, club TEXT NOT NULL, board TEXT NOT NULL, game TEXT NOT NULL,
    night INTEGER NOT NULL, round INTEGER NOT NULL, tbl INTEGER NOT NULL,
    received REAL NOT NULL, payload TEXT NOT NULL);
CREATE TABLE line (
    result TEXT NOT NULL, seat INTEGER NOT NULL, club TEXT NOT NULL, night INTEGER NOT NULL,
    round INTEGER NOT NULL, tbl INTEGER NOT NULL, member TEXT NOT NULL, name TEXT NOT NULL,
    won INTEGER NOT NULL, game_points INTEGER NOT NULL, spread INTEGER NOT NULL,
    score INTEGER NOT NULL, skunks_given INTEGER NOT NULL, skunks_taken INTEGER NOT NULL,
    PRIMARY KEY (result, seat));
CREATE TABLE counter (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
INSERT INTO counter VALUES ('results', 3), ('duplicates', 4), ('refused', 5);
"""


def test_a_database_of_version_one_results_is_keyed_by_the_game(tmp_path: Path) -> None:
    """A database written before results were keyed by their game, holding one game from
    two boards (a renamed board's store sent again) and another: two results after."""
    path = tmp_path / "old.db"
    old = sqlite3.connect(path)
    old.executescript(OLD_SCHEMA)
    for seed, board in ((5, "b1"), (5, "b9"), (6, "b2")):
        records, _ = club_records(seed)
        sent = card(records, board, f"g{seed}", version=1)
        old.execute("INSERT INTO result VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (sent["id"], "club", board, f"g{seed}", 1, seed + 1, seed + 1, float(seed),
                     json.dumps(sent)))
    old.commit()
    old.close()
    db = connect(path)
    assert counters(db) == {"results": 2, "duplicates": 5, "corrections": 0, "held": 0,
                            "refused": 5, "voided": 0}
    assert sum(p["games"] for p in standings(db)) == 4
    assert [row["board"] for row in audit(db)] == ["b1", "b2"]
    db.close()
    assert counters(connect(path))["results"] == 2  # brought up to date once


# Against a real mosquitto: the board's publisher and the standings service as processes.


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with Broker(tmp_path / "broker") as running:
        yield running


@pytest.fixture
def boards(tmp_path: Path) -> Iterator[Path]:
    folder = fast_folder(tmp_path / "boards")
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_a_correction_and_a_renamed_board_on_the_broker(tmp_path: Path, boards: Path,
                                                        broker: Broker) -> None:
    service = Standings(tmp_path / "r.db", broker.address)
    publishers: list[Publisher] = []
    try:
        publishers.append(Publisher(boards / "board-1", broker.address, "board-1"))
        with Store(boards / "board-1", owner="board") as store:
            played = write_club_game(store, 5, night=1, round_=1, table=1,
                                     members=("101", "102"), finish=False, mode="quick")
            service.wait_for(1)
            assert table_of(service.get("/api/standings?night=1")) == expected_standings(
                [played])
            for event in correction(5):
                store.append(dump(event))
            status = service.wait_for(1, corrections=1)
        loser = 1 - played.winner
        scores = list(played.scores)
        scores[loser] += 2
        right = Played(1, 1, 1, played.members, played.names,
                       (scores[0], scores[1]), played.winner)
        assert table_of(service.get("/api/standings?night=1")) == expected_standings([right])
        assert status["results"] == 1
        publishers[0].stop()
        # The board died: its store goes into the spare (board id "spare", its own record
        # of acknowledgements), which sends the store's result again, then a new game. The
        # copy comes first from that board, so it is taken by the time the new game is.
        shutil.copytree(boards / "board-1", boards / "spare")
        (boards / "spare" / "club-acked.txt").unlink()
        publishers.append(Publisher(boards / "spare", broker.address, "spare"))
        with Store(boards / "spare", owner="board") as store:
            more = write_club_game(store, 8, night=1, round_=2, table=1,
                                   members=("101", "103"))
        status = service.wait_for(2)
        assert (status["results"], status["corrections"], status["held"]) == (2, 1, 0)
        assert status["duplicates"] >= 1  # the corrected game, sent again by the spare
        assert table_of(service.get("/api/standings?night=1")) == expected_standings(
            [right, more])
        revisions = service.get("/api/audit?night=1")["revisions"]
        assert [row["status"] for row in revisions] == ["replaced", "corrected", "counted"]
    finally:
        for publisher in publishers:
            publisher.stop()
        service.stop()
