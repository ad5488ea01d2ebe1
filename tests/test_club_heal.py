"""A damaged results database heals: moved aside, rebuilt from its journal, one notice.

Real files and SQLite: a night with results counted, corrected and held, the director's
acts (an adjustment, an accept, a void), a seating and a roster, all through the journal;
then the database damaged by overwriting bytes (bit rot in the results' table, or the whole
file overwritten while the page runs). The rebuilt night equals the night before: the
standings, the season, the audit, the director's queue and acts, the counters. Against a
real mosquitto with TLS too: damage while the service runs loses nothing acknowledged.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from pegboard.club import heal as heal_module
from pegboard.club import journal as journal_module
from pegboard.club import page as page_module
from pegboard.club.budget import Budget
from pegboard.club.heal import at_start, open_results
from pegboard.club.journal import base_path, journal_of, journal_path, read_journal
from pegboard.club.page import Notes, create_app
from pegboard.club.results import (
    Act,
    Stored,
    act,
    acts,
    audit,
    connect,
    counters,
    healed,
    load_members,
    queue,
    save_seating,
    saved_seating,
    store_result,
)
from pegboard.club.scorecard import key_of
from pegboard.club.seating import to_json
from pegboard.club.service import Subscriber
from pegboard.club.standings import adjusted, season, standings
from pegboard.club.topics import result_topic
from pegboard.errors import ClubError
from tests.support.stores import rot_table
from tests.test_club_broker import Client
from tests.test_club_broker import card as broker_card
from tests.test_club_director import SEATING, card
from tests.test_club_fair import Clock, Club, running


@pytest.fixture(autouse=True)
def fresh_journals() -> Iterator[None]:
    """Each test's databases are checked afresh (the journals of a process are kept)."""
    yield
    journal_module._JOURNALS.clear()


def night(db: sqlite3.Connection, members: Path) -> None:
    """A night of everything the database keeps: a roster, a seating, results counted and
    held, and each of the director's acts."""
    load_members(db, members)
    save_seating(db, to_json(SEATING), source="s1", director="Dee", reason="--seating",
                 night=1)
    first = card(1, ("101", "102"), 1)
    assert store_result(db, first, seating=SEATING) is Stored.COUNTED
    assert store_result(db, card(2, ("103", "101"), 2), seating=SEATING) is Stored.HELD
    assert store_result(db, card(3, ("103", "104"), 2), seating=SEATING) is Stored.COUNTED
    assert store_result(db, card(4, ("101", "104"), 5, board="b5")) is Stored.HELD
    assert store_result(db, card(3, ("103", "104"), 2), seating=SEATING) is Stored.DUPLICATE
    key, revision = key_of(first)
    act(db, Act.ADJUST, key, revision, director="Dee", reason="miscount on the board",
        scores=[121, 92], seating=SEATING)
    held = queue(db)
    act(db, Act.ACCEPT, held[0]["id"], held[0]["revision"], director="Dee",
        reason="the seating was read wrong", seating=SEATING)
    act(db, Act.VOID, held[1]["id"], held[1]["revision"], director="Dee",
        reason="played in the wrong round", seating=SEATING)


def picture(db: sqlite3.Connection) -> dict[str, Any]:
    """Everything the page and the exports show of the night."""
    return {"tonight": standings(db, 1), "all": standings(db), "season": season(db, None),
            "audit": audit(db),
            "queue": queue(db), "acts": acts(db), "counters": counters(db),
            "adjusted": adjusted(db, 1), "seating": saved_seating(db),
            "members": [tuple(row) for row in db.execute("SELECT * FROM member ORDER BY 1")]}


def healed_at_start(path: Path, before: dict[str, Any]) -> list[str]:
    """The service started over ``path``: its results as ``before`` (``picture``); what it
    said as it started."""
    said: list[str] = []
    db = at_start(path, said.append)
    try:
        assert picture(db) == before
    finally:
        db.close()
    return said


