"""The scoreboard with a screen reader: axe-core (the copy shipped in axe-playwright-python, so
no network) and the page's accessibility tree, read through Playwright in Debian's Chromium
while a game is written into the store entry by entry.

One server, one browser and one page for the module: the game is played once, and at each
state the tests look at (an award in the play, the show, the game over) the page is checked
by axe and its accessibility tree kept. Waiting is on the page's own mark of the line it
shows, never a sleep.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

from pegboard.app.words import awards_text, result_lines
from pegboard.rules.facts import Report
from pegboard.rules.state import Phase
from tests.support.web import (
    EXAMPLES,
    SHOWN_WITHIN_MS,
    ScriptedGame,
    WebServer,
    chromium,
    shown_lines,
    system_chromium,
)

CHROMIUM = chromium()
pytestmark = pytest.mark.skipif(CHROMIUM is None,
                                reason="needs chromium (`make test` installs it)")

LINES = (EXAMPLES / "two-player.jsonl").read_text(encoding="utf-8").splitlines()
BLOCKING = ("serious", "critical")
CONTROLS = ("button", "link", "textbox", "checkbox", "radio", "combobox", "slider",
            "switch", "searchbox", "spinbutton", "menuitem", "tab")


@dataclass
class Seen:
    """The page at one state of the game: axe's findings and the accessibility tree."""

    line: int
    violations: list[dict[str, Any]]
    tree: str
    said: list[str]
    expected: list[str] = field(default_factory=list)


def look(page: Page, line: int) -> Seen:
    shown_lines(page, line)
    results = Axe().run(page)
    said = page.locator("#announce p").all_text_contents()
    return Seen(line, list(results.response["violations"]), page.locator("body").aria_snapshot(),
                said)


def report(game: ScriptedGame) -> Report:
    """The engine's report of the entry just written."""
    assert game.game.report is not None
    return game.game.report


def award_words(game: ScriptedGame) -> str:
    """The award just made, with the standing after it, in the app's words (what the
    announcer is to say)."""
    acts = [awards_text(list(act.awards), game.state.names) for act in report(game).scored]
    gs, over = game.state, report(game).game_over
    shown = over.shown if over is not None else gs.scores
    standing = ", ".join(f"{name} {score}" for name, score in zip(gs.names, shown, strict=True))
    return ". ".join(acts) + ". " + standing


@pytest.fixture(scope="module")
def states(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Seen]]:
    """The game played once with the page open: the page at an award in the play, at the
    show, at the game's end, the same opened in the TV layout, the review of the game once
    it is finished, and the 404 page."""
    store = tmp_path_factory.mktemp("a11y") / "store"
    game = ScriptedGame(store, LINES)
    seen: dict[str, Seen] = {}
    with WebServer(store, poll=0.02) as server, system_chromium() as browser:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(server.url)
        shown_lines(page, 1)
        said: list[str] = []
        while not game.done:
            before = len(game.state.awards)
            line = game.step()
            if len(game.state.awards) > before:
                # The page sees every award, as at a table's pace (entries written faster
                # than it polls would reach it together, and it says the latest award).
                shown_lines(page, line)
                said.append(award_words(game))
            phase = game.state.phase
            if "play" not in seen and phase is Phase.PLAY and said and game.state.count:
                seen["play"] = look(page, line)
                seen["play"].expected = list(said)
            elif "show" not in seen and report(game).show_steps:  # a hand counted
                seen["show"] = look(page, line)
                seen["show"].expected = list(said)
        title, result = result_lines(game.state)
        said.append(". ".join([title, *result]))
        seen["over"] = look(page, line)
        seen["over"].expected = said
        page.goto(server.url + "?tv=1")  # the large-type layout, opened at the game's end
        shown_lines(page, line)
        seen["tv"] = Seen(line, list(Axe().run(page).response["violations"]),
                          page.locator("body").aria_snapshot(), [])
        game.finish()  # into the history: the review page reviews it
        page.goto(server.url + "review")
        page.wait_for_selector("h1", timeout=SHOWN_WITHIN_MS)
        seen["review"] = Seen(line, list(Axe().run(page).response["violations"]),
                              page.locator("body").aria_snapshot(), [])
        page.goto(server.url + "no/such/page")
        seen["missing"] = Seen(0, list(Axe().run(page).response["violations"]),
                               page.locator("body").aria_snapshot(), [])
    game.close()
    yield seen


