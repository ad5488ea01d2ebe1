"""The night checked and the director's queue: a game that does not fit tonight's seating, or
whose member already has a game counted in its round, waits for the director instead of
counting; the director (with the director's own password) accepts, voids or adjusts a result
with a reason, every act in the audit and its CSV; against a real mosquitto as well."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from pegboard.club.results import (
    Act,
    Stored,
    act,
    acts,
    audit,
    connect,
    counters,
    queue,
    store_result,
)
from pegboard.club.scorecard import judge
from pegboard.club.seating import Pairing, Round
from pegboard.club.standings import adjusted, scorecards_csv, standings
from pegboard.club.topics import result_topic
from pegboard.errors import ClubError
from tests.support.club import Standings
from tests.support.mosquitto import Broker
from tests.test_club_broker import Client
from tests.test_club_hostile import _notes
from tests.test_club_identity import corrected
from tests.test_club_scorecard import club_records

SEATING = [Round(2, (Pairing(1, ("101", "102")), Pairing(2, ("103", "104"))), None)]
"""Tonight's round 2: table 1 seats 101 v 102, table 2 103 v 104 (club_records' round)."""


def card(seed: int, members: tuple[str, str], table: int, board: str = "b1"
         ) -> dict[str, Any]:
    records, _ = club_records(seed, members=members, table=table, round_=2)
    found = judge(records, club="club", board=board, game_id=f"g{seed}").card
    assert found is not None
    return found


def games(db: Any) -> dict[str, int]:
    return {p["member"]: p["games"] for p in standings(db)}


def test_a_game_that_does_not_fit_the_night_waits_for_the_director(tmp_path: Path) -> None:
    db = connect(tmp_path / "r.db")
    assert store_result(db, card(1, ("101", "102"), 1), seating=SEATING) is Stored.COUNTED
    # not seated there: 101 v 103 at table 2, and a table the round does not have
    unseated = card(2, ("103", "101"), 2)
    assert store_result(db, unseated, seating=SEATING) is Stored.HELD
    assert store_result(db, card(3, ("103", "104"), 7), seating=SEATING) is Stored.HELD
    # no seating loaded: a member who already has a game counted in the round
    again = card(4, ("101", "104"), 5, board="b5")
    assert store_result(db, again) is Stored.HELD
    assert games(db) == {"101": 1, "102": 1}
    waiting = queue(db)
    assert [(q["tbl"], q["members"]) for q in waiting] == [
        (2, "103 v 101"), (7, "103 v 104"), (5, "101 v 104")]
    assert waiting[0]["why"] == "round 2, table 2 is seated 103 v 104, not 101 v 103"
    assert waiting[1]["why"] == "round 2, table 7 is seated nobody, not 103 v 104"
    assert waiting[2]["why"].startswith("member 101 already has a game counted in round 2 "
                                        "(table 1, b1:g1)")
    assert counters(db)["held"] == 3


def test_the_director_accepts_and_voids_with_a_reason_all_in_the_audit(tmp_path: Path
                                                                      ) -> None:
    db = connect(tmp_path / "r.db")
    first = card(1, ("101", "102"), 1)
    store_result(db, first, seating=SEATING)
    held = card(2, ("103", "101"), 2)
    store_result(db, held, seating=SEATING)
    before = standings(db)
    with pytest.raises(ClubError, match="a reason"):
        act(db, Act.ACCEPT, held["id"], held["revision"], director="Pat", reason=" ")
    with pytest.raises(ClubError, match="not held"):
        act(db, Act.ACCEPT, first["id"], first["revision"], director="Pat", reason="no")
    assert standings(db) == before and acts(db) == []  # nothing changed
    act(db, Act.ACCEPT, held["id"], held["revision"], director="Pat",
        reason="103 was moved to table 2 for a late arrival")
    assert games(db) == {"101": 2, "102": 1, "103": 1} and queue(db) == []
    act(db, Act.VOID, first["id"], first["revision"], director="Pat",
        reason="played in the wrong round")
    assert games(db) == {"101": 1, "103": 1}
    assert counters(db)["results"] == 1 and counters(db)["voided"] == 1
    with pytest.raises(ClubError, match="only a counted or held result is voided"):
        act(db, Act.VOID, first["id"], first["revision"], director="Pat", reason="again")
    assert [(a["act"], a["director"], a["reason"]) for a in acts(db)] == [
        ("accept", "Pat", "103 was moved to table 2 for a late arrival"),
        ("void", "Pat", "played in the wrong round")]
    assert [(row["status"], row["why"]) for row in audit(db)] == [
        ("voided", "Pat: played in the wrong round"),
        ("accepted", "Pat: 103 was moved to table 2 for a late arrival")]
    # the voided game sent again is counted once; a correction of it waits for the director
    assert store_result(db, first) is Stored.DUPLICATE
    assert games(db) == {"101": 1, "103": 1}


def board_of(found: dict[str, Any], loser: int) -> list[int]:
    """The card's board with the loser at ``loser`` (the winner at the target)."""
    return [121 if side == found["winner"] else loser for side in range(2)]


