"""``pegboard leds``: light a test pattern, flash the Pico, run the firmware on the desktop,
and draw the board and wiring diagrams.

``demo`` and ``flash`` talk to a real board (``--device`` a path such as
``/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_...-if00``, or ``auto``); ``sim`` runs the
same firmware under MicroPython's unix port on a pseudo-terminal, so ``demo --device`` works
against it too; ``svg`` writes the drawings in ``hardware/`` from the layout table.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from pegboard.commands import paths
from pegboard.errors import LinkError
from pegboard.link.board import BoardState
from pegboard.link.drawings import DRAWINGS, render_ansi
from pegboard.link.fwsim import FIRMWARE_DIR, FirmwareProcess, pump, tool
from pegboard.link.layout import LedConfig
from pegboard.link.serial_link import LinkState, SerialLink

HOW_TO_CONNECT = """\
No LED board given. To light the LED pegboard:
  1. Flash MicroPython on the Pico (hold BOOTSEL, plug it in, copy the RP2040 .uf2 file).
  2. Copy the firmware:      pegboard leds flash --device auto
  3. Run the test pattern:   pegboard leds demo --device auto
     (or --device /dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_<serial>-if00)
No Pico at hand? `pegboard leds sim` runs the firmware on this computer and prints a device
path that `pegboard leds demo --device PATH` can use. Wiring: hardware/README.md."""

#: The device's service, which holds the LED board's serial port while it runs.
SERVICE = "pegboard.service"

#: Where ``systemd/install.sh`` puts the firmware on a Pi (the checkout's copy comes first).
INSTALLED_FIRMWARE = Path("/opt/pegboard/firmware")

Systemctl = Callable[[list[str]], int]
"""Runs ``systemctl ARGS...`` and returns its exit status."""


def default_firmware() -> Path:
    """The firmware folder: the checkout's, else the one the installer puts on the Pi."""
    return FIRMWARE_DIR if FIRMWARE_DIR.is_dir() else INSTALLED_FIRMWARE


#: The folder systemd makes when it boots the system, and only then (``sd_booted(3)``).
SYSTEMD_RUNTIME = Path("/run/systemd/system")

#: What :func:`systemctl` returns on a system that systemd does not run.
NO_SYSTEMD = 127

#: Said once when there is no service manager to ask: no service can hold the port.
NO_SYSTEMD_NOTE = (f"This system does not run systemd, so no {SERVICE} holds the LED board's "
                   "serial port: nothing to stop")


def systemctl(arguments: list[str]) -> int:
    """``systemctl ARGS...`` from PATH; :data:`NO_SYSTEMD` without running it when there is
    no ``systemctl`` or systemd did not boot this system (a desktop without it, a container, a
    chroot), where it could only say that it cannot operate."""
    program = shutil.which("systemctl")
    if program is None or not SYSTEMD_RUNTIME.is_dir():
        return NO_SYSTEMD
    return subprocess.run([program, *arguments], check=False).returncode


#: Firmware files copied to the Pico, main.py last so a half-finished copy never boots.
FIRMWARE_FILES = ("pb_proto.py", "pb_layout.py", "pb_render.py", "pb_app.py", "pb_hw.py",
                  "main.py")


def register(parser: argparse.ArgumentParser) -> None:
    """The ``leds`` command's actions and their arguments."""
    sub = parser.add_subparsers(dest="leds_command", metavar="ACTION", required=True)

    demo = sub.add_parser("demo", help="light a test pattern and a short game on the board")
    _device_options(demo)
    demo.add_argument("--tracks", type=int, choices=(2, 3), default=2,
                      help="tracks on the board (default 2)")
    demo.add_argument("--pause", type=paths.seconds(60), default=1.0, metavar="S",
                      help="seconds between steps, 0-60 (default 1)")
    demo.set_defaults(func=run_demo)

    flash = sub.add_parser("flash", help="copy the firmware to the Pico with mpremote")
    _device_options(flash)
    flash.add_argument("--firmware", type=Path, default=None, metavar="DIR",
                       help="firmware directory (default: the one next to this package, else "
                            f"{INSTALLED_FIRMWARE})")
    flash.add_argument("--dry-run", action="store_true", help="print the commands only")
    flash.set_defaults(func=run_flash)

    sim = sub.add_parser("sim", help="run the firmware on this computer on a pseudo-terminal")
    sim.add_argument("--dir", type=Path, default=None, metavar="DIR",
                     help="where to put the device link and recorded frames (default: temp)")
    sim.add_argument("--seconds", type=paths.seconds(86_400), default=None, metavar="S",
                     help="stop after this long, at most a day (default: until Ctrl-C)")
    sim.add_argument("--quiet", action="store_true", help="do not draw the board")
    sim.set_defaults(func=run_sim)

    svg = sub.add_parser("svg", help="write the board layout and wiring drawings")
    svg.add_argument("--out", type=Path, default=Path("hardware"), metavar="DIR",
                     help="output directory (default: hardware)")
    svg.add_argument("--check", action="store_true",
                     help="only compare with the files there; exit 1 if any differs")
    svg.set_defaults(func=run_svg)


