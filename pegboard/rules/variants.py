"""The rule options a table can choose (docs/rules.md; ACC tournament rules are the default).

:class:`Rules` is an immutable value. ``Rules.from_json`` reads the ``"rules"`` object of a game
record line, where every key is optional, and checks every value; ``to_json`` writes back only
what differs from the defaults, so a record stays short and round-trips exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

from pegboard.errors import RuleError

GAME_POINT_SCHEMES = ("acc", "classic")
NEXT_GAME_DEALERS = ("loser", "cut", "alternate")


@dataclass(frozen=True, slots=True)
class Rules:
    """How one table plays.

    - ``target``: 121 or 61 holes (default 121; 61 for five-card).
    - ``five_card``: two players, 5 cards dealt, 3 kept, one count only in the play, and the
      pone pegs 3 ("three for last") at the first deal of each game.
    - ``partnerships``: four players in two sides, seats 0&2 and 1&3 (``None``, the default,
      means on for four players).
    - ``muggins``: each score is claimed by its owner; an opponent may take what was missed.
    - ``game_points``: ``"acc"`` (win 2, any skunk 3) or ``"classic"`` (win 1, skunk 2,
      double skunk 4).
    - ``match_games``: best of N games (1 = a single game).
    - ``next_game_dealer``: who deals the first hand of the next game in a match: ``"loser"``
      (default), ``"cut"`` (cut again) or ``"alternate"`` (the other player from last game).
    - ``no_heels_last``: house rule, off (0) by default: no heels for a dealer already in the
      last N holes (score of ``target - N + 1`` or more).
    """

    target: int = 121
    five_card: bool = False
    partnerships: bool | None = None
    muggins: bool = False
    game_points: str = "acc"
    match_games: int = 1
    next_game_dealer: str = "loser"
    no_heels_last: int = 0

    @classmethod
    def from_json(cls, data: Mapping[str, object], players: int = 2) -> Rules:
        """Read a rules object (every key optional); unknown keys or bad values raise RuleError.

        >>> Rules.from_json({"five_card": True}).target
        61
        """
        if not isinstance(data, Mapping):
            raise RuleError(f"rules must be an object, got {data!r}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RuleError(
                f"unknown rules key {unknown[0]!r}: accepted keys are {', '.join(sorted(known))}"
            )
        five_card = _bool(data, "five_card", False)
        values = cls(
            target=_int(data, "target", 61 if five_card else 121),
            five_card=five_card,
            partnerships=_optional_bool(data, "partnerships"),
            muggins=_bool(data, "muggins", False),
            game_points=_text(data, "game_points", "acc"),
            match_games=_int(data, "match_games", 1),
            next_game_dealer=_text(data, "next_game_dealer", "loser"),
            no_heels_last=_int(data, "no_heels_last", 0),
        )
        values.check(players)
        return values

    def check(self, players: int) -> None:
        """Raise RuleError unless these rules make sense for ``players`` seats."""
        if players not in (2, 3, 4):
            raise RuleError(f"cribbage is played by 2, 3 or 4 players, not {players}")
        if self.target not in (121, 61):
            raise RuleError(f"target must be 121 or 61, not {self.target!r}")
        if self.five_card and players != 2:
            raise RuleError(f"five-card cribbage is for 2 players, not {players}")
        if self.partnerships is True and players != 4:
            raise RuleError(f"partnerships need 4 players, not {players}")
        if self.game_points not in GAME_POINT_SCHEMES:
            raise RuleError(
                f"game_points must be \"acc\" or \"classic\", not {self.game_points!r}"
            )
        if not 1 <= self.match_games <= 99 or self.match_games % 2 == 0:
            raise RuleError(
                f"match_games must be an odd number of games from 1 to 99, "
                f"not {self.match_games!r}"
            )
        if self.next_game_dealer not in NEXT_GAME_DEALERS:
            raise RuleError(
                f"next_game_dealer must be \"loser\", \"cut\" or \"alternate\", "
                f"not {self.next_game_dealer!r}"
            )
        if not 0 <= self.no_heels_last <= 10:
            raise RuleError(f"no_heels_last must be 0 to 10 holes, not {self.no_heels_last!r}")

    def to_json(self, players: int = 2) -> dict[str, object]:
        """The keys that differ from the defaults for ``players`` seats."""
        default = Rules(target=61 if self.five_card else 121)
        out: dict[str, object] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "five_card" and value:
                out[f.name] = value
            elif f.name == "partnerships":
                if value is not None and value != (players == 4):
                    out[f.name] = value
            elif value != getattr(default, f.name):
                out[f.name] = value
        return out

    def partners(self, players: int) -> bool:
        """True when four players play as two partnerships."""
        return players == 4 and self.partnerships is not False

    # Derived table facts -------------------------------------------------------------------

    def sides(self, players: int) -> int:
        """Number of scores on the board: partners share one."""
        return 2 if self.partners(players) else players

    def side_of(self, player: int, players: int) -> int:
        """The side a seat scores for (seats 0&2 are side 0, 1&3 side 1 in partnerships)."""
        return player % 2 if self.partners(players) else player

    def hand_size(self) -> int:
        """Cards each player keeps for the play and the show (3 in five-card, else 4)."""
        return 3 if self.five_card else 4

    def dealt_size(self, players: int) -> int:
        """Cards dealt to each player: 6 to two (5 in five-card), 5 to three or four."""
        if players == 2:
            return 5 if self.five_card else 6
        return 5

    def skunk_lines(self) -> tuple[int, int | None]:
        """(skunk, double skunk): a loser at or below these scores is skunked.

        A 121 game: 90 and 60. A 61 game: 30, and no double skunk.
        """
        return (90, 60) if self.target == 121 else (30, None)


def _int(data: Mapping[str, object], key: str, default: int) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(f"rules {key!r} must be a whole number, got {value!r}")
    return value


def _bool(data: Mapping[str, object], key: str, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise RuleError(f"rules {key!r} must be true or false, got {value!r}")
    return value


def _optional_bool(data: Mapping[str, object], key: str) -> bool | None:
    value = data.get(key)
    if value is not None and not isinstance(value, bool):
        raise RuleError(f"rules {key!r} must be true or false, got {value!r}")
    return value


def _text(data: Mapping[str, object], key: str, default: str) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise RuleError(f"rules {key!r} must be text, got {value!r}")
    return value
