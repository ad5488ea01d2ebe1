"""Statistics players care about, computed by replaying game records through the engine.

Every record is read with :mod:`pegboard.record` and replayed event by event through
:class:`pegboard.rules.game.Game`; nothing is taken on trust from a stored result. A record
may hold a match (games separated by ``new_game`` lines); each game counts on its own.

Per side (a player, or a partnership named "Ann & Cat" in seat order), over finished games:

* ``games``, ``wins``; ``skunks_given`` / ``skunks_taken`` count every skunk, double skunks
  included, and ``double_skunks_given`` / ``double_skunks_taken`` the doubles alone. The
  winner gives the skunk the game result names; each loser takes one when their own final
  score is on or below the line (with three players, one loser may escape it).
* ``average_hand``: points pegged for hands (award reason ``hand``) per hand counted. A hand
  is counted when the show reached it, even if it scored nothing (the engine pegs no award for
  a zero hand, so the show's progress is read from the game state). A partnership has two
  hands a deal. In muggins games a hand counts what its owner claimed; points taken by
  muggins go to the caller under the reason ``muggins``, in no average.
* ``average_crib``: points for the crib (reason ``crib``) per crib the side owned and counted.
* ``average_pegging``: points from the play (fifteen, thirty-one, pairs, runs, go, last card)
  per deal whose play was entered card by card.
* ``best_hand``: the highest hand pegged, with its cards and the starter.

Deals entered by points only (quick-mode ``peg`` lines) count in the scores and the race but
not in those averages, since nobody said which points came from where. Across all games:
the first-dealer win rate (games won by the side that dealt first). Per game: the score race,
each side's score at the end of every deal.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from pegboard.errors import InvalidCardError, PegboardError, RecordError, RuleError
from pegboard.record.reader import RawLine, entries
from pegboard.rules.cards import Card
from pegboard.rules.events import Crib, Deal, Event, GameHeader, NewGame, Play, Undo
from pegboard.rules.game import Game
from pegboard.rules.state import Award, Phase

PLAY_REASONS = frozenset({
    "fifteen", "thirty-one", "pair", "pair royal", "double pair royal", "run", "go",
    "last card",
})
"""Award reasons that come from the play (pegging)."""


def skunk_lines(target: int) -> tuple[int, int | None]:
    """The highest losing scores that are a skunk and a double skunk for a game to ``target``.

    RULES.md, Winning: a loser on 90 or less is skunked, on 60 or less double skunked; in a
    61-hole game the skunk line is 30 (and there is no double skunk).

    >>> skunk_lines(121), skunk_lines(61)
    ((90, 60), (30, None))
    """
    if target <= 61:
        return target - 31, None
    return target - 31, target - 61


@dataclass(frozen=True, slots=True)
class Race:
    """The score race of one game: each side's score after every deal.

    ``scores[0]`` is the start (every side on 0) and ``scores[k]`` the scores at the end of
    deal ``k`` (the last entry is the final score, even when the game ended mid-deal).
    ``names`` has one entry per side (partners joined with " & ").
    """

    names: tuple[str, ...]
    target: int
    scores: tuple[tuple[int, ...], ...]
    winner: int | None = None
    skunk: str = "none"

    @property
    def deals(self) -> int:
        """Number of deals shown."""
        return len(self.scores) - 1

    @property
    def final(self) -> tuple[int, ...]:
        """Each side's last score."""
        return self.scores[-1] if self.scores else tuple(0 for _ in self.names)

    def series(self, side: int) -> tuple[int, ...]:
        """One side's score after each deal, starting from 0."""
        return tuple(row[side] for row in self.scores)

    def to_json(self) -> dict[str, object]:
        """``{"names": [...], "target": 121, "scores": [[0, 0], ...], "winner": 0, ...}``."""
        return {
            "names": list(self.names),
            "target": self.target,
            "scores": [list(row) for row in self.scores],
            "winner": self.winner,
            "skunk": self.skunk,
        }


@dataclass(frozen=True, slots=True)
class BestHand:
    """A hand as it was counted: its points, its cards and the starter."""

    points: int
    cards: tuple[Card, ...]
    starter: Card | None
    player: str
    game: int

    def to_json(self) -> dict[str, object]:
        """``{"points": 24, "cards": [...], "starter": "5D", "player": "Ann", "game": 1}``."""
        return {
            "points": self.points,
            "cards": [str(c) for c in self.cards],
            "starter": str(self.starter) if self.starter else None,
            "player": self.player,
            "game": self.game,
        }


