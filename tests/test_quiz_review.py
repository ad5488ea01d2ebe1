"""``pegboard quiz`` checks answers with the scorer; ``pegboard review`` lists a record's
mistakes by expected points lost and each player's counting."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from pegboard import record
from pegboard.cli import main
from pegboard.coach.advice import advise
from pegboard.coach.drills import Drill, Question, ask
from pegboard.coach.lessons import lessons
from pegboard.coach.lookahead import given_up, judge
from pegboard.coach.review import points_text, review_discard
from pegboard.rules.cards import Card, parse_cards
from pegboard.rules.events import Claim, Dealt
from pegboard.rules.game import Game
from pegboard.rules.show import score_hand
from pegboard.rules.value import replace
from tests.support.games import random_game
from tests.test_cli_lazy import HEAVY, _loaded_after


def quiz(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
         argv: list[str], answers: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    status = main(["quiz", *argv])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_count_quiz_answers_are_checked_by_the_scorer(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = random.Random(7)
    first, second = ask(Drill.COUNT, rng), ask(Drill.COUNT, rng)
    assert first.starter is not None and second.starter is not None
    true1 = score_hand(first.cards, first.starter, crib=first.crib).total
    true2 = score_hand(second.cards, second.starter, crib=second.crib).total
    wrong = (true2 + 1) % 30
    status, out, _ = quiz(monkeypatch, capsys, ["count", "--seed", "7", "--rounds", "2"],
                          f"{true1}\n{wrong}\n")
    assert status == 0
    assert out.count(first.prompt()) == 1 and out.count(second.prompt()) == 1
    assert f"  Right: {true1}.\n" in out
    assert f"  It is {true2}, not {wrong}.\n" in out
    assert out.endswith("1 of 2 right.\n")


def test_discard_quiz_reviews_the_cards_laid_away(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = random.Random(11)
    first, second = ask(Drill.DISCARD, rng), ask(Drill.DISCARD, rng)
    best = advise(first.cards, dealer=first.dealer)[0]
    worst = advise(second.cards, dealer=second.dealer)[-1]
    answers = (" ".join(str(c) for c in best.discard) + "\n"
               + " ".join(str(c) for c in worst.discard) + "\n")
    status, out, _ = quiz(monkeypatch, capsys, ["discard", "--seed", "11", "--rounds", "2"],
                          answers)
    assert status == 0
    loss = review_discard(second.cards, worst.keep, dealer=second.dealer).loss
    assert loss > 0
    assert "  Right.\n" in out and f"  Given up: {points_text(loss)}.\n" in out
    assert out.endswith("1 of 2 right.\n")


def test_peg_quiz_judges_the_card_by_the_coachs_look_ahead(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seed = next(seed for seed in range(100)  # a question whose cards are not all as good
                if len({a.value for a in judge(ask(Drill.PEG, random.Random(seed)).known)}) > 1)
    options = judge(ask(Drill.PEG, random.Random(seed)).known)
    status, out, _ = quiz(monkeypatch, capsys, ["peg", "--seed", str(seed), "--rounds", "1"],
                          f"{options[0].card}\n")
    assert status == 0 and "  Right: " in out and out.endswith("1 of 1 right.\n")
    assert options[-1].value < options[0].value
    status, out, _ = quiz(monkeypatch, capsys, ["peg", "--seed", str(seed), "--rounds", "1"],
                          f"{options[-1].card}\n")
    lost = points_text(options[0].value - options[-1].value)
    assert f"{lost} given up on average" in out and out.endswith("0 of 1 right.\n")


def test_the_open_handed_peg_quiz_weighs_the_next_players_shown_cards(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--open``: the next player's cards are shown with the question, and the right card
    is the one the coach names at an open-handed table with those cards known; the same
    question without them would be judged otherwise (the look-ahead then fears any card)."""
    def open_question(seed: int) -> Question:
        return ask(Drill.PEG, random.Random(seed), open_hands=True)

    def fearful(seed: int) -> bool:  # the card best without their cards gives up points
        question = open_question(seed)
        closed = judge(replace(question, theirs=None).known)[0].card
        return (given_up(question.known, closed) or 0) > 0

    seed = next(seed for seed in range(200) if fearful(seed))
    question = open_question(seed)
    assert question.theirs is not None and question.known.theirs == question.theirs
    options = judge(question.known)
    status, out, _ = quiz(monkeypatch, capsys, ["peg", "--open", "--seed", str(seed),
                                                "--rounds", "1"], f"{options[0].card}\n")
    shown = " ".join(c.pretty for c in question.theirs)
    assert status == 0 and f"Open hands: the next player holds {shown}." in out
    assert out.count(question.prompt()) == 1 and out.endswith("1 of 1 right.\n")
    closed = judge(replace(question, theirs=None).known)[0].card
    status, out, _ = quiz(monkeypatch, capsys, ["peg", "--open", "--seed", str(seed),
                                                "--rounds", "1"], f"{closed}\n")
    assert status == 0 and out.endswith("0 of 1 right.\n")
    status, _, err = quiz(monkeypatch, capsys, ["count", "--open", "--seed", "1"], "4\n")
    assert status == 2 and "--open is for the peg drill" in err


