# Runs the firmware's own loop (main.run) with the real PicoStrip on stand-in rp2/machine
# modules, under the MicroPython unix port, and prints what the firmware reported.
#   micropython firmware/tests/strip_cost.py LEDS FRAMES BEATS DMA|PUT
# The host side is scripted: HELLO, CFG with LEDS, a still board, then a winner (an animation
# redrawn every 20 ms); it hangs up once the strip has sent FRAMES frames and the firmware has
# written BEATS heartbeats (or after HANGUP_MS, so a board that stops animating ends the run),
# so what the run shows does not depend on how fast the machine is. Prints one line per
# firmware heartbeat ("HB <fields>"), then "SENT <count> <gap_us_min>", "LAST <G R B hex of
# the last transfer>", "PROGRAM <the PIO program text asm_pio saw, | for newlines>",
# "TAMPERED <count>".

import sys

here = sys.argv[0].rsplit("/", 1)[0] if "/" in sys.argv[0] else "."
sys.path.insert(0, here + "/standins")
sys.path.insert(0, here + "/..")

import binascii  # noqa: E402
import time  # noqa: E402

import rp2  # noqa: E402

if sys.argv[4] == "PUT":
    del rp2.DMA  # a port without rp2.DMA: PicoStrip falls back to StateMachine.put

import main  # noqa: E402
import pb_hw  # noqa: E402
import pb_proto  # noqa: E402

LEDS = int(sys.argv[1])
FRAMES = int(sys.argv[2])
BEATS = int(sys.argv[3])
HANGUP_MS = 30000
TRACKS = 3 if LEDS >= 361 else 2


def lines():
    cfg = [("n", str(LEDS)), ("tracks", str(TRACKS)), ("order", "street"), ("serp", "1"),
           ("end", "left"), ("skip", "0"), ("cap", "128"), ("ma", "2000"), ("hb", "200")]
    sides = str(TRACKS)
    colours = ",".join(["FF0000", "0040FF", "00FF40"][:TRACKS])
    zero = ",".join(["0"] * TRACKS)
    still = [("sides", sides), ("t", "121"), ("f", ",".join(["5"] + ["0"] * (TRACKS - 1))),
             ("b", zero), ("c", colours), ("last", "-"), ("win", "-")]
    won = [("sides", sides), ("t", "121"), ("f", ",".join(["121"] + ["0"] * (TRACKS - 1))),
           ("b", ",".join(["100"] + ["0"] * (TRACKS - 1))), ("c", colours), ("last", "0"),
           ("win", "0")]
    return [(0, pb_proto.encode(0, "HELLO", [("v", "1")])), (0, pb_proto.encode(1, "CFG", cfg)),
            (0, pb_proto.encode(2, "STATE", still)), (100, pb_proto.encode(3, "STATE", won))]


class ScriptedSerial:
    # The host's side of the USB serial port, on a timetable.
    def __init__(self):
        self.start = time.ticks_ms()
        self.script = lines()
        self.out = b""
        self.hangup = False
        self.dropped = 0

    def _at(self):
        return time.ticks_diff(time.ticks_ms(), self.start)

    def read(self):
        at = self._at()
        data = b""
        while self.script and self.script[0][0] <= at:
            data += self.script.pop(0)[1]
        beats = self.out.count(b" HB ")
        if (len(rp2.SENT) >= FRAMES and beats >= BEATS) or at >= HANGUP_MS:
            self.hangup = True
        return data

    def write(self, data):
        self.out += data

    def flush(self):
        pass

    def wait(self, ms):
        time.sleep_ms(ms)


serial = ScriptedSerial()
strip = pb_hw.PicoStrip()
main.run(serial, strip, time.ticks_ms)
for line in serial.out.split(b"\n"):
    if b" HB " in line:
        print("HB", line.split(b" HB ")[1].split(b"*")[0].decode())
gaps = [rp2.SENT[i + 1][0] - rp2.SENT[i][1] for i in range(len(rp2.SENT) - 1)]
print("SENT %d %d" % (len(rp2.SENT), min(gaps) if gaps else -1))
print("LAST", binascii.hexlify(rp2.SENT[-1][2]).decode())
print("PROGRAM", "|".join(rp2.PROGRAMS[-1].split("\n")))
print("TAMPERED", len(rp2.TAMPERED))