@dataclass(slots=True)
class Tally:
    """What one side did in one game (or, summed, over many)."""

    deals: int = 0
    hand_points: int = 0
    hands: int = 0
    crib_points: int = 0
    cribs: int = 0
    pegging_points: int = 0
    pegging_deals: int = 0
    best_hand: BestHand | None = None

    def add(self, other: Tally) -> None:
        """Add another tally into this one."""
        self.deals += other.deals
        self.hand_points += other.hand_points
        self.hands += other.hands
        self.crib_points += other.crib_points
        self.cribs += other.cribs
        self.pegging_points += other.pegging_points
        self.pegging_deals += other.pegging_deals
        if other.best_hand is not None and (
            self.best_hand is None or other.best_hand.points > self.best_hand.points
        ):
            self.best_hand = other.best_hand


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One game replayed: sides, race, result and each side's tally."""

    number: int
    source: str
    players: tuple[str, ...]
    names: tuple[str, ...]
    race: Race
    finished: bool
    winner: int | None
    skunk: str
    first_dealer_side: int | None
    tallies: tuple[Tally, ...]

    def to_json(self) -> dict[str, object]:
        """The per-game part of ``pegboard stats --json``."""
        return {
            "game": self.number,
            "source": self.source,
            "sides": list(self.names),
            "finished": self.finished,
            "winner": self.winner,
            "skunk": self.skunk,
            "first_dealer_side": self.first_dealer_side,
            "race": [list(row) for row in self.race.scores],
        }


def _ratio(points: int, count: int) -> float | None:
    return round(points / count, 4) if count else None


@dataclass(slots=True)
class SideStats:
    """One player's (or partnership's) statistics over the finished games."""

    name: str
    games: int = 0
    wins: int = 0
    skunks_given: int = 0
    double_skunks_given: int = 0
    skunks_taken: int = 0
    double_skunks_taken: int = 0
    tally: Tally = field(default_factory=Tally)

    @property
    def average_hand(self) -> float | None:
        """Hand points per hand counted (None before any hand)."""
        return _ratio(self.tally.hand_points, self.tally.hands)

    @property
    def average_crib(self) -> float | None:
        """Crib points per crib counted."""
        return _ratio(self.tally.crib_points, self.tally.cribs)

    @property
    def average_pegging(self) -> float | None:
        """Play points per deal played card by card."""
        return _ratio(self.tally.pegging_points, self.tally.pegging_deals)

    def to_json(self) -> dict[str, object]:
        """The per-side part of ``pegboard stats --json``."""
        t = self.tally
        return {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "skunks_given": self.skunks_given,
            "double_skunks_given": self.double_skunks_given,
            "skunks_taken": self.skunks_taken,
            "double_skunks_taken": self.double_skunks_taken,
            "deals": t.deals,
            "hands": t.hands,
            "hand_points": t.hand_points,
            "average_hand": self.average_hand,
            "cribs": t.cribs,
            "crib_points": t.crib_points,
            "average_crib": self.average_crib,
            "pegging_deals": t.pegging_deals,
            "pegging_points": t.pegging_points,
            "average_pegging": self.average_pegging,
            "best_hand": t.best_hand.to_json() if t.best_hand else None,
        }


@dataclass(frozen=True, slots=True)
class Statistics:
    """Everything ``pegboard stats`` reports."""

    sides: tuple[SideStats, ...]
    games: tuple[GameSummary, ...]
    first_dealer_games: int
    first_dealer_wins: int
    notes: tuple[str, ...] = ()
    finished: int | None = None
    """Finished games counted (None: count those in ``games``)."""

    @property
    def first_dealer_win_rate(self) -> float | None:
        """Share of finished games won by the side that dealt first."""
        return _ratio(self.first_dealer_wins, self.first_dealer_games)

    def to_json(self, *, game: int | None = None) -> dict[str, object]:
        """``pegboard stats --json`` (with ``game``, only that game's race)."""
        games = [g for g in self.games if game is None or g.number == game]
        return {
            "players": [s.to_json() for s in self.sides],
            "first_dealer": {
                "games": self.first_dealer_games,
                "wins": self.first_dealer_wins,
                "rate": self.first_dealer_win_rate,
            },
            "games": [g.to_json() for g in games],
            "notes": list(self.notes),
        }


