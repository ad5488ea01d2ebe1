"""The durable game store: every accepted event on disk before it is acknowledged.

Typical use by the device loop::

    store = Store(find_store_path(None, configured=config.store.path), owner="pegboard run")
    for notice in store.notices:          # a torn tail cut off, an unreadable file set aside
        show(notice)
    game = store.current()                # the unfinished game to restore, or None
    ...
    store.new_game({"type": "game", "players": ["Ann", "Ben"], "rules": {"target": 121}})
    store.append({"type": "play", "player": 1, "card": "5C"})   # durable when it returns
    store.undo()                          # recorded as {"type": "undo"}
    store.finish(result)                  # into the history
    store.history()                       # every finished game, oldest first

``StoreReader(path)`` reads the same store without the lock, while a writer runs.
"""

from __future__ import annotations

from pegboard.store.location import find_store_path
from pegboard.store.store import (
    CurrentGame,
    FinishedGame,
    Store,
    StoreReader,
    parse_record_line,
    record_text,
)

__all__ = [
    "CurrentGame",
    "FinishedGame",
    "Store",
    "StoreReader",
    "find_store_path",
    "parse_record_line",
    "record_text",
]
