"""CPU time from starting ``pegboard sim`` and ``pegboard run`` to the first screen that takes
a key, against a bare interpreter start (``python -c pass``), with bytecode compiled.

What a Pi Zero 2 W player waits for is mostly CPU: it runs Python about 15 times slower than
one core here, so the ratio to a bare start carries over where the milliseconds do not
(target: at most 4 times). CPU time (user + system) is taken rather than wall time because
it does not grow when other processes share the machine.

* ``pegboard sim`` on a real pseudo-terminal, restoring a game in progress: until the
  simulator's own frame with the key legend is drawn (after the splash, the app and the
  engine's replay; the next thing it does is read keys, and the first key makes gpiozero's
  mock pins, which nothing can press before it).
* ``pegboard run`` on gpiozero's mock pins (``GPIOZERO_PIN_FACTORY=mock``, as the tests run
  it on a machine without pins) and luma's dummy display, restoring the same game: until it
  logs "ready", which it does once its loop has drawn the first screen and before it waits
  for the first key.

Each process is killed there and its CPU time read from the kernel's account of the child
(``wait4``), so nothing it would do afterwards counts.

Beside them: what the simulator's first key costs (it makes gpiozero's mock pins then: the
same start killed once the frame after an OK key is drawn, less the start alone), and
``pegboard score`` as a whole process. Each figure is printed with its floor: a bare start,
and what the libraries the command cannot do without cost alone.

``pegboard run`` reads the config the installer puts in ``/etc/pegboard/config.toml``
(``systemd/config.example.toml``), as its unit runs it, so its floor includes the standard
library's TOML reader. It is also measured restoring a game far along (the first
:data:`FAR_ALONG` lines of ``examples/two-player.jsonl``): the restore replays the record
through the engine, so this start grows with the game's length, and a power cut late in a game
is when a player waits for it.

The commands run with ``-P`` (not from the current directory), so run from the source tree
with the interpreter of a scratch venv where Pegboard is installed as on a Pi (``pip install
.``, not editable), the bench measures that installed copy; it prints which one it measures.

``start --instructions`` counts instructions instead, under valgrind's callgrind with a fixed
hash seed, one run each. CPU time on a shared machine moves from one minute to the next by
more than the differences measured here (the same build's own share has read 31, 53 and 68 ms
within ten minutes); an instruction count is the same every run. ``pegboard run`` is counted
to the moment it tells systemd it is ready (``READY=1`` on ``$NOTIFY_SOCKET``: the profile is
dumped as it sends, ``--dump-before=send``), which is just before it logs "ready".
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path

from tests.support.terminal import Terminal

RUNS = 7
ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "guide.keys"
CONFIG = ROOT / "systemd" / "config.example.toml"
"""The config ``pegboard run`` reads as its unit runs it: the installer copies this file to
``/etc/pegboard/config.toml``."""
EXAMPLE = ROOT / "examples" / "two-player.jsonl"
FAR_ALONG = 140
"""Lines of :data:`EXAMPLE` (of 145) in the game restored far along: its last deal's show."""
READY_WAIT_S = 900.0
"""How long ``start --instructions`` waits for ``pegboard run`` to be ready under callgrind
(about fifty times slower than without)."""
TARGET = 4.0
"""``pegboard sim``: at most this many bare starts to its first screen that takes a key."""
OWN_TARGET_MS = 30.0
"""``pegboard run``: Pegboard's own share above its libraries, at most this much CPU."""


def _reaped(pid: int) -> float:
    """CPU seconds (user + system) of the child ``pid``, once it has ended."""
    _, _, usage = os.wait4(pid, 0)
    return usage.ru_utime + usage.ru_stime


def bare(code: str = "pass") -> float:
    """CPU seconds of ``python -c CODE`` (a bare start: ``pass``), on gpiozero's mock pins
    as ``run`` is measured (``GPIOZERO_PIN_FACTORY=mock``)."""
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock"}
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.execve(sys.executable, [sys.executable, "-c", code], env)
    return _reaped(pid)


_UNCLEANED = "; import os; os._exit(0)"
"""How each floor ends: as the commands measured end (killed once they take a key), without
the interpreter's clean-up of every module, which for these libraries costs about a tenth of
their start (a floor measured to a normal exit would hide that much of Pegboard's share)."""

