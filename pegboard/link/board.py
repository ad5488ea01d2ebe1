"""What the LED pegboard should show: one immutable value per moment of the game.

The host always sends the *whole* board (both pegs of every side, who scored last, the winner,
the colours), never a change, so resending the current board is always harmless and a board
that was reset or replugged catches up with a single message.

Like the two pegs of a wooden board, each side has a *front* peg (its current score) and a
*back* peg (its score before the last award). The value is built from the pegs and the side the
engine reported scoring (nothing here works out who scored):

>>> board = BoardState.from_scores([17, 9], previous=[12, 9], last=0)
>>> board.front, board.back, board.last, board.sides
((17, 9), (12, 9), 0, 2)
"""

from __future__ import annotations

from collections.abc import Sequence

from pegboard.errors import PegboardError
from pegboard.rules.value import Value

Colour = tuple[int, int, int]

#: Peg colours by side: red, blue, green, like the usual plastic pegs.
DEFAULT_COLOURS: tuple[Colour, ...] = ((255, 0, 0), (0, 64, 255), (0, 255, 64))

#: The last hole of a 121-hole board (the game hole).
GAME_HOLE = 121

_NAMED = {
    "red": (255, 0, 0),
    "blue": (0, 64, 255),
    "green": (0, 255, 64),
    "yellow": (255, 200, 0),
    "white": (255, 255, 255),
    "purple": (160, 0, 255),
    "orange": (255, 96, 0),
    "cyan": (0, 255, 255),
    "pink": (255, 64, 160),
}


class BoardError(PegboardError, ValueError):
    """A board value that cannot be shown (wrong number of sides, score out of range)."""


def parse_colour(text: str) -> Colour:
    """A colour from ``#RRGGBB``, ``RRGGBB`` or a name (red, blue, green, yellow, white,
    purple, orange, cyan, pink).

    >>> parse_colour("#ff8000"), parse_colour("blue")
    ((255, 128, 0), (0, 64, 255))
    """
    clean = text.strip().lower()
    if clean in _NAMED:
        return _NAMED[clean]
    digits = clean.removeprefix("#")
    if len(digits) == 6 and all(ch in "0123456789abcdef" for ch in digits):
        value = int(digits, 16)
        return (value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF)
    raise BoardError(
        f"colour {text!r} is not understood: use #RRGGBB or one of {', '.join(sorted(_NAMED))}"
    )


def colour_hex(colour: Colour) -> str:
    """``RRGGBB`` in upper case, as the wire format writes it.

    >>> colour_hex((255, 128, 0))
    'FF8000'
    """
    return "{:02X}{:02X}{:02X}".format(*colour)


class BoardState(Value):
    """The whole picture on the LED board.

    ``front[s]`` and ``back[s]`` are side *s*'s two pegs (0 = still at the start, 121 = the
    game hole), ``last`` is the side whose award is shown travelling from back to front peg,
    ``winner`` the side whose track celebrates, ``target`` 121 or 61 (it decides where the
    skunk markers sit), ``colours`` one per side (defaults: red, blue, green).
    """

    __slots__ = ("back", "colours", "front", "last", "target", "winner")
    __match_args__ = ("front", "back", "last", "winner", "target", "colours")

    front: tuple[int, ...]
    back: tuple[int, ...]
    last: int | None
    winner: int | None
    target: int
    colours: tuple[Colour, ...]

    def __init__(
        self,
        front: tuple[int, ...],
        back: tuple[int, ...],
        last: int | None = None,
        winner: int | None = None,
        target: int = 121,
        colours: tuple[Colour, ...] = (),
    ) -> None:
        setter = object.__setattr__
        setter(self, "front", front)
        setter(self, "back", back)
        setter(self, "last", last)
        setter(self, "winner", winner)
        setter(self, "target", target)
        setter(self, "colours", colours)
        self._check()

    def _check(self) -> None:
        """A board as the firmware can show it (a :class:`BoardError` names what is not),
        with one default colour a side when none were given."""
        sides = len(self.front)
        if sides not in (2, 3):
            raise BoardError(f"a board shows 2 or 3 sides, not {sides} (front={self.front!r})")
        if len(self.back) != sides:
            raise BoardError(f"back pegs {self.back!r} must give one score per side ({sides})")
        for score in (*self.front, *self.back):
            if not 0 <= score <= GAME_HOLE:
                raise BoardError(f"peg at {score!r} is off the board: holes are 0..121")
        for name, side in (("last", self.last), ("winner", self.winner)):
            if side is not None and not 0 <= side < sides:
                raise BoardError(f"{name}={side!r} is not a side: use 0..{sides - 1} or None")
        if self.target not in (61, 121):
            raise BoardError(f"target {self.target!r} is not 61 or 121")
        if not self.colours:
            object.__setattr__(self, "colours", DEFAULT_COLOURS[:sides])
        if len(self.colours) != sides:
            raise BoardError(f"colours {self.colours!r} must give one colour per side ({sides})")
        for colour in self.colours:
            if len(colour) != 3 or not all(0 <= c <= 255 for c in colour):
                raise BoardError(f"colour {colour!r} must be three channels 0..255")

    @property
    def sides(self) -> int:
        """How many sides (tracks in use) the board shows."""
        return len(self.front)

    @classmethod
    def from_scores(
        cls,
        scores: Sequence[int],
        previous: Sequence[int] | None = None,
        *,
        last: int | None = None,
        winner: int | None = None,
        target: int = 121,
        colours: Sequence[Colour] = (),
    ) -> BoardState:
        """The board for the game's scores: ``scores`` are the front pegs, ``previous`` (each
        side's score before its latest award; default: same as ``scores``) the back pegs.
        Scores past the game hole (a side that pegged out beyond 121) sit in the game hole.

        >>> BoardState.from_scores([125, 80], winner=0).front
        (121, 80)
        """
        back = scores if previous is None else previous
        return cls(
            front=tuple(_clamp(s) for s in scores),
            back=tuple(_clamp(s) for s in back),
            last=last,
            winner=winner,
            target=target,
            colours=tuple(colours),
        )

    @classmethod
    def start(cls, sides: int = 2, *, target: int = 121) -> BoardState:
        """Every peg at the start."""
        return cls(front=(0,) * sides, back=(0,) * sides, target=target)


def _clamp(score: int) -> int:
    return max(0, min(GAME_HOLE, int(score)))
