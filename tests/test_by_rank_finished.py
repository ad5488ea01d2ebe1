"""A finished game entered by rank on the box shows no stand-in suit anywhere (issue 31).

On the box every card but the starter is entered by its rank alone (``by_rank``; the cut's
cards too, whose suits decide nothing): the record holds them in suits the card wheel chose,
which are no facts. Whatever shows the finished game — the scoreboard's ``/review`` page,
``/api/games``, ``pegboard replay`` (text and ``--json``) and ``pegboard review`` — names
such a card by its rank alone. The only suits that may appear are the ones a player
entered: the starters. Checked on the raw responses and the raw printed text.
"""

from __future__ import annotations

import io
import json
import re
from contextlib import redirect_stdout
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from pegboard.cli import main
from pegboard.record import parse_line
from pegboard.rules.cards import Card, Suit
from pegboard.rules.events import Starter
from pegboard.web.app import create_app
from tests.support.web import random_record, record_game

SUITED = re.compile(r"\b(10|[2-9TJQKA])([CDHS])\b|(10|[2-9AJQK])([\u2660-\u2667])")
"""A card named with its suit: by letter (``5C``, ``TD``) or by sign (``5♣``, ``10♦``)."""

SIGNS = {"♣": "C", "♧": "C", "♦": "D", "♢": "D", "♥": "H", "♡": "H", "♠": "S", "♤": "S"}


def suited(text: str) -> set[Card]:
    """Every card ``text`` names with its suit."""
    found = set()
    for match in SUITED.finditer(text):
        rank, letter = (match[1], match[2]) if match[1] else (match[3], SIGNS[match[4]])
        found.add(Card.parse(f"{'T' if rank == '10' else rank}{letter}"))
    return found


@pytest.fixture(scope="module")
def by_rank(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, set[Card]]:
    """A whole seeded game as the box enters it (every starter named with ``by_rank``),
    finished in a store and written to a record file; with the cards whose suits were
    entered (the starters)."""
    folder = tmp_path_factory.mktemp("by_rank")
    lines = []
    for line in random_record(3):
        data = json.loads(line)
        if data["type"] == "starter":
            data["by_rank"] = True
        lines.append(json.dumps(data))
    starters = {event.card for event in map(parse_line, lines) if isinstance(event, Starter)}
    record_game(folder / "store", lines)
    record = folder / "game.jsonl"
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder / "store", record, starters


def cards_laid(record: Path) -> set[Card]:
    """Every card the record holds in a play (their suits are the wheel's)."""
    found = set()
    for line in record.read_text(encoding="utf-8").splitlines():
        data = json.loads(line)
        if data["type"] == "play":
            found.add(Card.parse(data["card"]))
    return found


def printed(*argv: str) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(list(argv)) == 0
    return out.getvalue()


def test_the_scoreboard_names_no_stand_in_suit(by_rank: tuple[Path, Path, set[Card]]) -> None:
    store, _, starters = by_rank
    with TestClient(create_app(store)) as client:
        review = client.get("/review")
        games = client.get("/api/games")
    assert review.status_code == 200 and games.status_code == 200
    assert "Review: Ann v Ben" in review.text
    assert suited(review.text) <= starters, suited(review.text) - starters
    listed = games.json()
    assert listed["games"] and listed["games"][0]["result"] is not None
    assert suited(games.text) <= starters, suited(games.text) - starters


@pytest.mark.parametrize("argv", [("replay",), ("replay", "--json"), ("review",),
                                  ("review", "--json")])
def test_the_printed_game_names_no_stand_in_suit(by_rank: tuple[Path, Path, set[Card]],
                                                  argv: tuple[str, ...]) -> None:
    _, record, starters = by_rank
    text = printed(*argv, str(record))
    assert len(text) > 200
    assert suited(text) <= starters, sorted(map(str, suited(text) - starters))
    if argv == ("replay",):
        assert cards_laid(record) - starters  # the game has cards laid by rank ...
        assert "Ann plays" in text and "Cut for deal: Ann 4, Ben 10" in text  # ... told


def test_the_check_finds_a_stand_in_suit() -> None:
    """The check itself: a card named with a suit, by letter or by sign, is found."""
    assert suited("Ann plays 5C; Ben 10♦ and K♠, count 15") == {
        Card.parse("5C"), Card(Card.parse("TD").rank, Suit.DIAMONDS), Card.parse("KS")}
    assert suited("Ann plays 5: fifteen (suit not entered), 10, Q") == set()
