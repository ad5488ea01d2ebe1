"""Words as players read them, from the players' side through the real ``step``: a count of
nothing is "nineteen" (as the voice says it), a lesson on a miss never ends in a bare colon, and
the device names a rule by its section, never by the file that keeps it."""

from __future__ import annotations

from pegboard.app.inputs import KnobTurn
from pegboard.app.state import Count
from pegboard.app.words import count_lines
from pegboard.coach.rulehelp import TOPICS
from pegboard.coach.teaching import missed_combinations
from pegboard.rules.cards import Card, parse_cards
from pegboard.rules.show import score_hand
from tests.support.app_driver import MENU, OK, App


def test_a_count_of_nothing_reads_nineteen() -> None:
    hand = tuple(parse_cards("2C 4D 6H 8S"))
    items = score_hand(hand, Card.parse("KC"), crib=True).items
    assert count_lines(Count(0, True, hand, items))[0] == "nineteen"


def test_a_miss_no_one_combination_makes_ends_in_words_not_a_colon() -> None:
    # 3 10 K K with a 2 turned is 8: a claim of 1 missed 7, which no combination equals.
    breakdown = score_hand(parse_cards("3C TC KS KC"), Card.parse("2C"))
    lines = missed_combinations(breakdown, 1).lines()
    assert lines == ("Claimed 1, worth 8.", "Missed 7 in all.")


def test_rule_help_on_the_device_says_the_section_not_a_file() -> None:
    app = App.start()
    app.feed(MENU)
    rows = list(app.view.lines)
    rule = next(i for i, r in enumerate(rows) if "Rule" in r)
    app.feed(KnobTurn(rule - (app.view.selected or 0)), OK)
    for index, topic in enumerate(TOPICS):
        if "docs/" not in topic.reference:
            continue
        app.feed(KnobTurn(index - (app.view.selected or 0)), OK)
        for _ in range(len(topic.pages) - 1):
            app.feed(OK)
        shown = " ".join(app.view.lines)
        assert "docs/" not in shown and ".md" not in shown, shown
        assert "rules: " in shown
        return
    raise AssertionError("no topic cites the rules page by section")
