"""The voice follows the reports the loop tells it, added and withdrawn, and knows a page by
its kind: it never compares two games, never reads a title or the award line to know what a
page or an undo was."""

from __future__ import annotations

from pegboard.app.effects import Changes
from pegboard.app.state import Page, Reading
from pegboard.app.view import PageKind, Screen, View
from pegboard.rules.value import replace
from pegboard.voice.audio import screen_words
from tests.support.announcing import added, announcer_after

LINES = ("Ann cut, Ben turned the starter.",)


def test_a_coach_page_is_known_by_its_kind_not_its_title() -> None:
    announcer, state, entered = announcer_after(("Ann", "Ben"), "deal 0; starter 5C")
    titled = Page("Coach: the starter", LINES)  # a coach's title, but a notice
    announcer.heard(replace(state, screen=Reading((titled,))), entered)
    assert announcer.voiced == frozenset()
    kinded = Page("Starter", LINES, kind=PageKind.COACH)
    said = announcer.heard(replace(state, screen=Reading((titled, kinded)))).said
    assert [(a.text, a.kind) for a in said] == [
        ("Ann cut, Ben turned the starter.", "coach")]
    assert announcer.voiced == frozenset({PageKind.COACH})


def test_a_page_the_teaching_voice_said_is_reached_by_its_title_alone() -> None:
    view = View(Screen.MESSAGE, "Coach: the starter", LINES, page=PageKind.COACH)
    assert screen_words(view, frozenset({PageKind.COACH})) == "Coach: the starter"
    assert screen_words(view) == "Coach: the starter. Ann cut, Ben turned the starter."
    notice = replace(view, page=PageKind.NOTICE)  # the same title on another kind of page
    assert screen_words(notice, frozenset({PageKind.COACH})) == screen_words(notice)


def test_an_undo_is_said_from_the_report_it_withdraws_not_the_award_line() -> None:
    announcer, state, entered = announcer_after(("Ann", "Ben"), "deal 0; starter 5C; play 1 7D")
    announcer.audio = True
    announcer.heard(state, entered)
    assert state.session is not None
    play = entered.added[-1]
    session = state.session.undo()
    undone = replace(state, session=session, award="Pegged: whatever the screen says")
    heard = announcer.heard(undone, Changes(withdrawn=(play,)))
    assert [a.text for a in heard.said] == ["Taken back: Ben's 7"]
    assert heard.undone == 2  # what the speaker still holds for the entry is dropped


def test_only_the_reports_added_are_said_whatever_the_game_holds() -> None:
    announcer, state, entered = announcer_after(
        ("Ann", "Ben"), "deal 0; starter 2C; play 1 7D 0 8C 1 9S")
    assert announcer.heard(state).said == ()  # nothing told: nothing said, though the game grew
    fifteen = entered.added[-2]
    assert [a.text for a in announcer.heard(state, added(fifteen)).said] == [
        "Ann: fifteen for two"]


def test_a_count_page_reached_is_said_by_what_it_counts_not_its_title_cut_short() -> None:
    view = View(Screen.SHOW, "Ben's hand: 12", ("fifteen 2 (7 8)",), page=PageKind.COUNT,
                named="Ben's hand")
    assert screen_words(view) == "Ben's hand"  # its points are the facts', said already
    assert screen_words(replace(view, title="Ben: a title of any shape")) == "Ben's hand"
