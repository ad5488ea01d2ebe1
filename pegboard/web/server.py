"""Serving the scoreboard: uvicorn with the limits one Pi can keep under a hostile network.

* every connection is held to a deadline and a share, event streams to caps
  (:mod:`pegboard.web.server_conn`: the one policy of this server and the club's).
  uvicorn's ``limit_concurrency`` is not used: it answers 503 only once a request is whole,
  so it cannot free a slot held by a half-sent one, and its ``timeout_keep_alive`` timer
  stops at the first byte received;
* only requests naming the board are answered (:mod:`pegboard.web.server_hosts`);
* a request head is at most ``Limits.head_bytes`` (h11's own limit; more is a 400);
* the log stays short: each kind of warning or error is written at most once a minute, a
  repeat only counted (:class:`OncePerMinute`), and asyncio's "out of file descriptors"
  (which it would repeat, with a traceback, hundreds of times a second) is one line;
* if the task following the store fails, the server stops and the process exits 1 so that
  systemd starts it again; Ctrl-C ends it quietly with 130, SIGTERM as systemd expects.
"""

from __future__ import annotations

import errno
import logging
import resource
import signal
import socket
import sys
import time
from collections.abc import Callable, Collection
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

import uvicorn

from pegboard.web.app import create_app
from pegboard.web.server_conn import Limits, StreamCap, guarded_protocol

if TYPE_CHECKING:
    import uvicorn

FAILED = 1
"""The exit status when the scoreboard stopped following the store."""

INTERRUPTED = 130
"""The exit status after Ctrl-C (128 + SIGINT), as a shell reports it."""

QUIET_S = 60.0
"""How long a message is not repeated in the log."""

WATCHED_LOGGERS = ("asyncio", "uvicorn.error")
"""The loggers of the event loop and of uvicorn, whose repeats are held back where they are
logged; the scoreboard's own (every ``pegboard.*`` logger: the web, the store, the index) are
held back at the one handler they all reach."""


class OncePerMinute(logging.Filter):
    """Lets each message (by logger and format) through at most once per ``quiet_s``
    seconds, the count of repeats held back added to the next one let through. An event
    loop's "out of system resource" becomes one line naming the descriptors, without its
    traceback."""

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 quiet_s: float = QUIET_S) -> None:
        super().__init__()
        self.clock = clock
        self.quiet_s = quiet_s
        self._last: dict[tuple[str, str], float] = {}
        self._held: dict[tuple[str, str], int] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, str(record.msg))
        now = self.clock()
        last = self._last.get(key)
        if last is not None and now - last < self.quiet_s:
            self._held[key] = self._held.get(key, 0) + 1
            return False
        self._last[key] = now
        if len(self._last) > 256:  # many different messages: forget the oldest
            oldest = min(self._last, key=self._last.__getitem__)
            self._last.pop(oldest)
            self._held.pop(oldest, None)
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, OSError) and exc.errno in (errno.EMFILE, errno.ENFILE):
            record.msg = "cannot accept connections: %s (the process's open files are used up)"
            record.args = (exc.strerror,)
            record.exc_info = None
            record.exc_text = None
        held = self._held.pop(key, 0)
        if held:
            record.msg = f"{record.getMessage()} ({held} more like it in the last minute)"
            record.args = None
        return True


def quiet_logs(clock: Callable[[], float] = time.monotonic) -> OncePerMinute:
    """Put one :class:`OncePerMinute` on the watched loggers and on a one-line handler on
    standard error (the journal) for everything Pegboard logs in this process."""
    once = OncePerMinute(clock)
    for name in WATCHED_LOGGERS:
        logger = logging.getLogger(name)
        for old in [f for f in logger.filters if isinstance(f, OncePerMinute)]:
            logger.removeFilter(old)
        logger.addFilter(once)
    ours = logging.getLogger("pegboard")
    for handler in list(ours.handlers):
        if any(isinstance(f, OncePerMinute) for f in handler.filters):
            ours.removeHandler(handler)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("pegboard web: %(message)s"))
    handler.addFilter(once)
    ours.addHandler(handler)
    ours.setLevel(logging.WARNING)
    ours.propagate = False
    return once


def open_files() -> int:
    """The process's soft limit on open files."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


class Failures:
    """What stops a server from within: :meth:`failed` keeps the error and asks the server
    (once :attr:`server` is set) to exit."""

    def __init__(self) -> None:
        self.errors: list[BaseException] = []
        self.server: uvicorn.Server | None = None

    def failed(self, error: BaseException) -> None:
        """Keep ``error`` and stop the server."""
        self.errors.append(error)
        if self.server is not None:
            self.server.should_exit = True


def guarded_config(app: Any, limits: Limits, *, certfile: Path | None = None,
                   keyfile: Path | None = None, own_process: bool = True) -> uvicorn.Config:
    """uvicorn's settings for ``app`` under ``limits`` (fitted to the open-file limit): the
    guarded protocol, no websockets, no access log or identifying headers, keep-alive and a
    request head held to the limits, a graceful stop of 2 s; and, in a process of its own
    (``pegboard web``), the short log, set after the Config has set up uvicorn's loggers. A
    server inside the board's process (``own_process`` False: the phones) leaves the board's
    log as it is (its "ready" and every notice still reach the journal). ``certfile`` and
    ``keyfile``: HTTPS only, with that certificate (uvicorn's own TLS)."""
    fitted = limits.fitted(open_files())
    protocol, guard = guarded_protocol(fitted)
    config = uvicorn.Config(
        StreamCap(app, guard), http=protocol, ws="none", lifespan="on", log_level="warning",
        access_log=False,
        server_header=False, date_header=False, proxy_headers=False,
        timeout_keep_alive=max(1, int(fitted.request_s)), timeout_graceful_shutdown=2,
        h11_max_incomplete_event_size=fitted.head_bytes, backlog=128,
        ssl_certfile=certfile, ssl_keyfile=keyfile,
    )
    if own_process:
        quiet_logs()
    return config


def serve(store: Path, sock: socket.socket, *, period: float, hosts: Collection[str],
          limits: Limits | None = None) -> int:
    """Serve the store's scoreboard on the listening ``sock`` until stopped; the exit
    status (0 after SIGTERM's graceful stop, :data:`FAILED`, :data:`INTERRUPTED`)."""
    failures = Failures()
    app = create_app(store, period=period, hosts=hosts, failed=failures.failed)
    config = guarded_config(app, limits or Limits())

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            hub = getattr(app.state, "hub", None)
            if hub is not None:  # end the event streams now instead of waiting for them
                hub.stop()
            super().handle_exit(sig, frame)
            if sig == signal.SIGINT:
                # Ctrl-C is answered here with status 130. uvicorn would raise it again as
                # the loop ends, and whether asyncio turns that into KeyboardInterrupt or lets
                # the run end normally depends on timing.
                interrupted.append(sig)
                captured = getattr(self, "_captured_signals", [])
                while sig in captured:
                    captured.remove(sig)

    interrupted: list[int] = []
    server = failures.server = Server(config)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # before uvicorn took the signal over
        return INTERRUPTED
    if interrupted:
        return INTERRUPTED
    if failures.errors:
        print("pegboard web: stopped because the scoreboard could not follow the store; "
              "systemd starts it again", file=sys.stderr, flush=True)
        return FAILED
    return 0