@pytest.mark.parametrize("drill, answer, message", [
    ("count", "seventeen\n", "'seventeen' is not a count: answer with the points, 0 to 29"),
    ("count", "\u00b2\n", "'\u00b2' is not a count"),  # "²": a digit to str, not to int
    ("discard", "5H\n", "name 2 different card(s)"),
    ("discard", "XX YY\n", "XX"),
    ("peg", "QS QS\n", "name 1 different card(s)"),
])
def test_bad_answers_get_a_clear_message_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    drill: str, answer: str, message: str,
) -> None:
    status, _, err = quiz(monkeypatch, capsys, [drill, "--seed", "1"], answer)
    assert status == 2
    assert message in err and err.startswith("pegboard quiz: ")


def test_end_of_input_ends_the_quiz(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = quiz(monkeypatch, capsys, ["count", "--seed", "1"], "")
    assert status == 0 and out.endswith("0 of 0 right.\n")


# -- pegboard review ---------------------------------------------------------------------------


def write_record(tmp_path: Path, seed: int) -> tuple[Path, Game]:
    made = random_game(seed, dealt=True, muggins=True)
    path = tmp_path / "game.jsonl"
    with path.open("w", encoding="utf-8") as stream:
        record.write(stream, made.header, made.events)
    game = Game.from_header(made.header)
    for event in made.events:
        game.apply(event)
    return path, game


def test_review_lists_discards_by_the_advice_engines_loss(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, game = write_record(tmp_path, 3)
    assert main(["review", str(path), "--json", "--top", "500"]) == 0
    data = json.loads(capsys.readouterr().out)
    losses = [m["lost"] for m in data["mistakes"]]
    assert losses == sorted(losses, reverse=True)
    discards = [m for m in data["mistakes"] if m["kind"] == "discard"]
    assert discards, "random keeps give points away"
    # Each deal's dealt cards, in order, from the record itself.
    dealt: dict[int, list[tuple[Card, ...]]] = {}
    for event in game.events:
        if isinstance(event, Dealt):
            dealt.setdefault(event.player, []).append(event.cards)
    dealer_of = {}
    walk = Game.from_header(game.header)
    for event in game.events:
        walk.apply(event)
        dealer_of[walk.state.deal_no] = walk.state.dealer
    for mistake in discards:
        cards = dealt[mistake["player"]][mistake["deal"] - 1]
        away = parse_cards(mistake["did"].removeprefix("laid away "))
        kept = tuple(c for c in cards if c not in away)
        own = dealer_of[mistake["deal"]] == mistake["player"]
        again = review_discard(cards, kept, dealer=own)
        assert mistake["lost"] == round(float(again.loss), 3) > 0
        best = " ".join(c.pretty for c in again.best.discard)
        assert mistake["better"] == f"best lay away {best}"
    assert sum(m["lost"] for m in discards) == pytest.approx(
        sum(p["discard_loss"] for p in data["per_player"]), abs=0.001 * len(discards))


def test_review_counts_the_claims_of_a_muggins_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, game = write_record(tmp_path, 4)
    assert main(["review", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    claims = sum(1 for e in game.events if isinstance(e, Claim))
    counted = sum(p["claims"] for p in data["per_player"])
    assert 0 < counted <= claims
    under = sum(p["under"] for p in data["per_player"])
    assert (under == 0) == (sum(p["missed"] for p in data["per_player"]) == 0)
    assert main(["review", str(path)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Ann v Ben: 1 game(s)\n")
    assert "Per player:\n  Ann: " in text and "claims right" in text


def test_review_of_a_missing_or_broken_record_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", str(tmp_path / "none.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n", encoding="utf-8")
    assert main(["review", str(bad)]) == 2
    assert "line 1" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exited:  # "²": a digit to str.isdigit, not to int
        main(["review", "--top", "\u00b2", str(bad)])
    assert exited.value.code == 2
    assert "'\u00b2' is not a number of mistakes" in capsys.readouterr().err


def test_stats_adds_discard_loss_and_missed_points_a_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, game = write_record(tmp_path, 3)
    found = lessons(game)
    assert main(["stats", "--record", str(path)]) == 0
    out = capsys.readouterr().out.split("\nLearning (discards by expected value, counting, "
                                        "pegging):\n")
    assert len(out) == 2
    wanted = []
    for who in found.players:
        assert who.discards > 0
        loss = points_text(who.discard_loss / who.discards)
        wanted.append(f"  {found.names[who.player]}: discards {loss} given up on average "
                      f"({who.discards} reviewed); a game: {who.counting.missed}.0 missed "
                      f"counting, {points_text(who.pegging_loss)} given up pegging")
    assert out[1].splitlines() == wanted


@pytest.mark.parametrize("argv", [["quiz", "count", "--rounds", "1"], ["review"]])
def test_quiz_and_review_load_only_themselves(argv: list[str], tmp_path: Path) -> None:
    if argv == ["review"]:
        path, _ = write_record(tmp_path, 5)
        argv = ["review", str(path)]
    modules = _loaded_after(argv)
    reading = {"pegboard.commands.parsers", "pegboard.commands.options",
               "pegboard.commands.collector"}  # the command line's own reading, every command's
    assert {m for m in modules if m.startswith("pegboard.commands.")} <= {
        "pegboard.commands", "pegboard.commands.paths", f"pegboard.commands.{argv[0]}", *reading}
    assert not [name for name in modules if name.split(".")[0] in HEAVY]
