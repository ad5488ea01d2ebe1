"""Tonight's seating changed while the service runs: the director re-seats the rest of the
night (a late arrival, a withdrawal) with ``POST /api/seating`` (the rounds ``club seat
--json --from-round N`` prints), and each new game is checked against the seating as it now
stands; the re-seat is an act in the audit of acts and stands across a restart with the same
``--seating`` file, and without it: with the service's ``--night``, for that night; without
one, within the evening (the night of its first game counted kept with it). Against a real
mosquitto."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

import httpx2 as httpx
import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from pegboard.cli import main
from pegboard.club.results import (
    EVENING_S,
    Stored,
    bind_seating,
    carried,
    connect,
    save_seating,
    saved_seating,
    store_result,
    transaction,
)
from pegboard.club.scorecard import judge
from pegboard.club.seating import Tonight, from_json
from pegboard.club.standings import next_round
from pegboard.club.topics import night_topic, parse_night, result_topic
from pegboard.commands import club as club_command
from tests.support.club import Standings
from tests.support.mosquitto import Broker
from tests.support.waiting import LIVENESS_S
from tests.support.web import system_chromium
from tests.test_club_broker import Client
from tests.test_club_director import card
from tests.test_club_scorecard import club_records

SECRET = "correct horse battery"
NIGHT = [{"round": 1, "bye": None, "tables": [{"table": 1, "members": ["101", "102"]},
                                               {"table": 2, "members": ["103", "104"]}]},
         {"round": 2, "bye": None, "tables": [{"table": 1, "members": ["101", "104"]},
                                               {"table": 2, "members": ["103", "102"]}]}]


def test_club_seat_numbers_a_re_seat_from_its_round(capsys: pytest.CaptureFixture[str]
                                                    ) -> None:
    assert main(["club", "seat", "--present", "101,102,103,104,105,106", "--rounds", "2",
                 "--from-round", "2", "--json"]) == 0
    rounds = from_json(json.loads(capsys.readouterr().out))
    assert [r.number for r in rounds] == [2, 3]
    assert all(len(r.tables) == 3 for r in rounds)


def night_files(folder: Path) -> tuple[Path, Path]:
    """The night's seating file (``NIGHT``) and the director's password file, in ``folder``."""
    secret = folder / "director.password"
    secret.write_text(SECRET + "\n", encoding="utf-8")
    seating = folder / "seating.json"
    seating.write_text(json.dumps(NIGHT), encoding="utf-8")
    return seating, secret


def test_the_director_re_seats_the_night_without_a_restart(tmp_path: Path) -> None:
    seating, secret = night_files(tmp_path)
    extra = ("--seating", str(seating), "--director-password-file", str(secret))
    with Broker(tmp_path / "broker") as broker:
        service = Standings(tmp_path / "r.db", broker.address, extra=extra)
        board = Client(broker.port)
        try:
            url = service.url.rstrip("/") + "/api/seating"
            # 105 arrives late and 102 withdraws: round 2 seated again from the players now
            # here (club seat --present 101,103,104,105 --from-round 2)
            again = [{"round": 2, "bye": None, "tables": [
                {"table": 1, "members": ["101", "105"]},
                {"table": 2, "members": ["103", "104"]}]}]
            body = {"director": "Pat", "reason": "105 late, 102 went home", "rounds": again}
            assert httpx.post(url, json=body, timeout=60).status_code == 401
            assert httpx.post(url, json={"director": "Pat", "reason": "x", "rounds": []},
                              headers={"authorization": f"Bearer {SECRET}"},
                              timeout=60).status_code == 409  # no round given
            twice = httpx.post(url, timeout=60, headers={"authorization": f"Bearer {SECRET}"},
                               json={**body, "rounds": [{**again[0], "bye": "105"}]})
            assert twice.status_code == 400 and "round 2 seats member 105 twice" in (
                twice.json()["error"])  # and nothing changed: the re-seat below is the first
            done = httpx.post(url, json=body, timeout=60,
                              headers={"authorization": f"Bearer {SECRET}"})
            assert done.status_code == 200, done.text
            assert [r["round"] for r in done.json()["rounds"]] == [1, 2]
            assert done.json()["rounds"][1]["tables"] == again[0]["tables"]
            # round 2, table 1: 101 v 105 fits the night as re-seated (not as first seated)
            fits = card(1, ("101", "105"), 1)
            board.send(result_topic("club", "b1", fits["game"]), json.dumps(fits).encode())
            status = service.wait_for(1)
            assert (status["results"], status["held"]) == (1, 0)
            acts = service.get("/api/queue")["acts"]
            assert [(a["act"], a["director"], a["reason"]) for a in acts] == [
                ("seating", "club serve", f"--seating {seating}"),
                ("seating", "Pat", "105 late, 102 went home")]
            # The service restarted with the same --seating: the re-seat stands.
            service.restart()
            fits = card(2, ("103", "104"), 2)
            board.send(result_topic("club", "b1", fits["game"]), json.dumps(fits).encode())
            stale = card(3, ("103", "102"), 2)  # the first seating's table 2: no longer
            board.send(result_topic("club", "b1", stale["game"]), json.dumps(stale).encode())
            status = service.wait_for(2, held=1)
            assert (status["results"], status["held"]) == (2, 1)
            held = service.get("/api/queue")["queue"]
            assert [q["id"] for q in held] == [stale["id"]]
            assert held[0]["why"].startswith("round 2, table 2 is seated 103 v 104")
        finally:
            board.close()
            service.stop()


class NightWatch:
    """A board's view of the club's night: a paho client subscribed to the service's
    retained ``pegboard/<club>/night``, keeping every message it is given."""

    def __init__(self, port: int, club: str = "club") -> None:
        self.seen: list[tuple[int, int, bool] | None] = []
        self.came = threading.Condition()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2)

        def message(client: mqtt.Client, userdata: object, found: mqtt.MQTTMessage) -> None:
            with self.came:
                self.seen.append(parse_night(bytes(found.payload)))
                self.came.notify_all()

        self.client.on_message = message
        self.client.on_connect = lambda client, *rest: client.subscribe(night_topic(club), 1)
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def wait(self, night: tuple[int, int, bool], within: float = LIVENESS_S) -> None:
        """Until the newest night heard is ``night``; AssertionError saying what was heard
        when it is not within ``within`` seconds."""
        with self.came:
            if not self.came.wait_for(lambda: self.seen[-1:] == [night], within):
                raise AssertionError(f"the club's night never said {night}: {self.seen}")

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def night_card(seed: int, members: tuple[str, str], table: int, round_: int, night: int = 1
               ) -> dict[str, Any]:
    records, _ = club_records(seed, members=members, table=table, round_=round_, night=night)
    found = judge(records, club="club", board="b1", game_id=f"g{seed}").card
    assert found is not None
    return found


def test_the_seating_held_carries_on_after_a_crash_and_acts_republish_the_night(
        tmp_path: Path) -> None:
    """The service's database holds the seating as the director last changed it: killed
    (SIGKILL) and started again without ``--seating``, it checks games against the re-seat;
    started for another night, it holds none. A director's accept or void that moves the
    next round publishes the club's night again, as a board hears it."""
    seating, secret = night_files(tmp_path)
    director = ("--director-password-file", str(secret))
    with Broker(tmp_path / "broker") as broker:
        service = Standings(tmp_path / "r.db", broker.address, club="club", extra=(
            "--seating", str(seating), "--night", "1", *director))
        board, watch = Client(broker.port), NightWatch(broker.port)
        pat = {"authorization": f"Bearer {SECRET}"}

        def post(path: str, body: dict[str, Any]) -> dict[str, Any]:
            done = httpx.post(service.url.rstrip("/") + path, json=body, headers=pat,
                              timeout=LIVENESS_S)
            assert done.status_code == 200, done.text
            return dict(done.json())

        def send(found: dict[str, Any]) -> None:
            board.send(result_topic("club", "b1", found["game"]), json.dumps(found).encode())

        try:
            watch.wait((1, 1, False))
            again = [{"round": 2, "bye": None, "tables": [
                {"table": 1, "members": ["101", "105"]},
                {"table": 2, "members": ["103", "104"]}]}]
            post("/api/seating", {"director": "Pat", "reason": "105 late, 102 went home",
                                  "rounds": again})
            stale = night_card(1, ("103", "102"), 2, 2)  # the first seating's round 2
            send(stale)
            assert service.wait_for(0, held=1)["results"] == 0
            watch.wait((1, 1, False))  # nothing counted: still round 1
            act = {"id": stale["id"], "revision": stale["revision"], "director": "Pat"}
            post("/api/director", {**act, "act": "accept", "reason": "102 stayed after all"})
            watch.wait((1, 3, False))  # round 2 counted by the director: round 3 next
            post("/api/director", {**act, "act": "void", "reason": "102 did go home"})
            watch.wait((1, 1, False))  # and taken out again: round 1 next
            # The standings host loses its power; started again without --seating.
            service.kill()
            service.start(["--night", "1", *director])
            fits = night_card(2, ("101", "105"), 1, 2)  # fits the re-seat only
            old = night_card(3, ("101", "104"), 1, 2)  # the first seating's table 1
            send(fits)
            assert service.wait_for(1)["held"] == 0
            send(old)
            status = service.wait_for(1, held=1)
            assert (status["results"], status["held"]) == (1, 1)
            held = [(q["id"], q["why"]) for q in service.get("/api/queue")["queue"]]
            assert held == [(old["id"], "round 2, table 1 is seated 101 v 105, not 101 v 104")]
            assert [(a["act"], a["director"]) for a in service.get("/api/queue")["acts"]] == [
                ("seating", "club serve"), ("seating", "Pat"), ("accept", "Pat"),
                ("void", "Pat")]  # carried on, not loaded again
            assert "tonight's seating is the one held in the results database (rounds 1-2, "\
                "night 1, as last seated)" in service.log.read_text(encoding="utf-8")
            # Next week (--night 2) the seating held is last week's: none is loaded.
            service.stop()
            service.start(["--night", "2", *director])
            assert "the seating held is night 1's, not known to be tonight's (2)" in (
                service.log.read_text(encoding="utf-8"))
            send(night_card(4, ("101", "102"), 9, 1, night=2))  # no seating: it counts
            assert service.wait_for(2)["held"] == 1
        finally:
            watch.close()
            board.close()
            service.stop()


