"""The standings page in Debian's Chromium (Playwright): the big-screen view (``?big=1``)
pages through any number of players (a night of 60 at 1920×1080, every player shown once, in
ACC order, on a page that fits the screen; the page's clock is Playwright's, moved by the
test: no sleep), and the page names a game counted by the club's game points instead of the
table's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from pegboard.club.results import connect, store_result
from pegboard.club.scorecard import judge
from tests.support.club import Standings
from tests.support.mosquitto import Broker
from tests.support.web import chromium, system_chromium
from tests.test_club_scorecard import club_records

pytestmark = pytest.mark.skipif(chromium() is None,
                                reason="needs chromium (`make test` installs it)")

PLAYERS = 60
PAGE_MS = 10_000
"""How often the big screen turns to its next page (club.js's PAGE_MS)."""
WITHIN_MS = 60_000


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with system_chromium() as launched:
        yield launched


def night_of(db: Path, players: int) -> None:
    """A night of ``players`` members (201, 202, ...), each in one game at its own table."""
    results = connect(db)
    members = [str(201 + n) for n in range(players)]
    for table in range(1, players // 2 + 1):
        records, _ = club_records(table, members=(members[2 * table - 2],
                                                  members[2 * table - 1]), table=table)
        card = judge(records, club="club", board=f"b{table}", game_id=f"g{table}").card
        assert card is not None
        store_result(results, card)
    results.close()


SHOWN = """() => {
  const rows = Array.from(document.querySelectorAll('#tonight tr')).slice(1);
  const shown = rows.filter(r => !r.hidden);
  return {
    members: shown.map(r => r.cells[1].textContent),
    lowest: Math.max(...shown.map(r => r.getBoundingClientRect().bottom)),
    height: window.innerHeight,
    label: document.getElementById('page').textContent,
    rows: rows.length,
  };
}"""


def test_the_big_screen_pages_through_sixty_players(tmp_path: Path, browser: Browser) -> None:
    night_of(tmp_path / "r.db", PLAYERS)
    with Broker(tmp_path / "broker") as broker:
        service = Standings(tmp_path / "r.db", broker.address)
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        try:
            ranked = [p["member"] for p in service.get("/api/standings?night=1")["players"]]
            assert len(ranked) == PLAYERS
            page.clock.install()
            page.goto(service.url + "?big=1")
            page.wait_for_function(
                "n => document.querySelectorAll('#tonight tr').length === n + 1 && "
                "document.getElementById('page').textContent !== ''", arg=PLAYERS,
                timeout=WITHIN_MS)
            seen: list[str] = []
            labels: list[str] = []
            while True:
                shown: dict[str, Any] = page.evaluate(SHOWN)
                assert shown["rows"] == PLAYERS
                assert shown["members"], shown
                assert shown["lowest"] <= shown["height"], shown  # the whole page on screen
                if labels and shown["label"] == labels[0]:
                    assert shown["members"] == seen[: len(shown["members"])]  # round again
                    break
                labels.append(shown["label"])
                seen += shown["members"]
                assert len(labels) <= PLAYERS, labels
                page.clock.fast_forward(PAGE_MS)
            assert seen == ranked  # every player once, in ACC order
            pages = len(labels)
            assert pages >= 2
            assert labels == [f"· page {n} of {pages}" for n in range(1, pages + 1)]
        finally:
            page.close()
            service.stop()


def test_the_page_names_a_game_counted_by_the_clubs_game_points(tmp_path: Path,
                                                                browser: Browser) -> None:
    """A game played with classic game points at an ACC club: the page says it was
    rescored, and how."""
    results = connect(tmp_path / "r.db")
    records, _ = club_records(4)
    header = {**records[0], "rules": {**dict(records[0].get("rules") or {}),  # type: ignore[arg-type]
                                      "game_points": "classic"}}
    card = judge([header, *records[1:]], club="club", board="b1", game_id="g4").card
    assert card is not None
    store_result(results, card)
    results.close()
    with Broker(tmp_path / "broker") as broker:
        service = Standings(tmp_path / "r.db", broker.address)
        page = browser.new_page()
        try:
            page.goto(service.url)
            page.wait_for_function("() => document.querySelectorAll('#rescored li').length",
                                   timeout=WITHIN_MS)
            said = page.locator("#rescored li").all_text_contents()
            assert len(said) == 1 and said[0].startswith(
                "Rescored: b1:g4 (round 5, table 5) played with classic game points")
            assert "counted with the club's acc" in said[0]
        finally:
            page.close()
            service.stop()
