"""An independent cribbage referee and a random legal game generator for differential tests.

Nothing here imports the engine: the referee is written from the rules page and the record
format, so that comparing the two finds mistakes in either.
"""

from __future__ import annotations

from .referee import Award, Illegal, LineVerdict, Referee, Result, Session, Verdict, judge

__all__ = ["Award", "Illegal", "LineVerdict", "Referee", "Result", "Session", "Verdict", "judge"]
