"""The review after the game from the players' side: on the device (the game-over screen's
menu) and on the scoreboard (``/review``), both showing the facts ``pegboard review`` lists,
worked out once by :func:`pegboard.coach.lessons.lessons`."""

from __future__ import annotations

import json
import re
import threading
from html import unescape
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from pegboard import record
from pegboard.app.game_over import REVIEW_LINE
from pegboard.app.inputs import KnobTurn
from pegboard.app.session import Session
from pegboard.app.state import GameOverScreen
from pegboard.coach.lessons import GameLessons, lessons, player_parts, worth_showing
from pegboard.coach.review import points_text
from pegboard.rules.game import Game
from pegboard.rules.value import replace
from pegboard.web.app import create_app
from pegboard.web.review import Reviews
from tests.support.app_driver import MENU, OK, App
from tests.support.games import random_game
from tests.support.hostile import crafted
from tests.support.web import record_game

SEED = 3
"""A random game with the dealt cards entered and muggins on: discards, plays and claims."""


def played() -> tuple[Game, list[str]]:
    made = random_game(SEED, dealt=True, muggins=True)
    game = Game.from_header(made.header)
    for event in made.events:
        game.push(event)
    return game, [record.dump_line(made.header), *(record.dump_line(e) for e in made.events)]


def facts(found: GameLessons, top: int) -> list[str]:
    """What every review says: each mistake's loss, who, what was done and what was better,
    then each player's totals."""
    said = [f"-{points_text(m.lost)} {found.names[m.player]} {m.kind} {m.did} {m.better}"
            for m in worth_showing(found, top)]
    return said + ["; ".join(player_parts(who)) for who in found.players]


def test_the_device_reviews_the_game_from_the_game_over_menu() -> None:
    game, _ = played()
    app = App.start()
    app.state = replace(app.state, session=Session.resume(game), screen=GameOverScreen())
    assert REVIEW_LINE not in app.view.lines  # said only to a learner (teaching on)
    session = app.state.session
    assert session is not None
    app.state = replace(app.state, session=replace(
        session, table=replace(session.table, teaching=True)))
    assert app.view.lines[-1] == REVIEW_LINE
    app.feed(MENU)
    assert app.view.lines[1] == "Review the game"
    app.feed(KnobTurn(1), OK)
    titles, pages = [], []
    while app.pages:
        titles.append(app.view.title)
        pages.append(" ".join(app.view.lines))
        app.feed(OK)
    assert isinstance(app.state.screen, GameOverScreen)  # back where the review was asked for
    found = lessons(game)
    mistakes = worth_showing(found, 5)
    assert mistakes
    assert titles == [*(f"Review {n}/{len(mistakes)}: -{points_text(m.lost)}"
                        for n, m in enumerate(mistakes, start=1)),
                      *(f"Review: {name}" for name in found.names)]
    for mistake, text in zip(mistakes, pages, strict=False):
        assert text == (f"{found.names[mistake.player]}, deal {mistake.deal_no}, "
                        f"{mistake.kind}: {mistake.did} {mistake.better}")
    assert pages[len(mistakes):] == [" ".join(player_parts(who)) for who in found.players]


def test_the_scoreboard_reviews_the_last_game_like_the_command(tmp_path: Path) -> None:
    game, lines = played()
    store = tmp_path / "store"
    record_game(store, lines)
    with TestClient(create_app(store)) as client:
        assert 'href="/review"' in client.get("/").text
        page = client.get("/review")
        assert page.status_code == 200
        rows = re.findall(r"<tr><td>(.*?)</td><td>\d+</td><td>\d+</td><td>(.*?)</td>"
                          r"<td>(.*?)</td><td>(.*?)</td><td>(.*?)</td></tr>", page.text)
        items = re.findall(r"<li><strong>.*?</strong>: (.*?)</li>", page.text)
        shown = [unescape(" ".join(row)) for row in rows] + [unescape(i) for i in items]
        assert shown == facts(lessons(game), 10)
        assert client.get("/review/no-such-game").status_code == 404
        assert client.get("/review/..%2Fetc").status_code == 404


def test_the_scoreboard_says_when_there_is_no_game_to_review(tmp_path: Path) -> None:
    store = tmp_path / "store"
    store.mkdir()
    with TestClient(create_app(store)) as client:
        page = client.get("/review")
        assert page.status_code == 404 and "no game has been finished yet" in page.text


def test_a_record_no_reader_accepts_is_a_404_saying_why_and_the_rest_still_works(
        tmp_path: Path) -> None:
    """A finished game whose history file holds a line the engine refuses (an own count
    with no count held: written by no Pegboard, the store checks every line it takes) is
    answered with the reader's message; the page, the games and another review go on."""
    _, lines = played()
    store = tmp_path / "store"
    record_game(store, lines)
    kept = next((store / "history").glob("*.log"))
    record_game(store, lines)
    log = kept.read_bytes().split(b"\n")
    entry = json.loads(log[5].split(b" ", 1)[1])
    entry["record"] = {"type": "own_count", "player": 0, "points": 3}
    log[5] = crafted(json.dumps(entry)).rstrip(b"\n")
    kept.write_bytes(b"\n".join(log))
    with TestClient(create_app(store), raise_server_exceptions=False) as client:
        for _ in range(2):  # the same answer again: nothing half made is kept
            page = client.get(f"/review/{kept.stem}")
            assert page.status_code == 404, page.text
            assert (f"store game {kept.stem}: line 6: no count is waiting for its owner"
                    in unescape(page.text))
        assert client.head(f"/review/{kept.stem}").status_code == 404
        assert client.get("/").status_code == 200
        listed = client.get("/api/games").json()["games"]
        others = [g["id"] for g in listed if g["id"] != kept.stem]
        assert others and client.get(f"/review/{others[0]}").status_code == 200


def test_a_review_asked_for_by_many_at_once_is_made_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Four asks of one game's review at once (a burst of reloads, a client's many
    connections) make it once: the others wait for it and take the page made."""
    _, lines = played()
    store = tmp_path / "store"
    record_game(store, lines)
    made = threading.Semaphore(0)
    go_on = threading.Event()
    calls: list[int] = []

    def slow_lessons(game: Game) -> GameLessons:
        calls.append(1)
        made.release()
        assert go_on.wait(timeout=60)
        return lessons(game)

    monkeypatch.setattr("pegboard.coach.lessons.lessons", slow_lessons)
    reviews = Reviews(store)
    pages: list[str] = []
    askers = [threading.Thread(target=lambda: pages.append(reviews.page(None)))
              for _ in range(4)]
    for asker in askers:
        asker.start()
    assert made.acquire(timeout=60)  # the first is making it
    go_on.set()
    for asker in askers:
        asker.join(timeout=60)
    assert len(pages) == 4 and len(set(pages)) == 1
    assert calls == [1]
