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
    assert lines[1].endswith("double pair royal is 28, and his nob is 29")
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
        (["score", "5H", "5C", "JD", "--starter", "5S"], "add --five-card"),
        (["score", "5H", "5C", "JD", "4D", "--starter", "5S", "--five-card"], "has 3 cards"),
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


def test_score_five_card_hand_of_three(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "score", "5H", "5C", "JD", "--starter", "5S", "--five-card")
    assert status == 0
    assert out.splitlines()[-1] == "Total: 14"


def test_score_needs_a_starter(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["score", "5H", "5S", "5C", "JD"])
    assert caught.value.code == 2
    assert "--starter" in capsys.readouterr().err


def test_peg_card_by_card(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "peg", "4S", "2H", "6D", "5C", "3S")
    assert status == 0
    assert out.splitlines() == [
        "4S: 4", "2H: 6", "6D: 12", "5C: 17", "3S: 20, run of 5 for 5",
        "Pegged, taking turns: the leader 5 (cards 1, 3, 5), the other player 0 (cards 2, 4)",
    ]
    run(capsys, "peg", "7C", "8D", "6H", "4S", "5C")
    status, out, _ = run(capsys, "peg", "7C", "8D", "6H", "4S", "5C")
    assert out.splitlines() == [
        "7C: 7", "8D: 15, fifteen for 2", "6H: 21, run of 3 for 3", "4S: 25",
        "5C: 30, run of 5 for 5",
        "Pegged, taking turns: the leader 8 (cards 1, 3, 5), the other player 2 (cards 2, 4)",
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


def test_advise_prints_every_option_best_first(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "advise", "5H", "5S", "6D", "JC", "4C", "KS", "--dealer")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("Dealt 5♥ 5♠ 6♦ J♣ 4♣ K♠ in a two-player game")
    assert lines[2].split() == [
        "discard", "keep", "hand", "+crib", "net", "best", "(starter)", "worst",
    ]
    assert lines[3].split() == [
        "J♣", "K♠", "5♥", "5♠", "6♦", "4♣", "15.96", "3.95", "19.91", "24", "(4,6)", "12",
    ]
    assert len(lines) == 3 + 15 + 1
    assert lines[-1] == "Best: lay away J♣ K♠ — hand 15.96, crib adds 3.95, net 19.91."


def test_advise_json(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "advise", "5H", "5S", "6D", "JC", "4C", "KS", "--pone", "--json")
    options = json.loads(out)
    assert len(options) == 15
    first = next(o for o in options if o["discard"] == ["JC", "KS"])
    assert first["hand"] == pytest.approx(15.956522, abs=1e-6)
    assert first["crib"] == pytest.approx(3.948968, abs=1e-6)
    assert first["net"] == pytest.approx(15.956522 - 3.948968, abs=2e-6)
    assert [o["net"] for o in options] == sorted((o["net"] for o in options), reverse=True)


def test_advise_other_deals(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "advise", "5H", "5S", "6D", "JC", "4C", "--pone", "--players", "3",
                    "--json")
    assert [len(o["discard"]) for o in json.loads(out)] == [1] * 5
    _, out, _ = run(capsys, "advise", "5H", "5S", "6D", "JC", "4C", "--dealer", "--five-card",
                    "--json")
    assert [len(o["keep"]) for o in json.loads(out)] == [3] * 10


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["5H", "5S", "6D", "JC", "4C", "--dealer"], "deals 6 cards to each player, got 5"),
        (["5H", "5S", "6D", "JC", "4C", "KS", "--pone", "--players", "4"], "got 6"),
        (["5H", "5S", "6D", "JC", "4C", "KS", "--pone", "--five-card"], "got 6"),
        (["5H", "5S", "6D", "JC", "4C", "--dealer", "--players", "3", "--five-card"],
         "two-player game"),
        (["5H", "5S", "6D", "JC", "4C", "4C", "--dealer"], "4C appears twice"),
        (["5H", "5S", "6D", "JC", "4C", "ZZ", "--dealer"], "'ZZ' is not a card"),
    ],
)
def test_advise_bad_deals(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, "advise", *argv)
    assert status == 2 and out == ""
    assert message in err


def test_advise_needs_dealer_or_pone(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["advise", "5H", "5S", "6D", "JC", "4C", "KS"])
    assert caught.value.code == 2
    assert "--dealer" in capsys.readouterr().err


def test_peg_explains_near_misses(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "peg", "5C", "6D", "9H", "7S", "--explain")
    assert out.splitlines() == [
        "5C: 5", "6D: 11", "9H: 20", "7S: 27 — no run: the 9 breaks the run 5, 6 and 7",
        "Pegged, taking turns: the leader 0 (cards 1, 3), the other player 0 (cards 2, 4)",
    ]
