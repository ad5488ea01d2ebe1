# Wire format of the LED pegboard link, firmware side (MicroPython; also runs on CPython).
#
# One frame per line, printable ASCII only (0x20..0x7E) plus the "\n" that ends it:
#
#     <seq> <TYPE> <key>=<value> ... *<CRC>\n
#
# seq is 0..65535 in decimal, TYPE is 1..10 capital letters, keys are 1..8 lower-case letters
# or digits starting with a letter, values are 1..64 printable characters other than space,
# "*" and "=". CRC is CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) of everything before the
# "*", as four upper-case hex digits. A "\r" before the "\n" is ignored, as are empty lines.
# A line longer than MAX_LINE bytes is discarded up to its "\n".
#
# Control bytes never appear on the wire: 0x03 would interrupt the MicroPython REPL.
# The host implementation (pegboard/link/protocol.py) is separate and both are checked
# against the same vectors file, so neither can drift.

VERSION = 1
MAX_LINE = 200

# Error codes, shared with the host and the vectors file.
E_LENGTH = "length"
E_CHARSET = "charset"
E_SYNTAX = "syntax"
E_CRC = "crc"
E_TYPE = "type"
E_VALUE = "value"
E_OLD = "old"  # a sequence number not newer than one already accepted (replayed, delayed)


class ProtocolError(Exception):
    def __init__(self, code, detail=""):
        super().__init__(code)
        self.code = code
        self.detail = detail


def _make_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
        table.append(crc)
    return table


_TABLE = _make_table()


def crc16(data):
    crc = 0xFFFF
    table = _TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ byte) & 0xFF]
    return crc


def _is_upper(text):
    for ch in text:
        if not ("A" <= ch <= "Z"):
            return False
    return len(text) > 0


def _is_key(text):
    if not text or len(text) > 8 or not ("a" <= text[0] <= "z"):
        return False
    for ch in text:
        if not ("a" <= ch <= "z" or "0" <= ch <= "9"):
            return False
    return True


def _is_value(text):
    if not text or len(text) > 64:
        return False
    for ch in text:
        if ch == " " or ch == "*" or ch == "=" or not (" " <= ch <= "~"):
            return False
    return True


def _is_seq(text):
    if not text or len(text) > 5 or not text.isdigit():
        return False
    if len(text) > 1 and text[0] == "0":
        return False
    return int(text) <= 65535


def encode(seq, mtype, fields=()):
    # fields: a sequence of (key, value) pairs, values already text.
    parts = [str(seq), mtype]
    for key, value in fields:
        parts.append(key + "=" + value)
    body = " ".join(parts).encode()
    return body + b"*" + ("%04X" % crc16(body)).encode() + b"\n"


def decode_line(line):
    # line: bytes without the final "\n". Returns (seq, type, [(key, value), ...]).
    if len(line) and line[-1] == 13:
        line = line[:-1]
    if len(line) + 1 > MAX_LINE:
        raise ProtocolError(E_LENGTH)
    for byte in line:
        if byte < 0x20 or byte > 0x7E:
            raise ProtocolError(E_CHARSET)
    text = line.decode()
    star = text.rfind("*")
    if star < 0 or len(text) - star != 5:
        raise ProtocolError(E_SYNTAX, "no *CRC at the end")
    crc_text = text[star + 1:]
    for ch in crc_text:
        if not ("0" <= ch <= "9" or "A" <= ch <= "F"):
            raise ProtocolError(E_SYNTAX, "CRC is not 4 upper-case hex digits")
    body = text[:star]
    if crc16(line[:star]) != int(crc_text, 16):
        raise ProtocolError(E_CRC)
    parts = body.split(" ")
    if len(parts) < 2 or not _is_seq(parts[0]):
        raise ProtocolError(E_SYNTAX, "bad sequence number")
    mtype = parts[1]
    if not _is_upper(mtype) or len(mtype) > 10:
        raise ProtocolError(E_SYNTAX, "bad message type")
    fields = []
    seen = []
    for part in parts[2:]:
        eq = part.find("=")
        if eq < 0:
            raise ProtocolError(E_SYNTAX, "field without =")
        key = part[:eq]
        value = part[eq + 1:]
        if not _is_key(key) or not _is_value(value) or key in seen:
            raise ProtocolError(E_SYNTAX, "bad field")
        seen.append(key)
        fields.append((key, value))
    return int(parts[0]), mtype, fields