def members_file(folder: Path) -> Path:
    """A roster of the night's four players (one a guest)."""
    path = folder / "members.csv"
    path.write_text("member,name\n101,Ann\n102,Ben\n103,Cy\n104,Di,guest\n", encoding="utf-8")
    return path


@pytest.fixture
def members(tmp_path: Path) -> Path:
    return members_file(tmp_path)


def kept_night(tmp_path: Path, members: Path) -> tuple[Path, dict[str, Any]]:
    """A night kept through the journal, every connection closed (the log checkpointed);
    the database and what it shows."""
    path = tmp_path / "r.db"
    db = open_results(path)
    night(db, members)
    before = picture(db)
    assert before["tonight"] and before["acts"] and before["counters"]["voided"] == 1
    db.close()
    journal_module._JOURNALS.clear()
    assert not path.with_name("r.db-wal").exists()
    return path, before


def test_bit_rot_found_at_start_is_rebuilt_with_the_night_as_it_was(
        tmp_path: Path, members: Path) -> None:
    path, before = kept_night(tmp_path, members)
    original = path.read_bytes()
    rot_table(path, "result")
    said: list[str] = []
    db = at_start(path, said.append)
    try:
        assert picture(db) == before
        [notice] = said
        [aside] = tmp_path.glob("r.db.damaged-*")
        assert aside.name in notice and "r.db was damaged" in notice
        assert aside.read_bytes() != original and len(aside.read_bytes()) == len(original)
        assert [h["moved"] for h in healed(db)] == [str(aside)]
    finally:
        db.close()
    journal_module._JOURNALS.clear()
    again: list[str] = []
    at_start(path, again.append).close()  # whole now: nothing to say
    assert again == []


def test_damage_while_the_page_runs_heals_with_one_notice_and_the_same_standings(
        tmp_path: Path, members: Path) -> None:
    path, before = kept_night(tmp_path, members)
    app = create_app(path, Notes(), hosts=None, start=lambda: None, stop=lambda: None)
    with TestClient(app, raise_server_exceptions=False) as client:
        shown = client.get("/api/standings?night=1").json()
        assert shown["players"] == before["tonight"] and shown["notice"] == ""
        for name in ("r.db", "r.db-wal", "r.db-shm"):
            if (tmp_path / name).exists():  # in place: the very files the page has open
                (tmp_path / name).write_bytes(os.urandom(4096) * 8)
        answers = [client.get(route) for route in (
            "/api/standings", "/api/standings?night=1", "/api/queue", "/api/status",
            "/api/page")]
        assert [a.status_code for a in answers] == [200] * 5, [a.text for a in answers]
        assert answers[0].json()["players"] == before["all"]
        assert answers[1].json()["players"] == before["tonight"]
        assert answers[2].json() == {"queue": before["queue"], "acts": before["acts"]}
        notice = answers[1].json()["notice"]
        assert "r.db was damaged" in notice and "kept as r.db.damaged-" in notice
        assert answers[4].json()["notice"] == notice
        assert len(answers[3].json()["healed"]) == 1  # one rebuild, however many asked
    db = connect(path)
    try:
        assert picture(db) == before
    finally:
        db.close()


def test_a_torn_journal_tail_is_cut_off_and_the_rest_rebuilds(
        tmp_path: Path, members: Path) -> None:
    path, before = kept_night(tmp_path, members)
    journal = journal_path(path)
    whole = journal.read_bytes()
    with journal.open("ab") as file:  # a power cut in the middle of the next write
        file.write(b'0badc0de {"seq": 99, "kind": "act", "id": "x')
    rot_table(path, "line")
    said = healed_at_start(path, before)
    assert len(said) == 2 and said[0].startswith("cut off an unfinished write at the end of")
    assert journal.read_bytes().startswith(whole)  # the notice of the rebuild follows
    assert read_journal(journal.read_bytes()).torn == 0


