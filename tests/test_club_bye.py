"""A bye is credited as the club's setting says (``club serve --bye``): by default as a game
won (the club's game points for a plain win, one win, no spread), once its round has a game
counted, once however many are; ``none`` lists it and credits nothing. In the night's and
the season's standings, and against a real mosquitto."""

from __future__ import annotations

import json
from pathlib import Path

from pegboard.club.results import Act, Bye, Stored, act, connect, store_result
from pegboard.club.seating import Pairing, Round
from pegboard.club.standings import standings
from pegboard.club.topics import result_topic
from pegboard.rules.variants import GamePoints
from tests.support.club import Standings
from tests.support.mosquitto import Broker
from tests.test_club_broker import Client
from tests.test_club_director import card

SEATING = [Round(2, (Pairing(1, ("101", "102")), Pairing(2, ("103", "104"))), "105")]
"""Round 2: two tables, 105 sits out."""


def rows(db: object, night: int | None = None) -> dict[str, dict[str, object]]:
    return {p["member"]: p for p in standings(db, night)}  # type: ignore[arg-type]


def test_a_bye_is_a_win_once_its_round_has_a_game(tmp_path: Path) -> None:
    db = connect(tmp_path / "r.db")
    assert "105" not in rows(db)  # no game of the round yet: nothing credited
    first, second = card(1, ("101", "102"), 1), card(2, ("103", "104"), 2)
    store_result(db, first, seating=SEATING)
    store_result(db, second, seating=SEATING)
    bye = rows(db)["105"]
    assert (bye["game_points"], bye["wins"], bye["losses"], bye["spread"], bye["games"],
            bye["byes"]) == (2, 1, 0, 0, 0, 1)
    assert rows(db, first["night"])["105"]["byes"] == 1  # the night's standings too
    assert rows(db, first["night"] + 1) == {}
    # between the players on game points alone: 105 ranks among the winners by ACC order
    ranked = [p["member"] for p in standings(db)]
    assert ranked.index("105") < min(ranked.index(p["member"]) for p in first["players"]
                                     if not p["won"])


def test_a_game_the_director_accepts_credits_the_bye(tmp_path: Path) -> None:
    db = connect(tmp_path / "r.db")
    held = card(3, ("101", "103"), 7)  # not seated so: it waits for the director
    assert store_result(db, held, seating=SEATING) is Stored.HELD
    assert "105" not in rows(db)
    act(db, Act.ACCEPT, held["id"], held["revision"], director="Pat", reason="moved",
        seating=SEATING)
    assert (rows(db)["105"]["game_points"], rows(db)["105"]["byes"]) == (2, 1)


def test_classic_game_points_and_no_credit(tmp_path: Path) -> None:
    db = connect(tmp_path / "r.db")
    store_result(db, card(1, ("101", "102"), 1), seating=SEATING, points=GamePoints.CLASSIC)
    assert rows(db)["105"]["game_points"] == 1  # a plain win under classic game points
    none = connect(tmp_path / "none.db")
    store_result(none, card(1, ("101", "102"), 1), seating=SEATING, bye=Bye.NONE)
    assert (rows(none)["105"]["game_points"], rows(none)["105"]["wins"],
            rows(none)["105"]["byes"]) == (0, 0, 1)


def test_the_service_credits_the_bye(tmp_path: Path) -> None:
    seating = tmp_path / "seating.json"
    seating.write_text(json.dumps([{"round": 2, "bye": "105", "tables": [
        {"table": 1, "members": ["101", "102"]}, {"table": 2, "members": ["103", "104"]}]}]),
        encoding="utf-8")
    with Broker(tmp_path / "broker") as broker:
        service = Standings(tmp_path / "r.db", broker.address,
                            extra=("--seating", str(seating)))
        board = Client(broker.port)
        try:
            sent = card(1, ("101", "102"), 1)
            board.send(result_topic("club", "b1", sent["game"]), json.dumps(sent).encode())
            service.wait_for(1)
            players = {p["member"]: p for p in service.get(
                f"/api/standings?night={sent['night']}")["players"]}
            assert (players["105"]["game_points"], players["105"]["byes"]) == (2, 1)
        finally:
            board.close()
            service.stop()


def test_a_seating_known_to_be_another_nights_checks_nothing_and_credits_no_bye(
        tmp_path: Path) -> None:
    """A board's late result of last week, arriving while this week's seating is held (the
    service's --night): counted as its own night's, neither held by this week's tables nor
    crediting this week's bye; the same game on the seating's own night is held."""
    unseated = card(3, ("101", "103"), 1)  # night 1, round 2: not a table of SEATING
    late = connect(tmp_path / "late.db")
    assert store_result(late, unseated, seating=SEATING,
                        seating_night=unseated["night"] + 1) is Stored.COUNTED
    assert set(rows(late)) == {"101", "103"}  # no bye of the other night's seating
    tonight = connect(tmp_path / "tonight.db")
    assert store_result(tonight, unseated, seating=SEATING,
                        seating_night=unseated["night"]) is Stored.HELD
    fits = card(1, ("101", "102"), 1)
    assert store_result(tonight, fits, seating=SEATING,
                        seating_night=fits["night"]) is Stored.COUNTED
    assert rows(tonight)["105"]["byes"] == 1
