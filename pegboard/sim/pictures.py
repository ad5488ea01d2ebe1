"""Pictures for the guide and the demo scripts, made by the scripted simulator.

``python -m pegboard.sim.pictures`` (from a checkout) does three things:

1. lets the pretend table (:mod:`pegboard.sim.autoplay`) play a whole two-player game and
   writes its keys to ``docs/guide.keys``;
2. plays ``docs/guide.keys`` with ``pegboard sim --script`` machinery (mock pins, the real
   app, a fake clock) and saves the first frame of each stage of the game under
   ``docs/img/`` (each OLED pixel drawn as a 3x3 block so the pictures are readable);
3. writes the built-in demo scripts (the first deal, for each kit) that ``make run`` plays
   when there is no terminal.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from PIL import Image

from pegboard.app.view import Screen, View
from pegboard.config import Config
from pegboard.sim.autoplay import record_game
from pegboard.sim.script import run_script
from pegboard.store import Store
from pegboard.testing import parse_script

SCALE = 3
SEED = 4

Pick = Callable[[View], bool]

STAGES: tuple[tuple[str, Pick], ...] = (
    ("home", lambda v: v.screen is Screen.HOME),
    ("setup", lambda v: v.screen is Screen.SETUP),
    ("dealer", lambda v: v.screen is Screen.DEALER),
    ("cut", lambda v: v.screen is Screen.CUT),
    ("starter", lambda v: v.screen is Screen.STARTER),
    ("play", lambda v: v.screen is Screen.PLAY and v.count is not None and v.count > 0),
    ("play_award", lambda v: v.screen is Screen.PLAY and bool(v.award)),
    ("show", lambda v: v.screen is Screen.SHOW),
    ("crib", lambda v: v.screen is Screen.CRIB),
    ("game_over", lambda v: v.screen is Screen.GAME_OVER),
)


def first_deal(view: View) -> bool:
    """Stop when the second deal's starter is asked for."""
    return view.screen is Screen.STARTER and view.title.startswith("Deal 2")


def make_guide(root: Path) -> list[Path]:
    """Write docs/guide.keys and the docs/img pictures under ``root``; returns the pictures."""
    game = record_game(SEED)
    keys = root / "docs" / "guide.keys"
    keys.parent.mkdir(parents=True, exist_ok=True)
    keys.write_text("# A whole two-player game, as the pretend table pressed the keys\n"
                    "# (regenerate: python -m pegboard.sim.pictures)\n" + game.script,
                    encoding="utf-8")
    out = root / "docs" / "img"
    out.mkdir(parents=True, exist_ok=True)
    wanted = dict(STAGES)
    written: list[Path] = []

    def keep(view: View, image: Image.Image) -> None:
        for name, pick in list(wanted.items()):
            if pick(view):
                del wanted[name]
                path = out / f"{name}.png"
                image.resize((image.width * SCALE, image.height * SCALE),
                             Image.Resampling.NEAREST).save(path)
                written.append(path)

    with tempfile.TemporaryDirectory() as scratch:
        store = Store(Path(scratch), owner="pictures")
        try:
            result = run_script(parse_script(keys.read_text(encoding="utf-8")), Config(), store,
                                on_frame=keep)
        finally:
            store.close()
    if result.final_frame is not None:
        saved = out / "saved.png"
        result.final_frame.resize((128 * SCALE, 64 * SCALE), Image.Resampling.NEAREST).save(saved)
        written.append(saved)
    return written


def make_demos(package: Path) -> list[Path]:
    """The first deal for each kit, as the built-in demo scripts."""
    written = []
    for kit in ("encoder", "keypad"):
        config = Config()
        config = replace(config, input=replace(config.input, kit=kit))
        game = record_game(SEED, config=config, until=first_deal)
        path = package / f"demo_{kit}.txt"
        path.write_text(f"# The first deal of a two-player game on the {kit} kit\n"
                        "# (regenerate: python -m pegboard.sim.pictures)\n" + game.script,
                        encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    """Regenerate everything; the checkout's root is the current directory unless given."""
    args = sys.argv[1:] if argv is None else argv
    root = Path(args[0]) if args else Path.cwd()
    for path in [*make_guide(root), *make_demos(Path(__file__).parent)]:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
