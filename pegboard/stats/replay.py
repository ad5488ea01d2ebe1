"""Replaying records into game summaries, and folding summaries into statistics (the rules
are in :mod:`pegboard.stats`)."""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from pegboard import lazy
from pegboard.errors import RecordError, RuleError
from pegboard.record.reader import RawLine, entries
from pegboard.rules.events import Event, GameHeader
from pegboard.rules.fold import Fold, GameFold, fold_reports
from pegboard.rules.game import Game
from pegboard.rules.result import skunk_of
from pegboard.rules.state import PLAY_REASONS, Reason, Skunk
from pegboard.stats.values import (
    BestHand,
    GameSummary,
    Scored,
    SideStats,
    Statistics,
    Tally,
    skunk_lines,
)

if TYPE_CHECKING:
    from pegboard.coach import lessons as coach_lessons
else:
    coach_lessons = lazy.module("pegboard.coach.lessons")

# --- replaying one record ------------------------------------------------------------------


def _read(lines: Iterable[RawLine], source: str
          ) -> tuple[GameHeader, list[tuple[int, Event]]]:
    """The header and the numbered events of one record; errors name the source and line."""
    header: GameHeader | None = None
    events: list[tuple[int, Event]] = []
    for number, item in entries(lines, source):
        if isinstance(item, GameHeader):
            header = item
        else:
            events.append((number, item))
    if header is None:
        raise RecordError(f"{source}: the record is empty: it needs a \"game\" line first")
    return header, events


def _folded(header: GameHeader, events: Iterable[tuple[int, Event]], source: str) -> Fold:
    """The record replayed once through the engine (an undo takes its entry back), its
    entries in force folded (:mod:`pegboard.rules.fold`); a refused entry raises RecordError
    naming the source and line."""
    try:
        game = Game.from_header(header)
    except RuleError as error:
        raise RecordError(f"{source}: line 1: {error}") from None
    for number, event in events:
        try:
            game.push(event)
        except RuleError as error:
            raise RecordError(f"{source}: line {number}: {error}") from None
    return fold_reports(header, game.reports())


def summary_of(folded: GameFold, header: GameHeader, number: int, source: str) -> GameSummary:
    """Game ``number`` of the statistics, from its fold: the race, the result and each side's
    tally of the deals that ended (points by reason, hands and cribs as the engine counted
    them, deals played card by card, the best hand)."""
    over = folded.over
    tallies = []
    for side in range(len(folded.names)):
        best = folded.best[side]
        tallies.append(Tally(
            len(folded.deals) + folded.open_deal,
            Scored(folded.pegged(side, Reason.HAND), folded.hands_counted(side)),
            Scored(folded.pegged(side, Reason.CRIB), folded.cribs_counted(side)),
            Scored(folded.pegged(side, *PLAY_REASONS), folded.deals_played),
            None if best is None else BestHand(
                best.points, best.cards, best.starter, header.players[best.player], number),
        ))
    first = folded.first_dealer
    return GameSummary(
        number, source, header.players, folded.names, folded.race, over is not None,
        over.winner if over else None, over.skunk if over else Skunk.NONE,
        None if first is None else folded.sides_of[first], tuple(tallies),
    )


def replay_record(
    lines: Iterable[RawLine], *, source: str = "record", first_number: int = 1
) -> list[GameSummary]:
    """Replay one record (a game or a match) and summarise each of its games, with what each
    teaches (:func:`pegboard.coach.lessons.lessons`, from the same fold).

    ``source`` names the record in error messages; games are numbered from ``first_number``.
    """
    header, events = _read(lines, source)
    folded = _folded(header, events, source)
    summaries = _summaries(folded, source, first_number)
    _learned(folded, summaries)
    return summaries


def replay_events(
    header: GameHeader, events: Sequence[Event], *, source: str = "game", first_number: int = 1
) -> list[GameSummary]:
    """Like :func:`replay_record`, from the engine's own values (``Game.header``,
    ``Game.events``), without the lessons."""
    folded = _folded(header, enumerate(events, start=2), source)
    return _summaries(folded, source, first_number)


def _summaries(folded: Fold, source: str, first_number: int) -> list[GameSummary]:
    return [summary_of(game, folded.header, first_number + k, source)
            for k, game in enumerate(folded.games)]


def _learned(folded: Fold, summaries: list[GameSummary]) -> None:
    """Add what each game teaches (:func:`pegboard.coach.lessons.lessons`, the one place it
    is worked out) to its sides' tallies: discards reviewed and the points given up on them,
    points missed counting and given up pegging."""
    found = coach_lessons.lessons(folded)
    sides_of = folded.game.sides_of
    for summary, players in zip(summaries, found.per_game, strict=False):
        for who in players:
            tally = summary.tallies[sides_of[who.player]]
            tally.discards += who.discards
            tally.discard_loss += round(1000 * who.discard_loss)
            tally.missed += who.counting.missed
            tally.pegging_loss += round(1000 * who.pegging_loss)


# --- many records --------------------------------------------------------------------------


def compute(records: Iterable[tuple[str, str]], *, skip_bad: bool = False) -> Statistics:
    """Statistics over ``(source, record text)`` pairs, in the order given.

    Unfinished games get a race but count in no total; a note says so. A record the engine
    cannot replay raises :class:`~pegboard.errors.RecordError`, or with ``skip_bad`` is left
    out with a note naming it and the reason (one damaged game must not hide the rest).
    """
    games: list[GameSummary] = []
    skipped: list[str] = []
    for source, text in records:
        try:
            games.extend(replay_record(io.StringIO(text), source=source,
                                       first_number=len(games) + 1))
        except RecordError as error:
            if not skip_bad:
                raise
            skipped.append(f"left out: {error}")
    stats = summarise(games)
    return Statistics(
        stats.sides, stats.games, stats.first_dealer_games, stats.first_dealer_wins,
        (*skipped, *stats.notes),
    )


class Totals:
    """Per-side statistics added up one game at a time, so a history of any length is read in
    the same memory (the games themselves are not kept)."""

    def __init__(self) -> None:
        self.sides: dict[str, SideStats] = {}
        self.notes: list[str] = []
        self.first_games = 0
        self.first_wins = 0
        self.finished = 0

    def add(self, g: GameSummary) -> None:
        """Count one game (an unfinished one only gets a note)."""
        if not g.finished:
            self.notes.append(f"game {g.number} ({g.source}) is not finished: not counted")
            return
        self.finished += 1
        for side, name in enumerate(g.names):
            stats = self.sides.setdefault(name, SideStats(name))
            stats.games += 1
            stats.tally.add(g.tallies[side])
            if g.winner == side:
                stats.wins += 1
                stats.given.count(g.skunk)
            else:
                # With three players each loser is judged on their own score.
                stats.taken.count(skunk_of(g.race.final[side], skunk_lines(g.race.target)))
        if g.first_dealer_side is not None:
            self.first_games += 1
            self.first_wins += g.winner == g.first_dealer_side

    def statistics(self, games: Sequence[GameSummary] = (),
                   notes: Sequence[str] = ()) -> Statistics:
        """The statistics so far; ``games`` are the summaries to show races for."""
        return Statistics(tuple(self.sides.values()), tuple(games), self.first_games,
                          self.first_wins, (*notes, *self.notes), finished=self.finished)


def summarise(games: Sequence[GameSummary]) -> Statistics:
    """Fold game summaries into per-side statistics."""
    totals = Totals()
    for g in games:
        totals.add(g)
    return totals.statistics(games)
