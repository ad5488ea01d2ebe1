"""The LED link's frames: one printable line each, its fields and its CRC (sans-I/O).

The line format, the error codes and the messages are described in
:mod:`pegboard.link.protocol`; this module cuts a byte stream into lines and lines into
:class:`Frame` values, and writes frames back as bytes.

>>> decode_line(encode_frame(Frame(3, "ACK", (("a", "12"),))).rstrip(b"\\n"))
Frame(seq=3, kind='ACK', fields=(('a', '12'),))
"""

from __future__ import annotations

from typing import Literal

from pegboard.errors import PegboardError
from pegboard.rules.value import Value

#: Longest line accepted, counting the final newline.
MAX_LINE = 200

ErrorCode = Literal["length", "charset", "syntax", "crc", "type", "value", "old"]
ERROR_CODES: tuple[ErrorCode, ...] = (
    "length", "charset", "syntax", "crc", "type", "value", "old"
)

HEX_UPPER = "0123456789ABCDEF"
"""The digits of a CRC and of a colour on the wire."""


class FrameError(PegboardError, ValueError):
    """A line or message that cannot be accepted; ``code`` is the wire error code."""

    def __init__(self, code: ErrorCode, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.code: ErrorCode = code
        self.detail = detail


def _crc_table() -> tuple[int, ...]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
        table.append(crc)
    return tuple(table)


_TABLE = _crc_table()


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE.

    >>> hex(crc16(b"123456789"))
    '0x29b1'
    """
    crc = 0xFFFF
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ _TABLE[((crc >> 8) ^ byte) & 0xFF]
    return crc


class Frame(Value):
    """One decoded line: sequence number, message type and its fields in wire order."""

    __slots__ = ("fields", "kind", "seq")
    __match_args__ = ("seq", "kind", "fields")

    seq: int
    kind: str
    fields: tuple[tuple[str, str], ...]

    def __init__(self, seq: int, kind: str, fields: tuple[tuple[str, str], ...] = ()) -> None:
        setter = object.__setattr__
        setter(self, "seq", seq)
        setter(self, "kind", kind)
        setter(self, "fields", fields)

    def field_map(self) -> dict[str, str]:
        """The fields as a dict."""
        return dict(self.fields)


def _is_key(text: str) -> bool:
    return (
        0 < len(text) <= 8
        and "a" <= text[0] <= "z"
        and all("a" <= ch <= "z" or "0" <= ch <= "9" for ch in text)
    )


def _is_value(text: str) -> bool:
    return 0 < len(text) <= 64 and all(" " < ch <= "~" and ch not in "*=" for ch in text)


def _is_seq(text: str) -> bool:
    return (
        0 < len(text) <= 5
        and text.isascii()
        and text.isdigit()
        and (text == "0" or text[0] != "0")
        and int(text) <= 0xFFFF
    )


def encode_frame(frame: Frame) -> bytes:
    """The wire bytes of a frame, newline included; checks every part is well formed."""
    if not 0 <= frame.seq <= 0xFFFF:
        raise FrameError("syntax", f"sequence number {frame.seq!r} is not 0..65535")
    if not (0 < len(frame.kind) <= 10 and all("A" <= ch <= "Z" for ch in frame.kind)):
        raise FrameError("syntax", f"message type {frame.kind!r} is not 1..10 capitals")
    parts = [str(frame.seq), frame.kind]
    for key, value in frame.fields:
        if not _is_key(key) or not _is_value(value):
            raise FrameError("syntax", f"field {key!r}={value!r} cannot be sent")
        parts.append(f"{key}={value}")
    body = " ".join(parts).encode("ascii")
    line = body + b"*" + f"{crc16(body):04X}".encode("ascii") + b"\n"
    if len(line) > MAX_LINE:
        raise FrameError("length", f"frame of {len(line)} bytes is over {MAX_LINE}")
    return line


def decode_line(line: bytes) -> Frame:
    """Decode one line (without its ``\\n``) or raise :class:`FrameError`."""
    if line.endswith(b"\r"):
        line = line[:-1]
    if len(line) + 1 > MAX_LINE:
        raise FrameError("length", f"line of {len(line) + 1} bytes is over {MAX_LINE}")
    bad = next((b for b in line if not 0x20 <= b <= 0x7E), None)
    if bad is not None:
        raise FrameError("charset", f"byte 0x{bad:02X} is not printable ASCII")
    text = line.decode("ascii")
    star = text.rfind("*")
    crc_text = text[star + 1 :]
    if star < 0 or len(crc_text) != 4 or not all(ch in HEX_UPPER for ch in crc_text):
        raise FrameError("syntax", f"{text[-12:]!r} does not end in *CRC (4 upper-case hex)")
    if crc16(line[:star]) != int(crc_text, 16):
        raise FrameError("crc", f"CRC {crc_text} does not match {crc16(line[:star]):04X}")
    parts = text[:star].split(" ")
    if len(parts) < 2 or not _is_seq(parts[0]):
        raise FrameError("syntax", f"sequence number {parts[0]!r} is not 0..65535")
    kind = parts[1]
    if not (0 < len(kind) <= 10 and all("A" <= ch <= "Z" for ch in kind)):
        raise FrameError("syntax", f"message type {kind!r} is not 1..10 capitals")
    fields: list[tuple[str, str]] = []
    for part in parts[2:]:
        key, eq, value = part.partition("=")
        if not eq or not _is_key(key) or not _is_value(value):
            raise FrameError("syntax", f"field {part!r} is not key=value")
        if any(key == k for k, _ in fields):
            raise FrameError("syntax", f"field {key!r} given twice")
        fields.append((key, value))
    return Frame(int(parts[0]), kind, tuple(fields))


class LineSplitter:
    """Cuts a byte stream into lines; a run of more than :data:`MAX_LINE` bytes without a
    newline becomes one ``length`` error and is skipped up to the next newline.

    >>> s = LineSplitter()
    >>> s.feed(b"ab"), s.feed(b"c\\r\\n\\nd")
    ([], [b'abc\\r'])
    """

    def __init__(self) -> None:
        self._buffer = b""
        self._skipping = False

    def feed(self, data: bytes) -> list[bytes | FrameError]:
        """Lines (without ``\\n``) completed by ``data``, and errors, in stream order."""
        out: list[bytes | FrameError] = []
        buffer = self._buffer + data
        *lines, rest = buffer.split(b"\n")
        for line in lines:
            if self._skipping:
                self._skipping = False
            elif line not in (b"", b"\r"):
                out.append(line)
        if len(rest) >= MAX_LINE:
            if not self._skipping:
                out.append(FrameError("length", f"no newline within {MAX_LINE} bytes"))
            self._skipping = True
            rest = b""
        self._buffer = rest
        return out


class Decoder:
    """Bytes in, frames (or the errors of unreadable lines) out."""

    def __init__(self) -> None:
        self._splitter = LineSplitter()

    def feed(self, data: bytes) -> list[Frame | FrameError]:
        """Every frame or error completed by ``data``."""
        out: list[Frame | FrameError] = []
        for item in self._splitter.feed(data):
            if isinstance(item, FrameError):
                out.append(item)
                continue
            try:
                out.append(decode_line(item))
            except FrameError as error:
                out.append(error)
        return out
