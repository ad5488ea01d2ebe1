"""The host link's behaviour with an injected clock, against a scripted board on a real pty.

The test plays the board on the master side of a pseudo-terminal (the host opens the slave
with real pyserial). Time only moves when the test says so: resends, back-off, heartbeats and
silence are checked without sleeping.
"""

from __future__ import annotations

import fcntl
import os
import select
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest

from pegboard.errors import LinkError
from pegboard.link.board import BoardState
from pegboard.link.layout import LedConfig
from pegboard.link.protocol import (
    Ack,
    Decoder,
    Frame,
    Heartbeat,
    Hello,
    Message,
    Nak,
    decode_message,
    encode_message,
)
from pegboard.link.serial_link import LinkState, Port, SerialLink, open_serial

CONFIG = LedConfig(heartbeat_ms=1000)


class ScriptedBoard:
    """The board end of a pty, played by the test."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        flags = fcntl.fcntl(self.master, fcntl.F_GETFL)
        fcntl.fcntl(self.master, fcntl.F_SETFL, flags | os.O_NONBLOCK)
        self.path = os.ttyname(self.slave)
        self.decoder = Decoder()
        self.seq = 100

    def received(self, count: int) -> list[tuple[int, Message]]:
        """The next ``count`` messages the host writes (waiting for their bytes to arrive)."""
        got: list[tuple[int, Message]] = []
        while len(got) < count:
            ready, _, _ = select.select([self.master], [], [], 60.0)
            assert ready, f"host sent {len(got)} of {count} messages"
            chunk = os.read(self.master, 4096)
            got += [(f.seq, decode_message(f)) for f in self.decoder.feed(chunk)
                    if isinstance(f, Frame)]
        assert len(got) == count, got
        return got

    def send(self, link: SerialLink, message: Message) -> None:
        self.send_raw(link, encode_message(self.seq, message))
        self.seq += 1

    def send_raw(self, link: SerialLink, data: bytes) -> None:
        """Write to the host and wait until the bytes can be read at its end."""
        os.write(self.master, data)
        fd = link.fileno()
        assert fd is not None
        ready, _, _ = select.select([fd], [], [], 60.0)
        assert ready

    def close(self) -> None:
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def board() -> Iterator[ScriptedBoard]:
    scripted = ScriptedBoard()
    yield scripted
    scripted.close()


def handshake(board: ScriptedBoard, link: SerialLink, now: float = 0.0) -> None:
    link.poll(now)
    [(seq, hello)] = board.received(1)
    assert isinstance(hello, Hello) and hello.version == 1 and hello.app
    board.send(link, Hello(1, firmware="1.0.0", ack=seq))
    link.poll(now)
    assert link.is_up and link.firmware_version == "1.0.0"


def ack_next(board: ScriptedBoard, link: SerialLink) -> Message:
    """Read the host's next message and acknowledge it."""
    [(seq, message)] = board.received(1)
    board.send(link, Ack(seq))
    return message


def test_handshake_then_config_then_board(board: ScriptedBoard) -> None:
    link = SerialLink(board.path, config=CONFIG)
    link.show(BoardState.from_scores([5, 0], last=0))
    handshake(board, link)
    link.poll(0.01)
    assert ack_next(board, link) == CONFIG  # one message at a time, layout first
    link.poll(0.02)
    assert ack_next(board, link) == BoardState.from_scores([5, 0], last=0)
    link.poll(0.03)
    assert link.in_sync and link.shown == BoardState.from_scores([5, 0], last=0)


def test_unanswered_message_is_resent_then_the_link_drops(board: ScriptedBoard) -> None:
    link = SerialLink(board.path, config=CONFIG, ack_timeout=0.5, max_tries=3, min_silence=99)
    handshake(board, link)
    link.poll(0.0)
    [(first, message)] = board.received(1)
    assert message == CONFIG
    sent = link.stats.sent
    link.poll(0.49)
    assert link.stats.sent == sent
    link.poll(0.5)
    [(second, again)] = board.received(1)
    assert again == CONFIG and second != first and link.stats.resent == 1
    board.send(link, Heartbeat())  # the board is alive but ignores us
    link.poll(1.0)
    link.poll(1.5)
    assert link.state is LinkState.DOWN
    assert link.status == "LED board does not acknowledge CFG"


