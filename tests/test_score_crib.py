"""A crib always has four cards (docs/rules.md, "The deal"): ``score_hand`` and ``pegboard
score --crib`` refuse three; three-card hands exist only in five-card cribbage."""

from __future__ import annotations

import pytest

from pegboard.cli import main
from pegboard.errors import InvalidCardError
from pegboard.rules.cards import Card, parse_cards
from pegboard.rules.show import score_hand


def test_a_three_card_crib_is_refused_a_three_card_hand_is_not() -> None:
    with pytest.raises(InvalidCardError, match="a crib has 4 cards, got 3"):
        score_hand(parse_cards("5H 5S 5C"), Card.parse("JD"), crib=True)
    assert score_hand(parse_cards("5H 5S 5C"), Card.parse("JD")).total == 14
    assert score_hand(parse_cards("5H 5S 5C 5D"), Card.parse("JD"), crib=True).total == 28


def test_pegboard_score_refuses_a_three_card_crib(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "5H", "5S", "5C", "--starter", "JD", "--crib"]) == 2
    captured = capsys.readouterr()
    assert "a crib has 4 cards, got 3" in captured.err and captured.out == ""
    assert main(["score", "5H", "5S", "5C", "--starter", "JD", "--five-card"]) == 0
    assert "Total: 14" in capsys.readouterr().out
