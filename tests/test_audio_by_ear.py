"""What a player who cannot see the screen would trip on, found by playing deals by ear in
the simulator's audio mode (docs/accessibility.md), each put right and held here."""

from __future__ import annotations

import pytest

from pegboard.voice.audio import screen_words
from pegboard.voice.phrases import read_view
from tests.test_app_starter_suit import asked, resumed


@pytest.mark.parametrize(("kit", "said"), [
    ("encoder", "Ann's hand. Starter ace: suit for nobs? ace of clubs"),
    ("keypad", "Ann's hand. Starter ace: suit for nobs? 1 clubs, 2 diamonds, 3 hearts, "
               "4 spades. ace of clubs"),
])
def test_the_starters_suit_question_is_said_whole_with_the_keypads_keys_in_words(
        kit: str, said: str) -> None:
    """The screen's line shortens the question to fit ("A? 1♣ 2♦ 3♥ 4♠ nobs"), which the
    voice read as cards ("ace? 1 of clubs 2 of diamonds ... nobs"); it says the question
    whole, what the suit decides and which key is which suit, then the wheel's card."""
    view = asked(resumed(kit))
    assert screen_words(view) == said
    assert " of clubs 2" not in read_view(view) and "suit for nobs?" in read_view(view)