def test_garbled_message_is_resent_at_once(board: ScriptedBoard) -> None:
    link = SerialLink(board.path, config=CONFIG)
    handshake(board, link)
    link.poll(0.0)
    board.received(1)
    board.send(link, Nak(None, "crc"))
    link.poll(0.01)
    assert [m for _, m in board.received(1)] == [CONFIG]


def test_refused_content_is_not_resent(board: ScriptedBoard) -> None:
    link = SerialLink(board.path, config=CONFIG)
    handshake(board, link)
    link.poll(0.0)
    [(seq, _)] = board.received(1)
    board.send(link, Nak(seq, "value"))
    link.poll(0.01)
    sent = link.stats.sent
    link.poll(0.9)
    assert link.stats.sent == sent and link.stats.resent == 0
    assert link.error is not None and "refused CFG" in str(link.error)
    assert link.is_up


def test_newer_board_supersedes_one_in_flight(board: ScriptedBoard) -> None:
    link = SerialLink(board.path, config=CONFIG)
    handshake(board, link)
    link.poll(0.0)
    ack_next(board, link)
    link.poll(0.05)
    first, second = BoardState.from_scores([2, 0]), BoardState.from_scores([4, 0])
    link.show(first)
    link.poll(0.1)
    [(old, _)] = board.received(1)
    link.show(second)
    link.poll(0.2)
    [(new, sent)] = board.received(1)
    assert sent == second
    board.send(link, Ack(old))  # a late answer for the older board
    link.poll(0.3)
    assert not link.in_sync
    board.send(link, Ack(new))
    link.poll(0.4)
    assert link.in_sync and link.shown == second


def test_board_restart_gets_everything_again(board: ScriptedBoard) -> None:
    link = SerialLink(board.path, config=CONFIG)
    state = BoardState.from_scores([60, 59])
    link.show(state)
    handshake(board, link)
    link.poll(0.1)
    assert ack_next(board, link) == CONFIG
    link.poll(0.2)
    assert ack_next(board, link) == state
    link.poll(0.3)
    assert link.in_sync
    board.send(link, Hello(1, firmware="1.0.0"))  # what the firmware says when it boots
    link.poll(0.4)
    assert ack_next(board, link) == CONFIG
    link.poll(0.5)
    assert ack_next(board, link) == state
    link.poll(0.6)
    assert link.in_sync and link.stats.board_restarts == 1


def test_a_late_answer_to_an_earlier_hello_is_not_a_restart(board: ScriptedBoard) -> None:
    # A board slow to boot answers both HELLOs the host sent while waiting; the second answer
    # comes once the link is up. Only a HELLO without an answer number says the board booted.
    link = SerialLink(board.path, config=CONFIG, hello_timeout=0.5)
    state = BoardState.from_scores([30, 12])
    link.show(state)
    link.poll(0.0)
    [(first, hello)] = board.received(1)
    link.poll(0.5)
    [(second, again)] = board.received(1)
    assert isinstance(hello, Hello) and again == hello and second != first
    board.send(link, Hello(1, firmware="1.0.0", ack=first))
    link.poll(0.6)
    assert link.is_up
    [(layout, message)] = board.received(1)
    assert message == CONFIG
    board.send(link, Hello(1, firmware="1.0.0", ack=second))
    link.poll(0.65)
    board.send(link, Ack(layout))
    link.poll(0.7)
    assert ack_next(board, link) == state  # carries on: the layout is not sent again
    link.poll(0.8)
    assert link.in_sync and link.stats.board_restarts == 0, link.stats


def test_heartbeat_when_idle_and_silence_drops(board: ScriptedBoard) -> None:
    link = SerialLink(board.path, config=CONFIG, min_silence=1.5)
    handshake(board, link)
    link.poll(0.0)
    ack_next(board, link)
    link.poll(0.1)
    sent = link.stats.sent
    link.poll(0.9)
    assert link.stats.sent == sent
    link.poll(1.1)  # a second since the last message went out
    assert [m for _, m in board.received(1)] == [Heartbeat()]
    board.send(link, Heartbeat(5000, 0, 0))
    link.poll(2.0)
    link.poll(4.99)
    assert link.is_up
    link.poll(5.01)  # nothing from the board for 3 s: three heartbeats missed
    assert link.state is LinkState.DOWN and "quiet" in link.status


