"""Every page's words are wrapped once, by the app, at the screen's own width in its font:
the screen never breaks one of its lines again, so no word is left alone on a line of its
own ("P2's phone is let" / "go:")."""

from __future__ import annotations

import random

import pytest

from pegboard.app.inputs import InputEvent, KnobTurn, RankKey
from pegboard.app.pairing import taken_words
from pegboard.app.view import PageKind, Screen, SideView, View
from pegboard.app.words import wrap
from pegboard.coach import rulehelp
from pegboard.coach.help_shape import LINE_WIDTH, TEXT_WIDTH, Wrapped
from pegboard.rules.cards import Rank
from pegboard.ui import large
from pegboard.ui import render as panel
from pegboard.ui.marks import WIDTH
from pegboard.ui.text import CHAR_W
from pegboard.ui.text import wrap as text_wrap
from tests.support.app_driver import GO, MENU, OK, UNDO, App, started

SIDES = (SideView("Ann", 45, dealer=True), SideView("Ben", 38, to_act=True))


def broken_again(view: View) -> list[str]:
    """The lines of ``view`` the app wrapped (:class:`Wrapped`: a paragraph's first line, or
    one going on from it) that the screen would break again. A line the app wrote whole is
    broken by the screen alone, its one wrapping point."""
    return [line for line in view.lines[view.first_line:]
            if isinstance(line, Wrapped) and panel.page_rows(
                View(view.screen, view.title, (line,), sides=view.sides,
                     target=view.target)) != [line]]


def test_the_app_wraps_at_the_screens_own_width_in_its_font() -> None:
    assert WIDTH // CHAR_W == panel.COLUMNS == LINE_WIDTH
    assert TEXT_WIDTH == panel.COLUMNS  # a page that scrolls has its marks in the title bar


def test_a_phone_let_go_reads_as_wrapped_once() -> None:
    title, said = taken_words("P2")
    view = View(Screen.MESSAGE, title, wrap(said), hint="OK next")
    assert view.lines[0] == "P2's phone is let go:"[: len(view.lines[0])]
    assert panel.page_rows(view) == list(view.lines)
    assert not any(row in ("go:", "go: P2") for row in panel.page_rows(view))


@pytest.mark.parametrize("screen", [Screen.MESSAGE, Screen.HELP])
def test_words_wrapped_by_the_app_are_never_broken_again(screen: Screen) -> None:
    rng = random.Random(7)
    words = [w * rng.randint(1, 6) for w in "abcdefghij"] * 30
    rng.shuffle(words)
    view = View(screen, "A page", wrap(" ".join(words)), sides=SIDES)
    assert broken_again(view) == []


def test_every_help_topics_pages_are_wrapped_once() -> None:
    for topic in rulehelp.TOPICS:
        for page in topic.pages:
            assert broken_again(View(Screen.HELP, topic.title, page)) == [], topic.id


def storm(app: App, seed: int, events: int,
          broken: list[tuple[PageKind | None, str, str]]) -> dict[PageKind | None, int]:
    """Random keys through a game; every page read on the way is checked: returns how many
    pages of each kind were seen."""
    rng = random.Random(seed)
    keys: list[InputEvent] = [OK, OK, OK, OK, OK, OK, GO, UNDO, MENU, KnobTurn(1),
                              KnobTurn(-1), KnobTurn(2)]
    seen: dict[PageKind | None, int] = {}
    for _ in range(events):
        key: InputEvent = (rng.choice(keys) if rng.random() < 0.8
                           else RankKey(rng.choice(list(Rank))))
        app.feed(key)
        view = app.view
        if view.screen in panel.LIST_SCREENS or view.screen in (
                Screen.PLAY, Screen.PAIR, Screen.SAVED, Screen.RACE) or view.picker is not None:
            continue
        seen[view.page] = seen.get(view.page, 0) + 1
        broken.extend((view.page, view.title, line) for line in broken_again(view))
    return seen


def test_every_page_a_game_reads_is_wrapped_once() -> None:
    seen: dict[PageKind | None, int] = {}
    broken: list[tuple[PageKind | None, str, str]] = []
    for seed, app in enumerate((started(), started("Muggins: off"), started("Teaching: off"),
                                started("Muggins: off", "Teaching: off"))):
        for kind, n in storm(app, seed, 1500, broken).items():
            seen[kind] = seen.get(kind, 0) + n
    assert not broken, "\n".join(map(str, sorted(set(broken), key=str)))
    # Every kind of page but the club's (a broker's refusal, whose lines are its own) is read
    # on the way.
    assert set(seen) >= set(PageKind) - {PageKind.CLUB}, set(PageKind) - set(seen)
    assert seen[PageKind.COUNT] > 50 and seen[PageKind.NOTICE] > 50, seen


def test_large_print_wraps_a_notice_once_at_its_own_width() -> None:
    """The big words are wrapped from the whole sentence, not from each small line: no row
    is a small line's leftover ("go:" alone)."""
    title, said = taken_words("P2")
    view = View(Screen.MESSAGE, title, wrap(said), hint="OK next", large_print=True)
    rows = large.text_rows(view)
    assert rows == list(text_wrap(said, large.WORD_CHARS)), rows
