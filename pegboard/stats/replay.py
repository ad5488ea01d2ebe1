"""Replaying records into game summaries, and folding summaries into statistics (the rules
are in :mod:`pegboard.stats`)."""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence

from pegboard.errors import RecordError, RuleError
from pegboard.record.reader import RawLine, entries
from pegboard.rules.events import Crib, Deal, Event, GameHeader, NewGame, Play, Undo
from pegboard.rules.game import Game
from pegboard.rules.result import skunk_of
from pegboard.rules.state import PLAY_REASONS, Award, Phase
from pegboard.stats.values import (
    BestHand,
    GameSummary,
    Race,
    SideStats,
    Statistics,
    Tally,
    skunk_lines,
)

# --- replaying one record ------------------------------------------------------------------


def _side_names(header: GameHeader, game: Game) -> tuple[str, ...]:
    players = header.players
    sides = game.state.sides
    return tuple(
        " & ".join(name for seat, name in enumerate(players) if game.side_of(seat) == side)
        for side in range(sides)
    )


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


def _effective_events(
    header: GameHeader, events: Sequence[tuple[int, Event]], source: str
) -> list[Event]:
    """The events in force once every undo has taken effect (checked by the engine)."""
    try:
        game = Game.from_header(header)
    except RuleError as error:
        raise RecordError(f"{source}: line 1: {error}") from None
    for number, event in events:
        _apply(game, event, number, source)
    return list(game.events)


class _GameTracker:
    """Follows one game of a record as its events are replayed."""

    def __init__(self, number: int, source: str, header: GameHeader, game: Game) -> None:
        self.number = number
        self.source = source
        self.header = header
        self.game = game
        self.names = _side_names(header, game)
        sides = len(self.names)
        self.race: list[tuple[int, ...]] = [tuple([0] * sides)]
        self.tallies = [Tally() for _ in range(sides)]
        self.first_dealer_side: int | None = None
        self.in_deal = False
        self.deal_played = False
        self.deal_hand_awards: list[int] = []  # players whose hand award was pegged this deal
        self.deal_crib = False
        self.deal_dealer: int | None = None

    def before(self, event: Event) -> None:
        if isinstance(event, Deal) and self.in_deal:
            self.close_deal()

    def after(self, event: Event, awards: Sequence[Award]) -> None:
        # The state snapshot is built on demand, so it is read only when needed.
        if isinstance(event, Deal):
            state = self.game.state
            self.in_deal = True
            self.deal_played = False
            self.deal_hand_awards = []
            self.deal_crib = False
            self.deal_dealer = state.dealer
            if self.first_dealer_side is None and state.dealer is not None:
                self.first_dealer_side = self.game.side_of(state.dealer)
        if isinstance(event, Play):
            self.deal_played = True
        if isinstance(event, Crib):
            self.deal_crib = True
        for award in awards:
            tally = self.tallies[award.side]
            # A renege's take-back cancels an award where it was counted (it is counted
            # again when the play is played out once more).
            taken_back = award.reason == "renege take-back"
            reason = award.cancels if taken_back else award.reason
            if reason == "hand" and taken_back:
                tally.hands.points += award.points
                if award.player in self.deal_hand_awards:
                    self.deal_hand_awards.remove(award.player)
            elif reason == "hand":
                tally.hands.points += award.points
                self.deal_hand_awards.append(award.player)
                best = tally.best_hand
                if best is None or award.points > best.points:
                    tally.best_hand = BestHand(
                        award.points, award.cards, self.game.state.starter,
                        self.header.players[award.player], self.number,
                    )
            elif reason == "crib":
                tally.cribs.points += award.points
            elif reason in PLAY_REASONS:
                tally.pegging.points += award.points

    def close_deal(self) -> None:
        """Book the deal that just ended: race point, deals, hands and cribs counted."""
        state = self.game.state
        self.race.append(tuple(state.scores))
        n = len(self.header.players)
        for tally in self.tallies:
            tally.deals += 1
            if self.deal_played:
                tally.pegging.times += 1
        dealer = self.deal_dealer
        if dealer is not None:
            order = [(dealer + k) % n for k in range(1, n + 1)]  # pone first, dealer last
            if self.deal_crib or state.phase is Phase.CRIB:
                counted = order  # the show went through
            elif state.phase is Phase.GAME_OVER and self.deal_hand_awards:
                # The game ended in the show: the hands up to the one that pegged out.
                counted = order[: order.index(self.deal_hand_awards[-1]) + 1]
            else:
                counted = []  # ended before the show, or entered by points only
            for player in counted:
                self.tallies[self.game.side_of(player)].hands.times += 1
            if self.deal_crib:
                self.tallies[self.game.side_of(dealer)].cribs.times += 1
        self.in_deal = False

    def summary(self) -> GameSummary:
        if self.in_deal:
            self.close_deal()
        state = self.game.state
        result = state.result
        race = Race(
            self.names, self.header.rules.target, tuple(self.race),
            result.winner if result else None, result.skunk if result else "none",
        )
        return GameSummary(
            self.number, self.source, self.header.players, self.names, race,
            result is not None, result.winner if result else None,
            result.skunk if result else "none", self.first_dealer_side, tuple(self.tallies),
        )


