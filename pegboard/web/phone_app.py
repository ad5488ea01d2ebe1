"""The phone seats' server: each paired phone a private hand of the board.

It runs inside the board's own process (``pegboard run --phones``, ``pegboard sim
--phones``), beside the scoreboard it serves too (``/``, ``/api/game``, ``/events``, as
``pegboard web``): ``/phone`` is the seat's page, and these routes its own:

* ``GET /J/CEF347`` (the address in the board's QR code, in capitals so that it fits a small
  symbol: :data:`pegboard.web.passes.SHORT_PATH`): on to ``/join?code=CEF347`` (303);
* ``GET /join?code=CEF347`` and ``GET /phone``: the seat's page; the page trades the code
  for the seat's token with ``POST /phone/join`` ``{"code": "CEF347"}``
  (:mod:`pegboard.web.passes`), keeps it in the tab's session storage and goes on to
  ``/phone``;
* ``GET /phone/me``: the seat's own view (:func:`pegboard.web.phone_view.seat_json`);
* ``GET /phone/stream``: the same, as Server-Sent Events (``event: me``), whenever the game
  changes (read with ``fetch``, since only it can send the token);
* ``POST /phone/act``: one action (:func:`pegboard.web.phone_view.read_action`), put to the
  board's loop as an input and answered once the entry is on disk, or refused with the
  engine's reason: ``{"taken": true, "me": {...}}`` or ``{"taken": false, "reason": ...}``;
* ``POST /phone/advice`` ``{"cards": [six]}``: the seat's own discard advice (no entry).

Who may do what (docs/security.md, "Phone seats"): every seat route needs the seat's token in
the ``Authorization: Bearer`` header, never a cookie, so another site's page cannot act for
a phone (no cross-site request carries the header); every POST must come from this server's
own page (its ``Origin`` is the board's, its type JSON, its body at most
:data:`MAX_BODY` bytes); a token speaks for its one seat of its one game; each token and each
address has a budget of requests (:class:`Budget`); a request sent twice or from a page the
game has moved past carries an old sequence number and changes nothing.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import BaseRoute, Route

from pegboard.errors import PairingBusyError, PegboardError
from pegboard.rules.cards import Card
from pegboard.rules.value import Value
from pegboard.web.passes import JOIN_PATH, SHORT_PATH
from pegboard.web.phone_desk import Desk
from pegboard.web.phone_page import phone_page
from pegboard.web.phone_view import (
    ActionError,
    advice_json,
    held_by_rank,
    parse_cards,
    read_action,
    seat_json,
)

__all__ = ["LIMITS", "Budget", "PhoneLimits", "SeatHolder", "SeatPasses", "phone_routes"]

MAX_BODY = 1024
"""The largest request body a phone sends (six card names and a little more)."""

ANSWER_S = 5.0
"""How long a request waits for the board's answer before it is told to try again."""

STREAMS_PER_SEAT = 3
"""Private streams held at once for one seat (a phone's page, reopened)."""

KEEP_ALIVE = 15.0

LET_GO = ("This phone no longer holds a seat (taken on the box, released, or the game ended). "
          "To carry on here, join again with the code the box shows under Phones on its "
          "menu: scan it, or type it here.")
"""What a phone whose pass stopped working is told (its request answered 401, its stream's
``gone`` event): how to carry on, the board's Phones menu being the one way to a seat."""


class SeatHolder(Protocol):
    """Who a token speaks for: one seat of one game."""

    @property
    def game(self) -> str: ...

    @property
    def seat(self) -> int: ...


class SeatPasses(Protocol):
    """The seat passes (:class:`pegboard.web.passes.Passes`): a join code for a token, a
    token for the seat it holds."""

    def join(self, code: str, *, source: str = "", game: str | None = None) -> str: ...

    def holder(self, token: str) -> SeatHolder | None: ...

    def held(self, game: str) -> frozenset[int]: ...


@dataclass
class Budget:
    """A token bucket for each key (a token, an address): ``burst`` requests at once, then
    ``rate`` a second. ``clock`` is injected (tests move it by hand)."""

    burst: float
    rate: float
    clock: Callable[[], float] = time.monotonic
    _left: dict[str, tuple[float, float]] = field(default_factory=dict)

    def take(self, key: str) -> bool:
        """Spend one request of ``key``'s budget; False when it is spent."""
        now = self.clock()
        left, since = self._left.get(key, (self.burst, now))
        left = min(self.burst, left + (now - since) * self.rate)
        if left < 1:
            self._left[key] = (left, now)
            return False
        self._left[key] = (left - 1, now)
        if len(self._left) > 4096:  # forget the oldest keys: memory stays bounded
            for old in list(self._left)[:1024]:
                del self._left[old]
        return True


