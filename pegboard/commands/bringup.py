"""``pegboard bringup``: check each stage of the box at the bench, one at a time.

``buttons``, ``encoder`` and ``keypad`` print every switch edge with the GPIO and the header
pin it came in on (a keypad key with its row and column pins), so a swapped wire shows as a
line that names the wrong pin or the wrong direction; ``oled`` puts the test pattern on the
panel; ``leds`` walks one LED at a time along the strip's chain and says which hole of which
track each one is. The pins, the panel and the strip's layout are the config file's
(``--config``, else ``/etc/pegboard/config.toml``).

The service holds the same pins, the panel and the Pico's port while it runs: stop it first
(``sudo systemctl stop pegboard``). The input probes run until Ctrl-C or ``--seconds``.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import queue
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

from pegboard.config import load_config
from pegboard.errors import LinkError, PegboardError
from pegboard.hw.bringup import (
    KEYPAD_MEANINGS,
    Detent,
    EncoderProbe,
    KeyEdge,
    KeypadProbe,
    PinsUnavailable,
    Probed,
    SwitchEdge,
    SwitchProbe,
    button_switches,
    oled_pattern,
)
from pegboard.hw.clock import MonotonicClock
from pegboard.hw.inputs import ButtonPins, EncoderPins, KeypadPins
from pegboard.hw.oled import OledDisplay, open_dummy, open_oled
from pegboard.link.board import BoardState
from pegboard.link.fwsim import pump
from pegboard.link.layout import led_config_from
from pegboard.link.serial_link import LinkState, SerialLink
from pegboard.link.walk import walk_order, walk_step
from pegboard.link.wiring import BCM_TO_HEADER

if TYPE_CHECKING:
    from pegboard.config import Config

STAGES = ("buttons", "encoder", "keypad", "oled", "leds")

STOP_SERVICE = "(is the service running? stop it first: sudo systemctl stop pegboard)"

def register(parser: argparse.ArgumentParser) -> None:
    """The ``bringup`` command's arguments."""
    parser.description = __doc__.split("\n\n")[1] if __doc__ else None
    parser.add_argument("stage", choices=STAGES,
                        help="what to check: buttons, encoder, keypad, oled or leds")
    parser.add_argument("--config", metavar="PATH",
                        help="config file (default /etc/pegboard/config.toml; missing = "
                             "all defaults)")
    parser.add_argument("--seconds", type=float, default=None, metavar="S",
                        help="stop after S seconds (default: at Ctrl-C; oled: show the "
                             "pattern this long, then leave it lit)")
    parser.add_argument("--display", choices=("oled", "dummy"), default="oled",
                        help="oled: the I2C panel (default) or luma's dummy device")
    parser.add_argument("--device", default=None, metavar="PATH",
                        help="leds: the Pico's serial device, or 'auto' (default: the "
                             "config's [link] device)")
    parser.add_argument("--pause", type=float, default=0.25, metavar="S",
                        help="leds: seconds each LED stays lit (default 0.25)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run one bring-up stage; 0 when it ran, 2 (a clear message) when it could not."""
    config = load_config(args.config)
    if args.seconds is not None and args.seconds < 0:
        raise PegboardError(f"--seconds {args.seconds:g} is negative")
    if args.stage == "oled":
        return show_pattern(config, args.display, args.seconds or 0.0)
    if args.stage == "leds":
        if not 0 <= args.pause <= 10:
            raise PegboardError(f"--pause {args.pause:g} is not 0-10 seconds")
        return walk_leds(config, args.device, args.pause)
    clock = MonotonicClock()
    deadline = None if args.seconds is None else clock.now() + args.seconds
    inbox: queue.Queue[Probed] = queue.Queue()
    probe: SwitchProbe | EncoderProbe | KeypadProbe
    try:  # the pins open here: a pin in use says so, with how to free it
        if args.stage == "buttons":
            pins = ButtonPins(config.input.button_go, config.input.button_undo,
                              config.input.button_menu)
            probe = SwitchProbe(button_switches(pins), inbox.put, clock)
            print("Press each button: GO, UNDO, MENU. Ctrl-C stops.", flush=True)
        elif args.stage == "encoder":
            probe = EncoderProbe(encoder_pins(config), inbox.put, clock)
            print("Turn the knob clockwise one detent at a time, then anticlockwise, then "
                  "press it. Ctrl-C stops.", flush=True)
        else:
            probe = KeypadProbe(keypad_pins(config), clock)
            print("Press every key, 1 to D, one at a time. Ctrl-C stops.", flush=True)
    except PinsUnavailable as error:
        raise PinsUnavailable(f"{error} {STOP_SERVICE}") from error
    try:
        watch(inbox, sys.stdout, until=lambda: deadline is not None and clock.now() >= deadline,
              poll=probe.poll if isinstance(probe, KeypadProbe) else None)
    except KeyboardInterrupt:
        pass
    finally:
        probe.close()
    return 0


def encoder_pins(config: Config) -> EncoderPins:
    """The encoder kit's pins as the config names them."""
    i = config.input
    return EncoderPins(i.encoder_a, i.encoder_b, i.encoder_push, i.button_go, i.button_undo,
                       i.button_menu)


def keypad_pins(config: Config) -> KeypadPins:
    """The keypad's pins as the config names them."""
    rows, cols = config.input.keypad_rows, config.input.keypad_cols
    return KeypadPins((rows[0], rows[1], rows[2], rows[3]), (cols[0], cols[1], cols[2], cols[3]))


def watch(inbox: queue.Queue[Probed], out: TextIO, *, until: Callable[[], bool],
          poll: Callable[[], list[KeyEdge]] | None = None, period: float = 0.01) -> None:
    """Print what the probes report until ``until()``: the queue's items (gpiozero's
    callbacks), and, for the keypad, what each scan (``poll``) found."""
    while not until():
        found: list[Probed] = list(poll()) if poll is not None else []
        with contextlib.suppress(queue.Empty):
            found.append(inbox.get(timeout=period))
        for item in found:
            print(describe(item), file=out, flush=True)


def pin_words(bcm: int) -> str:
    """A GPIO as the builder finds it: its BCM number and its pin on the 40-pin header."""
    header = BCM_TO_HEADER.get(bcm)
    return f"GPIO {bcm}" + ("" if header is None else f", header pin {header}")


def describe(item: Probed) -> str:
    """One probe report as one line."""
    if isinstance(item, SwitchEdge):
        return f"{item.name} {'pressed' if item.pressed else 'released'} ({pin_words(item.pin)})"
    if isinstance(item, Detent):
        turn = "clockwise" if item.direction > 0 else "anticlockwise"
        return f"{turn:<13} one detent, count {item.count:+d}"
    ribbon_row, ribbon_col = item.row, 4 + item.col
    return (f"key {item.legend} {'down' if item.pressed else 'up'}: "
            f"row {item.row} ({pin_words(item.row_pin)}, ribbon wire {ribbon_row}) x "
            f"column {item.col} ({pin_words(item.col_pin)}, ribbon wire {ribbon_col}); "
            f"in a game: {KEYPAD_MEANINGS[item.legend]}")


def show_pattern(config: Config, kind: str, seconds: float) -> int:
    """Put the test pattern on the panel the config names and leave it lit."""
    d = config.display
    try:
        device = (open_dummy(d.rotate) if kind == "dummy"
                  else open_oled(d.model, port=d.i2c_port, address=d.i2c_address,
                                 rotate=d.rotate))
    except PegboardError as error:
        raise PegboardError(f"{error} {STOP_SERVICE}") from error
    display = OledDisplay(device)
    pattern = oled_pattern()
    display.show(pattern)
    print(f"OLED: {d.model} at {d.i2c_address:#04x} on I2C bus {d.i2c_port}, rotate "
          f"{d.rotate}: the test pattern is on the panel.\n"
          "Check: the frame shows on all four edges (an edge missing or noise at one side: an "
          "SH1106 set as ssd1306, or the other way round); the triangle is top left (else "
          "display.rotate = 2); the checkerboard is even.", flush=True)
    time.sleep(seconds)  # a person looks at the panel; nothing here waits on it
    display.close(pattern)
    return 0


def _shows(link: SerialLink, board: BoardState) -> bool:
    return link.shown == board


def walk_leds(config: Config, device: str | None, pause: float) -> int:
    """Light each LED of the chain in turn on the LED board."""
    cfg = led_config_from(config.leds)
    device = device if device is not None else config.link.device
    if not device:
        raise LinkError("no LED board: give --device (a path under /dev/, or auto) or set "
                        "[link] device in the config")
    link = SerialLink(device, config=cfg, serial_number=config.link.serial_number or None)
    try:
        up = pump(link, lambda: link.state in (LinkState.UP, LinkState.MISMATCH), timeout=10)
        if link.state is LinkState.MISMATCH or not up:
            raise LinkError(f"{link.status} {STOP_SERVICE}")
        order = walk_order(cfg)
        # The config's count may have LEDs past the game hole's that no hole uses (a strip
        # cut long): the walk lights only the board's, and says how many.
        print(f"Connected: firmware {link.firmware_version}. Walking the {len(order)} LEDs "
              "the board uses along the chain; a dark LED, or a row lit the wrong way, is "
              "where the strip is broken or reversed.", flush=True)
        for led, side, hole in order:
            line, board = walk_step(cfg, led, side, hole)
            print(line, flush=True)
            link.show(board)
            if not pump(link, functools.partial(_shows, link, board), timeout=5):
                raise LinkError(f"the board did not show LED {led}: {link.status}")
            pump(link, lambda: False, timeout=pause)
        link.show(BoardState.start(cfg.tracks))
        pump(link, lambda: link.in_sync, timeout=5)
        if not link.in_sync:
            raise LinkError(f"the board did not keep up: {link.status}")
        print("Done: every LED of the chain was lit once.")
    except KeyboardInterrupt:
        pass
    finally:
        link.close()
    return 0

