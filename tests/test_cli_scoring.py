"""The score, peg and demo commands: output, JSON and clear errors with exit status 2."""

from __future__ import annotations

import json

import pytest

from pegboard.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_score_says_the_count_and_the_total(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "score", "5H", "5S", "5C", "JD", "--starter", "5D")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "Hand 5♥ 5♠ 5♣ J♦, starter 5♦"
    assert lines[1].startswith("Fifteen 2 (5♥ J♦), fifteen 4 (5♠ J♦), ")
    assert lines[1].endswith("double pair royal is 28 — and his nob is 29")
    assert lines[2] == "Total: 29"


def test_score_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "score", "5H", "5S", "5C", "JD", "--starter", "5D", "--json")
    assert status == 0
    data = json.loads(out)
    assert data["total"] == 29
    assert data["items"][0] == {"kind": "fifteen", "cards": ["5H", "JD"], "points": 2}
    assert sum(item["points"] for item in data["items"]) == 29
    assert [item["kind"] for item in data["items"]].count("pair") == 6


def test_score_crib_drops_the_four_card_flush(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "score", "2H", "4H", "6H", "8H", "--starter", "KC", "--crib")
    assert out.splitlines()[1:] == ["Nineteen — no score", "Total: 0"]
    _, out, _ = run(capsys, "score", "2H", "4H", "6H", "8H", "--starter", "KC")
    assert out.splitlines()[1:] == ["A flush of 4 is 4", "Total: 4"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["score", "5H", "5X", "5C", "JD", "--starter", "5D"], "'5X' is not a card"),
        (["score", "5H", "5H", "5C", "JD", "--starter", "5D"], "5H appears twice"),
        (["score", "5H", "5S", "5C", "JD", "--starter", "5H"], "5H appears twice"),
        (["score", "5H", "5S", "--starter", "5D"], "a hand has 4 cards"),
        (["peg", "KS", "QH", "JD", "5C"], "would make the count 35"),
        (["peg", "KS", "KS"], "KS appears twice"),
        (["peg", "1S"], "'1S' is not a card"),
    ],
)
def test_bad_input_exits_2_with_a_message(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert message in err
    assert err.startswith(f"pegboard {argv[0]}: ")


def test_score_needs_a_starter(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["score", "5H", "5S", "5C", "JD"])
    assert caught.value.code == 2
    assert "--starter" in capsys.readouterr().err


def test_peg_card_by_card(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "peg", "4S", "2H", "6D", "5C", "3S")
    assert status == 0
    assert out.splitlines() == [
        "4S: 4", "2H: 6", "6D: 12", "5C: 17", "3S: 20, run of 5 for 5", "Total: 5",
    ]
    run(capsys, "peg", "7C", "8D", "6H", "4S", "5C")
    status, out, _ = run(capsys, "peg", "7C", "8D", "6H", "4S", "5C")
    assert out.splitlines() == [
        "7C: 7", "8D: 15, fifteen for 2", "6H: 21, run of 3 for 3", "4S: 25",
        "5C: 30, run of 5 for 5", "Total: 10",
    ]


def test_peg_json(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "peg", "KC", "QD", "6H", "5S", "--json")
    plays = json.loads(out)
    assert [p["count"] for p in plays] == [10, 20, 26, 31]
    assert plays[-1]["points"] == 2
    assert plays[-1]["said"] == "Thirty-one for 2"
    assert plays[-1]["items"] == [
        {"kind": "thirty-one", "cards": ["KC", "QD", "6H", "5S"], "points": 2}
    ]


def test_demo_counts_the_29(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "demo")
    assert status == 0
    lines = [line.strip() for line in out.splitlines()]
    assert "Fifteen 2 (5♥ J♦)" in lines
    assert "Double pair royal is 28" in lines
    assert "And his nob is 29" in lines
    assert lines[-1].startswith("Total: 29")
