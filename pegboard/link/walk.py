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
    """One step of the walk: its line, and the board that lights that hole alone (the skunk
    markers excepted: the firmware draws them faintly on every board)."""
    front = [0] * cfg.tracks
    front[side] = hole
    if hole == GAME_HOLE:
        where = "the game hole"
    else:
        row, col = hole_position(cfg, side, hole)
        where = f"track {side + 1} hole {hole} (board row {row + 1}, column {col + 1})"
    return f"LED {led}: {where}", BoardState.from_scores(front)
