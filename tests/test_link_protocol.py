"""The host wire format against the shared vectors, and properties of encode/decode."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pegboard.link.board import BoardState
from pegboard.link.fwsim import FIRMWARE_DIR, tool
from pegboard.link.layout import LedConfig
from pegboard.link.protocol import (
    MAX_LINE,
    Ack,
    Decoder,
    Frame,
    FrameError,
    Heartbeat,
    Hello,
    LineSplitter,
    Message,
    Nak,
    TestPattern,
    crc16,
    decode_line,
    decode_message,
    encode_frame,
    encode_message,
)

VECTORS_FILE = Path(__file__).parent / "vectors" / "link_vectors.jsonl"
VECTORS = [json.loads(line) for line in VECTORS_FILE.read_text().splitlines() if line.strip()]
FRAME_VECTORS = [v for v in VECTORS if "hex" in v]
STREAM_VECTORS = [v for v in VECTORS if "stream" in v]


def normalise(message: Message) -> dict[str, Any]:
    """The vectors file's plain form of a host-to-board message."""
    match message:
        case Hello(version):
            return {"v": version}
        case LedConfig():
            return {
                "n": message.led_count, "tracks": message.tracks, "order": message.order,
                "serp": message.serpentine, "end": message.hole1_end, "skip": message.skip,
                "cap": message.brightness, "ma": message.budget_ma, "hb": message.heartbeat_ms,
            }
        case BoardState():
            return {
                "sides": message.sides, "target": message.target, "front": list(message.front),
                "back": list(message.back), "colours": [list(c) for c in message.colours],
                "last": message.last, "win": message.winner,
            }
        case TestPattern(on):
            return {"p": "on" if on else "off"}
        case Heartbeat():
            return {}
    raise AssertionError(f"not a host-to-board message: {message!r}")


def test_crc_check_value() -> None:
    assert crc16(b"123456789") == 0x29B1  # the published check value of CRC-16/CCITT-FALSE


def test_vectors_file_is_consistent() -> None:
    names = [v["name"] for v in VECTORS]
    assert len(names) == len(set(names))
    assert len(FRAME_VECTORS) >= 40 and len(STREAM_VECTORS) >= 4
    for vector in FRAME_VECTORS:
        data = bytes.fromhex(vector["hex"])
        assert data.endswith(b"\n"), vector["name"]
        if "text" in vector:
            assert vector["text"].encode("ascii") == data, vector["name"]
        assert ("error" in vector) != ("frame" in vector), vector["name"]


@pytest.mark.parametrize("vector", FRAME_VECTORS, ids=[v["name"] for v in FRAME_VECTORS])
def test_frame_vector(vector: dict[str, Any]) -> None:
    data = bytes.fromhex(vector["hex"])
    if "error" in vector:
        with pytest.raises(FrameError) as caught:
            decode_line(data[:-1])
        assert caught.value.code == vector["error"]
        return
    frame = decode_line(data[:-1])
    expected = vector["frame"]
    assert frame == Frame(expected["seq"], expected["type"], tuple(map(tuple, expected["fields"])))
    assert encode_frame(frame) == data.replace(b"\r\n", b"\n")
    if vector["direction"] != "to_board":
        assert encode_message(frame.seq, decode_message(frame)) == encode_frame(frame)
        return
    if "message_error" in vector:
        with pytest.raises(FrameError) as caught:
            decode_message(frame)
        assert caught.value.code == vector["message_error"]
        return
    message = decode_message(frame)
    assert normalise(message) == vector["message"]


@pytest.mark.parametrize("vector", STREAM_VECTORS, ids=[v["name"] for v in STREAM_VECTORS])
def test_stream_vector(vector: dict[str, Any]) -> None:
    splitter = LineSplitter()
    got: list[Any] = []
    for chunk in vector["stream"]:
        for item in splitter.feed(bytes.fromhex(chunk)):
            got.append({"error": item.code} if isinstance(item, FrameError) else item.hex())
    assert got == vector["lines"]


def test_error_messages_name_the_problem() -> None:
    with pytest.raises(FrameError, match=r"byte 0x03 is not printable ASCII"):
        decode_line(b"0 HB x=\x03*0000")
    body = b"8 STATE sides=4 t=121 f=1,2 b=0,0 c=FF0000,0000FF last=- win=-"
    frame = decode_line(body + f"*{crc16(body):04X}".encode())
    with pytest.raises(FrameError, match=r"sides=4 is not within 2\.\.3"):
        decode_message(frame)


