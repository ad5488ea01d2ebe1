# Runs the firmware's own loop (main.run) under the MicroPython unix port on a clock that moves
# only when the loop waits, with BOOTSEL pressed on a timetable, and prints how it ended.
#   micropython firmware/tests/bootsel_hold.py RUN_MS [FROM-UNTIL ...]
# Each FROM-UNTIL is a press in loop milliseconds. Prints "STOPPED <what> <ms>" when the loop
# stops itself, "RAN <ms>" when it ran the whole RUN_MS, then "POLLS <button reads>".

import sys

here = sys.argv[0].rsplit("/", 1)[0] if "/" in sys.argv[0] else "."
sys.path.insert(0, here + "/..")

import main  # noqa: E402

RUN_MS = int(sys.argv[1])
PRESSES = [tuple(int(t) for t in arg.split("-")) for arg in sys.argv[2:]]
clock = [0]
polls = [0]


def ticks_ms():
    return clock[0]


def bootsel():
    polls[0] += 1
    return 1 if any(start <= clock[0] < end for start, end in PRESSES) else 0


class QuietSerial:
    # A host that says nothing; waiting moves the clock.
    def __init__(self):
        self.hangup = False
        self.dropped = 0

    def read(self):
        if clock[0] >= RUN_MS:
            self.hangup = True
        return b""

    def write(self, data):
        pass

    def flush(self):
        pass

    def wait(self, ms):
        clock[0] += ms


class DarkStrip:
    def show(self, frame, now, ma):
        pass

    def alive(self, ok):
        pass


seen, leds = main.run(QuietSerial(), DarkStrip(), ticks_ms, bootsel)
if seen is None:
    print("RAN", clock[0])
else:
    print("STOPPED", seen.decode(), clock[0])
print("POLLS", polls[0])
