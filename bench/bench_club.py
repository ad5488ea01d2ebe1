"""Club night: the time from a game's last confirmation to the standings page.

A night of 10 tables × 9 rounds on one machine: a real mosquitto on loopback, one
``pegboard club publish`` process per board, ``pegboard club serve``. Each game is written
into its board's store as the device writes it; the clock starts when the last ``confirm``
line is on disk and stops when ``/api/status`` on the standings page counts the result (the
page is told by its event stream). The goal (issue 21): median at most 2 s.
"""

from __future__ import annotations

import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from pegboard.store import Store
from tests.support.club import club_night, fast_folder, seating, write_club_game

TABLES, ROUNDS = 10, 9


def main() -> None:
    home = Path(tempfile.mkdtemp(prefix="pegboard-bench-club-"))
    boards = fast_folder(home / "boards")
    waits: list[float] = []
    try:
        with club_night(home, boards, TABLES) as service:
            done = 0
            for round_ in range(1, ROUNDS + 1):
                for t, pair in enumerate(seating(TABLES, round_), start=1):
                    confirmed: list[float] = []
                    with Store(boards / f"board-{t}", owner="bench") as store:
                        write_club_game(store, round_ * 50 + t, night=1, round_=round_,
                                        table=t, members=pair, confirmed_at=confirmed)
                    start = confirmed[0]  # the last confirm line was on disk
                    done += 1
                    service.wait_for(done)
                    waits.append(time.perf_counter() - start)
        waits.sort()
        print(f"  {len(waits)} games ({TABLES} tables × {ROUNDS} rounds), {os.cpu_count()} "
              f"cores: last confirmation to the standings page median "
              f"{statistics.median(waits):.2f} s, worst {waits[-1]:.2f} s (goal: median ≤ 2 s)")
    finally:
        shutil.rmtree(boards, ignore_errors=True)
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