# --- replaying one record ------------------------------------------------------------------


def _side_names(header: GameHeader, game: Game) -> tuple[str, ...]:
    players = header.players
    sides = game.state.sides
    return tuple(
        " & ".join(name for seat, name in enumerate(players) if game.side_of(seat) == side)
        for side in range(sides)
    )


class StatsError(PegboardError, ValueError):
    """A statistics request that cannot be met (no such game, nothing to plot)."""


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
                tally.hand_points += award.points
                if award.player in self.deal_hand_awards:
                    self.deal_hand_awards.remove(award.player)
            elif reason == "hand":
                tally.hand_points += award.points
                self.deal_hand_awards.append(award.player)
                best = tally.best_hand
                if best is None or award.points > best.points:
                    tally.best_hand = BestHand(
                        award.points, award.cards, self.game.state.starter,
                        self.header.players[award.player], self.number,
                    )
            elif reason == "crib":
                tally.crib_points += award.points
            elif reason in PLAY_REASONS:
                tally.pegging_points += award.points

    def close_deal(self) -> None:
        """Book the deal that just ended: race point, deals, hands and cribs counted."""
        state = self.game.state
        self.race.append(tuple(state.scores))
        n = len(self.header.players)
        for tally in self.tallies:
            tally.deals += 1
            if self.deal_played:
                tally.pegging_deals += 1
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
                self.tallies[self.game.side_of(player)].hands += 1
            if self.deal_crib:
                self.tallies[self.game.side_of(dealer)].cribs += 1
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
    return _replay(header, events, source, first_number)


def replay_events(
    header: GameHeader, events: Sequence[Event], *, source: str = "game", first_number: int = 1
) -> list[GameSummary]:
    """Like :func:`replay_record`, from the engine's own values (``Game.header``,
    ``Game.events``). For the race at the end of a game: ``replay_events(...)[-1].race``.
    """
    return _replay(header, list(enumerate(events, start=2)), source, first_number)


