"""``pegboard replay``: the sample records under examples/, the JSON form, and bad records."""

from __future__ import annotations

import io
import json
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from pegboard.cli import main
from pegboard.record import read
from pegboard.rules.events import RECORD_VERSION
from pegboard.rules.game import Game
from pegboard.rules.state import Award

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

# name: (final scores per side, winner side, skunk, game points)
EXPECTED: dict[str, tuple[list[int], int | None, str, list[int]]] = {
    "two-player": ([116, 121], 1, "none", [0, 2]),
    "three-player": ([97, 107, 122], 2, "none", [0, 0, 2]),
    "four-partners": ([122, 113], 0, "none", [2, 0]),
    "five-card-61": ([61, 54], 0, "none", [2, 0]),
    "quick-mode": ([104, 128], 1, "none", [0, 2]),
    "muggins": ([125, 120], 0, "none", [2, 0]),
    "show-mode": ([111, 108, 127], 2, "none", [0, 0, 2]),
    "renege-and-undo": ([14, 14], None, "none", [0, 0]),
}


def replay_json(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[int, list[dict[str, object]]]:
    status = main(["replay", "--json", str(path)])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return status, lines


def test_every_example_is_checked() -> None:
    assert {p.stem for p in EXAMPLES.glob("*.jsonl")} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_examples_replay_to_their_known_results(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, lines = replay_json(EXAMPLES / f"{name}.jsonl", capsys)
    assert status == 0
    scores, winner, skunk, game_points = EXPECTED[name]
    assert lines[-1] == {
        "type": "result", "scores": scores, "winner": winner, "skunk": skunk,
        "game_points": game_points,
    }
    # One object per event line, numbered as in the file; the running scores add up.
    text = (EXAMPLES / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    assert [line["line"] for line in lines[:-1]] == list(range(2, len(text) + 1))
    assert lines[-2]["scores"] == scores


def test_json_awards_carry_player_points_and_reason(capsys: pytest.CaptureFixture[str]) -> None:
    _, lines = replay_json(EXAMPLES / "renege-and-undo.jsonl", capsys)
    by_line = {line["line"]: line for line in lines[:-1]}
    assert by_line[5] == {
        "line": 5, "awards": [{"player": 0, "points": 2, "reason": "fifteen"}], "scores": [2, 0],
    }
    assert by_line[11]["awards"] == [] and by_line[11]["scores"] == [2, 1]  # the undo
    # The renege penalty takes the play back to Ann's go at 25: what was pegged since is
    # retracted, then Ben takes 2; the line says which cards went back to the hands.
    assert by_line[17] == {
        "line": 17,
        "awards": [
            {"player": 1, "points": -1, "reason": "renege take-back", "cancels": "go"},
            {"player": 0, "points": -2, "reason": "renege take-back", "cancels": "thirty-one"},
            {"player": 1, "points": -1, "reason": "renege take-back", "cancels": "last card"},
            {"player": 1, "points": -9, "reason": "renege take-back", "cancels": "hand"},
            {"player": 0, "points": -5, "reason": "renege take-back", "cancels": "hand"},
            {"player": 1, "points": 2, "reason": "penalty"},
        ],
        "scores": [2, 2],
        "taken_back": {
            "player": 0, "count": 25, "cards": [["4S", "9C", "8D"], ["QS", "JH"]],
            "points": [7, 11],
        },
    }
    assert "taken_back" not in by_line[16]


def test_the_spoken_replay_tells_the_game_deal_by_deal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(EXAMPLES / "renege-and-undo.jsonl")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Ann v Ben: game to 121\n")
    assert "Deal 1: Ann deals." in out and "Deal 2: Ben deals." in out
    assert "Ann: Fifteen for 2" in out
    assert "Ben: Two for his heels (J♠)" in out
    assert "renege: go at 25 while holding 4♠" in out
    assert "Ann's renege at twenty-five is taken back: Ann 4♠ 9♣ 8♦, Ben Q♠ J♥" in out
    assert "Ben: taken back after the renege: Go for one  (-1)" in out
    assert "The play goes on at twenty-five: Ann to play" in out


def test_a_bad_line_stops_the_replay_with_its_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = (EXAMPLES / "renege-and-undo.jsonl").read_text(encoding="utf-8").splitlines()
    bad = [*lines[:5], '{"type": "play", "player": 0, "card": "KS"}', *lines[5:]]
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(bad) + "\n", encoding="utf-8")
    status = main(["replay", "--json", str(path)])
    captured = capsys.readouterr()
    assert status == 2
    assert "line 6: it is Ben's turn, not Ann's" in captured.err
    printed = [json.loads(line) for line in captured.out.splitlines()]
    assert [line["line"] for line in printed] == [2, 3, 4, 5]


def test_unreadable_json_and_missing_files_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "broken.jsonl"
    path.write_text('{"type": "game", "players": ["A", "B"]}\n{"type": "deal", \n', "utf-8")
    assert main(["replay", str(path)]) == 2
    assert "line 2: not valid JSON" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_replay_reads_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (EXAMPLES / "quick-mode.jsonl").read_text(encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    assert main(["replay", "--json", "-"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["winner"] == 1


def test_examples_awards_add_up_to_the_scores() -> None:
    for path in EXAMPLES.glob("*.jsonl"):
        with path.open(encoding="utf-8") as stream:
            header, events = read(stream)
        game = Game.from_header(header)
        awards: list[Award] = []
        for event in events:
            awards.extend(game.apply(event))
        assert game.state.awards == tuple(a for a in game.state.awards)
        totals = [0] * game.state.sides
        for award in game.state.awards:
            totals[award.side] += award.points
        assert tuple(totals) == game.state.scores


def _write(tmp_path: Path, lines: Sequence[Mapping[str, object]]) -> Path:
    path = tmp_path / "game.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def _claim_six_of_fifteen(pegged: int) -> list[dict[str, object]]:
    """A muggins game in which Ben, on ``pegged``, shows a 15-point hand and claims 6."""
    return [
        {"type": "game", "players": ["Ann", "Ben"], "rules": {"muggins": True}},
        {"type": "deal", "dealer": 0},
        {"type": "peg", "player": 1, "points": pegged},
        {"type": "starter", "card": "5S"},
        {"type": "show", "player": 1, "cards": ["5C", "5D", "JS", "4H"]},
        {"type": "claim", "player": 1, "points": 6},
    ]


def test_no_muggins_is_offered_once_a_claim_ended_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ben on 116 claims 6 of his 15-point hand: 122, the game. The 9 he missed are not open
    to muggins: nothing is scored after the game is won."""
    path = _write(tmp_path, _claim_six_of_fifteen(116))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Ben claims six" in out and "Ben won" in out
    assert "may call muggins" not in out
    # One point short of the game, the same under-claim is open to muggins.
    path = _write(tmp_path, _claim_six_of_fifteen(114))
    assert main(["replay", str(path)]) == 0
    assert "(nine missed by Ben: an opponent may call muggins)" in capsys.readouterr().out


def test_the_replay_says_when_a_later_renege_is_withdrawn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ann goes at 10 twice while her cards fit; claiming the first takes the second go back."""
    case = Path(__file__).parent / "data" / "referee_cases" / "renege-twice-at-the-same-count.jsonl"
    lines = [json.loads(line) for line in case.read_text(encoding="utf-8").splitlines() if line]
    # Read as a record written now (version 8): its cards were entered whole, with suits.
    lines[0] = {**lines[0], "version": RECORD_VERSION}
    path = _write(tmp_path, [*lines, {"type": "penalty", "player": 0, "infraction": "renege"}])
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Ann's renege at ten is taken back: Ann A♦ 10♣ 5♣ 2♦, Ben Q♠ K♠ 9♠" in out
    assert "Ann's renege at ten is withdrawn: that go was taken back too" in out
    assert "Ben: renege (ACC 7.3 (2020)): eight from Ann  (+8)" in out
    assert main(["replay", "--json", str(path)]) == 0
    last = [json.loads(line) for line in capsys.readouterr().out.splitlines()][-2]
    assert last["taken_back"]["cards"] == [["AD", "TC", "5C", "2D"], ["QS", "KS", "9S"]]


def test_the_replay_tells_the_engine_s_facts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ann on 117 lays the last card: fifteen 2, a pair 2 and the last card 1, one act, to
    122; the board shows 121 and the ACC spread is 121 - 74 = 47. Before that, Ben's go is
    owed with his run in a muggins game, and every hand counted is told."""
    path = _write(tmp_path, [
        {"type": "game", "version": RECORD_VERSION, "players": ["Ann", "Ben"]},
        {"type": "deal", "dealer": 0},
        {"type": "peg", "player": 0, "points": 117},
        {"type": "peg", "player": 1, "points": 70},
        {"type": "starter", "card": "9H"},
        *({"type": "play", "player": p, "card": c} for p, c in (
            (1, "KC"), (0, "QD"), (1, "JC"))),
        {"type": "go", "player": 0}, {"type": "go", "player": 1},
        *({"type": "play", "player": p, "card": c} for p, c in (
            (0, "2H"), (1, "5S"), (0, "2D"), (1, "3S"), (0, "3D"))),
    ])
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "  Ben plays J♣: thirty\n    Ben: Run of 3 for 3  (+3)\n" in out
    assert "  Ann plays 3♦: fifteen\n" in out
    assert "(+5: fifteen 2, pair 2, last card 1)\n" in out
    assert "Ann won, a skunk: Ann 121, Ben 74 (Ann pegged 122); spread 47; game points 3" in out
    assert "'s hand" not in out  # nothing is counted after the target
    path = _write(tmp_path, [
        {"type": "game", "version": RECORD_VERSION, "players": ["Ann", "Ben"],
         "rules": {"muggins": True}},
        {"type": "deal", "dealer": 0}, {"type": "starter", "card": "QH"},
        *({"type": "play", "player": p, "card": c} for p, c in (
            (1, "AC"), (0, "2D"), (1, "3H"))),
        {"type": "claim", "player": 1, "points": 3},
        *({"type": "play", "player": p, "card": c} for p, c in ((0, "8S"), (1, "9C"))),
        {"type": "go", "player": 0}, {"type": "play", "player": 1, "card": "7D"},
        {"type": "claim", "player": 1, "points": 4},
        *({"type": "play", "player": 0, "card": c} for c in ("TS", "KD")),
    ])
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "    (Ben to claim: run 3 + go 1)\n  Ben claims four\n" in out
    assert "  Ben's hand A♣ 3♥ 9♣ 7♦ with Q♥: zero\n    (Ben to claim: hand 0)\n" in out
