"""The scoreboard gives nothing away (issue 31, item 7), read from a real store as the device
writes it: while a muggins call can still be made, a right claim and a short one read alike;
a count nobody claimed never reads as "said 0"; no total shown passes the target; and no card
a player holds or laid away is named before the table has seen it.

The claims are made in small records of a muggins game in show mode: Ben (pone) shows first,
then Ann, then Ann's crib. Two records differ only in Ben's four cards, worth 4 in one and 6
in the other, and Ben claims 4 in both: the page must not tell them apart until the window
for a call has shut.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from pegboard.record import dump_line
from pegboard.rules.cards import Card
from pegboard.rules.events import (
    RECORD_VERSION,
    Crib,
    Cut,
    Deal,
    Dealt,
    Event,
    LaidAway,
    Play,
    Show,
    Starter,
)
from pegboard.rules.facts import ClaimClosed, ClaimOutcome, MugginsOpened, Report
from pegboard.rules.game import Game
from pegboard.rules.state import Reason
from pegboard.web.app import create_app
from pegboard.web.follow import Follower
from pegboard.web.snapshot import game_json, open_claim
from tests.support.games import random_game
from tests.support.web import EXAMPLES, ScriptedGame, record_game

RIGHT = ["2C", "4S", "JD", "KD"]  # with the starter 5H: fifteen 2, fifteen 4
SHORT = ["3C", "3D", "9S", "QS"]  # fifteen 2, fifteen 4, a pair is 6
ANNS = ["4C", "6D", "TS", "KC"]  # 9
CRIB = ["7C", "8D", "9D", "2S"]  # 7


def show_game(ben: list[str], *after: dict[str, Any]) -> list[str]:
    """A muggins game (this version's record) to the show of the first deal: Ben shows ``ben``
    and claims 4; then ``after``."""
    head: list[dict[str, Any]] = [
        {"type": "game", "version": RECORD_VERSION, "players": ["Ann", "Ben"],
         "rules": {"muggins": True}},
        {"type": "cut", "cards": ["2H", "KH"]},
        {"type": "deal", "dealer": 0},
        {"type": "starter", "card": "5H"},
        {"type": "show", "player": 1, "cards": ben},
    ]
    return [json.dumps(record) for record in (*head, *after)]


CLAIM_4 = {"type": "claim", "player": 1, "points": 4}
ANN_SHOWS = {"type": "show", "player": 0, "cards": ANNS}
ANN_CLAIMS = {"type": "claim", "player": 0, "points": 9}
SHOWN = (CLAIM_4, ANN_SHOWS, ANN_CLAIMS, {"type": "crib", "cards": CRIB},
         {"type": "claim", "player": 0, "points": 7})


@pytest.fixture
def at(tmp_path: Path) -> Iterator[Any]:
    """``at(lines, line)``: the ``/api/game`` object once ``line`` lines of ``lines`` are in a
    real store, read by the scoreboard's follower."""
    games: dict[tuple[str, ...], tuple[ScriptedGame, Follower]] = {}

    def snapshot(lines: list[str], line: int) -> dict[str, Any]:
        key = tuple(lines)
        if key not in games:
            store = tmp_path / f"store{len(games)}"
            games[key] = (ScriptedGame(store, lines), Follower(store))
        game, follower = games[key]
        game.play_to(line)
        follower.poll()
        data = game_json(follower)
        assert data is not None
        return data

    yield snapshot
    for game, follower in games.values():
        follower.close()
        game.close()


def seen(data: dict[str, Any]) -> dict[str, Any]:
    """What a page shows of the game: everything but the game's id and times."""
    return {key: value for key, value in data.items()
            if key not in ("id", "started_at", "updated_at")}


def test_a_right_claim_and_a_short_one_read_the_same_while_muggins_can_be_called(
        at: Any) -> None:
    right, short = show_game(RIGHT, *SHOWN), show_game(SHORT, *SHOWN)
    for line in (6, 7):  # Ben has claimed 4; then Ann shows, and her claim is awaited
        shown = at(right, line)
        assert seen(shown) == seen(at(short, line))
        assert shown["show"] == [{"player": 1, "crib": False, "points": None,
                                  "title": "Ben's hand: claimed 4", "lines": []}]
        assert shown["last_award"]["acts"] == [{"player": 1, "side": 1, "points": 4,
                                                "text": "Ben's hand: claimed 4", "awards": []}]
        assert shown["scores"] == shown["shown"] == [0, 4]
    # Ann's claim shuts the window on Ben's: now the page may say what Ben missed.
    assert [count["title"] for count in at(right, 8)["show"]] == [
        "Ben's hand: 4", "Ann's hand: claimed 9"]
    assert [count["title"] for count in at(short, 8)["show"]] == [
        "Ben's hand: 6 (said 4)", "Ann's hand: claimed 9"]
    assert "a pair is 6 (3♣ 3♦)" in at(short, 8)["show"][0]["lines"]


def test_a_short_play_claim_reads_as_a_right_one_until_the_next_score(at: Any) -> None:
    lines = (EXAMPLES / "muggins.jsonl").read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["version"] = 5
    lines[0] = json.dumps(header)
    # Line 7: Ann claims her fifteen (9 6) right, and the page says only what she claimed.
    assert at(lines, 7)["last_award"]["acts"][0]["text"] == "Ann claimed 2 (fifteen)"
    assert at(lines, 8)["last_award"]["acts"][0]["text"] == "Ann claimed 2 (fifteen)"
    short = [*lines[:6], json.dumps({"type": "claim", "player": 0, "points": 1})]
    assert at(short, 7)["last_award"]["acts"][0]["text"] == "Ann claimed 1 (fifteen)"
    assert at(short, 7)["last_award"]["acts"][0]["awards"] == []
    # Ben's go at line 17 is the next score: Ann's claim can no longer be called. Ben said 4
    # for it: the board takes the 1 it is worth, and the page says what he claimed.
    act = at(lines, 17)["last_award"]["acts"][0]
    assert (act["text"], act["points"]) == ("Ben claimed 4 (go)", 1)


def test_a_count_nobody_claimed_says_so_and_never_said_0(at: Any) -> None:
    called = show_game(RIGHT, {"type": "muggins", "player": 0, "points": 4}, ANN_SHOWS)
    data = at(called, 6)  # Ann calls muggins before Ben has claimed
    assert [count["title"] for count in data["show"]] == ["Ben's hand: 4 (not claimed)"]
    assert "fifteen 4 (5 K)" in data["show"][0]["lines"]
    assert data["last_award"]["acts"][0]["text"].startswith("Ann: Muggins for 4")
    # A claim of 0 is a claim: it reads as one, and once it cannot be called, as said.
    zero = show_game(RIGHT, {"type": "claim", "player": 1, "points": 0}, ANN_SHOWS, ANN_CLAIMS)
    assert at(zero, 6)["show"][0]["title"] == "Ben's hand: claimed 0"
    assert at(zero, 8)["show"][0]["title"] == "Ben's hand: 4 (said 0)"


def test_the_game_ending_on_a_claim_leaves_the_hands_after_it_not_claimed(at: Any) -> None:
    played = random_game(4, 2, muggins=True)  # its last card's claim wins: line 208
    lines = [dump_line(played.header, 2), *(dump_line(event, 2) for event in played.events)]
    assert len(lines) == 208
    data = at(lines, 208)
    game = Game.from_header(played.header)
    for event in played.events:
        game.apply(event)
    assert game.report is not None
    ended = [fact for fact in game.report.of(ClaimClosed)
             if fact.outcome is ClaimOutcome.ENDED and fact.claim.reason is Reason.HAND]
    assert ended
    titles = [count["title"] for count in data["show"]]
    for fact in ended:
        name = played.header.players[fact.claim.player]
        assert f"{name}'s hand: {fact.claim.points} (not claimed)" in titles
    assert not any("said 0" in title for title in titles)
    assert max(data["shown"]) == data["target"] < max(data["scores"]) or max(
        data["scores"]) == data["target"]


def test_the_window_shown_holds_every_under_claim_the_engine_holds_open() -> None:
    """Whenever the engine holds a hand's or crib's missed points open to muggins, the page
    draws that claim's window as open: the page never shows the truth of a claim that can
    still be called (over 40 seeded muggins games, every entry)."""
    checked = 0
    for seed in range(40):
        played = random_game(seed, 2 + seed % 2, muggins=True, mode="show" if seed % 3 else
                             "cards")
        game = Game.from_header(played.header)
        entries: list[Any] = []
        opened_at: int | None = None
        for number, event in enumerate(played.events, 2):
            game.apply(event)
            report = game.report
            assert report is not None
            entries.append(_Entry(number, event, report))
            if report.of(MugginsOpened):
                opened_at = number
            missed = report.next.muggins
            if missed is not None and missed.reason in (Reason.HAND, Reason.CRIB):
                assert open_claim(entries) == opened_at
                checked += 1
    assert checked > 20


class _Entry:
    """An entry as the follower keeps it (its line, event and report)."""

    def __init__(self, line: int, event: Any, report: Any) -> None:
        self.line, self.event, self.report = line, event, report


def test_the_finished_games_carry_the_totals_shown_never_past_the_target(
        tmp_path: Path) -> None:
    lines = (EXAMPLES / "muggins.jsonl").read_text(encoding="utf-8").splitlines()
    store = tmp_path / "store"
    record_game(store, lines)  # Ann's crib takes her from 115 to 125
    with TestClient(create_app(store)) as client:
        games = client.get("/api/games").json()["games"]
    assert games[0]["result"]["scores"] == [125, 120]  # what the record keeps
    assert games[0]["shown"] == [121, 120]  # what the board showed at the end


def test_a_game_read_after_it_ended_shows_the_target_not_the_total(tmp_path: Path) -> None:
    lines = (EXAMPLES / "muggins.jsonl").read_text(encoding="utf-8").splitlines()
    store = tmp_path / "store"
    game = ScriptedGame(store, lines)
    game.play_to(len(lines))
    with TestClient(create_app(store)) as client:  # the scoreboard started after the end
        data = client.get("/api/game").json()["game"]
    game.close()
    assert data["shown"] == [121, 120]
    assert max(data["race"]["scores"][-1]) <= data["target"]


CARD_TEXT = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9AJQKT])[SHDC](?![A-Za-z0-9])|"
                       r"(?:10|[2-9AJQK])[♠♥♦♣]")


