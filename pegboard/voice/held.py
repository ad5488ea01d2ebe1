"""Count it yourself across a power cut: the counts the engine still holds for their owners
when the voice begins were pegged before it began, and never said.

:func:`pegged_before` finds, for each such count, the engine's report of the entry that pegged
it, so that the announcer can say the count from those facts once its owner's count is in
(:mod:`pegboard.voice.announce`). Nothing is counted here: the words are the engine's facts.
"""

from __future__ import annotations

from collections.abc import Sequence

from pegboard.rules.facts import Counted, Report, Scored, ShowStep
from pegboard.rules.game import Game
from pegboard.rules.state import HeldCount, Reason
from pegboard.rules.value import Value, replace


class Unheard(Value):
    """A held count never said: its owner, hand or crib, and the report of the entry that
    pegged it."""

    __slots__ = ("counted", "player", "report")
    __match_args__ = ("player", "counted", "report")

    player: int
    counted: Counted
    report: Report

    def __init__(self, player: int, counted: Counted, report: Report) -> None:
        setter = object.__setattr__
        setter(self, "player", player)
        setter(self, "counted", counted)
        setter(self, "report", report)

    def pegged(self) -> Report:
        """The report with only this count's facts: its step and the act that pegged it."""
        facts = self.report.facts
        at = next(i for i, fact in enumerate(facts) if _is_step(fact, self))
        act = next((fact for fact in facts[at + 1:] if isinstance(fact, Scored)
                    and fact.player == self.player and _reason(self.counted) in fact.reasons),
                   None)
        return replace(self.report, facts=(facts[at],) if act is None else (facts[at], act))


def pegged_before(game: Game, held: Sequence[HeldCount], entries: int) -> tuple[Unheard, ...]:
    """Each of the ``held`` counts with the report that pegged it: the last of the first
    ``entries`` entries to count that player's hand or crib (a held count lapses with its
    deal, so it is that deal's)."""
    wanted = [(count.player, Counted.CRIB if count.reason is Reason.CRIB else Counted.HAND)
              for count in held]
    found: dict[tuple[int, Counted], Report] = {}
    end, window = entries, 8
    while end > 0 and len(found) < len(wanted):
        start = max(0, end - window)
        for report in reversed(game.reports(start)[:end - start]):
            for step in report.of(ShowStep):
                key = (step.player, step.counted)
                if key in wanted and key not in found:
                    found[key] = report
        end, window = start, window * 2
    return tuple(Unheard(player, counted, found[player, counted])
                 for player, counted in wanted if (player, counted) in found)


def _reason(counted: Counted) -> Reason:
    return Reason.CRIB if counted is Counted.CRIB else Reason.HAND


def _is_step(fact: object, count: Unheard) -> bool:
    return (isinstance(fact, ShowStep) and (fact.player, fact.counted)
            == (count.player, count.counted))