def test_a_write_synced_to_the_journal_but_not_committed_is_made_at_start(
        tmp_path: Path, members: Path) -> None:
    """A stop between the journal's sync and the database's commit: the entry is made when
    the service starts again, so the database never lacks what the journal holds."""
    path, before = kept_night(tmp_path, members)
    late = card(5, ("103", "104"), 3)
    db = open_results(path)
    try:
        found = journal_of(path)
        found.append("result", {"card": late, "points": "acc", "seating": None,
                                "bye": "win", "seating_night": None, "misplaced": ""},
                     generation=found.generation, now=2e9)
    finally:
        db.close()
    journal_module._JOURNALS.clear()
    said: list[str] = []
    db = at_start(path, said.append)
    try:
        assert counters(db)["held"] == before["counters"]["held"] + 1  # its round is full
        assert [row["revision"] for row in audit(db)] == [
            *(row["revision"] for row in before["audit"]), key_of(late)[1]]
    finally:
        db.close()
    assert len(said) == 1 and "1 journal entry behind" in said[0]


def test_a_database_from_before_the_journal_starts_one_from_a_copy_and_heals(
        tmp_path: Path, members: Path) -> None:
    path = tmp_path / "r.db"
    db = connect(path)  # no journal: a database from before it
    night(db, members)
    before = picture(db)
    db.close()
    db = open_results(path)
    db.close()
    assert base_path(path).exists()
    journal_module._JOURNALS.clear()
    rot_table(path, "revision")
    said = healed_at_start(path, before)
    assert len(said) == 1 and "rebuilt from r.journal" in said[0]


def test_a_journal_damaged_in_its_middle_is_kept_aside_and_started_afresh(
        tmp_path: Path, members: Path) -> None:
    path, before = kept_night(tmp_path, members)
    journal = journal_path(path)
    lines = journal.read_bytes().split(b"\n")
    lines[3] = lines[3][:20] + b"X" + lines[3][21:]  # bit rot: a good line follows
    journal.write_bytes(b"\n".join(lines))
    said: list[str] = []
    db = at_start(path, said.append)
    db.close()
    assert len(said) == 1 and "line 4: its checksum does not match" in said[0]
    assert list(tmp_path.glob("r.journal.damaged-*"))
    journal_module._JOURNALS.clear()
    rot_table(path, "result")  # the new journal, from a copy, rebuilds the night
    said.clear()
    db = at_start(path, said.append)
    try:
        assert picture(db) == before
        assert len(said) == 1 and "rebuilt from r.journal" in said[0]
    finally:
        db.close()


def lines(db: sqlite3.Connection, ids: set[str]) -> list[tuple[Any, ...]]:
    """The results ``ids`` as counted: each player's line, and how each was adjusted."""
    marks = ",".join("?" * len(ids))
    return [tuple(row) for row in db.execute(
        f"SELECT l.*, r.adjusted FROM line l JOIN result r ON r.id = l.result "
        f"WHERE l.result IN ({marks}) ORDER BY l.result, l.seat", sorted(ids))]


class TolerantClub(Club):
    """The broker from ``club setup`` (TLS on loopback, the passwords, the ACL), its
    service told of a rebuild too (``changed`` without a result)."""

    def counters(self) -> dict[str, int]:
        """The counters, or none (-1) while the file is damaged and not yet rebuilt."""
        try:
            return super().counters()
        except (ClubError, sqlite3.DatabaseError):
            return dict.fromkeys(("results", "waiting", "duplicates", "refused"), -1)

    def _changed(self, what: dict[str, Any]) -> None:
        with self.news:
            self.counted.append((str(what.get("id", "")), 0))
            self.news.notify_all()


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Club]:
    with running(TolerantClub(tmp_path)) as made:
        yield made


