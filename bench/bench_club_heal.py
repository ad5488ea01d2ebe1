"""What the standings service's journal costs, and how long a damaged results database takes
to rebuild from it (:mod:`pegboard.club.heal`), on real files in a folder on disk:

- **a result stored**: the median time of ``store_result`` with the journal (its line
  appended and synced before the commit) and without;
- **a rebuild**: a night of 10 tables × 9 rounds (90 results, 3 of the director's acts), and
  a season of 11 such nights (990 results), the database's results table overwritten, then
  the time ``club serve``'s start takes to find it damaged and rebuild it; the journal's
  size.

Each is measured once (the machine is shared): ``python -m bench club_heal``.
"""

from __future__ import annotations

import copy
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from pegboard.club import journal as journal_module
from pegboard.club.heal import at_start, open_results
from pegboard.club.journal import journal_path
from pegboard.club.results import Act, act, audit, connect, counters, store_result
from tests.support.stores import rot_table
from tests.test_club_broker import card

TABLES, ROUNDS = 10, 9


def night_cards() -> list[dict[str, Any]]:
    """A night's 90 distinct cards (each a real game judged by the engine)."""
    cards = []
    for n in range(TABLES * ROUNDS):
        made = card(100 + n, f"board-{n % TABLES + 1}")
        cards.append(made)
    return cards


def season(cards: list[dict[str, Any]], nights: int) -> list[dict[str, Any]]:
    """The night's cards again for each of ``nights`` nights (another place in the season)."""
    every = []
    for night in range(1, nights + 1):
        for one in cards:
            again = copy.deepcopy(one)
            again["night"] = night
            every.append(again)
    return every


def rebuild(folder: Path, cards: list[dict[str, Any]]) -> tuple[float, int, int]:
    """The seconds a start takes to rebuild the damaged database of ``cards``, the
    journal's bytes and the results counted after."""
    path = folder / "results.db"
    db = open_results(path)
    for one in cards:
        store_result(db, one)
    for row in audit(db)[:3]:
        act(db, Act.VOID, row["id"], row["revision"], director="Dee", reason="bench")
    db.close()
    journal_module._JOURNALS.clear()
    rot_table(path, "result")
    began = time.perf_counter()
    db = at_start(path, lambda text: None)
    took = time.perf_counter() - began
    counted = counters(db)["results"]
    db.close()
    return took, journal_path(path).stat().st_size, counted


def main() -> None:
    base = Path(tempfile.mkdtemp(prefix="pegboard-bench-heal-", dir=Path.home()))
    try:
        cards = night_cards()
        times: dict[str, list[float]] = {"with the journal": [], "without": []}
        for name in times:
            path = base / f"{name.replace(' ', '-')}.db"
            db = open_results(path) if name == "with the journal" else connect(path)
            for one in cards[:40]:
                began = time.perf_counter()
                store_result(db, one)
                times[name].append(time.perf_counter() - began)
            db.close()
        for name, taken in times.items():
            print(f"a result stored {name}: median {statistics.median(taken) * 1000:.1f} ms")
        for label, given in (("a night", cards), ("a season", season(cards, 11))):
            folder = base / label.replace(" ", "-")
            folder.mkdir()
            took, size, counted = rebuild(folder, given)
            print(f"{label} ({len(given)} results): rebuilt in {took:.2f} s, "
                  f"{counted} counted; the journal {size / 1024:.0f} KiB")
    finally:
        journal_module._JOURNALS.clear()
        shutil.rmtree(base, ignore_errors=True)
