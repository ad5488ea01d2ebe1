# The firmware's link session and board loop logic, free of hardware and clocks.
#
# feed() takes bytes from the host, tick() advances time; both queue reply bytes that
# take_output() hands to the serial adapter, and tick() returns the frame to show (already
# power-limited) when it differs from the last one. main.py wires this to the hardware.

import pb_layout
import pb_proto
import pb_render

FW_VERSION = "1.0.0"
LOST_AFTER_BEATS = 3  # host heartbeats missed before the link-lost pattern
FRAME_MS = 20  # animations advance at most 50 times a second


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
        try:
            self._message(seq, mtype, fields, now)
        except pb_proto.ProtocolError as error:
            self._reject(seq, error.code)

    def _message(self, seq, mtype, fields, now):
        if mtype == "HB":
            return
        if mtype == "HELLO":
            pb_proto.parse_hello(fields)
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
            self.changed = True
        elif mtype == "TEST":
            self.scene.set_test(pb_proto.parse_test(fields) == "on")
            self.changed = True
        else:
            raise pb_proto.ProtocolError(pb_proto.E_TYPE, mtype)
        self._send("ACK", [("a", str(seq))])

    # -- time --------------------------------------------------------------------------------

    def lost(self, now):
        if self.last_rx is None:
            return True
        quiet = pb_render.ticks_diff(now, self.last_rx)
        return quiet > LOST_AFTER_BEATS * self.cfg["hb"]

    def tick(self, now):
        # Sends our heartbeat when due; returns the new frame, or None if unchanged.
        if pb_render.ticks_diff(now, self.last_hb) >= self.cfg["hb"]:
            self.last_hb = now
            up = pb_render.ticks_diff(now, self.started)
            self._send("HB", [("up", str(up if up > 0 else 0)), ("bad", str(self.bad)), ("err", str(self.errors))])
        lost = self.lost(now)
        # Rendering costs milliseconds on the Pico: do it when something changed, else at the
        # animation rate, so a burst of input is read promptly.
        due = pb_render.ticks_diff(now, self.rendered) >= FRAME_MS
        if not (self.changed or due or lost != self.was_lost):
            return None
        self.changed = False
        self.rendered = now
        self.was_lost = lost
        frame = self.scene.frame(now, lost)
        self.current_ma = pb_render.limit(frame, self.cfg["cap"], self.cfg["ma"])
        if frame == self.shown:
            return None
        self.shown = frame
        return frame
