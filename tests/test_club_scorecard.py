"""The club's scorecard (the engine's facts rendered), its check on arrival, the results
database (each result once) and the publisher's durable acknowledgements."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from pegboard.club.check import check_result, follows, read_card
from pegboard.club.outbox import Outbox
from pegboard.club.results import Stored, connect, counters, load_members, store_result
from pegboard.club.scorecard import FOUR_OF_A_KIND, identity, judge, revision, special_hands
from pegboard.club.standings import night_csv, specials, standings
from pegboard.errors import ClubError
from pegboard.record import dump
from pegboard.rules.cards import Card
from pegboard.rules.events import ClubSeat, Confirm, GameHeader, Override
from pegboard.rules.facts import Counted, ShowStep
from pegboard.rules.game import Game
from pegboard.rules.show import score_hand
from tests.support.games import random_game

TOPIC = "pegboard/club/board/b1/result/g11"


def club_records(seed: int, members: tuple[str, str] = ("101", "102"), *, night: int = 1,
                 confirms: tuple[object, ...] = (Confirm(0), Confirm(1)),
                 table: int | None = None, mode: str = "cards", round_: int | None = None
                 ) -> tuple[list[dict[str, object]], Game]:
    """A confirmed club game of ``seed`` at night ``night``, round ``round_`` and table
    ``table`` (by default the seed's own, seed + 1: each seed is a game of its own place in
    the night, and its members play no other game in its round)."""
    played = random_game(seed, mode=mode)
    where = seed + 1 if table is None else table
    header = GameHeader(("Ann", "Ben"), played.header.rules,
                        club=ClubSeat(night, seed + 1 if round_ is None else round_, where,
                                      members))
    game = Game.from_header(header)
    records: list[dict[str, object]] = [dump(header)]
    for event in [*played.events, *confirms]:
        game.push(event)  # type: ignore[arg-type]
        records.append(dump(event))  # type: ignore[arg-type]
    return records, game


def card_of(seed: int, **kwargs: object) -> dict[str, object]:
    records, _ = club_records(seed, **kwargs)  # type: ignore[arg-type]
    card = judge(records, club="club", board="b1", game_id=f"g{seed}").card
    assert card is not None
    return card


def test_the_card_renders_the_engines_game_over() -> None:
    records, game = club_records(11)
    card = judge(records, club="club", board="b1", game_id="g11").card
    assert card is not None
    over = next(r.game_over for r in game.reports() if r.game_over is not None)
    assert card["id"] == identity("club", ClubSeat(1, 12, 12, ("102", "101")))
    assert card["id"].startswith("club-n1-r12-t12-") and card["version"] == 2
    assert card["revision"] == revision(records)
    assert (card["night"], card["round"], card["table"]) == (1, 12, 12)
    assert card["winner"] == over.winner and card["spread"] == over.spread
    assert card["game_points"] == list(over.game_points)
    assert card["shown"] == list(over.shown) and card["skunk"] == over.skunk.value
    assert [p["member"] for p in card["players"]] == ["101", "102"]
    winner = card["players"][over.winner]
    assert winner["won"] and winner["spread"] == over.spread
    assert card["players"][1 - over.winner]["spread"] == -over.spread
    assert card["record"] == records
    assert card["confirmed"] == {"seats": [0, 1], "director": None, "note": None}


def test_no_card_until_every_seat_confirms_or_the_director_does() -> None:
    records, _ = club_records(11, confirms=(Confirm(0),))
    assert judge(records, club="club", board="b1", game_id="g").why == "not confirmed"
    records, _ = club_records(11, confirms=(Confirm(0), Override("Pat", "Ben left")))
    card = judge(records, club="club", board="b1", game_id="g").card
    assert card is not None and card["confirmed"]["director"] == "Pat"


def test_special_hands_are_read_off_the_counted_hand() -> None:
    def step(hand: str, starter: str) -> ShowStep:
        cards = tuple(Card.parse(c) for c in hand.split())
        cut = Card.parse(starter)
        return ShowStep(0, Counted.HAND, cards, cut, score_hand(cards, cut))

    assert special_hands(step("5H 5C 5S JD", "5D")) == ["29", FOUR_OF_A_KIND]
    assert special_hands(step("5H 5C 5S 5D", "JH")) == ["28", FOUR_OF_A_KIND]
    assert special_hands(step("2H 2C 2S 2D", "KD")) == [FOUR_OF_A_KIND]
    assert special_hands(step("7H 7C 8S 8D", "9D")) == ["24"]
    assert special_hands(step("5H 5C 5S TD", "JD")) == []


def test_a_genuine_result_is_taken_and_a_forged_one_names_what_differs() -> None:
    card = card_of(11)
    assert check_result(TOPIC, json.dumps(card).encode()) == card
    forged = dict(card, game_points=card["game_points"][::-1])  # type: ignore[index]
    with pytest.raises(ClubError, match="'game_points' differs"):
        check_result(TOPIC, json.dumps(forged).encode())
    # Board b1's genuine card on board b2's topic: read, checked, and marked for the
    # director, both boards named; on its own topic it is not.
    assert read_card(TOPIC, json.dumps(card).encode()).misplaced == ""
    elsewhere = read_card("pegboard/club/board/b2/result/g7", json.dumps(card).encode())
    assert elsewhere.misplaced == ("board b2's topic (result g7) carried a result of board "
                                   "b1 (game g11): a board publishes only its own results")
    assert follows(elsewhere) == card
    with pytest.raises(ClubError, match="'spread' differs"):  # forged: refused wherever
        check_result("pegboard/club/board/b2/result/g11",
                     json.dumps(dict(card, spread=card["spread"] + 1)).encode())  # type: ignore[operator]
    with pytest.raises(ClubError, match="a board publishes only its own results"):
        check_result("pegboard/other/board/b1/result/g11", json.dumps(card).encode())
    with pytest.raises(ClubError, match="the board the result names 'x/b1' must be"):
        check_result("pegboard/club/board/b2/result/g11",
                     json.dumps(dict(card, board="x/b1")).encode())
    with pytest.raises(ClubError, match="names the game 'g11', not 'g12'"):
        check_result("pegboard/club/board/b1/result/g12", json.dumps(card).encode())
    with pytest.raises(ClubError, match="is not JSON"):
        check_result(TOPIC, b"{nope")
    with pytest.raises(ClubError, match="not a 'pegboard-club-result'"):
        check_result(TOPIC, b"[1, 2]")
    with pytest.raises(ClubError, match="not a board's result topic"):
        check_result("pegboard/club/board/b1/state", b"{}")
    unconfirmed, _ = club_records(11, confirms=(Confirm(0),))
    with pytest.raises(ClubError, match="not a confirmed club game"):
        check_result(TOPIC, json.dumps(dict(card, record=unconfirmed)).encode())


def test_a_result_is_counted_once_and_standings_are_in_acc_order(tmp_path: Path) -> None:
    db = connect(tmp_path / "r.db")
    cards = [card_of(seed, members=members, night=1) for seed, members in
             ((1, ("101", "102")), (2, ("103", "101")), (3, ("102", "103")))]
    for card in cards:
        assert store_result(db, card) is Stored.COUNTED
    assert store_result(db, cards[0]) is Stored.DUPLICATE
    assert counters(db) == {"results": 3, "duplicates": 1, "corrections": 0, "held": 0,
                            "refused": 0, "voided": 0}
    rows = standings(db, 1)
    keys = [(-p["game_points"], -p["wins"], -p["spread"]) for p in rows]
    assert keys == sorted(keys) and sum(p["games"] for p in rows) == 6
    assert sum(p["spread"] for p in rows) == 0
    assert all(not p["unknown"] for p in rows)  # no roster: nobody is flagged
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_member_not_on_the_roster_is_kept_and_flagged(tmp_path: Path) -> None:
    db = connect(tmp_path / "r.db")
    roster = tmp_path / "members.csv"
    roster.write_text("member,name,guest\n101,Ann Lee\n102,Ben Cho,guest\n", encoding="utf-8")
    assert load_members(db, roster) == 2
    store_result(db, card_of(4, members=("101", "999")))
    flags = {p["member"]: (p["name"], p["unknown"], p["guest"]) for p in standings(db)}
    assert flags["101"] == ("Ann Lee", False, False)
    assert flags["999"] == ("Ben", True, False)
    assert night_csv(db, None).splitlines()[0].startswith("rank,member,name,game_points")
    roster.write_text("101\n", encoding="utf-8")
    with pytest.raises(ClubError, match="line 1: expected member,name"):
        load_members(db, roster)


def test_the_pots_list_each_special_hand(tmp_path: Path) -> None:
    db = connect(tmp_path / "r.db")
    found = 0
    for seed in range(40):
        card = card_of(seed)
        found += len(card["special"])  # type: ignore[arg-type]
        assert store_result(db, card) is Stored.COUNTED
    assert found > 0  # 40 games hold a 24 or four of a kind
    assert len(specials(db)["hands"]) == found


def test_acknowledgements_survive_a_restart_and_a_torn_line_is_not_one(tmp_path: Path
                                                                      ) -> None:
    path = tmp_path / "acked"
    box = Outbox(path)
    assert box.add("b1:g1", "g1", b"1") and box.add("b1:g2", "g2", b"2")
    assert not box.add("b1:g1", "g1", b"1")
    box.acknowledge("b1:g1")
    box.close()
    with open(path, "ab") as out:
        out.write(b"b1:g2")  # torn: no newline
    again = Outbox(path)
    assert again.acked == {"b1:g1"}
    assert not again.add("b1:g1", "g1", b"1") and again.add("b1:g2", "g2", b"2")
    again.acknowledge("b1:g2")
    again.close()
    assert path.read_bytes() == b"b1:g1\nb1:g2\n"
    # club publish --again (a broker that lost its database): everything is sent again
    resend = Outbox(path, again=True)
    assert resend.add("b1:g1", "g1", b"1") and resend.add("b1:g2", "g2", b"2")
    resend.close()


def test_a_database_that_cannot_be_used_is_named(tmp_path: Path) -> None:
    (tmp_path / "dir.db").mkdir()
    with pytest.raises(ClubError, match="cannot use the results database"):
        connect(tmp_path / "dir.db")
    assert isinstance(connect(tmp_path / "ok.db"), sqlite3.Connection)
