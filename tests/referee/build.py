"""Short hand for writing records in tests.

>>> plays("1 5C, 0 TH, 1 go")
[{'type': 'play', 'player': 1, 'card': '5C'}, {'type': 'play', 'player': 0, 'card': 'TH'}, \
{'type': 'go', 'player': 1}]
"""

from __future__ import annotations

from typing import Any

Event = dict[str, Any]
NAMES = ["Ann", "Ben", "Cat", "Dan"]


def game(players: int = 2, **rules: Any) -> Event:
    return {"type": "game", "version": 2, "players": NAMES[:players], "rules": rules}


def cut(*cards: str) -> Event:
    return {"type": "cut", "cards": list(cards)}


def deal(dealer: int | None = None) -> Event:
    return {"type": "deal"} if dealer is None else {"type": "deal", "dealer": dealer}


def starter(card: str) -> Event:
    return {"type": "starter", "card": card}


def play(player: int, card: str) -> Event:
    return {"type": "play", "player": player, "card": card}


def go(player: int) -> Event:
    return {"type": "go", "player": player}


def show(player: int, cards: str) -> Event:
    return {"type": "show", "player": player, "cards": cards.split()}


def crib(cards: str) -> Event:
    return {"type": "crib", "cards": cards.split()}


def peg(player: int, points: int) -> Event:
    return {"type": "peg", "player": player, "points": points}


def undo() -> Event:
    return {"type": "undo"}


def plays(text: str) -> list[Event]:
    """``"1 5C, 0 go"``: seat then a card or ``go``, comma separated."""
    events: list[Event] = []
    for item in text.split(","):
        seat, what = item.split()
        events.append(go(int(seat)) if what == "go" else play(int(seat), what))
    return events
