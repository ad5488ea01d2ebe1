"""Pieces every screen's view is built from: the board header, numbered rows."""

from __future__ import annotations

from pegboard.app.view import Screen, SideView, View
from pegboard.app.words import side_name
from pegboard.rules.state import GameState, Phase, shown_scores


def sides(gs: GameState, *, scores: tuple[int, ...] | None = None,
          backs: tuple[int, ...] | None = None) -> tuple[SideView, ...]:
    """Each side on the board header; ``scores`` and ``backs`` show the board as it stood at
    an earlier moment (a count read after later ones were pegged). No side is shown past the
    target: the engine's board as shown (a pegged-out 122 reads 121)."""
    shown = shown_scores(gs.scores if scores is None else scores, gs.rules.target)
    back = gs.back_pegs if backs is None else backs
    dealer_side = gs.side_of(gs.dealer) if gs.dealer is not None else None
    acting = gs.side_of(gs.to_act) if gs.to_act is not None else None
    return tuple(
        SideView(
            name=side_name(gs, s), score=shown[s], back=back[s], dealer=s == dealer_side,
            to_act=s == acting and gs.phase is Phase.PLAY,
            winner=gs.winner == s and scores is None,
        )
        for s in range(gs.sides)
    )


def board(gs: GameState, screen: Screen, title: str = "") -> View:
    """A table screen with the board header (the rest is added with ``replace``)."""
    return View(screen, title, sides=sides(gs), target=gs.rules.target)


def numbered(keypad: bool, rows: list[str]) -> tuple[str, ...]:
    """List rows, numbered on the keypad kit (key N chooses row N)."""
    if not keypad:
        return tuple(rows)
    return tuple(f"{i + 1} {row}" if i < 9 else row for i, row in enumerate(rows))
