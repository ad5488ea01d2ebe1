"""Confirming a result after the game (club play) and the header's club seat: read, written
back, applied by the engine, refused where the rules refuse them."""

from __future__ import annotations

import json

import pytest

from pegboard.errors import RecordError, RuleError
from pegboard.record import dump, parse_line, read_game
from pegboard.rules.events import ClubSeat, Confirm, Deal, GameHeader, OptionsChanged, Override, Peg
from pegboard.rules.game import Game
from tests.support.games import random_game

CLUB_HEADER = (
    '{"type": "game", "players": ["Ann", "Ben"], '
    '"club": {"night": 3, "round": 2, "table": 7, "members": ["101", "102"]}}'
)


def finished_game(seed: int = 5) -> Game:
    played = random_game(seed)
    game = Game.from_header(played.header)
    for event in played.events:
        game.push(event)
    assert game.state.winner is not None
    return game


def test_the_club_header_is_read_and_written_back() -> None:
    header = parse_line(CLUB_HEADER)
    assert isinstance(header, GameHeader)
    assert header.club == ClubSeat(3, 2, 7, ("101", "102"))
    assert parse_line(json.dumps(dump(header))) == header


@pytest.mark.parametrize(("club", "why"), [
    ('{"night": 0, "round": 1, "table": 1, "members": ["1", "2"]}', "'night' must be"),
    ('{"night": 1, "round": 1, "table": 1, "members": ["1"]}', "one member number per player"),
    ('{"night": 1, "round": 1, "table": 1, "members": ["1", 2]}', "seat 1 must be text"),
    ('{"night": 1, "round": 1, "table": 1, "members": ["1", ""]}', "seat 1 must not be empty"),
    ('[1]', "'club' must be an object"),
    ('{}', "'club' needs the field 'night'"),
    ('{"night": 1, "round": 1, "table": 1}', "'club' needs the field 'members'"),
    ('{"night": 1, "round": 1, "table": 1, "members": ["1", "2"], "lock": "yes"}',
     "'lock' must be true or false, got 'yes'"),
    ('{"night": 1, "round": 1, "table": 1, "members": ["1", "2"], "guests": [true]}',
     "'guests' must list the seats of guests"),
    ('{"night": 1, "round": 1, "table": 1, "members": ["1", "2"], "guests": [1, 1]}',
     "'guests' must list the seats of guests, each once"),
    ('{"night": 1, "round": 1, "table": 1, "members": ["1", "2"], "guests": [2]}',
     "from 0 to 1, got \\[2\\]"),
    ('{"night": 10000, "round": 1, "table": 1, "members": ["1", "2"]}',
     "'night' must be a whole number from 1 to 9999"),
])
def test_a_bad_club_header_is_refused_naming_the_field(club: str, why: str) -> None:
    with pytest.raises(RecordError, match=why):
        parse_line(f'{{"type": "game", "players": ["Ann", "Ben"], "club": {club}}}')


def test_confirm_and_override_lines_round_trip() -> None:
    for line in ('{"type": "confirm", "player": 1}',
                 '{"type": "override", "director": "Pat", "note": "Ben left early"}'):
        event = parse_line(line)
        assert isinstance(event, Confirm | Override)
        assert parse_line(json.dumps(dump(event))) == event


def test_every_player_confirms_once_and_no_score_changes() -> None:
    game = finished_game()
    scores = game.state.scores
    first = game.push(Confirm(1)).confirmed
    assert first is not None and first.confirmed == (1,) and not first.complete
    with pytest.raises(RuleError, match="Ben has confirmed the result already"):
        game.push(Confirm(1))
    last = game.push(Confirm(0)).confirmed
    assert last is not None and last.confirmed == (0, 1) and last.complete
    assert game.state.scores == scores


def test_the_directors_override_completes_the_result() -> None:
    game = finished_game()
    game.push(Confirm(0))
    fact = game.push(Override("Pat", "Ben left early")).confirmed
    assert fact is not None and fact.complete and fact.director == "Pat"


def test_a_confirm_before_the_game_is_over_is_refused_and_changes_nothing() -> None:
    game = Game(["Ann", "Ben"])
    game.push(Deal(0))
    before = game.state
    with pytest.raises(RuleError, match="only once the game is over"):
        game.push(Confirm(0))
    with pytest.raises(RuleError, match="seats are 0 to 1"):
        finished_game().push(Confirm(3))
    assert game.state == before


def test_a_confirmed_game_still_refuses_scores_and_the_reader_names_the_line() -> None:
    game = finished_game()
    game.push(Confirm(0))
    with pytest.raises(RuleError, match="the game is over"):
        game.push(Peg(0, 2))
    lines = [CLUB_HEADER, '{"type": "confirm", "player": 0}']
    with pytest.raises(RecordError, match="line 2: a result is confirmed"):
        read_game(lines)


def test_the_tournament_lock_is_in_the_record_and_refuses_teaching() -> None:
    text = CLUB_HEADER.replace('"members"', '"lock": true, "members"')
    header = parse_line(text)
    assert isinstance(header, GameHeader) and header.club is not None and header.club.lock
    assert parse_line(json.dumps(dump(header))) == header
    game = Game.from_header(header)
    with pytest.raises(RuleError, match="tournament lock is on"):
        game.push(OptionsChanged(teaching=True))
    game.push(OptionsChanged(points_only=True))  # not help: allowed
    with pytest.raises(RecordError, match="cannot have teaching on"):
        parse_line(text.replace('"club"', '"table": {"teaching": true}, "club"'))