def _device_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--device", default="", metavar="PATH",
                        help="serial device of the Pico, or 'auto'")
    parser.add_argument("--serial", default=None, metavar="SN",
                        help="pick the Pico with this USB serial number")


def _check_device(args: argparse.Namespace) -> None:
    """``--device``: "auto", or a name the system can open (checked before connecting)."""
    if args.device not in ("", "auto"):
        paths.path_name(args.device)


def _connect(args: argparse.Namespace, config: LedConfig, timeout: float = 10.0) -> SerialLink:
    _check_device(args)
    if args.device not in ("", "auto") and not Path(args.device).exists():
        raise LinkError(f"cannot open {args.device}: no such device — is the Pico plugged in? "
                        "`ls -l /dev/serial/by-id/` lists the serial devices")
    link = SerialLink(args.device or "auto", config=config, serial_number=args.serial)
    done = pump(link, lambda: link.state in (LinkState.UP, LinkState.MISMATCH), timeout=timeout)
    if link.state is LinkState.MISMATCH or not done:
        link.close()
        raise LinkError(link.status)
    return link


def _hold(link: SerialLink, seconds: float) -> None:
    """Keep the link alive (heartbeats, resends) for a while."""
    pump(link, lambda: False, timeout=seconds)


def demo_steps(tracks: int) -> list[tuple[str, BoardState]]:
    """The demo's short game: every side pegs a few times, then side 0 wins."""
    steps: list[tuple[str, BoardState]] = []
    board = BoardState.start(tracks)
    plays = [(0, 8), (1, 12), (2, 5), (0, 29), (1, 16), (2, 24), (0, 45), (1, 40), (0, 39)]
    for side, points in plays:
        if side >= tracks:
            continue
        front = list(board.front)
        back = list(board.back)
        back[side] = front[side]
        front[side] = min(121, front[side] + points)
        winner = side if front[side] >= 121 else None
        board = BoardState.from_scores(front, back, last=side, winner=winner)
        steps.append((f"side {side + 1} pegs {points} to {front[side]}", board))
    return steps


def run_demo(args: argparse.Namespace) -> int:
    """Test pattern, then a short game, on a real (or simulated) board."""
    if not args.device and not args.serial:
        print(HOW_TO_CONNECT, file=sys.stderr)
        return 2
    link = _connect(args, LedConfig(tracks=args.tracks))
    print(f"Connected: firmware {link.firmware_version}, protocol v{link.board_protocol}")
    try:
        print("Test pattern: every hole of every track in its colour (power-limited)")
        link.test_pattern(True)
        # Held from when the board has it: a board slow to answer would otherwise be told to
        # end the pattern before it ever showed it.
        if not pump(link, lambda: link.in_sync, timeout=30):
            raise LinkError(f"the board did not take the test pattern: {link.status}")
        _hold(link, args.pause * 2)
        link.test_pattern(False)
        for text, board in demo_steps(args.tracks):
            print(text)
            link.show(board)
            _hold(link, args.pause)
        if not link.in_sync:
            raise LinkError(f"the board did not keep up: {link.status}")
        print("Done: the board shows the winner celebrating.")
    finally:
        link.close()
    return 0


def flash_commands(device: str, firmware: Path) -> list[list[str]]:
    """The mpremote command that copies the firmware and resets the Pico."""
    missing = [name for name in FIRMWARE_FILES if not (firmware / name).is_file()]
    if missing:
        raise LinkError(f"firmware directory {firmware} lacks {', '.join(missing)}")
    target = "auto" if device in ("", "auto") else device
    files = [str(firmware / name) for name in FIRMWARE_FILES]
    try:
        mpremote = tool("mpremote")
    except LinkError:
        raise LinkError("mpremote is not installed: systemd/install.sh installs it on the Pi; "
                        "elsewhere `pip install 'pegboard[flash]'`") from None
    return [[mpremote, "connect", target, "fs", "cp", *files, ":", "+", "reset"]]


