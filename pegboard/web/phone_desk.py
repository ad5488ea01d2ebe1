"""Between the board's loop and the phone server: the game as the loop last saw it, and the
seats' requests on their way in and their answers on their way out.

The loop's thread owns the game; the server's thread (an asyncio loop) serves the phones.
They meet here, and nowhere else:

* after each batch the loop's observer publishes (:meth:`Desk.publish`) (the store has all of it),
  and first hands on the words meant for one seat alone (:meth:`Desk.notice`),
  the engine's game (an immutable value, safe to read from any thread), the store's id of
  the game, and the answers (:class:`~pegboard.app.effects.SeatAnswer`) of the requests the
  batch took or refused;
* a request is put on the loop's queue as a :class:`~pegboard.app.inputs.SeatEntry` by
  :meth:`Desk.submit`, which returns a future the answer completes; a phone joining puts
  the seats held (:class:`~pegboard.app.inputs.PhoneSeats`) by :meth:`Desk.held`.

So a phone is answered only after its entry is on disk, and its answer is the engine's.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import itertools
import threading
from collections.abc import Callable, Sequence

from pegboard.app.effects import SeatAnswer
from pegboard.app.inputs import PhoneSeats, SeatEntry
from pegboard.rules.events import Event
from pegboard.rules.game import Game
from pegboard.rules.value import Value, replace

__all__ = ["Desk", "Now"]


class Now(Value):
    """The game as the loop last published it: the engine's game (None: no game), the
    store's id of it, a version that grows with every publication that changed it, and the
    seats phones hold as the board counts them (a wait says where a hand is entered)."""

    __slots__ = ("game", "game_id", "phones", "version")
    __match_args__ = ("game", "game_id", "version", "phones")

    game: Game | None
    game_id: str | None
    version: int
    phones: frozenset[int]

    def __init__(self, game: Game | None, game_id: str | None, version: int,
                 phones: frozenset[int] = frozenset()) -> None:
        setter = object.__setattr__
        setter(self, "game", game)
        setter(self, "game_id", game_id)
        setter(self, "version", version)
        setter(self, "phones", phones)


class Desk:
    """See the module doc. ``put`` puts an input on the loop's queue (``queue.Queue.put``)."""

    def __init__(self, put: Callable[[SeatEntry | PhoneSeats], None]) -> None:
        self._put = put
        self._tickets = itertools.count(1)
        self._waiting: dict[int, concurrent.futures.Future[SeatAnswer]] = {}
        self._lock = threading.Lock()
        self.now = Now(None, None, 0)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._changed: asyncio.Event | None = None
        self.published = threading.Condition()
        self.closing = False
        self._notices: dict[int, tuple[int, str, str | None]] = {}
        self._notice_ids = itertools.count(1)
        # Called on the server's loop at each publication: the scoreboard served beside the
        # phones looks at the store at once (the board has just saved the batch) instead of
        # at its next poll.
        self.on_change: Callable[[], None] | None = None

    # -- the loop's side -------------------------------------------------------------------

    def notice(self, seat: int, text: str, game_id: str | None) -> None:
        """Words for ``seat``'s phone alone (:class:`~pegboard.app.effects.SeatNotice`):
        kept for that seat of that game, numbered so that a page says each once, and its
        stream woken."""
        with self.published:
            self._notices[seat] = (next(self._notice_ids), text, game_id)
            self.now = replace(self.now, version=self.now.version + 1)
            self.published.notify_all()
        self._wake()

    def notice_for(self, seat: int, game_id: str | None) -> dict[str, object] | None:
        """The last notice for ``seat`` in the game ``game_id`` (None: none)."""
        kept = self._notices.get(seat)
        if kept is None or kept[2] != game_id:
            return None
        return {"id": kept[0], "text": kept[1]}

    def publish(self, game: Game | None, game_id: str | None,
                answers: Sequence[SeatAnswer] = (), *,
                phones: frozenset[int] = frozenset()) -> None:
        """The loop's batch is saved: the game now, the seats phones hold, and the answers
        to give."""
        now = self.now
        if game is not now.game or game_id != now.game_id or phones != now.phones:
            with self.published:
                self.now = Now(game, game_id, now.version + 1, phones)
                self.published.notify_all()
            self._wake()
        for answer in answers:
            with self._lock:
                future = self._waiting.pop(answer.ticket, None)
            if future is not None and not future.done():
                future.set_result(answer)

    # -- the server's side -----------------------------------------------------------------

    def serving(self) -> None:
        """Called on the server's event loop: it is the one whose waiters :meth:`publish`
        wakes (the first request attaches it; a server started again attaches its own)."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            self._loop = loop
            self._changed = asyncio.Event()

    def submit(self, seat: int, entries: tuple[Event, ...], seq: int,
               ) -> concurrent.futures.Future[SeatAnswer]:
        """Put a seat's request on the loop's queue; its answer completes the future."""
        future: concurrent.futures.Future[SeatAnswer] = concurrent.futures.Future()
        ticket = next(self._tickets)
        with self._lock:
            self._waiting[ticket] = future
        self._put(SeatEntry(seat, entries, seq, ticket))
        return future

    def held(self, seats: frozenset[int]) -> None:
        """A phone joined: the seats phones hold now go to the loop
        (:class:`~pegboard.app.inputs.PhoneSeats`)."""
        self._put(PhoneSeats(seats))

    def forget(self, future: concurrent.futures.Future[SeatAnswer]) -> None:
        """Stop waiting for an answer (the phone went, or it took too long)."""
        with self._lock:
            for ticket, waiting in list(self._waiting.items()):
                if waiting is future:
                    del self._waiting[ticket]

    def close(self, also: Callable[[], None] | None = None) -> None:
        """The server is stopping: every private stream ends now, and ``also`` is called on
        the server's loop (the scoreboard's streams end with it)."""
        self.closing = True
        self._wake(also)

    async def changed(self, version: int, timeout: float) -> None:
        """Until the published version is no longer ``version`` (or ``timeout`` seconds,
        or the server stopping)."""
        if self._changed is None or self.now.version != version or self.closing:
            return
        event = self._changed
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)

    def _wake(self, also: Callable[[], None] | None = None) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # the server's loop has just stopped
            loop.call_soon_threadsafe(self._set, also)

    def _set(self, also: Callable[[], None] | None = None) -> None:
        changed, self._changed = self._changed, asyncio.Event()
        if changed is not None:
            changed.set()
        if self.on_change is not None and not self.closing:
            self.on_change()
        if also is not None:
            also()