def test_a_re_seat_without_a_night_number_carries_over_a_restart_but_not_into_next_week(
        tmp_path: Path) -> None:
    """A service started with ``--seating`` and no ``--night`` (the boards' configs give the
    night): its seating is the night of its first game counted (kept with it, said on the
    page's ``/api/seating``). The director re-seats round 2 in the middle of the night;
    killed and started again without ``--seating`` (nor ``--night``), the service takes the
    re-seat up, with its night: a game the re-seat seats counts, one of the first seating's
    round 2 waits for the director, and a late result of another night is not checked
    against it.

    A week on (the results database's clock moved back a week), restarted without
    ``--seating``, it holds no seating and says why on standard error and on the page
    (``/api/seating``'s ``none``, which the page shows under "Next round"): a game the old
    seating would hold counts. Restarted with ``--night 2``, the same. The director's
    seating then loaded (``POST /api/seating``) is the night's: the page's note goes."""
    seating, secret = night_files(tmp_path)
    director = ("--director-password-file", str(secret))
    pat = {"authorization": f"Bearer {SECRET}"}
    with Broker(tmp_path / "broker") as broker:
        service = Standings(tmp_path / "r.db", broker.address, club="club",
                            extra=("--seating", str(seating), *director))
        board = Client(broker.port)

        def send(found: dict[str, Any]) -> None:
            board.send(result_topic("club", "b1", found["game"]), json.dumps(found).encode())

        try:
            seats = service.get("/api/seating")
            assert (seats["night"], seats["none"]) == (None, "")  # not known yet
            send(night_card(1, ("101", "102"), 1, 1, night=7))  # round 1, as seated
            assert service.wait_for(1)["held"] == 0
            seats = service.get("/api/seating")
            assert (seats["night"], seats["round"]) == (7, 2)
            again = [{"round": 2, "bye": None, "tables": [
                {"table": 1, "members": ["101", "105"]},
                {"table": 2, "members": ["103", "104"]}]}]
            done = httpx.post(service.url.rstrip("/") + "/api/seating", timeout=LIVENESS_S,
                              headers=pat, json={"director": "Pat", "rounds": again,
                                                 "reason": "105 late, 102 went home"})
            assert done.status_code == 200, done.text
            service.kill()  # the standings host loses its power in the middle of the night
            service.start(list(director))  # started again: no --seating, no --night
            assert ("tonight's seating is the one held in the results database (rounds 1-2, "
                    "night 7, as last seated)") in service.log.read_text(encoding="utf-8")
            seats = service.get("/api/seating")
            assert (seats["night"], seats["round"], seats["none"]) == (7, 2, "")
            assert [t["members"] for t in seats["tables"]] == [["101", "105"], ["103", "104"]]
            send(night_card(2, ("101", "105"), 1, 2, night=7))  # fits the re-seat only
            assert service.wait_for(2)["held"] == 0
            old = night_card(3, ("103", "102"), 2, 2, night=7)  # the first seating's table 2
            send(old)
            status = service.wait_for(2, held=1)
            assert (status["results"], status["held"]) == (2, 1)
            assert [(q["id"], q["why"]) for q in service.get("/api/queue")["queue"]] == [
                (old["id"], "round 2, table 2 is seated 103 v 104, not 102 v 103")]
            # A board's late result of night 6, seated otherwise: not night 7's to check.
            send(night_card(4, ("102", "103"), 1, 1, night=6))
            status = service.wait_for(3)
            assert (status["results"], status["held"]) == (3, 1)

            service.stop()
            week_ago(tmp_path / "r.db")
            service.start(list(director))  # next week, no --seating, no --night
            why = ("the seating held (night 7's, last used 168 hours ago) is not tonight's: "
                   "without --night, a seating carries over a restart within 12 hours of its "
                   "last use, so none is loaded")
            assert why in service.log.read_text(encoding="utf-8")
            seats = service.get("/api/seating")
            assert why in seats["none"] and (seats["round"], seats["tables"]) == (None, [])
            with system_chromium() as browser:  # and the page, under "Next round"
                page = browser.new_page()
                page.goto(service.url)
                page.wait_for_function(
                    "why => document.getElementById('unseated').textContent === "
                    "'No seating: ' + why", arg=seats["none"], timeout=LIVENESS_S * 1000)
                assert page.locator("#seats tr").count() == 1  # the heading alone
            # Night 8, round 1, table 1: 101 v 103, which night 7's seating does not seat.
            send(night_card(5, ("101", "103"), 1, 1, night=8))
            status = service.wait_for(4)
            assert (status["results"], status["held"]) == (4, 1)
            service.stop()
            service.start(["--night", "8", *director])
            assert "night 7's, not known to be tonight's (8)" in service.log.read_text(
                encoding="utf-8")
            assert "not known to be tonight's (8)" in service.get("/api/seating")["none"]
            send(night_card(6, ("102", "104"), 2, 1, night=8))  # not night 7's table 2
            status = service.wait_for(5)
            assert (status["results"], status["held"]) == (5, 1)
            done = httpx.post(service.url.rstrip("/") + "/api/seating", timeout=LIVENESS_S,
                              headers=pat,
                              json={"director": "Pat", "reason": "night 8", "rounds": NIGHT})
            assert done.status_code == 200, done.text
            assert service.get("/api/seating")["none"] == ""
        finally:
            board.close()
            service.stop()


