"""Statistics players care about, computed from finished game records.

(The score race value lives here; the record replay that fills it follows.)
"""

from __future__ import annotations

from dataclasses import dataclass


def skunk_lines(target: int) -> tuple[int, int | None]:
    """The highest losing scores that are a skunk and a double skunk for a game to ``target``.

    RULES.md, Winning: a loser on 90 or less is skunked, on 60 or less double skunked; in a
    61-hole game the skunk line is 30 (and there is no double skunk).

    >>> skunk_lines(121), skunk_lines(61)
    ((90, 60), (30, None))
    """
    if target <= 61:
        return target - 31, None
    return target - 31, target - 61


@dataclass(frozen=True, slots=True)
class Race:
    """The score race of one game: each side's score after every deal.

    ``scores[0]`` is the start (every side on 0) and ``scores[k]`` the scores at the end of
    deal ``k`` (the last entry is the final score, even when the game ended mid-deal).
    ``names`` has one entry per side (partners joined with " & ").
    """

    names: tuple[str, ...]
    target: int
    scores: tuple[tuple[int, ...], ...]
    winner: int | None = None
    skunk: str = "none"

    @property
    def deals(self) -> int:
        """Number of deals shown."""
        return len(self.scores) - 1

    @property
    def final(self) -> tuple[int, ...]:
        """Each side's last score."""
        return self.scores[-1] if self.scores else tuple(0 for _ in self.names)

    def series(self, side: int) -> tuple[int, ...]:
        """One side's score after each deal, starting from 0."""
        return tuple(row[side] for row in self.scores)

    def to_json(self) -> dict[str, object]:
        """``{"names": [...], "target": 121, "scores": [[0, 0], ...], "winner": 0, ...}``."""
        return {
            "names": list(self.names),
            "target": self.target,
            "scores": [list(row) for row in self.scores],
            "winner": self.winner,
            "skunk": self.skunk,
        }
