"""How fast one board may make the standings service look at its messages: a rate a board.

mosquitto 2.0 bounds a message's size, its memory and each client's queue and messages in
flight, but it has no limit on how many messages a client may publish: a board that holds
its password can publish without end, and every message reaches the standings service. So
the service limits each board itself, by the topic the message came on (the broker's ACL lets
a board publish under its own topics only, so the topic names the board truly). Each board
has a token bucket (:class:`~pegboard.club.budget.Budget`) checked before a byte of the
message is parsed:

- results (:data:`RESULTS_BURST` at once, then :data:`RESULTS_PER_MINUTE` a minute): a
  message already known (refused or stored before, by a digest of its bytes: one look-up
  for a batch) costs nothing; any other over its board's rate is acknowledged and dropped
  unread, neither refused, remembered nor counted. A board's results are retained on the
  broker, so none is lost: once the board's bucket is whole again the service asks the
  broker for that board's results again (:meth:`Rate.due`), and they are taken at its
  rate. A board with more than :data:`ASK_AGAIN_MOST` dropped since it was last asked (a
  flood, not a night's results sent again) is not asked again: its results are taken when
  the service next subscribes to them (a restart, or its connection made again), at its
  rate again;
- live states and availability (:data:`LIVE_BURST` at once, then :data:`LIVE_PER_MINUTE` a
  minute): one over the rate is kept unread as its board's newest (the one before it is
  dropped) and taken once the bucket allows, so a page always ends on the board's last
  state, and no more than the rate is parsed or sent to the pages.

A board sending within its rate never waits for another board's excess: the excess costs a
digest and a look-up (results) or nothing at all (live states), never a parse, a write or
an engine read.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from pegboard.club.budget import BOARDS, Budget

log = logging.getLogger(__name__)

RESULTS_PER_MINUTE = 60
"""Results a minute a board may send once its burst is spent: a board confirms a game in
15 minutes or more (a correction now and then)."""
RESULTS_BURST = 120
"""Results a board may send at once: a club's night sent again (``club publish --again``,
or a board back after a night offline) goes through whole."""
ASK_AGAIN_MOST = 1000
"""The most results of a board dropped for its rate for which the service asks the broker
again (as many as a board may have waiting, :data:`pegboard.club.budget.MOST_WAITING`)."""
LIVE_PER_MINUTE = 600
"""Live states a minute a board may send once its burst is spent (ten a second: far faster
than a table plays)."""
LIVE_BURST = 60
"""Live states a board may send at once."""
REPORT_S = 60.0
"""How often a board's messages dropped for its rate are logged: one line a minute at most."""


class Rate:
    """Each board's rate (a token bucket, ``per_minute`` once ``burst`` is spent, by
    ``clock``) and how many of its messages went over it."""

    def __init__(self, *, per_minute: float, burst: int, what: str,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.bucket = Budget(per_minute=per_minute, burst=burst, clock=clock)
        self.what = what
        self.clock = clock
        self.over = 0
        """Messages over their board's rate, in this process (each delivery counted)."""
        self._owed: OrderedDict[str, int] = OrderedDict()
        """Each board's messages over its rate since it was last asked for them again."""
        self._unreported: dict[str, int] = {}
        self._reported_at = -REPORT_S
        self._lock = threading.Lock()  # the network's, the intake's and the turns' threads

    def allow(self, board: str) -> bool:
        """Whether ``board`` may have one more message looked at now (then it is charged);
        else it is counted over the rate."""
        with self._lock:
            return self._allow(board)

    def _allow(self, board: str) -> bool:
        if self.bucket.take(board):
            return True
        self._over(board)
        return False

    def dropped(self, board: str) -> None:
        """Count one more message of ``board`` over its rate (one held in place of another
        held before it)."""
        with self._lock:
            self._over(board)

    def _over(self, board: str) -> None:
        self.over += 1
        self._owed[board] = self._owed.get(board, 0) + 1
        self._owed.move_to_end(board)
        while len(self._owed) > BOARDS:
            self._owed.popitem(last=False)
        self._unreported[board] = self._unreported.get(board, 0) + 1

    def spent(self, board: str) -> bool:
        """Whether ``board`` has no message's worth of its rate left now (then this message
        is counted over it, uncharged); a message of a board with some left is charged
        later, by :meth:`allow`, only if it is not known already."""
        with self._lock:
            if self.bucket.wait(board) > 0:
                self._over(board)
                return True
            return False

    def take(self, board: str) -> bool:
        """Whether ``board`` may have a message held over its rate looked at now (then it
        is charged); nothing is counted when not."""
        with self._lock:
            return self.bucket.take(board)

    def wait(self, board: str) -> float:
        """Seconds until ``board`` may have a message looked at."""
        with self._lock:
            return self.bucket.wait(board)

    def due(self) -> tuple[list[str], float]:
        """The boards to ask the broker for their results again now (whose bucket is whole
        again, with at most :data:`ASK_AGAIN_MOST` dropped; each then owed nothing), and the
        seconds until the next may be (an hour when none is owed)."""
        ready: list[str] = []
        soonest = 3600.0
        with self._lock:
            for board, dropped in list(self._owed.items()):
                if dropped > ASK_AGAIN_MOST:
                    continue  # a flood: taken at the next subscription
                full_in = self.bucket.full_in(board)
                if full_in > 0:
                    soonest = min(soonest, full_in)
                    continue
                ready.append(board)
                del self._owed[board]
        return ready, soonest

    def subscribed(self, board: str | None = None) -> None:
        """Every retained message of ``board`` (of every board when None) comes again (a
        new subscription): nothing is owed to it."""
        with self._lock:
            if board is None:
                self._owed.clear()
            else:
                self._owed.pop(board, None)

    def report(self) -> None:
        """Log the boards whose messages went over their rate, at most once a
        :data:`REPORT_S`."""
        with self._lock:
            now = self.clock()
            if not self._unreported or now - self._reported_at < REPORT_S:
                return
            self._reported_at = now
            unreported = sorted(self._unreported.items())
            self._unreported.clear()
        said = ", ".join(f"board {board} {count:,}" for board, count in unreported[:8])
        more = len(unreported) - 8
        log.warning("%s over a board's rate, not read: %s%s", self.what, said,
                    f" and {more} more boards" if more > 0 else "")
