"""A hostile club on the broker as ``club setup`` makes it (TLS on loopback, passwords, the
ACL, the bounds): one board sending junk, oversize and forged results, another board's
results counted all the same, and nothing refused counted twice across a restart."""

from __future__ import annotations

import json
from pathlib import Path

import httpx2 as httpx

from pegboard.club.check import MAX_LINES
from pegboard.club.topics import MAX_MESSAGE, result_topic, topic
from tests.support.club import Standings
from tests.support.mosquitto import Broker, club_setup, free_port
from tests.test_club_broker import Client, card

JUNK = 1500


def junk(n: int, genuine: dict[str, object]) -> bytes:
    """The ``n``-th of a board's bad messages (on ``result/junk<n>``), of five kinds, each
    refused; ``genuine``: a true card of the board's. One in 50 is a well-formed card whose
    record disagrees (the engine reads each such record, the dearest refusal)."""
    kind = 3 if n % 50 == 3 else n % 5 if n % 5 != 3 else 4
    if kind == 0:
        return b"\xff\xfe not even text %d" % n
    if kind == 1:
        return b"[" * 5000 + b"%d" % n  # deep nesting, never an object
    if kind == 2:
        return json.dumps({"format": "pegboard-club-result", "version": 1, "n": n}).encode()
    mine = dict(genuine, game=f"junk{n}")
    if kind == 3:
        return json.dumps(dict(mine, spread=n)).encode()  # forged: the record disagrees
    return json.dumps(dict(mine, record=[{"type": "note"}] * (MAX_LINES + 1 + n))).encode()


def test_one_boards_junk_is_refused_once_and_never_holds_another_boards_result(
        tmp_path: Path) -> None:
    port = free_port()
    out = tmp_path / "club"
    config = club_setup(out, port)
    ca = out / "ca.crt"
    secret = {user: (out / f"{user}.password").read_text(encoding="utf-8").strip()
              for user in ("board-1", "board-2")}
    with Broker(tmp_path / "broker", port=port, config=config):
        service = Standings(tmp_path / "r.db", f"127.0.0.1:{port}", club="c1", extra=(
            "--user", "standings", "--password-file", str(out / "standings.password"),
            "--cafile", str(ca)))
        bad = Client(port, "board-1", secret["board-1"], ca=ca)
        good = Client(port, "board-2", secret["board-2"], ca=ca)
        try:
            genuine = card(11, "board-1")
            sent = [bad.client.publish(result_topic("c1", "board-1", f"junk{n}"),
                                       junk(n, genuine), qos=1, retain=True)
                    for n in range(JUNK)]
            for info in sent:
                info.wait_for_publish(60)
            good.send(result_topic("c1", "board-2", "g12"),
                      json.dumps(card(12, "board-2")).encode())
            good.send(topic("c1", "board-2", "state"),
                      json.dumps({"club": "c1", "board": "board-2", "game": None}).encode())
            status = service.wait_for(1, refused=JUNK)
            assert (status["results"], status["refused"]) == (1, JUNK)
            # Bigger than the broker takes: the sender is disconnected and nothing is kept.
            bad.client.publish(result_topic("c1", "board-1", "huge"), b"{" * (MAX_MESSAGE + 1),
                               qos=1, retain=True)
            assert bad.dropped.wait(30), "the broker kept a client sending an oversize packet"
            # Every junk message is retained and comes back when the service subscribes
            # again: known by its digest, it is neither judged nor counted a second time.
            service.restart()
            service.wait_for_tables({"board-2"})  # subscribed: the retained junk is queued
            good.send(result_topic("c1", "board-2", "g13"),
                      json.dumps(card(13, "board-2")).encode())
            status = service.wait_for(2)
            assert (status["results"], status["refused"]) == (2, JUNK)
            why = " ".join(row["why"] for row in service.get("/api/refused")["refused"])
            assert "'spread' differs" in why and "is not JSON" in why
            assert f"at most {MAX_LINES:,} are read" in why
        finally:
            bad.close()
            good.close()
            service.stop()


def test_live_table_states_redraw_the_tables_and_never_the_standings(tmp_path: Path) -> None:
    """20 live states from a board: each is a ``tables`` note on the event stream (the page
    fetches ``/api/tables`` alone), never a ``standings`` one; a stored result is."""
    with Broker(tmp_path / "broker") as broker:
        service = Standings(tmp_path / "r.db", broker.address, club="c1")
        board = Client(broker.port)
        try:
            with httpx.stream("GET", service.url.rstrip("/") + "/events",
                              timeout=60) as stream:
                lines = stream.iter_lines()
                assert next(line for line in lines if line.startswith("event: ")) == (
                    "event: standings")  # the first note: draw the page
                for n in range(1, 21):
                    board.send(topic("c1", "board-2", "state"), json.dumps(
                        {"club": "c1", "board": "board-2", "game": "g1", "scores": [n, 0],
                         "shown": [n, 0], "phase": "play"}).encode())
                notes: list[str] = []
                for line in lines:  # bounded by the stream's timeout
                    if not line.startswith("event: "):
                        continue
                    notes.append(line)
                    tables = service.get("/api/tables")["tables"]
                    if tables and tables[0].get("state", {}).get("scores") == [20, 0]:
                        break
                assert notes and set(notes) == {"event: tables"}, notes
                board.send(result_topic("c1", "board-1", "g12"),
                           json.dumps(card(12, "board-1")).encode())
                after = next(line for line in lines if line.startswith("event: standings"))
                assert after == "event: standings"
            assert service.get("/api/status")["results"] == 1
        finally:
            board.close()
            service.stop()
