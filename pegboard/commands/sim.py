"""``pegboard sim``: the whole device in a terminal, on gpiozero's mock pins.

Interactive on a terminal: keys press the simulated buttons; the OLED frame is drawn as large
as the terminal allows (braille at 80x24, half blocks when there is room) with a text pegboard
and the key legend, and redrawn to fit when the terminal is resized. With ``--script FILE`` it
runs headless instead: the key script is pressed under a fake clock, every frame can be
written as PNG (``--frames DIR``) and the game record as JSON Lines (``--record FILE``, or
``DIR/game.jsonl``). When standard input is not a terminal and no script is given, it plays
the built-in demo and prints the frames.

The simulator never touches the real game: it uses its own store (``--store DIR`` to choose).

Everything named on the command line is checked before the first key is pressed: the script
is UTF-8 text of at most 1 MiB whose counts and waits are bounded (at most 50,000 presses, a
wait of at most an hour, a day of waiting in all), ``--frames`` is a folder (made if missing),
``--record`` a file in an existing folder, and each can be written.

``--voice`` says awards and counts aloud (see docs/voice.md); in a headless run ``--speech
DIR`` writes each announcement as ``DIR/0001.wav`` with its words in ``DIR/0001.txt``, and
``DIR/transcript.txt``: one announcement a line, after the key step that caused it (``12
right``, a tab, the words; audio mode's sounds as ``[click]``, ``[ok]``, ``[refused]``).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from pegboard import lazy
from pegboard.commands import collector, paths, phone_seats
from pegboard.commands.options import Option, Options
from pegboard.errors import PegboardError, not_utf8
from pegboard.rules import value

if TYPE_CHECKING:
    import argparse
    import tempfile
    from importlib import resources

    from pegboard import config as pegboard_config
    from pegboard.device import build
    from pegboard.hw import clock as hw_clock
    from pegboard.hw import oled
    from pegboard.sim import keys, script, splash
    from pegboard.sim import leds as sim_leds
    from pegboard.sim import session as sim_session
    from pegboard.sim import terminal as sim_terminal
    from pegboard.store import location
    from pegboard.ui import term as ui_term
    from pegboard.voice import espeak
    from pegboard.voice import setup as voice_setup
else:
    build = lazy.module("pegboard.device.build")
    pegboard_config = lazy.module("pegboard.config")
    resources = lazy.module("importlib.resources")
    script = lazy.module("pegboard.sim.script")
    espeak = lazy.module("pegboard.voice.espeak")
    hw_clock = lazy.module("pegboard.hw.clock")
    keys = lazy.module("pegboard.sim.keys")
    location = lazy.module("pegboard.store.location")
    oled = lazy.module("pegboard.hw.oled")
    sim_leds = lazy.module("pegboard.sim.leds")
    sim_session = lazy.module("pegboard.sim.session")
    sim_terminal = lazy.module("pegboard.sim.terminal")
    splash = lazy.module("pegboard.sim.splash")
    tempfile = lazy.module("tempfile")
    ui_term = lazy.module("pegboard.ui.term")
    voice_setup = lazy.module("pegboard.voice.setup")

if TYPE_CHECKING:
    from PIL import Image

    from pegboard.app.view import View
    from pegboard.config import Config
    from pegboard.hw.oled import OledDisplay
    from pegboard.sim.keys import KeyStep
    from pegboard.voice.hook import Transcript, VoiceHook

# The rest is imported where it is used: an interactive run draws its first frame (the
# splash) before the app, the engine and gpiozero are loaded.

MAX_SCRIPT_BYTES = 1 << 20
"""The largest key script read (the guide's, a whole game, is under 4 KiB)."""

MAX_PRESSES = 50_000
"""The most key steps a script may press, counts included (a whole game takes under 1,000;
each step costs about a millisecond)."""

MAX_WAIT_S = 3_600.0
"""The longest single ``wait:SECONDS`` (the longest in the shipped scripts is 800)."""

MAX_WAITING_S = 86_400.0
"""The most waiting a script may add up to (the fake clock still runs every idle deadline)."""


def register(parser: argparse.ArgumentParser) -> None:
    """The ``sim`` command's arguments (:data:`OPTIONS`)."""
    OPTIONS.add_to(parser)


def run(args: argparse.Namespace) -> int:
    """Interactive on a terminal; headless for scripts and when input is not a terminal."""
    _check_arguments(args)
    headless = bool(args.script or args.demo or not sys.stdin.isatty()
                    or not sys.stdout.isatty())
    if headless:
        return _headless(args, _config(args))
    splash.draw_splash(sys.stdout, Path(args.store) if args.store else _sim_store_path())
    with collector.Paused():  # until the simulator waits for its first key (_interactive)
        try:
            config = _config(args)
        except BaseException:  # the splash's screen is handed back before the message
            sys.stdout.write(splash.LEAVE)
            sys.stdout.flush()
            raise
        return _interactive(args, config)


def _config(args: argparse.Namespace) -> Config:
    """The configuration played: ``--config``'s file, else the defaults; ``--kit`` chooses
    the kit, and ``--voice`` or ``--speech`` turns the voice on."""
    config = (pegboard_config.load_config(args.config) if args.config
              else pegboard_config.Config())
    if args.kit:
        config = value.replace(config, input=value.replace(config.input, kit=args.kit))
    if args.voice or args.speech:
        config = value.replace(config, voice=value.replace(config.voice, enabled=True))
    return config


def demo_script(kit: str) -> str:
    """The built-in demo for ``kit`` (a scripted start of a game)."""
    name = "demo_keypad.txt" if kit == "keypad" else "demo_encoder.txt"
    return resources.files("pegboard.sim").joinpath(name).read_text(encoding="utf-8")


def _read_script(name: str) -> tuple[str, str]:
    """The key script's text and its name for messages (``-`` is standard input)."""
    if name == "-":
        # The bytes underneath, so a script that is not UTF-8 is refused the same way
        # whatever the locale (a test's StringIO has no buffer and is text already).
        binary = getattr(sys.stdin, "buffer", None)
        if binary is None:
            return sys.stdin.read(MAX_SCRIPT_BYTES + 1), "<stdin>"
        return _script_text(binary.read(MAX_SCRIPT_BYTES + 1), "<stdin>"), "<stdin>"
    try:
        with open(name, "rb") as stream:
            data = stream.read(MAX_SCRIPT_BYTES + 1)
    except OSError as error:
        raise PegboardError(f"cannot read the key script {paths.shown(name)}: "
                            f"{error.strerror or error}") from None
    return _script_text(data, name), name


def _script_text(data: bytes, source: str) -> str:
    if len(data) > MAX_SCRIPT_BYTES:
        raise PegboardError(f"{source}: the key script is larger than "
                            f"{MAX_SCRIPT_BYTES >> 20} MiB; a whole game takes a few KiB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise PegboardError(f"{source}: {not_utf8(data, error)}; a key script is UTF-8 text"
                            ) from None


# A whole number of 7 digits or more (the digits of a fraction, after ".", do not count).
_LONG_NUMBER = re.compile(r"(?<![.\d])\d{7,}")


def _parse_steps(text: str, source: str) -> list[KeyStep]:
    """The script's steps, refused when it would press or wait past the bounds above."""
    for number, line in enumerate(text.splitlines(), start=1):
        # Checked before parsing: Python refuses to read a number of 4,301 digits.
        long = _LONG_NUMBER.search(line.split("#", 1)[0])
        if long:
            digits = long.group() if len(long.group()) <= 12 else long.group()[:12] + "…"
            raise PegboardError(
                f"{source} line {number}: the number {digits} is too large; "
                f"allowed: at most {MAX_PRESSES:,} presses and {MAX_WAIT_S:,.0f} seconds "
                "per wait"
            )
    try:
        steps = keys.parse_script(text, source=source)
    except ValueError as error:
        message = str(error)  # it quotes the bad word, which may be very long
        raise PegboardError(message if len(message) <= 300 else message[:299] + "…") from None
    presses = sum(step.count for step in steps)
    if presses > MAX_PRESSES:
        raise PegboardError(f"{source}: {presses:,} key steps; allowed: at most "
                            f"{MAX_PRESSES:,} in one script")
    longest = max((step.seconds for step in steps), default=0.0)
    if longest > MAX_WAIT_S:
        raise PegboardError(f"{source}: a wait of {longest:,g} seconds; allowed: at most "
                            f"{MAX_WAIT_S:,.0f} (an hour) per wait")
    waiting = sum(step.seconds * step.count for step in steps)
    if waiting > MAX_WAITING_S:
        raise PegboardError(f"{source}: {waiting:,g} seconds of waiting in all; allowed: at "
                            f"most {MAX_WAITING_S:,.0f} (a day)")
    return steps


def _frames_folder(name: str) -> Path:
    """The ``--frames`` folder, made now (with its parents) so a bad one fails before work."""
    path = Path(name)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise paths.ArgumentError(f"cannot make the --frames folder {paths.shown(name)}: "
                            f"{error.strerror or error}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise paths.ArgumentError(f"cannot write in the --frames folder {paths.shown(name)}: "
                            "permission denied")
    return path


def _check_arguments(args: argparse.Namespace) -> None:
    """Every file and folder named on the command line, before anything is read or run."""
    named = ((args.config, paths.path_name), (args.script, paths.input_name),
             (args.store, paths.folder), (args.frames, paths.folder),
             (args.record, paths.output_file), (args.speech, paths.folder))
    for name, check in named:
        if name:
            check(name)
    if args.speech and not (args.script or args.demo):
        raise paths.ArgumentError("--speech writes the announcements of a headless run: "
                                  "give --script FILE (or --demo) with it")


def _headless(args: argparse.Namespace, config: Config) -> int:
    if args.script:
        text, source = _read_script(args.script)
    else:
        text, source = demo_script(config.input.kit), "the demo script"
    steps = _parse_steps(text, source)
    _check_kit(steps, config.input.kit, source)
    show = args.print_frames or not args.script
    frames_dir = _frames_folder(args.frames) if args.frames else None
    record = Path(args.record) if args.record else (
        frames_dir / "game.jsonl" if frames_dir else None)
    if record is not None and not args.record:
        paths.output_file(str(record))  # DIR/game.jsonl must not be a folder either
    count = 0

    def printed(view: View, image: Image.Image) -> None:
        nonlocal count
        count += 1
        if show:
            print(f"-- frame {count}: {view.screen.value} {view.title}".rstrip())
            print("\n".join(ui_term.frame_to_halfblocks(image)))

    speech: VoiceHook | None = None
    transcript: Transcript | None = None
    if args.speech:
        problem = espeak.voice_problem(config.voice, playing=False)
        if problem is not None:
            print(problem.replace("; the game goes on without a voice", ""), file=sys.stderr)
            return 1
        speech, transcript = voice_setup.speech_folder(Path(args.speech), config.voice)
    elif args.voice:
        speech = voice_setup.open_voice(config.voice, hw_clock.MonotonicClock(),
                                        lambda text: print(text, file=sys.stderr))
    with tempfile.TemporaryDirectory(prefix="pegboard-sim-") as scratch:
        store = build.open_store(Path(args.store) if args.store else Path(scratch) / "store",
                                 owner="pegboard sim")
        try:
            result = script.run_script(steps, config, store, frames_dir=frames_dir,
                                       record_path=record, on_frame=printed, speech=speech,
                                       before_step=_naming(transcript))
        finally:
            store.close()
    if transcript is not None:
        lines = transcript.lines()
        (Path(args.speech) / "transcript.txt").write_text(
            "".join(f"{line}\n" for line in lines), encoding="utf-8")
    last = result.views[-1] if result.views else None
    sides = next((v.sides for v in reversed(result.views) if v.sides), ())
    print("\n".join(sim_terminal.board_lines(last, sides, last.target if last else 121)))
    print(f"{result.steps_done} key steps, {len(result.frames)} frames"
          + (f", frames in {frames_dir}" if frames_dir else "")
          + (f", record in {record}" if record else "")
          + (f", {len(transcript.said)} announcements in {args.speech}" if transcript else ""))
    return 0


def _naming(transcript: Transcript | None) -> Callable[[int, KeyStep], None] | None:
    """What tells the transcript which key step is being pressed (None: no transcript)."""
    if transcript is None:
        return None
    kept = transcript

    def name(number: int, step: KeyStep) -> None:
        word = "wait" if step.key == "wait" else ("hold-" if step.hold else "") + step.key
        kept.cause = f"{number} {word}:{step.seconds:g}" if step.key == "wait" else (
            f"{number} {word}")

    return name


def _check_kit(steps: list[KeyStep], kit: str, source: str) -> None:
    for step in steps:
        if kit == "keypad" and step.key in ("right", "left"):
            raise PegboardError(f"{source}: {step.key!r} needs the encoder kit (--kit encoder)")
        if kit == "encoder" and step.key not in ("right", "left", "ok", "go", "undo", "menu",
                                                  "wait"):
            raise PegboardError(f"{source}: {step.key!r} is a keypad key (--kit keypad)")


def _interactive(args: argparse.Namespace, config: Config) -> int:
    directory = Path(args.store) if args.store else _sim_store_path()
    notices: list[str] = []
    playing = False  # once play starts, run_interactive hands the screen back itself
    try:
        clock = hw_clock.MonotonicClock()
        store = build.open_store(directory, owner="pegboard sim")
        leds = None
        try:
            if args.leds:
                leds = sim_leds.SimulatedBoard()
            mirror = _window() if args.window else None
            display = sim_terminal.TerminalDisplay(
                config.input.kit, extra=leds.status if leds else None, mirror=mirror)
            speech = build.voice_for(config.voice, clock, notices.append)
            # Pairing is on exactly when the phones' server can listen (docs/phones.md).
            listening = phone_seats.listen(args, config.phones, notices.append)
            config = build.with_phones(config, listening is not None)
            pairing = build.make_pairing(config, store)  # None unless phones are on
            sim = sim_session.Simulator(config, store, display, clock=clock, on_frame=display.frame,
                                        notice=notices.append, leds=leds.board if leds else None,
                                        speech=speech, phones=pairing,
                                        walk=leds.board if leds else None,
                                        status=(sim_terminal.StatusWatch(display) if leds
                                                else None))
            phones = phone_seats.start(listening, sim.loop, store)
            if phones is not None and pairing is not None:
                pairing.serving(phones.address[1])  # the QR codes name the port served
            try:
                playing = True
                sim_terminal.run_interactive(sim, display, sys.stdin, entered=True,
                                             ready=collector.ready)
            finally:
                if phones is not None:
                    phones.stop()
                sim.close()
        finally:
            if leds is not None:
                leds.close()
            store.close()
    finally:
        if not playing:  # the splash's screen is handed back before any message
            sys.stdout.write(splash.LEAVE)
            sys.stdout.flush()
    for text in notices:
        print(text, file=sys.stderr)
    print(f"Game saved in {directory}")
    return 0


def _window() -> OledDisplay | None:
    device = oled.open_emulator()
    if device is None:
        print("no luma.emulator window (pip install luma.emulator, and a desktop); "
              "the terminal view carries on", file=sys.stderr)
        return None
    return oled.OledDisplay(device)


def _sim_store_path() -> Path:
    real = location.find_store_path(None)
    return real.with_name(real.name + "-sim")


OPTIONS = Options((
    Option("--kit", "input kit to simulate (default: the config's, else encoder)",
           choices=("encoder", "keypad")),
    Option("--config", "config file to use (default: built-in defaults)", metavar="PATH"),
    Option("--store", "game store directory (default: a simulator store, or a fresh temporary "
           "one for scripts)", metavar="DIR"),
    Option("--script", "run this key script headless ('-' reads standard input)",
           metavar="FILE"),
    Option("--demo", "run the built-in demo script headless and print its frames", flag=True),
    Option("--frames", "write every frame as PNG here", metavar="DIR"),
    Option("--record", "write the game record (JSON Lines) here", metavar="FILE"),
    Option("--print", "print every frame in half blocks (headless runs)", dest="print_frames",
           flag=True),
    Option("--window", "also show the frames in a luma.emulator window (needs the "
           "luma.emulator package and a desktop)", flag=True),
    Option("--voice", "say awards and counts aloud through espeak-ng (turns the config's "
           "[voice] on)", flag=True),
    Option("--speech", "headless runs: write each announcement here as a numbered WAV "
           "(0001.wav) with its words beside it (0001.txt)", metavar="DIR"),
    *phone_seats.OPTIONS,
    Option("--leds", "run the LED board's firmware under MicroPython and drive it over the "
           "real serial link (interactive runs)", flag=True),
), run)
"""The ``sim`` command's options: plain, so a start is read without argparse
(:mod:`pegboard.commands.options`)."""
