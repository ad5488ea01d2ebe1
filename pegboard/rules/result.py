"""How a game ends: the skunk and the game points (docs/rules.md, "Winning"; ACC 2.1)."""

from __future__ import annotations

from collections.abc import Sequence

from pegboard.rules.state import GameResult, Skunk, shown_scores
from pegboard.rules.variants import GamePoints, Rules


def skunk_of(score: int, lines: tuple[int, int | None]) -> Skunk:
    """How badly a loser on ``score`` lost, given the (skunk, double skunk) ``lines``: at or
    below a line is that skunk.

    >>> [str(skunk_of(score, (90, 60))) for score in (91, 90, 60)], str(skunk_of(30, (30, None)))
    (['none', 'skunk', 'double'], 'skunk')
    """
    skunk_line, double_line = lines
    if double_line is not None and score <= double_line:
        return Skunk.DOUBLE
    return Skunk.SKUNK if score <= skunk_line else Skunk.NONE


def game_result(rules: Rules, scores: tuple[int, ...], winner: int) -> GameResult:
    """The result of a game ``winner`` won with the board at ``scores``.

    The loser is the lowest other score (with three players, the one in last place): at or
    below the skunk line it is a skunk, at or below the double line a double skunk. ACC game
    points: 2 for a win, 3 for any skunk; classic: 1, 2 for a skunk, 4 for a double.

    >>> game_result(Rules(), (121, 85), 0).skunk, game_result(Rules(), (121, 85), 0).game_points
    (<Skunk.SKUNK: 'skunk'>, (3, 0))
    """
    loser = min(score for side, score in enumerate(scores) if side != winner)
    skunk = skunk_of(loser, rules.skunk_lines())
    if rules.game_points is GamePoints.ACC:
        won = 2 if skunk is Skunk.NONE else 3
    else:
        won = {Skunk.NONE: 1, Skunk.SKUNK: 2, Skunk.DOUBLE: 4}[skunk]
    points = tuple(won if side == winner else 0 for side in range(len(scores)))
    return GameResult(winner, scores, skunk, points)


def spread(scores: Sequence[int], winner: int, target: int) -> int:
    """The ACC spread of a game ``winner`` won with the board at ``scores``: the winner's
    score as shown (the target at most) minus the lowest other side's (RULES.md, club
    scoring: counted from 121 whatever the final count reads).

    >>> spread((124, 85), 0, 121), spread((40, 61), 1, 61)
    (36, 21)
    """
    shown = shown_scores(scores, target)
    return shown[winner] - min(score for side, score in enumerate(shown) if side != winner)


def winner_of(scores: Sequence[int], target: int) -> int | None:
    """The side that reached the ``target``, when exactly one did (else None: a board no
    game can end on)."""
    reached = [side for side, score in enumerate(scores) if score >= target]
    return reached[0] if len(reached) == 1 else None
