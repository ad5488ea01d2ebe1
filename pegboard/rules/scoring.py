"""Itemised scores: the shared shape of a show breakdown and of a pegging award list."""

from __future__ import annotations

from dataclasses import dataclass

from pegboard.rules.cards import Card


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One scoring combination: what it is, the cards that make it, and its points.

    ``kind`` is one of ``fifteen``, ``pair``, ``run``, ``flush``, ``nobs`` in the show, and
    ``fifteen``, ``thirty-one``, ``pair``, ``pair royal``, ``double pair royal``, ``run`` in
    the play.
    """

    kind: str
    cards: tuple[Card, ...]
    points: int

    def to_json(self) -> dict[str, object]:
        """The record/CLI form: ``{"kind": ..., "cards": ["5H", ...], "points": n}``."""
        return {"kind": self.kind, "cards": [str(c) for c in self.cards], "points": self.points}


@dataclass(frozen=True, slots=True)
class Breakdown:
    """An itemised score; ``total`` is always the sum of the items' points."""

    items: tuple[ScoreItem, ...]

    @property
    def total(self) -> int:
        """Sum of all items."""
        return sum(item.points for item in self.items)

    def to_json(self) -> dict[str, object]:
        """``{"total": n, "items": [...]}``."""
        return {"total": self.total, "items": [item.to_json() for item in self.items]}
