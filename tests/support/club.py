"""A club night for the tests and the benchmark: games written into boards' stores as the
device writes them (confirmations included), ``pegboard club publish`` and ``pegboard club
serve`` as processes, and the standings computed independently of the engine.

The independent standings come from the virtual table of :mod:`tests.support.games`, which
keeps its own scores: ACC game points (2 a win, 3 when the loser has 90 or less), spread
(the winner's score, at most 121, minus the loser's), never the engine's report.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2 as httpx

from pegboard.club.seating import seat
from pegboard.record import dump, result_json
from pegboard.rules.events import ClubSeat, Confirm, GameHeader
from pegboard.rules.game import Game
from pegboard.rules.value import replace
from pegboard.rules.variants import GamePoints
from pegboard.store import Store
from tests.support.games import random_game
from tests.support.mosquitto import Broker
from tests.support.waiting import LIVENESS_S, line_from

MEMBERS = [f"{100 + n}" for n in range(1, 41)]


def seating(tables: int, round_: int) -> list[tuple[str, str]]:
    """Round ``round_``'s pairs (table 1 first) of the first ``tables * 2`` members as
    ``club seat --seating moves`` seats them (the second of each pair moves one table a
    round), so the night's games fit the seating the standings service checks them by."""
    night = seat(MEMBERS[: tables * 2], round_, "moves")
    return [table.players for table in night[round_ - 1].tables]


@dataclass(frozen=True)
class Played:
    """One game of the night as the virtual table played it."""

    night: int
    round: int
    table: int
    members: tuple[str, str]
    names: tuple[str, str]
    scores: tuple[int, int]
    winner: int


def write_club_game(store: Store, seed: int, *, night: int, round_: int, table: int,
                    members: tuple[str, str], confirm: bool = True, finish: bool = True,
                    confirmed_at: list[float] | None = None, guests: tuple[int, ...] = (),
                    mode: str = "cards", game_points: GamePoints | None = None) -> Played:
    """Play a seeded random game into ``store`` with its club seat; every seat confirms
    (each confirm its own synced line) unless ``confirm`` is False, and the game goes into
    the history (as the device does when the next game starts) unless ``finish`` is
    False. ``confirmed_at`` gets the ``perf_counter`` time the last confirm was on disk;
    ``guests``: the seats of guests, as the header's club object has them; ``mode``: how
    the game is entered (:func:`~tests.support.games.random_game`'s); ``game_points``: the
    table's (ACC unless given)."""
    played = random_game(seed, mode=mode)
    names = (f"P{members[0]}", f"P{members[1]}")
    rules = played.header.rules if game_points is None else replace(
        played.header.rules, game_points=game_points)
    header = GameHeader(names, rules,
                        club=ClubSeat(night, round_, table, members, guests=guests))
    game = Game.from_header(header)
    store.new_game(dump(header))
    for event in [*played.events, *([Confirm(1), Confirm(0)] if confirm else [])]:
        game.push(event)
        store.append(dump(event))
    if confirmed_at is not None:
        confirmed_at.append(time.perf_counter())
    if finish:
        store.finish(result_json(game.state))
    assert played.winner is not None
    return Played(night, round_, table, members, names,
                  (played.scores[0], played.scores[1]), played.winner)


def expected_standings(games: list[Played], night: int | None = None
                       ) -> list[tuple[str, int, int, int]]:
    """(member, game points, wins, spread) in ACC order, from the virtual tables' scores."""
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for game in games:
        if night is not None and game.night != night:
            continue
        winner, loser = game.winner, 1 - game.winner
        spread = min(game.scores[winner], 121) - game.scores[loser]
        points = 3 if game.scores[loser] <= 90 else 2
        totals[game.members[winner]][0] += points
        totals[game.members[winner]][1] += 1
        totals[game.members[winner]][2] += spread
        totals[game.members[loser]][2] -= spread
    ranked = sorted(totals.items(), key=lambda kv: (-kv[1][0], -kv[1][1], -kv[1][2], kv[0]))
    return [(member, t[0], t[1], t[2]) for member, t in ranked]


RAM_NEEDED = 2 * 1024**3
"""The free space ``/dev/shm`` must have to be used (as ``tests/conftest.py`` asks): a
container's is often 64 MB, and a machine may have none."""


