"""The game reviewed on the device, from the game-over screen's menu: the biggest mistakes by
expected points given up (discards and pegging), then each player's totals and counting.

The review is the engine's (:func:`pegboard.coach.lessons.lessons`, worked out once a game
and kept in the session's memo); these pages only put it in the screen's 21 columns, with
the same facts and words as ``pegboard review`` and the scoreboard's review.
"""

from __future__ import annotations

from pegboard.app.session import Session
from pegboard.app.state import Page
from pegboard.app.view import Screen
from pegboard.app.words import wrap
from pegboard.coach.lessons import lessons, player_parts, worth_showing
from pegboard.coach.review import points_text

TOP = 5
"""The most mistakes the device's review lists (the biggest first)."""

TITLE = "Review"


def review_pages(session: Session) -> tuple[Page, ...]:
    """A page for each mistake worth showing, biggest first, then one for each player."""
    found = session.memo("review", lambda: lessons(session.game))
    names = found.names
    mistakes = worth_showing(found, TOP)
    pages: list[Page] = []
    if not mistakes:
        pages.append(Page(TITLE, wrap("No mistake worth a tenth of a point on average.")))
    for number, mistake in enumerate(mistakes, start=1):
        where = f"deal {mistake.deal_no}" if found.games == 1 else (
            f"game {mistake.game_no} deal {mistake.deal_no}")
        lines = (*wrap(f"{names[mistake.player]}, {where}, {mistake.kind}:"),
                 *wrap(mistake.did), *wrap(mistake.better))
        pages.append(Page(f"{TITLE} {number}/{len(mistakes)}: -{points_text(mistake.lost)}",
                          lines, Screen.HELP))
    for who in found.players:
        lines = tuple(line for part in player_parts(who) for line in wrap(part))
        pages.append(Page(f"{TITLE}: {names[who.player]}", lines, Screen.HELP))
    return tuple(pages)
