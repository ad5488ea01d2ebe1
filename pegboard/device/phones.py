"""Phone seats on the board: the loop's observer that tells the phone server what it saw.

:func:`add_phones` wires a running :class:`~pegboard.device.loop.DeviceLoop` to a
:class:`~pegboard.web.phone_server.PhoneServer`: the server puts each seat's request on the
loop's queue, the loop steps it through the pure app and the engine and saves it, and this
observer (last of the outputs: the OLED, the voice and the LEDs have it first) publishes the
engine's game and the answers. A phone is answered only after the store has its entry.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable, Collection
from pathlib import Path

from pegboard.app.effects import SeatAnswer, SeatNotice
from pegboard.app.machine import AppState
from pegboard.device.loop import DeviceLoop
from pegboard.device.observers import Seen
from pegboard.store import Store
from pegboard.web.phone_app import LIMITS, PhoneLimits
from pegboard.web.phone_desk import Desk
from pegboard.web.phone_server import PhoneServer
from pegboard.web.server_hosts import board_names

__all__ = ["PhoneObserver", "add_phones", "serve_phones"]

log = logging.getLogger("pegboard.phones")


class PhoneObserver:
    """Publishes each batch's game and seat answers to the desk (see the module doc)."""

    def __init__(self, desk: Desk, game_id: Callable[[], str | None]) -> None:
        self.desk = desk
        self.game_id = game_id

    def saw(self, seen: Seen[AppState]) -> None:
        """The batch is saved: the phones may be told (each notice to its seat alone)."""
        for notice in seen.asked:
            if isinstance(notice, SeatNotice):
                self.desk.notice(notice.seat, notice.text, self.game_id())
        self.publish(seen.state, tuple(e for e in seen.asked if isinstance(e, SeatAnswer)))

    def publish(self, state: AppState, answers: tuple[SeatAnswer, ...] = ()) -> None:
        """Publish ``state``'s game (and ``answers``)."""
        session = state.session
        self.desk.publish(session.game if session is not None else None, self.game_id(),
                          answers, phones=state.phones)


def add_phones(loop: DeviceLoop[AppState], store: Path, game_id: Callable[[], str | None],
               sock: socket.socket, *, hosts: Collection[str] | None,
               limits: PhoneLimits = LIMITS, period: float = 0.05) -> PhoneServer:
    """Serve phone seats for ``loop`` on ``sock``: the observer joins the loop's outputs,
    the server starts on its thread. Call before the loop runs; stop the server after.
    ``period``: how often the scoreboard beside the phones polls the store for what the
    board did not publish (a change made by another process)."""
    desk = Desk(loop.inbox.put)
    observer = PhoneObserver(desk, game_id)
    loop.observers = (*loop.observers, observer)
    observer.publish(loop.state)
    server = PhoneServer(store, desk, sock, hosts=hosts, limits=limits, period=period)
    if not server.start():
        log.error("the phone seats could not start: the board goes on without them")
    return server


def serve_phones(loop: DeviceLoop[AppState], store: Store, sock: socket.socket, *,
                 allow: Collection[str] = ()) -> PhoneServer:
    """:func:`add_phones` for the board's own store: a pass is for the game the store
    holds now, and the server answers to the board's names (and ``allow``) only."""

    def game_id() -> str | None:
        current = store.current()
        return current.id if current is not None else None

    return add_phones(loop, store.directory, game_id, sock, hosts=board_names(allow))
