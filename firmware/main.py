# Pegboard LED board firmware: entry point (runs at boot on the Pico).
#
# One loop: read what the host sent, answer it, advance the animations, push a frame to the
# strip when it changed, then wait briefly for more input. Errors inside one pass are counted
# and survived so the board never stops; KeyboardInterrupt (Ctrl-C from mpremote) still stops
# it so new firmware can be copied in.

import pb_app
import pb_hw

FRAME_MS = 20


def run():
    serial, strip, ticks_ms = pb_hw.make()
    app = pb_app.App(ticks_ms())
    while True:
        try:
            now = ticks_ms()
            data = serial.read()
            if data:
                app.feed(data, now)
            frame = app.tick(now)
            out = app.take_output()
            if out:
                serial.write(out)
            if frame is not None:
                strip.show(frame, now, app.current_ma)
            strip.alive(not app.lost(now))
            if serial.hangup and not pb_hw.sys.platform == "rp2":
                return  # unix port: the other end of the pseudo-terminal is gone for good
            serial.wait(FRAME_MS)
        except KeyboardInterrupt:
            raise
        except Exception:  # noqa: BLE001 - the board must keep running
            app.errors += 1


run()
