"""Seat names, from the players' side: named in setup, kept for the next game, and still
there after the device is turned off and on (read from the last game the store kept)."""

from __future__ import annotations

import json
from pathlib import Path

from pegboard.app.inputs import KnobTurn
from pegboard.config import Config
from pegboard.device.build import initial_state, open_store
from pegboard.store import Store
from tests.support.app_driver import MENU, OK, App
from tests.support.hostile import crafted


def setup_rows(app: App) -> list[str]:
    return list(app.view.lines)


def name_seats(app: App) -> App:
    """On the setup screen: seat 1 to Ann, seat 2 to Gran (each press the next free name)."""
    rows = setup_rows(app)
    app.feed(KnobTurn(rows.index("Seat 1: P1") - (app.view.selected or 0)), OK)
    assert "Seat 1: Ann" in setup_rows(app)
    rows = setup_rows(app)
    app.feed(KnobTurn(rows.index("Seat 2: P2") - (app.view.selected or 0)))
    while "Seat 2: Gran" not in setup_rows(app):
        app.feed(OK)
    return app


def start(app: App) -> App:
    """Start, with P1 (here seat 1) dealing."""
    return app.feed(KnobTurn(-(app.view.selected or 0)), OK, KnobTurn(1), OK)


def end_game(app: App) -> App:
    app.feed(MENU)
    rows = list(app.view.lines)
    return app.feed(KnobTurn(rows.index("End game")), OK, KnobTurn(1), OK)


def test_names_chosen_in_setup_are_the_games_and_stay_for_the_next() -> None:
    app = App.start()
    app.feed(OK)  # New game
    start(name_seats(app))
    assert json.loads(app.record[0])["players"] == ["Ann", "Gran"]
    end_game(app)
    app.feed(OK)  # New game again: the seats are named as they were
    assert {"Seat 1: Ann", "Seat 2: Gran"} <= set(setup_rows(app))


def test_names_survive_a_restart(tmp_path: Path) -> None:
    app = App.start()
    app.feed(OK)
    start(name_seats(app))
    end_game(app)
    with Store(tmp_path) as store:  # what the device's loop writes for these entries
        store.new_game(app.record[0])
        for line in app.record[1:]:
            store.append(line)
        store.finish(app.finished[0])
    store = open_store(tmp_path, owner="pegboard test")
    with store:
        again = App(initial_state(Config(), store))
    again.feed(OK)  # New game, after power-on
    assert {"Seat 1: Ann", "Seat 2: Gran"} <= set(setup_rows(again))
    start(again)
    assert json.loads(again.record[0])["players"] == ["Ann", "Gran"]


def test_a_store_with_no_game_gives_the_setups_own_names(tmp_path: Path) -> None:
    with open_store(tmp_path, owner="pegboard test") as store:
        app = App(initial_state(Config(), store))
    app.feed(OK)
    assert {"Seat 1: P1", "Seat 2: P2"} <= set(setup_rows(app))


def test_a_kept_name_no_record_can_hold_is_not_offered(tmp_path: Path) -> None:
    """A history file whose header names a seat with spaces only (written by no Pegboard: a
    damaged or forged store) leaves the setup's own names, and the game starts."""
    with Store(tmp_path) as store:
        store.new_game('{"type": "game", "players": ["Ann", "Ben"]}')
        store.finish({"winner": None})
    kept = next((tmp_path / "history").glob("*.log"))
    first, rest = kept.read_bytes().split(b"\n", 1)
    entry = json.loads(first.split(b" ", 1)[1])
    entry["record"]["players"] = ["   ", "Ben"]
    kept.write_bytes(crafted(json.dumps(entry)) + rest)
    with open_store(tmp_path, owner="pegboard test") as opened:
        app = App(initial_state(Config(), opened))
    app.feed(OK)
    assert {"Seat 1: P1", "Seat 2: P2"} <= set(setup_rows(app))
    start(app)
    assert json.loads(app.record[0])["players"] == ["P1", "P2"]
