"""The scoreboard's ASGI application (Starlette): the page, its files, the JSON and the stream.

Every route answers GET and HEAD only (anything else is 405): nothing served can change a
game. Every answer carries a strict content security policy (scripts, styles and connections
from this server only; no inline script or style, no frames, no forms), no cookie is ever
set, and an error inside is a short friendly page or JSON message, never a traceback.

Routes (docs/web.md): ``/`` the page (``?tv=1`` the large-type layout), ``/static/...`` its
script and style, ``/board/{sides}-{target}.svg`` a bare board, ``/api/game``,
``/api/games``, ``/events`` (Server-Sent Events: ``game`` with the ``/api/game`` object,
``games`` when the finished games changed).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections import Counter
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Collection,
    MutableMapping,
    Sequence,
)
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from pegboard.errors import PegboardError, RecordError
from pegboard.web.board import board_for
from pegboard.web.games import QueryError, parse_limit
from pegboard.web.hub import Hub
from pegboard.web.page import error_page, page
from pegboard.web.review import ReviewMissing, Reviews
from pegboard.web.server_hosts import HostCheck

STATIC = Path(__file__).resolve().parent / "static"

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
"""The content security policy of every answer."""

SECURITY_HEADERS = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
)

MAX_QUERY = 512
"""The longest query string answered (in bytes): the page and the API take two short
parameters, so anything longer is refused with 400 before a route sees it."""

MAX_STREAMS = 256
"""Event streams held at once (half the server's connections: the rest stay free for pages
and the API, however many streams are open)."""

STREAMS_PER_CLIENT = 8
"""Event streams held at once for one address (a browser's tabs)."""

BUSY_RETRY_MS = 5000
"""When a stream is refused, how soon the browser's EventSource asks again."""

KEEP_ALIVE = 15.0
"""Seconds between comments on an idle event stream (proxies and phones drop silent ones)."""

log = logging.getLogger("pegboard.web")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class SecurityHeaders:
    """ASGI middleware adding :data:`SECURITY_HEADERS` to every HTTP answer and dropping any
    ``Set-Cookie`` (the scoreboard keeps nothing about its visitors)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", [])
                           if k.lower() != b"set-cookie"]
                message["headers"] = headers + list(SECURITY_HEADERS)
            await send(message)

        await self.app(scope, receive, send_with_headers)


class Revalidated(StaticFiles):
    """The page's script and styles, which a browser asks again for at each use (unchanged,
    the answer is a bodiless 304 by its ETag): a page reloaded after the board's software
    was upgraded never runs the old script against the new server's answers."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["cache-control"] = "no-cache"
        return response