def _kit_made() -> str:
    """What ``run`` asks of its libraries before it is ready, made as it makes them
    (:class:`pegboard.hw.inputs.EncoderKit`, :func:`pegboard.hw.oled.open_dummy`): the
    encoder kit's rotary encoder and four buttons on the default pins, luma's dummy panel,
    and its config file read by the TOML reader. gpiozero's own work making them (reading the
    board's pin header, a class made for each encoder's state) is the library's, not
    Pegboard's."""
    from pegboard.hw.inputs import EncoderPins

    pins = EncoderPins()
    buttons = (pins.push, pins.go, pins.undo, pins.menu)
    return (f"; gpiozero.RotaryEncoder({pins.a}, {pins.b}, max_steps=0); "
            f"[gpiozero.DigitalInputDevice(p, pull_up=True, bounce_time=None) "
            f"for p in {buttons}]; "
            "luma.core.device.dummy(width=128, height=64, rotate=0, mode='1'); "
            f"tomllib.loads(open({str(CONFIG)!r}, encoding='utf-8').read())")


LIBRARIES = {
    "sim": "import PIL.ImageFont; PIL.ImageFont.load_default_imagefont()" + _UNCLEANED,
    "run": "import gpiozero, gpiozero.pins.mock, luma.core.device, PIL.ImageFont, tomllib; "
           "PIL.ImageFont.load_default_imagefont()" + _UNCLEANED,
}
"""What each command's first screen cannot do without, from other projects: Pillow and its
font for the frame; for ``run``, gpiozero for the buttons (they must exist before it is
ready, or a key pressed on the board would be lost), with the pin factory it runs on here
(its mock pins, as ``GPIOZERO_PIN_FACTORY=mock`` asks; lgpio's on a Pi), and luma for the
panel, and the standard library's TOML reader for its config. Their start-up alone is the least
the command can cost, its floor, printed beside it.
(The simulator's first key loads gpiozero too, but most of the standard library gpiozero
needs is loaded by then, so its floor is given as a bare start.)

``run`` is also given a second floor, its libraries at work (:func:`_kit_made`): their start
and the devices the board cannot be ready without, made by those libraries as ``run`` makes
them. Both are printed, and Pegboard's share above each."""


def sim(store: Path) -> float:
    """CPU seconds of ``pegboard sim`` on an 80x24 terminal until its keyed frame is drawn."""
    sim = Terminal(["-P", "-m", "pegboard", "sim", "--store", str(store)], term="xterm-256color")
    try:
        sim.read_until(b"Keys:", 60)
        os.kill(sim.pid, signal.SIGKILL)
        return _reaped(sim.pid)
    finally:
        os.close(sim.fd)


def sim_first_key(store: Path) -> float:
    """CPU seconds of ``pegboard sim`` until it draws the frame after its first key (OK, which
    closes the "Game restored" page); the frame is written once it is made, so its first
    bytes on the terminal mean the work is done. That key starts the next deal, which the
    store records, so it is pressed on a copy of ``store``: every other measure restores the
    same game."""
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "store"
        shutil.copytree(store, copy)
        return _first_key(copy)


def _first_key(store: Path) -> float:
    sim = Terminal(["-P", "-m", "pegboard", "sim", "--store", str(store)], term="xterm-256color")
    try:
        seen = sim.read_until(b"Keys:", 60)
        first = seen.rsplit(b"\x1b[H", 1)[-1]
        os.write(sim.fd, b"\r")
        typed = len(seen)
        while not any(b"Keys:" in frame and frame != first
                      for frame in seen[typed:].split(b"\x1b[H")[1:]):
            seen += sim.more(60, seen)
        os.kill(sim.pid, signal.SIGKILL)
        return _reaped(sim.pid)
    finally:
        os.close(sim.fd)


def score() -> float:
    """CPU seconds of ``pegboard score`` counting one hand."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child, its output discarded
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.execv(sys.executable, [sys.executable, "-P", "-m", "pegboard", "score", "7H", "8C",
                                  "8D", "JS", "--starter", "9S"])
    return _reaped(pid)


RUN = ["-P", "-m", "pegboard", "run", "--display", "dummy", "--config", str(CONFIG)]
"""``pegboard run``'s arguments: as its unit runs it, on luma's dummy display."""


def run(store: Path) -> float:
    """CPU seconds of ``pegboard run`` on mock pins until it logs that it is ready."""
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "PEGBOARD_STORE": str(store)}
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child, its output and log into the pipe
        os.dup2(write, 1)
        os.dup2(write, 2)
        os.execve(sys.executable, [sys.executable, *RUN], env)
    os.close(write)
    with os.fdopen(read, "rb") as logged:
        for line in logged:  # blocks until the process logs: no sleeping
            if line.rstrip().endswith(b"ready"):
                break
        else:
            raise RuntimeError(f"pegboard run exited before it was ready (CPU "
                               f"{_reaped(pid):.3f} s)")
        os.kill(pid, signal.SIGKILL)
        return _reaped(pid)


def _measured() -> str:
    """Which Pegboard the commands run: the one this interpreter imports from outside the
    source tree (``-P``: not the current directory), installed as on a Pi or editable."""
    where = subprocess.run([sys.executable, "-P", "-c",
                            "import pegboard; print(pegboard.__file__)"],
                           capture_output=True, text=True, check=True).stdout.strip()
    kind = "in the source tree (an editable install)" if Path(where).is_relative_to(ROOT) else \
        "installed (not editable, as on a Pi)"
    return f"{kind}: {Path(where).parent}"


def _game_in_progress(store: Path) -> None:
    """The first 20 lines of the guide's game played into ``store`` (as the splash bench)."""
    from pegboard.config import Config
    from pegboard.sim.keys import parse_script
    from pegboard.sim.script import run_script
    from pegboard.store import Store

    script = "\n".join(GUIDE.read_text(encoding="utf-8").splitlines()[:20])
    with Store(store, owner="bench") as opened:
        run_script(parse_script(script), Config(), opened)


