"""The check after a game: the record written to the store, replayed, against the ledger.

The record is read back from the store directory as written on disk and replayed by the app's
own :meth:`~pegboard.app.session.Session.resume` (undo lines honoured); its final scores, its
winner and every award of every deal must be the ledger's, and the result kept in the history
must say the same.
"""

from __future__ import annotations

from typing import Any

from pegboard.app.session import Session
from pegboard.errors import PegboardError
from pegboard.rules.events import Deal
from pegboard.rules.game import Game
from tests.conformance.truth import AwardKey, Ledger, game_points, skunk


def deal_awards(record: str) -> tuple[tuple[AwardKey, ...], ...]:
    """Every award of the replayed record, deal by deal (an award made with a deal's entry
    belongs to that deal, as "three for last" does)."""
    session = Session.resume(record.splitlines())
    game = Game.from_header(session.header)
    deals: list[list[AwardKey]] = []
    for event in session.events:
        awards = game.apply(event)
        if isinstance(event, Deal):
            deals.append([])
        if awards:
            deals[-1].extend((a.player, a.reason, a.points) for a in awards)
    return tuple(tuple(d) for d in deals)


def check_record(record: str, result: dict[str, Any] | None, ledger: Ledger,
                 names: tuple[str, ...]) -> list[str]:
    """Every difference between a written game and the ledger (empty: they agree)."""
    if not record:
        return ["the store holds no game"]
    try:
        state = Session.resume(record.splitlines()).state
        awards = deal_awards(record)
    except PegboardError as error:
        return [f"the record does not replay: {error}"]
    problems: list[str] = []
    if state.scores != ledger.scores:
        problems.append(f"record scores {state.scores}, truth {ledger.scores}")
    if state.winner != ledger.winner:
        problems.append(f"record winner {state.winner}, truth {ledger.winner}")
    if len(awards) != len(ledger.deals):
        problems.append(f"record has {len(awards)} deals, truth {len(ledger.deals)}")
    for number, (got, want) in enumerate(zip(awards, ledger.deals, strict=False), start=1):
        if got != want:
            problems.append(f"deal {number} awards: record {_awards(got, names)}, "
                            f"truth {_awards(want, names)}")
            break
    if result is None:
        problems.append("the game was not finished into the history")
    elif ledger.winner is not None:
        loser = min(s for i, s in enumerate(ledger.scores) if i != ledger.winner)
        kind = skunk(ledger.target, loser)
        points = [game_points(kind) if s == ledger.winner else 0
                  for s in range(len(ledger.scores))]
        want_result = {"scores": list(ledger.scores), "winner": ledger.winner, "skunk": kind,
                       "game_points": points, "abandoned": False}
        got_result = {key: result.get(key) for key in want_result}
        if got_result != want_result:
            problems.append(f"history result {got_result}, truth {want_result}")
    return problems


def _awards(awards: tuple[AwardKey, ...], names: tuple[str, ...]) -> str:
    return ", ".join(f"{names[p]} {reason} {points}" for p, reason, points in awards) or "none"
