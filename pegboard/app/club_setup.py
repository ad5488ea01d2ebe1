"""A club board's setup: where the next game sits in the night, and the night's lock.

A board whose config has ``[club] enabled = true`` starts every game as a club game: its
header's ``club`` object (docs/record.md) takes the night, the table and the tournament lock
from the config (the night's settings, the same on every board) and the round, each seat's
member number and the guest seat from setup's rows. A member number is entered on its row:
OK starts it, turning counts (or the keypad's rank keys type digits: A is 1, 10 is 0), OK
sets it (and goes back to Start) and UNDO leaves it as it was. Start asks for the first
seat's number still missing. After
each club game the round moves on by one; the member numbers stay for the next round's
players to change.

Under the night's lock (docs/club.md) setup offers no teaching and no count it yourself and
says so in their place; the game's header records the lock, and the engine refuses any
option line that would switch help on.
"""

from __future__ import annotations

from pegboard.app.inputs import InputEvent
from pegboard.app.keys import Key, key_of, number_edit
from pegboard.app.state import AppState, Result, Setup, SetupScreen
from pegboard.config import ClubConfig
from pegboard.rules.events import ClubSeat, TableOptions
from pegboard.rules.value import replace

LOCK_ROW = "Tournament: no help"
"""What setup and the menu say in place of the help rows under the tournament lock."""

HELP_ROWS = frozenset({"teaching", "open", "own"})
"""Setup's rows that switch help on, taken off under the lock."""

EDIT_HINT = "number: turn  OK set"
"""Setup's hint while a member number is being entered."""

MOST_ROUNDS = 20
"""The round row goes back to 1 after this one."""


MOST_MEMBER = 999_999
"""The highest member number the board takes (the ACC's are six digits at most)."""


def rows(setup: Setup, club: ClubConfig, screen: SetupScreen | None = None
         ) -> list[tuple[str, str]]:
    """The club rows after the seats: the night and table (fixed), the round, each seat's
    member number (the one being entered shown with a cursor), the guest."""
    guest = "none" if setup.guest < 0 else f"seat {setup.guest + 1}"
    found = [("club", f"Club night {club.night} table {club.table}"),
             ("round", f"Round: {setup.club_round}")]
    for seat in range(setup.players):
        number = setup.members[seat] or "?"
        if screen is not None and screen.editing == seat:
            number = f"{screen.number or ''}_"
        found.append((f"member{seat}", f"Member {seat + 1}: {number}"))
    return [*found, ("guest", f"Guest: {guest}")]


def missing(setup: Setup) -> int | None:
    """The first seat without a member number, or None."""
    return next((s for s in range(setup.players) if not setup.members[s]), None)


def start_editing(screen: SetupScreen, seat: int, index: int) -> SetupScreen:
    """Enter ``seat``'s member number on the row at ``index``."""
    return replace(screen, index=index, editing=seat, number=0)


def edit(state: AppState, screen: SetupScreen, event: InputEvent) -> Result:
    """A member number being entered: turning or digits change it; OK sets it."""
    if key_of(event) is Key.OK:
        seat = screen.editing
        members = list(state.setup.members)
        members[seat] = str(screen.number) if screen.number else members[seat]
        setup = replace(state.setup, members=tuple(members))
        # Start is highlighted again: its OK asks for the next number missing, or starts.
        return replace(state, setup=setup, screen=SetupScreen()), ()
    number = number_edit(screen.number, event, MOST_MEMBER)
    return replace(state, screen=replace(screen, number=number)), ()


def change(setup: Setup, key: str) -> Setup:
    """OK on a club row: the round goes up by one (back to 1 after the last); the guest is
    the next seat, then none."""
    if key == "round":
        return replace(setup, club_round=setup.club_round % MOST_ROUNDS + 1)
    if key == "guest":
        return replace(setup, guest=setup.guest + 1 if setup.guest + 1 < setup.players else -1)
    return setup


def seat(setup: Setup, club: ClubConfig) -> ClubSeat:
    """The next game's place in the night."""
    guests = (setup.guest,) if 0 <= setup.guest < setup.players else ()
    return ClubSeat(club.night, setup.club_round, club.table,
                    tuple(setup.members[: setup.players]), club.lock, guests)


def options(table: TableOptions, club: ClubConfig) -> TableOptions:
    """The table options a club game starts with: no teaching, open hands or count it
    yourself under the lock."""
    if not club.lock:
        return table
    return replace(table, teaching=False, count_yourself=False, open_hands=False)


def after(setup: Setup) -> Setup:
    """Setup for the board's next game: the next round."""
    return change(setup, "round")