def _game_far_along(store: Path) -> None:
    """The first :data:`FAR_ALONG` lines of :data:`EXAMPLE` written into ``store`` as the
    device writes them: each entry with the scores it left, which the first frame reads."""
    import json

    from pegboard.record.reader import Replayer
    from pegboard.store import Store

    header, *entries = [json.loads(line) for line in
                        EXAMPLE.read_text(encoding="utf-8").splitlines()[:FAR_ALONG]]
    replayer = Replayer(str(EXAMPLE))
    replayer.enter(header)
    with Store(store, owner="bench") as opened:
        opened.new_game(header)
        for entry in entries:
            replayer.enter(entry)
            assert replayer.game is not None
            opened.append(entry, scores=replayer.game.state.scores)


def _lines(store: Path) -> int:
    """Lines of the game in progress in ``store`` (its header and each entry)."""
    return len((store / "current.log").read_bytes().splitlines())


def _counted(out: Path) -> int:
    """The instructions in the one callgrind profile written into ``out``."""
    (profile,) = out.iterdir()
    for line in profile.read_text(encoding="utf-8").splitlines():
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    raise RuntimeError(f"{profile} holds no instruction count")


def instructions(argv: list[str], env: Mapping[str, str] | None = None, *,
                 until_ready: bool = False) -> int:
    """Instructions of ``python ARGV`` under callgrind (``PYTHONHASHSEED=0``): to its end, or
    with ``until_ready`` to the moment it sends systemd ``READY=1``."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "profile"
        out.mkdir()
        command = ["valgrind", "--tool=callgrind", "--dump-instr=no",
                   f"--callgrind-out-file={out / 'callgrind.%p'}"]
        child_env = {**(os.environ if env is None else env), "PYTHONHASHSEED": "0",
                     "GPIOZERO_PIN_FACTORY": "mock"}
        if not until_ready:
            subprocess.run([*command, sys.executable, *argv], env=child_env, check=True,
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            return _counted(out)
        address = str(Path(scratch) / "notify")
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notified:
            notified.bind(address)
            notified.settimeout(READY_WAIT_S)
            child = subprocess.Popen([*command, "--dump-before=send", sys.executable, *argv],
                                     env={**child_env, "NOTIFY_SOCKET": address},
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
            try:
                # The profile is written before the message is sent, so it is whole once the
                # message arrives.
                message = notified.recv(64)
            except TimeoutError:
                raise RuntimeError(f"pegboard run was not ready after {READY_WAIT_S:g} s "
                                   f"under callgrind (exit status {child.poll()})") from None
            finally:
                child.kill()
                child.wait()
        if message != b"READY=1":
            raise RuntimeError(f"pegboard run sent {message!r} before READY=1")
        for whole in out.glob("callgrind.*[0-9]"):
            if not whole.name.endswith(".1"):
                whole.unlink()  # the rest of the run, cut off by the kill
        return _counted(out)


def _instructions_main() -> None:
    """Print the instruction counts (``start --instructions``)."""
    print(f"pegboard {_measured()}")
    with tempfile.TemporaryDirectory() as scratch:
        near, far = Path(scratch) / "near", Path(scratch) / "far"
        _game_in_progress(near)
        _game_far_along(far)
        counts = {
            "bare": instructions(["-c", "pass"]),
            "run libraries": instructions(["-c", LIBRARIES["run"]]),
            "run libraries at work": instructions(
                ["-c", LIBRARIES["run"].removesuffix(_UNCLEANED) + _kit_made() + _UNCLEANED]),
            "score": instructions(["-P", "-m", "pegboard", "score", "7H", "8C", "8D", "JS",
                                   "--starter", "9S"]),
        }
        lines = {"run": _lines(near), "run far along": _lines(far)}
        for name, store in (("run", near), ("run far along", far)):
            counts[name] = instructions(RUN, {**os.environ, "PEGBOARD_STORE": str(store)},
                                        until_ready=True)
    bare = counts["bare"]

    def shown(count: int) -> str:
        return f"{count / 1e6:.1f}M = {count / bare:.2f}x python -c pass"

    print(f"instructions (callgrind, PYTHONHASHSEED=0, one run each: the count is the same "
          f"every run): python -c pass {bare / 1e6:.1f}M, python {sys.version.split()[0]}")
    floor, working = counts["run libraries"], counts["run libraries at work"]
    print(f"pegboard run's floor: its libraries alone {shown(floor)}; with their work (the "
          f"encoder kit, the panel, the config read) {shown(working)}")
    for name in ("run", "run far along"):
        took = counts[name]
        print(f"pegboard run restoring a game of {lines[name]} lines, start -> READY=1: "
              f"{shown(took)}; Pegboard's own share above its libraries {shown(took - floor)}, "
              f"above their work {shown(took - working)}")
    grown = counts["run far along"] - counts["run"]
    print(f"each line restored costs {grown / (lines['run far along'] - lines['run']) / 1e6:.2f}M")
    print(f"pegboard score (one hand, the whole process): {shown(counts['score'])}")


def main() -> None:
    """Print each command's CPU to its first keyed screen and its ratio to a bare start
    (``start --instructions``: instruction counts instead, :func:`_instructions_main`).

    The measurements take turns (a bare start, each command, its libraries, then again), so
    a busy spell on the machine weighs on the reference as much as on what it is compared
    with; each figure is the median of its ``RUNS``."""
    import compileall

    compileall.compile_dir(str(ROOT / "pegboard"), quiet=1)  # as pip does on install
    if "--instructions" in sys.argv[1:]:
        _instructions_main()
        return
    print(f"pegboard {_measured()}")
    with tempfile.TemporaryDirectory() as scratch:
        store, far = Path(scratch) / "store", Path(scratch) / "far"
        _game_in_progress(store)
        _game_far_along(far)
        lines = {"run": _lines(store), "run far along": _lines(far)}
        measures: dict[str, Callable[[], float]] = {
            "bare": bare,
            "sim": partial(sim, store), "sim libraries": partial(bare, LIBRARIES["sim"]),
            "run": partial(run, store), "run libraries": partial(bare, LIBRARIES["run"]),
            "run libraries at work": partial(bare, LIBRARIES["run"].removesuffix(_UNCLEANED)
                                             + _kit_made() + _UNCLEANED),
            "run far along": partial(run, far),
            "sim first key": partial(sim_first_key, store),
            "score": score,
        }
        taken: dict[str, list[float]] = {name: [] for name in measures}
        for _ in range(RUNS):
            for name, measure in measures.items():
                taken[name].append(measure())
        ms = {name: statistics.median(cpu) * 1000 for name, cpu in taken.items()}
    reference = ms["bare"]
    print(f"reference: python -c pass {reference:.0f} ms CPU (median of {RUNS}) on "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    for name in ("sim", "run"):
        took, least = ms[name], ms[f"{name} libraries"]
        target = (f"target <= {TARGET:g}x" if name == "sim" else
                  f"target for the own share <= {OWN_TARGET_MS:g} ms")
        print(f"pegboard {name}: start -> first screen that takes a key {took:.0f} ms CPU "
              f"= {took / reference:.1f}x python -c pass ({target}); floor: its libraries "
              f"alone {least:.0f} ms = {least / reference:.1f}x; Pegboard's own share above "
              f"them {took - least:.0f} ms = {(took - least) / reference:.1f}x")
    took, working = ms["run"], ms["run libraries at work"]
    print(f"pegboard run, the floor with its libraries' work: their start, the encoder "
          f"kit's five input devices, luma's panel and the config read {working:.0f} ms = "
          f"{working / reference:.1f}x; Pegboard's own share above it "
          f"{took - working:.0f} ms = {(took - working) / reference:.1f}x")
    restored = ms["run far along"]
    print(f"pegboard run restoring a game of {lines['run far along']} lines (the one above has "
          f"{lines['run']}): {restored:.0f} ms CPU = {restored / reference:.1f}x; Pegboard's "
          f"own share above its libraries {restored - ms['run libraries']:.0f} ms = "
          f"{(restored - ms['run libraries']) / reference:.1f}x")
    key = ms["sim first key"] - ms["sim"]
    print(f"pegboard sim: its first key (OK: the mock pins made, the page closed, the frame "
          f"drawn) {key:.0f} ms CPU = {key / reference:.1f}x python -c pass; floor: the "
          f"bare start {reference:.0f} ms")
    took = ms["score"]
    print(f"pegboard score (one hand, the whole process): {took:.0f} ms CPU = "
          f"{took / reference:.1f}x python -c pass; floor: the bare start {reference:.0f} ms")


if __name__ == "__main__":
    main()