sides = st.integers(2, 3)
scores = st.integers(0, 121)


@st.composite
def boards(draw: st.DrawFn) -> BoardState:
    n = draw(sides)
    side = st.none() | st.integers(0, n - 1)
    colour = st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255))
    return BoardState(
        front=tuple(draw(st.lists(scores, min_size=n, max_size=n))),
        back=tuple(draw(st.lists(scores, min_size=n, max_size=n))),
        last=draw(side),
        winner=draw(side),
        target=draw(st.sampled_from([61, 121])),
        colours=tuple(draw(st.lists(colour, min_size=n, max_size=n))),
    )


configs = st.builds(
    LedConfig,
    tracks=sides,
    order=st.sampled_from(["street", "track"]),
    serpentine=st.booleans(),
    hole1_end=st.sampled_from(["left", "right"]),
    skip=st.integers(0, 100),
    brightness=st.integers(1, 255),
    budget_ma=st.integers(50, 20000),
    heartbeat_ms=st.integers(100, 60000),
)

messages = st.one_of(
    boards(),
    configs,
    st.builds(Hello, st.integers(0, 65535), st.none() | st.just("pegboard-0.1.0")),
    st.builds(TestPattern, st.booleans()),
    st.builds(Heartbeat, st.none() | st.integers(0, 999999), st.none() | st.integers(0, 99)),
    st.builds(Ack, st.integers(0, 65535)),
    st.builds(Nak, st.none() | st.integers(0, 65535), st.sampled_from(["crc", "value"])),
)


@given(st.integers(0, 65535), messages)
def test_every_message_round_trips(seq: int, message: Message) -> None:
    line = encode_message(seq, message)
    assert len(line) <= MAX_LINE
    assert all(0x20 <= b <= 0x7E for b in line[:-1]) and line.endswith(b"\n")
    frame = decode_line(line[:-1])
    assert frame.seq == seq
    assert decode_message(frame) == message


@given(st.lists(st.tuples(st.integers(0, 65535), messages), max_size=8), st.data())
def test_decoder_survives_any_chunking(
    items: list[tuple[int, Message]], data: st.DataObject
) -> None:
    stream = b"".join(encode_message(seq, m) for seq, m in items)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=10)))
    decoder = Decoder()
    got = []
    for start, end in zip([0, *cuts], [*cuts, len(stream)], strict=True):
        got += decoder.feed(stream[start:end])
    assert [decode_message(f) for f in got if isinstance(f, Frame)] == [m for _, m in items]


@given(st.binary(max_size=600), st.integers(0, 65535), messages)
def test_garbage_then_newline_never_hides_the_next_frame(
    garbage: bytes, seq: int, message: Message
) -> None:
    decoder = Decoder()
    out = decoder.feed(garbage + b"\n" + encode_message(seq, message))
    assert isinstance(out[-1], Frame) and decode_message(out[-1]) == message
    assert all(isinstance(item, FrameError) for item in out[:-1])


@given(st.binary(min_size=1, max_size=80), st.integers(0, 65535), messages)
def test_single_bit_corruption_is_caught(noise: bytes, seq: int, message: Message) -> None:
    line = bytearray(encode_message(seq, message)[:-1])
    index = noise[0] % len(line)
    line[index] ^= 1 << (noise[-1] % 8)
    try:
        frame = decode_line(bytes(line))
    except FrameError:
        return
    raise AssertionError(f"corrupted line decoded as {frame!r}")


def test_firmware_agrees_with_the_same_vectors() -> None:
    """The firmware's own implementation, under the MicroPython unix port."""
    result = subprocess.run(
        [tool("micropython"), str(FIRMWARE_DIR / "tests" / "run_vectors.py"), str(VECTORS_FILE)],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert result.stdout.strip().endswith(f"checked {len(VECTORS)} failed 0"), (
        result.stdout + result.stderr
    )
    assert result.returncode == 0


def test_firmware_rejects_what_the_vectors_reject(tmp_path: Path) -> None:
    """The firmware check can fail: a vector with a wrong expectation is reported."""
    broken = dict(FRAME_VECTORS[0], frame={"seq": 99, "type": "HB", "fields": []})
    path = tmp_path / "broken.jsonl"
    path.write_text(json.dumps(broken) + "\n")
    result = subprocess.run(
        [tool("micropython"), str(FIRMWARE_DIR / "tests" / "run_vectors.py"), str(path)],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert "FAIL host hello: frame" in result.stdout
    assert result.returncode == 1
