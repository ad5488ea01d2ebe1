"""The standings service's web application (Starlette): the page, the JSON and the exports.

Built on the scoreboard's hardened pieces (:mod:`pegboard.web.app`: the security headers and
content security policy, the ``Host`` check, the bounded query) and served by
:mod:`pegboard.club.server`. Every route answers GET and HEAD only. Routes (docs/club.md):

- ``/`` the page (``?big=1`` the big-screen view for the room, paging through tonight's
  players a screenful at a time; ``?night=N`` another night);
- ``/api/standings?night=N&club=C`` the players in ACC order (the season without ``night``);
- ``/api/specials?night=N`` the pots' hands and the 9–0 nights; ``/api/status`` the counts;
  ``/api/refused`` the newest 200 messages refused, with why (for the director);
  ``/api/audit?night=N`` every revision of every game stored, with what became of it;
  ``/api/queue`` the director's queue (the revisions held) and the director's acts;
  ``POST /api/director`` a director's act (accept or void, with a reason);
  ``/export/audit.csv?night=N`` the audit as a spreadsheet takes it;
  ``/api/seating`` the next round's tables and bye (from ``--seating``), with names;
  ``/api/tables`` each board's live state and availability (its retained messages);
- ``/export/scorecards.csv?night=N`` one row per player per game;
  ``/export/night.csv?night=N`` the night summary per player;
- ``/events`` Server-Sent Events: ``standings`` whenever a new result is stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import re
import sqlite3
from collections.abc import AsyncIterator, Callable, Collection, Iterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from pegboard.club import standings as table
from pegboard.club.results import Act, act, acts, audit, connect, counters, queue
from pegboard.club.seating import Round
from pegboard.club.topics import check_id
from pegboard.errors import ClubError
from pegboard.rules.variants import GamePoints
from pegboard.web.app import Scoreboard

STATIC = Path(__file__).resolve().parent / "static"
KEEP_ALIVE = 15.0
PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Club standings</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/club.css"></head>
<body><h1>Club standings · <span id="night"></span></h1>
<section><h2>Tonight <span id="page"></span></h2><table id="tonight"></table></section>
<section class="season"><h2>Season</h2><table id="season"></table></section>
<section><h2>Pots</h2><table id="hands"></table></section>
<section><h2 id="next">Next round</h2><table id="seats"></table></section>
<section><h2>Tables</h2><table id="live"></table></section>
<section class="director"><h2>Director's queue</h2><table id="queue"></table></section>
<p id="counts"></p>
<ul id="rescored"></ul>
<script src="/static/club.js"></script></body></html>
"""


class Notes:
    """Tells the event streams that the standings changed, or only a table's live state or
    availability (called from paho's thread): a live state never makes a phone fetch the
    standings again."""

    def __init__(self) -> None:
        self.version = 0
        self.tables = 0
        self.loop: asyncio.AbstractEventLoop | None = None
        self._event: asyncio.Event | None = None
        self.closing = False

    def bind(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._event = asyncio.Event()

    def changed(self) -> None:
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._bump)

    def tables_changed(self) -> None:
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._bump_tables)

    def _bump_tables(self) -> None:
        self.tables += 1
        self._wake()

    def _bump(self) -> None:
        self.version += 1
        self._wake()

    def _wake(self) -> None:
        if self._event is not None:
            self._event.set()
            self._event = asyncio.Event()

    async def wait(self, timeout: float) -> None:
        event = self._event
        if event is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), timeout)


class QueryError(ClubError):
    """A query parameter that cannot be used (answered with 400)."""


def _night(request: Request) -> int | None:
    text = request.query_params.get("night")
    if text is None or text == "":
        return None
    # ASCII digits only: str.isdigit() passes "²", which int() refuses, and other scripts'
    # digits, which no night is written in.
    if not re.fullmatch(r"[0-9]{1,4}", text, flags=re.ASCII) or not 1 <= int(text) <= 9999:
        raise QueryError(f"night={text[:20]!r}: give a night number from 1 to 9999")
    return int(text)


def _club(request: Request) -> str | None:
    text = request.query_params.get("club")
    if not text:
        return None
    try:
        return check_id(text, "club")
    except ClubError as error:
        raise QueryError(str(error)) from None


