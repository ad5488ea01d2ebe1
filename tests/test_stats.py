"""Statistics from game records, checked against values computed by hand.

The example records are under tests/data/. Every figure asserted below is worked out in the
comments from the cards in the record, independently of the code under test.

stats_match.jsonl: Ann (seat 0) and Ben (seat 1), games to 61, a best-of-3 match. Both records
are version 8, written as the command line writes: every card entered whole, with its suit.

Game 1 (Ann deals first, named).
  Deal 1, Ann deals, starter 5S. Ben holds JS 5H 5D 5C, Ann KC QC 9H 9D.
    Play: JS 10, KC 20, 5H 25, Ann go, 5D 30 (pair: Ben 2), Ben go (Ben 1 for the go);
    Ann leads 9H 9, 5C 14, 9D 23, Ann go (Ann 1), QC 10 is the last card (Ann 1).
    Pegging: Ann 2, Ben 3.
    Show: Ben 5H 5D 5C JS + 5S = 29 (8 fifteens 16, 6 pairs 12, nobs 1).
          Ann KC QC 9H 9D + 5S: K+5, Q+5 (4), pair of nines (2) = 6.
    Crib 2H 3H 4H 6H + 5S: 2+3+4+6 and 4+5+6 (4), run 2-3-4-5-6 (5) = 9; four hearts in the
    crib with a spade starter score no flush.
    After deal 1: Ann 2 + 6 + 9 = 17, Ben 3 + 29 = 32.
  Deal 2, Ben deals, points only: Ann +10, Ben +12 -> 27, 44.
  Deal 3, Ann deals, starter 6D. Ben 9C 8D 7H 8S, Ann KH 2S AC QD.
    Play: 9C 9, KH 19, 8D 27, 2S 29, Ben go, AC 30, Ann go (Ann 1);
    Ben leads 7H 7, QD 17, 8S 25 last card (Ben 1). -> Ann 28, Ben 45.
    Show: Ben 9C 8D 7H 8S + 6D: 7+8 twice, 9+6 (6), pair of eights (2), two runs 6-7-8-9 (8)
    = 16 -> Ben 61 and wins before Ann counts: Ann's hand and the crib are not counted.
  Result: Ben 61, Ann 28: skunk (61-hole game: 30 or less). First dealer Ann lost.
  Race: (0,0) (17,32) (27,44) (28,61).

Game 2 (new game, cut KD / 3C: Ben deals first). A wrong card (9D) is played and undone.
  Deal 1, Ben deals, starter JH: his heels, Ben 2. Ann 8H 6S 2C 4D, Ben TS 5C 5D QS.
    Play: 8H 8, TS 18, 6S 24, 5C 29, 2C 31 (Ann 2); Ben leads 5D 5, 4D 9, QS 19 last card
    (Ben 1).
    Show: Ann 8H 6S 2C 4D + JH = 0 (no fifteen, pair, run, flush or nobs).
          Ben TS 5C 5D QS + JH: each 5 with T, Q, J (12), pair of fives (2), run T-J-Q (3) = 17.
    Crib 3H 7D 8C KC + JH: 7+8 (2) = 2.
    After deal 1: Ann 2, Ben 2 + 1 + 17 + 2 = 22.
  Deal 2, Ann deals, points only: Ann +29, Ben +37 -> 31, 59.
  Deal 3, Ben deals, starter 4C: Ann 7H 7, Ben 8D 15 (Ben 2) -> 61, Ben wins in the play.
  Result: Ben 61, Ann 31: no skunk (31 is above the line). First dealer Ben won.
  Race: (0,0) (2,22) (31,59) (31,61).

stats_partners.jsonl: Ann, Ben, Cat, Dan; partners Ann & Cat (seats 0, 2) v Ben & Dan (1, 3).
  Deal 1, Dan deals, starter 2D. Ann AS 4S JS 2H, Ben 3C 6C KC 8H, Cat 9H QH 7C 3S,
  Dan 7D TD 6H AH.
    Play: AS 1, 3C 4, 9H 13, 7D 20, 4S 24, 6C 30, Cat go, AH 31 (Dan 2);
    Ann leads JS 10, KC 20, 7C 27, Dan go, 2H 29, Ben go, Cat go (Ann 1 for the go);
    Ben leads 8H 8, QH 18, TD 28, 3S 31 (Cat 2); Dan leads 6H, the last card (Dan 1).
    Pegging: Ann & Cat 3, Ben & Dan 3.
    Show: Ann AS 4S JS 2H + 2D: J+4+A, J+2+2+A (4), pair of twos (2) = 6.
          Ben 3C 6C KC 8H + 2D: K+3+2 (2) = 2.   Cat 9H QH 7C 3S + 2D: Q+3+2 (2) = 2.
          Dan 7D TD 6H AH + 2D: 7+6+2 (2) = 2.
    Crib KD QC 9S 8C + 2D = 0 (still a crib counted).
    After deal 1: Ann & Cat 3 + 6 + 2 = 11, Ben & Dan 3 + 2 + 2 + 0 = 7.
  Deal 2, Ann deals, points only: Ann +30, Ben +20 -> 41, 27.
  Deal 3, Ben deals, points only: Cat +20 -> 61, Ann & Cat win; Ben & Dan on 27: skunk.
  First dealer Dan (Ben & Dan) lost. Race: (0,0) (11,7) (41,27) (61,27).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from pegboard.cli import main
from pegboard.errors import PegboardError, RecordError
from pegboard.stats import PLAY_REASONS, Statistics, compute, format_text, replay_record

DATA = Path(__file__).parent / "data"
MATCH = DATA / "stats_match.jsonl"
PARTNERS = DATA / "stats_partners.jsonl"


def stats_of(*paths: Path) -> Statistics:
    return compute([(p.name, p.read_text(encoding="utf-8")) for p in paths])


@pytest.fixture(scope="module")
def everything() -> Statistics:
    return stats_of(MATCH, PARTNERS)


def side(stats: Statistics, name: str) -> dict[str, object]:
    for s in stats.sides:
        if s.name == name:
            return s.to_json()
    raise AssertionError(f"no side {name!r}")


def test_races_match_the_hand_count(everything: Statistics) -> None:
    races = [g.race.scores for g in everything.games]
    assert races == [
        ((0, 0), (17, 32), (27, 44), (28, 61)),
        ((0, 0), (2, 22), (31, 59), (31, 61)),
        ((0, 0), (11, 7), (41, 27), (61, 27)),
    ]
    assert [g.names for g in everything.games] == [
        ("Ann", "Ben"), ("Ann", "Ben"), ("Ann & Cat", "Ben & Dan"),
    ]
    assert [(g.winner, g.skunk) for g in everything.games] == [
        (1, "skunk"), (1, "none"), (0, "skunk"),
    ]


def test_ann(everything: Statistics) -> None:
    ann = side(everything, "Ann")
    # Hands: 6 (game 1, deal 1) and 0 (game 2, deal 1); her game-1 deal-3 hand never counted.
    # Crib: 9 in game 1. Pegging: 2 + 1 (game 1), 2 + 0 (game 2) over 4 card-by-card deals.
    assert ann == {
        "name": "Ann", "games": 2, "wins": 0,
        "skunks_given": 0, "double_skunks_given": 0, "skunks_taken": 1, "double_skunks_taken": 0,
        "deals": 6,
        "hands": 2, "hand_points": 6, "average_hand": 3.0,
        "cribs": 1, "crib_points": 9, "average_crib": 9.0,
        "pegging_deals": 4, "pegging_points": 5, "average_pegging": 1.25,
        "best_hand": {"points": 6, "cards": ["KC", "9H", "9D", "QC"], "starter": "5S",
                      "player": "Ann", "game": 1},
        # No dealt cards entered, no muggins: only her plays were judged, by the pegging
        # coach's look-ahead (tests/test_pegging_judgement).
        "discards_reviewed": 0, "average_discard_loss": None, "missed_a_game": 0.0,
        "pegging_loss_a_game": 0.1745,
    }


def test_ben(everything: Statistics) -> None:
    ben = side(everything, "Ben")
    # Hands 29 + 16 (game 1) + 17 (game 2) = 62 over 3; crib 2 (game 2; his game-1 crib was
    # pegged by points); pegging 3 + 1 (game 1), 1 + 2 (game 2) = 7 over 4 deals. His heels
    # (2) is neither hand, crib nor pegging.
    assert ben["games"] == 2 and ben["wins"] == 2
    assert (ben["skunks_given"], ben["skunks_taken"]) == (1, 0)
    assert (ben["hands"], ben["hand_points"], ben["average_hand"]) == (3, 62, 20.6667)
    assert (ben["cribs"], ben["crib_points"], ben["average_crib"]) == (1, 2, 2.0)
    assert (ben["pegging_deals"], ben["pegging_points"], ben["average_pegging"]) == (4, 7, 1.75)
    assert ben["best_hand"] == {"points": 29, "cards": ["JS", "5H", "5D", "5C"],
                                "starter": "5S", "player": "Ben", "game": 1}


def test_partnerships(everything: Statistics) -> None:
    ac = side(everything, "Ann & Cat")
    bd = side(everything, "Ben & Dan")
    # Two hands a deal for a partnership: Ann 6 + Cat 2; Ben 2 + Dan 2.
    assert (ac["hands"], ac["hand_points"], ac["average_hand"]) == (2, 8, 4.0)
    assert (bd["hands"], bd["hand_points"], bd["average_hand"]) == (2, 4, 2.0)
    # Dan's zero crib is a crib counted; Ann & Cat owned no counted crib.
    assert (bd["cribs"], bd["crib_points"], bd["average_crib"]) == (1, 0, 0.0)
    assert (ac["cribs"], ac["average_crib"]) == (0, None)
    assert ac["average_pegging"] == 3.0 and bd["average_pegging"] == 3.0
    assert (ac["wins"], ac["skunks_given"], bd["skunks_taken"]) == (1, 1, 1)
    assert ac["best_hand"] == {"points": 6, "cards": ["AS", "4S", "JS", "2H"],
                               "starter": "2D", "player": "Ann", "game": 3}
    # A tie for the best hand keeps the first one counted (Ben's, before Dan's).
    assert isinstance(bd["best_hand"], dict) and bd["best_hand"]["player"] == "Ben"


def test_first_dealer_rate(everything: Statistics) -> None:
    # Ann dealt first and lost; Ben dealt first and won; Dan dealt first and lost.
    assert (everything.first_dealer_games, everything.first_dealer_wins) == (3, 1)
    assert everything.first_dealer_win_rate == 0.3333


def test_double_skunk_and_an_unfinished_game() -> None:
    double = (
        '{"type": "game", "players": ["Ann", "Ben"]}\n'
        '{"type": "deal", "dealer": 1}\n'
        '{"type": "peg", "player": 0, "points": 70}\n'
        '{"type": "peg", "player": 1, "points": 60}\n'
        '{"type": "deal"}\n'
        '{"type": "peg", "player": 0, "points": 51}\n'
    )
    unfinished = '{"type": "game", "players": ["Ann", "Ben"]}\n{"type": "deal", "dealer": 0}\n'
    stats = compute([("double", double), ("unfinished", unfinished)])
    ann = side(stats, "Ann")
    ben = side(stats, "Ben")
    # 121 to 60: a double skunk (60 or less), which is also counted as a skunk.
    assert (ann["skunks_given"], ann["double_skunks_given"]) == (1, 1)
    assert (ben["skunks_taken"], ben["double_skunks_taken"]) == (1, 1)
    # Points-only deals: no hand, crib or pegging averages.
    assert (ann["hands"], ann["average_hand"], ann["pegging_deals"]) == (0, None, 0)
    assert ann["games"] == 1 and ann["deals"] == 2
    assert stats.games[1].finished is False
    assert stats.notes == ("game 2 (unfinished) is not finished: not counted",)
    assert (stats.first_dealer_games, stats.first_dealer_wins) == (1, 0)


def test_bad_records_name_the_source_and_line() -> None:
    with pytest.raises(RecordError, match=r"^bad\.jsonl: line 3: "):
        replay_record(
            ['{"type": "game", "players": ["Ann", "Ben"]}', '{"type": "deal", "dealer": 0}',
             '{"type": "play", "player": 0, "card": "5H"}'],
            source="bad.jsonl",
        )
    with pytest.raises(RecordError, match=r"^x: line 2: .*not valid JSON"):
        replay_record(['{"type": "game", "players": ["Ann", "Ben"]}', "{oops"], source="x")
    with pytest.raises(RecordError, match=r"^x: the record is empty"):
        replay_record([], source="x")


def test_text_output(everything: Statistics) -> None:
    text = format_text(everything)
    assert "First dealer won 1 of 3 (33%)" in text
    assert "best hand 29: J♠ 5♥ 5♦ 5♣ with 5♠ (game 1)" in text
    assert "  game 3: Ann & Cat 0 11 41 61 | Ben & Dan 0 7 27 27" in text
    assert "average hand 20.67 (3 hands), crib 2.00 (1 crib), pegging 1.75 (4 deals)" in text


# --- the command -----------------------------------------------------------------------------


def test_cli_records_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--record", str(MATCH), str(PARTNERS), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in data["players"]] == ["Ann", "Ben", "Ann & Cat", "Ben & Dan"]
    assert data["first_dealer"] == {"games": 3, "wins": 1, "rate": 0.3333}
    assert data["games"][1]["race"] == [[0, 0], [2, 22], [31, 59], [31, 61]]


def test_cli_plot_one_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    png = tmp_path / "race.png"
    assert main(["stats", "--record", str(MATCH), "--game", "2", "--plot", str(png)]) == 0
    captured = capsys.readouterr()
    assert "game 2: Ann 0 2 31 31 | Ben 0 22 59 61" in captured.out
    assert "game 1:" not in captured.out
    assert "score race of game 2 written to" in captured.err
    with Image.open(png) as image:
        assert image.format == "PNG"
    svg = tmp_path / "race.svg"
    assert main(["stats", "--record", str(PARTNERS), "--plot", str(svg)]) == 0
    assert "Ann &amp; Cat 61  won" in svg.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--record", "missing.jsonl"], "cannot read 'missing.jsonl'"),
        (["--record", str(MATCH), "--game", "9"], "there is no game 9: 2 game(s) were read"),
        (["--record", str(MATCH), "--plot", "race.gif"], "must end in .png or .svg"),
    ],
)
def test_cli_errors_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["stats", *argv]) == 2
    assert message in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_cli_bad_game_number_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["stats", "--game", "0"])
    assert exit_info.value.code == 2
    assert "'0' is not a game number" in capsys.readouterr().err


def test_cli_reads_the_store_history(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from pegboard.store import Store

    store_dir = tmp_path / "store"
    store = Store(store_dir, owner="test")
    lines = [json.loads(line) for line in PARTNERS.read_text(encoding="utf-8").splitlines()]
    store.new_game(lines[0])
    for line in lines[1:]:
        store.append(line)
    store.finish({"winner": 0})
    store.close()
    assert main(["stats", "--store", str(store_dir), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in data["players"]] == ["Ann & Cat", "Ben & Dan"]
    assert data["games"][0]["race"] == [[0, 0], [11, 7], [41, 27], [61, 27]]


def test_cli_empty_store(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--store", str(tmp_path / "none")]) == 0
    out = capsys.readouterr().out
    assert "Games: 0 finished" in out and "no finished games in the store" in out


def test_unknown_errors_are_pegboard_errors() -> None:
    assert issubclass(RecordError, PegboardError)


# --- random whole games --------------------------------------------------------------------


def _record_text(game: object) -> str:
    import io

    from pegboard.record import write
    from tests.support.games import RandomGame

    assert isinstance(game, RandomGame)
    out = io.StringIO()
    write(out, game.header, game.events)
    return out.getvalue()


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("mode", ["cards", "mixed"])
def test_random_games_add_up(players: int, mode: str) -> None:
    """Races end on the independently computed scores; counted hands rescored by hand agree."""
    from pegboard.rules.cards import Card
    from pegboard.rules.events import Deal, Play, Starter
    from pegboard.rules.show import score_hand
    from tests.support.games import random_game

    for seed in range(6):
        game = random_game(seed, players, mode=mode)
        (summary,) = replay_record(_record_text(game).splitlines(), source=f"seed {seed}")
        assert summary.finished and summary.winner == game.winner
        target = game.header.rules.target
        # The race ends on the board as shown: the winner at the target, never above it.
        assert list(summary.race.final) == [min(score, target) for score in game.scores]
        assert max(score for row in summary.race.scores for score in row) == target
        deals = sum(isinstance(e, Deal) for e in game.events)
        assert summary.race.deals == deals
        assert all(t.deals == deals for t in summary.tallies)
        if mode != "cards":
            continue
        # Every deal but the last was counted in full: each seat's hand is the cards it played.
        sides = len(summary.names)
        expected_hands = [0] * sides
        expected_points = [0] * sides
        starter: Card | None = None
        played: dict[int, list[Card]] = {}
        for deal_events in game.deals[:-1]:
            for event in deal_events:
                if isinstance(event, Starter):
                    starter = event.card
                elif isinstance(event, Play):
                    played.setdefault(event.player, []).append(event.card)
            assert starter is not None
            for seat, cards in played.items():
                side_ = seat % 2 if players == 4 else seat
                expected_hands[side_] += 1
                expected_points[side_] += score_hand(cards, starter).total
            played = {}
        for side_, tally in enumerate(summary.tallies):
            last_deal_hands = tally.hands.times - expected_hands[side_]
            assert 0 <= last_deal_hands <= (2 if players == 4 else 1)
            if last_deal_hands == 0:
                assert tally.hands.points == expected_points[side_]
            assert tally.pegging.times == deals


def test_three_players_each_loser_judged_on_their_own_score() -> None:
    record = (
        '{"type": "game", "players": ["Ann", "Ben", "Cat"]}\n'
        '{"type": "deal", "dealer": 0}\n'
        '{"type": "peg", "player": 1, "points": 95}\n'
        '{"type": "peg", "player": 2, "points": 40}\n'
        '{"type": "peg", "player": 0, "points": 121}\n'
    )
    stats = compute([("three", record)])
    # Ann wins 121; Ben on 95 is above the skunk line (90), Cat on 40 is double skunked (<= 60).
    assert (side(stats, "Ben")["skunks_taken"], side(stats, "Cat")["skunks_taken"]) == (0, 1)
    assert side(stats, "Cat")["double_skunks_taken"] == 1
    assert stats.games[0].race.final == (121, 95, 40)


def test_replay_events_gives_the_race_from_a_live_game() -> None:
    from pegboard import record
    from pegboard.rules.game import Game
    from pegboard.stats import replay_events

    with PARTNERS.open(encoding="utf-8") as stream:
        header, events = record.read(stream)
    game = Game.from_header(header)
    for event in events:
        game.apply(event)
    (summary,) = replay_events(game.header, game.events)
    assert summary.race.scores == ((0, 0), (11, 7), (41, 27), (61, 27))
    assert summary.race.names == ("Ann & Cat", "Ben & Dan")


def test_a_damaged_store_game_is_left_out_with_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from pegboard.store import Store

    store_dir = tmp_path / "store"
    with Store(store_dir, owner="test") as store:
        # Accepted by the store (it checks the line format, not the rules) but not by the
        # engine: Ben cannot lead when Ann is the pone.
        store.new_game({"type": "game", "players": ["Ann", "Ben"]})
        store.append({"type": "deal", "dealer": 1})
        store.append({"type": "starter", "card": "5H"})
        store.append({"type": "play", "player": 1, "card": "5C"})
        store.finish({"winner": None})
        lines = [json.loads(x) for x in PARTNERS.read_text(encoding="utf-8").splitlines()]
        store.new_game(lines[0])
        for line in lines[1:]:
            store.append(line)
        store.finish({"winner": 0})
    assert main(["stats", "--store", str(store_dir), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in data["players"]] == ["Ann & Cat", "Ben & Dan"]
    (note,) = data["notes"]
    assert note.startswith("left out: store game ") and ": line 4: " in note


def test_cli_reads_a_record_from_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(PARTNERS.read_text(encoding="utf-8")))
    assert main(["stats", "--record", "-"]) == 0
    assert "game 1: Ann & Cat 0 11 41 61 | Ben & Dan 0 7 27 27" in capsys.readouterr().out


def test_cli_a_bad_record_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "game", "players": ["Ann", "Ben"]}\n{"type": "deal"}\n',
                   encoding="utf-8")
    assert main(["stats", "--record", str(PARTNERS), str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}: line 2:" in err and "deal" in err


def test_a_renege_take_back_is_taken_off_where_it_was_counted() -> None:
    """The renege example: after the take-back, the hand, crib and pegging tallies of each
    side add up with its other awards to its final score, and every hand is counted once."""
    from pegboard.record import read
    from pegboard.rules.game import Game

    path = Path(__file__).parent.parent / "examples" / "renege-and-undo.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    summary = replay_record(lines)[0]
    header, events = read(lines)
    game = Game.from_header(header)
    for event in events:
        game.apply(event)
    awards = game.state.awards
    assert any(a.reason == "renege take-back" for a in awards)
    for side, tally in enumerate(summary.tallies):
        other = sum(a.points for a in awards if a.side == side and (
            a.cancels if a.reason == "renege take-back" else a.reason)
            not in ("hand", "crib", *PLAY_REASONS))
        assert tally.hands.points + tally.cribs.points + tally.pegging.points + other == \
            game.state.scores[side]