def run_flash(args: argparse.Namespace, runner: Callable[[list[str]], int] | None = None,
              control: Systemctl | None = None) -> int:
    """Copy the firmware with mpremote, then check the version handshake.

    A running ``pegboard.service`` holds the board's serial port (mpremote would find it in
    use), so it is stopped first and started again afterwards, whether the flash worked or
    not; ``control`` runs ``systemctl`` (default: the one on PATH).
    """
    _check_device(args)
    firmware: Path = args.firmware if args.firmware is not None else default_firmware()
    paths.path_name(str(firmware))
    commands = flash_commands(args.device, firmware)
    control = control or systemctl
    if args.dry_run:
        status = control(["is-active", "--quiet", SERVICE])
        if status == NO_SYSTEMD:
            print(f"# {NO_SYSTEMD_NOTE}")
        elif status == 0:
            print(f"# {SERVICE} is running: it would be stopped first and started after")
        for command in commands:
            print(" ".join(command))
        return 0
    run = runner or (lambda command: subprocess.run(command, check=False).returncode)
    stopped = _stop_service(control)
    restarted = True
    try:
        for command in commands:
            if run(command) != 0:
                raise LinkError(f"mpremote failed: {' '.join(command)}")
        print("Firmware copied; waiting for the board to restart...")
        link = _connect(args, LedConfig(), timeout=20.0)
        print(f"LED board firmware {link.firmware_version} speaks protocol "
              f"v{link.board_protocol}: OK")
        link.close()
    finally:
        if stopped:
            restarted = _start_service(control)
    return 0 if restarted else 1


def _stop_service(control: Systemctl) -> bool:
    """Stop the service if it runs (it holds the port); True when it was stopped."""
    status = control(["is-active", "--quiet", SERVICE])
    if status == NO_SYSTEMD:
        print(NO_SYSTEMD_NOTE, flush=True)
    if status != 0:
        return False
    print(f"Stopping {SERVICE}: it holds the LED board's serial port (it is started again "
          "after the flash)", flush=True)
    status = control(["stop", SERVICE])
    if status != 0:
        raise LinkError(
            f"cannot stop {SERVICE} (systemctl exit status {status}), and while it runs it "
            "holds the LED board's serial port: run the flash as root (`sudo pegboard leds "
            "flash --device auto`) or stop the service first (`sudo systemctl stop pegboard`)"
        )
    return True


def _start_service(control: Systemctl) -> bool:
    """Start the service stopped for the flash; False (and a message) when it would not."""
    print(f"Starting {SERVICE} again", flush=True)
    status = control(["start", SERVICE])
    if status != 0:
        print(f"pegboard leds: could not start {SERVICE} again (systemctl exit status "
              f"{status}); start it with `sudo systemctl start pegboard`", file=sys.stderr)
    return status == 0


def run_sim(args: argparse.Namespace) -> int:
    """The firmware under MicroPython on a pty; prints the device path and draws the board."""
    if args.dir is not None:
        paths.folder(str(args.dir))
    with tempfile.TemporaryDirectory(prefix="pegboard-leds-") as temporary:
        directory = args.dir or Path(temporary)
        _make_folder(directory, "--dir")
        with FirmwareProcess(directory) as firmware:
            print(f"LED board firmware running; connect to: {firmware.port}", flush=True)
            print(f"  pegboard leds demo --device {firmware.port}", flush=True)
            deadline = None if args.seconds is None else time.monotonic() + args.seconds
            shown = None
            try:
                while deadline is None or time.monotonic() < deadline:
                    if not firmware.running:
                        raise LinkError(f"the firmware stopped:\n{firmware.log()}")
                    frame = firmware.last_frame()
                    if frame is not None and frame != shown and not args.quiet:
                        shown = frame
                        sys.stdout.write("\x1b[H\x1b[2J" + render_ansi(frame.rgb, LedConfig(
                            tracks=3 if len(frame.rgb) // 3 >= 361 else 2,
                            count=len(frame.rgb) // 3)) + f"\n{frame.ma} mA\n")
                        sys.stdout.flush()
                    time.sleep(0.05)  # a terminal view: redraw at most 20 times a second
            except KeyboardInterrupt:
                pass
    return 0


def _make_folder(path: Path, option: str) -> None:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise paths.ArgumentError(
            f"cannot make the {option} folder {paths.shown(str(path))}: "
            f"{error.strerror or error}"
        ) from None


def run_svg(args: argparse.Namespace) -> int:
    """Write (or check) every drawing in ``args.out``."""
    out: Path = args.out
    paths.folder(str(out))
    if not args.check:
        _make_folder(out, "--out")
    stale = []
    for name, make in DRAWINGS.items():
        path = out / name
        text = make()
        if args.check:
            if not path.exists() or path.read_text() != text:
                stale.append(str(path))
        else:
            try:
                path.write_text(text)
            except OSError as error:
                raise paths.ArgumentError(
                    f"cannot write {paths.shown(str(path))}: {error.strerror or error}"
                ) from None
            print(f"wrote {path}")
    if stale:
        print("out of date (run `pegboard leds svg`): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0