def cards_in(text: str) -> set[Card]:
    """Every card named with its suit in ``text`` ("7D" or "7♦")."""
    found = set()
    for match in CARD_TEXT.findall(text):
        rank, suit = match[:-1], match[-1]
        suit = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}.get(suit, suit)
        found.add(Card.parse(("T" if rank == "10" else rank) + suit))
    return found


def seen_in(event: Any, report: Report) -> set[Card]:
    """The cards the table sees with one entry: cut, turned, laid, shown, and every hand and
    crib the engine counts (laid on the table at the show). Dealt cards, and the cards laid
    away, are their player's alone until then."""
    seen: set[Card] = {card for step in report.show_steps for card in step.cards}
    if isinstance(event, Cut | Show | Crib):
        seen.update(event.cards)
    elif isinstance(event, Starter | Play):
        seen.add(event.card)
    return seen


def with_laid_away(events: list[Event]) -> list[Event]:
    """``events`` (every card entered, every card of each hand laid) with the cards each
    player laid away entered after their dealt cards: the engine then knows each hand kept
    and the crib, which it counts with no ``crib`` line."""
    deals: list[list[Event]] = [[]]
    for event in events:
        if isinstance(event, Deal):
            deals.append([])
        deals[-1].append(event)
    out: list[Event] = []
    for deal in deals:
        laid = {(event.player, event.card) for event in deal if isinstance(event, Play)}
        for event in deal:
            if isinstance(event, Crib):
                continue
            out.append(event)
            if isinstance(event, Dealt):
                away = tuple(card for card in event.cards if (event.player, card) not in laid)
                out.append(LaidAway(event.player, away))
    return out


