"""The standings page in Debian's Chromium (Playwright): the big-screen view (``?big=1``)
pages through any number of players (a night of 60 at 1920×1080, every player shown once, in
ACC order, on a page that fits the screen; the page's clock is Playwright's, moved by the
test: no sleep), and the page names a game counted by the club's game points instead of the
table's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from playwright.sync_api import Browser

from pegboard.club.results import connect, store_result
from pegboard.club.scorecard import judge
from tests.support.club import Standings
from tests.support.games import random_game
from tests.support.mosquitto import Broker
from tests.support.web import chromium
from tests.test_club_scorecard import club_records

pytestmark = pytest.mark.skipif(chromium() is None,
                                reason="needs chromium (`make test` installs it)")

PLAYERS = 60
PAGE_MS = 10_000
"""How often the big screen turns to its next page (club.js's PAGE_MS)."""
WITHIN_MS = 60_000


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
    rules = records[0].get("rules") or {}
    assert isinstance(rules, dict)
    header = {**records[0], "rules": {**rules, "game_points": "classic"}}
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


ADJUSTED = """() => {
  const line = document.querySelector('#adjusted li');
  const box = line.getBoundingClientRect();
  const marked = Array.from(document.querySelectorAll('#tonight tr.adjusted'));
  return {
    said: line.textContent, top: box.top, bottom: box.bottom, height: window.innerHeight,
    px: parseFloat(getComputedStyle(line).fontSize),
    marked: marked.map(r => [r.cells[1].textContent, r.cells[2].textContent]),
  };
}"""


def test_an_adjusted_result_is_marked_on_the_page_and_the_big_screen(
        tmp_path: Path, browser: Browser) -> None:
    """The director adjusts a counted result while the room's screen and a phone are open:
    both say which game, the board as sent and as ruled, who ruled it and why, above
    tonight's table (on the big screen within the screen, in large print), and mark its
    players' rows; the others are not marked."""
    (tmp_path / "members.csv").write_text("member,name\n101,Ann Lee\n102,Ben Cho\n",
                                          encoding="utf-8")
    secret = tmp_path / "director.password"
    secret.write_text("correct horse battery\n", encoding="utf-8")
    results = connect(tmp_path / "r.db")
    cards = []
    for seed, members in ((1, ("101", "102")), (2, ("103", "104"))):
        records, _ = club_records(seed, members=members, round_=1, table=seed)
        card = judge(records, club="club", board=f"b{seed}", game_id=f"g{seed}").card
        assert card is not None
        store_result(results, card)
        cards.append(card)
    results.close()
    first = cards[0]
    ruled = [121 if side == first["winner"] else 95 for side in range(2)]
    with Broker(tmp_path / "broker") as broker:
        service = Standings(tmp_path / "r.db", broker.address, members=tmp_path / "members.csv",
                            extra=("--director-password-file", str(secret)))
        big = browser.new_page(viewport={"width": 1920, "height": 1080})
        phone = browser.new_page(viewport={"width": 412, "height": 915})
        try:
            for page, query in ((big, "?big=1"), (phone, "")):
                page.goto(service.url + query)
                page.wait_for_function("() => document.querySelectorAll('#tonight tr')"
                                       ".length === 5", timeout=WITHIN_MS)
                assert page.locator("#adjusted li").count() == 0
                assert page.locator("#tonight tr.adjusted").count() == 0
            done = httpx.post(service.url.rstrip("/") + "/api/director", timeout=WITHIN_MS,
                              headers={"authorization": "Bearer correct horse battery"},
                              json={"act": "adjust", "id": first["id"],
                                    "revision": first["revision"], "director": "Pat",
                                    "reason": "the loser's last hand was pegged short",
                                    "scores": ruled})
            assert done.status_code == 200, done.text
            sent = "-".join(map(str, first["scores"]))
            for page in (big, phone):  # from the event stream: neither page is reloaded
                page.wait_for_function("() => document.querySelectorAll('#adjusted li')"
                                       ".length === 1", timeout=WITHIN_MS)
                shown: dict[str, Any] = page.evaluate(ADJUSTED)
                assert shown["said"] == (
                    f"\u2020 Round 1, table 1, 101 Ann Lee v 102 Ben Cho, adjusted by the "
                    f"director: {sent} adjusted to {'-'.join(map(str, ruled))}: game points "
                    f"{'2-0' if first['winner'] == 0 else '0-2'}, skunk none, spread 26 "
                    "(Pat: the loser's last hand was pegged short)")
                assert sorted(shown["marked"]) == [["101", "Ann Lee \u2020"],
                                                   ["102", "Ben Cho \u2020"]]
            on_big: dict[str, Any] = big.evaluate(ADJUSTED)
            assert on_big["top"] >= 0 and on_big["bottom"] <= on_big["height"], on_big
            assert on_big["px"] >= 24, on_big  # large print, read across the room
        finally:
            big.close()
            phone.close()
            service.stop()


def pots_night(db: Path) -> tuple[str, list[tuple[str, str]]]:
    """Night 1: member 301 wins each of its 9 rounds (a 9–0 night, each game's winner seated
    as 301), and seed 21's game (a 24 and four of a kind, both in 102's hand or crib). The
    9–0 night's member, and seed 21's pots (its hand, its member)."""
    results = connect(db)
    try:
        for round_ in range(1, 10):
            seed = 100 + round_
            winner = random_game(seed).winner
            members = ("301", f"4{round_:02}") if winner == 0 else (f"4{round_:02}", "301")
            records, _ = club_records(seed, members=members, table=1, round_=round_)
            card = judge(records, club="club", board="b1", game_id=f"g{seed}").card
            assert card is not None and card["players"][card["winner"]]["member"] == "301"
            store_result(results, card)
        records, _ = club_records(110, members=("301", "101"), table=1, round_=1, night=2)
        later = judge(records, club="club", board="b1", game_id="g110").card
        assert later is not None
        store_result(results, later)  # night 2: the season spans both nights
        records, _ = club_records(21, members=("101", "102"), table=2, round_=1)
        card = judge(records, club="club", board="b2", game_id="g21").card
        assert card is not None
        store_result(results, card)
        return "301", [(h["hand"], h["member"]) for h in card["special"]]
    finally:
        results.close()


def test_the_page_shows_the_season_and_the_nights_pots_with_who_won_each(
        tmp_path: Path, browser: Browser) -> None:
    """RULES.md's pots: a hand of 24 and four of a kind (seed 21's) and a 9–0 night, each
    with its winner, in the page's Pots table (Chromium, the page of night 1) and in
    ``pots.csv``; and the season across both nights, with season points, in the page's
    Season table as ``/api/season`` ranks it."""
    perfect, hands = pots_night(tmp_path / "r.db")
    assert sorted(pot for pot, _ in hands) == ["24", "four of a kind"]
    with Broker(tmp_path / "broker") as broker:
        service = Standings(tmp_path / "r.db", broker.address)
        page = browser.new_page()
        try:
            page.goto(service.url + "?night=1")
            page.wait_for_function("n => document.querySelectorAll('#hands tr').length === n",
                                   arg=len(hands) + 2, timeout=WITHIN_MS)
            ranked = service.get("/api/season")["players"]
            assert next(p for p in ranked if p["member"] == perfect)["nights"] == 2
            season = [tuple(row.locator("td").all_text_contents()[1:5])
                      for row in page.locator("#season tr").all()[1:]]
            assert season == [(p["member"], p["name"], str(p["season_points"]),
                               str(p["nights"])) for p in ranked]
            assert any(int(sp) > 0 for _, _, sp, _ in season)
            shown = [tuple(row.locator("td").all_text_contents())
                     for row in page.locator("#hands tr").all()[1:]]
            assert [(night, member, pot) for night, member, _, pot, _ in shown] == [
                *(("1", member, pot) for pot, member in hands), ("1", perfect, "9–0 night")]
            sheet = service.get("/export/pots.csv?night=1").splitlines()
            assert sheet[0] == "night,pot,member,name,points,counted,cards,result"
            assert [tuple(line.split(",")[:3]) for line in sheet[1:]] == [
                *(("1", pot, member) for pot, member in hands), ("1", "9-0 night", perfect)]
        finally:
            page.close()
            service.stop()
