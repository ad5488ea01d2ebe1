# The firmware's link session and board loop logic, free of hardware and clocks.
#
# feed() takes bytes from the host, tick() advances time; both queue reply bytes that
# take_output() hands to the serial adapter, and tick() returns the frame to show (already
# power-limited) when it differs from the last one. main.py wires this to the hardware.

import pb_layout
import pb_proto
import pb_render

FW_VERSION = "1.1.0"
LOST_AFTER_BEATS = 3  # host heartbeats missed before the link-lost pattern
FRAME_MS = 20  # animations advance at most 50 times a second


# Byte sequences that stop the firmware and hand the port back to the MicroPython REPL: three
# Ctrl-C in a row (a person at a terminal), mpremote's "Ctrl-C, CR, Ctrl-A" (enter the raw
# REPL; rshell and ampy send "CR, Ctrl-C, Ctrl-C" then "CR, Ctrl-A", which holds it), and
# Thonny's "Ctrl-C, Ctrl-A" (sent up to six times while it waits for the raw REPL). The link
# never sends control bytes and a random burst holds any of them far too rarely to matter, so
# a stray 0x03 or 0x01 alone is only a bad byte.
ESCAPES = (b"\x03\x03\x03", b"\x03\r\x01", b"\x03\x01")


def newer(seq, than):
    # True if seq comes after `than` in 16-bit sequence space (half the space ahead).
    if than is None:
        return True
    return 0 < ((seq - than) & 0xFFFF) < 0x8000


class Escape:
    def __init__(self):
        self.tail = b""
        self.seen = None

    def feed(self, data):
        # True once data (with what came before it) holds an escape sequence.
        if 3 not in data and self.tail.find(b"\x03") < 0:
            self.tail = data[-2:]
            return False
        text = self.tail + data
        for escape in ESCAPES:
            if text.find(escape) >= 0:
                self.seen = escape
                return True
        self.tail = text[-2:]
        return False


