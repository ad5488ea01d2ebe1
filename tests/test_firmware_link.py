"""The real firmware under MicroPython on a pty, driven by the real host link over pyserial.

Every wait is on I/O with a generous deadline (``pump``): nothing sleeps to synchronise.
"""

from __future__ import annotations

import select
import shutil
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pegboard.link.board import BoardState
from pegboard.link.fwsim import FIRMWARE_DIR, FirmwareProcess, RecordedFrame
from pegboard.link.layout import LedConfig, led_index
from pegboard.link.protocol import encode_message
from pegboard.link.serial_link import LinkState, Port, SerialLink
from tests.support.firmware import pump
from tests.support.waiting import LIVENESS_S

CONFIG = LedConfig(heartbeat_ms=100, brightness=255, budget_ma=20000)
RED, BLUE = (255, 0, 0), (0, 64, 255)


@pytest.fixture
def board(tmp_path: Path) -> Iterator[FirmwareProcess]:
    with FirmwareProcess(tmp_path) as firmware:
        yield firmware


def connect(firmware: FirmwareProcess, config: LedConfig = CONFIG,
            min_silence: float = 1.0) -> SerialLink:
    link = SerialLink(str(firmware.port), config=config, min_silence=min_silence)
    assert pump(link, lambda: link.in_sync), link.status + firmware.log()
    return link


def connect_raw(firmware: FirmwareProcess) -> tuple[SerialLink, Port]:
    """A link in sync with ``firmware`` and its open port, to write raw bytes to the board."""
    link = connect(firmware)
    port = link.port
    assert port is not None
    return link, port


def frame_shows(firmware: FirmwareProcess, expected: dict[int, tuple[int, int, int]]) -> bool:
    frame = firmware.last_frame()
    return frame is not None and frame.lit() == expected