class BoundedQuery:
    """ASGI middleware refusing a query string longer than :data:`MAX_QUERY` with 400."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or len(scope.get("query_string", b"")) <= MAX_QUERY:
            await self.app(scope, receive, send)
            return
        body = json.dumps({"error": f"the query is longer than {MAX_QUERY} bytes"}).encode()
        await send({"type": "http.response.start", "status": 400, "headers": [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


class Scoreboard(Starlette):
    """Starlette with the security headers, the ``Host`` check and the query bound outside
    everything else, so that Starlette's own error answers (a 500 included) carry the headers
    and a refused request never reaches a route."""

    hosts: Collection[str] | None = None

    def build_middleware_stack(self) -> ASGIApp:
        inner: ASGIApp = BoundedQuery(super().build_middleware_stack())
        if self.hosts is not None:
            inner = HostCheck(inner, self.hosts)
        return SecurityHeaders(inner)


Failed = Callable[[BaseException], None]


def create_app(directory: Path, *, period: float = 0.05, hosts: Collection[str] | None = None,
               failed: Failed | None = None, extra: Sequence[BaseRoute] = (),
               phones: Callable[[], frozenset[int]] | None = None) -> Starlette:
    """The scoreboard for the store at ``directory`` (polled every ``period`` seconds).
    ``extra`` are more routes served behind the same guards (the phone seats' own,
    :mod:`pegboard.web.phone_app`); ``phones`` tells the seats phones hold (the board's
    own account, when the board serves the page beside its phones).

    ``hosts``: the names a request's ``Host`` may carry (:mod:`pegboard.web.server_hosts`;
    None answers any, for tests in one process). ``failed`` is told if the polling task ever
    ends with an error, so the server can stop and exit non-zero (systemd restarts it).
    """
    hub_box: list[Hub] = []
    streams: Counter[str] = Counter()

    def hub() -> Hub:
        if not hub_box:  # made inside the running loop (its events belong to it)
            hub_box.append(Hub(directory, period=period, phones=phones))
        return hub_box[0]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        task = asyncio.create_task(hub().run())
        task.add_done_callback(ended)
        app.state.hub = hub()
        try:
            yield
        finally:
            hub().stop()
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)  # its error was told already

    def ended(task: asyncio.Task[None]) -> None:
        _polling_ended(task, failed)

    async def index(request: Request) -> Response:
        return _index(hub(), request)

    async def api_game(request: Request) -> Response:
        current = hub()
        return Response(current.game_text, media_type="application/json",
                        status_code=503 if current.error else 200,
                        headers={"cache-control": "no-store"})

    def api_games(request: Request) -> Response:
        # A plain function: Starlette runs it on a worker thread, so reading the index (which
        # may wait for the device's write to it) never holds up the event streams.
        try:
            limit = parse_limit(request.query_params.get("limit", "20"))
        except QueryError as error:
            return JSONResponse({"error": str(error)}, status_code=400)
        current = hub()
        if current.error:
            return JSONResponse({"games": [], "error": current.error}, status_code=503)
        return JSONResponse({"games": current.finished(limit), "error": None},
                            headers={"cache-control": "no-store"})

    async def events(request: Request) -> Response:
        client = request.client.host if request.client else ""
        return EventStream(hub(), streams, client)

    reviews: list[Reviews] = []

    def review(request: Request) -> Response:
        # A plain function: reading a record and reviewing it runs on a worker thread.
        if not reviews:
            reviews.append(Reviews(directory))
        return review_response(reviews[0], request.path_params.get("id"))

    read = ["GET", "HEAD"]
    routes = [
        *extra,
        Route("/", index, methods=read),
        Route("/review", review, methods=read),
        Route("/review/{id}", review, methods=read),
        Route("/board/{name}.svg", _board, methods=read),
        Route("/api/game", api_game, methods=read),
        Route("/api/games", api_games, methods=read),
        Route("/events", events, methods=read),
        Mount("/static", Revalidated(directory=STATIC), name="static"),
    ]
    app = Scoreboard(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={HTTPException: _not_found, 500: _server_error},
    )
    app.hosts = hosts
    return app


def review_response(reviews: Reviews, game_id: str | None) -> Response:
    """A finished game's review page, or a friendly page saying why there is none."""
    try:
        text = reviews.page(game_id)
    except ReviewMissing as error:
        return HTMLResponse(error_page("No review", str(error)), status_code=404)
    except RecordError as error:  # for good: a finished game's record never changes
        log.warning("a review cannot be made: %s", _short(str(error)))
        return HTMLResponse(error_page("No review", _short(str(error))), status_code=404)
    except PegboardError as error:  # the store cannot be read now: try again later
        log.warning("a review cannot be made: %s", _short(str(error)))
        return HTMLResponse(error_page("No review", _short(str(error))), status_code=503)
    return HTMLResponse(text, headers={"cache-control": "no-store"})


def _polling_ended(task: asyncio.Task[None], failed: Failed | None) -> None:
    """The polling task ended: an error is logged and told to ``failed`` (a cancel is not)."""
    if task.cancelled() or task.exception() is None:
        return
    error = task.exception()
    assert error is not None
    log.error("the scoreboard stopped following the store: %s: %s",
              type(error).__name__, _short(str(error)))
    if failed is not None:
        failed(error)


def _index(current: Hub, request: Request) -> Response:
    """The page, drawn for the game followed now (two sides to 121 before any game);
    ``?tv=1`` lays it out for a television across the room."""
    game = _game(current)
    sides = len(game["scores"]) if game else 2
    target = game["target"] if game else 121
    tv = request.query_params.get("tv", "") not in ("", "0")
    return HTMLResponse(page(sides=sides, target=target, tv=tv),
                        headers={"cache-control": "no-store"})