def create_app(db_path: Path, notes: Notes, *, hosts: Collection[str] | None,
               start: Callable[[], None], stop: Callable[[], None],
               seating: list[Round] | None = None,
               tables: Callable[[], list[dict[str, Any]]] = list,
               director: str | None = None, points: GamePoints = GamePoints.ACC) -> Starlette:
    """The application; ``start`` and ``stop`` run the subscriber with the server;
    ``director``: the director's password (None: no director's acts are taken), by which
    results are accepted or voided (counted by the club's game ``points``)."""

    @contextlib.contextmanager
    def reading() -> Iterator[sqlite3.Connection]:
        db = connect(db_path)
        try:
            yield db
        finally:
            db.close()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        notes.bind()
        start()
        try:
            yield
        finally:
            notes.closing = True
            stop()

    def answer(work: Callable[[sqlite3.Connection, Request], Any]) -> Callable[
            [Request], Any]:
        def read(request: Request) -> Any:
            with reading() as db:
                return work(db, request)

        async def route(request: Request) -> Response:
            # On a worker thread: a database busy with the subscriber's write never holds up
            # the event streams.
            try:
                result = await run_in_threadpool(read, request)
            except QueryError as error:
                return JSONResponse({"error": str(error)}, status_code=400)
            except ClubError as error:  # the database, not the request: try again later
                return JSONResponse({"error": str(error)}, status_code=503)
            except sqlite3.Error as error:
                return JSONResponse({"error": f"the results database: {error}"},
                                    status_code=503)
            if isinstance(result, Response):
                return result
            return JSONResponse(result, headers={"cache-control": "no-store"})
        return route

    def api_standings(db: sqlite3.Connection, request: Request) -> dict[str, Any]:
        night = _night(request)
        return {"night": night, "club": _club(request),
                "players": table.standings(db, night, _club(request))}

    def api_specials(db: sqlite3.Connection, request: Request) -> dict[str, Any]:
        return table.specials(db, _night(request), _club(request))

    def api_status(db: sqlite3.Connection, request: Request) -> dict[str, Any]:
        return {**counters(db), "nights": table.nights(db), "locks": table.locks(db),
                "rescored": table.rescored(db)}

    def api_seating(db: sqlite3.Connection, request: Request) -> dict[str, Any]:
        return table.next_round(db, seating or [])

    async def api_tables(request: Request) -> Response:
        return JSONResponse({"tables": tables()}, headers={"cache-control": "no-store"})

    def api_audit(db: sqlite3.Connection, request: Request) -> dict[str, Any]:
        return {"revisions": audit(db, _night(request))}

    def api_queue(db: sqlite3.Connection, request: Request) -> dict[str, Any]:
        return {"queue": queue(db), "acts": acts(db)}

    def audit_csv(db: sqlite3.Connection, request: Request) -> Response:
        return csv_answer(table.audit_csv(audit(db, _night(request))), "audit.csv")

    async def api_director(request: Request) -> Response:
        """A director's act: ``Authorization: Bearer <the director's password>`` and a JSON
        body ``{"act": "accept"|"void", "id", "revision", "director", "reason"}``."""
        given = request.headers.get("authorization", "")
        if director is None:
            return JSONResponse({"error": "no director's password is set (club serve "
                                 "--director-password-file)"}, status_code=403)
        if not hmac.compare_digest(given.encode(), f"Bearer {director}".encode()):
            return JSONResponse({"error": "the director's password is wrong or missing"},
                                status_code=401, headers={"www-authenticate": "Bearer"})
        body = await request.body()
        try:
            data = json.loads(body[:8192])
            what = Act(data["act"])
            fields = [str(data[key]) for key in ("id", "revision", "director", "reason")]
        except (ValueError, KeyError, TypeError):
            return JSONResponse({"error": 'give {"act": "accept" or "void", "id", '
                                 '"revision", "director", "reason"}'}, status_code=400)

        def work() -> str:
            with reading() as db:
                return act(db, what, fields[0], fields[1], director=fields[2],
                           reason=fields[3], points=points)
        try:
            said = await run_in_threadpool(work)
        except ClubError as error:
            return JSONResponse({"error": str(error)}, status_code=409)
        notes.changed()
        return JSONResponse({"done": said})

    def api_refused(db: sqlite3.Connection, request: Request) -> dict[str, Any]:
        return {"refused": [dict(row) for row in db.execute(
            "SELECT at, topic, why FROM refused ORDER BY rowid DESC LIMIT 200")]}

    def csv_answer(text: str, name: str) -> Response:
        return Response(text, media_type="text/csv; charset=utf-8", headers={
            "content-disposition": f'attachment; filename="{name}"'})

    def scorecards(db: sqlite3.Connection, request: Request) -> Response:
        return csv_answer(table.scorecards_csv(db, _night(request)), "scorecards.csv")

    def night(db: sqlite3.Connection, request: Request) -> Response:
        return csv_answer(table.night_csv(db, _night(request)), "night.csv")

    async def index(request: Request) -> Response:
        return HTMLResponse(PAGE, headers={"cache-control": "no-store"})

    async def events(request: Request) -> Response:
        return StreamingResponse(_stream(notes), media_type="text/event-stream",
                                 headers={"cache-control": "no-store"})

    app = Scoreboard(routes=[
        Route("/", index, methods=["GET", "HEAD"]),
        Route("/api/standings", answer(api_standings), methods=["GET", "HEAD"]),
        Route("/api/specials", answer(api_specials), methods=["GET", "HEAD"]),
        Route("/api/status", answer(api_status), methods=["GET", "HEAD"]),
        Route("/api/refused", answer(api_refused), methods=["GET", "HEAD"]),
        Route("/api/audit", answer(api_audit), methods=["GET", "HEAD"]),
        Route("/api/queue", answer(api_queue), methods=["GET", "HEAD"]),
        Route("/api/director", api_director, methods=["POST"]),
        Route("/export/audit.csv", answer(audit_csv), methods=["GET", "HEAD"]),
        Route("/api/seating", answer(api_seating), methods=["GET", "HEAD"]),
        Route("/api/tables", api_tables, methods=["GET", "HEAD"]),
        Route("/export/scorecards.csv", answer(scorecards), methods=["GET", "HEAD"]),
        Route("/export/night.csv", answer(night), methods=["GET", "HEAD"]),
        Route("/events", events, methods=["GET"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ], lifespan=lifespan)
    app.hosts = hosts
    return app


async def _stream(notes: Notes) -> AsyncIterator[str]:
    yield "retry: 1000\n\n"
    seen = -1
    tables = notes.tables
    while not notes.closing:
        if notes.version != seen:
            seen = notes.version
            tables = notes.tables  # the standings' redraw shows the tables too
            yield f'event: standings\ndata: {{"version":{seen}}}\n\n'
        elif notes.tables != tables:
            tables = notes.tables  # the live states since the last note, in one
            yield f'event: tables\ndata: {{"version":{tables}}}\n\n'
        else:
            await notes.wait(KEEP_ALIVE)
            if (notes.version, notes.tables) == (seen, tables) and not notes.closing:
                yield ": still here\n\n"
