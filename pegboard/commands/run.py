"""``pegboard run``: the real device — gpiozero inputs, the OLED, the store, the LED board.

Reads the TOML config (``--config``, else ``/etc/pegboard/config.toml``; a bad key or value
stops here with a message naming it and exit status 2). Tells systemd it is ready once the
hardware is set up, pings the watchdog from the loop, and on SIGTERM or a "Shut down" from the
menu leaves the "game saved" frame on the screen.

A stored game that cannot be read whole never stops the start: the store restores what it can
and keeps the whole file aside, and the first screen says so. A store that cannot be used at
all (in use by another process, a full disk, a lock file that is a link, a read-only or
RAM-only file system that would lose every game) is an error with exit status 2; its message
goes to the journal and, when the panel can be opened, to the screen.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import signal
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from pegboard import lazy
from pegboard.commands import collector, phone_seats
from pegboard.commands.options import Option, Options
from pegboard.config import load_config
from pegboard.errors import PegboardError, StoreError
from pegboard.hw.oled import OledDisplay, open_dummy, open_emulator, open_oled
from pegboard.service.logs import setup_logging

if TYPE_CHECKING:
    import argparse

    import pegboard.service.notify as service_notify
    from pegboard.app import view as app_view
    from pegboard.device import bench, build, writable
    from pegboard.device import loop as device_loop
    from pegboard.hw import clock as hw_clock
    from pegboard.service import power
    from pegboard.store import location, peek
    from pegboard.ui import render, splash
else:
    app_view = lazy.module("pegboard.app.view")
    bench = lazy.module("pegboard.device.bench")
    build = lazy.module("pegboard.device.build")
    device_loop = lazy.module("pegboard.device.loop")
    hw_clock = lazy.module("pegboard.hw.clock")
    location = lazy.module("pegboard.store.location")
    service_notify = lazy.module("pegboard.service.notify")
    peek = lazy.module("pegboard.store.peek")
    power = lazy.module("pegboard.service.power")
    render = lazy.module("pegboard.ui.render")
    splash = lazy.module("pegboard.ui.splash")
    writable = lazy.module("pegboard.device.writable")

if TYPE_CHECKING:
    from pegboard.config import Config

# The rest of the device (the app, the rules engine, gpiozero, the store's writer) is
# imported once the panel shows the first frame: a splash with the game being restored.

log = logging.getLogger("pegboard.run")


def register(parser: argparse.ArgumentParser) -> None:
    """The ``run`` command's arguments (:data:`OPTIONS`)."""
    OPTIONS.add_to(parser)


def run(args: argparse.Namespace,
        check: Callable[[Path], str | None] | None = None) -> int:
    """Run until SIGTERM, Ctrl-C or "Shut down"; returns the exit status.

    ``check`` says why the store's directory could not keep games (a read-only or RAM-only
    file system; :func:`pegboard.device.writable.store_problem` by default); then nothing
    starts, and the reason goes to the journal and the screen.
    """
    with collector.Paused():  # until the board is ready (_play)
        config = load_config(args.config)
        setup_logging()
        path = location.find_store_path(args.store, configured=config.store.path)
        display = _first_frame(args.display, config, path)

        try:
            problem = (check or writable.store_problem)(path)
            if problem is not None:
                raise StoreError(problem)
            store = build.open_store(path, owner="pegboard run")
        except StoreError as error:
            log.error("cannot start: %s", error)
            show_fatal(args.display, config, error, display)
            raise
        try:
            powering_off = _play(args, config, store, display)
        finally:
            store.close()
    if powering_off:
        power.request_poweroff()
    return 0


def _first_frame(kind: str, config: Config, store: Path) -> OledDisplay | None:
    """Open the panel and show the splash with the game the store holds (None, logged, when
    the panel cannot be opened: it is tried again, with its error, once the rest is loaded)."""
    try:
        display = OledDisplay(_open_display(kind, config.display.model, config.display.i2c_port,
                                            config.display.i2c_address, config.display.rotate))
    except (PegboardError, OSError) as error:
        log.warning("could not open the display for the first frame: %s", error)
        return None
    seen = peek.glance(store)
    display.show(splash.splash(seen.players, seen.scores) if seen is not None else splash.splash())
    return display


