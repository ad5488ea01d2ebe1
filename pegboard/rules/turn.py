"""What the table does next, after an entry: the part of a :class:`~pegboard.rules.facts.Report`
that looks forward (the facts look back at what the entry did)."""

from __future__ import annotations

from pegboard.rules.state import HeldCount, OpenCall, PendingClaim, PendingMuggins, Phase
from pegboard.rules.value import Value


class Turn(Value):
    """What the table does next, after an entry.

    ``phase`` and ``to_act`` (the seat that must act: plays or says go, shows, counts the
    crib, deals; ``None`` while cutting and once the game is over). ``dealer`` of this hand
    and ``next_dealer``, who deals the next one (once the crib is counted, ``to_act`` too).
    ``count`` in the play. In a muggins game ``claim`` is the score waiting for its owner's
    claim now (its owner acts first), ``muggins`` the points open to a muggins call and
    ``call`` the claim an opponent may call muggins on now, right or short alike
    (:class:`~pegboard.rules.state.OpenCall`: what a shared output may show of the window).
    With count it yourself on, ``held`` is the count waiting for its owner's own count
    (:mod:`pegboard.rules.own_count`): not to be shown before it.
    """

    __slots__ = (
        "call",
        "claim",
        "count",
        "deal_no",
        "dealer",
        "game_no",
        "held",
        "muggins",
        "next_dealer",
        "phase",
        "scores",
        "to_act",
    )
    __match_args__ = (
        "phase", "to_act", "dealer", "next_dealer", "game_no", "deal_no", "count", "scores",
        "claim", "muggins", "held", "call",
    )

    phase: Phase
    to_act: int | None
    dealer: int | None
    next_dealer: int | None
    game_no: int
    deal_no: int
    count: int
    scores: tuple[int, ...]
    claim: PendingClaim | None
    muggins: PendingMuggins | None
    held: HeldCount | None
    call: OpenCall | None

    def __init__(
        self,
        phase: Phase,
        to_act: int | None,
        dealer: int | None,
        next_dealer: int | None,
        game_no: int,
        deal_no: int,
        count: int,
        scores: tuple[int, ...],
        claim: PendingClaim | None = None,
        muggins: PendingMuggins | None = None,
        held: HeldCount | None = None,
        call: OpenCall | None = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "phase", phase)
        setter(self, "to_act", to_act)
        setter(self, "dealer", dealer)
        setter(self, "next_dealer", next_dealer)
        setter(self, "game_no", game_no)
        setter(self, "deal_no", deal_no)
        setter(self, "count", count)
        setter(self, "scores", scores)
        setter(self, "claim", claim)
        setter(self, "muggins", muggins)
        setter(self, "held", held)
        setter(self, "call", call)
