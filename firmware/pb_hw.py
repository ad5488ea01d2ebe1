# The only module that touches hardware: the USB serial port and the LED strip.
#
# On the Pico (sys.platform == "rp2"): sys.stdin/sys.stdout over USB CDC, polled with
# select.poll, and the WS2812B strip on DATA_PIN driven by a PIO state machine fed by DMA.
# Anywhere else (the MicroPython unix port used by the tests and the desktop simulator): the
# same stdin/stdout, and a stand-in strip that appends every frame it is asked to show to the
# file named by $PEGBOARD_LED_FRAMES.

import binascii
import select
import sys
import time

import pb_render

DATA_PIN = 0  # GP0, physical pin 1; see hardware/README.md
SM_ID = 0  # PIO0, state machine 0
DREQ_PIO0_TX0 = 0  # DMA pacing: PIO0 state machine 0's TX FIFO has room
READ_CHUNK = 256
WRITE_CHUNK = 32  # bytes per write: small enough to fit the USB CDC buffer at once
MAX_PENDING = 1024  # output kept for a host that is slow to read; beyond it, dropped
SLOW_WRITE_MS = 20  # a write that took longer means the host has stopped reading...
MUTE_MS = (100, 2000)  # ...so write nothing for a while (doubling while it lasts)
INTERRUPT_CHAR = 3  # Ctrl-C

# The WS2812B bit timing as a PIO program: PROGRAM is the one source of its text. The Pico
# runs it through rp2.asm_pio (ws2812_program); the test suite assembles the very same text with
# adafruit_pioasm and runs it in a PIO emulator to check the waveform against the datasheet.
#
# Each bit is 10 PIO cycles: 3 high then 7 low for a 0, 6 high then 4 low for a 1. At
# PIO_FREQ (the 125 MHz system clock divided by exactly 16) a cycle is 128 ns, so
# T0H = 384 ns, T1H = 768 ns, T0L = 896 ns, T1L = 512 ns and a bit takes 1.28 us.
# Data goes in a byte at a time (autopull every 8 bits, most significant bit first), so one
# bytearray of G, R, B bytes is written whole, by DMA or StateMachine.put.

PROGRAM = """
.program ws2812
.side_set 1
.wrap_target
bitloop:
    out x, 1       side 0 [3]
    jmp !x do_zero side 1 [2]
    jmp bitloop    side 1 [2]
do_zero:
    nop            side 0 [2]
.wrap
"""

SYS_FREQ = 125_000_000  # the RP2040's clock under MicroPython
PIO_FREQ = 7_812_500  # SYS_FREQ / 16: an integer divider, so no fractional jitter
CYCLES_PER_BIT = 10
PULL_THRESH = 8  # bits per autopull: one byte of the buffer
PUT_SHIFT = 24  # StateMachine.put(bytearray, shift): each byte to the top of its word
RESET_US = 300  # low time that latches a frame (WS2812B-V5: >= 280 us; older parts 50 us)