def test_the_director_adjusts_a_counted_result_by_the_rules(tmp_path: Path) -> None:
    db = connect(tmp_path / "r.db")
    first = card(1, ("101", "102"), 1)
    store_result(db, first)
    winner = next(p["member"] for p in first["players"] if p["won"])
    loser = next(p["member"] for p in first["players"] if not p["won"])
    before = standings(db)
    for scores, why in (([121, 121], "exactly one side at 121"), ([121], "2 final scores"),
                        ([121, -3], "2 final scores"), ([100, 90], "exactly one side")):
        with pytest.raises(ClubError, match=why):
            act(db, Act.ADJUST, first["id"], first["revision"], director="Pat",
                reason="slip", scores=scores)
    with pytest.raises(ClubError, match="only an adjustment"):
        act(db, Act.ADJUST, first["id"], first["revision"], director="Pat", reason="slip")
    with pytest.raises(ClubError, match="only an adjustment"):
        act(db, Act.VOID, first["id"], first["revision"], director="Pat", reason="slip",
            scores=[121, 95])
    assert standings(db) == before and acts(db) == []  # nothing changed
    # The loser's last hand was pegged 10 short: 88 should have been 98, say. No skunk.
    said = act(db, Act.ADJUST, first["id"], first["revision"], director="Pat",
               reason="the loser's last hand was pegged short", scores=board_of(first, 95))
    assert said.endswith("adjusted to " + "-".join(map(str, board_of(first, 95)))
                         + ": game points " + ("2-0" if first["winner"] == 0 else "0-2")
                         + ", skunk none, spread 26")
    rows = {p["member"]: p for p in standings(db)}
    assert (rows[winner]["game_points"], rows[winner]["spread"]) == (2, 26)
    assert (rows[loser]["game_points"], rows[loser]["spread"]) == (0, -26)
    assert rows[winner]["skunks_given"] == 0 and rows[loser]["skunks_taken"] == 0
    # adjusted again, to a skunk: 3 game points by the club's (ACC) rules
    act(db, Act.ADJUST, first["id"], first["revision"], director="Pat",
        reason="the director counted the crib again", scores=board_of(first, 80))
    rows = {p["member"]: p for p in standings(db)}
    assert (rows[winner]["game_points"], rows[winner]["spread"], rows[winner]["wins"]) == (
        3, 41, 1)
    assert rows[winner]["skunks_given"] == 1 and rows[loser]["skunks_taken"] == 1
    assert [a["act"] for a in acts(db)] == ["adjust", "adjust"]
    audited = audit(db)
    assert [r["status"] for r in audited] == ["adjusted"]
    assert audited[0]["why"].startswith("Pat: the director counted the crib again (")
    assert "skunk skunk, spread 41" in audited[0]["why"]
    sheet = list(csv.DictReader(io.StringIO(scorecards_csv(db))))
    assert {(r["member"], r["game_points"], r["spread"], r["skunk"]) for r in sheet} == {
        (winner, "3", "41", "skunk"), (loser, "0", "-41", "skunk")}
    assert all(r["adjusted"].endswith("(Pat: the director counted the crib again)")
               for r in sheet)
    # only the counted revision is adjusted
    held = card(2, ("103", "101"), 2)
    store_result(db, held, seating=SEATING)
    with pytest.raises(ClubError, match="only a counted result is adjusted"):
        act(db, Act.ADJUST, held["id"], held["revision"], director="Pat", reason="no",
            scores=[121, 100])


def test_a_boards_correction_of_a_game_the_director_adjusted_waits_for_the_director(
        tmp_path: Path) -> None:
    """The director ruled on a game (adjusted it); the table then corrects it on the board
    and both confirm again: the board does not overrule the director. The correction is
    held with why, the adjusted board stands, and the director may accept it."""
    db = connect(tmp_path / "r.db")
    records, _ = club_records(5, mode="quick", table=1, round_=2)
    first = judge(records, club="club", board="b1", game_id="g5").card
    assert first is not None and store_result(db, first) is Stored.COUNTED
    act(db, Act.ADJUST, first["id"], first["revision"], director="Pat",
        reason="the loser's last hand was pegged short", scores=board_of(first, 95))
    ruled = standings(db)
    fixed = judge(corrected(records, 5), club="club", board="b1", game_id="g5").card
    assert fixed is not None and fixed["id"] == first["id"]
    assert store_result(db, fixed) is Stored.HELD
    assert queue(db)[-1]["why"] == (f"a correction of revision {first['revision']}, which "
                                    "the director adjusted: the director's to accept")
    assert standings(db) == ruled and counters(db)["corrections"] == 0
    act(db, Act.ACCEPT, fixed["id"], fixed["revision"], director="Pat",
        reason="the table's own correction is right")
    assert queue(db) == [] and adjusted(db, 1) == []
    assert [r["status"] for r in audit(db)] == ["replaced", "accepted"]
    assert {p["member"]: p["spread"] for p in standings(db)} != {
        p["member"]: p["spread"] for p in ruled}


