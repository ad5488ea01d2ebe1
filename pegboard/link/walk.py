"""The LED strip's walk: every LED of the chain lit alone, in chain order, each named by the
hole it lights. A dark LED, or a row lit in the wrong order, is where the strip is broken or
reversed. ``pegboard bringup leds`` walks it over SSH, the box's "Test the box" from its own
menu; both take their steps from here."""

from __future__ import annotations

from pegboard.link.board import BoardState
from pegboard.link.layout import GAME_HOLE, LedConfig, hole_position, layout_table


def walk_order(cfg: LedConfig) -> list[tuple[int, int, int]]:
    """Every LED of the chain in order, as (LED index, side, hole); the shared game hole once,
    as side 0's."""
    found: dict[int, tuple[int, int]] = {}
    for side, holes in enumerate(layout_table(cfg)):
        for hole, led in enumerate(holes):
            if led is not None and led not in found:
                found[led] = (side, hole)
    return [(led, side, hole) for led, (side, hole) in sorted(found.items())]


def walk_step(cfg: LedConfig, led: int, side: int, hole: int) -> tuple[str, BoardState]:
    """One step of the walk: its line as a terminal prints it ("LED 30: track 2 hole 30
    (board row 2, column 30)"), and the board that lights that hole alone (the skunk markers
    excepted: the firmware draws them faintly on every board)."""
    place = _place(cfg, side, hole)
    if place is None:
        where = "the game hole"
    else:
        where = f"track {side + 1} hole {hole} (board row {place[0]}, column {place[1]})"
    return f"LED {led}: {where}", _lit(cfg, side, hole)


def walk_screen(cfg: LedConfig, led: int, side: int, hole: int) -> tuple[str, ...]:
    """The same step on the box's screen, each fact a line short enough for it (21
    columns), so none is broken across two: ("LED 30", "track 2 hole 30", "row 2, column
    30"), the rows and columns the board's (the page's title names the walk)."""
    place = _place(cfg, side, hole)
    if place is None:
        return (f"LED {led}", "the game hole")
    return (f"LED {led}", f"track {side + 1} hole {hole}", f"row {place[0]}, column {place[1]}")


def _place(cfg: LedConfig, side: int, hole: int) -> tuple[int, int] | None:
    """The board's row and column (from 1) of ``side``'s ``hole``; None for the game hole."""
    if hole == GAME_HOLE:
        return None
    row, col = hole_position(cfg, side, hole)
    return row + 1, col + 1


def _lit(cfg: LedConfig, side: int, hole: int) -> BoardState:
    """The board lighting ``side``'s ``hole`` alone."""
    front = [0] * cfg.tracks
    front[side] = hole
    return BoardState.from_scores(front)
