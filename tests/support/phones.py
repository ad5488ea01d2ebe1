"""A board with phone seats for tests: the simulator's loop on its own thread, a real store,
the phone server on loopback, and phones speaking plain HTTP to it (http.client)."""

from __future__ import annotations

import http.client
import json
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from pegboard.app import machine
from pegboard.app.inputs import Button, InputEvent, KnobTurn, Press
from pegboard.app.machine import AppState
from pegboard.app.session import Session
from pegboard.app.state import Reading, WheelScreen
from pegboard.app.view import PageKind, View
from pegboard.config import Config
from pegboard.device import build
from pegboard.device.loop import STOP
from pegboard.device.phones import add_phones
from pegboard.hw.clock import MonotonicClock
from pegboard.rules.cards import Card, Rank, Suit
from pegboard.rules.events import ClubSeat, Deal, Event, GameHeader
from pegboard.rules.state import GameState
from pegboard.rules.value import replace
from pegboard.rules.variants import Rules
from pegboard.sim.fakes import RecordingDisplay
from pegboard.sim.keys import KeyStep
from pegboard.sim.session import Simulator
from pegboard.store import Store
from pegboard.web.phone_app import PhoneLimits
from pegboard.web.phone_server import PhoneServer

LENIENT = PhoneLimits(writes=(1000, 1000), requests=(1000, 1000))
"""Budgets a test playing as fast as it can stays within."""

WAIT_S = 60.0
"""The longest a test waits for the board (it fails saying what it waited for)."""


@dataclass
class Board:
    """The board under test and what it showed."""

    sim: Simulator
    store: Store
    server: PhoneServer
    port: int
    views: list[View] = field(default_factory=list)
    frames_at: list[float] = field(default_factory=list)
    restarter: Callable[[], None] | None = None

    def restart(self) -> None:
        """Stop the board (its loop and its phone server) and start it again on the same
        store and port: what a power cut and a start-up do."""
        assert self.restarter is not None
        self.restarter()

    @property
    def state(self) -> AppState:
        return self.sim.loop.state

    @property
    def game(self) -> GameState:
        session = self.state.session
        assert session is not None
        return session.state

    @property
    def game_id(self) -> str:
        current = self.store.current()
        assert current is not None
        return current.id

    def recorded(self) -> GameState:
        """The game as the store has it on disk, replayed by the engine."""
        current = self.store.current()
        assert current is not None
        return Session.resume(current.records).state

    def code(self, seat: int) -> str:
        return self.server.passes.offer(self.game_id, seat).code


def request(port: int, method: str, path: str, body: object = None, *,
            token: str | None = None, origin: str | None = "same",
            headers: dict[str, str] | None = None, raw: bytes | None = None,
            ) -> tuple[int, dict[str, Any]]:
    """One request to the board; the status and the JSON object answered."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT_S)
    sent = {"host": f"127.0.0.1:{port}"}
    if origin == "same":
        sent["origin"] = f"http://127.0.0.1:{port}"
    elif origin is not None:
        sent["origin"] = origin
    if token is not None:
        sent["authorization"] = f"Bearer {token}"
    data = raw
    if body is not None:
        data = json.dumps(body).encode()
        sent["content-type"] = "application/json"
    sent.update(headers or {})
    try:
        connection.request(method, path, body=data, headers=sent)
        answer = connection.getresponse()
        text = answer.read()
    finally:
        connection.close()
    try:
        decoded = json.loads(text)
    except ValueError:
        decoded = {"text": text.decode(errors="replace")}
    return answer.status, decoded if isinstance(decoded, dict) else {"value": decoded}


class Listener:
    """Reads an event stream into ``raw`` on a thread, until :meth:`close`."""

    def __init__(self, port: int, path: str, token: str | None = None) -> None:
        self.raw = bytearray()
        self.changed = threading.Condition()
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT_S)
        headers = {"host": f"127.0.0.1:{port}"}
        if token is not None:
            headers["authorization"] = f"Bearer {token}"
        self.connection.request("GET", path, headers=headers)
        self.answer = self.connection.getresponse()
        self.closed = False
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            while not self.closed:
                line = self.answer.fp.readline()
                if not line:
                    return
                with self.changed:
                    self.raw += line
                    self.changed.notify_all()
        except (OSError, ValueError):
            return

    def wait_for(self, text: bytes, what: str) -> None:
        """Until ``text`` has arrived (fails after :data:`WAIT_S` naming ``what``)."""
        with self.changed:
            if not self.changed.wait_for(lambda: text in self.raw, WAIT_S):
                raise AssertionError(f"waited {WAIT_S} s for {what} on the stream")

    def events(self) -> list[tuple[str, str]]:
        """Each whole event's kind and data, in order (one still arriving is left out)."""
        found = []
        with self.changed:
            text = bytes(self.raw).decode()
        # Every whole event ends in a blank line: what follows the last one is unfinished.
        for block in text.split("\n\n")[:-1]:
            kind = data = ""
            for line in block.splitlines():
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: "):
                    data = line[6:]
            if kind:
                found.append((kind, data))
        return found

    def close(self) -> None:
        self.closed = True
        self.connection.sock and self.connection.sock.shutdown(socket.SHUT_RDWR)
        self.connection.close()
        self.thread.join(WAIT_S)