def fast_folder(fallback: Path) -> Path:
    """A new folder in memory (tmpfs: a store's fsync per line costs nothing there) when the
    machine has one with room to spare, else ``fallback``, made here as the other would be."""
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        stats = os.statvfs(shm)
        if stats.f_bavail * stats.f_frsize >= RAM_NEEDED:
            return Path(tempfile.mkdtemp(prefix="pegboard-club-", dir=shm))
    fallback.mkdir(parents=True, exist_ok=True)
    return fallback


def _die_with_parent() -> None:
    """In the child before it runs: SIGTERM when the test's process dies (a killed test
    run must not leave boards and services polling a broker that is gone)."""
    import ctypes

    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _env() -> dict[str, str]:
    root = str(Path(__file__).resolve().parents[2])
    return dict(os.environ, PYTHONUNBUFFERED="1",
                PYTHONPATH=os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]))


class Publisher:
    """``pegboard club publish`` for one board, as a process."""

    def __init__(self, store: Path, broker: str, board: str, *, club: str = "club",
                 log: Path | None = None, config: Path | None = None) -> None:
        """With ``config``, the broker, board, club and credentials are its ``[club]``'s."""
        self.args = [sys.executable, "-m", "pegboard", "club", "publish", "--store",
                     str(store), "--poll", "0.05"]
        self.args += ["--config", str(config)] if config is not None else [
            "--broker", broker, "--board", board, "--club", club]
        self.log = log or store.parent / f"{board}.log"
        self.process = self._start()

    def _start(self) -> subprocess.Popen[bytes]:
        with open(self.log, "ab") as out:
            return subprocess.Popen(self.args, stdout=out, stderr=out, env=_env(),
                                    preexec_fn=_die_with_parent)

    def kill(self) -> None:
        """SIGKILL, as a board losing its power."""
        self.process.kill()
        self.process.wait()

    def restart(self) -> None:
        """Start the publisher again (after a kill)."""
        self.process = self._start()

    def stop(self) -> int:
        """SIGTERM and wait; the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=60)


def start_publishers(boards: Path, broker: str, tables: int) -> list[Publisher]:
    """A publisher for each of ``tables`` boards (``board-1`` ...), each board's store made
    first under ``boards`` (those started are stopped if one cannot start)."""
    publishers: list[Publisher] = []
    try:
        for t in range(1, tables + 1):
            Store(boards / f"board-{t}", owner="board").close()  # the board's store exists
            publishers.append(Publisher(boards / f"board-{t}", broker, f"board-{t}"))
    except BaseException:
        for publisher in publishers:
            publisher.stop()
        raise
    return publishers


@contextlib.contextmanager
def club_night(home: Path, boards: Path, tables: int) -> Iterator[Standings]:
    """A club night on this machine: a mosquitto broker (in ``home``), the standings service
    (its database ``home/results.db``) and a publisher for each of ``tables`` boards under
    ``boards``; the standings while it runs, everything stopped on leaving."""
    with Broker(home / "broker") as broker:
        service = Standings(home / "results.db", broker.address)
        try:
            publishers = start_publishers(boards, broker.address, tables)
            try:
                yield service
            finally:
                for publisher in publishers:
                    publisher.stop()
        finally:
            service.stop()


class Standings:
    """``pegboard club serve --port 0`` as a process; ``url`` is what it printed."""

    def __init__(self, db: Path, broker: str | None, *, club: str = "+",
                 members: Path | None = None, extra: tuple[str, ...] = ()) -> None:
        """``broker`` None: the one in the config named in ``extra``."""
        self.args = [sys.executable, "-m", "pegboard", "club", "serve", "--db", str(db),
                     *(("--broker", broker) if broker is not None else ()), "--port", "0",
                     "--club", club, "--name", f"standings-{db.stem}", *extra]
        if members is not None:
            self.args += ["--members", str(members)]
        self.log = db.parent / f"{db.stem}-serve.log"
        self.url = ""
        self.process = self._start()

    def _start(self) -> subprocess.Popen[str]:
        err = open(self.log, "a", encoding="utf-8")  # noqa: SIM115 - the process holds it
        process = subprocess.Popen(self.args, stdout=subprocess.PIPE, stderr=err, text=True,
                                   env=_env(), preexec_fn=_die_with_parent)
        err.close()
        assert process.stdout is not None
        line = line_from(process.stdout, "club serve's address", process=process)
        if "http://" not in line and "https://" not in line:
            process.kill()
            raise RuntimeError(f"club serve did not start: {line!r} "
                               f"{self.log.read_text(encoding='utf-8')}")
        self.url = line.split()[3]
        return process

    def restart(self) -> None:
        """Stop (SIGTERM) and start again on a new port."""
        self.stop()
        self.process = self._start()

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=60)

    def kill(self) -> None:
        """SIGKILL, as the standings host losing its power (nothing saved on the way)."""
        self.process.kill()
        self.process.wait(timeout=60)

    def start(self, args: list[str]) -> None:
        """Start it (stopped) again with these ``club serve`` arguments after ``--db``'s
        and the others this helper gives (a restart with other options)."""
        assert self.process.poll() is not None, "club serve is still running"
        self.args = [*self.args[: self.args.index("--name") + 2], *args]
        self.process = self._start()

    def get(self, path: str) -> Any:
        answer = httpx.get(self.url.rstrip("/") + path, timeout=LIVENESS_S)
        assert answer.status_code == 200, answer.text
        return answer.json() if "json" in answer.headers["content-type"] else answer.text

    def notes(self) -> Iterator[None]:
        """Yields once at first, then at every ``standings`` event of ``/events`` and every
        keep-alive comment. A stream that ends is opened again while the service runs (an
        ended stream is not the standings' last word); AssertionError, with the service's
        log, when the service has stopped."""
        while True:
            try:
                with httpx.stream("GET", self.url.rstrip("/") + "/events",
                                  timeout=60) as stream:
                    for line in stream.iter_lines():
                        if line.startswith(("event: standings", "event: tables", ":")):
                            yield None
            except httpx.TransportError:
                pass
            if self.process.poll() is not None:
                raise AssertionError(
                    f"club serve stopped with status {self.process.returncode}: "
                    f"{self.log.read_text(encoding='utf-8')[-2000:]}")
            yield None  # the caller looks at its deadline before the stream is opened again

    def wait_for(self, results: int, within: float = 120.0, *, refused: int = 0,
                 duplicates: int = 0, corrections: int = 0, held: int = 0) -> dict[str, Any]:
        """Wait (on the event stream, never a sleep) until ``results`` results are stored and
        at least ``refused`` messages refused, ``duplicates`` counted, ``corrections`` made
        and ``held`` revisions held; AssertionError when
        they are not within ``within`` seconds (the stream says it is still there every 15 s,
        so the deadline is looked at while nothing arrives). Only a stored result sends an
        event (a refusal does not, or a board sending bad messages would have every phone
        fetch the standings again): messages on other topics may be taken in another order,
        so a test that counts refusals waits for them by name."""
        status: dict[str, Any] = {}
        deadline = time.monotonic() + within
        for _ in self.notes():
            status = self.get("/api/status")
            if (status["results"] >= results and status["refused"] >= refused
                    and status["duplicates"] >= duplicates
                    and status["corrections"] >= corrections and status["held"] >= held):
                return status
            if time.monotonic() > deadline:
                break
        raise AssertionError(f"{results} results were not stored: {status}")


    def wait_for_tables(self, boards: set[str], within: float = 60.0) -> list[dict[str, Any]]:
        """Wait (on the event stream) until ``/api/tables`` holds a live state for every one
        of ``boards``: the retained states come on their own topic, so they may follow the
        results the service has already counted."""
        tables: list[dict[str, Any]] = []
        deadline = time.monotonic() + within
        for _ in self.notes():
            tables = self.get("/api/tables")["tables"]
            if boards <= {b["board"] for b in tables if "state" in b}:
                return tables
            if time.monotonic() > deadline:
                break
        raise AssertionError(f"no live state from every board of {sorted(boards)}: {tables}")


def table_of(standings: dict[str, Any]) -> list[tuple[str, int, int, int]]:
    """(member, game points, wins, spread) of ``/api/standings``' players."""
    return [(p["member"], p["game_points"], p["wins"], p["spread"])
            for p in standings["players"]]


def results_of(store: Path) -> list[str]:
    """The acknowledged result ids of a board."""
    path = store / "club-acked.txt"
    return path.read_text(encoding="utf-8").split() if path.exists() else []


def dumps(value: object) -> str:
    return json.dumps(value, sort_keys=True)
