"""A club board's setup: where the next game sits in the night, and the night's lock.

A board whose config has ``[club] enabled = true`` starts every game as a club game: its
header's ``club`` object (docs/record.md) takes the night, the table and the tournament lock
from the config (the night's settings, the same on every board) and the round and the guest
seat from setup's rows. Each seat's member number is the seat's name as set at setup. After
each club game the round moves on by one.

Under the night's lock (docs/club.md) setup offers no teaching and no count it yourself and
says so in their place; the game's header records the lock, and the engine refuses any
option line that would switch help on.
"""

from __future__ import annotations

from dataclasses import replace

from pegboard.app.state import Setup
from pegboard.config import ClubConfig
from pegboard.rules.events import ClubSeat, TableOptions

LOCK_ROW = "Tournament: no help"
"""What setup and the menu say in place of the help rows under the tournament lock."""

HELP_ROWS = frozenset({"teaching", "own"})
"""Setup's rows that switch help on, taken off under the lock."""

MOST_ROUNDS = 20
"""The round row goes back to 1 after this one."""


def rows(setup: Setup, club: ClubConfig) -> list[tuple[str, str]]:
    """The club rows after the seats: the night and table (fixed), the round, the guest."""
    guest = "none" if setup.guest < 0 else f"seat {setup.guest + 1}"
    return [("club", f"Club night {club.night} table {club.table}"),
            ("round", f"Round: {setup.club_round}"),
            ("guest", f"Guest: {guest}")]


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
                    tuple(setup.names[: setup.players]), club.lock, guests)


def options(table: TableOptions, club: ClubConfig) -> TableOptions:
    """The table options a club game starts with: no teaching or count it yourself under the
    lock."""
    if not club.lock:
        return table
    return replace(table, teaching=False, count_yourself=False)


def after(setup: Setup) -> Setup:
    """Setup for the board's next game: the next round."""
    return change(setup, "round")
