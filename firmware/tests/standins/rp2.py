# Stand-in for the rp2 module on the unix port, keeping the semantics PicoStrip relies on:
# asm_pio swaps the decorated function's module globals for its own names while it runs the
# function (twice: labels, then code) and restores them; StateMachine.put(buffer, shift) takes
# one FIFO word per element; a DMA channel stays active for the transfer's time on the wire and
# reads the buffer while it is active. Every transfer is recorded as the bytes that reached the
# state machine, with its start and end in microseconds.

import time

SENT = []  # (start_us, end_us, bytes) per transfer
PROGRAMS = []  # the instruction text asm_pio saw
WIRE_US_PER_BYTE = 8 * 1.28
TAMPERED = []  # transfers whose buffer changed while the DMA was reading it


class PIO:
    OUT_LOW = 0
    OUT_HIGH = 1
    SHIFT_LEFT = 0
    SHIFT_RIGHT = 1


_ARGS = {"x": "x", "y": "y", "not_x": "!x", "not_y": "!y", "pins": "pins", "osr": "osr"}


class _Emit:
    def __init__(self):
        self.lines = []

    def _instr(self, text):
        self.lines.append(text)
        return self

    def side(self, value):
        self.lines[-1] += " side %d" % value
        return self

    def __getitem__(self, delay):
        self.lines[-1] += " [%d]" % delay
        return self


def asm_pio(**settings):
    def decorate(function):
        emit = _Emit()

        def op(name):
            def call(*args):
                shown = [_ARGS.get(a, a) if isinstance(a, str) else str(a) for a in args]
                if name == "jmp" and len(shown) == 2:
                    return emit._instr("jmp %s %s" % (shown[0], shown[1]))
                return emit._instr(name + (" " + ", ".join(shown) if shown else ""))
            return call

        names = {"x": "x", "y": "y", "not_x": "not_x", "not_y": "not_y", "pins": "pins",
                 "osr": "osr"}
        for name in ("out", "jmp", "nop", "set", "pull", "mov"):
            names[name] = op(name)
        names["wrap_target"] = lambda: emit.lines.append(".wrap_target")
        names["wrap"] = lambda: emit.lines.append(".wrap")
        names["label"] = lambda label: emit.lines.append(label + ":")
        module = function.__globals__
        kept = dict(module)
        for attempt in (0, 1):
            emit.lines = []
            module.clear()
            module.update(names)
            try:
                function()
            finally:
                module.clear()
                module.update(kept)
        PROGRAMS.append("\n".join(emit.lines))
        return {"settings": settings, "text": PROGRAMS[-1]}
    return decorate


class StateMachine:
    def __init__(self, ident, program, freq=0, sideset_base=None):
        self.ident = ident
        self.program = program
        self.freq = freq
        self.running = False

    def active(self, on=None):
        if on is not None:
            self.running = bool(on)
        return self.running

    def put(self, value, shift=0):
        # Blocks until the last word is in the FIFO: the wire time of all but four words.
        data = bytes((word << shift) >> 24 & 0xFF for word in value)
        start = time.ticks_us()
        end = start + int(len(data) * WIRE_US_PER_BYTE)
        SENT.append((start, end, data))


class DMA:
    def __init__(self):
        self.end = 0
        self.buf = None
        self.copy = None

    def pack_ctrl(self, **fields):
        return dict(fields)

    def config(self, read=None, write=None, count=0, ctrl=None, trigger=False):
        assert isinstance(write, StateMachine), "the DMA writes to the state machine's FIFO"
        assert ctrl["size"] == 0 and ctrl["inc_write"] is False and ctrl["treq_sel"] == 0
        assert not self.active(), "configured while a transfer was still running"
        start = time.ticks_us()
        self.end = start + int(count * WIRE_US_PER_BYTE)
        self.buf = read
        self.copy = bytes(read[:count])
        SENT.append((start, self.end, self.copy))

    def active(self):
        if self.buf is not None and time.ticks_diff(self.end, time.ticks_us()) <= 0:
            if bytes(self.buf[:len(self.copy)]) != self.copy:
                TAMPERED.append(len(SENT) - 1)
            self.buf = None
        return self.buf is not None


def bootsel_button():
    # BOOTSEL as a test sets it: 1 while the file named by PEGBOARD_BOOTSEL starts with "1".
    import os

    path = os.getenv("PEGBOARD_BOOTSEL")
    if not path:
        return 0
    try:
        with open(path) as pressed:
            return 1 if pressed.read(1) == "1" else 0
    except OSError:
        return 0
