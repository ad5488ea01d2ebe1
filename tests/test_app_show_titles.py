"""Show titles fit the screen, from the players' side: with the longest names a seat can
have, no page of the show is cut ("Ann's hand: 12 (sai…" was); what does not fit the title
(the owner, what was said) has a line of its own."""

from __future__ import annotations

import json

import pytest

from pegboard.app.inputs import KnobTurn
from pegboard.app.machine import initial_state
from pegboard.app.state import Calling, Count, Reading
from pegboard.app.view import Screen
from pegboard.app.words import TITLE_CHARS, count_heading
from pegboard.config import Config
from pegboard.rules.cards import Card
from pegboard.rules.state import Reason
from tests.support.app_driver import OK, App

LONG = ("Bartholomew Smithers", "Maximiliana Quixotes")  # 20 characters each, the most


def long_named_game(*, muggins: bool) -> App:
    header = {"type": "game", "version": 4, "players": list(LONG),
              "rules": {"muggins": muggins}, "table": {"teaching": muggins}}
    return App(initial_state(Config(), resume=[json.dumps(header),
                                               json.dumps({"type": "deal", "dealer": 0})]))


def read_titles(app: App, seen: list[tuple[str, tuple[str, ...]]]) -> None:
    """Read every page (and, with teaching, answer "No muggins"), keeping what each showed."""
    while isinstance(app.state.screen, Reading | Calling):
        if app.view.screen in (Screen.SHOW, Screen.CONFIRM):  # the show's pages, its calls
            seen.append((app.view.title, app.view.lines))
        if isinstance(app.state.screen, Calling):
            app.feed(KnobTurn(len(app.view.lines) - 1 - (app.view.selected or 0)))
        app.feed(OK)


@pytest.mark.parametrize("muggins", [False, True])
def test_every_show_title_fits_with_the_longest_names(muggins: bool) -> None:
    app = long_named_game(muggins=muggins)
    seen: list[tuple[str, tuple[str, ...]]] = []
    read_titles(app, seen)
    for label in ("5", "4", "4", "7", "8", "8", "K", "Q", "9", "2", "3", "6", "J"):
        app.pick(label)
        read_titles(app, seen)
        while app.view.title.endswith(" claims"):
            pending = app.game.pending_claims[0]
            shown = int(app.view.lines[0].rsplit(":", 1)[1])
            short = 2 if pending.reason in (Reason.HAND, Reason.CRIB) and pending.points else 0
            app.feed(*([OK] if pending.points - short == shown else []))
            if app.view.title.endswith(" claims"):
                app.feed(KnobTurn(pending.points - short - shown), OK)
            read_titles(app, seen)
    counts = [(title, lines) for title, lines in seen if title.startswith(("Hand", "Crib"))]
    assert counts, seen  # the long names made the count titles short
    for title, lines in seen:
        assert len(title) <= TITLE_CHARS and not title.endswith("…"), title
        if title.startswith(("Hand", "Crib")):
            assert lines[0] in LONG  # the owner, whole, on the page's first line
    if muggins:
        assert any("said" in " ".join(lines) for _, lines in counts)
        assert any(title.startswith("Missed") for title, _ in seen)


def test_a_count_heading_loses_nothing_for_any_name_or_count() -> None:
    cards = tuple(Card.parse(text) for text in ("5H", "5D", "JS", "4C"))
    for length in range(1, 21):
        names = ("N" * length, "M")
        for crib in (False, True):
            for claimed in (None, 0, 7, 29):
                count = Count(0, crib, cards, (), claimed)
                title, first = count_heading(count, names)
                assert len(title) <= TITLE_CHARS
                text = " ".join((title, *first))
                assert names[0] in text and ("crib" if crib else "hand") in text.lower()
                assert (f"said {claimed}" in first) == (claimed not in (None, 0))