def frame_us(leds):
    # Time on the wire for `leds` pixels of 24 bits, in microseconds (rounded up).
    ns = leds * 24 * CYCLES_PER_BIT * (1_000_000_000 // PIO_FREQ)
    return (ns + 999) // 1000


def parse(text):
    # The program text as a list of steps: ("wrap_target",), ("wrap",), ("label", name) or
    # (op, args, side, delay) with args as written ("x", "!x", a label or a number).
    steps = []
    for raw in text.split("\n"):
        line = raw.split(";")[0].strip()
        if not line or line.startswith(".program") or line.startswith(".side_set"):
            continue
        if line == ".wrap_target" or line == ".wrap":
            steps.append((line[1:],))
            continue
        if line.endswith(":"):
            steps.append(("label", line[:-1]))
            continue
        delay = 0
        if line.endswith("]"):
            at = line.rfind("[")
            delay = int(line[at + 1:-1])
            line = line[:at].strip()
        side = None
        at = line.find(" side ")
        if at >= 0:
            side = int(line[at + 6:].strip())
            line = line[:at].strip()
        words = line.replace(",", " ").split()
        args = []
        for word in words[1:]:
            args.append(int(word) if word.isdigit() else word)
        steps.append((words[0], tuple(args), side, delay))
    return steps


def emit(steps, dsl):
    # Replays the steps through rp2.asm_pio's functions (dsl: the globals asm_pio installs).
    # Uses no module globals: asm_pio has swapped them for its own names while this runs.
    names = {"x": "x", "y": "y", "!x": "not_x", "!y": "not_y", "pins": "pins", "osr": "osr"}
    for step in steps:
        if len(step) == 1:
            dsl[step[0]]()
            continue
        if step[0] == "label":
            dsl["label"](step[1])
            continue
        op, args, side, delay = step
        call = []
        for arg in args:
            if isinstance(arg, int):
                call.append(arg)
            elif arg in names:
                call.append(dsl[names[arg]])
            else:
                call.append(arg)  # a label
        made = dsl[op](*call)
        if side is not None:
            made = made.side(side)
        if delay:
            made[delay]


def keyboard_interrupt(on):
    # Ctrl-C (0x03) on the serial port raises KeyboardInterrupt while on; off while the board
    # runs, so a stray 0x03 in the data is just a bad byte.
    import micropython

    micropython.kbd_intr(INTERRUPT_CHAR if on else -1)
    SerialIO.interrupt = INTERRUPT_CHAR if on else -1


class SerialIO:
    # Non-blocking reads and writes on the USB serial port.
    #
    # On the unix port a 0x03 that arrives while the interrupt character is on raises
    # KeyboardInterrupt here, as the rp2 port's USB CDC driver does, so the desktop firmware
    # dies of a stray Ctrl-C exactly when the Pico would.

    interrupt = INTERRUPT_CHAR

    def __init__(self, ticks_ms=time.ticks_ms):
        self.stdin = sys.stdin.buffer
        self.stdout = sys.stdout.buffer
        self.ticks_ms = ticks_ms
        self.poll_in = select.poll()
        self.poll_in.register(sys.stdin, select.POLLIN)
        self.poll_out = select.poll()
        self.poll_out.register(sys.stdout, select.POLLOUT)
        self.hangup = False
        self.pending = b""
        self.dropped = 0  # bytes of output thrown away
        self.muted_until = None
        self.mute_ms = MUTE_MS[0]
        self.emulate_rp2 = sys.platform != "rp2"

    def read(self):
        data = b""
        while len(data) < READ_CHUNK:
            events = self.poll_in.poll(0)
            if not events:
                break
            flags = events[0][1]
            if flags & (select.POLLHUP | select.POLLERR) and not flags & select.POLLIN:
                self.hangup = True
                break
            chunk = self.stdin.read(1)
            if not chunk:
                self.hangup = True
                break
            if self.emulate_rp2 and chunk[0] == SerialIO.interrupt:
                raise KeyboardInterrupt
            data += chunk
        return data

    def write(self, data):
        # Queue data and send what the port takes now; never wait for a host that is not
        # reading: past MAX_PENDING the oldest output goes (the host resends what it misses).
        self.pending += data
        if len(self.pending) > MAX_PENDING:
            cut = len(self.pending) - MAX_PENDING
            nl = self.pending.find(b"\n", cut)
            cut = len(self.pending) if nl < 0 else nl + 1
            self.dropped += cut
            self.pending = self.pending[cut:]
        self.flush()

    def flush(self):
        now = self.ticks_ms()
        if self.muted_until is not None:
            if time.ticks_diff(self.muted_until, now) > 0:
                return
            self.muted_until = None
        sent = 0
        while self.pending and sent < READ_CHUNK and self.poll_out.poll(0):
            chunk = self.pending[:WRITE_CHUNK]
            started = self.ticks_ms()
            self.stdout.write(chunk)
            if hasattr(self.stdout, "flush"):
                self.stdout.flush()
            self.pending = self.pending[len(chunk):]
            sent += len(chunk)
            if time.ticks_diff(self.ticks_ms(), started) > SLOW_WRITE_MS:
                # Blocked until the host made room: back off before trying again, so a host
                # that holds the port without reading costs the loop one write now and then.
                self.muted_until = time.ticks_add(self.ticks_ms(), self.mute_ms)
                self.mute_ms = min(self.mute_ms * 2, MUTE_MS[1])
                return
            self.mute_ms = MUTE_MS[0]

    def wait(self, ms):
        self.poll_in.poll(ms)


class PicoStrip:
    # The WS2812B strip on a PIO state machine. Each frame is converted to G, R, B in one
    # buffer and handed over whole: to a DMA channel paced by the state machine's FIFO where
    # the port has rp2.DMA, else to StateMachine.put (which returns once the last word is in
    # the FIFO). A new frame waits until the previous one is out and latched.

    def __init__(self):
        import machine
        import rp2

        self.rp2 = rp2
        self.pin = machine.Pin(DATA_PIN, machine.Pin.OUT)
        self.sm = rp2.StateMachine(SM_ID, ws2812_program(rp2), freq=PIO_FREQ,
                                   sideset_base=self.pin)
        self.sm.active(1)
        self.dma = rp2.DMA() if hasattr(rp2, "DMA") else None
        self.ctrl = None
        if self.dma is not None:
            self.ctrl = self.dma.pack_ctrl(size=0, inc_write=False, treq_sel=DREQ_PIO0_TX0)
        self.buf = None
        self.free_at = time.ticks_us()
        try:
            self.led = machine.Pin("LED", machine.Pin.OUT)
        except (TypeError, ValueError):
            self.led = None

    def _wait(self):
        # At most one frame's time on the wire plus the latch: ~11 ms at 361 LEDs.
        while self.dma is not None and self.dma.active():
            pass
        left = time.ticks_diff(self.free_at, time.ticks_us())
        if left > 0:
            time.sleep_us(left)

    def show(self, frame, now, ma):
        n = len(frame)
        if self.buf is None or len(self.buf) != n:
            self._wait()
            self.buf = bytearray(n)
        else:
            self._wait()
        pb_render.px_grb(frame, self.buf, n)
        if self.dma is not None:
            self.dma.config(read=self.buf, write=self.sm, count=n, ctrl=self.ctrl, trigger=True)
        else:
            self.sm.put(self.buf, PUT_SHIFT)
        busy = frame_us(n // 3) + RESET_US
        self.free_at = time.ticks_add(time.ticks_us(), busy)

    def alive(self, on):
        if self.led is not None:
            self.led.value(1 if on else 0)


def ws2812_program(rp2):
    # PROGRAM through rp2.asm_pio. asm_pio swaps this module's globals for its own
    # while it runs the function, so the steps and emit() come in as closure variables.
    steps = parse(PROGRAM)
    replay = emit

    @rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT,
                 autopull=True, pull_thresh=PULL_THRESH)
    def ws2812():
        replay(steps, globals())

    return ws2812


class RecordingStrip:
    # Stand-in for the LED strip: one line per shown frame, "<ms> <mA> <RRGGBB...>".
    def __init__(self, path):
        self.file = open(path, "a") if path else None

    def show(self, frame, now, ma):
        if self.file is None:
            return
        hexed = binascii.hexlify(frame).decode().upper()
        self.file.write("%d %d %s\n" % (now, ma, hexed))
        self.file.flush()

    def alive(self, on):
        pass


class _Replay:
    # A one-shot input stream for os.dupterm: gives the REPL the bytes the firmware read but
    # meant for it (mpremote's Ctrl-A), then nothing; swallows what the REPL writes to it.
    def __init__(self, data):
        self.data = data

    def readinto(self, buf):
        if not self.data:
            return None
        buf[0] = self.data[0]
        self.data = self.data[1:]
        return 1

    def write(self, buf):
        return len(buf)

    def ioctl(self, op, arg):
        return 0


def bootsel():
    # rp2.bootsel_button (1 while BOOTSEL is pressed), or None on a port that has none.
    try:
        import rp2
    except ImportError:
        return None
    return getattr(rp2, "bootsel_button", None)


def hand_back(seen, strip, now, leds):
    # The loop stopped on an escape: dark strip, and the REPL gets mpremote's Ctrl-A back.
    try:
        strip.show(bytearray(leds * 3), now, 0)
    except Exception:  # noqa: BLE001 - the REPL matters more than the strip here
        pass
    if seen.endswith(b"\x01"):
        import os

        if hasattr(os, "dupterm"):
            import io

            class Replay(io.IOBase, _Replay):
                pass

            os.dupterm(Replay(b"\x01"))
    if sys.platform != "rp2":
        sys.stderr.write("pegboard: stopped by %r, REPL\n" % (seen,))
    elif seen == b"BOOTSEL":
        # Said on the USB REPL, where Thonny or a terminal shows it.
        print("pegboard: BOOTSEL pressed, the LED loop is stopped and the REPL is free")


def make():
    # Returns (serial, strip, ticks_ms) for this platform.
    if sys.platform == "rp2":
        return SerialIO(), PicoStrip(), time.ticks_ms
    import os

    return SerialIO(), RecordingStrip(os.getenv("PEGBOARD_LED_FRAMES")), time.ticks_ms