def test_the_director_on_the_service(tmp_path: Path) -> None:
    secret = tmp_path / "director.password"
    secret.write_text("correct horse battery\n", encoding="utf-8")
    seating = tmp_path / "seating.json"
    seating.write_text(json.dumps([{"round": 2, "bye": None, "tables": [
        {"table": 1, "members": ["101", "102"]}, {"table": 2, "members": ["103", "104"]}]}]),
        encoding="utf-8")
    with Broker(tmp_path / "broker") as broker:
        service = Standings(tmp_path / "r.db", broker.address, extra=(
            "--seating", str(seating), "--director-password-file", str(secret)))
        board = Client(broker.port)
        try:
            fits, waits = card(1, ("101", "102"), 1), card(2, ("103", "101"), 2)
            for sent in (waits, fits):  # the one that waits first: the other's event follows
                board.send(result_topic("club", "b1", sent["game"]), json.dumps(sent).encode())
            status = service.wait_for(1, held=1)
            assert (status["results"], status["held"]) == (1, 1)
            waiting = service.get("/api/queue")["queue"]
            assert [q["id"] for q in waiting] == [waits["id"]]
            url = service.url.rstrip("/") + "/api/director"
            body = {"act": "accept", "id": waits["id"], "revision": waits["revision"],
                    "director": "Pat", "reason": "seated late at table 2"}
            assert httpx.post(url, json=body, timeout=60).status_code == 401
            assert httpx.post(url, json=body, timeout=60, headers={
                "authorization": "Bearer wrong"}).status_code == 401
            done = httpx.post(url, json=body, timeout=60, headers={
                "authorization": "Bearer correct horse battery"})
            assert done.status_code == 200, done.text
            assert service.get("/api/status")["results"] == 2
            again = httpx.post(url, json=body, timeout=60, headers={
                "authorization": "Bearer correct horse battery"})
            assert again.status_code == 409 and "not held" in again.json()["error"]
            adjust = {"act": "adjust", "id": fits["id"], "revision": fits["revision"],
                      "director": "Pat", "reason": "pegged short", "scores": [121, 121]}
            refused = httpx.post(url, json=adjust, timeout=60, headers={
                "authorization": "Bearer correct horse battery"})
            assert refused.status_code == 409 and "one side" in refused.json()["error"]
            adjust["scores"] = board_of(fits, 95)
            done = httpx.post(url, json=adjust, timeout=60, headers={
                "authorization": "Bearer correct horse battery"})
            assert done.status_code == 200, done.text
            assert "spread 26" in done.json()["done"]
            rows = list(csv.DictReader(io.StringIO(service.get("/export/audit.csv"))))
            assert [(r["status"], r["why"].partition(" (")[0]) for r in rows] == [
                ("accepted", "Pat: seated late at table 2"), ("adjusted", "Pat: pegged short")]
            cards = list(csv.DictReader(io.StringIO(service.get("/export/scorecards.csv"))))
            assert sorted((r["spread"], r["adjusted"] != "") for r in cards
                          if r["result"] == fits["id"]) == [("-26", True), ("26", True)]
            assert [a["act"] for a in service.get("/api/queue")["acts"]] == [
                "seating", "accept", "adjust"]  # the seating loaded at the start, too
            void = {**adjust, "act": "void", "reason": "played in the wrong round"}
            del void["scores"]
            done = httpx.post(url, json=void, timeout=60, headers={
                "authorization": "Bearer correct horse battery"})
            assert done.status_code == 200, done.text
            assert service.get("/api/status")["results"] == 1
            rows = list(csv.DictReader(io.StringIO(service.get("/export/audit.csv"))))
            assert [(r["status"], r["why"]) for r in rows][1] == (
                "voided", "Pat: played in the wrong round")
            # The audit shows a revision's last act; the acts' sheet shows every one.
            sheet = list(csv.DictReader(io.StringIO(service.get("/export/acts.csv"))))
            assert [(r["director"], r["act"], r["id"], r["revision"], r["reason"])
                    for r in sheet][1:] == [
                ("Pat", "accept", waits["id"], waits["revision"], "seated late at table 2"),
                ("Pat", "adjust", fits["id"], fits["revision"], "pegged short"),
                ("Pat", "void", fits["id"], fits["revision"], "played in the wrong round")]
            assert sheet[0]["act"] == "seating" and float(sheet[0]["at"]) > 0
        finally:
            board.close()
            service.stop()


