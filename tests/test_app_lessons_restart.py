"""Once-a-game lessons are read off the record, not remembered: a teaching game cut by a power
cut (its record kept by a real store, the store closed as the cut leaves it, the device
started again from it) does not give a lesson again that it gave before the cut, and still
gives one it had not given yet."""

from __future__ import annotations

from pathlib import Path

from tests.support.app_driver import GO, App
from tests.test_app_offer_restart import power_cut_and_start
from tests.test_app_teaching import teaching_game


def lay(app: App, *labels: str) -> list[str]:
    """Each card laid (GO: the player to act says go), every page read; the titles of the
    pages they brought up."""
    titles: list[str] = []
    for label in labels:
        if label == "GO":
            app.feed(GO)
        else:
            app.pick(label)
        titles.extend(page.title for page in app.pages)
        while app.pages:
            app.read()
    return titles


def to_the_first_31() -> App:
    """A teaching game, starter 5: P2 K, P1 Q, P2 J, P1 go, P2 A for 31: the coach's page on
    the go and 31, and the rule help on them, given."""
    app = teaching_game()
    titles = lay(app, "5", "K", "Q", "J", "GO", "A")
    assert "Coach: the go" in titles and any(t.startswith("Go and 31") for t in titles)
    return app


REST = ("10", "K", "Q", "GO", "2")
"""P1 leads 10 (rule help: who leads after a go), P2 K, P1 Q for 30, P1's go, P1's 2 for the
last card: a go again (its lessons given already), then the show (its coach page not yet)."""


def test_a_lesson_given_before_a_power_cut_is_not_given_again(tmp_path: Path) -> None:
    app = to_the_first_31()
    resumed = power_cut_and_start(tmp_path, app.record)
    assert [page.title for page in resumed.pages] == ["Game restored"]
    resumed.read()
    titles = lay(resumed, *REST)
    assert "Coach: the go" not in titles
    assert not any(t.startswith("Go and 31") for t in titles), titles
    # Lessons not given before the cut still are: rule help on the lead after a go, the show.
    assert any(t.startswith("Who leads after a go") for t in titles), titles
    assert "Coach: the show" in titles
    # And the same game never cut gives exactly the same pages.
    assert titles == lay(app, *REST)


def test_the_lessons_read_off_the_record_are_those_the_table_gave(tmp_path: Path) -> None:
    """Cut after the show: the lessons the record says were given are the very ones the
    uncut game remembers, read when the next entry is made (not at start)."""
    app = to_the_first_31()
    lay(app, *REST)
    resumed = power_cut_and_start(tmp_path, app.record)
    resumed.read()
    assert resumed.state.helped_unread and resumed.state.helped == frozenset()
    lay(resumed, "7", "8", "9")  # the crib's cards, entered as one entry with the last
    assert resumed.state.helped_unread
    crib = lay(resumed, "3")
    assert crib == lay(app, "7", "8", "9", "3")
    assert not resumed.state.helped_unread
    assert resumed.state.helped == app.state.helped
    # The basics (offered as teaching was turned on before the first card) among them.
    assert {"how-to-play", "counting", "coach the show", "coach the go", "go-and-31",
            "lead-after-go"} <= resumed.state.helped
