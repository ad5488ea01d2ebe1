# What the LEDs show: pegs, markers and animations, then the power limit (firmware side).
#
# Pure code: it never touches hardware or the clock; callers pass "now" in milliseconds
# (time.ticks_ms() on the Pico). It runs unchanged on MicroPython and CPython, so the golden
# frame tests and the firmware compute exactly the same bytes.

import sys

import pb_layout

try:
    from time import ticks_diff
except ImportError:  # CPython: plain integers
    def ticks_diff(a, b):
        return a - b

# Whole-buffer pixel work: one pass over a frame in native code on the Pico. Under
# MicroPython these are viper functions (machine code over the raw bytes, no Python object per
# pixel); under CPython, where the golden frame tests import this module, the same arithmetic in
# plain Python. Both give the very same bytes (a test runs the goldens under both).
_VIPER = sys.implementation.name == "micropython"
if _VIPER:
    import micropython

if _VIPER:
    @micropython.viper
    def px_cap(buf, n: int, level: int):
        # Every channel times level/255, rounded down.
        p = ptr8(buf)  # noqa: F821 - viper built-in
        for i in range(n):
            p[i] = p[i] * level // 255

    @micropython.viper
    def px_scale(buf, n: int, num: int, den: int):
        # Every channel times num/den (num < den), rounded down.
        p = ptr8(buf)  # noqa: F821
        for i in range(n):
            p[i] = p[i] * num // den

    @micropython.viper
    def px_halve(buf, n: int):
        p = ptr8(buf)  # noqa: F821
        for i in range(n):
            p[i] = p[i] >> 1

    @micropython.viper
    def px_grb(src, dst, n: int):
        # R, G, B per pixel in src -> G, R, B in dst (the order a WS2812B reads).
        s = ptr8(src)  # noqa: F821
        d = ptr8(dst)  # noqa: F821
        i = 0
        while i < n:
            d[i] = s[i + 1]
            d[i + 1] = s[i]
            d[i + 2] = s[i + 2]
            i += 3

else:
    def px_cap(buf, n, level):
        for i in range(n):
            buf[i] = buf[i] * level // 255

    def px_scale(buf, n, num, den):
        for i in range(n):
            buf[i] = buf[i] * num // den

    def px_halve(buf, n):
        for i in range(n):
            buf[i] = buf[i] >> 1

    def px_grb(src, dst, n):
        dst[0:n:3] = src[1:n:3]
        dst[1:n:3] = src[0:n:3]
        dst[2:n:3] = src[2:n:3]


AMBER = (255, 96, 0)
WHITE = (255, 255, 255)
MARKER = (12, 12, 12)  # skunk lines: faint, so they never look like a peg
BACK_DIV = 4  # back peg at a quarter of the front peg's brightness
MA_PER_CHANNEL = 20
TRAVEL_MS_PER_HOLE = 30
TRAVEL_MIN_MS = 250
TRAVEL_MAX_MS = 1000
CELEBRATE_MS = 1500  # one lap of the winner's comet
COMET_TAIL = 6
BLINK_MS = 500
DEFAULT_COLOURS = ((255, 0, 0), (0, 64, 255), (0, 255, 64))


def travel_ms(distance):
    ms = abs(distance) * TRAVEL_MS_PER_HOLE
    if ms < TRAVEL_MIN_MS:
        return TRAVEL_MIN_MS
    if ms > TRAVEL_MAX_MS:
        return TRAVEL_MAX_MS
    return ms


def markers(target):
    # First hole past each skunk line: 61 and 91 on a 121 game (lines 60/61 and 90/91);
    # 31 on a 61 game (line 30/31).
    if target == 61:
        return (31,)
    return (61, 91)


