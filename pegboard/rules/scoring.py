"""Itemised scores: the shared shape of a show breakdown and of a pegging award list."""

from __future__ import annotations

from pegboard.rules.cards import Card
from pegboard.rules.value import Value


class ScoreItem(Value):
    """One scoring combination: what it is, the cards that make it, and its points.

    ``kind`` is one of ``fifteen``, ``pair``, ``run``, ``flush``, ``nobs`` in the show, and
    ``fifteen``, ``thirty-one``, ``pair``, ``pair royal``, ``double pair royal``, ``run`` in
    the play.
    """

    __slots__ = ("cards", "kind", "points")
    __match_args__ = ("kind", "cards", "points")

    kind: str
    cards: tuple[Card, ...]
    points: int

    def __init__(self, kind: str, cards: tuple[Card, ...], points: int) -> None:
        setter = object.__setattr__
        setter(self, "kind", kind)
        setter(self, "cards", cards)
        setter(self, "points", points)

    def to_json(self) -> dict[str, object]:
        """The record/CLI form: ``{"kind": ..., "cards": ["5H", ...], "points": n}``."""
        return {"kind": self.kind, "cards": [str(c) for c in self.cards], "points": self.points}


class Breakdown(Value):
    """An itemised score; ``total`` is always the sum of the items' points."""

    __slots__ = ("items",)
    __match_args__ = ("items",)

    items: tuple[ScoreItem, ...]

    def __init__(self, items: tuple[ScoreItem, ...]) -> None:
        object.__setattr__(self, "items", items)

    @property
    def total(self) -> int:
        """Sum of all items."""
        return sum(item.points for item in self.items)

    def to_json(self) -> dict[str, object]:
        """``{"total": n, "items": [...]}``."""
        return {"total": self.total, "items": [item.to_json() for item in self.items]}