def pegs(board: BoardState, config: LedConfig = CONFIG) -> dict[int, tuple[int, int, int]]:
    """What a still board (no animation) must light, worked out from the host layout table."""
    lit: dict[int, tuple[int, int, int]] = {}
    for side in range(board.sides):
        for hole in (61, 91):
            led = led_index(config, side, hole)
            assert led is not None
            lit[led] = (12, 12, 12)
    for side in range(board.sides):
        colour = board.colours[side]
        back = led_index(config, side, board.back[side])
        if back is not None and board.back[side] != board.front[side]:
            lit[back] = (colour[0] // 4, colour[1] // 4, colour[2] // 4)
        front = led_index(config, side, board.front[side])
        if front is not None:
            lit[front] = colour
    return lit


def test_handshake_and_a_board(board: FirmwareProcess) -> None:
    link = connect(board)
    assert link.is_up and link.firmware_version == "1.1.0" and link.board_protocol == 1
    assert "connected" in link.status
    state = BoardState.from_scores([17, 9], previous=[12, 0], last=0)
    link.show(state)
    assert pump(link, lambda: link.shown == state)
    assert pump(link, lambda: frame_shows(board, pegs(state))), board.last_frame()
    # Resending the same board changes nothing and needs no new message (polled twice at one
    # moment, so a heartbeat falling due in between cannot be taken for one).
    now = time.monotonic()
    link.poll(now)
    sent = link.stats.sent
    link.show(BoardState.from_scores([17, 9], previous=[12, 0], last=0))
    link.poll(now)
    assert link.stats.sent == sent


def test_the_last_score_travels_from_back_to_front(board: FirmwareProcess) -> None:
    link = connect(board)
    link.show(BoardState.from_scores([10, 0]))
    assert pump(link, lambda: link.in_sync)
    # 30 holes: the longest travel there is short of the cap (900 ms at 30 ms a hole), so a
    # busy machine that holds the firmware back for a while still lets it draw a few steps.
    link.show(BoardState.from_scores([40, 0], previous=[10, 0], last=0))
    final = pegs(BoardState.from_scores([40, 0], previous=[10, 0]))
    assert pump(link, lambda: frame_shows(board, final))
    route = [led_index(CONFIG, 0, hole) for hole in range(11, 40)]
    heads = {led for f in board.frames() for led, c in f.lit().items() if c == RED}
    assert len(heads & set(route)) >= 3, "the peg should be seen on its way"


def test_garbage_and_crc_errors_are_refused_and_survived(board: FirmwareProcess) -> None:
    link, port = connect_raw(board)
    port.write(b"\x00\x03\xffnoise without structure\n")
    port.write(b"1 STATE sides=2*0000\n")
    port.write(b"x" * 700 + b"\n")
    assert pump(link, lambda: link.stats.naks >= 3)
    state = BoardState.from_scores([5, 121], previous=[0, 100], winner=1)
    link.show(state)
    assert pump(link, lambda: link.shown == state)
    assert link.is_up and board.running


def test_reset_mid_game_resends_the_board(board: FirmwareProcess) -> None:
    # However long MicroPython takes to start again, the link waits for it: the board's boot
    # HELLO, not a silence, is what tells it the board restarted.
    link = connect(board, min_silence=60.0)
    state = BoardState.from_scores([44, 38], previous=[40, 30])
    link.show(state)
    assert pump(link, lambda: frame_shows(board, pegs(state)))
    board.reset()  # the board forgets everything; the port stays open
    assert pump(link, lambda: link.stats.board_restarts == 1 and link.in_sync), (
        link.stats, link.status)
    assert pump(link, lambda: frame_shows(board, pegs(state)))


def test_replug_mid_game_reconnects_and_resends(board: FirmwareProcess) -> None:
    link = connect(board)
    state = BoardState.from_scores([70, 65], previous=[66, 60], last=1)
    link.show(state)
    assert pump(link, lambda: link.in_sync)
    board.unplug()
    assert pump(link, lambda: link.state is LinkState.DOWN)
    assert not link.is_up and "disconnected" in link.status
    later = BoardState.from_scores([75, 65], previous=[70, 60], last=0)
    link.show(later)  # the game goes on while the board is away
    for _ in range(5):
        link.poll(time.monotonic())
    board.plug()
    # How soon it is back is the soak's figure (``pytest -m soak``); here, that it comes back.
    assert pump(link, lambda: link.in_sync)
    assert link.shown == later
    assert pump(link, lambda: frame_shows(board, pegs(BoardState.from_scores([75, 65], [70, 60]))))


def test_link_lost_pattern_when_the_host_goes_quiet(board: FirmwareProcess) -> None:
    link = connect(board)
    state = BoardState.from_scores([3, 0])
    link.show(state)
    assert pump(link, lambda: frame_shows(board, pegs(state)))
    link.close()  # the host stops talking (heartbeat 100 ms: lost after 300 ms)
    corners = [led_index(CONFIG, s, 1) for s in (0, 1)] + [led_index(CONFIG, 0, 121)]

    def amber(frame: RecordedFrame) -> bool:
        return all(frame.pixel(led) == (255, 96, 0) for led in corners if led is not None)

    deadline = time.monotonic() + LIVENESS_S
    while time.monotonic() < deadline and not any(amber(f) for f in board.frames()):
        assert board.running
        select.select([], [], [], 0.005)  # poll interval while reading the frames file
    lost = [f for f in board.frames() if amber(f)]
    assert lost, "no link-lost pattern"
    # The scores stay visible, dimmed to half.
    front = led_index(CONFIG, 0, 3)
    assert front is not None and lost[0].pixel(front) == (127, 0, 0)


def test_power_budget_limits_the_test_pattern(tmp_path: Path) -> None:
    config = LedConfig(heartbeat_ms=100, brightness=200, budget_ma=500)
    with FirmwareProcess(tmp_path) as firmware:
        link = connect(firmware, config)
        link.test_pattern(True)
        assert pump(link, lambda: link.in_sync)
        assert pump(link, lambda: (f := firmware.last_frame()) is not None and len(f.lit()) == 241)
        frame = firmware.last_frame()
        assert frame is not None
        assert 450 <= frame.ma <= 500
        assert sum(frame.rgb) * 20 // 255 == frame.ma
        assert frame.pixel(0)[0] > 0 and frame.pixel(0)[1:] == (0, 0)


def test_version_mismatch_is_reported(tmp_path: Path) -> None:
    firmware_dir = tmp_path / "fw"
    shutil.copytree(FIRMWARE_DIR, firmware_dir)
    proto = firmware_dir / "pb_proto.py"
    proto.write_text(proto.read_text().replace("VERSION = 1\n", "VERSION = 2\n"))
    with FirmwareProcess(tmp_path, firmware_dir=firmware_dir) as firmware:
        link = SerialLink(str(firmware.port), config=CONFIG)
        assert pump(link, lambda: link.state is LinkState.MISMATCH)
        assert not link.is_up
        assert link.status == (
            "LED board firmware speaks protocol v2, this Pegboard speaks v1 — "
            "reflash it with `pegboard leds flash`"
        )


def test_an_old_state_replayed_on_the_wire_is_refused_and_never_shown(
        board: FirmwareProcess) -> None:
    # The newer board stays on the LEDs, unlit by the old one even for a frame, and the
    # heartbeat counts the refusal: the host has nothing to correct (the short soak's replays
    # recover either way, as the link resends a board the heartbeat says is not shown).
    link, port = connect_raw(board)
    older, newer = BoardState.from_scores([5, 0]), BoardState.from_scores([9, 0])
    link.show(older)
    assert pump(link, lambda: link.shown == older and frame_shows(board, pegs(older)))
    older_seq = link.shown_seq
    link.show(newer)
    assert pump(link, lambda: link.shown == newer and frame_shows(board, pegs(newer)))
    assert older_seq is not None and link.shown_seq != older_seq
    drawn = len(board.frames())
    port.write(encode_message(older_seq, older))
    assert pump(link, lambda: link.heartbeat is not None and link.heartbeat.stale == 1), (
        link.heartbeat, board.log())
    assert link.heartbeat is not None and link.heartbeat.shown == link.shown_seq
    assert link.stats.naks >= 1
    after = board.frames()[drawn:]
    assert all(frame.lit() != pegs(older) for frame in after), "the old board was drawn"
    assert frame_shows(board, pegs(newer))


def test_a_stalled_board_is_dropped_and_found_again(board: FirmwareProcess) -> None:
    link = connect(board)
    assert board.process is not None
    board.process.send_signal(signal.SIGSTOP)
    try:
        assert pump(link, lambda: not link.is_up)
        assert "quiet" in link.status or "acknowledge" in link.status
    finally:
        board.process.send_signal(signal.SIGCONT)
    assert pump(link, lambda: link.in_sync)


def test_a_stray_ctrl_c_is_a_bad_byte_not_a_stop(board: FirmwareProcess) -> None:
    link, port = connect_raw(board)
    port.write(b"\x03")
    port.write(b"\x04\r\x04")
    state = BoardState.from_scores([12, 3])
    link.show(state)
    assert pump(link, lambda: link.shown == state)
    assert board.running and link.stats.naks >= 1


def test_with_ctrl_c_left_on_a_stray_0x03_would_stop_the_board(tmp_path: Path) -> None:
    # The same firmware without its kbd_intr(-1): the rp2 semantics of the serial stand-in
    # turn the 0x03 into KeyboardInterrupt and the board is gone, as on a Pico.
    firmware_dir = tmp_path / "fw"
    shutil.copytree(FIRMWARE_DIR, firmware_dir)
    main = firmware_dir / "main.py"
    source = main.read_text()
    main.write_text(source.replace("keyboard_interrupt(False)", "keyboard_interrupt(True)"))
    with FirmwareProcess(tmp_path, firmware_dir=firmware_dir) as firmware:
        link = connect(firmware)
        assert link.port is not None
        link.port.write(b"\x03")
        assert pump(link, lambda: not firmware.running)
        assert firmware.process is not None and firmware.process.wait() != 0


def test_three_ctrl_c_hand_the_board_back_to_the_repl(board: FirmwareProcess) -> None:
    link = connect(board)
    state = BoardState.from_scores([30, 20])
    link.show(state)
    assert pump(link, lambda: frame_shows(board, pegs(state)))
    assert link.port is not None
    link.port.write(b"\x03\x03\x03")
    assert pump(link, lambda: not board.running)
    assert board.process is not None and board.process.wait() == 0
    assert "stopped by" in board.log()
    last = board.last_frame()
    assert last is not None and not any(last.rgb)  # dark, not frozen on the last board


def test_goodbye_leaves_the_board_dark_and_never_link_lost(board: FirmwareProcess) -> None:
    link = connect(board)
    state = BoardState.from_scores([50, 44])
    link.show(state)
    assert pump(link, lambda: frame_shows(board, pegs(state)))
    assert link.goodbye()
    link.close()
    # Listen to the board's own heartbeats (100 ms) until well past the link-lost time.
    import serial

    with serial.Serial(str(board.port), timeout=0.05) as listen:
        beats: list[int] = []
        deadline = time.monotonic() + LIVENESS_S
        while time.monotonic() < deadline and (len(beats) < 2 or beats[-1] - beats[0] < 600):
            for line in listen.read(4096).split(b"\n"):
                if b" HB up=" in line:
                    beats.append(int(line.split(b"up=")[1].split(b" ")[0]))
    assert len(beats) >= 2 and beats[-1] - beats[0] >= 600
    frames = board.frames()
    last_lit = max(i for i, f in enumerate(frames) if any(f.rgb))
    after = frames[last_lit + 1:]
    assert frames[last_lit].lit() == pegs(state)  # the board until the goodbye...
    assert after and not any(any(f.rgb) for f in after)  # ...then dark, and no link-lost
