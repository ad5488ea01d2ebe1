# The only module that touches hardware: the USB serial port and the LED strip.
#
# On the Pico (sys.platform == "rp2"): sys.stdin/sys.stdout over USB CDC, polled with
# select.poll, and neopixel.NeoPixel on DATA_PIN. Anywhere else (the MicroPython unix port used
# by the tests and the desktop simulator): the same stdin/stdout, and a stand-in strip that
# appends every frame it is asked to show to the file named by $PEGBOARD_LED_FRAMES.

import binascii
import select
import sys
import time

DATA_PIN = 0  # GP0, physical pin 1; see hardware/README.md
READ_CHUNK = 256


class SerialIO:
    def __init__(self):
        self.stdin = sys.stdin.buffer
        self.stdout = sys.stdout.buffer
        self.poll_in = select.poll()
        self.poll_in.register(sys.stdin, select.POLLIN)
        self.poll_out = select.poll()
        self.poll_out.register(sys.stdout, select.POLLOUT)
        self.hangup = False

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
            data += chunk
        return data

    def write(self, data):
        # Never block the board on a host that is not reading: drop what cannot go out now.
        if self.poll_out.poll(0):
            self.stdout.write(data)
            if hasattr(self.stdout, "flush"):
                self.stdout.flush()
            return True
        return False

    def wait(self, ms):
        self.poll_in.poll(ms)


class PicoStrip:
    def __init__(self):
        import machine
        import neopixel

        self._machine = machine
        self._neopixel = neopixel
        self.pin = machine.Pin(DATA_PIN, machine.Pin.OUT)
        self.np = None
        try:
            self.led = machine.Pin("LED", machine.Pin.OUT)
        except (TypeError, ValueError):
            self.led = None

    def show(self, frame, now, ma):
        n = len(frame) // 3
        if self.np is None or self.np.n != n:
            self.np = self._neopixel.NeoPixel(self.pin, n)
        np = self.np
        for i in range(n):
            j = i * 3
            np[i] = (frame[j], frame[j + 1], frame[j + 2])
        np.write()

    def alive(self, on):
        if self.led is not None:
            self.led.value(1 if on else 0)


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


def make():
    # Returns (serial, strip, ticks_ms) for this platform.
    if sys.platform == "rp2":
        return SerialIO(), PicoStrip(), time.ticks_ms
    import os

    return SerialIO(), RecordingStrip(os.getenv("PEGBOARD_LED_FRAMES")), time.ticks_ms
