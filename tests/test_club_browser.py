"""The club standings page in a real browser: Debian's Chromium, driven by Playwright, against
``pegboard club serve`` fed by a board's ``club publish`` through a real mosquitto on a
loopback port.

One broker, one standings service, one board and one browser for the module. The page is
opened before any result exists; each game the board then confirms reaches the open page over
its event stream (no reload), and the standings it shows are in ACC order, as computed
independently of the engine from the virtual tables' scores. axe-core (the copy shipped in
axe-playwright-python, so no network) finds no serious or critical violation on the page or
its big-screen view. Waiting is on the page's own text, never a sleep.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page

from pegboard.rules.game import Game
from pegboard.store import Store
from tests.support.club import Played, Publisher, Standings, expected_standings, write_club_game
from tests.support.games import random_game
from tests.support.mosquitto import Broker
from tests.support.web import SHOWN_WITHIN_MS, chromium

CHROMIUM = chromium()
pytestmark = pytest.mark.skipif(CHROMIUM is None,
                                reason="needs chromium (`make test` installs it)")

"""The longest the test waits for a result to reach the page (board, broker, service, event
stream, page): a page that stops following fails, a busy machine does not (how soon it shows
one is the club bench's figure, docs/club.md)."""
BLOCKING = ("serious", "critical")
NIGHT = 4
GAMES = ((11, ("101", "102"), ()), (12, ("103", "104"), ()), (13, ("101", "199"), (1,)))
"""Each game the board plays tonight: its seed, its seats' member numbers and its guests' seats
(199, a guest, is not on the roster: the page flags it for the director)."""
ROSTER = "member,name,guest\n101,Ann Lee\n102,Ben Cho\n103,Cy Diaz\n104,Di Eng,guest\n"


@dataclass
class Night:
    """The running club night and the page opened on it."""

    store: Store
    standings: Standings
    page: Page
    played: list[Played]


@pytest.fixture(scope="module")
def night(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Night]:
    home = tmp_path_factory.mktemp("club-page")
    (home / "members.csv").write_text(ROSTER, encoding="utf-8")
    store = Store(home / "board-1", owner="board")
    with Broker(home / "broker") as broker:
        standings = Standings(home / "results.db", broker.address,
                              members=home / "members.csv")
        publisher = Publisher(home / "board-1", broker.address, "board-1")
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        try:
            yield Night(store, standings, page, [])
        finally:
            page.close()
            publisher.stop()
            standings.stop()
            store.close()


def counted(page: Page, results: int) -> None:
    """Wait until the page says ``results`` results are stored."""
    page.wait_for_function("n => document.getElementById('counts').textContent"
                           ".startsWith(n + ' results')", arg=results, timeout=SHOWN_WITHIN_MS)


def tonight(page: Page) -> list[tuple[str, int, int, int]]:
    """(member, game points, wins, spread) of each row of the page's "Tonight" table."""
    rows = page.locator("#tonight tr").all()[1:]  # the first is the heading
    shown = []
    for row in rows:
        _, member, _, points, wins, _, spread = row.locator("td").all_text_contents()
        shown.append((member, int(points), int(wins), int(spread)))
    return shown


def confirm_next(night: Night) -> int:
    """The board's next game of :data:`GAMES` played and confirmed; how many are."""
    seed, members, guests = GAMES[len(night.played)]
    round_ = len(night.played) + 1
    night.played.append(write_club_game(night.store, seed, night=NIGHT, round_=round_,
                                        table=1, members=members, guests=guests))
    return len(night.played)


def test_each_confirmed_game_reaches_the_open_page_in_acc_order(night: Night) -> None:
    page = night.page
    page.goto(night.standings.url)
    counted(page, len(night.played))
    page.evaluate("window.openedOnce = true")  # gone if the page were loaded again
    while len(night.played) < len(GAMES):
        counted(page, confirm_next(night))
        assert tonight(page) == expected_standings(night.played, NIGHT)
    assert page.evaluate("window.openedOnce") is True
    assert page.locator("#night").text_content() == f"Night {NIGHT}"
    names = page.locator("#tonight td:nth-child(3)").all_text_contents()
    assert set(names) == {"Ann Lee", "Ben Cho", "Cy Diaz", "Di Eng", "P199"}  # the roster's
    flagged = page.locator("#tonight tr.unknown td:nth-child(2)").all_text_contents()
    assert flagged == ["199"]  # a guest too, and still flagged
    guests = page.locator("#tonight tr.guest td:nth-child(2)").all_text_contents()
    assert sorted(guests) == ["104", "199"]  # the roster's guest, and the scorecard's


@pytest.mark.parametrize("query", ["", "?big=1"], ids=["page", "big-screen"])
def test_the_page_has_no_serious_accessibility_violation(night: Night, query: str) -> None:
    while len(night.played) < len(GAMES):  # (when run alone)
        confirm_next(night)
    page = night.page
    page.goto(night.standings.url + query)
    counted(page, len(night.played))
    if query:  # the room's view: tonight only, big
        assert "big" in (page.locator("body").get_attribute("class") or "")
        assert not page.locator("#season").is_visible()
    violations = [v for v in Axe().run(page).response["violations"] if v["impact"] in BLOCKING]
    assert violations == [], [(v["id"], [n["target"] for n in v["nodes"]]) for v in violations]


def test_a_boards_game_that_ended_past_the_target_reads_the_target(night: Night) -> None:
    """The "Tables" row of a board whose last game went past 121 shows the board as the
    engine showed it at the end: the winner at 121, never the record's total."""
    while len(night.played) < len(GAMES):  # (when run alone)
        confirm_next(night)
    seed = GAMES[-1][0]
    played = random_game(seed)
    game = Game.from_header(played.header)
    for event in played.events:
        game.push(event)
    over = game.report.game_over if game.report is not None else None
    assert over is not None and max(over.scores) > 121  # the case in question
    page = night.page
    page.goto(night.standings.url)
    counted(page, len(night.played))
    expected = " – ".join(str(score) for score in over.shown)
    page.wait_for_function("text => [...document.querySelectorAll('#live td')].some("
                           "cell => cell.textContent === text)", arg=expected,
                           timeout=SHOWN_WITHIN_MS)
    cells = page.locator("#live td:nth-child(3)").all_text_contents()
    assert cells == [expected]
    assert all(int(score) <= 121 for cell in cells for score in cell.split(" – "))


def test_a_held_result_shows_in_the_directors_queue_without_a_reload(night: Night) -> None:
    """A game whose member already has a game counted in its round waits for the director:
    the open page shows it in the director's queue from its event stream, unreloaded."""
    while len(night.played) < len(GAMES):  # (when run alone)
        confirm_next(night)
    page = night.page
    page.goto(night.standings.url)
    counted(page, len(night.played))
    page.evaluate("window.openedOnce = true")
    assert page.locator("#queue tr").count() == 1  # the heading alone
    write_club_game(night.store, 14, night=NIGHT, round_=1, table=2, members=("101", "103"))
    page.wait_for_function("() => document.querySelectorAll('#queue tr').length === 2",
                           timeout=SHOWN_WITHIN_MS)
    cells = page.locator("#queue tr td").all_text_contents()
    assert cells[:4] == [str(NIGHT), "1", "2", "101 v 103"]
    assert cells[5].startswith("member 101 already has a game counted in round 1")
    assert page.evaluate("window.openedOnce") is True
    counted(page, len(night.played))  # and it counts for nothing


def test_a_damaged_results_database_heals_and_the_open_page_says_so_once(
        night: Night) -> None:
    """The results database overwritten in place while the page is open; the board's next
    game finds it damaged: the database is rebuilt from its journal, the game counted on
    it, and the open page (unreloaded) shows the standings with every game, in ACC order,
    and one notice above them naming the damaged file kept aside."""
    while len(night.played) < len(GAMES):  # (when run alone)
        confirm_next(night)
    page = night.page
    page.goto(night.standings.url)
    counted(page, len(night.played))
    page.evaluate("window.openedOnce = true")
    notice = page.locator("#notice")
    assert notice.text_content() == "" and not notice.is_visible()
    db = Path(night.standings.args[night.standings.args.index("--db") + 1])
    for path in db.parent.glob(db.name + "*"):
        path.write_bytes(b"not a database " * 400)  # in place: the very files in use
    night.played.append(write_club_game(night.store, 15, night=NIGHT, round_=len(GAMES) + 1,
                                        table=1, members=("102", "103")))
    counted(page, len(night.played))
    page.wait_for_function("() => document.getElementById('notice').textContent"
                           ".includes('was damaged')", timeout=SHOWN_WITHIN_MS)
    assert tonight(page) == expected_standings(night.played, NIGHT) and notice.is_visible()
    [aside] = db.parent.glob(db.name + ".damaged-*[0-9Z]")
    assert f"kept as {aside.name}" in (notice.text_content() or "")
    assert page.evaluate("window.openedOnce") is True
