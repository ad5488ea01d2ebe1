"""The standings' CSV exports and JSON fields are the ones docs/club.md lists, and a guest
or a locked game on a scorecard shows in them."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

from pegboard.club.results import connect, store_result
from pegboard.club.scorecard import judge
from pegboard.club.standings import (
    acts_csv,
    locks,
    night_csv,
    scorecards_csv,
    specials,
    standings,
)
from pegboard.record import dump
from pegboard.rules.events import ClubSeat, Confirm, GameHeader
from pegboard.rules.game import Game
from tests.support.games import random_game

DOC = (Path(__file__).resolve().parent.parent / "docs" / "club.md").read_text(encoding="utf-8")


def documented(route: str) -> str:
    """The backticked names on the row of ``route`` in docs/club.md's table of routes."""
    line = next(line for line in DOC.splitlines() if line.startswith(f"| `GET {route}"))
    return line


def columns(route: str) -> list[str]:
    found = re.search(r"one row per player[^`]*`([^`]*)`", documented(route))
    assert found is not None, route
    return [name.strip() for name in found.group(1).split(",")]


def card(seed: int, members: tuple[str, str], *, guests: tuple[int, ...] = (),
         lock: bool = False) -> dict[str, Any]:
    played = random_game(seed)
    header = GameHeader(("Ann", "Ben"), played.header.rules,
                        club=ClubSeat(1, seed, 1, members, lock, guests))
    game = Game.from_header(header)
    records = [dump(header)]
    for event in [*played.events, Confirm(0), Confirm(1)]:
        game.push(event)
        records.append(dump(event))
    made = judge(records, club="c1", board="b1", game_id=f"g{seed}").card
    assert made is not None
    return made


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_exports_and_fields_are_the_documented_ones_and_carry_guests_and_the_lock(
        tmp_path: Path) -> None:
    db = connect(tmp_path / "r.db")
    store_result(db, card(21, ("101", "102")))  # a game with a special hand
    store_result(db, card(2, ("101", "G7"), guests=(1,), lock=True))

    scorecards = scorecards_csv(db)
    assert scorecards.splitlines()[0].split(",") == columns("/export/scorecards.csv")
    lines = rows(scorecards)
    assert len(lines) == 4
    guest = [line for line in lines if line["member"] == "G7"]
    assert [(line["guest"], line["lock"]) for line in guest] == [("1", "1")]
    assert {(line["guest"], line["lock"]) for line in lines if line["game"] == "g21"} == {
        ("0", "0")}

    night = night_csv(db, 1)
    assert night.splitlines()[0].split(",") == columns("/export/night.csv")
    assert {line["member"]: line["guest"] for line in rows(night)} == {
        "101": "0", "102": "0", "G7": "1"}  # no roster: the scorecard says who is a guest

    acts_row = re.search(r"one row per act[^`]*`([^`]*)`", documented("/export/acts.csv"))
    assert acts_row is not None
    assert acts_csv([]).splitlines()[0].split(",") == [
        name.strip() for name in acts_row.group(1).split(",")]

    row = documented("/api/standings")
    named = re.findall(r"`([a-z_]+)`", row.split("Each player:")[1])
    assert list(standings(db)[0]) == named

    pots = documented("/api/specials")
    hand_fields = re.findall(r"`([a-z_]+)`", pots.split("`hands`")[1].split("`nine_oh`")[0])
    nine_fields = re.findall(r"`([a-z_]+)`", pots.split("`nine_oh`")[1])
    found = specials(db)["hands"]
    assert found and all(list(hand) == hand_fields for hand in found)
    for round_ in range(1, 10):  # a 9-0 night's lines, as nine stored results make them
        db.execute("INSERT INTO line VALUES (?, 0, 'c1', 2, ?, 1, '777', 'Max', 1, 2, 10, "
                   "121, 0, 0)", (f"b1:n{round_}", round_))
    assert [list(p) for p in specials(db)["nine_oh"]] == [nine_fields]


def test_a_night_not_locked_on_every_board_is_named_for_the_director(tmp_path: Path) -> None:
    db = connect(tmp_path / "r.db")
    store_result(db, card(1, ("101", "102"), lock=True))
    assert locks(db) == [{"night": 1, "lock": "on", "unlocked": []}]
    store_result(db, card(2, ("103", "104")))
    assert locks(db) == [{"night": 1, "lock": "mixed", "unlocked": ["b1:g2"]}]
    named = re.findall(r"`(\w+)`", documented("/api/status"))
    assert named[:8] == [
        "results", "duplicates", "corrections", "held", "voided", "refused", "nights", "locks"]
    assert "waiting" in named  # the cards waiting for their board's budget, listed last