class Scene:
    # The board model: the last full state, the animations it started, and the test pattern.

    def __init__(self, cfg=None):
        self.set_cfg(cfg or pb_layout.DEFAULT_CFG)
        self.state = None
        self.test = False
        self.travel = None  # (side, from_hole, to_hole, start_ms)
        self.win_start = 0

    def set_cfg(self, cfg):
        self.cfg = cfg
        self.table = pb_layout.table(cfg)

    def set_state(self, state, now):
        old = self.state
        last = state["last"]
        if last is not None and (
            old is None
            or old["sides"] != state["sides"]
            or old["front"][last] != state["front"][last]
            or old["back"][last] != state["back"][last]
            or old["last"] != last
        ):
            self.travel = (last, state["back"][last], state["front"][last], now)
        elif last is None:
            self.travel = None
        if state["win"] is not None and (old is None or old["win"] != state["win"]):
            self.win_start = now
        self.state = state

    def set_test(self, on):
        self.test = on

    def next_change(self, now, lost, frame_ms):
        # Milliseconds until the picture can next change by itself (an animation moving on,
        # the link-lost blink), or None while it stands still.
        if not self.test and self.state is not None:
            if self.state["win"] is not None:
                return frame_ms
            travel = self.travel
            if travel is not None:
                elapsed = ticks_diff(now, travel[3])
                if 0 <= elapsed < travel_ms(travel[2] - travel[1]):
                    return frame_ms
        if lost:
            return BLINK_MS - now % BLINK_MS
        return None

    def frame(self, now, lost):
        # Raw colours before the power limit, as a bytearray of R, G, B per LED.
        cfg = self.cfg
        buf = bytearray(cfg["n"] * 3)
        if self.test:
            self._test_pattern(buf)
        elif self.state is not None:
            self._board(buf, now)
        if lost:
            px_halve(buf, len(buf))
            if (now // BLINK_MS) % 2 == 0:
                for side in range(cfg["tracks"]):
                    self._set(buf, self.table[side][1], AMBER)
                self._set(buf, self.table[0][pb_layout.GAME_HOLE], AMBER)
        return buf

    # -- drawing helpers ------------------------------------------------------------------

    def _set(self, buf, led, colour, div=1):
        if led < 0:
            return
        i = led * 3
        buf[i] = colour[0] // div
        buf[i + 1] = colour[1] // div
        buf[i + 2] = colour[2] // div

    def _test_pattern(self, buf):
        colours = self.state["colours"] if self.state is not None else DEFAULT_COLOURS
        for side in range(self.cfg["tracks"]):
            colour = colours[side] if side < len(colours) else DEFAULT_COLOURS[side]
            row = self.table[side]
            for hole in range(1, pb_layout.GAME_HOLE):
                self._set(buf, row[hole], colour)
        self._set(buf, self.table[0][pb_layout.GAME_HOLE], WHITE)

    def _board(self, buf, now):
        state = self.state
        sides = state["sides"]
        if sides > self.cfg["tracks"]:
            sides = self.cfg["tracks"]
        for side in range(sides):
            row = self.table[side]
            for hole in markers(state["target"]):
                self._set(buf, row[hole], MARKER)
        win = state["win"]
        if win is not None and win < sides:
            self._celebrate(buf, now, win)
        for side in range(sides):
            self._pegs(buf, now, side)

    def _pegs(self, buf, now, side):
        state = self.state
        row = self.table[side]
        colour = state["colours"][side]
        front = state["front"][side]
        back = state["back"][side]
        if back != front:
            self._set(buf, row[back], colour, BACK_DIV)
        travel = self.travel
        if travel is not None and travel[0] == side and travel[2] == front:
            start = travel[1]
            duration = travel_ms(front - start)
            elapsed = ticks_diff(now, travel[3])
            if 0 <= elapsed < duration:
                at = start + (front - start) * elapsed // duration
                behind = at - 1 if front >= start else at + 1
                if behind != back and 0 < behind < pb_layout.GAME_HOLE:
                    self._set(buf, row[behind], colour, BACK_DIV)
                self._set(buf, row[at], colour)
                return
        self._set(buf, row[front], colour)

    def _celebrate(self, buf, now, side):
        colour = self.state["colours"][side]
        row = self.table[side]
        elapsed = ticks_diff(now, self.win_start)
        if elapsed < 0:
            elapsed = 0
        head = 1 + (elapsed % CELEBRATE_MS) * (pb_layout.HOLES) // CELEBRATE_MS
        for k in range(COMET_TAIL):
            hole = head - k
            if hole >= 1:
                self._set(buf, row[hole], colour, k + 1)
        if (elapsed // (BLINK_MS // 2)) % 2 == 0:
            self._set(buf, row[pb_layout.GAME_HOLE], colour)


def limit(buf, cap, budget_ma):
    # Applies the brightness cap to every channel, then scales the whole frame down so its
    # estimated current (MA_PER_CHANNEL mA per channel at full) stays within budget_ma.
    # Works in place; returns the estimated current in mA after limiting.
    n = len(buf)
    if cap < 255:
        px_cap(buf, n, cap)
    total = sum(buf)
    if total * MA_PER_CHANNEL > budget_ma * 255:
        px_scale(buf, n, budget_ma * 255, total * MA_PER_CHANNEL)
        total = sum(buf)
    return total * MA_PER_CHANNEL // 255
