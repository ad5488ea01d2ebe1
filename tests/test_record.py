"""The game record: every line type round-trips; bad lines name the line and the reason."""

from __future__ import annotations

import io

import pytest

from pegboard.errors import RecordError
from pegboard.record import decode_lines, decode_text, dump_line, load_json, parse_line, read, write
from pegboard.rules.cards import parse_cards
from pegboard.rules.events import (
    Claim,
    Crib,
    Cut,
    Deal,
    Dealt,
    Event,
    GameHeader,
    Go,
    Muggins,
    NewGame,
    Peg,
    Penalty,
    Play,
    Show,
    Starter,
    Undo,
)
from pegboard.rules.variants import Rules

ISSUE_LINES = [
    '{"type": "game", "players": ["Ann", "Ben"], "rules": {"target": 121}}',
    '{"type": "cut", "cards": ["7H", "KD"]}',
    '{"type": "deal", "dealer": 0}',
    '{"type": "starter", "card": "JH"}',
    '{"type": "play", "player": 1, "card": "5C"}',
    '{"type": "go", "player": 0}',
    '{"type": "show", "player": 1, "cards": ["5C", "6D", "7H", "8S"]}',
    '{"type": "crib", "cards": ["2C", "3D", "4H", "KS"]}',
    '{"type": "peg", "player": 0, "points": 3}',
    '{"type": "penalty", "player": 0, "infraction": "renege", "points": 4}',
    '{"type": "claim", "player": 1, "points": 7}',
    '{"type": "muggins", "player": 0, "points": 2}',
    '{"type": "undo"}',
]


def refusal(text: str, number: int) -> str:
    """Why record line ``number``, ``text``, is refused (it must be)."""
    with pytest.raises(RecordError) as error:
        parse_line(text, number)
    return str(error.value)


def test_every_line_of_the_documented_format_is_read() -> None:
    items = [parse_line(text, n) for n, text in enumerate(ISSUE_LINES, 1)]
    assert items == [
        GameHeader(("Ann", "Ben"), Rules(), version=1),  # no "version": the first format
        Cut(tuple(parse_cards("7H KD"))),
        Deal(0),
        Starter(parse_cards("JH")[0]),
        Play(1, parse_cards("5C")[0]),
        Go(0),
        Show(1, tuple(parse_cards("5C 6D 7H 8S"))),
        Crib(tuple(parse_cards("2C 3D 4H KS"))),
        Peg(0, 3),
        Penalty(0, "renege", 4),
        Claim(1, 7),
        Muggins(0, 2),
        Undo(),
    ]


def test_every_event_round_trips_through_a_line() -> None:
    events: list[Event] = [
        Cut(tuple(parse_cards("7H KD"))), Deal(), Deal(2), Dealt(1, tuple(parse_cards(
            "AC 2C 3C 4C 5C 6C"))), Starter(parse_cards("JH")[0]), Play(1, parse_cards("TC")[0]),
        Go(0), Show(1, tuple(parse_cards("5C 6D 7H 8S"))), Crib(tuple(parse_cards("2C 3D 4H KS"))),
        Peg(0, -3), Penalty(0, "false-claim-of-game", 4, 1, 15), Penalty(1, "looking"),
        Claim(1, 0), Muggins(0, 2), Undo(), NewGame(), NewGame(1),
    ]
    for event in events:
        assert parse_line(dump_line(event)) == event


def test_headers_round_trip_with_rules() -> None:
    cases: list[tuple[int, dict[str, object]]] = [
        (2, {"five_card": True}), (4, {}), (4, {"partnerships": False, "muggins": True}),
        (3, {"target": 61, "game_points": "classic", "match_games": 3}),
    ]
    for players, rules in cases:
        header = GameHeader(tuple("ABCD"[:players]), Rules.from_json(rules, players))
        assert parse_line(dump_line(header, players)) == header


