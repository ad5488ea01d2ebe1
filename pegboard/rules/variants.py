"""The rule options a table can choose (docs/rules.md; ACC tournament rules are the default).

:class:`Rules` is an immutable value. Each of its fields is one variant, declared once: its
type, its default and a :class:`Variant` (the label, the values, what is allowed and what it
does). :data:`VARIANTS` lists them in field order; the record's header, the config file's
``[rules]`` section and the setup screen's rows are all read from it.

``Rules.from_json`` reads the ``"rules"`` object of a game record line, where every key is
optional, and checks every value; ``to_json`` writes back only what differs from the defaults,
so a record stays short and round-trips exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Any

from pegboard.errors import RuleError
from pegboard.rules.value import Value, replace


class GamePoints(StrEnum):
    """How a won game is worth game points (RULES.md "Game points")."""

    ACC = "acc"  # win 2, any skunk 3
    CLASSIC = "classic"  # win 1, skunk 2, double skunk 4


class NextDealer(StrEnum):
    """Who deals the first hand of the next game in a match."""

    LOSER = "loser"  # the loser of the last game (with three, the lowest score)
    CUT = "cut"  # cut again
    ALTERNATE = "alternate"  # the player after last game's first dealer


def _on_off(value: Any) -> str:
    return "on" if value else "off"


def _games(value: Any) -> str:
    return "1 game" if value == 1 else f"best of {value}"


def _written(value: object) -> str:
    """A value as a refusal quotes it, never longer than a line: a rules object can come
    from any file or request, and repr() of an int of over 4,300 digits raises."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 50:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
    try:
        text = repr(value)
    except ValueError:  # a list or table holding such an int
        return f"a {type(value).__name__}"
    return text if len(text) <= 40 else text[:39] + "\u2026"


def _five_card_target(rules: Rules) -> Rules:
    """Five-card cribbage is played to 61: choosing it (or not) sets the usual target."""
    return replace(rules, target=61 if rules.five_card else 121)


class Variant(Value):
    """One rule option: how it is named, which values it takes, where it is offered.

    ``key`` is the :class:`Rules` field, the record's key and the config file's key; ``kind``
    the type of its values (``bool``, ``int`` or an enum). ``allowed`` says what a value may
    be, as messages say it, and ``valid`` checks it beyond its type. ``choices`` are the
    values OK cycles through on the setup row (none: no row), ``seats`` the table sizes that
    show the row, ``words`` how the row says a value, and ``then`` what choosing it changes
    beside (five-card sets the target). ``config``: the config file's ``[rules]`` accepts it.
    """

    __slots__ = ("allowed", "choices", "config", "help", "key", "kind", "label", "seats", "then",
                 "valid", "words")
    __match_args__ = ("label", "help", "kind", "allowed", "valid", "choices", "words", "seats",
                      "then", "config", "key")

    label: str
    help: str
    kind: type
    allowed: str
    valid: Callable[[Any], bool]
    choices: tuple[Any, ...]
    words: Callable[[Any], str]
    seats: frozenset[int]
    then: Callable[[Rules], Rules] | None
    config: bool
    key: str

    def __init__(
        self,
        label: str,
        help: str,
        kind: type,
        allowed: str,
        valid: Callable[[Any], bool] = lambda value: True,
        choices: tuple[Any, ...] = (),
        words: Callable[[Any], str] = str,
        seats: frozenset[int] = frozenset({2, 3, 4}),
        then: Callable[[Rules], Rules] | None = None,
        config: bool = True,
        key: str = "",
    ) -> None:
        setter = object.__setattr__
        setter(self, "label", label)
        setter(self, "help", help)
        setter(self, "kind", kind)
        setter(self, "allowed", allowed)
        setter(self, "valid", valid)
        setter(self, "choices", choices)
        setter(self, "words", words)
        setter(self, "seats", seats)
        setter(self, "then", then)
        setter(self, "config", config)
        setter(self, "key", key)

    def read(self, value: object) -> Any:
        """``value`` as :class:`Rules` holds it; RuleError when it has the wrong type or is
        not allowed (the message names the key)."""
        if self.kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise RuleError(f"rules {self.key!r} must be a whole number, got {_written(value)}")
        if self.kind is bool and not isinstance(value, bool):
            raise RuleError(f"rules {self.key!r} must be true or false, got {_written(value)}")
        if not issubclass(self.kind, StrEnum):
            self.check(value)
            return value
        if not isinstance(value, str):
            raise RuleError(f"rules {self.key!r} must be text, got {_written(value)}")
        self.check(value)
        return self.kind(value)

    def check(self, value: object) -> None:
        """RuleError unless ``value`` is one this variant allows."""
        if issubclass(self.kind, StrEnum):
            ok = value in {member.value for member in self.kind.__members__.values()}
        else:
            ok = self.valid(value)
        if not ok:
            raise RuleError(f"{self.key} must be {self.allowed}, not {_written(value)}")

    def row(self, rules: Rules) -> str:
        """The setup row: "Muggins: off"."""
        return f"{self.label}: {self.words(getattr(rules, self.key))}"

    def next(self, rules: Rules) -> Rules:
        """``rules`` with this variant's next choice (the first when the value is not one)."""
        value = getattr(rules, self.key)
        at = self.choices.index(value) + 1 if value in self.choices else 0
        changed = replace(rules, **{self.key: self.choices[at % len(self.choices)]})
        return self.then(changed) if self.then is not None else changed


_BOOL = "true or false"