@pytest.mark.parametrize(("seed", "mode", "muggins", "laid_away"), [
    (3, "cards", False, False), (5, "show", False, False), (8, "cards", True, False),
    (13, "show", True, False), (3, "cards", False, True), (8, "cards", True, True)])
def test_no_card_a_player_holds_or_laid_away_reaches_the_page_before_the_table_sees_it(
        tmp_path: Path, seed: int, mode: str, muggins: bool, laid_away: bool) -> None:
    """Every card the scoreboard's JSON names, at every entry of a game whose dealt cards
    (and, with ``laid_away``, the cards each player laid away) were entered, is one the table
    has seen (the page shows nothing but this JSON)."""
    played = random_game(seed, 2, mode=mode, muggins=muggins, dealt=True)
    events = with_laid_away(played.events) if laid_away else played.events
    lines = [dump_line(played.header, 2), *(dump_line(event, 2) for event in events)]
    store = tmp_path / "store"
    game = ScriptedGame(store, lines)
    follower = Follower(store)
    seen: set[Card] = set()
    held: set[Card] = set()
    private = 0
    while not game.done:
        line = game.step()
        event = events[line - 2]
        assert game.game.report is not None
        seen |= seen_in(event, game.game.report)
        if isinstance(event, Dealt | LaidAway):
            held.update(event.cards)
        follower.poll()
        named = cards_in(json.dumps(game_json(follower), ensure_ascii=False))
        assert named <= seen, (line, sorted(map(str, named - seen)))
        private += len(held - seen)
    follower.close()
    game.close()
    assert private > 0  # cards were held privately all along
    assert game.state.winner is not None  # the whole game was played
