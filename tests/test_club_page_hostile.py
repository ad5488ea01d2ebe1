"""The standings service's routes against a hostile LAN: a night or club in the query that no
night or club can be is refused with 400 naming it (never a 500, never read as another
night), a results database that is not one is moved aside and made anew with a notice,
and nothing but GET and HEAD is answered."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from pegboard.club.page import Notes, create_app
from pegboard.club.results import KEEP_REFUSED, connect, counters, refuse, store_result
from tests.test_club_exports import card

ROUTES = ("/api/standings", "/api/specials", "/export/scorecards.csv", "/export/night.csv")


def service(db: Path) -> TestClient:
    return TestClient(create_app(db, Notes(), hosts=None, start=lambda: None,
                                 stop=lambda: None), raise_server_exceptions=False)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db_path = tmp_path_factory.mktemp("club") / "results.db"
    db = connect(db_path)
    store_result(db, card(21, ("101", "102")))
    db.close()
    with service(db_path) as opened:
        yield opened


@pytest.mark.parametrize("night", [
    "%C2%B2",  # "²": a digit to str.isdigit(), not to int()
    "%D9%A1",  # "١", an Arabic-Indic one: no night is written so
    "%EF%BC%91",  # "１", a fullwidth one
    "99999", "0", "-1", "1.5", "%FF", "9" * 400])
@pytest.mark.parametrize("route", ROUTES)
def test_a_night_no_night_can_be_is_refused_naming_it(client: TestClient, route: str,
                                                      night: str) -> None:
    answer = client.get(f"{route}?night={night}")
    assert answer.status_code == 400, answer.text
    assert "give a night number from 1 to 9999" in answer.json()["error"]


@pytest.mark.parametrize("club", ["%00", "..%2F", "a" * 33, "caf%C3%A9"])
def test_a_club_no_club_can_be_is_refused_naming_it(client: TestClient, club: str) -> None:
    for route in ("/api/standings", "/api/specials"):
        answer = client.get(f"{route}?club={club}")
        assert answer.status_code == 400, answer.text
        assert answer.json()["error"].startswith("the club ")


def test_the_right_night_is_answered_and_only_get_and_head(client: TestClient) -> None:
    assert client.get("/api/standings?night=1").json()["night"] == 1
    assert client.head("/api/standings").status_code == 200
    for method in ("POST", "PUT", "DELETE"):
        assert client.request(method, "/api/standings").status_code == 405


def test_a_file_that_is_not_a_database_is_kept_aside_and_the_page_answers_with_a_notice(
        tmp_path: Path) -> None:
    """No route answers 500 or 503 for a damaged database: the file is moved aside (kept,
    named in the notice), a new one made (from the journal: here there is none, so the
    results come again from the broker), and every route answers, the standings with the
    notice."""
    broken = tmp_path / "results.db"
    broken.write_bytes(b"not a database " * 100)
    with service(broken) as opened:
        for route in (*ROUTES, "/api/status", "/api/refused"):
            answer = opened.get(route)
            assert answer.status_code == 200, (route, answer.text)
        notice = opened.get("/api/standings").json()["notice"]
        [aside] = tmp_path.glob("results.db.damaged-*")
        assert f"kept as {aside.name}" in notice and "there was no journal" in notice
        assert aside.read_bytes() == b"not a database " * 100
        assert len(opened.get("/api/status").json()["healed"]) == 1
        assert opened.get("/").status_code == 200
        assert opened.get("/api/tables").json() == {"tables": []}


def test_a_flood_of_refused_messages_keeps_the_newest_and_counts_them_all(
        tmp_path: Path) -> None:
    db = connect(tmp_path / "results.db")
    for n in range(KEEP_REFUSED + 50):
        refuse(db, "pegboard/c1/board/b1/result/g1", f"refusal {n}", now=float(n))
    kept = [row["why"] for row in db.execute("SELECT why FROM refused ORDER BY rowid")]
    assert len(kept) == KEEP_REFUSED
    assert kept[0] == "refusal 50" and kept[-1] == f"refusal {KEEP_REFUSED + 49}"
    assert counters(db)["refused"] == KEEP_REFUSED + 50
    db.close()
