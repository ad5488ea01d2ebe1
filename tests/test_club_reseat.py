"""Tonight's seating changed while the service runs: the director re-seats the rest of the
night (a late arrival, a withdrawal) with ``POST /api/seating`` (the rounds ``club seat
--json --from-round N`` prints), and each new game is checked against the seating as it now
stands; the re-seat is an act in the audit of acts and stands across a restart with the same
``--seating`` file. Against a real mosquitto."""

from __future__ import annotations

import json
from pathlib import Path

import httpx2 as httpx
import pytest

from pegboard.cli import main
from pegboard.club.seating import from_json
from pegboard.club.topics import result_topic
from tests.support.club import Standings
from tests.support.mosquitto import Broker
from tests.test_club_broker import Client
from tests.test_club_director import card

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


def test_the_director_re_seats_the_night_without_a_restart(tmp_path: Path) -> None:
    secret = tmp_path / "director.password"
    secret.write_text(SECRET + "\n", encoding="utf-8")
    seating = tmp_path / "seating.json"
    seating.write_text(json.dumps(NIGHT), encoding="utf-8")
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
