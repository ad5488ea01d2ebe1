"""Compares the referee's verdict on a record with the engine's replay of it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from .engine_run import EngineRun, replay
from .referee import Verdict, judge

AwardKey = tuple[int, int, str]


def _awards(items: Sequence[Mapping[str, Any]]) -> Counter[AwardKey]:
    return Counter((int(a["player"]), int(a["points"]), str(a["reason"])) for a in items)


def differences(events: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every way the engine's replay differs from the referee (empty when they agree)."""
    verdict = judge(events)
    run = replay(events)
    return diff_runs(verdict, run)


def diff_runs(verdict: Verdict, run: EngineRun) -> list[str]:
    problems: list[str] = []
    mine = {v.line: v for v in verdict.lines if v.line > 1}  # the game line prints nothing
    theirs = {int(o["line"]): o for o in run.lines}
    if verdict.rejected_line is not None:
        if run.status != 2:
            problems.append(
                f"referee rejects line {verdict.rejected_line} ({verdict.rejected_reason}); "
                f"engine exit status {run.status}"
            )
        elif f"line {verdict.rejected_line}" not in run.stderr:
            problems.append(
                f"referee rejects line {verdict.rejected_line} ({verdict.rejected_reason}); "
                f"engine says: {run.stderr.strip()}"
            )
    elif run.status != 0:
        problems.append(f"engine exit status {run.status}: {run.stderr.strip()}")
    for line in sorted(set(mine) | set(theirs)):
        if line not in theirs:
            problems.append(f"line {line}: engine printed nothing")
            continue
        if line not in mine:
            problems.append(f"line {line}: engine printed a line the referee stops before")
            continue
        want = Counter((a.player, a.points, a.reason) for a in mine[line].awards)
        got = _awards(theirs[line]["awards"])
        if want != got:
            problems.append(
                f"line {line}: awards referee {sorted(want.elements())} "
                f"engine {sorted(got.elements())}"
            )
        if mine[line].scores != list(theirs[line]["scores"]):
            problems.append(
                f"line {line}: scores referee {mine[line].scores} engine {theirs[line]['scores']}"
            )
        if len(problems) > 6:
            return problems
    if verdict.rejected_line is None:
        want_result = {
            "type": "result",
            "scores": verdict.result.scores,
            "winner": verdict.result.winner,
            "skunk": verdict.result.skunk,
            "game_points": verdict.result.game_points,
        }
        if run.result is None:
            problems.append("engine printed no result")
        else:
            got_result = {k: run.result.get(k) for k in want_result}
            if got_result != want_result:
                problems.append(f"result referee {want_result} engine {run.result}")
    return problems


__all__ = ["diff_runs", "differences", "replay"]
