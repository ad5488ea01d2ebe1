"""The LED board's wire format, host side: pure functions over bytes (sans-I/O).

One frame per line, printable ASCII (0x20..0x7E) ended by ``\\n``::

    <seq> <TYPE> <key>=<value> ... *<CRC>\\n

``seq`` is 0..65535 in decimal (no leading zeros), ``TYPE`` 1..10 capital letters, keys 1..8
lower-case letters or digits starting with a letter, values 1..64 printable characters other
than space, ``*`` and ``=``, no key twice. ``CRC`` is CRC-16/CCITT-FALSE (polynomial 0x1021,
initial value 0xFFFF) of every byte before the ``*``, as four upper-case hex digits. A ``\\r``
before the ``\\n`` is ignored, and so are empty lines; a line longer than :data:`MAX_LINE` bytes
is dropped up to its ``\\n``. Control bytes never appear: 0x03 would interrupt MicroPython.

Messages (protocol version 1):

========  =========  =====================================================================
type      direction  fields
========  =========  =====================================================================
HELLO     both       ``v`` protocol version; host adds ``app``, firmware ``fw`` (its
                     version) and ``a`` (the seq of the HELLO it answers; absent when the
                     board announces itself after starting)
CFG       host       ``n tracks order serp end skip cap ma hb`` — the layout and power limits
STATE     host       ``sides t f b c last win`` — the whole board (idempotent)
TEST      host       ``p=on|off`` — the test pattern
BYE       host       no fields — the host is shutting down on purpose: the board goes dark
                     and shows no link-lost until the host is back
HB        both       heartbeat; firmware adds ``up`` (ms since start), ``bad`` (frames
                     rejected), ``err`` (internal errors survived), ``st`` (seq of the STATE
                     shown, ``-`` for none), ``old`` (old frames refused), ``loop`` (longest
                     loop pass since the last HB, µs), ``frame`` (cost of the last frame, µs),
                     ``mem`` (free heap, bytes) and ``drop`` (output bytes dropped)
ACK       firmware   ``a`` — the seq of the CFG, STATE, TEST or BYE accepted
NAK       firmware   ``a`` (seq or ``-`` when unreadable) and ``e`` (an error code below)
========  =========  =====================================================================

Error codes: ``length``, ``charset``, ``syntax``, ``crc`` (the line cannot be read), ``type``
(unknown message type), ``value`` (a field is missing, unknown or out of range), ``old`` (the
seq is not newer than one the board already accepted since the host's last HELLO: a replayed
or delayed frame, ignored so the board keeps the newest state).

The frames (lines, fields, CRC) are read and written by :mod:`pegboard.link.frames`. The
firmware has its own implementation (``firmware/pb_proto.py``); both are tested against
``tests/vectors/link_vectors.jsonl``.

>>> encode_message(7, Heartbeat())
b'7 HB*9321\\n'
>>> decode_message(decode_line(b'3 ACK a=12*C7DD'))
Ack(seq=12)
"""

from __future__ import annotations

from pegboard.errors import ConfigError
from pegboard.link.board import BoardError, BoardState, Colour, colour_hex
from pegboard.link.frames import (
    ERROR_CODES,
    HEX_UPPER,
    MAX_LINE,
    Decoder,
    ErrorCode,
    Frame,
    FrameError,
    LineSplitter,
    crc16,
    decode_line,
    encode_frame,
)
from pegboard.link.layout import End, LedConfig, Order
from pegboard.rules.value import Value

#: The protocol version this host speaks; the firmware must speak the same.
PROTOCOL_VERSION = 1

__all__ = [
    "ERROR_CODES",
    "MAX_LINE",
    "PROTOCOL_VERSION",
    "Ack",
    "Decoder",
    "ErrorCode",
    "Frame",
    "FrameError",
    "Goodbye",
    "Heartbeat",
    "Hello",
    "LineSplitter",
    "Message",
    "Nak",
    "TestPattern",
    "crc16",
    "decode_line",
    "decode_message",
    "encode_frame",
    "encode_message",
]
# ---- messages ------------------------------------------------------------------------------


class Hello(Value):
    """Version handshake. ``ack`` is set on the firmware's answer to a host HELLO."""

    __slots__ = ("ack", "app", "firmware", "version")
    __match_args__ = ("version", "app", "firmware", "ack")

    version: int
    app: str | None
    firmware: str | None
    ack: int | None

    def __init__(
        self,
        version: int = PROTOCOL_VERSION,
        app: str | None = None,
        firmware: str | None = None,
        ack: int | None = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "version", version)
        setter(self, "app", app)
        setter(self, "firmware", firmware)
        setter(self, "ack", ack)


class TestPattern(Value):
    """Switch the test pattern on or off."""

    __slots__ = ("on",)
    __match_args__ = ("on",)

    __test__ = False  # not a pytest test class

    on: bool

    def __init__(self, on: bool) -> None:
        setter = object.__setattr__
        setter(self, "on", on)


class Goodbye(Value):
    """The host is shutting down on purpose: the board goes dark, with no link-lost."""

    __slots__ = ()
    __match_args__ = ()