def listening_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    return sock


def _start(board_store: Store, config: Config, sock: socket.socket, limits: PhoneLimits,
           views: list[View], frames_at: list[float], *, pairing: bool = False,
           period: float = 0.05) -> tuple[Simulator, PhoneServer, threading.Thread]:
    """The simulator's loop over the store, on its own thread, serving phones on ``sock``
    (``pairing``: with the board's pairing port, which frees a seat the app releases)."""
    clock = MonotonicClock()

    def keep(view: View, image: Image.Image) -> None:
        views.append(view)
        frames_at.append(clock.now())

    port = build.make_pairing(replace(config, phones=replace(config.phones, enabled=True)),
                              board_store) if pairing else None
    sim = Simulator(config, board_store, RecordingDisplay(), clock=clock, on_frame=keep,
                    phones=port)
    sim.start()
    server = add_phones(sim.loop, board_store.directory,
                        lambda: (lambda g: g.id if g else None)(board_store.current()),
                        sock, hosts=frozenset(), limits=limits, period=period)
    loop = threading.Thread(target=sim.loop.run, name="loop", daemon=True)
    loop.start()
    return sim, server, loop


def _stop(sim: Simulator, server: PhoneServer, loop: threading.Thread) -> None:
    sim.inbox.put(STOP)
    loop.join(WAIT_S)
    assert not loop.is_alive(), f"the board's loop did not stop in {WAIT_S} s"
    server.stop()
    sim.close()


@contextmanager
def phone_board(folder: Path, *, dealer: int = 0, config: Config | None = None,
                first: tuple[Event, ...] = (), rules: Rules | None = None,
                limits: PhoneLimits = LENIENT, names: tuple[str, ...] = ("Ann", "Ben"),
                club: ClubSeat | None = None, pairing: bool = False,
                period: float = 0.05) -> Iterator[Board]:
    """A game of ``names`` (Ann and Ben unless told, ``dealer`` dealing the first hand) on a
    board serving phone seats; the loop runs on its own thread until the block ends.
    :meth:`Board.restart` stops the board and starts it again on the same store and port,
    as a power cut and a start-up would. ``club``: the game is a club night's (its seat,
    its tournament lock). ``pairing``: the board's pairing port runs too (a seat the box
    releases is freed). ``period``: the scoreboard's poll of the store."""
    with Store(folder / "store", owner="test") as store:
        store.new_game(GameHeader(names, rules or Rules(), club=club))
        for event in (Deal(dealer), *first):
            store.append(event)
        views: list[View] = []
        frames_at: list[float] = []
        sock = listening_socket()
        port = sock.getsockname()[1]
        sim, server, loop = _start(store, config or Config(), sock, limits, views, frames_at,
                                   pairing=pairing, period=period)
        board = Board(sim, store, server, port, views, frames_at)

        def restart() -> None:
            _stop(board.sim, board.server, running[0])
            again = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            again.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            again.bind(("127.0.0.1", port))
            again.listen(64)
            board.sim, board.server, running[0] = _start(store, config or Config(), again,
                                                         limits, views, frames_at,
                                                         pairing=pairing, period=period)

        running = [loop]
        board.restarter = restart
        try:
            yield board
        finally:
            _stop(board.sim, board.server, running[0])


RANK_KEYS = {rank: ("10" if rank is Rank.TEN else rank.symbol) for rank in Rank}
"""Each rank's key on the keypad, and its label on the box's card wheel."""

SUIT_KEYS = {Suit.CLUBS: "A", Suit.DIAMONDS: "2", Suit.HEARTS: "3", Suit.SPADES: "4"}
"""The keypad's key for each suit when the starter's suit is asked."""


def until(board: Board, done: Callable[[], bool], what: str) -> None:
    """Until ``done()`` holds of the board (fails after :data:`WAIT_S` naming ``what``):
    looked at again at each of the board's publications, and a few times a second
    besides (a key read off the pins changes the box's screen, not always the game)."""
    condition = board.server.desk.published
    deadline = time.monotonic() + WAIT_S
    with condition:
        while not done():
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"waited {WAIT_S} s for {what}")
            condition.wait(min(left, 0.02))