def _replay(
    header: GameHeader, events: Sequence[tuple[int, Event]], source: str, first_number: int
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
    return summaries


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
        line, double_line = skunk_lines(g.race.target)
        for side, name in enumerate(g.names):
            stats = self.sides.setdefault(name, SideStats(name))
            stats.games += 1
            stats.tally.add(g.tallies[side])
            if g.winner == side:
                stats.wins += 1
                stats.skunks_given += g.skunk in ("skunk", "double")
                stats.double_skunks_given += g.skunk == "double"
            else:
                # With three players each loser is judged on their own score.
                score = g.race.final[side]
                stats.skunks_taken += score <= line
                stats.double_skunks_taken += double_line is not None and score <= double_line
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


# --- a game summary kept in the store's index ----------------------------------------------


def summary_json(g: GameSummary) -> dict[str, Any]:
    """What the store's index keeps of a game summary (its number and source are given again
    when it is read: they depend on where the game stands in the history)."""
    return {
        "players": list(g.players), "names": list(g.names), "target": g.race.target,
        "race": [list(row) for row in g.race.scores], "finished": g.finished,
        "winner": g.winner, "skunk": g.skunk, "first_dealer_side": g.first_dealer_side,
        "tallies": [_tally_json(t) for t in g.tallies],
    }


def summary_from_json(data: object, *, number: int, source: str) -> GameSummary:
    """The summary :func:`summary_json` kept, as game ``number`` of the statistics.

    Every value is checked (ValueError naming the first that is wrong): the index that keeps
    them is a file anyone with access can edit.
    """
    d = _object(data, "a summary")
    names = _texts(d.get("names"), "names")
    players = _texts(d.get("players"), "players")
    race = d.get("race")
    if not isinstance(race, list) or not race or not all(
            isinstance(row, list) and len(row) == len(names) and all(map(_is_whole, row))
            for row in race):
        raise ValueError("its race is not a list of scores for each side")
    target, winner, first = d.get("target"), d.get("winner"), d.get("first_dealer_side")
    if not _is_whole(target) or not (winner is None or _is_whole(winner)) or not (
            first is None or _is_whole(first)):
        raise ValueError("its target, winner or first dealer is not a whole number")
    skunk, finished, tallies = d.get("skunk"), d.get("finished"), d.get("tallies")
    if not isinstance(skunk, str) or not isinstance(finished, bool):
        raise ValueError("its skunk or finished is not what a summary keeps")
    if not isinstance(tallies, list) or len(tallies) != len(names):
        raise ValueError("it has no tally for each side")
    rows = tuple(tuple(row) for row in race)
    return GameSummary(
        number, source, players, names, Race(names, target, rows, winner, skunk), finished,
        winner, skunk, first, tuple(_tally_from_json(t, number) for t in tallies),
    )


def _is_whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _object(value: object, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"{what} is not an object")
    return value


def _texts(value: object, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError(f"its {what} are not a list of names")
    return tuple(value)


_TALLY_FIELDS = ("deals", "hand_points", "hands", "crib_points", "cribs", "pegging_points",
                 "pegging_deals")


def _tally_json(t: Tally) -> dict[str, Any]:
    out: dict[str, Any] = {name: getattr(t, name) for name in _TALLY_FIELDS}
    if t.best_hand is not None:
        best = t.best_hand.to_json()
        del best["game"]
        out["best_hand"] = best
    return out


def _tally_from_json(data: object, number: int) -> Tally:
    tally = Tally()
    d = _object(data, "a tally")
    for name in _TALLY_FIELDS:
        value = d.get(name)
        if not _is_whole(value):
            raise ValueError(f"its tally's {name} is not a whole number")
        setattr(tally, name, value)
    best = d.get("best_hand")
    if best is not None:
        hand = _object(best, "a best hand")
        points, cards, starter = hand.get("points"), hand.get("cards"), hand.get("starter")
        if not _is_whole(points) or not isinstance(cards, list) or not all(
                isinstance(card, str) for card in cards) or not isinstance(
                starter, str | None) or not isinstance(hand.get("player"), str):
            raise ValueError("its best hand is not what a summary keeps")
        try:
            tally.best_hand = BestHand(
                points, tuple(Card.parse(c) for c in cards),
                Card.parse(starter) if starter else None, hand["player"], number)
        except InvalidCardError as error:
            raise ValueError(f"its best hand: {error}") from None
    return tally


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def format_text(stats: Statistics, *, game: int | None = None) -> str:
    """The statistics as ``pegboard stats`` prints them (with ``game``, only its race)."""
    out = head_lines(stats)
    if stats.games:
        out.append("")
        out.append(RACE_TITLE)
        out.extend(race_line(g) for g in stats.games if game is None or g.number == game)
    out.extend(f"note: {note}" for note in stats.notes)
    return "\n".join(out) + "\n"


RACE_TITLE = "Score race (end of each deal):"


def race_line(g: GameSummary) -> str:
    """One game's line of the score race, ``  game 3: Ann 0 7 19 ... | Ben 0 12 ...``."""
    state = "" if g.finished else " (unfinished)"
    return f"  game {g.number}{state}: " + " | ".join(
        f"{name} " + " ".join(str(v) for v in g.race.series(side))
        for side, name in enumerate(g.names)
    )


def head_lines(stats: Statistics) -> list[str]:
    """The lines of ``pegboard stats`` before the score race: games, first dealer, sides."""
    out: list[str] = []
    finished = stats.finished
    if finished is None:
        finished = sum(1 for g in stats.games if g.finished)
    out.append(f"Games: {finished} finished")
    rate = stats.first_dealer_win_rate
    if rate is not None:
        out.append(
            f"First dealer won {stats.first_dealer_wins} of {stats.first_dealer_games} "
            f"({rate:.0%})"
        )
    for s in stats.sides:
        t = s.tally
        out.append("")
        out.append(s.name)
        out.append(f"  games {s.games}, wins {s.wins}")
        out.append(
            f"  skunks given {s.skunks_given} (double {s.double_skunks_given}), "
            f"taken {s.skunks_taken} (double {s.double_skunks_taken})"
        )
        out.append(
            f"  average hand {_number(s.average_hand)} ({_plural(t.hands, 'hand')}), "
            f"crib {_number(s.average_crib)} ({_plural(t.cribs, 'crib')}), "
            f"pegging {_number(s.average_pegging)} ({_plural(t.pegging_deals, 'deal')})"
        )
        if t.best_hand is not None:
            b = t.best_hand
            cards = " ".join(c.pretty for c in b.cards)
            starter = f" with {b.starter.pretty}" if b.starter else ""
            out.append(f"  best hand {b.points}: {cards}{starter} (game {b.game})")
    return out
