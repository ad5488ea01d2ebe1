"""Phone seats served by the board itself (pegboard.web.phone_app, pegboard.device.phones).

A real store, the board's loop on its thread and the phone server on loopback, spoken to over
plain HTTP: two phones play a whole deal to the engine's scores, each tap answered only once
the store has it; a spectator's and the other seat's raw answers and event streams never
hold a card before the table has seen it; hostile requests change nothing and get a clear
answer.
"""

from __future__ import annotations

import http.client
import json
import queue
import random
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from pegboard.app import machine
from pegboard.app.machine import initial_state
from pegboard.app.state import Reading
from pegboard.app.view import PageKind
from pegboard.config import Config
from pegboard.device.build import APP
from pegboard.device.loop import DeviceLoop
from pegboard.device.phones import PhoneObserver
from pegboard.errors import StoreError
from pegboard.record import dump_line
from pegboard.rules.cards import DECK, Card
from pegboard.rules.events import (
    ClubSeat,
    Deal,
    Dealt,
    GameHeader,
    LaidAway,
    OptionsChanged,
    Starter,
)
from pegboard.rules.state import Phase, Reason
from pegboard.rules.variants import Rules
from pegboard.sim.fakes import FakeClock, RecordingDisplay
from pegboard.sim.session import KitOnFirstKey
from pegboard.web.phone_app import PhoneLimits
from pegboard.web.phone_desk import Desk
from tests.support.memory_store import MemoryStore
from tests.support.phones import WAIT_S, Board, Listener, box_names, phone_board, request
from tests.support.web import chromium

ANN_SIX = ["5H", "5D", "JC", "4S", "KH", "2C"]
BEN_SIX = ["6H", "9D", "TC", "3S", "QH", "AC"]
CARD = re.compile(r"(?<![A-Za-z0-9])(?:[A2-9TJQK][CDHS]|10[CDHS])(?![A-Za-z0-9])")
PRETTY = re.compile(r"(?:10|[A2-9JQK])[\u2660\u2663\u2665\u2666]")


def joined(board: Board) -> list[str]:
    tokens = []
    for seat in (0, 1):
        status, data = request(board.port, "POST", "/phone/join", {"code": board.code(seat)})
        assert status == 200, data
        tokens.append(data["token"])
    return tokens


def me(board: Board, token: str) -> dict[str, Any]:
    status, data = request(board.port, "GET", "/phone/me", token=token)
    assert status == 200, data
    return data