class BoxHands:
    """The seats a table plays on the box itself: keys pressed on gpiozero's mock pins (the
    simulator's hands: the kit, its callbacks and the loop, as on a Pi), chosen by reading
    the box's screen as a player reads the OLED.

    ``truth`` tells the true cards of a count (a seat's hand, or the crib) so that a count
    the box's stand-in suits made short is put right as a player would (GO on the count's
    page, a flush or nobs)."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.keys = 0

    @property
    def view(self) -> View:
        """What the box shows now (the app's view of the loop's state)."""
        return machine.view(self.board.state)

    @property
    def keypad(self) -> bool:
        return self.board.sim.config.input.kit == "keypad"

    def _press(self, *steps: KeyStep) -> None:
        hands = self.board.sim.hands
        hands.press_s = hands.gap_s = 0.02  # quick fingers (the gestures need no more)
        for step in steps:
            self.board.sim.press(step)
            self.keys += step.count

    def _after(self, steps: tuple[KeyStep, ...], changed: Callable[[AppState], bool],
               what: str) -> None:
        before = self.board.state
        self._press(*steps)
        until(self.board, lambda: changed(before), what)

    def read(self, points: Callable[[View], int | None] = lambda view: None) -> None:
        """OK on every page the box shows to be read; on a count's page whose points are
        not those ``points`` says are right, GO first (the box's next suit fact: a flush,
        nobs) until they are."""
        while isinstance(self.board.state.screen, Reading):
            view = self.view
            right = points(view)
            for _ in range(6):
                if right is None or _title_points(view.title) in (None, right):
                    break
                assert "GO" in view.hint, (view.title, view.lines, view.hint, right)
                self._after((KeyStep("go"),), lambda s: self.board.state is not s,
                            "the count's next suit fact")
                view = self.view
            assert right is None or _title_points(view.title) in (None, right), (
                view.title, view.lines, right)
            self._after((KeyStep("ok"),), self._moved_on, "the box's next page")

    def _moved_on(self, before: AppState) -> bool:
        return self.board.state.screen is not before.screen

    def enter(self, card: Card) -> None:
        """Enter ``card`` on the box's card wheel by its rank (the starter, a card played,
        a crib card): turned to on the encoder and OK, or its rank key on the keypad."""
        view = self.view
        picker = view.picker
        assert picker is not None, (view.screen, view.title, view.lines)
        label = RANK_KEYS[card.rank]
        target = next(i for i, o in enumerate(picker.options) if o.rstrip("♠♥♦♣") == label)
        if self.keypad:
            steps: tuple[KeyStep, ...] = (KeyStep(label),)
        else:
            wheel = len(picker.options)
            delta = (target - picker.index) % wheel
            if delta > wheel // 2:
                delta -= wheel
            turn = () if delta == 0 else (KeyStep("right" if delta > 0 else "left",
                                                  count=abs(delta)),)
            steps = (*turn, KeyStep("ok"))
        self._entered(steps, f"{card} entered on the box")

    def suit(self, card: Card) -> None:
        """The starter's suit asked on the box: ``card``'s suit chosen on its wheel."""
        view = self.view
        picker = view.picker
        assert picker is not None and self.board.game.asked is not None
        target = next(i for i, o in enumerate(picker.options) if o == card.pretty)
        if self.keypad:
            steps: tuple[KeyStep, ...] = (KeyStep(SUIT_KEYS[card.suit]),)
        else:
            steps = (*((KeyStep("right", count=target - picker.index),)
                       if target > picker.index else ()), KeyStep("ok"))
        self._entered(steps, f"the starter's suit, {card.suit}, entered on the box")

    def go(self) -> None:
        """GO: the player to act says go."""
        self._entered((KeyStep("go"),), "a go keyed on the box")

    def _entered(self, steps: tuple[KeyStep, ...], what: str) -> None:
        session = self.board.state.session
        assert session is not None
        events = session.events
        screen = self.board.state.screen
        pending = screen.pending if isinstance(screen, WheelScreen) else ()

        def taken(before: AppState) -> bool:
            now = self.board.state
            if now.session is None or now.session.events != events:
                return True
            if isinstance(now.screen, Reading) and now.screen.pages[0].kind is PageKind.REFUSED:
                raise AssertionError(f"{what}: refused, {now.screen.pages[0].lines}")
            return isinstance(now.screen, WheelScreen) and len(now.screen.pending) > len(pending)

        self._after(steps, taken, what)


def box_keys(board: Board, *events: InputEvent) -> None:
    """Inputs on the box's queue, one at a time, each waited for (the state moves on)."""
    for event in events:
        before = board.state

        def moved(before: AppState = before) -> bool:
            return board.state is not before

        board.sim.inbox.put(event)
        until(board, moved, f"the box's {event}")


def box_names(board: Board, card: Card) -> None:
    """The card wheel of the box (its pages read first) turned to ``card``'s rank, held OK
    round its suits to ``card`` itself, then OK: a card named with its suit."""
    while not isinstance(board.state.screen, WheelScreen):
        box_keys(board, Press(Button.OK))
    picker = machine.view(board.state).picker
    assert picker is not None
    label = RANK_KEYS[card.rank]
    box_keys(board, KnobTurn(list(picker.options).index(label) - picker.index))
    for _ in range(5):  # held OK goes round the suits of the rank
        shown = machine.view(board.state).picker
        if shown is not None and shown.entering == card.pretty:
            break
        box_keys(board, Press(Button.OK, long=True))
    box_keys(board, Press(Button.OK))


_POINTS = re.compile(r": (\d+)\b")


def _title_points(title: str) -> int | None:
    """The points a count's page says in its title ("Ben's hand: 8")."""
    found = _POINTS.search(title)
    return int(found.group(1)) if found else None
