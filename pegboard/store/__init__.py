"""The durable game store: every accepted event on disk before it is acknowledged.

Typical use by the device loop::

    store = Store(find_store_path(None, configured=config.store.path), owner="pegboard run",
                  check=engine_check)
    for notice in store.notices:          # a torn tail cut off, a damaged game restored in part
        show(notice)
    game = store.current()                # the unfinished game to restore, or None
    ...
    store.new_game({"type": "game", "players": ["Ann", "Ben"], "rules": {"target": 121}})
    store.append({"type": "play", "player": 1, "card": "5C"})   # durable when it returns
    store.undo()                          # recorded as {"type": "undo"}
    store.finish(result)                  # into the history
    store.history()                       # every finished game, oldest first
    store.set_aside()                     # games kept in aside/; store.restore(name)

``StoreReader(path)`` reads the same store without the lock, while a writer runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pegboard.lazy import exports

if TYPE_CHECKING:
    from pegboard.store.ids import check_id, is_valid_id
    from pegboard.store.location import find_store_path
    from pegboard.store.recovery import Check, Recovery
    from pegboard.store.replay import engine_check
    from pegboard.store.store import (
        AsideGame,
        CurrentGame,
        FinishedGame,
        Restored,
        Store,
        StoreReader,
        parse_record_line,
        record_text,
    )

__getattr__ = exports(__name__, globals(), {
    "ids": ("check_id", "is_valid_id"),
    "location": ("find_store_path",),
    "recovery": ("Check", "Recovery"),
    "replay": ("engine_check",),
    "store": ("AsideGame", "CurrentGame", "FinishedGame", "Restored", "Store", "StoreReader",
              "parse_record_line", "record_text"),
})
"""The module each name comes from. They are imported when first asked for: the device's
first frame reads the store through :mod:`pegboard.store.peek` before the rules engine (which
``engine_check`` needs) is loaded."""


__all__ = [
    "AsideGame",
    "Check",
    "CurrentGame",
    "FinishedGame",
    "Recovery",
    "Restored",
    "Store",
    "StoreReader",
    "check_id",
    "engine_check",
    "find_store_path",
    "is_valid_id",
    "parse_record_line",
    "record_text",
]
