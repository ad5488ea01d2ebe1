"""The board's word from the club: a result the broker refused, and the night the standings
service set (docs/club.md).

The club publisher runs beside the loop and writes what the broker said in its status file;
the loop reads it and hands the app a :class:`~pegboard.app.inputs.ClubStatus`. A new
refusal is put on the screen at once, as a page over whatever the table is doing (OK goes
back to it), since nobody else at the table would know the result did not reach the
standings; while it stands, the home screen's bottom line says so. Once the publisher has
the result taken (the config put right), the status is cleared and so is the page, if it is
still up.

The standings service publishes the club's night (its number, the next round and the
tournament lock), which the publisher writes in its status file and the loop hands the app as
a :class:`~pegboard.app.inputs.ClubNight`: the board's next game starts there, whatever its
config file says, so no board's config changes from week to week. The round only moves on
within a night (a board whose own next round is already past the service's keeps it: its
game was counted before the others'); a new night starts at the service's round.
"""

from __future__ import annotations

from pegboard.app.inputs import ClubNight, ClubStatus
from pegboard.app.state import AppState, Home, Page, Reading
from pegboard.app.view import PageKind
from pegboard.rules.value import replace

TITLE = "Result not sent"
AGAIN = "It goes by itself once this is put right."
HOME_HINT = "Club result not sent"
"""The home screen's bottom line while a refusal stands."""


def page(refused: str) -> Page:
    """The page that says why the broker refused a result."""
    return Page(TITLE, (refused[:1].upper() + refused[1:], AGAIN), kind=PageKind.CLUB)


def arrived(state: AppState, status: ClubStatus) -> AppState:
    """The publisher's status: a new refusal is shown over the screen; none any more clears
    it (and its page); the same refusal again changes nothing."""
    if status.refused == state.club:
        return state
    screen = state.screen
    if isinstance(screen, Reading):  # an earlier refusal's page goes: the news replaces it
        kept = tuple(p for p in screen.pages if p.kind is not PageKind.CLUB)
        if kept != screen.pages:
            screen = replace(screen, pages=kept, scroll=0) if kept else (
                screen.then if screen.then is not None else Home())
    if status.refused:
        shown = page(status.refused)
        screen = (replace(screen, pages=(*screen.pages, shown)) if isinstance(screen, Reading)
                  else Reading((shown,), then=screen))
    return replace(state, club=status.refused, screen=screen)


def night(state: AppState, said: ClubNight) -> AppState:
    """The club's night from the service: the config's night and lock for the next game,
    and its round (see the module)."""
    club = state.config.club
    if not club.enabled:
        return state
    same = said.night == club.night
    round_ = max(state.setup.club_round, said.round) if same else said.round
    config = replace(state.config, club=replace(club, night=said.night, lock=said.lock))
    return replace(state, config=config, setup=replace(state.setup, club_round=round_))
