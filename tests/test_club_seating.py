"""Seating a club night: one side moves, or a random draw; byes; check-in from the shell."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pegboard.cli import main
from pegboard.club.results import connect, save_seating, saved_seating
from pegboard.club.seating import from_json, seat, to_json
from pegboard.errors import ClubError

PLAYERS = [str(100 + n) for n in range(1, 21)]


def pairings(rounds: list) -> list[frozenset[str]]:  # type: ignore[type-arg]
    return [frozenset(t.players) for r in rounds for t in r.tables]


def test_one_side_moving_meets_nobody_twice_until_every_table_is_visited() -> None:
    night = seat(PLAYERS, 9, "moves")
    met = pairings(night)
    assert len(met) == len(set(met)) == 9 * 10
    for r in night:
        seated = [m for t in r.tables for m in t.players]
        assert sorted(seated) == sorted(PLAYERS) and r.bye is None
    assert [t.players[0] for t in night[4].tables] == PLAYERS[0::2]  # that side stays


def test_a_random_draw_is_the_seeds_and_avoids_repeats() -> None:
    night = seat(PLAYERS, 9, "random", seed=3)
    assert night == seat(PLAYERS, 9, "random", seed=3)
    assert night != seat(PLAYERS, 9, "random", seed=4)
    met = pairings(night)
    assert len(met) - len(set(met)) <= 2


def test_an_odd_night_gives_each_player_a_bye_in_turn() -> None:
    night = seat(PLAYERS[:5], 5, "random", seed=1)
    assert sorted(r.bye for r in night if r.bye) == sorted(PLAYERS[:5])
    for r in night:
        assert r.bye not in {m for t in r.tables for m in t.players}


@pytest.mark.parametrize(("members", "rounds", "how", "why"), [
    (["101", "101"], 3, "moves", "checked in twice"),
    (["101"], 3, "moves", "at least 2"),
    (["101", "102"], 0, "moves", "give 1 to 99"),
    (["101", "102"], 3, "swiss", "give moves or random"),
])
def test_a_night_that_cannot_be_seated_says_why(members: list[str], rounds: int, how: str,
                                               why: str) -> None:
    with pytest.raises(ClubError, match=why):
        seat(members, rounds, how)


def table(number: int, members: list[object]) -> dict[str, object]:
    return {"table": number, "members": members}


@pytest.mark.parametrize(("rounds", "why"), [
    ([{"round": 1, "bye": "101", "tables": [table(1, ["101", "102"])]}],
     "round 1 seats member 101 twice: each member at one table, or on the bye"),
    ([{"round": 1, "bye": None, "tables": [table(1, ["101", "102"]),
                                           table(2, ["103", "102"])]}],
     "round 1 seats member 102 twice"),
    ([{"round": 2, "bye": None, "tables": [table(1, ["101", "102"]),
                                           table(1, ["103", "104"])]}],
     r"round 2 seats tables \[1, 1\]: each table once, numbered from 1"),
    ([{"round": 1, "bye": None, "tables": [table(0, ["101", "102"])]}], "numbered from 1"),
    ([{"round": 0, "bye": None, "tables": []}], "seating round 0: give rounds 1 to 99"),
    ([{"round": 1, "bye": None, "tables": []}, {"round": 1, "bye": None, "tables": []}],
     r"each round once; got rounds \[1, 1\]"),
    ([{"round": 1, "bye": None, "tables": [table(1, ["101", "102", "103"])]}],
     "two member numbers"),
    ([{"round": 1, "bye": None, "tables": [table(1, ["", "102"])]}], "two member numbers"),
    ([{"round": 1, "bye": None, "tables": [table(1, ["1" * 21, "102"])]}],
     "two member numbers"),
    ([{"round": 1, "bye": None, "tables": [table(1, ["10\n1", "102"])]}],
     "two member numbers"),
    ([{"round": 1.5, "bye": None, "tables": []}], "a seating round must be"),
    ([{"round": True, "bye": None, "tables": []}], "a seating round must be"),
], ids=["bye-seated", "seated-twice", "table-twice", "table-0", "round-0", "round-twice",
        "three", "blank", "long", "control", "fraction", "boolean"])
def test_a_seating_that_seats_nobody_right_is_refused_naming_why(
        rounds: list[object], why: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
        ) -> None:
    """A seating file (``club serve --seating``, ``POST /api/seating``) that seats a member
    twice in a round, a table twice, or gives what is no round or member number is refused,
    naming the problem: ``club serve`` stops with exit 2 before it touches the results."""
    with pytest.raises(ClubError, match=why):
        from_json(rounds)
    path = tmp_path / "seating.json"
    path.write_text(json.dumps(rounds), encoding="utf-8")
    assert main(["club", "serve", "--broker", "127.0.0.1:1", "--db", str(tmp_path / "r.db"),
                 "--seating", str(path)]) == 2
    said = capsys.readouterr().err
    assert said.startswith(f"pegboard club: cannot read the seating {path}: ")
    assert re.search(why, said)
    assert not (tmp_path / "r.db").exists()


def test_a_seating_s_member_numbers_may_be_json_numbers() -> None:
    rounds = from_json([{"round": 2, "bye": 105, "tables": [table(1, [101, "102"])]}])
    assert [(r.number, r.bye, r.tables[0].players) for r in rounds] == [
        (2, "105", ("101", "102"))]


def test_check_in_shows_the_rosters_names_and_flags(tmp_path: object, capsys: pytest.
                                                    CaptureFixture[str]) -> None:
    from pathlib import Path

    roster = Path(str(tmp_path)) / "members.csv"
    roster.write_text("member,name,guest\n101,Ann Lee\n102,Ben Cho,guest\n", encoding="utf-8")
    assert main(["club", "seat", "--members", str(roster), "--present", "101,102,999",
                 "--rounds", "2", "--seating", "moves"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:3] == ["checked in 101 Ann Lee", "checked in 102 Ben Cho (guest)",
                       "checked in 999 (not on the roster)"]
    assert out[3] == "round 1: table 1: 101 v 102; bye: 999"
    assert main(["club", "seat", "--present", "101,101"]) == 2


def test_seat_json_writes_the_seating_file_alone_on_standard_output(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``club seat --json > seating.json`` makes a file ``club serve --seating`` takes: the
    check-in lines go to standard error."""
    roster = tmp_path / "members.csv"
    roster.write_text("member,name,guest\n101,Ann Lee\n102,Ben Cho,guest\n", encoding="utf-8")
    assert main(["club", "seat", "--members", str(roster), "--present", "101,102,999",
                 "--rounds", "3", "--json"]) == 0
    said = capsys.readouterr()
    seating = tmp_path / "seating.json"
    seating.write_text(said.out, encoding="utf-8")
    rounds = from_json(json.loads(seating.read_text(encoding="utf-8")))
    assert [r.number for r in rounds] == [1, 2, 3] and rounds[0].bye == "999"
    seed = rounds[0].seed
    assert seed is not None and all(r.seed == seed for r in rounds)
    assert said.err.splitlines() == [
        "checked in 101 Ann Lee", "checked in 102 Ben Cho (guest)",
        "checked in 999 (not on the roster)",
        f"seated at random each round with seed {seed} (the same players, rounds and --seed "
        f"{seed} seat the night the same way again)"]