class Heartbeat(Value):
    """Still here. The firmware reports uptime, counts of rejected frames and errors, the seq
    of the board it shows, and its own figures: longest loop pass, last frame's cost (µs),
    free heap and output dropped (bytes)."""

    __slots__ = (
        "bad",
        "dropped",
        "errors",
        "frame_us",
        "loop_us",
        "mem_free",
        "shown",
        "stale",
        "uptime_ms",
    )
    __match_args__ = (
        "uptime_ms",
        "bad",
        "errors",
        "shown",
        "stale",
        "loop_us",
        "frame_us",
        "mem_free",
        "dropped",
    )

    uptime_ms: int | None
    bad: int | None
    errors: int | None
    shown: int | None
    stale: int | None
    loop_us: int | None
    frame_us: int | None
    mem_free: int | None
    dropped: int | None

    def __init__(
        self,
        uptime_ms: int | None = None,
        bad: int | None = None,
        errors: int | None = None,
        shown: int | None = None,
        stale: int | None = None,
        loop_us: int | None = None,
        frame_us: int | None = None,
        mem_free: int | None = None,
        dropped: int | None = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "uptime_ms", uptime_ms)
        setter(self, "bad", bad)
        setter(self, "errors", errors)
        setter(self, "shown", shown)
        setter(self, "stale", stale)
        setter(self, "loop_us", loop_us)
        setter(self, "frame_us", frame_us)
        setter(self, "mem_free", mem_free)
        setter(self, "dropped", dropped)


class Ack(Value):
    """The firmware accepted the message with this sequence number."""

    __slots__ = ("seq",)
    __match_args__ = ("seq",)

    seq: int

    def __init__(self, seq: int) -> None:
        setter = object.__setattr__
        setter(self, "seq", seq)


class Nak(Value):
    """The firmware rejected a message (``seq`` None when the line was unreadable)."""

    __slots__ = ("error", "seq")
    __match_args__ = ("seq", "error")

    seq: int | None
    error: str

    def __init__(self, seq: int | None, error: str) -> None:
        setter = object.__setattr__
        setter(self, "seq", seq)
        setter(self, "error", error)


Message = Hello | LedConfig | BoardState | TestPattern | Goodbye | Heartbeat | Ack | Nak

_HB_FIELDS = (("up", "uptime_ms"), ("bad", "bad"), ("err", "errors"), ("st", "shown"),
              ("old", "stale"), ("loop", "loop_us"), ("frame", "frame_us"),
              ("mem", "mem_free"), ("drop", "dropped"))


def _int(fields: dict[str, str], key: str, low: int, high: int) -> int:
    text = fields.get(key)
    if text is None:
        raise FrameError("value", f"field {key!r} is missing")
    digits = text.isascii() and text.isdigit() and len(text) <= len(str(high))
    if not digits or (text[0] == "0" and text != "0"):
        raise FrameError("value", f"{key}={text!r} is not a whole number")
    value = int(text)
    if not low <= value <= high:
        raise FrameError("value", f"{key}={value} is not within {low}..{high}")
    return value


def _opt_int(fields: dict[str, str], key: str) -> int | None:
    return _int(fields, key, 0, 999_999_999) if key in fields else None


def _choice(fields: dict[str, str], key: str, options: tuple[str, ...]) -> str:
    text = fields.get(key)
    if text is None:
        raise FrameError("value", f"field {key!r} is missing")
    if text not in options:
        raise FrameError("value", f"{key}={text!r} is not one of {', '.join(options)}")
    return text


def _exact_keys(fields: dict[str, str], keys: tuple[str, ...]) -> None:
    for key in fields:
        if key not in keys:
            raise FrameError("value", f"unknown field {key!r}")
    for key in keys:
        if key not in fields:
            raise FrameError("value", f"field {key!r} is missing")


def _list(fields: dict[str, str], key: str) -> list[str]:
    return fields[key].split(",")


def _side(fields: dict[str, str], key: str, sides: int) -> int | None:
    if fields[key] == "-":
        return None
    return _int(fields, key, 0, sides - 1)


def _colour(text: str) -> Colour:
    if len(text) != 6 or not all(ch in HEX_UPPER for ch in text):
        raise FrameError("value", f"colour {text!r} is not RRGGBB in upper-case hex")
    value = int(text, 16)
    return (value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF)


_CFG_KEYS = ("n", "tracks", "order", "serp", "end", "skip", "cap", "ma", "hb")
_STATE_KEYS = ("sides", "t", "f", "b", "c", "last", "win")


def _config_fields(cfg: LedConfig) -> list[tuple[str, str]]:
    return [
        ("n", str(cfg.led_count)),
        ("tracks", str(cfg.tracks)),
        ("order", cfg.order),
        ("serp", "1" if cfg.serpentine else "0"),
        ("end", cfg.hole1_end),
        ("skip", str(cfg.skip)),
        ("cap", str(cfg.brightness)),
        ("ma", str(cfg.budget_ma)),
        ("hb", str(cfg.heartbeat_ms)),
    ]


