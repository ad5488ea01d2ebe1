"""The standings page's answers, made once per version of the results from one database
connection (docs/club.md, "The standings service"): many pages asking for the same answer
cost one query and one JSON encoding; a standings note or any other write makes it again;
pages asking at once wait for the one being made; and ``/api/page`` holds everything a
page's redraw needs in one answer."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from pegboard.club import page
from pegboard.club.heal import open_results
from pegboard.club.page import CACHED, Answer, Answers, Notes, create_app
from pegboard.club.results import connect, store_result
from tests.test_club_exports import card


def results_db(tmp_path: Path) -> Path:
    path = tmp_path / "results.db"
    db = connect(path)
    store_result(db, card(21, ("101", "102")))
    db.close()
    return path


def test_answers_are_made_once_per_version_from_one_connection(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = results_db(tmp_path)
    opened: list[Path] = []
    real = open_results

    def counting(at: Path, **kwargs: Any) -> sqlite3.Connection:
        opened.append(at)
        return real(at, **kwargs)

    monkeypatch.setattr(page, "open_results", counting)
    notes = Notes()
    app = create_app(path, notes, hosts=None, start=lambda: None, stop=lambda: None)
    answers: Answers = app.state.answers
    with TestClient(app) as client:
        first = [client.get("/api/page").json() for _ in range(20)]
        assert answers.made == 1 and all(one == first[0] for one in first)
        assert first[0]["night"] == 1 and len(first[0]["season"]) == 2
        assert {"status", "tonight", "season", "specials", "seating", "queue"} <= set(first[0])
        # Another game stored (by the subscriber's own connection): the cached answer is
        # given until the subscriber's note, then made again with it.
        db = connect(path)
        store_result(db, card(22, ("103", "104")))
        db.close()
        assert len(client.get("/api/page").json()["season"]) == 2
        notes.changed({"stored": "counted"})
        after = client.get("/api/page").json()
        assert len(after["season"]) == 4 and len(after["tonight"]) == 4 and answers.made == 2
        for _ in range(5):
            assert client.get("/api/standings").status_code == 200
        assert answers.made == 3  # another route is another answer, made once
        notes.written()  # a refusal or a duplicate: no note, but the counts moved
        client.get("/api/page")
        assert answers.made == 4
        assert client.get("/api/page?night=2").json()["night"] == 2
        assert answers.made == 5
        assert client.get("/api/page?night=x").status_code == 400
        assert client.get("/api/page?night=x").status_code == 400
        assert answers.made == 7  # a refusal is never kept
    assert opened == [path]  # one connection, for every answer


def test_pages_asking_at_once_wait_for_the_one_answer_being_made(tmp_path: Path) -> None:
    answers = Answers(results_db(tmp_path), Notes())
    made: list[int] = []

    def make(db: sqlite3.Connection) -> Answer:
        made.append(1)
        count = db.execute("SELECT COUNT(*) FROM result").fetchone()[0]
        return Answer(200, str(count).encode(), "text/plain")

    async def many() -> list[Answer]:
        return await asyncio.gather(*(answers.get("/api/page?", make) for _ in range(50)))

    got = asyncio.run(many())
    answers.close()
    assert len(made) == 1 and {a.body for a in got} == {b"1"}


def test_the_cache_holds_at_most_its_share_of_queries(tmp_path: Path) -> None:
    answers = Answers(results_db(tmp_path), Notes())

    def make(db: sqlite3.Connection) -> Answer:
        return Answer(200, b"", "text/plain")

    async def each() -> None:
        for n in range(CACHED + 50):
            await answers.get(f"/api/standings?night={n}", make)

    asyncio.run(each())
    answers.close()
    assert len(answers._kept) == CACHED