def act(board: Board, token: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    body = {**body, "seq": me(board, token)["seq"]}
    return request(board.port, "POST", "/phone/act", body, token=token)


def first_playable(view: dict[str, Any]) -> dict[str, Any]:
    """The phone's tap for its turn: the first card its view offers, else go."""
    return {"do": "play", "card": view["playable"][0]} if view["playable"] else {"do": "go"}


def play_deal(board: Board, tokens: list[str], starter: str = "7S") -> None:
    """Both phones enter their cards, the dealer the starter; the play, lowest card that
    fits first, else go; every tap must be taken."""
    for seat, six in ((1, BEN_SIX), (0, ANN_SIX)):
        status, data = act(board, tokens[seat], {"do": "hand", "dealt": six, "away": six[4:]})
        assert status == 200 and data["taken"], data
    dealer = board.game.dealer
    assert dealer is not None
    status, data = act(board, tokens[dealer], {"do": "starter", "card": starter})
    assert status == 200 and data["taken"], data
    while board.game.phase is Phase.PLAY:
        to_act = board.game.to_act
        assert to_act is not None
        seat = to_act
        view = me(board, tokens[seat])
        assert view["asks"] == "play"
        playable = sorted(view["playable"], key=lambda c: Card.parse(c).pips)
        body = {"do": "play", "card": playable[0]} if playable else {"do": "go"}
        status, data = act(board, tokens[seat], body)
        assert status == 200 and data["taken"], data


def test_two_phones_play_a_deal_to_the_engines_scores(tmp_path: Path) -> None:
    with phone_board(tmp_path) as board:
        tokens = joined(board)
        ann = me(board, tokens[0])
        assert ann["name"] == "Ann" and ann["asks"] == "cards" and ann["seq"] == 0
        play_deal(board, tokens)
        # Every tap is on disk: the store's record replays to the board's very scores, and
        # the hands and crib were counted by the engine from the cards the phones entered.
        gs = board.game
        assert board.recorded().scores == gs.scores
        assert gs.deal_no == 2 and gs.phase is Phase.STARTER  # the next deal, at once
        assert sum(gs.scores) > 0
        # The scoreboard served beside the phones shows the same board.
        lines = len(board.store.current().records)  # type: ignore[union-attr]
        spectator = Listener(board.port, "/events")
        try:
            spectator.wait_for(f'"lines":{lines},'.encode(), "the scoreboard's last line")
        finally:
            spectator.close()
        last = json.loads([d for k, d in spectator.events() if k == "game"][-1])["game"]
        assert tuple(last["scores"]) == gs.scores


def test_two_phones_play_a_whole_game_over_http(tmp_path: Path) -> None:
    rng = random.Random(11)
    with phone_board(tmp_path, dealer=1) as board:
        tokens = joined(board)
        deals = 0
        while board.game.winner is None:
            assert board.game.phase is Phase.STARTER, board.game.phase
            deck = [str(card) for card in DECK]
            rng.shuffle(deck)
            for seat in (0, 1):
                six = deck[6 * seat: 6 * seat + 6]
                _, data = act(board, tokens[seat], {"do": "hand", "dealt": six,
                                                    "away": six[4:]})
                assert data["taken"], data
            dealer = board.game.dealer or 0
            assert act(board, tokens[dealer], {"do": "starter", "card": deck[12]})[1]["taken"]
            while board.game.phase is Phase.PLAY:  # type: ignore[comparison-overlap]
                seat = board.game.to_act or 0
                view = me(board, tokens[seat])
                body = first_playable(view)
                _, data = act(board, tokens[seat], body)
                assert data["taken"], data
            deals += 1
        gs = board.game
        assert max(gs.scores) >= 121 and deals >= 5
        assert board.recorded().scores == gs.scores and board.recorded().winner == gs.winner
        final = me(board, tokens[0])
        assert final["phase"] == "game over" and final["asks"] == "wait"


def test_a_muggins_game_claims_on_the_phones(tmp_path: Path) -> None:
    """Each score waits for its owner's claim, made on the owner's phone: one claim short,
    the rest right; the owner's phone alone is asked, the opponent's offered the call on
    every claim alike, and its muggins call takes the point missed."""
    rules = Rules.from_json({"muggins": True}, 2)
    with phone_board(tmp_path, rules=rules) as board:
        tokens = joined(board)
        for seat, six in ((1, BEN_SIX), (0, ANN_SIX)):
            assert act(board, tokens[seat], {"do": "hand", "dealt": six,
                                             "away": six[4:]})[1]["taken"]
        assert act(board, tokens[0], {"do": "starter", "card": "7S"})[1]["taken"]
        claims = short = counts = 0
        while board.game.deal_no == 1:
            gs = board.game
            if gs.pending_claims:
                pending = gs.pending_claims[0]
                owner, other = pending.player, 1 - pending.player
                mine = me(board, tokens[owner])
                assert mine["asks"] == "claim"
                assert me(board, tokens[other])["asks"] != "claim"
                # A count's claim shows the owner the cards counted, with the starter.
                counted = {Reason.HAND: gs.hands[owner], Reason.CRIB: gs.crib}.get(
                    pending.reason)
                assert mine["claim"]["cards"] == (
                    [str(card) for card in counted] if counted else None), mine["claim"]
                assert mine["claim"]["starter"] == ("7S" if counted else None)
                counts += counted is not None
                points = pending.points - 1 if pending.points > 1 and not short else (
                    pending.points)
                _, data = act(board, tokens[owner], {"do": "claim", "points": points})
                assert data["taken"], data
                claims += 1
                # The opponent's phone is offered the call, right claim or short alike.
                call = me(board, tokens[other])["call"]
                assert call is not None and call["owner"] == board.game.names[owner]
                assert call["claimed"] == points and me(board, tokens[owner])["call"] is None
                if points < pending.points:
                    short += 1
                    missed = board.game.pending_muggins
                    assert missed is not None and missed.points == 1
                    before = board.game.scores[other]
                    _, data = act(board, tokens[other], {"do": "muggins", "points": 1})
                    assert data["taken"], data
                    assert board.game.scores[other] == before + 1
                continue
            assert gs.phase is Phase.PLAY, gs.phase
            seat = gs.to_act or 0
            view = me(board, tokens[seat])
            body = first_playable(view)
            assert act(board, tokens[seat], body)[1]["taken"]
        assert claims >= 3 and short == 1 and counts == 3  # the hands and the crib at least
        assert board.recorded().scores == board.game.scores


def test_no_card_reaches_a_spectator_or_the_other_seat_before_it_is_seen(
        tmp_path: Path) -> None:
    with phone_board(tmp_path) as board:
        tokens = joined(board)
        assert board.views  # the panel's first frames
        spectator = Listener(board.port, "/events")
        ben_stream = Listener(board.port, "/phone/stream", token=tokens[1])
        raw: list[tuple[str, bytes, set[str]]] = []  # (who, answer, cards private then)
        try:
            play_deal_watched(board, tokens, raw)
            last = board.recorded()
            spectator.wait_for(f'"deal_no":{last.deal_no}'.encode(), "the next deal's event")
            ben_stream.wait_for(f'"deal_no":{last.deal_no}'.encode(), "Ben's next deal")
        finally:
            spectator.close()
            ben_stream.close()
        # Each raw answer polled during the deal names no card Ann held unseen at the time.
        assert len(raw) > 10 and all(hidden for _, _, hidden in raw[:5])
        for who, text, hidden in raw:
            named = set(CARD.findall(text.decode()))
            assert not named & hidden, (who, named & hidden)
        # The spectator's stream: each game event names only cards the table had seen when
        # that event's last record line was written (replayed from the store's record).
        current = board.store.current()
        assert current is not None
        records = current.records
        # A stream sends the latest state when it wakes, so a busy machine merges changes:
        # how many events arrive varies, but never fewer than the first and the next deal's.
        events = [json.loads(data) for kind, data in spectator.events() if kind == "game"]
        assert len(events) >= 2
        for event in events:
            game = event["game"]
            if game is None:
                continue
            seen = seen_after(records[: game["lines"]])
            named = set(CARD.findall(json.dumps(game)))
            assert named <= seen, (game["lines"], named - seen)
            assert not PRETTY.search(json.dumps(game, ensure_ascii=False))
        # Ben's own stream names his cards and what the table has seen, never Ann's others.
        assert len([kind for kind, _ in ben_stream.events() if kind == "me"]) >= 2
        for kind, data in ben_stream.events():
            if kind != "me":
                continue
            view = json.loads(data)
            named = set(CARD.findall(data))
            assert named <= set(BEN_SIX) | set(view["seen"]), named - set(BEN_SIX)


def seen_after(records: tuple[dict[str, Any], ...]) -> set[str]:
    """The cards the table has seen once ``records`` are entered: played, turned, counted."""
    from pegboard.app.session import Session

    gs = Session.resume(records).state
    return {str(card) for card in gs.seen}


def play_deal_watched(board: Board, tokens: list[str],
                      raw: list[tuple[str, bytes, set[str]]]) -> None:
    """:func:`play_deal`, polling the spectator's and Ben's answers after every tap."""
    drawn = [0]

    def watch() -> None:
        gs = board.game
        unseen = [c for c in (gs.dealt[0] or ()) if c not in gs.seen]
        hidden = {str(c) for c in unseen}
        for path, token in (("/api/game", None), ("/phone/me", tokens[1])):
            _, data = request(board.port, "GET", path, token=token)
            raw.append((path, json.dumps(data).encode(), hidden))
        # The box's panel: every frame drawn since names none of them either.
        for view in board.views[drawn[0]:]:
            text = repr(view)
            raw.append(("the panel", text.encode(), hidden))
            assert not any(c.pretty in text for c in unseen), view
        drawn[0] = len(board.views)

    for seat, six in ((0, ANN_SIX), (1, BEN_SIX)):
        _, data = act(board, tokens[seat], {"do": "hand", "dealt": six, "away": six[4:]})
        assert data["taken"], data
        watch()
    dealer = board.game.dealer or 0
    assert act(board, tokens[dealer], {"do": "starter", "card": "7S"})[1]["taken"]
    watch()
    while board.game.phase is Phase.PLAY:
        seat = board.game.to_act or 0
        view = me(board, tokens[seat])
        playable = sorted(view["playable"], key=lambda c: Card.parse(c).pips)
        body = {"do": "play", "card": playable[0]} if playable else {"do": "go"}
        assert act(board, tokens[seat], body)[1]["taken"]
        watch()
    assert drawn[0] > 10  # the panel followed the phones' taps


def test_hostile_requests_change_nothing(tmp_path: Path) -> None:
    with phone_board(tmp_path) as board:
        tokens = joined(board)
        port = board.port
        before = board.store.current().records  # type: ignore[union-attr]
        hand = {"do": "hand", "dealt": ANN_SIX, "away": ANN_SIX[4:], "seq": 0}
        refused = [
            # no token, a forged token, the token in a cookie only
            (request(port, "POST", "/phone/act", hand), 401, "holds no seat"),
            (request(port, "POST", "/phone/act", hand, token="x" * 43), 401, "no longer"),
            (request(port, "POST", "/phone/act", hand,
                     headers={"cookie": f"token={tokens[0]}"}), 401, "holds no seat"),
            # another site's page, or no Origin at all (a script's form post)
            (request(port, "POST", "/phone/act", hand, token=tokens[0],
                     origin="http://evil.example"), 403, "board's own page"),
            (request(port, "POST", "/phone/act", hand, token=tokens[0], origin=None),
             403, "board's own page"),
            # not JSON, too large, malformed
            (request(port, "POST", "/phone/act", token=tokens[0], raw=b"do=go&seq=0",
                     headers={"content-type": "application/x-www-form-urlencoded"}),
             415, "JSON"),
            (request(port, "POST", "/phone/act", {"do": "go", "pad": "x" * 2000, "seq": 0},
                     token=tokens[0]), 413, "at most 1024 bytes"),
            (request(port, "POST", "/phone/act", {"do": "hand", "dealt": ["5H"] * 40,
                                                  "seq": 0}, token=tokens[0]),
             400, "at most 6"),
            (request(port, "POST", "/phone/act", {"do": "deal", "seq": 0}, token=tokens[0]),
             400, "not an action"),
            (request(port, "POST", "/phone/act", {"do": "go"}, token=tokens[0]), 400, "seq"),
            # Ann's token entering Ben's seat is her own entry: the engine refuses a go now
            (request(port, "POST", "/phone/act", {"do": "go", "seq": 0}, token=tokens[0]),
             409, "go"),
            # a stale sequence number
            (request(port, "POST", "/phone/act", {**hand, "seq": 3}, token=tokens[0]),
             409, "moved on"),
        ]
        for (status, data), expected, words in refused:
            assert status == expected, (expected, data)
            assert words in data.get("reason", ""), (words, data)
        assert board.store.current().records == before  # type: ignore[union-attr]
        # Taken once; sent again, the very same request is stale and changes nothing.
        status, data = request(port, "POST", "/phone/act", hand, token=tokens[0])
        assert status == 200 and data["taken"], data
        after = board.store.current().records  # type: ignore[union-attr]
        status, data = request(port, "POST", "/phone/act", hand, token=tokens[0])
        assert status == 409 and "moved on" in data["reason"]
        assert board.store.current().records == after  # type: ignore[union-attr]
        # A code for another game is refused at the join, naming why, and left unused; a
        # pass for another game speaks for nothing in this one.
        other = board.server.passes.offer("20260101T000000Z-000000", 0).code
        status, data = request(port, "POST", "/phone/join", {"code": other})
        assert status == 403 and "for another game than the one in progress" in data["reason"]
        stranger = board.server.passes.join(other)
        status, data = request(port, "POST", "/phone/act", hand, token=stranger)
        assert status == 409 and "another game" in data["reason"]
        # A released seat's token stops at once.
        board.server.passes.release(board.game_id, 1)
        status, data = request(port, "GET", "/phone/me", token=tokens[1])
        assert status == 401 and "under Phones on its menu" in data["reason"]
        # A wrong Host is refused before any route (DNS rebinding) on the board's own server.
        status, _ = request(port, "GET", "/phone/me", token=tokens[0],
                            headers={"host": "evil.example"})
        assert status == 421


def test_a_phone_and_an_address_are_rate_limited(tmp_path: Path) -> None:
    with phone_board(tmp_path, limits=PhoneLimits(writes=(3, 0.001), requests=(12, 0.001))
                     ) as board:
        tokens = joined(board)
        go = {"do": "go", "seq": 0}
        writes = [request(board.port, "POST", "/phone/act", go, token=tokens[0])[0]
                  for _ in range(4)]
        assert writes == [409, 409, 409, 429]  # the engine's refusals, then the budget
        status, data = request(board.port, "POST", "/phone/act", go, token=tokens[0])
        assert status == 429 and "from this phone" in data["reason"]
        reads = [request(board.port, "GET", "/phone/me", token=tokens[1])[0]
                 for _ in range(8)]
        assert reads[0] == 200 and reads[-1] == 429


def test_a_join_code_is_refused_with_the_reason(tmp_path: Path) -> None:
    with phone_board(tmp_path) as board:
        status, data = request(board.port, "POST", "/phone/join", {"code": "CEFCEF"})
        assert status == 403 and "not one the board offered" in data["reason"]
        code = board.code(0)
        assert request(board.port, "POST", "/phone/join", {"code": code})[0] == 200
        status, data = request(board.port, "POST", "/phone/join", {"code": code})
        assert status == 403 and "used already" in data["reason"]


def test_advice_is_the_seats_own_and_not_under_the_lock(tmp_path: Path) -> None:
    with phone_board(tmp_path) as board:
        tokens = joined(board)
        status, data = request(board.port, "POST", "/phone/advice",
                               {"cards": ["5H", "5S", "6D", "JC", "4C", "KS"]}, token=tokens[0])
        assert status == 200, data
        best = data["advice"][0]
        assert best["away"] == ["JC", "KS"] and best["own_crib"] is True
        assert len(data["advice"]) == 3


def test_no_advice_or_hint_under_the_tournament_lock_but_a_guests(tmp_path: Path) -> None:
    """A club night's game under the tournament lock: Ann's phone gets no discard advice
    (refused with the reason) and no pegging hint at her turn; Ben, a guest, gets both, as
    a guest's own help is given today (docs/club.md)."""
    club = ClubSeat(1, 1, 1, ("101", "102"), lock=True, guests=(1,))
    six = {"cards": ["5H", "5S", "6D", "JC", "4C", "KS"]}
    with phone_board(tmp_path, club=club) as board:
        tokens = joined(board)
        status, data = request(board.port, "POST", "/phone/advice", six, token=tokens[0])
        assert status == 403 and "tournament lock" in data["reason"], data
        status, data = request(board.port, "POST", "/phone/advice", six, token=tokens[1])
        assert status == 200 and data["advice"], data
        for seat, hand in ((1, BEN_SIX), (0, ANN_SIX)):
            assert act(board, tokens[seat], {"do": "hand", "dealt": hand,
                                             "away": hand[4:]})[1]["taken"]
        assert act(board, tokens[0], {"do": "starter", "card": "7S"})[1]["taken"]
        hinted = {0: 0, 1: 0}
        while board.game.phase is Phase.PLAY:
            seat = board.game.to_act or 0
            view = me(board, tokens[seat])
            assert view["help"] is (seat == 1), view
            hinted[seat] += view["hint"] is not None
            body = first_playable(view)
            assert act(board, tokens[seat], body)[1]["taken"]
        assert hinted[0] == 0 and hinted[1] > 0, hinted


def test_a_tap_the_store_could_not_save_is_answered_as_refused() -> None:
    """The loop drops a step whose save failed: the phone is told, nothing changed, and the
    same tap taken the next time."""
    store = MemoryStore()
    header = GameHeader(("Ann", "Ben"))
    store.new_game(header)
    store.append(Deal(0))
    inbox: queue.Queue[Any] = queue.Queue()
    desk = Desk(inbox.put)
    state = initial_state(Config(), resume=[dump_line(header), dump_line(Deal(0))])
    loop = DeviceLoop(APP, state, kit=KitOnFirstKey(), inbox=inbox, display=RecordingDisplay(),
                      store=store, clock=FakeClock(),
                      observers=[PhoneObserver(desk, lambda: "g1")])
    loop.start()
    six = tuple(map(Card.parse, BEN_SIX))
    store.fail_next = StoreError("disk full")
    failed = desk.submit(1, (Dealt(1, six), LaidAway(1, six[4:])), 0)
    loop.pump()
    answer = failed.result(timeout=0)
    assert not answer.taken and "Not saved on the board (disk full)" in answer.reason
    assert loop.state.session is not None and loop.state.session.state.dealt[1] is None
    taken = desk.submit(1, (Dealt(1, six), LaidAway(1, six[4:])), 0)
    loop.pump()
    assert taken.result(timeout=0).taken
    assert store.games[-1][-2:] == [dump_line(Dealt(1, six)), dump_line(LaidAway(1, six[4:]))]
    assert desk.now.game_id == "g1" and desk.now.game is not None
    assert desk.now.game.state.dealt[1] == six


def test_a_starter_a_phones_hand_holds_is_told_to_that_phone_alone(tmp_path: Path) -> None:
    """Ben, dealing on the box, names as the starter a card Ann's phone entered: the box
    says only that it clashes; Ann's phone alone is told which card and what to do; Ben's
    phone, the scoreboard and its stream name it nowhere."""
    with phone_board(tmp_path, dealer=1) as board:
        tokens = joined(board)
        watcher = Listener(board.port, "/events")
        try:
            for token, six in ((tokens[0], ANN_SIX), (tokens[1], BEN_SIX)):
                status, data = act(board, token, {"do": "hand", "dealt": six,
                                                  "away": six[4:]})
                assert status == 200 and data["taken"], data
            card = Card.parse(ANN_SIX[0])
            box_names(board, card)
            screen = board.state.screen
            assert isinstance(screen, Reading) and screen.pages[0].kind is PageKind.REFUSED
            assert board.game.starter is None
            assert not re.search(rf"{card}|{card.pretty}", repr(machine.view(board.state)))
            ann = me(board, tokens[0])["notice"]
            # Named in words, as her phone's screen reader says it.
            assert ann is not None and "the five of hearts" in ann["text"], ann
            assert card.pretty not in ann["text"] and not CARD.search(ann["text"]), ann
            ben = me(board, tokens[1])
            assert ben["notice"] is None and card.pretty not in json.dumps(ben)
            assert "five of hearts" not in json.dumps(ben)
            status, game = request(board.port, "GET", "/api/game")
            assert card.pretty not in json.dumps(game) and str(card) not in json.dumps(game)
            raw = bytes(watcher.raw).decode()
            assert card.pretty not in raw and f'"{card}"' not in raw
        finally:
            watcher.close()


def test_an_open_handed_deal_shows_the_dealers_phone_whom_the_starter_waits_for(
        tmp_path: Path) -> None:
    """An open-handed game (teaching), both seats on phones, Ben dealing: once his own cards
    are in, his phone's raw view asks no starter while Ann's hand is still to come; it says
    whom the board waits for, names no card, and a starter tapped meanwhile is refused with
    those words. Once Ann's hand is in, his phone asks the starter and it is taken."""
    options = OptionsChanged(teaching=True, open_hands=True)
    with phone_board(tmp_path, dealer=1, first=(options,)) as board:
        tokens = joined(board)
        status, data = act(board, tokens[1], {"do": "hand", "dealt": BEN_SIX,
                                              "away": BEN_SIX[4:]})
        assert status == 200 and data["taken"], data
        ben = me(board, tokens[1])
        assert ben["asks"] == "wait", ben
        assert ben["waiting"] == {"for": ["Ann"], "text": (
            "Waiting for Ann's hand (on their phone): the starter comes after every "
            "hand.")}, ben["waiting"]
        assert not set(CARD.findall(json.dumps(ben["waiting"])))
        assert me(board, tokens[0])["asks"] == "cards"
        status, data = act(board, tokens[1], {"do": "starter", "card": "7S"})
        assert status == 409 and not data["taken"], data
        assert data["reason"].startswith("Waiting for Ann's hand (on their phone)"), data
        assert board.game.starter is None
        status, data = act(board, tokens[0], {"do": "hand", "dealt": ANN_SIX,
                                              "away": ANN_SIX[4:]})
        assert status == 200 and data["taken"], data
        ben = me(board, tokens[1])
        assert ben["asks"] == "starter" and ben["waiting"] is None, ben
        status, data = act(board, tokens[1], {"do": "starter", "card": "7S"})
        assert status == 200 and data["taken"], data
        assert board.game.phase is Phase.PLAY


def test_the_pages_script_is_asked_again_at_each_use(tmp_path: Path) -> None:
    """The phone's script and styles are revalidated at each use ("no-cache", a 304 by the
    ETag when unchanged): a page reloaded after an upgrade never runs an old script."""
    with phone_board(tmp_path) as board:
        for path in ("/static/phone.js", "/static/phone.css"):
            connection = http.client.HTTPConnection("127.0.0.1", board.port, timeout=WAIT_S)
            try:
                connection.request("GET", path, headers={"host": f"127.0.0.1:{board.port}"})
                first = connection.getresponse()
                first.read()
                assert first.status == 200 and first.getheader("cache-control") == "no-cache"
                etag = first.getheader("etag")
                assert etag
                connection.request("GET", path, headers={"host": f"127.0.0.1:{board.port}",
                                                         "if-none-match": etag})
                again = connection.getresponse()
                assert again.status == 304 and not again.read()
            finally:
                connection.close()


def test_a_claim_names_a_card_entered_by_rank_by_its_rank(tmp_path: Path) -> None:
    """The starter turned on the box by its rank alone (a 6): at a count's claim the owner's
    phone is sent it among the cards entered by rank (shown "6", said "six, suit not
    entered"), never as the stand-in suit's card."""
    ann, ben = cards_of("5H 5D 9C 4S KH 2C"), cards_of("6H 9D TC 3S QH AC")
    first = (Dealt(0, ann), LaidAway(0, ann[4:]), Dealt(1, ben), LaidAway(1, ben[4:]),
             Starter(Card.parse("6C"), suit_known=False))
    with phone_board(tmp_path, dealer=1, first=first, rules=Rules(muggins=True)) as board:
        tokens = joined(board)
        while not (board.game.pending_claims
                   and board.game.pending_claims[0].reason is Reason.HAND):
            gs = board.game
            if gs.pending_claims:
                owner = gs.pending_claims[0].player
                points = gs.pending_claims[0].points
                assert act(board, tokens[owner], {"do": "claim", "points": points})[1]["taken"]
                continue
            assert gs.phase is Phase.PLAY, gs.phase
            seat = gs.to_act or 0
            view = me(board, tokens[seat])
            body = first_playable(view)
            assert act(board, tokens[seat], body)[1]["taken"]
        owner = board.game.pending_claims[0].player
        claim = me(board, tokens[owner])["claim"]
        starter = board.game.starter
        # Its rank alone: the stand-in suit is never sent, not even to the counting seat.
        assert starter is not None and claim["starter"] == starter.rank.symbol, claim
        assert claim["by_rank"] == [starter.rank.symbol], claim
        assert str(starter) not in json.dumps(me(board, tokens[owner])), claim
        assert claim["cards"] == [str(c) for c in board.game.hands[owner] or ()], claim


def cards_of(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(word) for word in text.split())


def test_a_tap_reaches_the_scoreboard_at_once_not_at_its_next_poll(tmp_path: Path) -> None:
    """The scoreboard served beside the phones reads the store when the board publishes a
    saved batch: with its poll of the store ten minutes apart, a phone's tap still reaches
    its event stream (within the bounded wait)."""
    with phone_board(tmp_path, period=600.0) as board:
        tokens = joined(board)
        spectator = Listener(board.port, "/events")
        try:
            spectator.wait_for(b"event: game", "the scoreboard's first event")
            status, data = act(board, tokens[1], {"do": "hand", "dealt": BEN_SIX,
                                                  "away": BEN_SIX[4:]})
            assert status == 200 and data["taken"], data
            lines = len(board.store.current().records)  # type: ignore[union-attr]
            spectator.wait_for(f'"lines":{lines},'.encode(), "the tap's line on the scoreboard")
        finally:
            spectator.close()


def test_the_table_line_says_whose_hand_the_starter_waits_for(tmp_path: Path) -> None:
    """Both seats on phones, Ann dealing, her hand in and Ben's not: the scoreboard's and
    every phone's table line (``doing``, the same game JSON) names what the table waits for,
    Ben's hand, never the starter it has not reached; once his hand is in, Ann turns it."""
    with phone_board(tmp_path, dealer=0) as board:
        tokens = joined(board)
        status, data = act(board, tokens[0], {"do": "hand", "dealt": ANN_SIX,
                                              "away": ANN_SIX[4:]})
        assert status == 200 and data["taken"], data
        assert board.game.phase is Phase.STARTER and board.game.dealt[1] is None
        status, game = request(board.port, "GET", "/api/game")
        assert status == 200 and game["game"]["doing"] == "Waiting for Ben's hand — deal 1", game
        assert me(board, tokens[1])["asks"] == "cards"
        status, data = act(board, tokens[1], {"do": "hand", "dealt": BEN_SIX,
                                              "away": BEN_SIX[4:]})
        assert status == 200 and data["taken"], data
        status, game = request(board.port, "GET", "/api/game")
        assert game["game"]["doing"] == "Ann turns the starter — deal 1", game


@pytest.mark.skipif(chromium() is None, reason="needs chromium (`make test` installs it)")
def test_every_page_says_whose_hand_the_starter_waits_for(
        browser: Browser, patient: None, tmp_path: Path) -> None:
    """The same wait in Chromium at a phone's 360 px: the scoreboard and a phone not seated
    show the table's line, Ben's hand awaited; Ben's phone asks for his cards and Ann's says
    whom it waits for, neither naming the starter as the next step."""
    with phone_board(tmp_path, dealer=0) as board:
        tokens = joined(board)
        status, data = act(board, tokens[0], {"do": "hand", "dealt": ANN_SIX,
                                              "away": ANN_SIX[4:]})
        assert status == 200 and data["taken"], data
        pages: dict[str, Page] = {}
        for name, path, token in (("board", "/", None), ("spectator", "/phone", None),
                                  ("Ann", "/phone", tokens[0]), ("Ben", "/phone", tokens[1])):
            context = browser.new_context(viewport={"width": 360, "height": 740},
                                          is_mobile=True, has_touch=True)
            if token is not None:
                context.add_init_script(
                    f"sessionStorage.setItem('pegboard-seat', {json.dumps(token)})")
            pages[name] = context.new_page()
            pages[name].goto(f"http://127.0.0.1:{board.port}{path}")
        for name in ("board", "spectator"):
            expect(pages[name].locator("#doing")).to_have_text(
                "Waiting for Ben's hand — deal 1")
        expect(pages["Ben"].locator("#asked")).to_contain_text("Tap the 6 cards")
        expect(pages["Ann"].locator("#asked")).to_contain_text("Waiting for Ben's hand")
        for name in ("Ann", "Ben"):
            assert "starter" not in pages[name].locator("#doing").inner_text(), name
        for page in pages.values():
            page.context.close()