def test_a_held_result_is_a_note_and_the_page_shows_the_queue(tmp_path: Path) -> None:
    """A result held for the director is a ``standings`` note saying so (the page fetches
    its one answer again, and the director's queue is in it): the director sees it without
    reloading the page."""
    seating = tmp_path / "seating.json"
    seating.write_text(json.dumps([{"round": 2, "bye": None, "tables": [
        {"table": 1, "members": ["101", "102"]}, {"table": 2, "members": ["103", "104"]}]}]),
        encoding="utf-8")
    with Broker(tmp_path / "broker") as broker:
        service = Standings(tmp_path / "r.db", broker.address, extra=(
            "--seating", str(seating)))
        board = Client(broker.port)
        try:
            with httpx.stream("GET", service.url.rstrip("/") + "/events",
                              timeout=60) as stream:
                notes = _notes(stream.iter_lines())
                assert next(notes)[0] == "standings"  # the first note: draw the page
                assert next(notes)[0] == "tables"
                waits = card(2, ("103", "101"), 2)
                board.send(result_topic("club", "b1", waits["game"]),
                           json.dumps(waits).encode())
                kind, news = next(notes)  # bounded by the stream's timeout
                assert (kind, news) == ("standings", {
                    "version": 1, "stored": "held", "id": waits["id"], "club": "club",
                    "night": waits["night"], "round": 2, "table": 2})
                page = service.get("/api/page")
                assert [q["id"] for q in page["queue"]] == [waits["id"]]
                assert page["status"]["held"] == 1 and page["status"]["results"] == 0
        finally:
            board.close()
            service.stop()


def test_a_result_on_another_boards_topic_waits_until_the_director_accepts_it(
        tmp_path: Path) -> None:
    """Board b2's card (genuinely scored) published on board b1's topic is neither refused
    nor counted: it waits in the director's queue, both boards named, and counts once the
    director accepts it; another such card the director voids stays out, both acts in the
    audit and its CSV."""
    secret = tmp_path / "director.password"
    secret.write_text("correct horse battery\n", encoding="utf-8")
    with Broker(tmp_path / "broker") as broker:
        service = Standings(tmp_path / "r.db", broker.address, extra=(
            "--director-password-file", str(secret)))
        board = Client(broker.port)
        try:
            theirs, forged = card(1, ("101", "102"), 1, "b2"), card(2, ("103", "104"), 2, "b2")
            board.send(result_topic("club", "b1", "g7"), json.dumps(theirs).encode())
            board.send(result_topic("club", "b1", "g8"), json.dumps(forged).encode())
            status = service.wait_for(0, held=2)
            assert (status["results"], status["held"], status["refused"]) == (0, 2, 0)
            assert service.get("/api/standings")["players"] == []
            waiting = service.get("/api/queue")["queue"]
            assert [(q["id"], q["board"], q["why"]) for q in waiting] == [
                (theirs["id"], "b2", "board b1's topic (result g7) carried a result of board "
                 "b2 (game g1): a board publishes only its own results"),
                (forged["id"], "b2", "board b1's topic (result g8) carried a result of board "
                 "b2 (game g2): a board publishes only its own results")]
            url = service.url.rstrip("/") + "/api/director"
            key = {"authorization": "Bearer correct horse battery"}
            for sent, what, reason in ((theirs, "accept", "b2's own card: b2 was offline"),
                                       (forged, "void", "no such game was played")):
                done = httpx.post(url, timeout=60, headers=key, json={
                    "act": what, "id": sent["id"], "revision": sent["revision"],
                    "director": "Pat", "reason": reason})
                assert done.status_code == 200, done.text
            status = service.get("/api/status")
            assert (status["results"], status["held"], status["voided"]) == (1, 0, 1)
            assert service.get("/api/queue")["queue"] == []
            assert sorted((p["member"], p["games"])
                          for p in service.get("/api/standings")["players"]) == [
                ("101", 1), ("102", 1)]
            rows = list(csv.DictReader(io.StringIO(service.get("/export/audit.csv"))))
            assert [(r["board"], r["status"], r["why"]) for r in rows] == [
                ("b2", "accepted", "Pat: b2's own card: b2 was offline"),
                ("b2", "voided", "Pat: no such game was played")]
            sheet = list(csv.DictReader(io.StringIO(service.get("/export/acts.csv"))))
            assert [(r["act"], r["id"], r["reason"]) for r in sheet] == [
                ("accept", theirs["id"], "b2's own card: b2 was offline"),
                ("void", forged["id"], "no such game was played")]
        finally:
            board.close()
            service.stop()
