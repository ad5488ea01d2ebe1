"""The penalty catalogue (docs/rules.md, "Penalties"; ACC rules).

Each infraction has an id (used in the record's ``penalty`` events), a name for the screen,
its default points, the rule it applies, and where the points go: to the opponents, or back
from the offender ("back" points: the offender's score goes down, never below 0).
"""

from __future__ import annotations

from pegboard.errors import RuleError
from pegboard.rules.value import Value


class Infraction(Value):
    """One entry of the catalogue.

    ``points`` go to the opponents (``back=False``) or are taken from the offender
    (``back=True``). ``extra_back`` is taken from the offender on top of points to the
    opponents (false claim of game: 15). ``per_card`` marks penalties counted per card
    (renege: 2 for each card that could have been played). ``redeal`` restarts the hand.
    """

    __slots__ = (
        "back",
        "extra_back",
        "id",
        "name",
        "per_card",
        "points",
        "redeal",
        "rule",
        "short",
    )
    __match_args__ = (
        "id", "name", "points", "rule", "back", "extra_back", "per_card", "redeal", "short",
    )

    id: str
    name: str
    points: int
    rule: str
    back: bool
    extra_back: int
    per_card: bool
    redeal: bool
    short: str

    def __init__(
        self,
        id: str,
        name: str,
        points: int,
        rule: str,
        back: bool = False,
        extra_back: int = 0,
        per_card: bool = False,
        redeal: bool = False,
        short: str = "",
    ) -> None:
        setter = object.__setattr__
        setter(self, "id", id)
        setter(self, "name", name)
        setter(self, "points", points)
        setter(self, "rule", rule)
        setter(self, "back", back)
        setter(self, "extra_back", extra_back)
        setter(self, "per_card", per_card)
        setter(self, "redeal", redeal)
        setter(self, "short", short)

    @property
    def label(self) -> str:
        """The name in at most 19 characters, for a row of the device's list."""
        return self.short or self.name.capitalize()


CATALOGUE: tuple[Infraction, ...] = (
    Infraction("renege", "renege", 2, "ACC 7.3 (2020)", per_card=True),
    Infraction(
        "false-claim-of-game", "false claim of game", 0, "ACC 8.4 (2020)", extra_back=15,
    ),
    Infraction("over-pegging", "over-pegging (corrected)", 0, "ACC 8.4 (2020)",
                short="Over-pegging"),
    Infraction("looking", "looking at a card while dealing or cutting", 2, "ACC 4.3 (2020)",
                short="Looking at a card"),
    Infraction("exposing-crib", "exposing or touching the crib early", 2, "ACC 5.2 (2020)",
                short="Touching the crib"),
    Infraction("starter-in-hand", "mixing the starter into a hand", 2, "ACC 9.4 (2020)",
                short="Starter in a hand"),
    Infraction("moving-peg", "moving an opponent's peg", 2, "ACC 8.7 (2020)",
                short="Moving a peg"),
    Infraction(
        "wrong-number-of-cards", "wrong number of cards in a hand", 10, "ACC 4.4 (2020)",
        back=True, short="Wrong card count",
    ),
    Infraction("misdeal", "misdeal or card exposed in dealing: redeal", 0, "ACC 4.3 (2020)",
               redeal=True, short="Misdeal: redeal"),
)
"""Every infraction the device can apply."""

_BY_ID = {infraction.id: infraction for infraction in CATALOGUE}


def infraction(ident: str) -> Infraction:
    """Look an infraction up by id; an unknown id raises RuleError listing the known ones.

    >>> infraction("renege").points
    2
    """
    try:
        return _BY_ID[ident]
    except KeyError:
        known = ", ".join(_BY_ID)
        raise RuleError(f"unknown infraction {ident!r}: known infractions are {known}") from None
