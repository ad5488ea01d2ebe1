"""The scoreboard renders the engine's facts: what the table does next is the last entry's
``Turn``, the last score is that entry's scoring acts one by one, the show is the engine's
show steps, a muggins claim is shown as awaited without its count, and the race is the
``Turn`` scores at each deal's end. Each case is a moment of an example record."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pegboard.web.follow import Follower
from pegboard.web.snapshot import game_json
from tests.support.web import EXAMPLES, ScriptedGame


def record(name: str) -> list[str]:
    return (EXAMPLES / name).read_text(encoding="utf-8").splitlines()


@pytest.fixture
def at(tmp_path: Path) -> Iterator[Any]:
    """``at(record, line)``: the ``/api/game`` object once ``line`` lines are written."""
    games: dict[str, tuple[ScriptedGame, Follower]] = {}

    def snapshot(name: str, line: int) -> dict[str, Any]:
        if name not in games:
            store = tmp_path / name
            games[name] = (ScriptedGame(store, record(name)), Follower(store))
        game, follower = games[name]
        game.play_to(line)
        follower.poll()
        data = game_json(follower)
        assert data is not None
        return data

    yield snapshot
    for game, follower in games.values():
        follower.close()
        game.close()


@pytest.mark.parametrize(("name", "line", "heading"), [
    ("two-player.jsonl", 11, "Ann to play — deal 1"),
    # The last card laid: both hands counted, the crib is next.
    ("two-player.jsonl", 12, "Ann counts the crib — deal 1"),
    # The crib counted: Ben deals the next hand (not Ann, who dealt this one).
    ("two-player.jsonl", 13, "Ben to deal"),
    ("two-player.jsonl", 14, "Ben turns the starter — deal 2"),
    ("show-mode.jsonl", 5, "Ben shows — deal 1"),
    # Muggins: the hands are being claimed, whose claim is awaited and for what.
    ("muggins.jsonl", 18, "Waiting for Ann's claim: last card — deal 1"),
    ("muggins.jsonl", 19, "Waiting for Ben's claim: hand — deal 1"),
    ("muggins.jsonl", 20, "Waiting for Ann's claim: hand — deal 1"),
    ("muggins.jsonl", 22, "Waiting for Ann's claim: crib — deal 1"),
    ("muggins.jsonl", 23, "Ben to deal"),
])
def test_the_heading_says_who_acts_next_as_the_engine_reports_it(
        at: Any, name: str, line: int, heading: str) -> None:
    assert at(name, line)["doing"] == heading


def test_a_muggins_claim_awaited_is_shown_without_its_count(at: Any) -> None:
    data = at("muggins.jsonl", 19)  # Ben's hand of 7 waits for his claim
    assert data["claim"] == {"player": 1, "for": ["hand"],
                             "text": "Waiting for Ben's claim: hand"}
    assert data["show"] == []  # neither hand's count is shown before it is claimed
    assert data["last_award"]["acts"][0]["text"] == "Ann: Last card for 1"
    data = at("muggins.jsonl", 20)  # Ben claimed 7; Ann's 12 waits
    assert data["claim"]["text"] == "Waiting for Ann's claim: hand"
    assert [count["title"] for count in data["show"]] == ["Ben's hand: 7"]
    data = at("muggins.jsonl", 21)  # Ann claimed 5: 7 more are open to muggins
    assert data["claim"] is None
    assert data["show"][1] == {"player": 0, "crib": False, "points": None,
                               "title": "Ann's hand: said 5", "lines": []}
    data = at("muggins.jsonl", 22)  # the crib given: nobody called muggins
    assert data["show"][1]["title"] == "Ann's hand: 12 (said 5)"
    assert data["claim"]["for"] == ["crib"]
    assert at("two-player.jsonl", 12)["claim"] is None


def test_each_scoring_act_is_a_line_of_its_own(at: Any) -> None:
    data = at("two-player.jsonl", 12)  # Ann's last card pairs; then both hands are counted
    assert [act["text"] for act in data["last_award"]["acts"]] == [
        "Ann +3: pair, last card", "Ben: Hand for 8", "Ann: Hand for 2"]
    assert [(act["player"], act["side"], act["points"]) for act in data["last_award"]["acts"]
            ] == [(0, 0, 3), (1, 1, 8), (0, 0, 2)]
    assert [count["title"] for count in data["show"]] == ["Ben's hand: 8", "Ann's hand: 2"]
    data = at("two-player.jsonl", 13)
    assert [act["text"] for act in data["last_award"]["acts"]] == ["Ann: Crib for 2"]
    assert data["show"][-1]["title"] == "Ann's crib: 2"
    assert at("two-player.jsonl", 14)["last_award"] is None  # a new deal: a clean slate


def test_the_race_is_the_engines_scores_at_each_deals_end(at: Any) -> None:
    lines = record("two-player.jsonl")
    data = at("two-player.jsonl", len(lines))
    race = data["race"]
    assert race["scores"][:4] == [[0, 0], [9, 8], [15, 20], [28, 24]]
    assert race["scores"][-1] == [116, 121] == data["scores"]
    assert (race["winner"], race["skunk"]) == (1, "none")


def test_the_race_is_read_from_the_facts_not_a_second_replay(
        at: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = record("two-player.jsonl")
    at("two-player.jsonl", len(lines) - 1)

    def replayed(*args: object) -> None:
        raise AssertionError("the record was replayed a second time for the race")

    monkeypatch.setattr("pegboard.stats.replay_events", replayed)
    monkeypatch.setattr("pegboard.web.snapshot.replay_events", replayed, raising=False)
    assert at("two-player.jsonl", len(lines))["race"]["winner"] == 1


def test_a_winner_past_the_target_is_shown_at_it(at: Any) -> None:
    lines = record("muggins.jsonl")
    before = at("muggins.jsonl", len(lines) - 1)
    assert before["shown"] == before["scores"] == [115, 120]
    data = at("muggins.jsonl", len(lines))  # Ann's crib takes her from 115 to 125
    assert data["scores"] == [125, 120]  # what the record keeps
    assert data["shown"] == [121, 120]  # what the board shows (the engine's GameOver)
