"""Running the standings service: the subscriber and the page, on the scoreboard's server.

uvicorn with the scoreboard's limits (:mod:`pegboard.web.server`: each connection held to a
deadline and a share, the short log); the subscriber beside it on threads of its own
(:mod:`pegboard.club.service`): paho's network thread only hands each result to the intake,
whose thread stores and acknowledges it, and the turns' thread reads the boards' queued
cards through the engine. If the subscriber cannot store a result the server stops with
status 1 (systemd starts it again and the broker delivers the result again); SIGTERM and
Ctrl-C stop it as the scoreboard does.
"""

from __future__ import annotations

import socket
import sys
from collections.abc import Collection
from pathlib import Path

import uvicorn

from pegboard.club.page import Notes, create_app
from pegboard.club.results import Bye
from pegboard.club.seating import Round, Tonight
from pegboard.club.service import Subscriber
from pegboard.club.standings import DEFAULT_SEASON, SeasonPoints
from pegboard.rules.variants import GamePoints
from pegboard.web.server import FAILED, Failures, guarded_config
from pegboard.web.server_conn import Limits


def serve(db: Path, sock: socket.socket, broker: tuple[str, int], *, club: str = "+",
          name: str = "standings", username: str | None = None, password: str | None = None,
          ca_file: Path | None = None, hosts: Collection[str] | None = None,
          seating: Tonight | list[Round] | None = None,
          points: GamePoints = GamePoints.ACC,
          director: str | None = None, tls: tuple[Path, Path] | None = None,
          night: tuple[int, bool] | None = None, seating_source: str = "",
          bye: Bye = Bye.WIN, season_points: SeasonPoints = DEFAULT_SEASON) -> int:
    """Serve the standings on the listening ``sock`` until stopped, counting games by the
    club's game ``points``; ``tls``: HTTPS only, with this certificate and key; ``night``:
    tonight's number and lock, published to the boards with the next round; the exit
    status."""
    notes = Notes()
    tonight = seating if isinstance(seating, Tonight) else Tonight(seating)
    failures = Failures()
    subscriber = Subscriber(db, broker, club=club, name=name, username=username,
                            password=password, ca_file=ca_file, changed=notes.changed,
                            tables_changed=notes.tables_changed, written=notes.written,
                            failed=failures.failed,
                            points=points, seating=tonight, night=night, bye=bye)

    def stop() -> None:
        notes.closing = True
        notes.changed()
        subscriber.stop()

    app = create_app(db, notes, hosts=hosts, start=subscriber.start, stop=stop,
                     seating=tonight, seating_source=seating_source,
                     season_points=season_points, bye=bye,
                     tables=subscriber.snapshot, director=director,
                     points=points, secure=tls is not None, acted=subscriber.republish)
    certfile, keyfile = tls if tls is not None else (None, None)
    server = failures.server = uvicorn.Server(guarded_config(app, Limits(), certfile=certfile,
                                                             keyfile=keyfile))
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        return 130
    if failures.errors:
        print(f"pegboard club serve: stopped: {failures.errors[0]}", file=sys.stderr,
              flush=True)
        return FAILED
    return 0
