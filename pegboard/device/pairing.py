"""The loop's pairing port: the app's pairing effects carried out on the board's passes.

An observer (:mod:`pegboard.device.observers`) with the passes file open
(:class:`pegboard.web.passes.Passes`, under the store's ``phones/`` folder):

* :class:`~pegboard.app.effects.OfferPairing`: each seat's join code for the game in
  progress (the store's game id), or that a phone holds the seat;
  :class:`~pegboard.app.effects.ReleaseSeat`: the seat freed first. Either is answered with
  a :class:`~pegboard.app.inputs.Pairing` input at the loop's next turn (:meth:`poll`), so
  the codes, drawn at random, come into the pure app as an input; a seat taken on the box
  while the starter waited for its phone's hand (a release that offers no code) is answered
  with the seats phones still hold (:class:`~pegboard.app.inputs.PhoneSeats`).
* When the store's game in progress changes (finished, abandoned, a new one), the passes of
  the one before are ended: its codes and its phones' tokens stop working. At start, the
  passes of every game but the one resumed are ended too (the board was off as it ended),
  and the app is told which seats of the one resumed phones hold
  (:class:`~pegboard.app.inputs.PhoneSeats`).
* The join address the QR code holds is ``[phones] host`` or, when that is empty, the
  board's own address on the local network (:func:`board_address`), with ``[phones] port``.

The passes file failing (a full card, say) is logged and the game goes on: pairing is not
needed to keep score.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable, Sequence
from typing import Any

from pegboard.app.effects import OfferPairing, ReleaseSeat
from pegboard.app.inputs import InputEvent, Pairing, PhoneSeats, SeatCode
from pegboard.device.observers import Seen
from pegboard.errors import PegboardError
from pegboard.web.passes import Passes, qr_text

log = logging.getLogger(__name__)

PROBE = ("10.254.254.254", 9)
"""A private address a UDP socket is "connected" to (nothing is sent) so that the system
says which of the board's addresses faces the local network."""


def board_address() -> str:
    """The board's IPv4 address on the local network, else its mDNS name (``host.local``)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(PROBE)
            address = str(probe.getsockname()[0])
    except OSError:
        address = ""
    if address and not address.startswith(("127.", "0.")):
        return address
    return f"{socket.gethostname().split('.')[0]}.local"


class PairingPort:
    """The observer carrying out pairing effects (see the module doc)."""

    def __init__(self, passes: Passes, game: Callable[[], str | None], *,
                 host: Callable[[], str], port: int) -> None:
        self.passes = passes
        self._game = game
        self._host = host
        self._port = port
        self._pending: list[InputEvent] = []
        self._current = game()
        try:
            for stale in passes.games():
                if stale != self._current:
                    passes.end_game(stale)
            if self._current is not None:
                # The seats phones hold survive a restart: the app is told at once.
                self._pending.append(PhoneSeats(passes.held(self._current)))
        except (PegboardError, OSError) as error:
            log.warning("phones: could not end the pairing of old games: %s", error)

    def serving(self, port: int) -> None:
        """The phone server listens on ``port``: the join addresses name it."""
        self._port = port

    def saw(self, seen: Seen[Any]) -> None:
        """End the passes of a game no longer in progress; answer the pairing effects."""
        current = self._game()
        if current != self._current:
            if self._current is not None:
                self._guarded(self.passes.end_game, self._current)
            self._current = current
        for effect in seen.asked:
            if isinstance(effect, OfferPairing):
                self._answer(effect.seats, effect.first)
            elif isinstance(effect, ReleaseSeat) and current is not None:
                if self._guarded(self.passes.release, current, effect.seat):
                    log.info("phones: seat %d released", effect.seat + 1)
                if effect.offer:
                    self._answer(effect.seats, effect.seat)
                else:  # taken on the box: the app learns the seats phones still hold
                    held = self._guarded(self.passes.held, current)
                    if held is not None:
                        self._pending.append(PhoneSeats(held))

    def _guarded(self, call: Callable[..., Any], *args: Any) -> Any:
        try:
            return call(*args)
        except (PegboardError, OSError) as error:
            log.error("phones: %s", error)
            return None

    def _answer(self, seats: int, first: int) -> None:
        game = self._current
        if game is None:
            return
        try:
            held = self.passes.held(game)
            host = self._host()
            codes = []
            for seat in range(seats):
                if seat in held:
                    codes.append(SeatCode(seat, held=True))
                    continue
                offer = self.passes.offer(game, seat)
                codes.append(SeatCode(seat, offer.code, qr_text(host, self._port, offer.code)))
        except (PegboardError, OSError) as error:
            log.error("phones: could not offer join codes: %s", error)
            return
        self._pending.append(Pairing(tuple(codes), first))

    def poll(self, now: float) -> Sequence[InputEvent]:
        """The answers waiting for the app."""
        pending, self._pending = self._pending, []
        return pending

    def next_deadline(self) -> float | None:
        """Now, while an answer waits; else nothing."""
        return 0.0 if self._pending else None

    def close(self) -> None:
        """Close the passes file."""
        self.passes.close()