async def _board(request: Request) -> Response:
    """A board's picture, by its sides and target: ``/board/2-121.svg``."""
    found = re.fullmatch(r"([23])-(61|121)", request.path_params["name"])
    if found is None:
        raise HTTPException(404, "a board has 2 or 3 sides and a target of 61 or 121")
    return Response(board_for(int(found.group(1)), int(found.group(2))),
                    media_type="image/svg+xml")


async def _not_found(request: Request, exc: Exception) -> Response:
    """A refused request's answer, as JSON under ``/api/`` and as a page elsewhere (a 405
    says the scoreboard is read-only)."""
    status = exc.status_code if isinstance(exc, HTTPException) else 404
    detail = exc.detail if isinstance(exc, HTTPException) else "Not found"
    if status == 405:
        detail = "The scoreboard only shows the game: it takes GET and HEAD requests."
        headers = {"allow": "GET, HEAD"}
    else:
        headers = {}
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": detail}, status_code=status, headers=headers)
    title = {404: "Not found", 405: "Read-only"}.get(status, "Cannot show this")
    return HTMLResponse(error_page(title, detail), status_code=status, headers=headers)

async def _server_error(request: Request, exc: Exception) -> Response:
    """A failure's answer: logged in short, and told without its details."""
    log.error("error answering %s: %s: %s", _short(request.url.path),
              type(exc).__name__, _short(str(exc)))
    message = "Something went wrong showing this page; the game itself is not affected."
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": message}, status_code=500)
    return HTMLResponse(error_page("Something went wrong", message), status_code=500)


def _short(text: str, most: int = 120) -> str:
    """``text`` cut for one log line (a path or message may be as long as a request)."""
    return text if len(text) <= most else text[:most] + f"… ({len(text)} characters)"


class EventStream(StreamingResponse):
    """``/events`` for one browser, counted while it lasts: over :data:`MAX_STREAMS` in all
    or :data:`STREAMS_PER_CLIENT` for its address, the stream says only when to come back
    (``retry``) and ends, which EventSource takes as "reconnect later"."""

    def __init__(self, hub: Hub, streams: Counter[str], client: str) -> None:
        super().__init__(_stream(hub), media_type="text/event-stream",
                         headers={"cache-control": "no-store", "x-accel-buffering": "no"})
        self.streams = streams
        self.client = client

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        streams, client = self.streams, self.client
        if streams.total() >= MAX_STREAMS or streams[client] >= STREAMS_PER_CLIENT:
            busy = f"retry: {BUSY_RETRY_MS}\n: busy\n\n"
            self.body_iterator = _once(busy)
            await super().__call__(scope, receive, send)
            return
        streams[client] += 1
        try:
            await super().__call__(scope, receive, send)
        finally:
            streams[client] -= 1
            if streams[client] <= 0:
                del streams[client]


async def _once(text: str) -> AsyncIterator[str]:
    yield text


def _game(hub: Hub) -> dict[str, Any] | None:
    data = json.loads(hub.game_text)
    game = data.get("game")
    return game if isinstance(game, dict) else None


async def _stream(hub: Hub) -> AsyncIterator[str]:
    """One browser's event stream: the game whenever it changes, a note when the finished
    games change, a comment when idle; it ends when the server stops."""
    yield "retry: 1000\n\n"
    seen = games_seen = -1
    while not hub.closing:
        if hub.version != seen:
            seen = hub.version
            yield f"event: game\ndata: {hub.game_text}\n\n"
        if hub.games_version != games_seen:
            games_seen = hub.games_version
            yield f'event: games\ndata: {{"version":{games_seen}}}\n\n'
        if hub.version == seen and hub.games_version == games_seen:
            before = hub.version, hub.games_version
            await hub.wait(KEEP_ALIVE)
            if (hub.version, hub.games_version) == before and not hub.closing:
                yield ": still here\n\n"
