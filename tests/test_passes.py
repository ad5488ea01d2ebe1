"""The pairing of phones to seats (pegboard.web.passes): each rule, a restart, a damaged file."""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import sqlite3
from pathlib import Path

import pytest

from pegboard.errors import PairingBusyError, PairingError, PegboardError, StoreError
from pegboard.web import passes as passes_module
from pegboard.web.passes import (
    ALPHABET,
    CODE_LENGTH,
    KEPT_CODES,
    MAX_GAMES,
    WINDOW,
    WRONG_IN_ALL,
    WRONG_PER_SOURCE,
    JoinOffer,
    Passes,
    SeatHolder,
    join_url,
    normal_code,
    passes_folder,
)

GAME = "20261128T143000Z-a1b2c3"
OTHER = "20261128T160000Z-d4e5f6"


class Clock:
    """A clock moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def passes(tmp_path: Path, clock: Clock) -> Passes:
    made = Passes(tmp_path / "phones", clock=clock)
    assert made.notices == ()
    return made


def test_a_code_is_six_of_the_alphabet_and_leaves_out_look_alikes(passes: Passes) -> None:
    codes = {passes.offer(f"game{n}", 0).code for n in range(40) for _ in range(1)}
    assert all(len(code) == CODE_LENGTH and set(code) <= set(ALPHABET) for code in codes)
    assert not set("0ODQ1IL2Z5S8B6GVAJK") & set(ALPHABET)
    assert len(codes) == 40  # drawn at random, not counted up


def test_offer_again_gives_the_open_code_and_each_seat_its_own(passes: Passes) -> None:
    first = passes.offer(GAME, 0)
    assert first == JoinOffer(GAME, 0, first.code)
    assert passes.offer(GAME, 0) == first
    assert passes.offer(GAME, 1).code != first.code


def test_join_gives_a_token_that_holds_its_seat_of_its_game(passes: Passes) -> None:
    offer = passes.offer(GAME, 1)
    token = passes.join(offer.code.lower())
    assert len(token) >= 43  # 32 bytes in URL-safe base64: 256 bits
    assert passes.holder(token) == SeatHolder(GAME, 1)
    assert passes.held(GAME) == {1}
    assert passes.holder(token + "x") is None
    assert passes.holder("") is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        passes.holder(token).seat = 0  # type: ignore[misc, union-attr]


def test_only_the_digest_of_a_token_is_on_disk(passes: Passes) -> None:
    token = passes.join(passes.offer(GAME, 0).code)
    data = b"".join(path.read_bytes() for path in passes.folder.iterdir())
    assert token.encode() not in data
    assert hashlib.sha256(token.encode()).hexdigest().encode() in data


def test_an_unknown_code_is_refused_by_name(passes: Passes) -> None:
    passes.offer(GAME, 0)
    with pytest.raises(PairingError, match=r"join code CCCCCC is not one the board offered"):
        passes.join("CCCCCC")
    with pytest.raises(PairingError, match=r"'hello' is not a join code"):
        passes.join("hello")
    assert issubclass(PairingError, PegboardError) and issubclass(PairingError, ValueError)


def test_a_used_code_is_refused_and_the_seat_keeps_its_phone(passes: Passes) -> None:
    offer = passes.offer(GAME, 0)
    token = passes.join(offer.code)
    with pytest.raises(PairingError, match=f"join code {offer.code} was used already"):
        passes.join(offer.code)
    assert passes.holder(token) == SeatHolder(GAME, 0)


def test_a_held_seat_refuses_a_second_phone_until_released(passes: Passes) -> None:
    token = passes.join(passes.offer(GAME, 2).code)
    fresh = passes.offer(GAME, 2)
    with pytest.raises(PairingError, match="seat 3 is held by another phone"):
        passes.join(fresh.code)
    assert passes.release(GAME, 2) is True
    assert passes.holder(token) is None
    assert passes.release(GAME, 2) is False
    second = passes.join(fresh.code)
    assert passes.holder(second) == SeatHolder(GAME, 2)


def test_end_game_forgets_its_tokens_and_codes_only(passes: Passes) -> None:
    mine = passes.join(passes.offer(GAME, 0).code)
    open_code = passes.offer(GAME, 1).code
    theirs = passes.join(passes.offer(OTHER, 0).code)
    passes.end_game(GAME)
    assert passes.holder(mine) is None
    assert passes.held(GAME) == frozenset()
    with pytest.raises(PairingError, match="is not one the board offered"):
        passes.join(open_code)
    assert passes.holder(theirs) == SeatHolder(OTHER, 0)


def test_bad_game_or_seat_is_refused(passes: Passes) -> None:
    with pytest.raises(PairingError, match="seat 4 is not a seat: 0 to 3"):
        passes.offer(GAME, 4)
    with pytest.raises(PairingError, match="is not a game id"):
        passes.offer("../x", 0)
    with pytest.raises(PairingError, match="seat True"):
        passes.release(GAME, True)


def test_pairing_survives_a_restart(tmp_path: Path, clock: Clock) -> None:
    with Passes(tmp_path, clock=clock) as before:
        token = before.join(before.offer(GAME, 0).code)
        open_offer = before.offer(GAME, 1)
    after = Passes(tmp_path, clock=clock)
    assert after.notices == ()
    assert after.holder(token) == SeatHolder(GAME, 0)
    assert after.offer(GAME, 1) == open_offer
    assert after.holder(after.join(open_offer.code)) == SeatHolder(GAME, 1)


def test_two_openers_share_the_file(tmp_path: Path, clock: Clock) -> None:
    board = Passes(tmp_path, clock=clock)
    server = Passes(tmp_path, clock=clock)
    token = server.join(board.offer(GAME, 0).code)
    assert board.holder(token) == SeatHolder(GAME, 0)
    board.release(GAME, 0)
    assert server.holder(token) is None


@pytest.mark.parametrize("damage", [b"this is not a database" * 100, b"",
                                    b"SQLite format 3\x00" + b"\xff" * 4000])
def test_a_damaged_file_is_moved_aside_with_a_sentence(
        tmp_path: Path, clock: Clock, damage: bytes, caplog: pytest.LogCaptureFixture) -> None:
    with Passes(tmp_path, clock=clock) as before:
        token = before.join(before.offer(GAME, 0).code)
    path = tmp_path / "passes.sqlite3"
    path.write_bytes(damage)
    with caplog.at_level(logging.WARNING):
        after = Passes(tmp_path, clock=clock)
    if damage == b"":
        # An empty file is a new SQLite database: nothing to put right, nothing held.
        assert after.notices == ()
    else:
        assert len(after.notices) == 1
        assert "could not be read" in after.notices[0]
        assert "every phone must pair again" in after.notices[0]
        assert (tmp_path / "passes.sqlite3.damaged").read_bytes() == damage
        assert "Traceback" not in caplog.text and "could not be read" in caplog.text
    assert after.holder(token) is None
    assert after.holder(after.join(after.offer(GAME, 0).code)) == SeatHolder(GAME, 0)


def test_a_database_of_another_shape_is_not_taken_for_ours(tmp_path: Path, clock: Clock) -> None:
    with sqlite3.connect(tmp_path / "passes.sqlite3") as db:
        db.execute("CREATE TABLE holders (who TEXT)")
    after = Passes(tmp_path, clock=clock)
    assert "not a pairing file of this Pegboard" in after.notices[0]
    after.offer(GAME, 0)


def test_a_folder_that_cannot_be_made_is_a_store_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    with pytest.raises(StoreError, match="cannot make the pairing folder"):
        Passes(tmp_path / "file" / "phones")


def test_wrong_codes_from_one_address_wait_a_minute(passes: Passes, clock: Clock) -> None:
    offer = passes.offer(GAME, 0)
    for _ in range(WRONG_PER_SOURCE):
        with pytest.raises(PairingError):
            passes.join("CCCCCC", source="10.0.0.9")
    with pytest.raises(PairingBusyError, match="from this phone; try again in 60 s") as busy:
        passes.join(offer.code, source="10.0.0.9")  # even the right code waits
    assert busy.value.retry_after == pytest.approx(WINDOW)
    # Another address is not held up by it.
    token = passes.join(offer.code, source="10.0.0.10")
    assert passes.holder(token) == SeatHolder(GAME, 0)
    clock.now += WINDOW
    with pytest.raises(PairingError, match="is not one the board offered"):
        passes.join("CCCCCC", source="10.0.0.9")


def test_wrong_codes_from_everyone_are_limited_too(passes: Passes, clock: Clock) -> None:
    offer = passes.offer(GAME, 0)
    for n in range(WRONG_IN_ALL):
        clock.now += 0.5
        with pytest.raises(PairingError):
            passes.join("CCCCCC", source=f"10.0.1.{n}")
    with pytest.raises(PairingBusyError, match="from the network"):
        passes.join(offer.code, source="10.0.2.1")
    clock.now += WINDOW - WRONG_IN_ALL * 0.5 + 0.5 + 0.01
    assert passes.holder(passes.join(offer.code, source="10.0.2.1")) == SeatHolder(GAME, 0)


def test_hostile_joins_do_not_grow_anything(passes: Passes, clock: Clock) -> None:
    passes.offer(GAME, 0)
    size = passes.path.stat().st_size
    for n in range(5000):
        clock.now += WINDOW / WRONG_IN_ALL
        with pytest.raises(PairingError):
            passes.join("CCCCCC", source=f"10.{n // 256 % 256}.{n % 256}.1")
    wrong = passes._wrong
    assert len(wrong._by_source) <= passes_module.TRACKED_SOURCES
    assert len(wrong._all) <= WRONG_IN_ALL
    assert passes.path.stat().st_size == size


def test_games_codes_and_seats_are_bounded(passes: Passes) -> None:
    for n in range(MAX_GAMES + 3):
        for seat in range(4):
            passes.offer(f"g{n}", seat)
    games = passes._db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    assert games == MAX_GAMES
    with pytest.raises(PairingError):
        passes.join(passes._db.execute("SELECT 'X'").fetchone()[0])
    # The oldest game went first.
    assert passes._db.execute("SELECT COUNT(*) FROM codes WHERE game = 'g0'").fetchone() == (0,)
    for _ in range(KEPT_CODES + 3):
        code = passes.offer("g9", 0).code
        passes.join(code)
        passes.release("g9", 0)
    kept = passes._db.execute("SELECT COUNT(*) FROM codes WHERE game = 'g9' AND seat = 0")
    assert kept.fetchone()[0] == KEPT_CODES


def test_codes_are_typed_as_read() -> None:
    assert normal_code("ce f-3 47") == "CEF347"
    with pytest.raises(PairingError):
        normal_code("CEF34O")  # the letter O is not in the alphabet
    with pytest.raises(PairingError):
        normal_code("CEF3477")


def test_join_address() -> None:
    assert join_url("pegboard.local", 8121, "CEF347") == (
        "http://pegboard.local:8121/join?code=CEF347")
    assert JoinOffer(GAME, 0, "CEF347").url("192.168.1.20", 80) == (
        "http://192.168.1.20:80/join?code=CEF347")
    assert passes_folder(Path("/var/lib/pegboard")) == Path("/var/lib/pegboard/phones")