class LineSplitter:
    # Cuts a byte stream into lines. feed() returns a list whose items are either a line
    # (bytes, without "\n") or a ProtocolError for a line that was too long.

    def __init__(self):
        self._buf = b""
        self._skipping = False

    def feed(self, data):
        out = []
        buf = self._buf + data
        start = 0
        while True:
            nl = buf.find(b"\n", start)
            if nl < 0:
                break
            line = buf[start:nl]
            start = nl + 1
            if self._skipping:
                self._skipping = False
                continue
            if line == b"" or line == b"\r":
                continue
            out.append(line)
        rest = buf[start:]
        if len(rest) >= MAX_LINE:
            if not self._skipping:
                out.append(ProtocolError(E_LENGTH))
            self._skipping = True
            rest = b""
        self._buf = rest
        return out


# ---- message fields ----------------------------------------------------------------------

def _fields_dict(fields):
    result = {}
    for key, value in fields:
        result[key] = value
    return result


def _int(text, low, high):
    if not text.isdigit() or (len(text) > 1 and text[0] == "0") or len(text) > 6:
        raise ProtocolError(E_VALUE, text)
    value = int(text)
    if value < low or value > high:
        raise ProtocolError(E_VALUE, text)
    return value


def _choice(text, options):
    if text not in options:
        raise ProtocolError(E_VALUE, text)
    return text


def _side(text, sides):
    if text == "-":
        return None
    return _int(text, 0, sides - 1)


def _colour(text):
    if len(text) != 6:
        raise ProtocolError(E_VALUE, text)
    for ch in text:
        if not ("0" <= ch <= "9" or "A" <= ch <= "F"):
            raise ProtocolError(E_VALUE, text)
    value = int(text, 16)
    return ((value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF)


def _need(fields, keys):
    for key in fields:
        if key not in keys:
            raise ProtocolError(E_VALUE, "unknown field " + key)
    for key in keys:
        if key not in fields:
            raise ProtocolError(E_VALUE, "missing field " + key)


CFG_KEYS = ("n", "tracks", "order", "serp", "end", "skip", "cap", "ma", "hb")
STATE_KEYS = ("sides", "t", "f", "b", "c", "last", "win")


def parse_cfg(fields):
    # Returns a dict with the layout and power settings; raises ProtocolError(E_VALUE).
    f = _fields_dict(fields)
    _need(f, CFG_KEYS)
    cfg = {
        "n": _int(f["n"], 1, 1000),
        "tracks": _int(f["tracks"], 2, 3),
        "order": _choice(f["order"], ("street", "track")),
        "serp": _int(f["serp"], 0, 1) == 1,
        "end": _choice(f["end"], ("left", "right")),
        "skip": _int(f["skip"], 0, 100),
        "cap": _int(f["cap"], 1, 255),
        "ma": _int(f["ma"], 50, 20000),
        "hb": _int(f["hb"], 100, 60000),
    }
    if cfg["skip"] + cfg["tracks"] * 120 + 1 > cfg["n"]:
        raise ProtocolError(E_VALUE, "n too small for the layout")
    return cfg


def parse_state(fields):
    # Returns a dict describing the whole board; raises ProtocolError(E_VALUE).
    f = _fields_dict(fields)
    _need(f, STATE_KEYS)
    sides = _int(f["sides"], 2, 3)
    front = [_int(x, 0, 121) for x in f["f"].split(",")]
    back = [_int(x, 0, 121) for x in f["b"].split(",")]
    colours = [_colour(x) for x in f["c"].split(",")]
    if len(front) != sides or len(back) != sides or len(colours) != sides:
        raise ProtocolError(E_VALUE, "one value per side")
    return {
        "sides": sides,
        "target": int(_choice(f["t"], ("61", "121"))),
        "front": front,
        "back": back,
        "colours": colours,
        "last": _side(f["last"], sides),
        "win": _side(f["win"], sides),
    }


def parse_hello(fields):
    f = _fields_dict(fields)
    if "v" not in f:
        raise ProtocolError(E_VALUE, "missing field v")
    return _int(f["v"], 0, 65535)


def parse_bye(fields):
    _need(_fields_dict(fields), ())


def parse_test(fields):
    f = _fields_dict(fields)
    _need(f, ("p",))
    return _choice(f["p"], ("on", "off"))


HOST_TYPES = ("HELLO", "CFG", "STATE", "TEST", "HB", "BYE")
