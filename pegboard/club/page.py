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
  ``POST /api/director`` a director's act (accept, void or adjust, with a reason);
  ``/export/audit.csv?night=N`` the audit as a spreadsheet takes it;
  ``/export/acts.csv`` the director's acts, every one, as a spreadsheet takes them;
  ``/api/seating`` the next round's tables and bye (from ``--seating``), with names;
  ``/api/tables`` each board's live state and availability (its retained messages);
- ``/export/scorecards.csv?night=N`` one row per player per game;
  ``/export/night.csv?night=N`` the night summary per player;
- ``/api/page?night=N`` everything the page draws but the tables, in one answer;
- ``/events`` Server-Sent Events: ``standings`` (what changed) whenever the standings
  change, ``tables`` (the boards' entries) when a live state or availability does.

Every answer from the database is made once per version of the results (:class:`Answers`,
one connection) and sent to every page asking for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hmac
import ipaddress
import json
import re
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Collection, Mapping
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from pegboard.club import standings as table
from pegboard.club.budget import waiting_count
from pegboard.club.heal import open_results, retried, stale
from pegboard.club.journal import Stale
from pegboard.club.results import (
    Act,
    Bye,
    Results,
    act,
    acts,
    audit,
    counters,
    healed,
    is_damage,
    notice,
    queue,
    save_seating,
)
from pegboard.club.seating import Round, Tonight, from_json, merged, to_json
from pegboard.club.topics import check_id
from pegboard.errors import ClubError
from pegboard.rules.value import Value
from pegboard.rules.variants import GamePoints
from pegboard.web.app import Scoreboard

STATIC = Path(__file__).resolve().parent / "static"
KEEP_ALIVE = 15.0
PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Club standings</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/club.css"></head>
<body><h1>Club standings · <span id="night"></span></h1>
<p id="notice" class="notice" role="status"></p>
<section><h2>Tonight <span id="page"></span></h2><ul id="adjusted"></ul>
<table id="tonight"></table></section>
<section class="season"><h2>Season</h2><table id="season"></table></section>
<section><h2>Pots</h2><table id="hands"></table></section>
<section><h2 id="next">Next round</h2><p id="unseated"></p><table id="seats"></table></section>
<section><h2>Tables</h2><table id="live"></table></section>
<section class="director"><h2>Director's queue</h2><table id="queue"></table></section>
<p id="counts"></p>
<ul id="rescored"></ul>
<script src="/static/club.js"></script></body></html>
"""


class Notes:
    """What the page's event streams say, and the version the cached answers are for
    (called from paho's thread; kept on the event loop's).

    - :meth:`changed` (a result counted, corrected, held for the director, accepted,
      voided or adjusted): the standings or the director's queue changed; every open page
      fetches them again, once (``standings``, saying what changed);
    - :meth:`tables_changed` (a board's live state or availability): a ``tables`` note
      carrying that board's entry, so a page redraws its Tables without fetching anything
      and never fetches the standings for it;
    - :meth:`written` (anything else stored: a refusal, a duplicate): no
      note, but the answers cached before it are not given again.

    Whatever changes what a route answers calls one of these, so that :meth:`stamp` moves
    on and the cached answers (:class:`Answers`) are made again.
    """

    def __init__(self) -> None:
        self.version = 0
        self.news: dict[str, Any] = {"version": 0}
        """What the newest ``standings`` note says: its ``version`` and what changed."""
        self.tables = 0
        self.boards: dict[str, tuple[int, dict[str, Any]]] = {}
        """Each board's newest live state and availability, with the tables version at
        which it changed (``club/board`` -> (version, entry))."""
        self.writes = 0
        self.loop: asyncio.AbstractEventLoop | None = None
        self._event: asyncio.Event | None = None
        self._since: dict[int, str] = {}  # the tables notes made for this version, by start
        self.closing = False

    def bind(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._event = asyncio.Event()

    def changed(self, what: Mapping[str, Any] | None = None) -> None:
        """The standings changed (``what``: how, for the note: the result, its night, ...).
        On the loop's own thread (a director's act) at once: the answer to the act is not
        sent before the cached answers are stale."""
        if self.loop is None:
            return
        try:
            here = asyncio.get_running_loop() is self.loop
        except RuntimeError:
            here = False
        if here:
            self._bump(dict(what or {}))
        else:
            self.loop.call_soon_threadsafe(self._bump, dict(what or {}))

    def tables_changed(self, key: str, entry: Mapping[str, Any]) -> None:
        """Board ``key``'s live state or availability is now ``entry``."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._bump_tables, key, dict(entry))

    def written(self) -> None:
        """Something the answers read was stored, and no page need redraw for it."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._bump_writes)

    def stamp(self) -> tuple[int, int]:
        """The version of what the answers read: a cached answer of another is stale."""
        return self.version, self.writes

    def _bump_tables(self, key: str, entry: dict[str, Any]) -> None:
        self.tables += 1
        self.boards[key] = (self.tables, entry)
        self._since.clear()
        self._wake()

    def _bump(self, what: dict[str, Any]) -> None:
        self.version += 1
        self.news = {**what, "version": self.version}
        self._wake()

    def _bump_writes(self) -> None:
        self.writes += 1

    def tables_since(self, seen: int) -> str:
        """The ``tables`` note's data for a stream that has seen tables version ``seen``
        (-1: none yet): every board changed since, made once for every stream at ``seen``."""
        text = self._since.get(seen)
        if text is None:
            changed = [entry for key, (at, entry) in sorted(self.boards.items()) if at > seen]
            text = self._since[seen] = json.dumps(
                {"version": self.tables, "tables": changed}, separators=(",", ":"))
        return text

    def _wake(self) -> None:
        if self._event is not None:
            self._event.set()
            self._event = asyncio.Event()

    async def wait(self, timeout: float) -> None:
        event = self._event
        if event is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), timeout)


CACHED = 256
"""The most answers cached at once (by route and query): queries for many nights or clubs
cannot grow the cache past it (the oldest go)."""


class Answer(Value):
    """An answer as sent: its status, body and media type."""

    __slots__ = ("body", "headers", "media_type", "status")
    __match_args__ = ("status", "body", "media_type", "headers")

    status: int
    body: bytes
    media_type: str
    headers: tuple[tuple[str, str], ...]

    def __init__(
        self,
        status: int,
        body: bytes,
        media_type: str,
        headers: tuple[tuple[str, str], ...] = (),
    ) -> None:
        setter = object.__setattr__
        setter(self, "status", status)
        setter(self, "body", body)
        setter(self, "media_type", media_type)
        setter(self, "headers", headers)

    def response(self) -> Response:
        return Response(self.body, status_code=self.status, media_type=self.media_type,
                        headers={"cache-control": "no-store", **dict(self.headers)})


class Answers:
    """The routes' answers, each made once per version of what it reads (:meth:`Notes.stamp`)
    from one database connection: 200 pages fetching the standings after a result cost one
    query and one JSON encoding, and the rest are sent from here. A request arriving while
    its answer is being made waits for that one instead of making another. Only 200 answers
    are kept (a 400 or 503 is made again each time)."""

    def __init__(self, db_path: Path, notes: Notes) -> None:
        self.db_path = db_path
        self.notes = notes
        self.made = 0
        """Answers made (not taken from the cache): for the tests and the benchmark."""
        self._db: Results | None = None
        self._lock = threading.Lock()
        self._kept: OrderedDict[str, tuple[tuple[int, int], asyncio.Future[Answer]]] = (
            OrderedDict())

    def use(self, work: Callable[[sqlite3.Connection], Any]) -> Any:
        """Run ``work`` with the page's one connection (on a worker thread; one at a time).
        A database found damaged is rebuilt (:mod:`pegboard.club.heal`) and ``work`` done
        again on the new one, every page told to fetch the standings again."""
        with self._lock:
            return retried(self._connection, work, self._dropped)

    def _connection(self) -> Results:
        if self._db is not None and stale(self._db):  # rebuilt by the subscriber
            self._db.close()
            self._db = None
        if self._db is None:
            self._db = open_results(self.db_path, any_thread=True)
        return self._db

    def _dropped(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
        self.notes.changed({"healed": True})

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    async def get(self, key: str, make: Callable[[sqlite3.Connection], Answer]) -> Answer:
        """The answer for ``key`` (the route and its query) at the current version."""
        stamp = self.notes.stamp()
        kept = self._kept.get(key)
        if kept is not None and kept[0] == stamp:
            self._kept.move_to_end(key)
            return await asyncio.shield(kept[1])
        future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._kept[key] = (stamp, future)
        self._kept.move_to_end(key)
        while len(self._kept) > CACHED:
            self._kept.popitem(last=False)
        try:
            answer: Answer = await run_in_threadpool(self.use, make)
        except BaseException as error:
            if self._kept.get(key, (None, None))[1] is future:
                del self._kept[key]
            future.set_exception(error)
            future.exception()  # retrieved: no "never retrieved" warning when none waits
            raise
        self.made += 1
        future.set_result(answer)
        if answer.status != 200 and self._kept.get(key, (None, None))[1] is future:
            del self._kept[key]
        return answer


DIRECTOR_IN_CLEAR = (
    "the director's acts are taken over HTTPS (club serve --certfile --keyfile, club setup's "
    "standings.crt and standings.key) or from the standings host itself (ssh -L "
    "8122:127.0.0.1:8122 to it): never over the network in clear")
"""Why a director's act is refused from another machine without TLS."""


def local(request: Request) -> bool:
    """Whether ``request`` came from this host (a loopback address): without TLS, only such
    a request may carry the director's password."""
    client = request.client
    if client is None:
        return False
    try:
        address = ipaddress.ip_address(client.host.partition("%")[0])
    except ValueError:
        return False
    mapped = address.ipv4_mapped if isinstance(address, ipaddress.IPv6Address) else None
    return (mapped or address).is_loopback


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
               seating: Tonight | list[Round] | None = None,
               tables: Callable[[], list[dict[str, Any]]] = list,
               director: str | None = None, points: GamePoints = GamePoints.ACC,
               secure: bool = False, seating_source: str = "",
               season_points: table.SeasonPoints = table.DEFAULT_SEASON,
               bye: Bye = Bye.WIN, acted: Callable[[], None] = lambda: None) -> Starlette:
    """The application; ``start`` and ``stop`` run the subscriber with the server;
    ``director``: the director's password (None: no director's acts are taken), by which
    results are accepted, voided or adjusted (counted by the club's game ``points``);
    ``secure``: served over HTTPS, else the director's acts are taken only from this host
    (:func:`local`), so the password never crosses the network in clear. ``seating``:
    tonight's, which the director may re-seat (``POST /api/seating``, kept in the results
    database with ``seating_source``, the digest of the file it was loaded from).
    ``acted``: called after each director's act and re-seat, once it is stored (the
    service publishes the club's night again if it changed)."""

    tonight = seating if isinstance(seating, Tonight) else Tonight(seating)

    answers = Answers(db_path, notes)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        notes.bind()
        start()
        try:
            yield
        finally:
            notes.closing = True
            stop()
            answers.close()

    def answer(work: Callable[[sqlite3.Connection, Request], Any]) -> Callable[
            [Request], Any]:
        def make(request: Request, db: sqlite3.Connection) -> Answer:
            try:
                result = work(db, request)
            except QueryError as error:
                return _json({"error": str(error)}, 400)
            except (ClubError, sqlite3.Error) as error:
                if is_damage(error) or isinstance(error, Stale):
                    raise  # the database is rebuilt (Answers.use) and the answer made again
                if isinstance(error, ClubError):  # the database, not the request: later
                    return _json({"error": str(error)}, 503)
                return _json({"error": f"the results database: {error}"}, 503)
            if isinstance(result, Answer):
                return result
            return _json(result)

        async def route(request: Request) -> Response:
            # Made on a worker thread: a database busy with the subscriber's write never
            # holds up the event streams.
            key = f"{request.url.path}?{request.url.query}"
            try:
                found = await answers.get(key, functools.partial(make, request))
            except ClubError as error:  # the connection could not be made: try again later
                found = _json({"error": str(error)}, 503)
            except sqlite3.Error as error:  # damaged again after its rebuild
                found = _json({"error": f"the results database: {error}"}, 503)
            return found.response()
        return route

    def api_page(db: sqlite3.Connection, request: Request) -> dict[str, Any]:
        """Everything the page draws but the tables (which come on its event stream), in
        one answer: one request a page a redraw."""
        given, club = _night(request), _club(request)
        status = api_status(db, request)
        night = given if given is not None else (status["nights"][-1] if status["nights"]
                                                 else None)
        return {"night": night, "status": status, "notice": notice(db),
                "tonight": table.standings(db, night, club) if night is not None else [],
                "season": table.season(db, club, season_points),
                "specials": table.specials(db, night, club),
                "adjusted": table.adjusted(db, night, club) if night is not None else [],
                "seating": api_seating(db, request), "queue": queue(db)}

    def api_standings(db: sqlite3.Connection, request: Request) -> dict[str, Any]:
        night = _night(request)
        return {"night": night, "club": _club(request),
                "players": table.standings(db, night, _club(request)), "notice": notice(db)}

    def api_specials(db: sqlite3.Connection, request: Request) -> dict[str, Any]:
        return table.specials(db, _night(request), _club(request))

    def api_status(db: sqlite3.Connection, request: Request) -> dict[str, Any]:
        return {**counters(db), "waiting": waiting_count(db),
                "nights": table.nights(db), "locks": table.locks(db),
                "rescored": table.rescored(db), "healed": healed(db)}

    def api_seating(db: sqlite3.Connection, request: Request) -> dict[str, Any]:
        """The next round's tables and bye, the ``night`` the seating is for (None: not
        known yet), and ``none``: why no seating is loaded ("" when one is, or none was ever
        kept: a new night's seating held back from last night's)."""
        night = tonight.night
        return {**table.next_round(db, tonight.rounds or [], night), "night": night,
                "none": tonight.why_none}

    async def api_tables(request: Request) -> Response:
        return JSONResponse({"tables": tables()}, headers={"cache-control": "no-store"})

    def api_audit(db: sqlite3.Connection, request: Request) -> dict[str, Any]:
        return {"revisions": audit(db, _night(request))}

    def api_queue(db: sqlite3.Connection, request: Request) -> dict[str, Any]:
        return {"queue": queue(db), "acts": acts(db)}

    def audit_csv(db: sqlite3.Connection, request: Request) -> Answer:
        return csv_answer(table.audit_csv(audit(db, _night(request))), "audit.csv")

    def acts_csv(db: sqlite3.Connection, request: Request) -> Answer:
        return csv_answer(table.acts_csv(acts(db)), "acts.csv")

    def authorised(request: Request) -> Response | None:
        """None when ``request`` carries the director's password over a way it may come
        (HTTPS, or this host); else the answer refusing it."""
        given = request.headers.get("authorization", "")
        if director is None:
            return JSONResponse({"error": "no director's password is set (club serve "
                                 "--director-password-file)"}, status_code=403)
        if not secure and not local(request):
            return JSONResponse({"error": DIRECTOR_IN_CLEAR}, status_code=403)
        if not hmac.compare_digest(given.encode(), f"Bearer {director}".encode()):
            return JSONResponse({"error": "the director's password is wrong or missing"},
                                status_code=401, headers={"www-authenticate": "Bearer"})
        return None

    async def api_reseat(request: Request) -> Response:
        """The director loads or changes tonight's seating while the service runs: a JSON
        body ``{"director", "reason", "rounds": [...]}`` (the rounds as ``club seat --json``
        prints them): from its first round on, they replace the seating's (a re-seat for a
        late arrival or a withdrawal; :func:`~pegboard.club.seating.merged`)."""
        refused = authorised(request)
        if refused is not None:
            return refused
        body = await request.body()
        try:
            data = json.loads(body[:262144])
            who, why = str(data["director"]), str(data["reason"])
            given = from_json(data["rounds"])
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            detail = str(error) if isinstance(error, ClubError) else ""
            return JSONResponse({"error": 'give {"director", "reason", "rounds": [...]} (the '
                                 f"rounds as club seat --json prints them) {detail}".strip()},
                                status_code=400)

        def work(db: sqlite3.Connection) -> list[Round]:
            now = merged(tonight.rounds, given)
            save_seating(db, to_json(now), source=seating_source, director=who, reason=why,
                         night=tonight.night)
            return tonight.load(given)
        try:
            now = await run_in_threadpool(answers.use, work)
        except ClubError as error:
            return JSONResponse({"error": str(error)}, status_code=409)
        except sqlite3.Error as error:  # busy past its timeout, or damaged past rebuilding
            return JSONResponse({"error": f"the results database: {error}"}, status_code=503)
        first = min(r.number for r in given)
        await run_in_threadpool(acted)
        notes.changed({"act": "seating", "round": first})
        return JSONResponse({"done": f"tonight re-seated from round {first}",
                             "rounds": to_json(now)})

    async def api_director(request: Request) -> Response:
        """A director's act: ``Authorization: Bearer <the director's password>`` and a JSON
        body ``{"act": "accept"|"void"|"adjust", "id", "revision", "director", "reason"}``
        (an adjustment with ``"scores"``: each side's final score)."""
        refused = authorised(request)
        if refused is not None:
            return refused
        body = await request.body()
        try:
            data = json.loads(body[:8192])
            what = Act(data["act"])
            fields = [str(data[key]) for key in ("id", "revision", "director", "reason")]
            scores = data.get("scores")
            if scores is not None and not isinstance(scores, list):
                raise TypeError(scores)
        except (ValueError, KeyError, TypeError, AttributeError):
            return JSONResponse({"error": 'give {"act": "accept", "void" or "adjust", "id", '
                                 '"revision", "director", "reason"} (an adjustment with '
                                 '"scores": each side\'s final score)'}, status_code=400)

        def work(db: sqlite3.Connection) -> str:
            return act(db, what, fields[0], fields[1], director=fields[2],
                       reason=fields[3], points=points, scores=scores,
                       seating=tonight.rounds, bye=bye, seating_night=tonight.night)
        try:
            said = await run_in_threadpool(answers.use, work)
        except ClubError as error:
            return JSONResponse({"error": str(error)}, status_code=409)
        except sqlite3.Error as error:  # busy past its timeout, or damaged past rebuilding
            return JSONResponse({"error": f"the results database: {error}"}, status_code=503)
        await run_in_threadpool(acted)
        notes.changed({"act": what.value, "id": fields[0]})
        return JSONResponse({"done": said})

    def api_refused(db: sqlite3.Connection, request: Request) -> dict[str, Any]:
        return {"refused": [dict(row) for row in db.execute(
            "SELECT at, topic, why FROM refused ORDER BY rowid DESC LIMIT 200")]}

    def csv_answer(text: str, name: str) -> Answer:
        return Answer(200, text.encode("utf-8"), "text/csv; charset=utf-8", (
            ("content-disposition", f'attachment; filename="{name}"'),))

    def scorecards(db: sqlite3.Connection, request: Request) -> Answer:
        return csv_answer(table.scorecards_csv(db, _night(request)), "scorecards.csv")

    def api_season(db: sqlite3.Connection, request: Request) -> dict[str, Any]:
        return {"club": _club(request), "season_points": str(season_points),
                "players": table.season(db, _club(request), season_points)}

    def season_csv(db: sqlite3.Connection, request: Request) -> Answer:
        return csv_answer(table.season_csv(db, season_points), "season.csv")

    def pots_csv(db: sqlite3.Connection, request: Request) -> Answer:
        return csv_answer(table.pots_csv(db, _night(request)), "pots.csv")

    def night(db: sqlite3.Connection, request: Request) -> Answer:
        return csv_answer(table.night_csv(db, _night(request)), "night.csv")

    async def index(request: Request) -> Response:
        return HTMLResponse(PAGE, headers={"cache-control": "no-store"})

    async def events(request: Request) -> Response:
        return StreamingResponse(_stream(notes), media_type="text/event-stream",
                                 headers={"cache-control": "no-store"})

    app = Scoreboard(routes=[
        Route("/", index, methods=["GET", "HEAD"]),
        Route("/api/page", answer(api_page), methods=["GET", "HEAD"]),
        Route("/api/standings", answer(api_standings), methods=["GET", "HEAD"]),
        Route("/api/specials", answer(api_specials), methods=["GET", "HEAD"]),
        Route("/api/status", answer(api_status), methods=["GET", "HEAD"]),
        Route("/api/refused", answer(api_refused), methods=["GET", "HEAD"]),
        Route("/api/audit", answer(api_audit), methods=["GET", "HEAD"]),
        Route("/api/queue", answer(api_queue), methods=["GET", "HEAD"]),
        Route("/api/director", api_director, methods=["POST"]),
        Route("/export/audit.csv", answer(audit_csv), methods=["GET", "HEAD"]),
        Route("/export/acts.csv", answer(acts_csv), methods=["GET", "HEAD"]),
        Route("/api/seating", answer(api_seating), methods=["GET", "HEAD"]),
        Route("/api/seating", api_reseat, methods=["POST"]),
        Route("/api/tables", api_tables, methods=["GET", "HEAD"]),
        Route("/export/scorecards.csv", answer(scorecards), methods=["GET", "HEAD"]),
        Route("/export/night.csv", answer(night), methods=["GET", "HEAD"]),
        Route("/api/season", answer(api_season), methods=["GET", "HEAD"]),
        Route("/export/season.csv", answer(season_csv), methods=["GET", "HEAD"]),
        Route("/export/pots.csv", answer(pots_csv), methods=["GET", "HEAD"]),
        Route("/events", events, methods=["GET"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ], lifespan=lifespan)
    app.hosts = hosts
    app.state.answers = answers
    return app


def _json(value: Any, status: int = 200) -> Answer:
    """``value`` as JSON, as Starlette's JSONResponse writes it."""
    return Answer(status, json.dumps(value, ensure_ascii=False, allow_nan=False,
                                     separators=(",", ":")).encode("utf-8"),
                  "application/json")


async def _stream(notes: Notes) -> AsyncIterator[str]:
    """A page's notes: ``standings`` (what changed: the page fetches ``/api/page`` once)
    whenever the standings change, the first one at once; ``tables`` with the entries of
    the boards whose live state or availability changed since the last (every board in
    the first); a comment every :data:`KEEP_ALIVE` seconds of quiet."""
    yield "retry: 1000\n\n"
    seen = -1
    tables = -1
    while not notes.closing:
        if notes.version != seen:
            seen = notes.version
            news = json.dumps(notes.news, separators=(",", ":"))
            yield f"event: standings\ndata: {news}\n\n"
        elif notes.tables != tables:
            text = notes.tables_since(tables)  # the live states since the last, in one
            tables = notes.tables
            yield f"event: tables\ndata: {text}\n\n"
        else:
            await notes.wait(KEEP_ALIVE)
            if (notes.version, notes.tables) == (seen, tables) and not notes.closing:
                yield ": still here\n\n"
