"""A hostile club on the broker as ``club setup`` makes it (TLS on loopback, passwords, the
ACL, the bounds): one board sending junk, oversize and forged results, another board's
results counted all the same, and nothing refused counted twice across a restart."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx

from pegboard.club.check import MAX_LINES
from pegboard.club.rate import RESULTS_BURST, RESULTS_PER_MINUTE
from pegboard.club.results import connect
from pegboard.club.topics import MAX_MESSAGE, result_topic, topic
from tests.support.club import Standings
from tests.support.mosquitto import Broker, club_setup
from tests.support.ports import free_port
from tests.test_club_broker import Client, card

JUNK = 600


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


def refused_topics(db_path: Path) -> list[str]:
    """The topic of every refusal the results database keeps, oldest first."""
    db = connect(db_path)
    try:
        return [row[0] for row in db.execute("SELECT topic FROM refused ORDER BY rowid")]
    finally:
        db.close()


def test_one_boards_junk_is_refused_once_and_never_holds_another_boards_result(
        tmp_path: Path) -> None:
    """Board 1 publishes 600 bad results (retained), then board 2 a genuine one, to
    ``club serve`` as a club runs it: board 2's is counted; board 1's first ones, up to its
    rate, are read and refused, the rest dropped unread; an oversize message disconnects
    its sender. At a restart every junk message comes again: those refused are known by
    their digest and never counted again, the next ones up to the rate are refused, and
    board 2's next result is counted. No message is ever refused twice."""
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
            began = time.monotonic()
            sent = [bad.client.publish(result_topic("c1", "board-1", f"junk{n}"),
                                       junk(n, genuine), qos=1, retain=True)
                    for n in range(JUNK)]
            for info in sent:
                info.wait_for_publish(60)
            good.send(result_topic("c1", "board-2", "g12"),
                      json.dumps(card(12, "board-2")).encode())
            good.send(topic("c1", "board-2", "state"),
                      json.dumps({"club": "c1", "board": "board-2", "game": None}).encode())
            # Board 2's result and board 1's flood come on connections of their own: the
            # result counted, and board 1's burst refused (the rest dropped over its rate).
            status = service.wait_for(1, refused=RESULTS_BURST)
            most = RESULTS_BURST + (time.monotonic() - began) * RESULTS_PER_MINUTE / 60 + 1
            assert status["results"] == 1 and RESULTS_BURST <= status["refused"] <= most
            first = refused_topics(tmp_path / "r.db")
            flood = [result_topic("c1", "board-1", f"junk{n}") for n in range(JUNK)]
            assert set(flood[:RESULTS_BURST]) <= set(first) <= set(flood)  # the burst first
            why = " ".join(row["why"] for row in service.get("/api/refused")["refused"])
            assert "'spread' differs" in why and "is not JSON" in why
            assert f"at most {MAX_LINES:,} are read" in why
            # Bigger than the broker takes: the sender is disconnected and nothing is kept.
            bad.client.publish(result_topic("c1", "board-1", "huge"), b"{" * (MAX_MESSAGE + 1),
                               qos=1, retain=True)
            assert bad.dropped.wait(60), "the broker kept a client sending an oversize packet"
            # Every junk message is retained and comes back when the service subscribes
            # again: one refused is known by its digest, neither judged nor counted again.
            service.restart()
            began = time.monotonic()
            service.wait_for_tables({"board-2"})  # subscribed: the retained junk is queued
            good.send(result_topic("c1", "board-2", "g13"),
                      json.dumps(card(13, "board-2")).encode())
            # Board 1's new burst is refused while board 2's result is counted (each on its
            # own connection): both waited for, and the refusals read after the counters.
            status = service.wait_for(2, refused=len(first) + RESULTS_BURST)
            again = refused_topics(tmp_path / "r.db")
            most = RESULTS_BURST + (time.monotonic() - began) * RESULTS_PER_MINUTE / 60 + 1
            assert status["results"] == 2
            assert status["refused"] <= len(again) <= len(first) + most
            assert again[:len(first)] == first
            assert len(set(again)) == len(again), "a junk message was refused twice"
        finally:
            bad.close()
            good.close()
            service.stop()


def test_live_table_states_redraw_the_tables_and_never_the_standings(tmp_path: Path) -> None:
    """20 live states from a board: each is a ``tables`` note on the event stream carrying
    the board's entry (the page fetches nothing for it), never a ``standings`` one; a stored
    result is a ``standings`` note saying what changed, and the same result again (a
    duplicate: the standings do not change) is no note at all."""
    with Broker(tmp_path / "broker") as broker:
        service = Standings(tmp_path / "r.db", broker.address, club="c1")
        board = Client(broker.port)
        try:
            with httpx.stream("GET", service.url.rstrip("/") + "/events",
                              timeout=60) as stream:
                notes = _notes(stream.iter_lines())
                assert next(notes)[0] == "standings"  # the first note: draw the page
                assert next(notes) == ("tables", {"version": 0, "tables": []})
                for n in range(1, 21):
                    board.send(topic("c1", "board-2", "state"), json.dumps(
                        {"club": "c1", "board": "board-2", "game": "g1", "scores": [n, 0],
                         "shown": [n, 0], "phase": "play"}).encode())
                kinds: list[str] = []
                for kind, data in notes:  # bounded by the stream's timeout
                    kinds.append(kind)
                    if kind == "tables" and data["tables"][-1]["state"]["scores"] == [20, 0]:
                        break
                assert set(kinds) == {"tables"}, kinds
                assert data["tables"] == [{"club": "c1", "board": "board-2", "state": {
                    "club": "c1", "board": "board-2", "game": "g1", "scores": [20, 0],
                    "shown": [20, 0], "phase": "play"}}]
                sent = card(12, "board-1")
                board.send(result_topic("c1", "board-1", "g12"), json.dumps(sent).encode())
                kind, news = next(notes)
                assert kind == "standings"
                assert news == {"version": 1, "stored": "counted", "id": sent["id"],
                                "club": "c1", "night": sent["night"],
                                "round": sent["round"], "table": sent["table"]}
                board.send(result_topic("c1", "board-3", "g12"),  # the same game again
                           json.dumps(dict(sent, board="board-3")).encode())
                service.wait_for(1, duplicates=1)
                board.send(topic("c1", "board-2", "online"), b"offline")
                assert next(notes) == ("tables", {"version": 21, "tables": [
                    {"club": "c1", "board": "board-2", "online": "offline", "state": {
                        "club": "c1", "board": "board-2", "game": "g1", "scores": [20, 0],
                        "shown": [20, 0], "phase": "play"}}]})  # and no standings note
            assert service.get("/api/status")["results"] == 1
        finally:
            board.close()
            service.stop()


def _notes(lines: Iterator[str]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each note of an event stream: its kind and its data."""
    kind = ""
    for line in lines:
        if line.startswith("event: "):
            kind = line.removeprefix("event: ")
        elif line.startswith("data: ") and kind:
            yield kind, json.loads(line.removeprefix("data: "))
            kind = ""