@pytest.mark.parametrize("state", ["play", "show", "over", "tv", "review", "missing"])
def test_axe_finds_nothing_serious(states: dict[str, Seen], state: str) -> None:
    blocking = [(v["id"], v["impact"], v["help"], [n["target"] for n in v["nodes"]])
                for v in states[state].violations if v["impact"] in BLOCKING]
    assert blocking == []


def test_the_live_region_says_each_award_and_the_result_as_they_arrive(
        states: dict[str, Seen]) -> None:
    """Everything said is in the log (the last five lines kept): each award with the standing
    after it, in the order they came, then the result; nothing said twice, and what the
    page showed when it was opened is not said."""
    for name in ("play", "show", "over"):
        seen = states[name]
        assert seen.said == seen.expected[-5:], name
    over = states["over"]
    assert over.said[-1].startswith("Ben wins. ") and over.said[-2].endswith("Ben 121")


def test_the_tree_reads_the_live_region_after_an_award(states: dict[str, Seen]) -> None:
    """In the accessibility tree, as a screen reader reads it: the log named "Announcements",
    its last line the award just made (from the play's first award on)."""
    play = states["play"]
    block = _region(play.tree, 'log "Announcements"')
    last = block[-1].strip().removeprefix("- paragraph: ").strip('"')
    assert last == play.expected[-1]
    assert re.search(r"\. Ann \d+, Ben \d+$", last)


def test_headings_are_in_order(states: dict[str, Seen]) -> None:
    for name in ("play", "show", "over", "tv", "review", "missing"):
        levels = [int(level) for level in re.findall(r"\[level=(\d)\]", states[name].tree)]
        assert levels and levels[0] == 1, name
        assert all(b <= a + 1 for a, b in pairwise(levels)), (name, levels)
    play = _headings(states["play"].tree)
    assert play[:2] == [("Pegboard", 1), ("Scores", 2)]
    assert {("The board", 2), ("Finished games", 2)} <= set(play)
    show = _headings(states["show"].tree)
    assert ("The show", 2) in show and any(level == 3 and "hand" in text
                                           for text, level in show)


def test_every_control_has_a_name(states: dict[str, Seen]) -> None:
    controls = {name: _controls(seen.tree) for name, seen in states.items()}
    for name, found in controls.items():
        assert all(label for _, label in found), (name, found)
    assert ("link", "Back to the scoreboard") in controls["missing"]
    assert controls["play"] and controls["review"]  # (the links to the review and back)


def _headings(tree: str) -> list[tuple[str, int]]:
    return [(text.replace("''", "'"), int(level)) for text, level in
            re.findall(r"heading \"(.*?)\" \[level=(\d)\]", tree)]


def _controls(tree: str) -> list[tuple[str, str]]:
    """Each control in the tree with its accessible name ("" when it has none)."""
    found = []
    for role, name in re.findall(r"^\s*- (\w+)(?: \"(.*?)\")?", tree, re.MULTILINE):
        if role in CONTROLS:
            found.append((role, name))
    return found


def _region(tree: str, head: str) -> list[str]:
    """The lines of the tree under ``head`` (indented deeper than it)."""
    lines = tree.splitlines()
    start = next(i for i, line in enumerate(lines) if head in line)
    indent = len(lines[start]) - len(lines[start].lstrip())
    block = []
    for line in lines[start + 1:]:
        if len(line) - len(line.lstrip()) <= indent:
            break
        block.append(line)
    return block



