"""The phone seats' server on a thread of the board's own process.

The board's loop keeps its one thread and owns the game; uvicorn serves the phones (and the
scoreboard beside them) on a thread of its own, with the same guarded protocol, limits and
headers as ``pegboard web`` (:mod:`pegboard.web.server`). The two meet only at the
:class:`~pegboard.web.phone_desk.Desk`.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Collection
from pathlib import Path

import uvicorn

from pegboard.web.app import create_app
from pegboard.web.passes import Passes, passes_folder
from pegboard.web.phone_app import LIMITS, PhoneLimits, phone_routes
from pegboard.web.phone_desk import Desk
from pegboard.web.server import guarded_config
from pegboard.web.server_conn import Limits

__all__ = ["PhoneServer"]


class PhoneServer:
    """Serve ``/phone`` (and the scoreboard) for the store at ``store`` on the listening
    ``sock``, from :meth:`start` until :meth:`stop`."""

    def __init__(self, store: Path, desk: Desk, sock: socket.socket, *,
                 hosts: Collection[str] | None, period: float = 0.05,
                 passes: Passes | None = None, limits: PhoneLimits = LIMITS) -> None:
        self.desk = desk
        self.sock = sock
        self.passes = passes if passes is not None else Passes(passes_folder(store))
        self.app = create_app(store, period=period, hosts=hosts,
                              extra=phone_routes(desk, self.passes, limits=limits),
                              phones=lambda: desk.now.phones)
        self.server = uvicorn.Server(guarded_config(self.app, Limits(), own_process=False))
        self._thread = threading.Thread(target=self._serve, name="phones", daemon=True)
        desk.on_change = self._scoreboard_now

    @property
    def address(self) -> tuple[str, int]:
        """The address and port listened on."""
        host, port = self.sock.getsockname()[:2]
        return str(host), int(port)

    def start(self) -> bool:
        """Serve on a thread of its own; returns once the server answers (True) or could not
        start (False: uvicorn has logged why; the board goes on without phones)."""
        self._thread.start()
        pause = threading.Event()  # never set: a bounded pause between looks
        while self._thread.is_alive() and not self.server.started:
            pause.wait(0.01)
        return bool(self.server.started)

    def _scoreboard_now(self) -> None:
        """The board published a batch it has saved: the scoreboard reads the store now, so a
        tap reaches its event stream without waiting for the next poll (every ``period``)."""
        hub = getattr(self.app.state, "hub", None)
        if hub is not None:
            hub.refresh()

    def _serve(self) -> None:
        self.server.run(sockets=[self.sock])

    def stop(self) -> None:
        """Stop serving (event streams end) and wait for the thread, 5 s at most."""
        hub = getattr(self.app.state, "hub", None)
        self.desk.close(also=hub.stop if hub is not None else None)  # the scoreboard's too
        self.server.should_exit = True
        self._thread.join(5.0)
        self.passes.close()