def test_garbage_from_the_board_is_counted_not_fatal(board: ScriptedBoard) -> None:
    link = SerialLink(board.path, config=CONFIG)
    handshake(board, link)
    board.send_raw(link, b"\x00\xffMicroPython v1.24 on 2024-01-01; Raspberry Pi Pico\r\n"
                         b">>> \n1 ACK a=1*0000\n")
    link.poll(0.1)
    assert link.is_up and link.stats.bad_lines == 3


def test_version_mismatch_says_what_to_do(board: ScriptedBoard) -> None:
    link = SerialLink(board.path, config=CONFIG)
    link.poll(0.0)
    board.received(1)
    board.send(link, Hello(2, firmware="2.0.0"))
    link.poll(0.1)
    assert link.state is LinkState.MISMATCH and not link.is_up
    assert "reflash it with `pegboard leds flash`" in link.status
    sent = link.stats.sent
    link.poll(4.0)
    assert link.stats.sent == sent  # nothing else is sent to a board we cannot talk to
    link.poll(5.2)
    assert [type(m) for _, m in board.received(1)] == [Hello]  # asks again, in case reflashed


def test_backoff_doubles_up_to_its_cap() -> None:
    attempts: list[float] = []
    now = 0.0

    def missing(path: str) -> Port:
        attempts.append(now)
        raise LinkError(f"cannot open {path}: no such device")

    link = SerialLink("/dev/serial/by-id/nothing", opener=missing,
                      backoff_initial=1 / 16, backoff_max=0.5)
    while now < 2.0:
        link.poll(now)
        now += 1 / 64  # exact in binary, so the schedule compares exactly
    assert attempts[:6] == [0.0, 0.0625, 0.1875, 0.4375, 0.9375, 1.4375]
    assert not link.is_up and "no such device" in link.status


def test_no_device_configured_never_opens() -> None:
    def never(path: str) -> Port:
        raise AssertionError("must not open")

    link = SerialLink("", opener=never)
    for t in range(100):
        link.poll(float(t))
    assert link.status == "LED board: none configured" and not link.is_up


def test_a_missing_path_is_reported_not_raised(tmp_path: Path) -> None:
    link = SerialLink(str(tmp_path / "ttyACM9"))
    link.poll(0.0)
    assert link.state is LinkState.DOWN
    assert link.status.startswith(f"cannot open {tmp_path / 'ttyACM9'}")


def test_exclusive_open_refuses_a_second_user(board: ScriptedBoard) -> None:
    first = open_serial(board.path)
    try:
        with pytest.raises(LinkError, match="cannot open"):
            open_serial(board.path)
    finally:
        first.close()


class ExplodingPort:
    """A port whose library fails in a way nobody planned for."""

    in_waiting = 0

    def read(self, size: int = 1) -> bytes:
        raise TypeError("unexpected")

    def write(self, data: bytes, /) -> int | None:
        return len(data)

    def close(self) -> None:
        pass


def test_an_unexpected_library_error_drops_the_link_not_the_game() -> None:
    link = SerialLink("/dev/whatever", opener=lambda path: ExplodingPort())
    link.poll(0.0)
    link.poll(0.1)
    assert link.state is LinkState.DOWN
    assert link.status == "LED link failed unexpectedly (TypeError('unexpected'))"


def test_unanswered_hellos_end_in_a_soft_reset_never_a_ctrl_c(tmp_path: Path) -> None:
    import os
    import tty

    from pegboard.link.serial_link import SOFT_RESET

    master, slave = os.openpty()
    tty.setraw(slave)
    try:
        link = SerialLink(os.ttyname(slave), hello_timeout=0.5, max_tries=4)
        for now in (0.0, 0.5, 1.0, 1.5, 2.0):
            link.poll(now)
        # The pty hands the bytes over on its own schedule: read until the reset arrives.
        written = b""
        while not written.endswith(SOFT_RESET):
            ready, _, _ = select.select([master], [], [], 10)
            assert ready, f"only {written!r} arrived"
            written += os.read(master, 4096)
        assert written.count(b" HELLO ") == 4
        assert written.endswith(SOFT_RESET) and b"\x03" not in written
        assert link.stats.soft_resets == 1 and not link.is_up
    finally:
        link.close()
        os.close(master)
        os.close(slave)
