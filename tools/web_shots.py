"""``python -m tools.web_shots [FOLDER]``: the scoreboard pictures in docs/img, taken by a
real browser (the system's Chromium through Playwright) from ``pegboard web`` while a game is
written into a scratch store.

- ``web-phone.png``: a phone held upright (390x844 CSS pixels), in the play of a deal;
- ``web-tv.png``: the large-type layout on a 1920x1080 TV (``?tv=1``), in the show;
- ``web-end.png``: the phone at the end of the game: winner, skunk, game points, score race.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from tests.support.web import (
    EXAMPLES,
    ScriptedGame,
    WebServer,
    random_record,
    record_game,
    system_chromium,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, ViewportSize

DOCS_IMG = Path(__file__).resolve().parents[1] / "docs" / "img"
PICTURES = ("web-phone", "web-tv", "web-end")
"""The pictures this command takes, as named in docs/img."""
PHONE: ViewportSize = {"width": 390, "height": 844}
TV: ViewportSize = {"width": 1920, "height": 1080}
PLAY_LINE = 53
"""A moment in the play of the fifth deal of examples/two-player.jsonl (count 21, a pair)."""
SHOW_LINE = 60
"""The hands of that deal just counted."""


SETTLE_MS = 15_000
"""The longest to wait for the page to show a line (a hang guard, generous for a busy machine)."""


def _settle(page: Page, lines: int) -> None:
    # Selectors, not script: the page's content security policy refuses evaluated strings.
    page.wait_for_selector(f'body[data-lines="{lines}"]', state="attached", timeout=SETTLE_MS)
    page.wait_for_selector("#finished li", timeout=SETTLE_MS)


def take(folder: Path, browser: Browser | None = None) -> list[Path]:
    """Take the three pictures into ``folder`` with ``browser`` (by default the system's
    Chromium, launched here); their paths."""
    if browser is not None:
        return _take(folder, browser)
    with system_chromium() as launched:
        return _take(folder, launched)


def _take(folder: Path, browser: Browser) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    lines = (EXAMPLES / "two-player.jsonl").read_text(encoding="utf-8").splitlines()
    written: list[Path] = []
    with tempfile.TemporaryDirectory() as scratch:
        store = Path(scratch) / "store"
        for seed in (3, 11):
            record_game(store, random_record(seed))
        game = ScriptedGame(store, lines)
        game.play_to(PLAY_LINE)
        with WebServer(store) as server:
            phone = browser.new_page(viewport=PHONE, device_scale_factor=2)
            phone.goto(server.url)
            _settle(phone, PLAY_LINE)
            written.append(folder / "web-phone.png")
            phone.screenshot(path=written[-1])

            game.play_to(SHOW_LINE)
            tv = browser.new_page(viewport=TV)
            tv.goto(server.url + "?tv=1")
            _settle(tv, SHOW_LINE)
            written.append(folder / "web-tv.png")
            tv.screenshot(path=written[-1])

            game.play_to(len(game.lines))
            game.finish()
            _settle(phone, len(game.lines))
            phone.wait_for_selector("#finished li:nth-child(3)")
            phone.wait_for_selector("#result-box:not([hidden])")
            written.append(folder / "web-end.png")
            phone.screenshot(path=written[-1])
            phone.close()
            tv.close()
        game.close()
    return written


def main(argv: list[str] | None = None) -> int:
    """Take the pictures (into docs/img unless a folder is given) and list them."""
    args = sys.argv[1:] if argv is None else argv
    for path in take(Path(args[0]) if args else DOCS_IMG):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
