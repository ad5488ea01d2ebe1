# Pegboard LED board firmware: entry point (runs at boot on the Pico).
#
# One loop: read what the host sent, answer it, advance the animations, push a frame to the
# strip when it changed, then wait briefly for more input. Errors inside one pass are counted
# and survived so the board never stops.
#
# Ctrl-C is off while the loop runs (a stray 0x03 on the link must not stop the board). To get
# the REPL back, send three Ctrl-C in a row, or let mpremote ("Ctrl-C, CR, Ctrl-A"), rshell or
# Thonny ("Ctrl-C, Ctrl-A") send their own: the loop ends, Ctrl-C is on again, and the board
# goes dark. Without a serial tool: BOOTSEL pressed when main.py starts skips the loop, and
# BOOTSEL held for a second stops it (see firmware/README.md).

import gc
import time

import pb_app
import pb_hw
import pb_layout

FRAME_MS = 20
BOOTSEL = b"BOOTSEL"  # what stopped the loop, when it was the button
BOOTSEL_HOLD_MS = 1000  # held this long while the loop runs, BOOTSEL stops it
BOOTSEL_POLL_MS = 100  # reading the button pauses the flash for a moment: not every pass


def run(serial, strip, ticks_ms, bootsel=None):
    app = pb_app.App(ticks_ms())
    escape = pb_app.Escape()
    frame_us = None
    polled = pressed = None
    while True:
        try:
            started = time.ticks_us()
            now = ticks_ms()
            if bootsel is not None and (
                    polled is None or time.ticks_diff(now, polled) >= BOOTSEL_POLL_MS):
                polled = now
                if not bootsel():
                    pressed = None
                elif pressed is None:
                    pressed = now
                elif time.ticks_diff(now, pressed) >= BOOTSEL_HOLD_MS:
                    return BOOTSEL, app.cfg["n"]
            data = serial.read()
            if data:
                if escape.feed(data):
                    return escape.seen, app.cfg["n"]
                app.feed(data, now)
            ticked = time.ticks_us()
            frame = app.tick(now)
            out = app.take_output()
            if out:
                serial.write(out)
            else:
                serial.flush()
            if frame is not None:
                strip.show(frame, now, app.current_ma)
                frame_us = time.ticks_diff(time.ticks_us(), ticked)
            strip.alive(not app.lost(now))
            app.note_pass(time.ticks_diff(time.ticks_us(), started), frame_us, gc.mem_free(),
                          serial.dropped)
            frame_us = None
            if serial.hangup and not pb_hw.sys.platform == "rp2":
                return None, 0  # unix port: the other end of the pseudo-terminal is gone for good
            serial.wait(FRAME_MS)
        except KeyboardInterrupt:
            raise
        except Exception:  # noqa: BLE001 - the board must keep running
            app.errors += 1


def main():
    serial, strip, ticks_ms = pb_hw.make()
    bootsel = pb_hw.bootsel()
    if bootsel is not None and bootsel():
        # Pressed as the board starts: the loop never runs and Ctrl-C was never turned off.
        pb_hw.hand_back(BOOTSEL, strip, ticks_ms(), pb_layout.DEFAULT_CFG["n"])
        return
    pb_hw.keyboard_interrupt(False)
    try:
        seen, leds = run(serial, strip, ticks_ms, bootsel)
    finally:
        pb_hw.keyboard_interrupt(True)
    if seen is not None:
        pb_hw.hand_back(seen, strip, ticks_ms(), leds)


if __name__ == "__main__":
    main()
