"""``pegboard sim``: the whole device in a terminal, on gpiozero's mock pins.

Interactive on a terminal: keys press the simulated buttons; the OLED frame is drawn as large
as the terminal allows (braille at 80x24, half blocks when there is room) with a text pegboard
and the key legend, and redrawn to fit when the terminal is resized. With ``--script FILE`` it
runs headless instead: the key script is pressed under a fake clock, every frame can be
written as PNG (``--frames DIR``) and the game record as JSON Lines (``--record FILE``, or
``DIR/game.jsonl``). When standard input is not a terminal and no script is given, it plays
the built-in demo and prints the frames.

The simulator never touches the real game: it uses its own store (``--store DIR`` to choose).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import replace
from importlib import resources
from pathlib import Path

from PIL import Image

from pegboard.app.view import View
from pegboard.config import Config, load_config
from pegboard.errors import PegboardError
from pegboard.hw.clock import MonotonicClock
from pegboard.hw.oled import OledDisplay, open_emulator
from pegboard.sim.script import run_script
from pegboard.sim.session import Simulator
from pegboard.sim.terminal import TerminalDisplay, board_lines, run_interactive
from pegboard.store import Store, find_store_path
from pegboard.testing import KeyStep, parse_script
from pegboard.ui.term import frame_to_halfblocks


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``sim`` subcommand."""
    parser = subparsers.add_parser(
        "sim", help="play on the simulated device in this terminal",
        description="The Pegboard device simulated in a terminal: the real app and gpiozero "
                    "input code on mock pins, the OLED drawn to fit the terminal.",
    )
    parser.add_argument("--kit", choices=("encoder", "keypad"),
                        help="input kit to simulate (default: the config's, else encoder)")
    parser.add_argument("--config", metavar="PATH",
                        help="config file to use (default: built-in defaults)")
    parser.add_argument("--store", metavar="DIR",
                        help="game store directory (default: a simulator store, or a fresh "
                             "temporary one for scripts)")
    parser.add_argument("--script", metavar="FILE",
                        help="run this key script headless ('-' reads standard input)")
    parser.add_argument("--demo", action="store_true",
                        help="run the built-in demo script headless and print its frames")
    parser.add_argument("--frames", metavar="DIR", help="write every frame as PNG here")
    parser.add_argument("--record", metavar="FILE",
                        help="write the game record (JSON Lines) here")
    parser.add_argument("--print", dest="print_frames", action="store_true",
                        help="print every frame in half blocks (headless runs)")
    parser.add_argument("--window", action="store_true",
                        help="also show the frames in a luma.emulator window (needs the "
                             "luma.emulator package and a desktop)")
    parser.add_argument("--leds", action="store_true",
                        help="run the LED board's firmware under MicroPython and drive it over "
                             "the real serial link (interactive runs)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Interactive on a terminal; headless for scripts and when input is not a terminal."""
    config = load_config(args.config) if args.config else Config()
    if args.kit:
        config = replace(config, input=replace(config.input, kit=args.kit))
    if args.script or args.demo or not sys.stdin.isatty() or not sys.stdout.isatty():
        return _headless(args, config)
    return _interactive(args, config)


def demo_script(kit: str) -> str:
    """The built-in demo for ``kit`` (a scripted start of a game)."""
    name = "demo_keypad.txt" if kit == "keypad" else "demo_encoder.txt"
    return resources.files("pegboard.sim").joinpath(name).read_text(encoding="utf-8")


def _headless(args: argparse.Namespace, config: Config) -> int:
    if args.script == "-":
        text, source = sys.stdin.read(), "<stdin>"
    elif args.script:
        path = Path(args.script)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as error:
            raise PegboardError(f"cannot read the key script {path}: "
                                f"{error.strerror or error}") from None
        source = str(path)
    else:
        text, source = demo_script(config.input.kit), "the demo script"
    try:
        steps = parse_script(text, source=source)
    except ValueError as error:
        raise PegboardError(str(error)) from None
    _check_kit(steps, config.input.kit, source)
    show = args.print_frames or not args.script
    frames_dir = Path(args.frames) if args.frames else None
    record = Path(args.record) if args.record else (
        frames_dir / "game.jsonl" if frames_dir else None)
    count = 0

    def printed(view: View, image: Image.Image) -> None:
        nonlocal count
        count += 1
        if show:
            print(f"-- frame {count}: {view.screen.value} {view.title}".rstrip())
            print("\n".join(frame_to_halfblocks(image)))

    with tempfile.TemporaryDirectory(prefix="pegboard-sim-") as scratch:
        store = Store(Path(args.store) if args.store else Path(scratch) / "store",
                      owner="pegboard sim")
        try:
            result = run_script(steps, config, store, frames_dir=frames_dir,
                                record_path=record, on_frame=printed)
        finally:
            store.close()
    last = result.views[-1] if result.views else None
    sides = next((v.sides for v in reversed(result.views) if v.sides), ())
    print("\n".join(board_lines(last, sides, last.target if last else 121)))
    print(f"{result.steps_done} key steps, {len(result.frames)} frames"
          + (f", frames in {frames_dir}" if frames_dir else "")
          + (f", record in {record}" if record else ""))
    return 0


def _check_kit(steps: list[KeyStep], kit: str, source: str) -> None:
    for step in steps:
        if kit == "keypad" and step.key in ("right", "left"):
            raise PegboardError(f"{source}: {step.key!r} needs the encoder kit (--kit encoder)")
        if kit == "encoder" and step.key not in ("right", "left", "ok", "go", "undo", "menu",
                                                  "wait"):
            raise PegboardError(f"{source}: {step.key!r} is a keypad key (--kit keypad)")


def _interactive(args: argparse.Namespace, config: Config) -> int:
    directory = Path(args.store) if args.store else _sim_store_path()
    clock = MonotonicClock()
    store = Store(directory, owner="pegboard sim")
    leds = None
    notices: list[str] = []
    try:
        if args.leds:
            from pegboard.sim.leds import SimulatedBoard

            leds = SimulatedBoard()
        mirror = _window() if args.window else None
        display = TerminalDisplay(config.input.kit, extra=leds.status if leds else None,
                                  mirror=mirror)
        sim = Simulator(config, store, display, clock=clock, on_frame=display.frame,
                        notice=notices.append, leds=leds.board if leds else None)
        try:
            run_interactive(sim, display, sys.stdin)
        finally:
            sim.close()
    finally:
        if leds is not None:
            leds.close()
        store.close()
    for text in notices:
        print(text, file=sys.stderr)
    print(f"Game saved in {directory}")
    return 0


def _window() -> OledDisplay | None:
    device = open_emulator()
    if device is None:
        print("no luma.emulator window (pip install luma.emulator, and a desktop); "
              "the terminal view carries on", file=sys.stderr)
        return None
    return OledDisplay(device)


def _sim_store_path() -> Path:
    real = find_store_path(None)
    return real.with_name(real.name + "-sim")