def week_ago(path: Path) -> None:
    """Move everything the results database at ``path`` holds a week into the past (the
    service stopped): as if the service were started again a week later."""
    db = sqlite3.connect(path)
    try:
        with db:
            db.execute("UPDATE seating SET at = at - ?", (WEEK_S,))
            db.execute("UPDATE result SET received = received - ?", (WEEK_S,))
    finally:
        db.close()


WEEK_S = 7 * 24 * 3600.0


def test_a_seating_held_is_tonight_s_by_its_night_or_within_the_evening(tmp_path: Path
                                                                        ) -> None:
    """:func:`carried`: with ``--night`` a seating is tonight's when kept for that night;
    without, when kept or counted against within 12 hours (a game of its night counted
    later keeps it in use); its night number is kept with it once a game binds it."""
    db = connect(tmp_path / "r.db")
    try:
        save_seating(db, NIGHT, source="f", director="club serve", reason="x", now=1000.0)
        held = saved_seating(db)
        assert held is not None and (held.night, held.at) == (None, 1000.0)
        assert carried(db, held, None, 1000.0 + EVENING_S) == ""
        assert "last used 12 hours ago" in carried(db, held, None, 1001.0 + EVENING_S)
        assert "kept without a night number" in carried(db, held, 3, 1000.0)
        with transaction(db):
            assert bind_seating(db, 3)
            assert not bind_seating(db, 4)  # known: kept
        held = saved_seating(db)
        assert held is not None and held.night == 3
        assert carried(db, held, 3, 1000.0 + WEEK_S) == ""  # --night says so
        assert "night 3's, not known to be tonight's (4)" in carried(db, held, 4, 1000.0)
        # a game of night 3 counted five hours after the seating was kept: in use till then
        found = night_card(1, ("101", "102"), 1, 1, night=3)
        assert store_result(db, found, now=1000.0 + 5 * 3600, seating=from_json(NIGHT),
                            seating_night=3) is Stored.COUNTED
        assert carried(db, held, None, 1000.0 + 5 * 3600 + EVENING_S) == ""
        assert "night 3's, last used 13 hours ago" in carried(
            db, held, None, 1000.0 + 5 * 3600 + EVENING_S + 3600)
    finally:
        db.close()


