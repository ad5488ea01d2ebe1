"""The game record: every line type round-trips; bad lines name the line and the reason."""

from __future__ import annotations

import io

import pytest

from pegboard.errors import RecordError
from pegboard.record import dump_line, parse_line, read, write
from pegboard.rules.cards import parse_cards
from pegboard.rules.events import (
    Claim,
    Crib,
    Cut,
    Deal,
    Dealt,
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


def test_every_line_of_the_documented_format_is_read() -> None:
    items = [parse_line(text, n) for n, text in enumerate(ISSUE_LINES, 1)]
    assert items == [
        GameHeader(("Ann", "Ben"), Rules()),
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
    events = [
        Cut(tuple(parse_cards("7H KD"))), Deal(), Deal(2), Dealt(1, tuple(parse_cards(
            "AC 2C 3C 4C 5C 6C"))), Starter(parse_cards("JH")[0]), Play(1, parse_cards("TC")[0]),
        Go(0), Show(1, tuple(parse_cards("5C 6D 7H 8S"))), Crib(tuple(parse_cards("2C 3D 4H KS"))),
        Peg(0, -3), Penalty(0, "false-claim-of-game", 4, 1, 15), Penalty(1, "looking"),
        Claim(1, 0), Muggins(0, 2), Undo(), NewGame(), NewGame(1),
    ]
    for event in events:
        assert parse_line(dump_line(event)) == event


def test_headers_round_trip_with_rules() -> None:
    for players, rules in [
        (2, {"five_card": True}), (4, {}), (4, {"partnerships": False, "muggins": True}),
        (3, {"target": 61, "game_points": "classic", "match_games": 3}),
    ]:
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
        ('{"type": "game", "version": 2, "players": ["A", "B"]}',
         "line 7: record version 2 is not supported"),
    ],
)
def test_bad_lines_name_the_line_and_the_reason(text: str, reason: str) -> None:
    with pytest.raises(RecordError) as error:
        parse_line(text, 7)
    assert str(error.value).startswith(reason)


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
    with pytest.raises(RecordError) as error:
        parse_line(text, 3)
    assert str(error.value).startswith(reason)