class Refused(PegboardError, ValueError):
    """A request refused before it reaches the board, with its HTTP status."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _json_error(error: Refused) -> JSONResponse:
    return JSONResponse({"taken": False, "reason": str(error)}, status_code=error.status,
                        headers={"cache-control": "no-store"})


class PhoneLimits(Value):
    """The request budgets: each seat's writes (taps, advice), each address's requests of
    any kind, each address's joins; a burst, then so many a second."""

    __slots__ = ("joins", "requests", "writes")
    __match_args__ = ("writes", "requests", "joins")

    writes: tuple[float, float]
    requests: tuple[float, float]
    joins: tuple[float, float]

    def __init__(
        self,
        writes: tuple[float, float] = (20, 5),
        requests: tuple[float, float] = (60, 20),
        joins: tuple[float, float] = (5, 0.2),
    ) -> None:
        setter = object.__setattr__
        setter(self, "writes", writes)
        setter(self, "requests", requests)
        setter(self, "joins", joins)


LIMITS = PhoneLimits()
"""The budgets a board serves its phones with."""


def phone_routes(desk: Desk, passes: SeatPasses, *,
                 clock: Callable[[], float] = time.monotonic,
                 answer_s: float = ANSWER_S,
                 limits: PhoneLimits = LIMITS) -> list[BaseRoute]:
    """The ``/phone`` routes (see the module doc) over ``desk`` and ``passes``, served
    behind the scoreboard's guards (``create_app(..., extra=...)``)."""
    per_token = Budget(*limits.writes, clock=clock)
    per_address = Budget(*limits.requests, clock=clock)
    joins = Budget(*limits.joins, clock=clock)
    streams: dict[str, int] = {}

    def client(request: Request) -> str:
        return request.client.host if request.client else ""

    def seat_of(request: Request, *, writes: bool = False) -> tuple[str, int]:
        """The token's seat, for the game now on the board (``writes``: a write, spending
        the seat's budget of writes)."""
        desk.serving()
        if not per_address.take(client(request)):
            raise Refused(429, "Too many requests from this address: wait a moment.")
        header = request.headers.getlist("authorization")
        if len(header) != 1 or not header[0].startswith("Bearer ") or len(header[0]) > 200:
            raise Refused(401, "This page holds no seat: scan the board's code to join.")
        token = header[0].removeprefix("Bearer ").strip()
        holder = passes.holder(token)
        if holder is None:
            raise Refused(401, LET_GO)
        now = desk.now
        if now.game is None or holder.game != now.game_id:
            raise Refused(409, "That seat was for another game: scan the board's code to "
                          "join this one.")
        if not 0 <= holder.seat < now.game.state.players:
            raise Refused(409, "That seat is not at this table.")
        if writes and not per_token.take(token):
            raise Refused(429, "Too many requests from this phone: wait a moment.")
        return token, holder.seat

    async def body_of(request: Request) -> dict[str, Any]:
        """A POST's JSON object, from this server's own page only."""
        origin = request.headers.get("origin")
        host = request.headers.get("host", "")
        if origin is None or origin not in (f"http://{host}", f"https://{host}"):
            raise Refused(403, "Requests to a seat come from the board's own page only.")
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise Refused(415, "A seat's request is JSON (application/json).")
        data = bytearray()
        async for chunk in request.stream():
            data += chunk
            if len(data) > MAX_BODY:
                raise Refused(413, f"A seat's request is at most {MAX_BODY} bytes.")
        try:
            body = json.loads(data)
        except (ValueError, RecursionError):
            raise Refused(400, "The request is not JSON.") from None
        if not isinstance(body, dict):
            raise Refused(400, "The request is not a JSON object.")
        return body

    async def page(request: Request) -> Response:
        return HTMLResponse(phone_page(), headers={"cache-control": "no-store"})

    async def short(request: Request) -> Response:
        # The QR code's address: its code is letters and digits only, so the page it is
        # sent on to is always this server's own join page.
        code = str(request.path_params["code"])
        if not (0 < len(code) <= 16 and code.isascii() and code.isalnum()):
            return _json_error(Refused(404, "That is not a join address: scan the board's "
                                            "code again."))
        return RedirectResponse(f"{JOIN_PATH}?code={code}", status_code=303,
                                headers={"cache-control": "no-store"})

    async def join(request: Request) -> Response:
        try:
            body = await body_of(request)
            if not joins.take(client(request)):
                raise Refused(429, "Too many join codes tried from this address: wait a "
                              "minute.")
            code = body.get("code")
            if not isinstance(code, str) or not 0 < len(code) <= 16:
                raise Refused(400, "The join code is the six letters the board shows.")
            try:
                token = passes.join(code, source=client(request), game=desk.now.game_id)
            except PairingBusyError as error:
                raise Refused(429, str(error)) from None
            except PegboardError as error:
                raise Refused(403, str(error)) from None
        except Refused as error:
            return _json_error(error)
        holder = passes.holder(token)
        if holder is not None and holder.game == desk.now.game_id:
            desk.held(passes.held(holder.game))  # the box now keeps this seat's hand private
        return JSONResponse({"token": token}, headers={"cache-control": "no-store"})

    async def me(request: Request) -> Response:
        try:
            _, seat = seat_of(request)
        except Refused as error:
            return _json_error(error)
        now = desk.now
        assert now.game is not None
        return JSONResponse(seat_json(now.game, seat, game_id=now.game_id, phones=now.phones,
                                      notice=desk.notice_for(seat, now.game_id)),
                            headers={"cache-control": "no-store"})

    async def stream(request: Request) -> Response:
        try:
            token, seat = seat_of(request)
        except Refused as error:
            return _json_error(error)
        if streams.get(token, 0) >= STREAMS_PER_SEAT:
            return _json_error(Refused(429, "This seat's page is open too many times."))
        return StreamingResponse(_private_stream(desk, passes, token, seat, streams),
                                 media_type="text/event-stream",
                                 headers={"cache-control": "no-store",
                                          "x-accel-buffering": "no"})

    async def act(request: Request) -> Response:
        try:
            _, seat = seat_of(request, writes=True)
            body = await body_of(request)
            try:
                entries, seq = read_action(body, seat, held_by_rank(desk.now.game, seat))
            except ActionError as error:
                raise Refused(400, str(error)) from None
        except Refused as error:
            return _json_error(error)
        future = desk.submit(seat, entries, seq)
        try:
            answer = await asyncio.wait_for(asyncio.wrap_future(future), answer_s)
        except TimeoutError:
            desk.forget(future)
            return _json_error(Refused(503, "The board did not answer in time: look at "
                                       "your page, then try again if it still applies."))
        now = desk.now
        mine = seat_json(now.game, seat, game_id=now.game_id, phones=now.phones,
                         notice=desk.notice_for(seat, now.game_id)) if now.game else None
        if not answer.taken:
            return JSONResponse({"taken": False, "reason": answer.reason, "me": mine},
                                status_code=409, headers={"cache-control": "no-store"})
        return JSONResponse({"taken": True, "me": mine}, headers={"cache-control": "no-store"})

    async def advise(request: Request) -> Response:
        try:
            _, seat = seat_of(request, writes=True)
            body = await body_of(request)
            try:
                cards: tuple[Card, ...] = parse_cards(body.get("cards"))
            except ActionError as error:
                raise Refused(400, str(error)) from None
            game = desk.now.game
            assert game is not None
            club = game.header.club
            if club is not None and not club.helps(seat):
                raise Refused(403, "No advice under the night's tournament lock.")
            try:
                found = advice_json(game, seat, cards)
            except PegboardError as error:
                raise Refused(400, str(error)) from None
        except Refused as error:
            return _json_error(error)
        return JSONResponse({"advice": found}, headers={"cache-control": "no-store"})

    return [
        Route("/phone", page, methods=["GET", "HEAD"]),
        Route(JOIN_PATH, page, methods=["GET", "HEAD"]),
        Route(SHORT_PATH + "{code}", short, methods=["GET", "HEAD"]),
        Route("/phone/join", join, methods=["POST"]),
        Route("/phone/me", me, methods=["GET"]),
        Route("/phone/stream", stream, methods=["GET"]),
        Route("/phone/act", act, methods=["POST"]),
        Route("/phone/advice", advise, methods=["POST"]),
    ]


async def _private_stream(desk: Desk, passes: SeatPasses, token: str, seat: int,
                          streams: dict[str, int]) -> AsyncIterator[str]:
    """The seat's view whenever it changes, until its pass is gone or its game ended."""
    streams[token] = streams.get(token, 0) + 1
    try:
        yield "retry: 1000\n\n"
        sent = ""
        while not desk.closing:
            now = desk.now
            holder = passes.holder(token)
            if now.game is None or holder is None or holder.game != now.game_id:
                yield f"event: gone\ndata: {json.dumps({'said': LET_GO})}\n\n"
                return
            text = json.dumps(seat_json(now.game, seat, game_id=now.game_id, phones=now.phones,
                                        notice=desk.notice_for(seat, now.game_id)),
                              separators=(",", ":"))
            if text != sent:
                sent = text
                yield f"event: me\ndata: {text}\n\n"
            else:
                yield ": idle\n\n"
            await desk.changed(now.version, KEEP_ALIVE)
    finally:
        streams[token] -= 1
        if not streams[token]:
            del streams[token]