def test_a_whole_record_round_trips() -> None:
    header = GameHeader(("Ann", "Ben"), Rules())
    events = [parse_line(text) for text in ISSUE_LINES[1:]]
    buffer = io.StringIO()
    write(buffer, header, events)  # type: ignore[arg-type]
    buffer.seek(0)
    assert read(buffer) == (header, events)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("{not json", "line 7: not valid JSON"),
        ("[1, 2]", "line 7: expected a JSON object"),
        ('{"player": 1}', 'line 7: every line needs a "type"'),
        ('{"type": "fold"}', "line 7: unknown type 'fold': expected one of game, cut"),
        ('{"type": "play", "card": "5C"}', "line 7: 'play' needs the field 'player'"),
        ('{"type": "play", "player": "1", "card": "5C"}', "line 7: 'player' must be a whole"),
        ('{"type": "play", "player": true, "card": "5C"}', "line 7: 'player' must be a whole"),
        ('{"type": "play", "player": 1, "card": "5X"}', "line 7: 'card': '5X' is not a card"),
        ('{"type": "crib", "cards": "2C 3D"}', "line 7: 'cards' must be a list of cards"),
        ('{"type": "game", "players": ["A", "B"], "rules": {"target": 100}}',
         "line 7: target must be 121 or 61"),
        ('{"type": "game", "players": ["A", "B"], "rules": {"colour": 1}}',
         "line 7: unknown rules key 'colour'"),
        ('{"type": "game", "version": 99, "players": ["A", "B"]}',
         "line 7: record version 99 is not supported"),
    ],
)
def test_bad_lines_name_the_line_and_the_reason(text: str, reason: str) -> None:
    assert refusal(text, 7).startswith(reason)


def test_a_record_must_start_with_the_game_line() -> None:
    with pytest.raises(RecordError, match='line 1: the first line must be the "game" line'):
        read(['{"type": "deal", "dealer": 0}'])
    with pytest.raises(RecordError, match="line 1: the record is empty"):
        read(["", "  "])


def test_unknown_extra_fields_are_ignored_and_version_defaults_to_one() -> None:
    assert parse_line('{"type": "go", "player": 1, "said": "go"}') == Go(1)
    header = parse_line('{"type": "game", "players": ["A", "B"]}')
    assert isinstance(header, GameHeader) and header.version == 1


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('{"type": "game", "players": ["A"]}', "line 3: cribbage is played by 2, 3 or 4 players"),
        ('{"type": "game", "players": ["A", ""]}', "line 3: 'players' must be a list of 2 to 4"),
        ('{"type": "game", "players": "A B"}', "line 3: 'players' must be a list of 2 to 4"),
        ('{"type": "game", "players": ["A", "B", "C"], "rules": {"five_card": true}}',
         "line 3: five-card cribbage is for 2 players"),
    ],
)
def test_bad_game_lines(text: str, reason: str) -> None:
    assert refusal(text, 3).startswith(reason)


# -- the bounded reader -----------------------------------------------------------------------


def test_nesting_is_refused_past_the_bound_before_json_parses_it() -> None:
    assert load_json('{"a": ' + "[" * 7 + "]" * 7 + "}") == {"a": [[[[[[[]]]]]]]}
    with pytest.raises(RecordError, match=r"^line 5: arrays and objects nested more than 8 deep "
                       r"\(column 9\); a record line needs 3 at most$"):
        load_json("[" * 9 + "]" * 9, 5)
    # Far past the interpreter's recursion limit: refused by the scan, not a RecursionError.
    with pytest.raises(RecordError, match="nested more than 8 deep"):
        parse_line('{"type": "deal", "x": ' + "[" * 5000 + "]" * 5000 + "}", 2)
    # Brackets inside strings are text, not nesting.
    assert parse_line('{"type": "go", "player": 0, "note": "' + "[" * 50 + '"}') == Go(0)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('{"type": "peg", "player": 0, "points": ' + "9" * 5000 + "}",
         "line 3: a number of 5,000 digits (999999999999…); whole numbers have at most 12"),
        ('{"type": "peg", "player": 0, "points": -' + "1" * 13 + "}",
         "line 3: a number of 13 digits"),
        ('{"type": "peg", "player": 0, "points": NaN}', "line 3: NaN is not a JSON number"),
        ('{"type": "peg", "player": 0, "points": -Infinity}',
         "line 3: -Infinity is not a JSON number"),
        ('{"type": "game", "players": ["\\ud800", "B"]}',
         "line 3: the text '\\ud800' is not valid Unicode (a lone surrogate)"),
        ('{"type": "go", "player": 0, "\\udfff": 1}', "line 3: the text '\\udfff' is not valid"),
        ('{"type": "go", "player": 0, "x": "\udcff"}', "line 3: the text '\\udcff' is not valid"),
        ('{"type": "go", "player": 0, "x": "' + "y" * 20_000 + '"}',
         "line 3: 20,036 characters long; a record line is at most 16,384"),
    ],
)
def test_numbers_and_text_out_of_bounds_are_refused(text: str, reason: str) -> None:
    message = refusal(text, 3)
    assert message.startswith(reason)
    assert "\n" not in message