def _play(args: argparse.Namespace, config: Config, store: Any,
          display: OledDisplay | None) -> bool:
    """Play until told to stop; whether "Shut down" asked for the power to go off."""
    clock = hw_clock.MonotonicClock()
    if display is None:
        display = OledDisplay(_open_display(args.display, config.display.model,
                                            config.display.i2c_port, config.display.i2c_address,
                                            config.display.rotate))
    # Pairing is on exactly when the phones' server can listen (docs/phones.md).
    listening = phone_seats.listen(args, config.phones, log.error)
    config = build.with_phones(config, listening is not None)
    # A SimpleQueue: its put is reentrant, so the SIGTERM handler below may put while the
    # main thread it interrupts is inside the loop's get. A Queue's put would wait for the lock
    # that very get holds, and the board would never stop.
    inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
    kit = build.make_kit(config.input, inbox.put, clock)
    log.info("input: %s; display: %s", build.describe_kit(config.input), args.display)
    leds = build.make_leds(config)
    state = build.initial_state(config, store)  # the store has logged its notices itself
    # A missing espeak-ng or sound card is logged and the game goes on silently; with the
    # voice off it is loaded only if a player turns audio mode on.
    speech = build.voice_for(config.voice, clock, log.warning)
    pairing = build.make_pairing(config, store)  # None unless phones are on
    tests = device_loop.Bringup(  # "Test the box", from the home menu
        open=lambda now: bench.Bench(config, inbox.put, clock, leds=leds),
        kit=lambda: build.make_kit(config.input, inbox.put, clock))
    loop = device_loop.DeviceLoop(build.APP, state, kit=kit, inbox=inbox, display=display,
                                  store=store, clock=clock,
                                  observers=build.outputs(
                                      speech, leds, pairing,
                                      build.make_club_watch(config)),
                                  contrast=config.display.contrast,
                                  watchdog=service_notify.Watchdog.from_environ(),
                                  bringup=tests)

    def stop(signum: int, frame: FrameType | None) -> None:
        inbox.put(device_loop.STOP)

    signal.signal(signal.SIGTERM, stop)
    loop.start()
    phones = phone_seats.start(listening, loop, store)
    if phones is not None and pairing is not None:
        pairing.serving(phones.address[1])  # the QR codes name the port served
    collector.ready()
    service_notify.ready()
    log.info("ready")
    try:
        with contextlib.suppress(KeyboardInterrupt):
            loop.run()
    finally:
        if phones is not None:
            phones.stop()
    service_notify.stopping()
    loop.close()
    log.info("game saved; stopped")
    return loop.powering_off


def show_fatal(kind: str, config: Config, error: PegboardError,
               display: OledDisplay | None = None) -> None:
    """Leave why Pegboard cannot start on the panel, so the box does not just stay dark.

    Best effort: a panel that cannot be opened is only logged (the error itself already is).
    """
    try:
        if display is None:
            display = OledDisplay(_open_display(kind, config.display.model,
                                                config.display.i2c_port,
                                                config.display.i2c_address,
                                                config.display.rotate))
        display.close(render.render(app_view.View(app_view.Screen.MESSAGE, title="Cannot start",
                                                  lines=(str(error),))))
    except (PegboardError, OSError) as problem:
        log.warning("could not show the error on the display: %s", problem)


def _open_display(kind: str, model: str, port: int, address: int, rotate: int) -> Any:
    if kind == "dummy":
        return open_dummy(rotate)
    if kind == "emulator":
        device = open_emulator()
        if device is None:
            log.warning("luma.emulator is not available; using the dummy display")
            return open_dummy(rotate)
        return device
    return open_oled(model, port=port, address=address, rotate=rotate)


OPTIONS = Options((
    Option("--config", "config file (default /etc/pegboard/config.toml; missing = all "
           "defaults)", metavar="PATH"),
    Option("--store", "game store directory (default: $PEGBOARD_STORE, the config's [store] "
           "path, $STATE_DIRECTORY, ~/.local/share/pegboard)", metavar="DIR"),
    Option("--display", "where frames go: the I2C panel (default), luma's dummy device "
           "(nothing shown), or a luma.emulator window", choices=("oled", "dummy", "emulator"),
           default="oled"),
    *phone_seats.OPTIONS,
), run)
"""The ``run`` command's options: plain, so a start is read without argparse
(:mod:`pegboard.commands.options`)."""
