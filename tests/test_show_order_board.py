"""The coach's page on the show order comes before the counts it explains, with the board as
it stood before them: it never tells the counts' points ahead of their own pages (the
screen and the 80x24 text panel)."""

from __future__ import annotations

from tests.support.app_driver import OK
from tests.test_app_lessons_restart import REST, lay, to_the_first_31
from tests.test_panel_wrapped_lines import panel_text


def test_the_show_orders_page_shows_the_board_before_the_counts() -> None:
    app = to_the_first_31()
    lay(app, *REST[:-1])
    app.pick(REST[-1])  # the last card: both hands are counted by this entry
    assert [page.title for page in app.pages][:4] == [
        "End of the play", "Coach: the show", "P2's hand: 8", "P1's hand: 8"]
    end = [(side.name, side.score) for side in app.view.sides]
    app.feed(OK)
    assert app.view.title == "Coach: the show"
    assert [(side.name, side.score) for side in app.view.sides] == end == [("P1", 2), ("P2", 5)]
    assert panel_text(app.view).startswith("P1 (D) 2   P2 5   to 121 \u2502 Coach: the show")
    app.feed(OK)
    assert [(side.name, side.score) for side in app.view.sides] == [("P1", 2), ("P2", 13)]