def test_damage_while_the_service_runs_loses_nothing_acknowledged(club: Club) -> None:
    """On the broker as ``club setup`` makes it: two results counted and one adjusted by the
    director, a third acknowledged and waiting for its board's budget; then the database
    overwritten in place. The next result's write finds the damage: the database is rebuilt
    from the journal (the two results and the adjustment as they were), the retained results
    are asked of the broker again (the waiting one comes again and waits again; the two
    counted are known, not counted twice), the new result is stored, and once the board's
    budget allows the waiting one is counted: nothing acknowledged is lost. The page, asked
    at the same moment, answers 200 with the acts as they were: the database is rebuilt
    once, by whichever finds the damage first."""
    clock = Clock()
    subscriber = club.subscriber(Budget(burst=2, per_minute=1, clock=clock))
    subscriber.start()
    one, two = club.board(1), club.board(2)
    app = create_app(club.db, Notes(), hosts=None, start=lambda: None, stop=lambda: None)
    with TestClient(app, raise_server_exceptions=False) as page:
        try:
            damaged(club, subscriber, one, two, page, clock)
        finally:
            one.close()
            two.close()
            subscriber.stop()


def damaged(club: Club, subscriber: Subscriber, one: Client, two: Client, page: TestClient,
            clock: Clock) -> None:
    """The steps of :func:`test_damage_while_the_service_runs_loses_nothing_acknowledged`."""
    cards = {f"g{seed}": broker_card(seed, "board-1") for seed in (11, 12, 13)}
    for game, sent in cards.items():
        one.send(result_topic("c1", "board-1", game), json.dumps(sent).encode())
    club.wait_until("two counted, one waiting", {"results": 2, "waiting": 1})
    db = open_results(club.db)  # the director's act, as the page makes it
    try:
        counted = {row["id"]: row for row in audit(db)}
        key = next(iter(counted))
        act(db, Act.ADJUST, key, counted[key]["revision"], director="Dee",
            reason="miscount", scores=[121, 100])
        before = {"lines": lines(db, set(counted)), "acts": acts(db), "audit": audit(db)}
    finally:
        db.close()
    for name in ("r.db", "r.db-wal", "r.db-shm"):
        if (club.db.parent / name).exists():
            (club.db.parent / name).write_bytes(os.urandom(4096) * 8)
    later = broker_card(21, "board-2")
    two.send(result_topic("c1", "board-2", "g21"), json.dumps(later).encode())
    asked = page.get("/api/queue?night=1")  # the page and the subscriber find it at once
    assert asked.status_code == 200 and asked.json()["acts"] == before["acts"]
    club.wait_until("the new result counted on the rebuilt database, the waiting one "
                    "waiting again", {"results": 3, "waiting": 1, "duplicates": 0})
    db = connect(club.db)
    try:
        assert audit(db)[:2] == before["audit"] and acts(db) == before["acts"]
        [rebuilt] = healed(db)  # once, whichever found the damage first
        assert "r.db was damaged" in rebuilt["said"] and Path(rebuilt["moved"]).exists()
        assert lines(db, set(counted)) == before["lines"]  # adjusted as it was
    finally:
        db.close()
    clock.now += 600.0  # board 1's budget allows its waiting card
    subscriber.nudge()
    club.wait_until("the waiting result counted", {"results": 4, "waiting": 0,
                                                   "duplicates": 0})


def test_a_damaged_journal_line_is_left_out_of_a_rebuild_and_named(
        tmp_path: Path, members: Path) -> None:
    """Bit rot in the journal's second line (the roster loaded) and in the database: the
    rebuild leaves that line out and names it, everything else as it was; the journal is
    kept aside and started afresh from the rebuilt database."""
    path, before = kept_night(tmp_path, members)
    journal = journal_path(path)
    lines = journal.read_bytes().split(b"\n")
    lines[1] = lines[1][:30] + b"#" + lines[1][31:]
    journal.write_bytes(b"\n".join(lines))
    rot_table(path, "result")
    said: list[str] = []
    db = at_start(path, said.append)
    try:
        now = picture(db)
        assert now["members"] == [] and now["audit"] == before["audit"]
        assert now["acts"] == before["acts"] and now["counters"] == before["counters"]
    finally:
        db.close()
    [notice] = said
    assert "left out (line 2: its checksum does not match);" in notice
    [aside] = tmp_path.glob("r.journal.damaged-*")
    assert aside.name in notice
    assert read_journal(journal.read_bytes()).damaged == []


