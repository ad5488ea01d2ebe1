"""Rule help: topic content fits the screen, golden text, and the automatic triggers.

Golden files live in tests/golden_text/. After a deliberate change to a topic, regenerate
them with ``PEGBOARD_REGEN_GOLDEN=1 pytest tests/test_rulehelp.py`` and review the diff.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from PIL import ImageFont

from pegboard.cli import main
from pegboard.coach.rulehelp import (
    LINE_WIDTH,
    PAGE_LINES,
    TOPICS,
    Situation,
    paginate,
    topic,
    topics_for,
)
from pegboard.commands.rules import screen_text
from pegboard.errors import PegboardError
from pegboard.rules.cards import Card, parse_cards

GOLDEN = Path(__file__).parent / "golden_text"
REGEN = os.environ.get("PEGBOARD_REGEN_GOLDEN") == "1"
RULES_PAGE = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if REGEN:
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing golden file {path}; run with PEGBOARD_REGEN_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8"), f"{name} differs from its golden file"


def ids(situation: Situation) -> list[str]:
    return [t.id for t in topics_for(situation)]


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


# --- content -------------------------------------------------------------------------------


REQUIRED = {"crib-flush", "go-and-31", "play-runs", "lead-after-go", "heels-nobs",
            "show-order", "renege"}


def test_the_table_disputes_are_all_covered_and_ids_unique() -> None:
    names = [t.id for t in TOPICS]
    assert len(names) == len(set(names))
    assert set(names) >= REQUIRED | {"muggins", "skunk", "three-for-last", "three-four-players"}


@pytest.mark.parametrize("t", TOPICS, ids=lambda t: t.id)
def test_pages_fit_the_oled_in_its_bitmap_font(t: object) -> None:
    from pegboard.coach.rulehelp import Topic

    assert isinstance(t, Topic)
    font = ImageFont.load_default_imagefont()  # the 6x11 bitmap font of the device screens
    assert font.getlength(t.title) <= 128, t.title
    assert t.pages, "a topic needs at least one page"
    for page in t.pages:
        assert 1 <= len(page) <= PAGE_LINES
        for line in page:
            assert len(line) <= LINE_WIDTH
            assert font.getlength(line) <= 128, line
            assert line.isascii(), f"{line!r}: the bitmap font has no glyphs beyond ASCII"
    # 1 title line + PAGE_LINES body lines of 11 pixels fit the 64-pixel screen, in the
    # renderer's own character cell.
    from pegboard.ui.text import CHAR_W

    assert (1 + PAGE_LINES) * 11 <= 64
    assert LINE_WIDTH * CHAR_W <= 128


@pytest.mark.parametrize("t", TOPICS, ids=lambda t: t.id)
def test_references_name_acc_numbers_or_sections_of_the_rules_page(t: object) -> None:
    """Every reference is an ACC number the project's rules page cites, or a section of that
    page (docs/rules.md, which is part of the project)."""
    from pegboard.coach.rulehelp import Topic

    assert isinstance(t, Topic)
    rules = RULES_PAGE.read_text(encoding="utf-8")
    sections = set(re.findall(r"^## (.+)$", rules, flags=re.MULTILINE))
    for part in t.reference.split("; "):
        acc = re.fullmatch(r"ACC (\S+) \(2020\)", part)
        if acc:
            assert f"ACC {acc.group(1)}" in rules, part
            continue
        match = re.fullmatch(r"docs/rules\.md, (.+)", part)
        assert match, part
        for section in match.group(1).split(", "):
            assert section in sections, section


def test_no_topic_cites_a_file_the_project_does_not_have() -> None:
    for t in TOPICS:
        assert "RULES.md" not in t.reference and "RULES.md" not in t.text, t.id


def test_paginate_keeps_short_paragraphs_whole_and_flows_long_ones() -> None:
    assert paginate(["aaa bbb", "ccc ddd eee"], width=7, lines=2) == (
        ("aaa bbb",), ("ccc ddd", "eee"),
    )
    assert paginate(["a b c d e"], width=1, lines=2) == (("a", "b"), ("c", "d"), ("e",))


def test_unknown_topic_names_the_choices() -> None:
    with pytest.raises(PegboardError, match=r"no rule topic 'flush'.*crib-flush"):
        topic("flush")
    assert topic(" Renege ").id == "renege"


# --- golden text ---------------------------------------------------------------------------


@pytest.mark.parametrize("t", TOPICS, ids=lambda t: t.id)
def test_golden_screen_and_full_text(t: object) -> None:
    from pegboard.coach.rulehelp import Topic

    assert isinstance(t, Topic)
    check_golden(f"rules_{t.id}.txt", screen_text(t) + "\n" + t.full_text())


def test_cli_lists_and_prints(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    listing = capsys.readouterr().out
    check_golden("rules_list.txt", listing)
    assert main(["rules", "go-and-31"]) == 0
    out = capsys.readouterr().out
    assert "never 3" in out and "Rule: docs/rules.md, The play" in out
    assert main(["rules", "renege", "--screen"]) == 0
    assert capsys.readouterr().out == screen_text(topic("renege"))


def test_cli_unknown_topic_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "nope"]) == 2
    err = capsys.readouterr().err
    assert "no rule topic 'nope'" in err and "heels-nobs" in err


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    assert main(["rules", "skunk", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["id"] == "skunk" and data["reference"] == "docs/rules.md, Winning"
    assert data["pages"] == [list(p) for p in topic("skunk").pages]


# --- triggers ------------------------------------------------------------------------------


def test_crib_four_flush_not_scored_triggers_crib_flush() -> None:
    crib = cards("2H 5H 9H KH")
    assert ids(Situation("crib", ("crib",), ("fifteen",), crib, Card.parse("3S"))) == [
        "crib-flush"
    ]
    # Five of a suit is a scored flush: nothing to explain.
    assert ids(Situation("crib", ("crib",), ("flush",), crib, Card.parse("3H"))) == []
    # A hand's four-flush is not the crib rule.
    assert ids(Situation("show", ("hand",), ("flush",), crib, Card.parse("3S"))) == []
    assert ids(Situation("crib", (), (), cards("2H 5H 9H KS"), Card.parse("3S"))) == []


def test_a_count_reaching_31_triggers_go_and_31() -> None:
    pile = cards("KH QS 5D 6C")
    assert ids(Situation("play", ("thirty-one",), cards=pile)) == ["go-and-31"]
    assert ids(Situation("play", ("go",), cards=cards("KH QS 5D"))) == []


def test_runs_out_of_order_or_broken_by_a_pair_trigger_play_runs() -> None:
    assert ids(Situation("play", ("run",), cards=cards("5H 7C 6D"))) == ["play-runs"]
    assert ids(Situation("play", ("run",), cards=cards("2S 5H 7C 6D 4S"))) == ["play-runs"]
    # In order (rising or falling) there is nothing to explain.
    assert ids(Situation("play", ("run",), cards=cards("5H 6C 7D"))) == []
    assert ids(Situation("play", ("run",), cards=cards("8H 7C 6D"))) == []
    # 5-6-6-7: people look for a double run; there is none in the play.
    assert ids(Situation("play", (), cards=cards("5H 6C 6D 7S"))) == ["play-runs"]
    assert ids(Situation("play", ("pair",), cards=cards("6C 7S 7D"))) == []
    assert ids(Situation("play", (), cards=cards("KH 2C 9D 4S"))) == []
    assert ids(Situation("play", ("run",), cards=cards("KH QC JD 9S"))) == []  # over 31


def test_new_count_after_go_triggers_lead_after_go() -> None:
    assert ids(Situation("play", cards=cards("9H"), new_count=True)) == ["lead-after-go"]
    assert ids(Situation("play", cards=cards("9H"))) == []


def test_jack_starter_or_heels_triggers_heels_nobs() -> None:
    assert ids(Situation("starter", ("his heels",), starter=Card.parse("JS"))) == ["heels-nobs"]
    assert ids(Situation("starter", (), starter=Card.parse("JS"))) == ["heels-nobs"]
    assert ids(Situation("starter", (), starter=Card.parse("QS"))) == []
    # A jack in hand when the starter is a jack: no nobs, people ask why.
    assert ids(Situation("show", ("hand",), cards=cards("JH 5C 5D 2S"),
                         starter=Card.parse("JS"))) == ["heels-nobs"]
    assert ids(Situation("show", ("hand",), ("nobs",), cards("JH 5C 5D 2S"),
                         Card.parse("3H"))) == []


def test_game_won_in_the_show_triggers_show_order_and_skunk_when_skunked() -> None:
    assert ids(Situation("show", ("hand",), game_over=True)) == ["show-order"]
    # Engine scores hands itself when the last card is played: the event is a play.
    assert ids(Situation("play", ("last card", "hand"), game_over=True, skunk="skunk")) == [
        "show-order", "skunk",
    ]
    assert ids(Situation("play", ("fifteen",), cards=cards("7H 8C"), game_over=True)) == []
    assert ids(Situation("show", ("hand",))) == []


def test_renege_muggins_three_for_last() -> None:
    assert ids(Situation("go", renege=True)) == ["renege"]
    assert ids(Situation("penalty", ("penalty",), infraction="renege")) == ["renege"]
    assert ids(Situation("penalty", ("penalty",), infraction="exposed card")) == []
    assert ids(Situation("muggins", ("muggins",))) == ["muggins"]
    assert ids(Situation("deal", ("three for last",))) == ["three-for-last"]


def test_several_topics_come_in_topic_order() -> None:
    s = Situation("play", ("thirty-one", "run"), cards=cards("KH 6D 8C 7S"))
    assert ids(s) == ["go-and-31", "play-runs"]


# --- from the engine ------------------------------------------------------------------------


def test_situations_from_a_real_game_record() -> None:
    """Replaying tests/data/stats_match.jsonl, help comes up where the dispute would."""
    from pegboard import record
    from pegboard.coach.rulehelp import situation_after
    from pegboard.rules.game import Game

    path = Path(__file__).parent / "data" / "stats_match.jsonl"
    with path.open(encoding="utf-8") as stream:
        header, events = record.read(stream)
    game = Game.from_header(header)
    found: dict[int, list[str]] = {}
    for line, event in enumerate(events, start=2):
        before = game.state
        awards = game.apply(event)
        topics = [t.id for t in topics_for(situation_after(event, awards, before, game.state))]
        if topics:
            found[line] = topics
    assert found == {
        10: ["lead-after-go"],  # Ann leads 9H after Ben's go
        14: ["lead-after-go"],  # Ann leads again after her own go
        15: ["crib-flush"],  # four hearts in the crib, spade starter
        28: ["lead-after-go"],
        30: ["show-order", "skunk"],  # Ben counts out first; Ann on 28 is skunked
        34: ["heels-nobs"],  # jack turned
        39: ["go-and-31"],
        40: ["lead-after-go"],  # after the 31 Ben leads (the undone 9D is gone)
    }


# --- what the topics say, against the engine ---------------------------------------------------


def test_lead_after_go_names_the_last_player_when_the_other_is_out_of_cards() -> None:
    """Two players: after a count ends, the one who did not lay the last card leads, unless
    that player has no cards left; then the last card's player leads again (skipping empty
    hands). The topic must say so, since the engine does exactly that."""
    from tests.support.games import scripted_game

    # Ben: 9S QH 2C | KH. Ann (dealer): KD | 9D 7C | 6H. Count 1: 9 19 29, Ann goes, Ben's 2
    # makes 31. Count 2 (Ann leads): 9 19, Ben is out of cards; Ann's 7 makes 26 and her 6
    # does not fit, so she says go and pegs it.
    game, _ = scripted_game(
        script="deal 0; starter 3S; play 1 9S 0 KD 1 QH; go 0; play 1 2C"
        "; play 0 9D 1 KH 0 7C; go 0",
    )
    state = game.state
    assert state.cards_left == (1, 0) and state.count == 0
    assert state.awards[-1].reason == "go" and state.awards[-1].player == 0
    assert state.to_act == 0  # Ann laid the last card and leads again: Ben has none
    t = topic("lead-after-go")
    words = " ".join(" ".join(page) for page in t.pages)
    assert "The last player leads again" in words
    assert "did not play last leads" not in words
    assert "unless they have no cards left: then the player who laid it leads again" in t.text


def test_muggins_says_what_an_over_claim_to_the_game_hole_costs() -> None:
    t = topic("muggins")
    assert "simply corrected" not in t.text
    assert "false claim of game (ACC 8.4)" in t.text and "15 points back" in t.text
    assert any("ACC 8.4" in line for page in t.pages for line in page)


def test_the_renege_topic_says_how_the_play_goes_on() -> None:
    t = topic("renege")
    assert "takes the play back to that go" in t.text
    assert "goes on from the count of the go" in t.text
    assert t.pages[0] == ("Saying go while", "holding a card that", "fits is a renege.")
