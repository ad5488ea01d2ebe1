"""Teaching mode: what a player missed when they claimed less than their hand is worth.

With muggins on, each player claims their own hand (docs/rules.md, "Muggins"). After the show,
teaching mode shows the full count next to the claim. :func:`missed_combinations` compares a
claim with the true :class:`~pegboard.rules.scoring.Breakdown` and says which combinations the
player missed, as precisely as the claim allows:

* **A claimed total** (an ``int``): the missed points are ``total - claimed``. Which
  combinations make up that difference is not always knowable (missing 2 of "fifteen 2, pair
  2" could be either), so the report lists every distinct explanation: each way to choose
  combinations from the breakdown, by kind, whose points add up to the difference, fewest
  combinations first. When there is exactly one explanation and it takes every combination
  of its kinds (say, the flush, or both runs of a double run) the missed items are known
  exactly.
* **An itemised claim** (a sequence of :class:`~pegboard.rules.scoring.ScoreItem`, as a
  player lists "fifteen 2, fifteen 4, a pair is 6"): each claimed item is matched to a
  combination of the same kind and points (and the same cards, when the claim names cards);
  every combination left unmatched was missed, and every claimed item left unmatched is not in
  the hand at all. The missed items are then known exactly.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from pegboard.rules.scoring import Breakdown, ScoreItem
from pegboard.rules.value import Value


class Shortfall(Value):
    """One explanation of missed points: how many combinations of each (kind, points)."""

    __slots__ = ("parts",)
    __match_args__ = ("parts",)

    parts: tuple[tuple[str, int, int], ...]
    """``(kind, count, points each)`` triples, in breakdown order."""

    def __init__(self, parts: tuple[tuple[str, int, int], ...]) -> None:
        object.__setattr__(self, "parts", parts)

    @property
    def points(self) -> int:
        """The points this explanation accounts for."""
        return sum(count * points for _, count, points in self.parts)

    def describe(self) -> str:
        """Plain words: ``"fifteen x2 (4)"``, ``"flush (4)"``.

        >>> Shortfall((("fifteen", 2, 2), ("nobs", 1, 1))).describe()
        'fifteen x2 (4), nobs (1)'
        """
        words = []
        for kind, count, points in self.parts:
            times = f" x{count}" if count > 1 else ""
            words.append(f"{kind}{times} ({count * points})")
        return ", ".join(words)


class MissedReport(Value):
    """The full count set against a claim.

    ``missed`` holds the combinations certainly missed; ``exact`` says whether that is the
    whole story (always so for an itemised claim). ``explanations`` lists, for a claimed
    total, every way the missed points can be made of the breakdown's combinations.
    ``not_in_hand`` holds claimed items that match nothing (itemised claims only).
    """

    __slots__ = ("breakdown", "claimed", "exact", "explanations", "missed", "not_in_hand")
    __match_args__ = ("breakdown", "claimed", "missed", "exact", "explanations", "not_in_hand")

    breakdown: Breakdown
    claimed: int
    missed: tuple[ScoreItem, ...]
    exact: bool
    explanations: tuple[Shortfall, ...]
    not_in_hand: tuple[ScoreItem, ...]

    def __init__(
        self,
        breakdown: Breakdown,
        claimed: int,
        missed: tuple[ScoreItem, ...],
        exact: bool,
        explanations: tuple[Shortfall, ...],
        not_in_hand: tuple[ScoreItem, ...] = (),
    ) -> None:
        setter = object.__setattr__
        setter(self, "breakdown", breakdown)
        setter(self, "claimed", claimed)
        setter(self, "missed", missed)
        setter(self, "exact", exact)
        setter(self, "explanations", explanations)
        setter(self, "not_in_hand", not_in_hand)

    @property
    def worth(self) -> int:
        """What the hand is really worth."""
        return self.breakdown.total

    @property
    def missed_points(self) -> int:
        """Points left unclaimed (0 when the claim was right or too high)."""
        return max(0, self.worth - self.claimed)

    @property
    def over_claimed(self) -> int:
        """Points claimed beyond the true count (corrected, never a penalty)."""
        return max(0, self.claimed - self.worth)

    def lines(self) -> tuple[str, ...]:
        """Short plain lines for a screen: the verdict, then what was missed."""
        if self.over_claimed:
            return (f"Claimed {self.claimed}, worth {self.worth}.", f"Over by {self.over_claimed}.")
        if not self.missed_points:
            return (f"Claimed {self.claimed}: right.",)
        if self.exact:
            what = [f"{item.kind} {item.points} {' '.join(str(c) for c in item.cards)}".rstrip()
                    for item in self.missed]
        else:
            what = [f"or {e.describe()}" if i else e.describe()
                    for i, e in enumerate(self.explanations)]
        # A colon only where a list follows: no one combination may come to the miss.
        missed = f"Missed {self.missed_points}:" if what else f"Missed {self.missed_points} in all."
        return (f"Claimed {self.claimed}, worth {self.worth}.", missed, *what)


def missed_combinations(
    breakdown: Breakdown, claimed: int | Sequence[ScoreItem]
) -> MissedReport:
    """Compare a claim (a total or a list of items) with the true breakdown.

    >>> from pegboard.rules.cards import Card, parse_cards
    >>> from pegboard.rules.show import score_hand
    >>> count = score_hand(parse_cards("2H 4H 6H 8H"), Card.parse("KS"))
    >>> report = missed_combinations(count, 0)
    >>> report.missed_points, [i.kind for i in report.missed], report.exact
    (4, ['flush'], True)
    """
    if isinstance(claimed, int):
        return _against_total(breakdown, claimed)
    return _against_items(breakdown, tuple(claimed))


def _groups(breakdown: Breakdown) -> list[tuple[str, int, list[ScoreItem]]]:
    """Items grouped by (kind, points), in order of first appearance."""
    groups: dict[tuple[str, int], list[ScoreItem]] = {}
    for item in breakdown.items:
        groups.setdefault((item.kind, item.points), []).append(item)
    return [(kind, points, items) for (kind, points), items in groups.items()]


def _against_total(breakdown: Breakdown, claimed: int) -> MissedReport:
    difference = breakdown.total - claimed
    if difference <= 0:
        return MissedReport(breakdown, claimed, (), True, ())
    groups = [g for g in _groups(breakdown) if g[1] > 0]
    found: list[Shortfall] = []
    # At most a few hundred choices even for a 29 hand (the items group into few kinds).
    for counts in itertools.product(*(range(len(items) + 1) for _, _, items in groups)):
        if sum(n * points for n, (_, points, _) in zip(counts, groups, strict=True)) != difference:
            continue
        found.append(Shortfall(tuple(
            (kind, n, points)
            for n, (kind, points, _) in zip(counts, groups, strict=True) if n
        )))
    found.sort(key=lambda s: (sum(n for _, n, _ in s.parts), len(s.parts)))
    missed: tuple[ScoreItem, ...] = ()
    exact = False
    if len(found) == 1:
        whole = {(kind, points): n for kind, n, points in found[0].parts}
        complete = [items for kind, points, items in groups if (kind, points) in whole]
        if all(whole[(i[0].kind, i[0].points)] == len(i) for i in complete):
            missed = tuple(item for items in complete for item in items)
            exact = True
    return MissedReport(breakdown, claimed, missed, exact, tuple(found))


def _same_cards(a: ScoreItem, b: ScoreItem) -> bool:
    return sorted(c.index for c in a.cards) == sorted(c.index for c in b.cards)


def _against_items(breakdown: Breakdown, claim: tuple[ScoreItem, ...]) -> MissedReport:
    left = list(breakdown.items)
    unmatched: list[ScoreItem] = []
    # Claims naming cards are matched first, so a card-less "fifteen 2" cannot take the
    # fifteen another claimed item names exactly.
    for item in sorted(claim, key=lambda i: not i.cards):
        match = next(
            (
                i for i, have in enumerate(left)
                if have.kind == item.kind
                and have.points == item.points
                and (not item.cards or _same_cards(have, item))
            ),
            None,
        )
        if match is None:
            unmatched.append(item)
        else:
            del left[match]
    total = sum(item.points for item in claim)
    return MissedReport(breakdown, total, tuple(left), True, (), tuple(unmatched))
