"""Statistics players care about, computed by replaying game records through the engine.

Every record is read with :mod:`pegboard.record` and replayed once, event by event, through
:class:`pegboard.rules.game.Game`, and the reports of its entries in force are folded
(:mod:`pegboard.rules.fold`); nothing is taken on trust from a stored result. A record
may hold a match (games separated by ``new_game`` lines); each game counts on its own.

Per side (a player, or a partnership named "Ann & Cat" in seat order), over finished games:

* ``games``, ``wins``; ``skunks_given`` / ``skunks_taken`` count every skunk, double skunks
  included, and ``double_skunks_given`` / ``double_skunks_taken`` the doubles alone. The
  winner gives the skunk the game result names; each loser takes one when their own final
  score is on or below the line (with three players, one loser may escape it).
* ``average_hand``: points pegged for hands (award reason ``hand``) per hand counted. A hand
  is counted when the show reached it, even if it scored nothing: the engine reports the
  hands it counted at the end of each deal (:class:`~pegboard.rules.facts.DealEnded`). A
  partnership has two hands a deal. In muggins games a hand counts what its owner claimed;
  points taken by muggins go to the caller under the reason ``muggins``, in no average.
* ``average_crib``: points for the crib (reason ``crib``) per crib the side owned and counted.
* ``average_pegging``: points from the play (fifteen, thirty-one, pairs, runs, go, last card)
  per deal whose play was entered card by card.
* ``best_hand``: the highest hand pegged, with its cards and the starter.

Deals entered by points only (quick-mode ``peg`` lines) count in the scores and the race but
not in those averages, since nobody said which points came from where. Across all games:
the first-dealer win rate (games won by the side that dealt first). Per game: the score race,
each side's score at the end of every deal (the winner at the target).
"""

from __future__ import annotations

from pegboard.rules.state import PLAY_REASONS
from pegboard.stats.kept import summary_from_json, summary_json
from pegboard.stats.replay import Totals, compute, replay_events, replay_record, summarise
from pegboard.stats.text import (
    RACE_TITLE,
    format_text,
    head_lines,
    learning_lines,
    race_line,
)
from pegboard.stats.values import (
    BestHand,
    GameSummary,
    Race,
    Scored,
    SideStats,
    Skunks,
    Statistics,
    StatsError,
    Tally,
    skunk_lines,
)

__all__ = [
    "PLAY_REASONS",
    "RACE_TITLE",
    "BestHand",
    "GameSummary",
    "Race",
    "Scored",
    "SideStats",
    "Skunks",
    "Statistics",
    "StatsError",
    "Tally",
    "Totals",
    "compute",
    "format_text",
    "head_lines",
    "learning_lines",
    "race_line",
    "replay_events",
    "replay_record",
    "skunk_lines",
    "summarise",
    "summary_from_json",
    "summary_json",
]