def test_a_seating_s_night_is_its_first_game_counted_and_none_before(tmp_path: Path
                                                                     ) -> None:
    """:func:`store_result` with a seating of no known night: a game held (not seated) or a
    board's late result of an older night binds nothing; the first game counted against it
    binds its night, in the database and through ``bound``."""
    db = connect(tmp_path / "r.db")
    told: list[int] = []
    try:
        rounds = from_json(NIGHT)
        older = night_card(1, ("101", "103"), 1, 1, night=4)  # before the seating: counted
        assert store_result(db, older, seating=None) is Stored.COUNTED
        save_seating(db, NIGHT, source="f", director="club serve", reason="x")
        misfit = night_card(2, ("101", "103"), 1, 1, night=5)  # not seated so: held
        assert store_result(db, misfit, seating=rounds, bound=told.append) is Stored.HELD
        late = night_card(3, ("102", "104"), 1, 2, night=3)  # an older night's: not checked
        assert store_result(db, late, seating=rounds, bound=told.append) is Stored.COUNTED
        held = saved_seating(db)
        assert told == [] and held is not None and held.night is None
        fits = night_card(4, ("101", "102"), 1, 1, night=5)
        assert store_result(db, fits, seating=rounds, bound=told.append) is Stored.COUNTED
        held = saved_seating(db)
        assert told == [5] and held is not None and held.night == 5
        # The next round is counted on the seating's night: a night not begun starts at 1.
        assert [next_round(db, rounds, n)["round"] for n in (5, 6)] == [2, 1]
        tonight = Tonight(rounds)
        assert tonight.bind(5) and tonight.night == 5 and not tonight.bind(6)
        assert not Tonight(None).bind(5)  # no seating: nothing to bind
    finally:
        db.close()


def test_a_seating_held_that_no_longer_reads_is_not_loaded_and_says_why(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A seating kept before seatings were checked (a member seated twice in a round): a
    start without ``--seating`` loads none and says why; a start with its own file loads
    the file again."""
    db = connect(tmp_path / "r.db")
    try:
        bad = [{**NIGHT[0], "bye": "101"}]
        save_seating(db, bad, source="digest", director="club serve", reason="x", night=1)
        assert club_command._held(db, 1) == (
            None, "", "the seating held does not read (round 1 seats member 101 twice: each "
            "member at one table, or on the bye, in a round), so none is loaded (give "
            "--seating FILE, or POST /api/seating; started with --night N, a night's seating "
            "carries over a restart)", 1)
        assert "the seating held does not read" in capsys.readouterr().err
        rounds = from_json(NIGHT)
        assert club_command._tonight(db, rounds, "digest", "s.json", 1) == (rounds, 1)
        assert "--seating s.json is loaded again" in capsys.readouterr().err
        held = saved_seating(db)
        assert held is not None and held.rounds == NIGHT  # the file's, kept
    finally:
        db.close()