class App:
    def __init__(self, now, version=pb_proto.VERSION):
        self.version = version
        self.splitter = pb_proto.LineSplitter()
        self.cfg = dict(pb_layout.DEFAULT_CFG)
        self.scene = pb_render.Scene(self.cfg)
        self.seq = 0
        self.out = []
        self.last_rx = None
        self.last_hb = now
        self.started = now
        self.bad = 0
        self.errors = 0
        self.shown = None
        self.changed = True
        self.rendered = now
        self.was_lost = True
        self.current_ma = 0
        self.host_seq = None  # newest host sequence number accepted this session
        self.shown_seq = None  # the seq of the STATE on the board
        self.stale = 0  # old frames refused
        self.bye = False  # the host said goodbye: calm board, no link-lost
        self.loop_us = 0  # longest loop pass since the last heartbeat
        self.frame_us = 0  # cost of the last frame (render, limit, show)
        self.mem_free = 0
        self.dropped = 0  # output bytes the serial port had to drop
        self.next_frame = None  # when an animation needs its next frame
        # Announce ourselves: a host that sees this HELLO knows the board has just (re)started
        # and sends the whole board again.
        self._send("HELLO", [("v", str(version)), ("fw", FW_VERSION)])

    # -- output ------------------------------------------------------------------------------

    def _send(self, mtype, fields):
        self.out.append(pb_proto.encode(self.seq, mtype, fields))
        self.seq = (self.seq + 1) & 0xFFFF

    def take_output(self):
        if not self.out:
            return b""
        data = b"".join(self.out)
        self.out = []
        return data

    # -- input -------------------------------------------------------------------------------

    def feed(self, data, now):
        for item in self.splitter.feed(data):
            if isinstance(item, pb_proto.ProtocolError):
                self._reject(None, item.code)
            else:
                self._line(item, now)

    def _reject(self, seq, code):
        self.bad += 1
        self._send("NAK", [("a", "-" if seq is None else str(seq)), ("e", code)])

    def _line(self, line, now):
        try:
            seq, mtype, fields = pb_proto.decode_line(line)
        except pb_proto.ProtocolError as error:
            self._reject(None, error.code)
            return
        self.last_rx = now
        if mtype != "HELLO":
            if not newer(seq, self.host_seq):
                # A replayed or delayed old frame: the board keeps the newer state it has.
                self.stale += 1
                self._send("NAK", [("a", str(seq)), ("e", pb_proto.E_OLD)])
                return
            self.host_seq = seq
        try:
            self._message(seq, mtype, fields, now)
        except pb_proto.ProtocolError as error:
            self._reject(seq, error.code)

    def _message(self, seq, mtype, fields, now):
        if mtype == "HB":
            return
        if mtype == "HELLO":
            pb_proto.parse_hello(fields)
            self.host_seq = seq  # a new session: its numbers start here
            self.bye = False  # the host is back
            self.changed = True
            self._send("HELLO", [("v", str(self.version)), ("fw", FW_VERSION), ("a", str(seq))])
            return
        if mtype == "CFG":
            cfg = pb_proto.parse_cfg(fields)
            if cfg != self.cfg:
                self.cfg = cfg
                self.scene.set_cfg(cfg)
                self.changed = True
        elif mtype == "STATE":
            state = pb_proto.parse_state(fields)
            if state["sides"] > self.cfg["tracks"]:
                raise pb_proto.ProtocolError(pb_proto.E_VALUE, "more sides than tracks")
            self.scene.set_state(state, now)
            self.shown_seq = seq
            self.bye = False
            self.changed = True
        elif mtype == "TEST":
            self.scene.set_test(pb_proto.parse_test(fields) == "on")
            self.bye = False
            self.changed = True
        elif mtype == "BYE":
            pb_proto.parse_bye(fields)
            self.bye = True
            self.changed = True
        else:
            raise pb_proto.ProtocolError(pb_proto.E_TYPE, mtype)
        self._send("ACK", [("a", str(seq))])

    # -- time --------------------------------------------------------------------------------

    def lost(self, now):
        if self.bye:
            return False  # the host shut down on purpose: nothing is wrong
        if self.last_rx is None:
            return True
        quiet = pb_render.ticks_diff(now, self.last_rx)
        return quiet > LOST_AFTER_BEATS * self.cfg["hb"]

    def heartbeat(self, up):
        shown = "-" if self.shown_seq is None else str(self.shown_seq)
        return [("up", str(up)), ("bad", str(self.bad)), ("err", str(self.errors)),
                ("st", shown), ("old", str(self.stale)), ("loop", str(self.loop_us)),
                ("frame", str(self.frame_us)), ("mem", str(self.mem_free)),
                ("drop", str(self.dropped))]

    def note_pass(self, loop_us, frame_us, mem_free, dropped):
        # What the main loop measured: this pass's time, the last frame's cost, free memory.
        if loop_us > self.loop_us:
            self.loop_us = loop_us
        if frame_us is not None:
            self.frame_us = frame_us
        self.mem_free = mem_free
        self.dropped = dropped

    def tick(self, now):
        # Sends our heartbeat when due; returns the new frame, or None if unchanged.
        if pb_render.ticks_diff(now, self.last_hb) >= self.cfg["hb"]:
            self.last_hb = now
            up = pb_render.ticks_diff(now, self.started)
            self._send("HB", self.heartbeat(up if up > 0 else 0))
            self.loop_us = 0
        lost = self.lost(now)
        # A frame only when something changed or an animation moves on: a still board costs
        # nothing, and a burst of input is read promptly.
        due = self.next_frame is not None and pb_render.ticks_diff(now, self.next_frame) >= 0
        if not (self.changed or due or lost != self.was_lost):
            return None
        self.changed = False
        self.rendered = now
        self.was_lost = lost
        wait = self.scene.next_change(now, lost, FRAME_MS)
        self.next_frame = None if wait is None else now + wait
        if self.bye:
            frame = bytearray(self.cfg["n"] * 3)  # shut down: the board goes dark
        else:
            frame = self.scene.frame(now, lost)
        self.current_ma = pb_render.limit(frame, self.cfg["cap"], self.cfg["ma"])
        if frame == self.shown:
            return None
        self.shown = frame
        return frame
