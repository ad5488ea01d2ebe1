"""The scoreboard's JSON against the engine, which it renders: what the table does next is the
last entry's ``Turn``, the last score is that entry's scoring acts one by one, the show is the
engine's show steps, a muggins claim is shown as awaited without its count, and the race is
the ``Turn`` scores at each deal's end. Most cases are a moment of an example record."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from pegboard.app.words import awards_text, result_lines, side_name
from pegboard.record import parse_line
from pegboard.rules.events import Deal, GameHeader
from pegboard.rules.game import Game
from pegboard.rules.state import Award
from pegboard.stats import replay_record
from pegboard.web.app import create_app
from pegboard.web.follow import Follower
from pegboard.web.snapshot import game_json
from tests.support.web import EXAMPLES, ScriptedGame, random_record, record_game


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
    # Ann's claim for the last card can still be called on: it reads as what she claimed.
    assert data["last_award"]["acts"][0]["text"] == "Ann claimed 1 (last card)"
    data = at("muggins.jsonl", 20)  # Ben claimed 7 (right): it can still be called on
    assert data["claim"]["text"] == "Waiting for Ann's claim: hand"
    assert data["show"] == [{"player": 1, "crib": False, "points": None,
                             "title": "Ben's hand: claimed 7", "lines": []}]
    data = at("muggins.jsonl", 21)  # Ann claimed 5: 7 more are open to muggins
    assert data["claim"] is None
    assert [count["title"] for count in data["show"]] == ["Ben's hand: 7",
                                                          "Ann's hand: claimed 5"]
    assert data["show"][1] == {"player": 0, "crib": False, "points": None,
                               "title": "Ann's hand: claimed 5", "lines": []}
    data = at("muggins.jsonl", 22)  # the crib given (record version 2: the window shut)
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


LINES = record("two-player.jsonl")


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return tmp_path / "store"


def awards_of(line: int) -> tuple[tuple[Award, ...], tuple[str, ...]]:
    """What record line ``line`` of LINES pegged, replayed here on a game of its own."""
    header = parse_line(LINES[0], 1)
    assert isinstance(header, GameHeader)
    game = Game.from_header(header)
    for number in range(2, line):
        game.apply(parse_line(LINES[number - 1], number))  # type: ignore[arg-type]
    return game.apply(parse_line(LINES[line - 1], line)), game.names  # type: ignore[arg-type]


def api_game(client: TestClient) -> dict[str, Any]:
    answer = client.get("/api/game")
    assert answer.status_code == 200, answer.text
    game = answer.json()["game"]
    assert isinstance(game, dict)
    return game


# --- the JSON against the engine -----------------------------------------------------------


def test_api_game_is_the_engines_state_in_the_record_names_and_the_apps_words(
        store: Path) -> None:
    game = ScriptedGame(store, LINES)
    app = create_app(store)
    with TestClient(app) as client:
        for line in (2, 12, 40, 53, 60):
            game.play_to(line)
            app.state.hub.refresh()
            data = api_game(client)
            gs = game.state
            assert data["lines"] == line
            assert data["header"] == json.loads(LINES[0])
            assert data["scores"] == list(gs.scores)
            assert data["back_pegs"] == list(gs.back_pegs)
            assert data["phase"] == gs.phase.value
            assert (data["dealer"], data["to_act"], data["count"]) == (gs.dealer, gs.to_act,
                                                                      gs.count)
            assert data["pile"] == [str(card) for card in gs.pile]
            assert data["sides"] == [side_name(gs, s) for s in range(gs.sides)]
        pegged, names = awards_of(60)
        acts = data["last_award"]["acts"]
        assert data["last_award"]["line"] == 60
        assert [award for act in acts for award in act["awards"]] == [
            a.to_json() for a in pegged]
        assert [act["text"] for act in acts] == [awards_text(list(pegged[:2]), names),
                                                 awards_text(list(pegged[2:]), names)]
        assert [count["title"] for count in data["show"]] == ["Ben's hand: 0", "Ann's hand: 10"]
        assert data["show"][0]["lines"][0] == "nineteen"
        game.close()


def test_the_end_of_the_game_carries_the_result_race_and_words(store: Path) -> None:
    game = ScriptedGame(store, LINES)
    game.play_to(len(LINES))
    with TestClient(create_app(store)) as client:
        data = api_game(client)
    gs = game.state
    title, lines = result_lines(gs)
    assert data["winner"] == gs.winner == 1
    assert data["result"] == gs.result.to_json() if gs.result else False
    assert data["result_text"] == {"title": title, "lines": list(lines)}
    assert data["race"] == replay_record(LINES)[-1].race.to_json()
    assert data["race_svg"].startswith("<svg")
    game.close()


def test_api_games_lists_the_finished_games_newest_first_with_their_races(store: Path) -> None:
    records = [random_record(seed) for seed in (1, 2, 3)]
    for record in records:
        record_game(store, record)
    with TestClient(create_app(store)) as client:
        games = client.get("/api/games").json()["games"]
        two = client.get("/api/games?limit=2").json()["games"]
        refused = client.get("/api/games?limit=-1")
    assert [g["race"] for g in games] == [replay_record(r)[-1].race.to_json()
                                          for r in reversed(records)]
    assert [g["players"] for g in games] == [["Ann", "Ben"]] * 3
    assert all(g["result"]["winner"] == g["race"]["winner"] for g in games)
    assert two == games[:2]
    assert refused.status_code == 400
    assert "limit must be a whole number from 0 to 200" in refused.json()["error"]


def test_a_deal_starts_with_no_award_in_view(store: Path) -> None:
    game = ScriptedGame(store, LINES)
    app = create_app(store)
    with TestClient(app) as client:
        while not (game.game.events and isinstance(game.game.events[-1], Deal)
                   and game.state.deal_no == 2):
            game.step()
        app.state.hub.refresh()
        assert api_game(client)["last_award"] is None
    game.close()


BY_RANK = [LINES[0], LINES[1], LINES[2],
           '{"type": "starter", "card": "KD", "by_rank": true}', *LINES[4:13]]
"""The first deal of LINES as the box enters it: the starter named by a hold, every other
card by its rank alone (``by_rank``), its suit the card wheel's."""


def test_api_game_names_cards_entered_by_rank_by_their_ranks(store: Path) -> None:
    """The pile and the crib name a card whose suit no player entered by its rank alone: no
    stand-in suit reaches the page or ``/api/game`` (the starter, named, keeps its suit)."""
    game = ScriptedGame(store, BY_RANK)
    app = create_app(store)
    with TestClient(app) as client:
        game.play_to(7)
        app.state.hub.refresh()
        data = api_game(client)
        assert not game.state.suit_entered(game.state.pile[0])
        assert data["pile"] == ["5", "4", "K"], data["pile"]
        assert data["starter"] == "KD"
        game.play_to(13)
        app.state.hub.refresh()
        data = api_game(client)
        assert data["crib"] == ["7", "J", "3", "7"], data["crib"]
        shown = json.dumps({key: data[key] for key in ("pile", "crib", "show", "last_award")})
        assert not re.search(r"\b(?:10|[2-9TJQKA])[CDHS]\b|[\u2660-\u2667]", shown), shown
