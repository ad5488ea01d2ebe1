"""Pictures of the screen, every one a frame of the real app playing a key script.

``python -m pegboard.sim.pictures`` (from a checkout's root) regenerates all of them:

1. the pretend table (:mod:`pegboard.sim.autoplay`) plays a whole two-player game for the
   guide and a best-of-3 match, and their keys are written as key scripts
   (``docs/guide.keys``, ``tests/golden/scripts/match.keys``), with marks where the pictures
   are taken;
2. every key script (those two and the hand-written ``tests/golden/scripts/*.keys``) is played
   through the simulator exactly as ``pegboard sim --script FILE --frames DIR`` plays it (gpiozero
   mock pins, the real app and store, a fake clock: :func:`~pegboard.sim.script.run_script`),
   and the frames its marks name are saved: the golden frames ``tests/golden/NAME.png`` (the
   OLED's 128x64 pixels, which ``tests/test_render_golden.py`` compares pixel for pixel) and
   the guide's pictures ``docs/img/NAME.png`` (each pixel drawn as a 3x3 block);
3. the score race of the guide's game is drawn as ``pegboard stats --plot`` draws it
   (``docs/img/race_chart.png``);
4. the built-in demo scripts (the first deal, for each kit) that ``make run`` plays when there
   is no terminal are written.

The key scripts, their marks (``# golden: NAME``, ``# picture: NAME``, ``# kit:``, ``# store:``)
and playing them for their frames are :mod:`pegboard.sim.marked_scripts`.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pegboard.app.view import Screen, View
from pegboard.config import Config
from pegboard.rules.value import replace
from pegboard.sim.autoplay import AutoPlayer, record_game, step_text
from pegboard.sim.fakes import FakeClock, RecordingDisplay
from pegboard.sim.keys import KeyStep, parse_script
from pegboard.sim.marked_scripts import (
    GUIDE_KEYS,
    IMG_DIR,
    SCRIPT_DIR,
    read_script,
    write_frames,
)
from pegboard.sim.script import run_script
from pegboard.sim.session import Simulator
from pegboard.stats import compute
from pegboard.store import Store
from pegboard.ui.race import write_plot

GUIDE_SEED = 15
"""The pretend table's seed for the guide's game (one that ends in a skunk)."""
DEMO_SEED = 4
"""The pretend table's seed for the built-in demos."""
MATCH_SEED = 3
"""The pretend table's seed for the best-of-3 match."""

Pick = Callable[[View], bool]


# -- recording a game played by the pretend table ----------------------------------------------


@dataclass
class Recording:
    """Keys pressed while the pretend table plays, with the marks placed as it goes."""

    lines: list[str] = field(default_factory=list)
    words: list[str] = field(default_factory=list)

    def press(self, sim: Simulator, steps: list[KeyStep]) -> None:
        for step in steps:
            sim.press(step)
            self.words.append(step_text(step))

    def comment(self, text: str) -> None:
        self.flush()
        self.lines.append(f"# {text}")

    def flush(self) -> None:
        line = ""
        for word in self.words:
            if line and len(line) + 1 + len(word) > 78:
                self.lines.append(line)
                line = word
            else:
                line = f"{line} {word}".strip()
        if line:
            self.lines.append(line)
        self.words = []

    def text(self) -> str:
        self.flush()
        return "\n".join(self.lines) + "\n"


Policy = Callable[[View, AutoPlayer], list[KeyStep] | None]
"""What to press on a screen instead of the pretend table (None: let it decide; []: stop)."""


def record(seed: int, header: list[str], setup: list[str], marks: list[tuple[str, str, Pick]],
           policy: Policy, *, max_keys: int = 20000) -> str:
    """Let the pretend table play (after pressing ``setup`` on the new-game screen), placing
    each mark before the first frame its test picks; returns the key script."""
    player = AutoPlayer(seed)
    rec = Recording([f"# {line}" for line in header])
    todo = list(marks)
    setup_done = False
    with tempfile.TemporaryDirectory(prefix="pegboard-pictures-") as scratch:
        store = Store(Path(scratch), owner="pegboard pictures")
        sim = Simulator(Config(), store, RecordingDisplay(), clock=FakeClock())
        try:
            sim.start()
            keys = 0
            while keys < max_keys and sim.loop.running:
                view = sim.loop.shown
                assert view is not None
                for mark in [m for m in todo if m[2](view)]:
                    todo.remove(mark)
                    rec.comment(f"{mark[0]}: {mark[1]}")
                if view.screen is Screen.SETUP and not setup_done:
                    setup_done = True
                    steps = parse_script(" ".join(setup))
                else:
                    chosen = policy(view, player)
                    steps = player.decide(view) if chosen is None else chosen
                if not steps:
                    break
                rec.press(sim, steps)
                keys += sum(step.count for step in steps)
        finally:
            sim.close()
            store.close()
    if todo:
        raise RuntimeError(f"the game never showed {', '.join(m[1] for m in todo)}")
    return rec.text()


def _count_page(view: View) -> bool:
    """A hand's count with no award below it, so the bottom line says what GO adds."""
    return (view.screen is Screen.SHOW and "hand" in view.title and not view.award
            and len(view.lines) >= 3 and "GO +" in view.hint)


def _zero_hand(view: View) -> bool:
    """A hand of nothing, its award line (if any) short enough to read whole."""
    return (view.screen is Screen.SHOW and len(view.award) <= 21
            and any(line.startswith("nineteen") for line in view.lines))


