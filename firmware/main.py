# Pegboard LED board firmware: entry point (runs at boot on the Pico).
#
# One loop: read what the host sent, answer it, advance the animations, push a frame to the
# strip when it changed, then wait briefly for more input. Errors inside one pass are counted
# and survived so the board never stops.
#
# Ctrl-C is off while the loop runs (a stray 0x03 on the link must not stop the board). To get
# the REPL back (for mpremote), send three Ctrl-C in a row, or let mpremote send its own
# "Ctrl-C, CR, Ctrl-A": the loop ends, Ctrl-C is on again, and the board goes dark.

import gc
import time

import pb_app
import pb_hw

FRAME_MS = 20


def run(serial, strip, ticks_ms):
    app = pb_app.App(ticks_ms())
    escape = pb_app.Escape()
    frame_us = None
    while True:
        try:
            started = time.ticks_us()
            now = ticks_ms()
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
    pb_hw.keyboard_interrupt(False)
    try:
        seen, leds = run(serial, strip, ticks_ms)
    finally:
        pb_hw.keyboard_interrupt(True)
    if seen is not None:
        pb_hw.hand_back(seen, strip, ticks_ms(), leds)


if __name__ == "__main__":
    main()