def _apply(game: Game, event: Event, number: int, source: str) -> tuple[Award, ...]:
    try:
        return game.apply(event)
    except RuleError as error:
        raise RecordError(f"{source}: line {number}: {error}") from None


def replay_record(
    lines: Iterable[RawLine], *, source: str = "record", first_number: int = 1
) -> list[GameSummary]:
    """Replay one record (a game or a match) and summarise each of its games.

    ``source`` names the record in error messages; games are numbered from ``first_number``.
    """
    header, events = _read(lines, source)
    return _replay(header, events, source, first_number, learning=True)


def replay_events(
    header: GameHeader, events: Sequence[Event], *, source: str = "game", first_number: int = 1
) -> list[GameSummary]:
    """Like :func:`replay_record`, from the engine's own values (``Game.header``,
    ``Game.events``). For the race at the end of a game: ``replay_events(...)[-1].race``.
    """
    return _replay(header, list(enumerate(events, start=2)), source, first_number)


def _replay(
    header: GameHeader, events: Sequence[tuple[int, Event]], source: str, first_number: int,
    *, learning: bool = False,
) -> list[GameSummary]:
    numbered = events
    if any(isinstance(event, Undo) for _, event in events):
        # Replay once to let the engine take back what was undone; line numbers of the
        # remaining events no longer matter (they were all accepted).
        numbered = [(0, event) for event in _effective_events(header, events, source)]
    try:
        game = Game.from_header(header)
    except RuleError as error:
        raise RecordError(f"{source}: line 1: {error}") from None
    summaries: list[GameSummary] = []
    tracker = _GameTracker(first_number, source, header, game)
    for number, event in numbered:
        if isinstance(event, NewGame):
            summaries.append(tracker.summary())
            _apply(game, event, number, source)
            tracker = _GameTracker(first_number + len(summaries), source, header, game)
            continue
        tracker.before(event)
        awards = _apply(game, event, number, source)
        tracker.after(event, awards)
    summaries.append(tracker.summary())
    if learning:
        _learned(game, summaries)
    return summaries


def _learned(game: Game, summaries: list[GameSummary]) -> None:
    """Add what each game teaches (:func:`pegboard.coach.lessons.lessons`, the one place it
    is worked out) to its sides' tallies: discards reviewed and the points given up on them,
    points missed counting and given up pegging."""
    from pegboard.coach.lessons import lessons  # the advice engine: only when summarising

    found = lessons(game)
    for summary, players in zip(summaries, found.per_game, strict=False):
        for who in players:
            tally = summary.tallies[game.side_of(who.player)]
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


class Fold:
    """Per-side statistics folded one game at a time, so a history of any length is read in
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
    fold = Fold()
    for g in games:
        fold.add(g)
    return fold.statistics(games)