class Rules(Value):
    """How one table plays: one field per variant (each declared in :data:`VARIANTS`, in the
    same order).

    ``partnerships`` ``None`` (the default) means on for four players.
    """

    __slots__ = (
        "five_card",
        "game_points",
        "match_games",
        "muggins",
        "next_game_dealer",
        "no_heels_last",
        "partnerships",
        "target",
    )
    __match_args__ = ("target", "five_card", "partnerships", "muggins", "game_points",
                      "match_games", "next_game_dealer", "no_heels_last")

    target: int
    five_card: bool
    partnerships: bool | None
    muggins: bool
    game_points: GamePoints
    match_games: int
    next_game_dealer: NextDealer
    no_heels_last: int

    def __init__(
        self,
        target: int = 121,
        five_card: bool = False,
        partnerships: bool | None = None,
        muggins: bool = False,
        game_points: GamePoints = GamePoints.ACC,
        match_games: int = 1,
        next_game_dealer: NextDealer = NextDealer.LOSER,
        no_heels_last: int = 0,
    ) -> None:
        setter = object.__setattr__
        setter(self, "target", target)
        setter(self, "five_card", five_card)
        setter(self, "partnerships", partnerships)
        setter(self, "muggins", muggins)
        setter(self, "game_points", game_points)
        setter(self, "match_games", match_games)
        setter(self, "next_game_dealer", next_game_dealer)
        setter(self, "no_heels_last", no_heels_last)

    @classmethod
    def from_json(cls, data: Mapping[str, object], players: int = 2) -> Rules:
        """Read a rules object (every key optional); unknown keys or bad values raise RuleError.

        >>> Rules.from_json({"five_card": True}).target
        61
        """
        if not isinstance(data, Mapping):
            raise RuleError(f"rules must be an object, got {_written(data)}")
        unknown = sorted(set(data) - set(VARIANT_BY_KEY))
        if unknown:
            raise RuleError(
                f"unknown rules key {unknown[0]!r}: accepted keys are "
                f"{', '.join(sorted(VARIANT_BY_KEY))}"
            )
        # partnerships: null is its default (on for four players), not a wrong type.
        values = {v.key: v.read(data[v.key]) for v in VARIANTS if v.key in data
                  and not (v.key == "partnerships" and data[v.key] is None)}
        rules = cls(**values)
        if "target" not in values:
            rules = _five_card_target(rules)
        rules.check(players)
        return rules

    def check(self, players: int) -> None:
        """Raise RuleError unless these rules make sense for ``players`` seats."""
        if players not in (2, 3, 4):
            raise RuleError(f"cribbage is played by 2, 3 or 4 players, not {players}")
        for variant in VARIANTS:
            value = getattr(self, variant.key)
            if value is not None:
                variant.check(value)
        if self.five_card and players != 2:
            raise RuleError(f"five-card cribbage is for 2 players, not {players}")
        if self.partnerships is True and players != 4:
            raise RuleError(f"partnerships need 4 players, not {players}")

    def to_json(self, players: int = 2) -> dict[str, object]:
        """The keys that differ from the defaults for ``players`` seats."""
        default = _five_card_target(Rules(five_card=self.five_card))
        out: dict[str, object] = {}
        for variant in VARIANTS:
            value = getattr(self, variant.key)
            if variant.key == "five_card" and value:
                out[variant.key] = value
            elif variant.key == "partnerships":
                if value is not None and value != (players == 4):
                    out[variant.key] = value
            elif value != getattr(default, variant.key):
                out[variant.key] = value
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


DEFAULT_RULES = Rules()
"""The rules a game plays by unless told otherwise (a default shared by the values that hold
rules: a value never changes)."""

VARIANTS: tuple[Variant, ...] = (
    Variant(
        "Target", "holes to win: 121, or 61 (the usual game for five-card)", int, "121 or 61",
        valid=lambda value: value in (121, 61), choices=(121, 61), key="target"),
    Variant(
        "Five-card", "two players, 5 cards dealt, 3 kept, one count only in the play, and the "
        "pone pegs 3 (three for last) at the first deal of each game", bool, _BOOL,
        choices=(False, True), words=_on_off, seats=frozenset({2}), then=_five_card_target,
        key="five_card"),
    Variant(
        "Partners", "four players in two sides, seats 0&2 against 1&3", bool, _BOOL,
        config=False, key="partnerships"),
    Variant(
        "Muggins", "each score is claimed by its owner; an opponent may take what was missed",
        bool, _BOOL, choices=(False, True), words=_on_off, key="muggins"),
    Variant(
        "Game points", "acc: a win 2, any skunk 3; classic: a win 1, a skunk 2, a double 4",
        GamePoints, '"acc" or "classic"', choices=tuple(GamePoints),
        words=lambda value: "ACC" if value == GamePoints.ACC else "classic",
        key="game_points"),
    Variant(
        "Match", "best of N games (1: a single game)", int,
        "an odd number of games from 1 to 99",
        valid=lambda value: 1 <= value <= 99 and value % 2 == 1, choices=(1, 3, 5, 7),
        words=_games, key="match_games"),
    Variant(
        "Next dealer", "who deals the first hand of the next game in a match: the loser, a "
        "new cut, or the next seat to the left of last game's first dealer", NextDealer,
        '"loser", "cut" or "alternate"', config=False, key="next_game_dealer"),
    Variant(
        "No heels last", "house rule: no heels for a dealer already in the last N holes "
        "(a score of target - N + 1 or more); 0 is off", int, "0 to 10 holes",
        valid=lambda value: 0 <= value <= 10, config=False, key="no_heels_last"),
)
"""Every rule variant, in the order of the record's keys and the setup screen's rows."""

VARIANT_BY_KEY: dict[str, Variant] = {variant.key: variant for variant in VARIANTS}
