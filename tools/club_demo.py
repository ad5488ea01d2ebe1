"""A whole demo club night on one machine: ``make club-demo``.

mosquitto on a free loopback port, four boards (each a store and a ``pegboard club publish``
process), the standings service (``pegboard club serve``), and three rounds played into the
boards' stores, a game every second, each confirmed by both players. The standings page's
address is printed first; the night stays up until Ctrl-C.
"""

from __future__ import annotations

import shutil
import signal
import tempfile
import threading
from pathlib import Path
from types import FrameType

from pegboard.store import Store
from tests.support.club import club_night, seating, write_club_game

TABLES, ROUNDS = 4, 3


def _interrupt(sig: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt  # SIGTERM ends the night as Ctrl-C does: everything stopped


def main() -> None:
    signal.signal(signal.SIGTERM, _interrupt)
    home = Path(tempfile.mkdtemp(prefix="pegboard-club-demo-"))
    pause = threading.Event()
    try:
        with club_night(home, home, TABLES) as service:
            print(f"Club standings on {service.url} (big screen: {service.url}?big=1); Ctrl-C "
                  "ends the night", flush=True)
            for round_ in range(1, ROUNDS + 1):
                for t, pair in enumerate(seating(TABLES, round_), start=1):
                    with Store(home / f"board-{t}", owner="demo") as store:
                        write_club_game(store, round_ * 50 + t, night=1, round_=round_,
                                        table=t, members=pair)
                    print(f"round {round_}, table {t}: {pair[0]} v {pair[1]} confirmed",
                          flush=True)
                    pause.wait(1.0)  # a demo: one game a second, to watch the page change
            print("the night is played; the page stays up until Ctrl-C", flush=True)
            pause.wait()
    except KeyboardInterrupt:
        pass
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