def test_club_seat_draws_at_random_by_default_seeded_reproducible_and_recorded(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """RULES.md: "a club night is usually 9 games with random seating each round". With no
    ``--seating``, ``club seat`` draws each round at random with a new seed, says it and
    writes it in each round of the seating file; the same command with ``--seed`` seats the
    night the same way again, as the draw itself does; one side moves only when asked, with
    no seed. The results database keeps the seed with the seating it holds. A seed out of
    range is refused (exit 2)."""
    present = ["101", "102", "103", "104", "105", "106", "107", "108"]
    command = ["club", "seat", "--present", ",".join(present), "--rounds", "9", "--json"]
    assert main(command) == 0
    first = capsys.readouterr()
    drawn = json.loads(first.out)
    seed = drawn[0]["seed"]
    assert isinstance(seed, int) and all(r["seed"] == seed for r in drawn)
    assert f"seated at random each round with seed {seed}" in first.err
    assert from_json(drawn) == seat(present, 9, "random", seed)
    assert seat(present, 9, "random", seed) != seat(present, 9, "moves")
    assert main([*command, "--seed", str(seed)]) == 0
    assert json.loads(capsys.readouterr().out) == drawn  # reproduced from its seed
    assert main([*command, "--seating", "moves"]) == 0
    moved = capsys.readouterr()
    assert "seed" not in moved.out and "seed" not in moved.err
    assert from_json(json.loads(moved.out)) == seat(present, 9, "moves")
    db = connect(tmp_path / "r.db")
    save_seating(db, to_json(from_json(drawn)), source="", director="club serve",
                 reason="--seating seating.json", night=1)
    held = saved_seating(db)
    assert held is not None and held.rounds == drawn  # the seed kept with it
    db.close()
    for wrong in ("-1", "1000000", "x"):
        with pytest.raises(SystemExit) as stopped:
            main([*command, f"--seed={wrong}"])
        assert stopped.value.code == 2
        assert "give a seed from 0 to 999999" in capsys.readouterr().err


def test_the_next_round_follows_the_results_stored(tmp_path: object) -> None:
    from pathlib import Path

    from pegboard.club.results import connect, store_result
    from pegboard.club.seating import from_json, to_json
    from pegboard.club.standings import next_round
    from tests.test_club_scorecard import card_of

    night = seat(["101", "102", "103", "104", "105"], 3, "moves")
    assert from_json(to_json(night)) == night
    db = connect(Path(str(tmp_path)) / "r.db")
    first = next_round(db, night)
    assert first["round"] == 1 and first["bye"] == night[0].bye
    assert first["tables"][0]["members"] == list(night[0].tables[0].players)
    store_result(db, card_of(5, members=("101", "102"), round_=2))  # round 2 of night 1
    after = next_round(db, night)
    assert after["round"] == 3
    assert next_round(db, night[:2]) == {"round": None, "tables": [], "bye": None}
    with pytest.raises(ClubError, match="a seating round must be"):
        from_json([{"round": 1}])


def test_bad_club_options_are_named_and_exit_2(tmp_path: object,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    folder = Path(str(tmp_path))
    with pytest.raises(SystemExit) as usage:  # argparse's own exit
        main(["club", "serve", "--broker", "no:port", "--db", str(folder / "r.db")])
    assert usage.value.code == 2 and "must be HOST:PORT" in capsys.readouterr().err
    (folder / "dir.db").mkdir()
    assert main(["club", "serve", "--broker", "127.0.0.1:1", "--db",
                 str(folder / "dir.db")]) == 2
    assert "cannot use the results database" in capsys.readouterr().err
    assert main(["club", "publish", "--store", str(folder / "none"), "--broker",
                 "127.0.0.1:1", "--board", "b1"]) == 2
    assert "no store folder" in capsys.readouterr().err
    with pytest.raises(SystemExit) as usage:
        main(["club", "publish", "--store", str(folder), "--broker", "127.0.0.1:1",
              "--board", "a/b"])
    assert usage.value.code == 2 and "must be 1 to 32 letters" in capsys.readouterr().err