def _play_award(view: View) -> bool:
    return (view.screen is Screen.PLAY and len(view.pile) >= 3 and bool(view.award)
            and not view.award.startswith("Undone"))


GUIDE_MARKS: list[tuple[str, str, Pick]] = [
    ("picture", "home", lambda v: v.screen is Screen.HOME),
    ("picture", "setup", lambda v: v.screen is Screen.SETUP and "Seat 2: Ben" in v.lines),
    ("picture", "dealer", lambda v: v.screen is Screen.DEALER),
    ("picture", "cut", lambda v: v.screen is Screen.CUT and v.picker is not None
     and not v.picker.prompt.startswith("Ann")),
    ("picture", "starter", lambda v: v.screen is Screen.STARTER),
    ("picture", "play", lambda v: v.screen is Screen.PLAY and len(v.pile) >= 2 and not v.award),
    ("picture", "play_award", _play_award),
    ("picture", "show", _count_page),
    ("picture", "nineteen", _zero_hand),
    ("picture", "crib", lambda v: v.screen is Screen.CRIB and v.picker is not None
     and v.picker.prompt.startswith("Crib card 3")),
    ("picture", "crib_count", lambda v: v.screen is Screen.SHOW and "crib" in v.title),
    ("picture", "game_over", lambda v: v.screen is Screen.GAME_OVER),
    ("golden", "game_over", lambda v: v.screen is Screen.GAME_OVER),
    ("picture", "race", lambda v: v.screen is Screen.RACE),
    ("golden", "race", lambda v: v.screen is Screen.RACE),
]
"""Where the guide's pictures are taken: the first frame each test picks."""

NAMES = "right*2 ok right ok"
"""On the new-game screen: Seat 1 becomes Ann, Seat 2 Ben (the highlight ends on Seat 2)."""


def _guide_policy(view: View, player: AutoPlayer) -> list[KeyStep] | None:
    if view.screen is Screen.GAME_OVER:
        return parse_script("go")  # the score race
    if view.screen is Screen.RACE:
        return []
    return None


def _match_policy(view: View, player: AutoPlayer) -> list[KeyStep] | None:
    if view.screen is Screen.GAME_OVER:
        return parse_script("ok")  # the match's next game
    if view.screen is Screen.MATCH:
        return []
    return None


def make_guide(root: Path) -> Path:
    """Record the guide's game as ``docs/guide.keys``."""
    text = record(GUIDE_SEED, [
        "The guide's game: Ann and Ben play to 121, as the pretend table pressed the keys;",
        "at the end GO shows the score race. '# picture: NAME' marks where docs/img/NAME.png",
        "is taken, '# golden: NAME' tests/golden/NAME.png.",
        "(regenerate: python -m pegboard.sim.pictures)",
    ], [NAMES], GUIDE_MARKS, _guide_policy)
    path = root / GUIDE_KEYS
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def make_match(root: Path) -> Path:
    """Record a best-of-3 match to 61 as ``tests/golden/scripts/match.keys``."""
    setup = [NAMES, "right ok", "right*4 ok"]  # target 61; best of 3
    text = record(MATCH_SEED, [
        "A best-of-3 match to 61 between Ann and Ben, as the pretend table pressed the keys:",
        "on the new-game screen Seat 1 and Seat 2 are named, Target turned to 61 and Match",
        "to best of 3; OK on each game's result starts the next game.",
        "(regenerate: python -m pegboard.sim.pictures)",
    ], setup, [("golden", "match", lambda v: v.screen is Screen.MATCH)], _match_policy)
    path = root / SCRIPT_DIR / "match.keys"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def make_race_chart(root: Path) -> Path:
    """The score race of the guide's game as a chart (what ``pegboard stats --plot`` draws)."""
    guide = read_script(root / GUIDE_KEYS)
    with tempfile.TemporaryDirectory(prefix="pegboard-pictures-") as scratch:
        store = Store(Path(scratch) / "store", owner="pegboard pictures")
        try:
            result = run_script(guide.steps, Config(), store)
        finally:
            store.close()
    game = compute([(str(GUIDE_KEYS), result.record)]).games[-1]
    return write_plot(game.race, root / IMG_DIR / "race_chart.png")


def make_demos(package: Path) -> list[Path]:
    """The first deal for each kit, as the built-in demo scripts."""
    written = []
    for kit in ("encoder", "keypad"):
        config = Config()
        config = replace(config, input=replace(config.input, kit=kit))
        game = record_game(DEMO_SEED, config=config, until=_first_deal)
        path = package / f"demo_{kit}.txt"
        path.write_text(f"# The first deal of a two-player game on the {kit} kit\n"
                        "# (regenerate: python -m pegboard.sim.pictures)\n" + game.script,
                        encoding="utf-8")
        written.append(path)
    return written


def _first_deal(view: View) -> bool:
    """Stop when the second deal's starter is asked for."""
    return view.screen is Screen.STARTER and view.title.startswith("Deal 2")


def main(argv: list[str] | None = None) -> int:
    """Regenerate everything; the checkout's root is the current directory unless given."""
    args = sys.argv[1:] if argv is None else argv
    root = Path(args[0]) if args else Path.cwd()
    for path in (make_guide(root), make_match(root)):
        print(f"{path.relative_to(root)}: recorded")
    for line in write_frames(root):
        print(line)
    print(f"{make_race_chart(root).relative_to(root)}: the score race")
    for path in make_demos(Path(__file__).parent):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
