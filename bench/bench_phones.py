"""Phone seats: taps a player makes in a 2-player deal with both seats on phones, and how soon
a tap shows on the board's panel and on the scoreboard's event stream, on loopback.

The board is the simulator's loop on its thread with a real store, serving its phones over
HTTP (the same server ``pegboard run --phones`` starts); the phones are plain HTTP clients
making exactly the requests the phone's page makes. Taps are counted as the page takes them:
one a card of the six, one a card laid away, one "Lay away", the dealer's starter, one a
card or go in the play. Latency: from the moment a card's request is sent to the frame the
loop draws for it (the panel's frame callback), and to the scoreboard's ``game`` event that
carries the entry's record line.

    python -m bench phones
"""

from __future__ import annotations

import json
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path

from pegboard.rules.cards import DECK
from pegboard.rules.state import Phase
from tests.support.phones import Board, Listener, phone_board, request

DEALS = 6


def _me(board: Board, token: str) -> dict[str, object]:
    return request(board.port, "GET", "/phone/me", token=token)[1]


def _act(board: Board, token: str, body: dict[str, object]) -> dict[str, object]:
    body = {**body, "seq": _me(board, token)["seq"]}
    status, data = request(board.port, "POST", "/phone/act", body, token=token)
    if status != 200:
        raise SystemExit(f"bench_phones: a tap was refused: {data}")
    return data


def main() -> None:
    rng = random.Random(2026)
    taps: list[list[int]] = []
    to_frame: list[float] = []
    to_event: list[float] = []
    with tempfile.TemporaryDirectory() as folder, phone_board(Path(folder)) as board:
        tokens = []
        for seat in (0, 1):
            tokens.append(request(board.port, "POST", "/phone/join",
                                  {"code": board.code(seat)})[1]["token"])
        events = Listener(board.port, "/events")
        arrived: dict[int, float] = {}
        seen = threading.Event()

        def watch() -> None:
            done = 0
            while not events.closed:
                with events.changed:
                    events.changed.wait(0.5)
                found = [data for kind, data in events.events() if kind == "game"]
                at = time.monotonic()
                for data in found[done:]:
                    game = json.loads(data)["game"]
                    if game is not None:
                        arrived.setdefault(game["lines"], at)
                        seen.set()
                done = len(found)

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        try:
            for _ in range(DEALS):
                gs = board.game
                assert gs.phase is Phase.STARTER and gs.dealer is not None
                count = [0, 0]
                deck = list(DECK)
                rng.shuffle(deck)
                for seat in (0, 1):
                    six = [str(c) for c in deck[6 * seat: 6 * seat + 6]]
                    _act(board, tokens[seat], {"do": "hand", "dealt": six, "away": six[4:]})
                    count[seat] += 6 + 2 + 1
                _act(board, tokens[gs.dealer], {"do": "starter", "card": str(deck[12])})
                count[gs.dealer] += 1
                while board.game.phase is Phase.PLAY:
                    gs = board.game
                    assert gs.to_act is not None
                    seat = gs.to_act
                    assert seat is not None
                    mine = _me(board, tokens[seat])
                    playable = mine["playable"]
                    assert isinstance(playable, list)
                    body = {"do": "play", "card": playable[0]} if playable else {"do": "go"}
                    frames = len(board.frames_at)
                    lines = len(board.store.current().records)  # type: ignore[union-attr]
                    body = {**body, "seq": mine["seq"]}
                    sent = time.monotonic()
                    request(board.port, "POST", "/phone/act", body, token=tokens[seat])
                    count[seat] += 1
                    if len(board.frames_at) > frames:
                        # the frame callback's time is the board's clock: time.monotonic
                        to_frame.append(board.frames_at[frames] - sent)
                    deadline = time.monotonic() + 5
                    while (max(arrived, default=0) <= lines
                           and time.monotonic() < deadline):
                        seen.wait(0.2)
                        seen.clear()
                    first = min((n for n in arrived if n > lines), default=None)
                    if first is not None:
                        to_event.append(arrived[first] - sent)
                taps.append(count)
        finally:
            events.close()
    per_player = [n for deal in taps for n in deal]
    print(f"taps per player per 2-player deal, both seats on phones ({DEALS} deals): "
          f"mean {statistics.mean(per_player):.1f}, most {max(per_player)} (goal <= 16)")
    for name, values in (("tap -> OLED frame", to_frame),
                         ("tap -> scoreboard event", to_event)):
        ms = sorted(v * 1000 for v in values)
        print(f"{name}: median {statistics.median(ms):.1f} ms, p90 "
              f"{ms[int(len(ms) * 0.9)]:.1f} ms over {len(ms)} taps (goal <= 100 ms median)")


if __name__ == "__main__":
    main()
