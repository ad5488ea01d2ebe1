"""The shortcuts a restored game's lines are read through give what the long way gives: the
bounded reader's scanner alone against the decoder's ``decode``, whole numbers found again
against read anew, a play line read straight from its object against field by field, and a
hand's fifteens found by searching its subsets' counts against every combination tried."""

from __future__ import annotations

import json
import random
from itertools import combinations

import pytest

from pegboard.errors import RecordError
from pegboard.record import bounded
from pegboard.record.bounded import load_json
from pegboard.record.parse import parse_object
from pegboard.rules.cards import DECK, Card
from pegboard.rules.events import Play
from pegboard.rules.scoring import ScoreItem
from pegboard.rules.show import _fifteens

TEXTS = [
    '{"type": "play", "player": 1, "card": "5H"}', '  {"a": 1}', '{"a": 1}  ', '\t[1, 2]\n',
    '{"a": 1} {"b": 2}', '{"a": 1}x', "", "   ", '{"a": ', '"text"', "12", "-7", "1.5",
    '{"a": -0}', '{"a": 999, "b": -99, "c": 1000}', '{"a": 1e400}', '{"a": NaN}',
    '{"a": 1234567890123}', '{"a": -123456789012}', '{"a": 123456789012}', '[]', "{}",
]


def plain(text: str) -> object:
    """The value, or the error's text, as the decoder's decode reads ``text``."""
    try:
        return ("value", bounded._DECODER.decode(text))
    except Exception as error:  # every error the decoder or its number hooks raise
        return ("error", type(error).__name__, str(error))


@pytest.mark.parametrize("text", TEXTS)
def test_the_scanner_alone_reads_what_decode_reads(text: str) -> None:
    try:
        got: object = ("value", bounded._decoded(text))
    except Exception as error:
        got = ("error", type(error).__name__, str(error))
    assert got == plain(text)


def test_whole_numbers_read_again_are_the_same_and_long_ones_are_still_refused() -> None:
    line = '{"seq": 7, "scores": [121, -5, 7], "x": 999}'
    assert load_json(line) == load_json(line) == json.loads(line)
    with pytest.raises(RecordError, match="13 digits"):
        load_json('{"seq": 1234567890123}')
    assert load_json('{"seq": -123456789012}') == {"seq": -123456789012}
    assert bounded._DECODER.parse_int == bounded._WHOLES.__getitem__
    assert "121" in bounded._WHOLES and "-5" in bounded._WHOLES  # found again next time
    assert all(len(text) <= bounded._KEPT for text in bounded._WHOLES)


@pytest.mark.parametrize(("data", "expected"), [
    ({"type": "play", "player": 1, "card": "5H"}, Play(1, Card.parse("5H"))),
    ({"type": "play", "player": 0, "card": "10c"}, Play(0, Card.parse("TC"))),
    ({"type": "play", "player": 3, "card": " QS "}, Play(3, Card.parse("QS"))),
    ({"type": "play", "player": 2, "card": "4D", "named": True},
     Play(2, Card.parse("4D"), named=True)),
    ({"type": "play", "player": 2, "card": "4D", "named": False}, Play(2, Card.parse("4D"))),
])
def test_a_play_line_reads_the_same_straight_or_field_by_field(
        data: dict[str, object], expected: Play) -> None:
    assert parse_object(data, 4) == expected


@pytest.mark.parametrize(("data", "problem"), [
    ({"type": "play", "player": True, "card": "5H"}, "'player' must be a whole number"),
    ({"type": "play", "player": 4, "card": "5H"}, "'player' must be a whole number"),
    ({"type": "play", "player": 1, "card": "5X"}, "'card'"),
    ({"type": "play", "player": 1, "card": 5}, "'card' must be a card"),
    ({"type": "play", "player": 1}, "'play' needs the field 'card'"),
    ({"type": "play", "card": "5H"}, "'play' needs the field 'player'"),
    ({"type": "play", "player": 1, "card": "5H", "named": "yes"}, "'named' must be true"),
])
def test_a_play_line_the_straight_way_does_not_take_is_refused_as_before(
        data: dict[str, object], problem: str) -> None:
    with pytest.raises(RecordError, match=f"^line 4: {problem}"):
        parse_object(data, 4)


def test_fifteens_are_every_combination_of_fifteen_in_the_order_of_combinations() -> None:
    rng = random.Random(32)
    for _ in range(3000):
        cards = tuple(rng.sample(DECK, rng.choice((4, 5))))
        expected = [ScoreItem("fifteen", combo, 2) for size in range(2, len(cards) + 1)
                    for combo in combinations(cards, size)
                    if sum(card.pips for card in combo) == 15]
        assert _fifteens(cards) == expected
