"""Key scripts with marks, and the frames they take: the golden frames and the guide's pictures.

A key script is what ``pegboard sim --script`` reads; these comment lines say more:

``# golden: NAME``
    the frame on the screen at this point of the script (after every key above the line) is
    ``tests/golden/NAME.png``; at the end of a script that shut the device down, it is the
    frame left on the screen (``saved.png`` of ``--frames``);
``# picture: NAME``
    the same, for ``docs/img/NAME.png``;
``# kit: keypad``
    the script is for the keypad kit (``pegboard sim --kit keypad``); the encoder otherwise;
``# store: OTHER.keys``
    the script starts on the store OTHER.keys (in the same folder) left behind, as when both
    are run with the same ``--store DIR``.

Each script is played through the simulator exactly as ``pegboard sim --script FILE --frames
DIR`` plays it (gpiozero mock pins, the real app and store, a fake clock:
:func:`~pegboard.sim.script.run_script`).
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image

from pegboard.app.view import Screen, View
from pegboard.config import Config
from pegboard.rules.value import replace
from pegboard.sim.keys import KeyStep, expand, parse_script
from pegboard.sim.script import run_script
from pegboard.store import Store

SCALE = 3
"""Each OLED pixel is a SCALE x SCALE block in the guide's pictures."""
GOLDEN_DIR = Path("tests") / "golden"
SCRIPT_DIR = GOLDEN_DIR / "scripts"
GUIDE_KEYS = Path("docs") / "guide.keys"
IMG_DIR = Path("docs") / "img"

_MARK = re.compile(r"^#\s*(golden|picture|kit|store):\s*(\S+)\s*$")

# -- reading a key script --------------------------------------------------------------------


@dataclass(frozen=True)
class Mark:
    """``# golden: NAME`` or ``# picture: NAME``: the frame on screen after ``step`` key steps
    (each repetition of ``KEY*N`` counted)."""

    kind: str
    name: str
    step: int
    line: int


@dataclass
class KeyScript:
    """A key script with its marks, its kit and the script whose store it starts on."""

    path: Path
    text: str
    kit: str = "encoder"
    store: Path | None = None
    marks: list[Mark] = field(default_factory=list)

    @property
    def steps(self) -> list[KeyStep]:
        """Every key step, one per repetition."""
        return list(expand(parse_script(self.text, source=str(self.path))))

    def command(self, frames: str = "DIR") -> str:
        """The ``pegboard sim`` command line that plays this script."""
        kit = " --kit keypad" if self.kit == "keypad" else ""
        path = self.path.relative_to(Path.cwd()) if self.path.is_relative_to(Path.cwd()) \
            else self.path
        return f"pegboard sim{kit} --script {path} --frames {frames}"


def read_script(path: Path) -> KeyScript:
    """Read ``path`` and its marks (see the module doc)."""
    text = path.read_text(encoding="utf-8")
    script = KeyScript(path, text)
    steps = 0
    for number, line in enumerate(text.splitlines(), start=1):
        mark = _MARK.match(line.strip())
        if mark is None:
            steps += sum(step.count for step in parse_script(line, source=f"{path} line "
                                                                       f"{number}"))
            continue
        kind, value = mark.groups()
        if kind == "kit":
            if value not in ("encoder", "keypad"):
                raise ValueError(f"{path} line {number}: kit {value!r}; use encoder or keypad")
            script.kit = value
        elif kind == "store":
            script.store = path.parent / value
        else:
            script.marks.append(Mark(kind, value, steps, number))
    return script


# -- playing it ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shot:
    """A marked frame: the image, the view it shows, and which file of ``--frames DIR`` it
    is (``frame-0042.png``, or ``saved.png`` for the frame left at shutdown)."""

    image: Image.Image
    view: View
    frame: str


def play(script: KeyScript, store_dir: Path | None = None) -> dict[Mark, Shot]:
    """Play ``script`` as ``pegboard sim --script`` does; return the frame of each mark."""
    if store_dir is None:
        with tempfile.TemporaryDirectory(prefix="pegboard-pictures-") as scratch:
            return play(script, Path(scratch))
    if script.store is not None:
        play(read_script(script.store), store_dir)
    config = Config()
    config = replace(config, input=replace(config.input, kit=script.kit))
    steps = script.steps
    frames: list[tuple[View, Image.Image]] = []
    shown_before: dict[int, int] = {}  # key step -> frames drawn before it was pressed

    def pressed() -> Iterator[KeyStep]:
        for number, step in enumerate(steps):
            shown_before[number] = len(frames)
            yield step
        shown_before[len(steps)] = len(frames)

    store = Store(store_dir, owner="pegboard pictures")
    try:
        result = run_script(pressed(), config, store,
                            on_frame=lambda view, image: frames.append((view, image)))
    finally:
        store.close()
    shots = {}
    for mark in script.marks:
        where = f"{script.path} line {mark.line} ({mark.kind}: {mark.name})"
        count = shown_before.get(mark.step)
        if count is None:
            raise ValueError(f"{where}: the device was shut down before this point")
        view, image = frames[count - 1]
        frame = f"frame-{count:04d}.png"
        if mark.step == len(steps) and view.screen is Screen.SAVED:
            assert result.final_frame is not None
            image, frame = result.final_frame, "saved.png"
        shots[mark] = Shot(image.convert("1"), view, frame)
    return shots


def scripts(root: Path) -> list[Path]:
    """Every key script with marks: the guide's and the golden frames'."""
    return [root / GUIDE_KEYS, *sorted((root / SCRIPT_DIR).glob("*.keys"))]


def shots(root: Path) -> dict[tuple[str, str], tuple[KeyScript, Shot]]:
    """Every mark of every script, by kind ("golden" or "picture") and name."""
    found: dict[tuple[str, str], tuple[KeyScript, Shot]] = {}
    for path in scripts(root):
        script = read_script(path)
        if not script.marks:
            continue
        for mark, shot in play(script).items():
            key = (mark.kind, mark.name)
            if key in found:
                raise ValueError(f"{path} line {mark.line}: {mark.kind} {mark.name!r} is also "
                                 f"in {found[key][0].path}")
            found[key] = (script, shot)
    return found


def scaled(image: Image.Image) -> Image.Image:
    """A frame with each pixel as a SCALE x SCALE block."""
    return image.resize((image.width * SCALE, image.height * SCALE), Image.Resampling.NEAREST)


def write_frames(root: Path) -> list[str]:
    """Save every golden frame and every picture; returns what was written, from where."""
    written = []
    folders = {"golden": root / GOLDEN_DIR, "picture": root / IMG_DIR}
    for (kind, name), (script, shot) in sorted(shots(root).items()):
        path = folders[kind] / f"{name}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        (shot.image if kind == "golden" else scaled(shot.image)).save(path)
        source = script.path.relative_to(root) if script.path.is_relative_to(root) \
            else script.path
        written.append(f"{path.relative_to(root)}: {shot.frame} of {source}")
    return written
