"""Tonight's seating changed while the service runs: the director re-seats the rest of the
night (a late arrival, a withdrawal) with ``POST /api/seating`` (the rounds ``club seat
--json --from-round N`` prints), and each new game is checked against the seating as it now
stands; the re-seat is an act in the audit of acts and stands across a restart with the same
``--seating`` file. Against a real mosquitto."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import httpx2 as httpx
import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from pegboard.cli import main
from pegboard.club.scorecard import judge
from pegboard.club.seating import from_json
from pegboard.club.topics import night_topic, parse_night, result_topic
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
                self.seen.append(parse_night(found.payload))
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


def test_a_seating_kept_without_a_night_is_not_carried_into_another_night(
        tmp_path: Path) -> None:
    """Week 1: the service started with ``--seating`` and no ``--night``, a game of its
    seating counted. Restarted without ``--seating`` (a new week: the service cannot tell),
    it holds no seating and says why on standard error and on the page (``/api/seating``'s
    ``none``, which the page shows under "Next round"): a game the old seating would hold
    counts. Restarted with ``--night 2``, the same. The director's seating then loaded
    (``POST /api/seating``) is the night's: the page's note goes."""
    seating, secret = night_files(tmp_path)
    director = ("--director-password-file", str(secret))
    with Broker(tmp_path / "broker") as broker:
        service = Standings(tmp_path / "r.db", broker.address, club="club",
                            extra=("--seating", str(seating), *director))
        board = Client(broker.port)

        def send(found: dict[str, Any]) -> None:
            board.send(result_topic("club", "b1", found["game"]), json.dumps(found).encode())

        try:
            assert service.get("/api/seating")["none"] == ""
            send(night_card(1, ("101", "102"), 1, 1))  # week 1, round 1, as seated
            assert service.wait_for(1)["held"] == 0
            service.stop()
            service.start(list(director))  # next week, no --seating, no --night
            why = ("the seating held is kept without a night number (club serve without "
                   "--night), not known to be tonight's")
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
            # Week 2, round 1, table 1: 101 v 103, which week 1's seating does not seat.
            send(night_card(2, ("101", "103"), 1, 1, night=2))
            status = service.wait_for(2)
            assert (status["results"], status["held"]) == (2, 0)
            service.stop()
            service.start(["--night", "2", *director])
            assert "not known to be tonight's (2)" in service.log.read_text(encoding="utf-8")
            assert "not known to be tonight's (2)" in service.get("/api/seating")["none"]
            send(night_card(3, ("102", "104"), 2, 1, night=2))  # not week 1's table 2
            status = service.wait_for(3)
            assert (status["results"], status["held"]) == (3, 0)
            done = httpx.post(service.url.rstrip("/") + "/api/seating", timeout=LIVENESS_S,
                              headers={"authorization": f"Bearer {SECRET}"},
                              json={"director": "Pat", "reason": "week 2", "rounds": NIGHT})
            assert done.status_code == 200, done.text
            assert service.get("/api/seating")["none"] == ""
            assert "no seating" not in service.log.read_text(encoding="utf-8").lower()
        finally:
            board.close()
            service.stop()