def test_a_journal_that_cannot_be_written_changes_nothing_and_says_so(
        tmp_path: Path, members: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full disk under the journal: the director's act is refused naming the journal, and
    neither the database nor the journal changed (the line written in part is cut off)."""
    path, before = kept_night(tmp_path, members)
    db = open_results(path)
    journal = journal_path(path)
    size = journal.stat().st_size

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fdatasync", full)  # the journal syncs with it
    counted = next(row for row in before["audit"] if row["status"] == "counted")
    try:
        with pytest.raises(ClubError, match=r"cannot write the journal .*r\.journal: No space "
                                            "left on device; nothing was changed"):
            act(db, Act.VOID, counted["id"], counted["revision"], director="Dee",
                reason="a full disk")
        assert picture(db) == before and journal.stat().st_size == size
        monkeypatch.undo()
        act(db, Act.VOID, counted["id"], counted["revision"], director="Dee",
            reason="room again")  # the journal goes on where it was
        assert read_journal(journal.read_bytes()).damaged == []
    finally:
        db.close()


def test_an_older_copy_put_back_is_brought_up_to_date_from_the_journal(
        tmp_path: Path, members: Path) -> None:
    """The director puts back a copy of the database taken before the last act: at the
    start, the acts since are made again from the journal, said in one line."""
    path, before = kept_night(tmp_path, members)
    copy = path.read_bytes()
    db = open_results(path)
    try:
        counted = next(row for row in before["audit"] if row["status"] == "counted")
        act(db, Act.VOID, counted["id"], counted["revision"], director="Dee",
            reason="played twice")
        after = picture(db)
    finally:
        db.close()
    journal_module._JOURNALS.clear()
    path.write_bytes(copy)
    said: list[str] = []
    db = at_start(path, said.append)
    try:
        assert picture(db) == after != before
    finally:
        db.close()
    assert len(said) == 1 and "1 journal entry behind" in said[0]


def test_a_directors_act_on_a_database_that_stays_busy_is_503_naming_it(
        tmp_path: Path, members: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Not damage (a database locked past its timeout): nothing is rebuilt, and the act is
    answered 503 naming the database, never a 500."""
    path, before = kept_night(tmp_path, members)

    def locked(*args: object, **kwargs: object) -> str:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(page_module, "act", locked)
    app = create_app(path, Notes(), hosts=None, start=lambda: None, stop=lambda: None,
                     director="a director's secret", secure=True)
    counted = next(row for row in before["audit"] if row["status"] == "counted")
    with TestClient(app, raise_server_exceptions=False) as client:
        answer = client.post("/api/director", headers={
            "authorization": "Bearer a director's secret"}, json={
            "act": "void", "id": counted["id"], "revision": counted["revision"],
            "director": "Dee", "reason": "busy"})
        assert answer.status_code == 503, answer.text
        assert answer.json() == {"error": "the results database: database is locked"}
        assert client.get("/api/status").json()["healed"] == []
    assert list(tmp_path.glob("r.db.damaged-*")) == []


def test_a_long_journal_starts_afresh_from_a_copy_at_the_start_and_still_rebuilds(
        tmp_path: Path, members: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path, before = kept_night(tmp_path, members)
    monkeypatch.setattr(heal_module, "JOURNAL_MOST", 1000)  # the night's is far longer
    said: list[str] = []
    at_start(path, said.append).close()
    assert len(said) == 1 and "a new one starts from a copy of the database" in said[0]
    [old] = tmp_path.glob("r.journal.old-*")
    assert old.name in said[0] and read_journal(old.read_bytes()).entries
    assert len(read_journal(journal_path(path).read_bytes()).entries) == 1  # its begin
    journal_module._JOURNALS.clear()
    rot_table(path, "result")
    said.clear()
    db = at_start(path, said.append)  # from the copy, and the new journal
    try:
        assert picture(db) == before
    finally:
        db.close()
    assert len(said) == 1 and "r.db was damaged" in said[0]
