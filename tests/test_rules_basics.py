"""The basic rule topics for a first-time player: each exists, is listed, and every worked
example in it is what the scorer says."""

from __future__ import annotations

import pytest

from pegboard.cli import main
from pegboard.coach.help_basics import BASICS, PLAYED, WORKED
from pegboard.coach.rulehelp import TOPICS, topic
from pegboard.rules.pegging import score_play

BASIC_IDS = ("how-to-play", "counting", "crib", "the-play")


def test_the_basics_exist_and_come_first() -> None:
    assert tuple(t.id for t in BASICS) == BASIC_IDS
    assert tuple(t.id for t in TOPICS[: len(BASIC_IDS)]) == BASIC_IDS
    for topic_id in BASIC_IDS:
        assert topic(topic_id).id == topic_id


@pytest.mark.parametrize("topic_id", BASIC_IDS)
def test_each_basic_is_listed_and_printed(
    topic_id: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rules"]) == 0
    listing = capsys.readouterr().out.splitlines()
    assert any(line.split()[0] == topic_id for line in listing[1:]), listing
    assert main(["rules", topic_id]) == 0
    out = capsys.readouterr().out
    assert out.startswith(topic(topic_id).title + "\n")


@pytest.mark.parametrize(
    "worked", [w for ws in WORKED.values() for w in ws], ids=lambda w: f"{w.hand}+{w.starter}"
)
def test_every_worked_hand_scores_what_the_topic_says(worked: object) -> None:
    from pegboard.coach.help_basics import Worked

    assert isinstance(worked, Worked)
    assert worked.breakdown().total == worked.points


def test_every_worked_hand_is_in_its_topic_in_words_and_on_the_screen() -> None:
    for topic_id, hands in WORKED.items():
        t = topic(topic_id)
        screen = [" ".join(page) for page in t.pages]
        for worked in hands:
            assert worked.words() in t.text
            assert f"{worked.points} points." in worked.words()
            assert any(worked.screen() in line for line in screen), worked.screen()


@pytest.mark.parametrize(
    "played", [p for ps in PLAYED.values() for p in ps], ids=lambda p: p.cards
)
def test_every_played_example_pegs_what_the_topic_says(played: object) -> None:
    from pegboard.coach.help_basics import PlayedCards

    assert isinstance(played, PlayedCards)
    assert score_play(played.pile).total == played.points
    assert f"({played.ranks})" in topic("the-play").text


def test_counting_says_a_double_run_of_three_is_8_with_its_pair() -> None:
    from pegboard.rules.cards import Card, parse_cards
    from pegboard.rules.show import score_hand

    t = topic("counting")
    assert "8 for three cards with the pair in it" in t.text
    # 7 8 8 9 with a king: the two runs (3 + 3) and the pair (2) are the 8 players say.
    count = score_hand(parse_cards("7H 8C 8D 9S"), Card.parse("KS"))
    assert sum(i.points for i in count.items if i.kind in ("run", "pair")) == 8


def test_the_crib_topic_says_whose_crib_it_is_and_the_flush_rule() -> None:
    t = topic("crib")
    assert "belongs to the dealer" in t.text
    assert "all five cards of one suit" in t.text