def test_a_pair_of_surrogates_is_one_character_and_accepted() -> None:
    header = parse_line('{"type": "game", "players": ["Ann \\ud83c\\udccf", "Ben"]}')
    assert isinstance(header, GameHeader) and header.players[0] == "Ann 🃏"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('{"type": "play", "player": 4, "card": "5C"}',
         "line 2: 'player' must be a whole number from 0 to 3 (a seat), got 4"),
        ('{"type": "deal", "dealer": -1}', "line 2: 'dealer' must be a whole number from 0 to 3"),
        ('{"type": "claim", "player": 0, "points": 2100}',
         "line 2: 'points' must be a whole number from 0 to 29 (a 29 hand is the most one "
         "score can be), got 2100"),
        ('{"type": "muggins", "player": 1, "points": 30}', "line 2: 'points' must be a whole"),
        ('{"type": "peg", "player": 0, "points": -122}',
         "line 2: 'points' must be a whole number from -121 to 121"),
        ('{"type": "penalty", "player": 0, "infraction": "looking", "points": 122}',
         "line 2: 'points' must be a whole number from 0 to 121"),
        ('{"type": "penalty", "player": 0, "infraction": "looking", "back": 99999}',
         "line 2: 'back' must be a whole number from 0 to 121"),
        ('{"type": "penalty", "player": 0, "infraction": "looking", "to": 9}',
         "line 2: 'to' must be a whole number from 0 to 3"),
        ('{"type": "penalty", "player": 0, "infraction": "' + "x" * 41 + '"}',
         "line 2: 'infraction' is 41 characters long"),
        ('{"type": "penalty", "player": 0, "infraction": "a\\u0000b"}',
         "line 2: 'infraction' has the character '\\x00' at 2; accepted: letters, digits"),
        ('{"type": "crib", "cards": ["AC", "2C", "3C", "4C", "5C", "6C", "7C"]}',
         "line 2: 'cards' lists 7 cards; an entry lists at most 6"),
        ('{"type": "game", "players": ["Ann\\nBen", "Cy"]}',
         "line 2: the name of seat 0 has the character '\\n' at 4; accepted: letters"),
        ('{"type": "game", "players": ["Ann", "\\u202eneB"]}',
         "line 2: the name of seat 1 has the character '\\u202e' at 1"),
        ('{"type": "game", "players": ["Ann", "' + "B" * 21 + '"]}',
         "line 2: the name of seat 1 is 21 characters long ('BBBBBBBBBBBBBBBBBBBBB'); "
         "accepted: 1 to 20"),
    ],
)
def test_values_are_range_checked_with_what_is_accepted(text: str, reason: str) -> None:
    assert refusal(text, 2).startswith(reason)


def test_the_bounds_admit_every_value_the_rules_can_produce() -> None:
    assert parse_line('{"type": "claim", "player": 3, "points": 29}') == Claim(3, 29)
    assert parse_line('{"type": "muggins", "player": 0, "points": 0}') == Muggins(0, 0)
    assert parse_line('{"type": "peg", "player": 1, "points": -121}') == Peg(1, -121)
    assert parse_line(
        '{"type": "penalty", "player": 0, "infraction": "false-claim-of-game", '
        '"points": 121, "to": 1, "back": 15}'
    ) == Penalty(0, "false-claim-of-game", 121, 1, 15)
    header = parse_line('{"type": "game", "players": ["Zoë", "' + "M" * 20 + '", "Ó Sé"]}')
    assert isinstance(header, GameHeader) and header.players[0] == "Zoë"


def test_a_file_that_is_not_utf8_names_its_line_and_byte() -> None:
    data = b'{"type": "game", "players": ["Ann", "Ben"]}\n{"type": "go", "player": "Ren\xe9"}\n'
    lines = decode_lines(io.BytesIO(data), "old.jsonl")
    assert next(lines).startswith('{"type": "game"')
    with pytest.raises(RecordError, match=r"^old\.jsonl: line 2, byte 30 is not UTF-8 "
                       r"\(e9: invalid continuation byte\); a record is UTF-8 text$"):
        next(lines)
    with pytest.raises(RecordError, match=r"^old\.jsonl: line 2, byte 30 is not UTF-8"):
        decode_text(data, "old.jsonl")
    # An encoded surrogate is not UTF-8 either.
    with pytest.raises(RecordError, match=r"^x: line 1, byte 2 is not UTF-8 \(ed"):
        decode_text(b'"\xed\xa0\x80"', "x")


def test_a_line_without_end_is_refused_before_it_is_all_read() -> None:
    stream = io.BytesIO(b"{" + b" " * 10_000_000)
    with pytest.raises(RecordError, match=r"^big: line 1 is longer than 16,384 bytes"):
        list(decode_lines(stream, "big"))
    assert stream.tell() == 16_385
