"""Count it yourself as a recorded fact, from the players' side: the owner's count is an
``own_count`` line; the LAN page (following the store) and a table resumed after a power cut
hold a count until its owner's line is in."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from pegboard.app.inputs import KnobTurn
from pegboard.app.machine import initial_state
from pegboard.app.state import OwnCount
from pegboard.coach.lessons import lessons
from pegboard.commands.replay import replay
from pegboard.config import Config
from pegboard.errors import RuleError
from pegboard.record import read_game
from pegboard.rules.events import OwnCount as OwnCountEntry
from pegboard.rules.facts import ClaimOutcome, Counted, CountSaid
from pegboard.web.app import create_app
from tests.support.app_driver import OK, App
from tests.support.web import ScriptedGame
from tests.test_app_own_count import own_count_game
from tests.test_app_teaching import play_to_the_last_card


def to_own_count(app: App) -> App:
    """Read every page up to the owner's count screen."""
    while not isinstance(app.state.screen, OwnCount):
        app.feed(OK)
    return app


@pytest.fixture(scope="module")
def played() -> tuple[list[str], list[str], list[str]]:
    """The record at three moments of one count-it-yourself show: the play just ended (both
    hands pegged, neither owner's count in), P2's own count in, P1's own count in."""
    app = own_count_game()
    play_to_the_last_card(app)
    to_own_count(app)
    ended = list(app.record)
    app.feed(KnobTurn(3), OK)  # P2 says 3 for a hand of 4
    p2 = list(app.record)
    to_own_count(app).feed(KnobTurn(7), OK)  # P1 says 7: all found
    return ended, p2, list(app.record)


def test_the_owners_count_is_a_record_line_the_engine_reports(
        played: tuple[list[str], list[str], list[str]]) -> None:
    ended, p2, p1 = played
    assert not [line for line in ended if "own_count" in line]
    assert [json.loads(line) for line in p2[len(ended):]] == [
        {"type": "own_count", "player": 1, "points": 3}]
    assert [json.loads(line) for line in p1[len(p2):]] == [
        {"type": "own_count", "player": 0, "points": 7}]
    game = read_game(p2)
    assert game.report is not None
    assert game.report.facts == (CountSaid(1, Counted.HAND, 3, 4),)
    assert [(held.player, held.points) for held in game.state.held_counts] == [(0, 7)]
    assert read_game(ended).state.scores == game.state.scores  # it never changes a score
    with pytest.raises(RuleError, match="P1 counts their hand first, not P2"):
        game.push(OwnCountEntry(1, 7))
    done = read_game(p1)
    assert done.state.held_counts == ()
    with pytest.raises(RuleError, match="no count is waiting"):
        done.push(OwnCountEntry(0, 7))


def lan_page(store: Path, lines: list[str]) -> tuple[dict[str, Any], str]:
    """The LAN page's game object (as its event stream sends it) and the page's HTML, with
    ``lines`` written into a real store."""
    game = ScriptedGame(store, lines)
    game.play_to(len(lines))
    try:
        app = create_app(store)
        with TestClient(app) as client:
            app.state.hub.refresh()
            answer = client.get("/api/game")
            assert answer.status_code == 200
            data = answer.json()["game"]
            return data, answer.text + client.get("/").text
    finally:
        game.close()


def test_the_lan_page_holds_each_count_until_its_owner_has_said_theirs(
        tmp_path: Path, played: tuple[list[str], list[str], list[str]]) -> None:
    ended, p2, p1 = played
    before = read_game(ended).state.held_counts[0]
    data, text = lan_page(tmp_path / "ended", ended)
    assert data["scores"] == data["shown"] == list(before.scores)
    assert data["scores"] != list(read_game(ended).state.scores)
    assert data["show"] == []
    assert data["doing"] == "Waiting for P2's own count: hand — deal 1"
    assert "Hand for" not in text and "hand: 4" not in text and "hand: 7" not in text
    data, text = lan_page(tmp_path / "p2", p2)
    assert [count["title"] for count in data["show"]] == ["P2's hand: 4"]
    assert "hand: 7" not in text and "P1: Hand for" not in text
    assert data["doing"] == "Waiting for P1's own count: hand — deal 1"
    data, _ = lan_page(tmp_path / "p1", p1)
    assert [count["title"] for count in data["show"]] == ["P2's hand: 4", "P1's hand: 7"]
    assert data["scores"] == list(read_game(p1).state.scores)
    assert data["doing"] == "P1 counts the crib — deal 1"


def test_a_power_cut_before_the_owners_count_asks_for_it_again(
        played: tuple[list[str], list[str], list[str]]) -> None:
    ended, p2, _ = played
    app = App(initial_state(Config(), resume=ended))
    held = read_game(ended).state.held_counts[0]
    assert app.pages[0].title == "Game restored"
    assert tuple(side.score for side in app.view.sides) == held.scores
    assert app.view.lines[0] == "  ".join(
        f"P{side + 1} {score}" for side, score in enumerate(held.scores))
    app.feed(OK)
    assert isinstance(app.state.screen, OwnCount)
    assert app.view.title == "P2, count your hand"
    assert tuple(side.score for side in app.view.sides) == held.scores
    resumed = App(initial_state(Config(), resume=p2)).feed(OK)
    assert resumed.view.title == "P1, count your hand"  # P2's count is not asked again
    resumed.feed(OK)  # P1 says 0
    assert json.loads(resumed.record[-1]) == {"type": "own_count", "player": 0, "points": 0}
    assert (resumed.view.title, resumed.view.lines[0]) == ("P1's hand: 7", "said 0")


def test_the_review_and_replay_tell_each_owners_own_count(
        played: tuple[list[str], list[str], list[str]]) -> None:
    _, _, p1 = played
    found = lessons(read_game(p1))
    p1_counts, p2_counts = (player.counting for player in found.players)
    assert (p2_counts.closed[ClaimOutcome.UNDER], p2_counts.missed) == (1, 1)  # 3 of 4
    assert (p1_counts.closed[ClaimOutcome.EXACT], p1_counts.claims) == (1, 1)  # 7 of 7
    out = StringIO()
    replay(p1, out)
    said = [line.strip() for line in out.getvalue().splitlines() if "counted their" in line]
    assert said == ["(P2 counted their hand: said three of four)",
                    "(P1 counted their hand: said seven of seven)"]
