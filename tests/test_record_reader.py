"""The one record reader: header first, each line decoded once, errors with the line number;
and the device's start-up replays the stored game once."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pegboard.config import Config
from pegboard.device.build import initial_state, open_store
from pegboard.errors import RecordError
from pegboard.record import bounded, dump_line, entries, read_game, replay
from pegboard.rules import game as game_module
from pegboard.store import Store
from tests.support.games import random_game

HEADER = '{"type": "game", "players": ["Ann", "Ben"]}'


def stored_game(path: Path, lines: int = 81) -> list[str]:
    made = random_game(3)
    players = len(made.header.players)
    texts = [dump_line(made.header, players)]
    texts += [dump_line(event, players) for event in made.events][: lines - 1]
    with Store(path) as store:
        store.new_game(texts[0])
        for text in texts[1:]:
            store.append(text)
    return texts


def counting(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[int]:
    calls: list[int] = []
    real: Callable[..., Any] = getattr(owner, name)

    def count(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, count)
    return calls


def test_start_up_replays_the_stored_game_once_and_decodes_each_line_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    texts = stored_game(tmp_path)
    steps = counting(monkeypatch, game_module, "_step")
    decodes = counting(monkeypatch, bounded, "_decoded")  # the bounded reader's one decode
    plain = counting(monkeypatch, json, "loads")
    store = open_store(tmp_path, owner="pegboard test")  # as pegboard run and sim do
    try:
        state = initial_state(Config(), store)
    finally:
        store.close()
    assert state.session is not None and len(state.session.events) > 0
    assert len(steps) == len(texts) - 1  # one engine step per entry
    assert len(decodes) == len(texts) and not plain  # one JSON decode per line


def test_a_line_as_text_or_as_the_stores_object_reads_the_same() -> None:
    texts = [HEADER, "", '{"type": "deal", "dealer": 1}', '{"type": "undo"}']
    objects = [json.loads(text) for text in texts if text]
    assert [item for _, item in entries(texts)] == [item for _, item in entries(objects)]
    assert [number for number, _ in entries(texts)] == [1, 3, 4]


@pytest.mark.parametrize(("lines", "message"), [
    (['{"type": "deal"}', HEADER], 'game 7: line 1: the first line must be the "game" line'),
    ([HEADER, "", HEADER], 'game 7: line 3: a second "game" line; a match continues with '
     "new_game"),
    ([HEADER, '{"type": "play", "player": 0, "card": "5C"}'],
     "game 7: line 2: cannot play 5C now"),
    ([HEADER, '{"type": "go", "player": 9}'],
     "game 7: line 2: 'player' must be a whole number from 0 to 3 (a seat), got 9"),
    (["", " "], 'game 7: line 1: the record is empty: it needs a "game" line first'),
])
def test_the_reader_names_the_source_and_the_line(lines: list[str], message: str) -> None:
    with pytest.raises(RecordError) as raised:
        read_game(lines, "game 7")
    assert str(raised.value).startswith(message)
    stopped = replay(lines, "game 7")  # the store's way: stop there, say why, never raise
    assert stopped.problem is not None
    assert message.split(": ", 2)[2] in stopped.problem or not stopped.accepted
