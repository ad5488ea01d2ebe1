"""``pegboard game`` (entry by entry into the durable store) against the independent referee.

Each line of a random game is added with ``pegboard game add``; every legal line must be
accepted, the scores in ``pegboard game status --json`` must be the referee's, and the
exported record must replay to the referee's result. Illegal lines must be refused with exit
status 2 and leave the stored game exactly as it was.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from tests.referee.cli_run import add, export, game_cli, status
from tests.referee.compare import differences
from tests.referee.generator import Table, random_game
from tests.referee.referee import Illegal, Session

Record = list[dict[str, Any]]


def _enter(store: Path, record: Record, *, every: int, slips: float, seed: int) -> None:
    """Add the record line by line, with some illegal slips and undone entries on the way."""
    rng = random.Random(seed)
    code, _, err = game_cli(store, "new", json.dumps(record[0]))
    assert code == 0, err
    session = Session()
    session.apply(record[0])
    for number, event in enumerate(record[1:], start=2):
        if event["type"] == "play" and rng.random() < slips:
            wrong = {**event, "player": (event["player"] + 1) % len(record[0]["players"])}
            with pytest.raises(Illegal):  # the referee agrees it is illegal
                probe = Session()
                for earlier in record[: number - 1]:
                    probe.apply(earlier)
                probe.apply(wrong)
            before = export(store)
            code, _, err = add(store, wrong)
            assert code == 2 and err.strip(), (number, err)
            assert export(store) == before
        # A slip is an entry taken back at once; an undo line is not retried that way, since
        # undoing an undo takes back one more entry rather than restoring the undone one.
        if rng.random() < slips and event["type"] != "undo":
            code, _, err = add(store, event)
            assert code == 0, (number, err)
            code, _, err = game_cli(store, "undo")
            assert code == 0, (number, err)
        if event["type"] == "undo":
            code, _, err = game_cli(store, "undo")
        else:
            code, _, err = add(store, event)
        assert code == 0, (number, event, err)
        session.apply(event)
        if number % every == 0 or number == len(record):
            shown = status(store)
            assert shown["scores"] == session.referee.scores, number
    shown = status(store)
    referee = session.referee
    assert shown["winner"] == referee.winner
    if referee.winner is not None:
        result = referee.result()
        assert shown["result"]["skunk"] == result.skunk
        assert shown["result"]["game_points"] == result.game_points
    exported = export(store)  # every line entered, undone ones and undo lines included
    assert _in_force(exported) == _in_force(record)
    assert differences(exported) == []


def _in_force(record: Record) -> list[Any]:
    session = Session()
    for event in record:
        session.apply(event)
    return session.in_force


def test_a_five_card_game_entered_line_by_line(tmp_path: Path) -> None:
    record = random_game(2, Table(five_card=True))
    _enter(tmp_path, record, every=15, slips=0.05, seed=2)


def test_the_first_deals_of_a_two_player_game_with_slips(tmp_path: Path) -> None:
    full = random_game(4, Table())
    cut_at = [i for i, e in enumerate(full) if e["type"] == "deal"][3]
    _enter(tmp_path, full[:cut_at], every=5, slips=0.1, seed=4)


def test_an_entry_after_the_game_is_won_is_refused(tmp_path: Path) -> None:
    record: Record = [
        {"type": "game", "players": ["Ann", "Ben", "Cat"], "rules": {"game_points": "classic"}},
        {"type": "deal", "dealer": 2},
        {"type": "peg", "player": 1, "points": 60},
        {"type": "peg", "player": 2, "points": 95},
        {"type": "starter", "card": "4S"},
        {"type": "peg", "player": 0, "points": 121},
    ]
    _enter(tmp_path, record, every=1, slips=0.0, seed=6)
    assert status(tmp_path)["result"]["game_points"] == [4, 0, 0]  # Ben is double skunked
    before = export(tmp_path)
    code, _, err = add(tmp_path, {"type": "deal"})
    assert code == 2 and "over" in err
    assert export(tmp_path) == before


@pytest.mark.soak
@pytest.mark.parametrize(
    "table",
    [Table(), Table(players=3), Table(players=4), Table(five_card=True),
     Table(modes=("cards", "show", "peg", "quick"), undo=0.03)],
    ids=["two", "three", "four", "five-card", "mixed"],
)
def test_whole_games_entered_line_by_line(tmp_path: Path, table: Table) -> None:
    for seed in range(3):
        store = tmp_path / str(seed)
        store.mkdir()
        _enter(store, random_game(100 + seed, table), every=10, slips=0.03, seed=seed)