def _state_fields(state: BoardState) -> list[tuple[str, str]]:
    def side(value: int | None) -> str:
        return "-" if value is None else str(value)

    return [
        ("sides", str(state.sides)),
        ("t", str(state.target)),
        ("f", ",".join(map(str, state.front))),
        ("b", ",".join(map(str, state.back))),
        ("c", ",".join(colour_hex(c) for c in state.colours)),
        ("last", side(state.last)),
        ("win", side(state.winner)),
    ]


def message_frame(seq: int, message: Message) -> Frame:
    """The frame that carries ``message``."""
    fields: list[tuple[str, str]]
    match message:
        case Hello(version, app, firmware, ack):
            fields = [("v", str(version))]
            fields += [("app", app)] if app is not None else []
            fields += [("fw", firmware)] if firmware is not None else []
            fields += [("a", str(ack))] if ack is not None else []
            return Frame(seq, "HELLO", tuple(fields))
        case LedConfig():
            return Frame(seq, "CFG", tuple(_config_fields(message)))
        case BoardState():
            return Frame(seq, "STATE", tuple(_state_fields(message)))
        case TestPattern(on):
            return Frame(seq, "TEST", (("p", "on" if on else "off"),))
        case Goodbye():
            return Frame(seq, "BYE")
        case Heartbeat():
            pairs = ((key, getattr(message, name)) for key, name in _HB_FIELDS)
            return Frame(seq, "HB", tuple((k, str(v)) for k, v in pairs if v is not None))
        case Ack(acked):
            return Frame(seq, "ACK", (("a", str(acked)),))
        case Nak(acked, error):
            return Frame(seq, "NAK", (("a", "-" if acked is None else str(acked)), ("e", error)))
    raise TypeError(f"not a link message: {message!r}")  # pragma: no cover


def encode_message(seq: int, message: Message) -> bytes:
    """The wire bytes of ``message`` with sequence number ``seq``."""
    return encode_frame(message_frame(seq, message))


def decode_message(frame: Frame) -> Message:
    """The message a frame carries; :class:`FrameError` ``type`` or ``value`` if it is not
    one this protocol version knows or its fields are wrong."""
    fields = frame.field_map()
    if frame.kind == "HELLO":
        return Hello(
            version=_int(fields, "v", 0, 0xFFFF),
            app=fields.get("app"),
            firmware=fields.get("fw"),
            ack=_opt_int(fields, "a"),
        )
    if frame.kind == "CFG":
        _exact_keys(fields, _CFG_KEYS)
        tracks = _int(fields, "tracks", 2, 3)
        street = _choice(fields, "order", ("street", "track")) == "street"
        order: Order = "street" if street else "track"
        end: End = "left" if _choice(fields, "end", ("left", "right")) == "left" else "right"
        try:
            return LedConfig(
                tracks=tracks,
                count=_int(fields, "n", 1, 1000),
                order=order,
                serpentine=_int(fields, "serp", 0, 1) == 1,
                hole1_end=end,
                skip=_int(fields, "skip", 0, 100),
                brightness=_int(fields, "cap", 1, 255),
                budget_ma=_int(fields, "ma", 50, 20000),
                heartbeat_ms=_int(fields, "hb", 100, 60000),
            )
        except ConfigError as error:
            raise FrameError("value", str(error)) from None
    if frame.kind == "STATE":
        _exact_keys(fields, _STATE_KEYS)
        sides = _int(fields, "sides", 2, 3)
        front = [_int({"f": x}, "f", 0, 121) for x in _list(fields, "f")]
        back = [_int({"b": x}, "b", 0, 121) for x in _list(fields, "b")]
        colours = [_colour(x) for x in _list(fields, "c")]
        if not len(front) == len(back) == len(colours) == sides:
            raise FrameError("value", f"f, b and c must give one value per side ({sides})")
        try:
            return BoardState(
                front=tuple(front),
                back=tuple(back),
                last=_side(fields, "last", sides),
                winner=_side(fields, "win", sides),
                target=int(_choice(fields, "t", ("61", "121"))),
                colours=tuple(colours),
            )
        except BoardError as error:
            raise FrameError("value", str(error)) from None
    if frame.kind == "TEST":
        _exact_keys(fields, ("p",))
        return TestPattern(on=_choice(fields, "p", ("on", "off")) == "on")
    if frame.kind == "BYE":
        _exact_keys(fields, ())
        return Goodbye()
    if frame.kind == "HB":
        values = {name: _opt_int(fields, key) for key, name in _HB_FIELDS if key != "st"}
        shown = None if fields.get("st", "-") == "-" else _int(fields, "st", 0, 0xFFFF)
        return Heartbeat(shown=shown, **values)
    if frame.kind == "ACK":
        return Ack(_int(fields, "a", 0, 0xFFFF))
    if frame.kind == "NAK":
        acked = None if fields.get("a") == "-" else _int(fields, "a", 0, 0xFFFF)
        return Nak(acked, _choice(fields, "e", ERROR_CODES))
    raise FrameError("type", f"message type {frame.kind!r} is not known to protocol v1")
