"""The values ``pegboard stats`` reports: the score race, a side's tally, a game's summary,
each side's statistics and the whole report (see :mod:`pegboard.stats`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from pegboard.errors import PegboardError
from pegboard.rules.cards import EnteredCard
from pegboard.rules.fold import Race as Race  # the race is the fold's: one account
from pegboard.rules.state import Skunk
from pegboard.rules.value import Value


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


class BestHand(Value):
    """A hand as it was counted: its points, and its cards and the starter as the table
    entered them (a card entered by its rank alone has no suit: the engine's
    :class:`~pegboard.rules.cards.EnteredCard`)."""

    __slots__ = ("cards", "game", "player", "points", "starter")
    __match_args__ = ("points", "cards", "starter", "player", "game")

    points: int
    cards: tuple[EnteredCard, ...]
    starter: EnteredCard | None
    player: str
    game: int

    def __init__(
        self,
        points: int,
        cards: tuple[EnteredCard, ...],
        starter: EnteredCard | None,
        player: str,
        game: int,
    ) -> None:
        setter = object.__setattr__
        setter(self, "points", points)
        setter(self, "cards", cards)
        setter(self, "starter", starter)
        setter(self, "player", player)
        setter(self, "game", game)

    def to_json(self) -> dict[str, object]:
        """``{"points": 24, "cards": ["5H", "J", ...], "starter": "5D", "player": "Ann",
        "game": 1}``: a card as :func:`entered_text` writes it (``"J"``: its suit not
        entered)."""
        return {
            "points": self.points,
            "cards": [entered_text(c) for c in self.cards],
            "starter": entered_text(self.starter) if self.starter else None,
            "player": self.player,
            "game": self.game,
        }


def entered_text(card: EnteredCard) -> str:
    """A card as entered, in the record's card text: rank then suit letter (``"5H"``, ``"TD"``)
    when its suit was entered, else the rank alone (``"5"``, ``"T"``).

    >>> from pegboard.rules.cards import Card
    >>> entered_text(EnteredCard.of(Card.parse("TD"))), entered_text(
    ...     EnteredCard.of(Card.parse("TD"), suit_known=False))
    ('TD', 'T')
    """
    known = card.card
    return str(known) if known is not None else card.rank.symbol


def _ratio(points: int, count: int) -> float | None:
    return round(points / count, 4) if count else None


@dataclass(slots=True)
class Scored:
    """The points one part of the deal scored and how many times it was scored (hands counted,
    cribs counted or deals played card by card): an average's two halves."""

    points: int = 0
    times: int = 0

    @property
    def average(self) -> float | None:
        """Points a time (None before the first)."""
        return _ratio(self.points, self.times)

    def add(self, other: Scored) -> None:
        """Add another's points and times into these."""
        self.points += other.points
        self.times += other.times


@dataclass(slots=True)
class Tally:
    """What one side did in one game (or, summed, over many)."""

    deals: int = 0
    hands: Scored = field(default_factory=Scored)
    cribs: Scored = field(default_factory=Scored)
    pegging: Scored = field(default_factory=Scored)
    """The play's points over the deals played card by card."""
    best_hand: BestHand | None = None
    discards: int = 0
    """Discards reviewed by expected value (hands whose dealt cards were entered)."""
    discard_loss: int = 0
    """Thousandths of a point given up on average over those discards, summed."""
    missed: int = 0
    """Points missed counting (left unclaimed in a muggins game)."""
    pegging_loss: int = 0
    """Thousandths of a point given up on average in the pegging (plays judged), summed."""

    def add(self, other: Tally) -> None:
        """Add another tally into this one."""
        self.deals += other.deals
        self.hands.add(other.hands)
        self.cribs.add(other.cribs)
        self.pegging.add(other.pegging)
        self.discards += other.discards
        self.discard_loss += other.discard_loss
        self.missed += other.missed
        self.pegging_loss += other.pegging_loss
        if other.best_hand is not None and (
            self.best_hand is None or other.best_hand.points > self.best_hand.points
        ):
            self.best_hand = other.best_hand


class GameSummary(Value):
    """One game replayed: sides, race, result and each side's tally."""

    __slots__ = (
        "finished",
        "first_dealer_side",
        "names",
        "number",
        "players",
        "race",
        "skunk",
        "source",
        "tallies",
        "winner",
    )
    __match_args__ = (
        "number",
        "source",
        "players",
        "names",
        "race",
        "finished",
        "winner",
        "skunk",
        "first_dealer_side",
        "tallies",
    )

    number: int
    source: str
    players: tuple[str, ...]
    names: tuple[str, ...]
    race: Race
    finished: bool
    winner: int | None
    skunk: Skunk
    first_dealer_side: int | None
    tallies: tuple[Tally, ...]

    def __init__(
        self,
        number: int,
        source: str,
        players: tuple[str, ...],
        names: tuple[str, ...],
        race: Race,
        finished: bool,
        winner: int | None,
        skunk: Skunk,
        first_dealer_side: int | None,
        tallies: tuple[Tally, ...],
    ) -> None:
        setter = object.__setattr__
        setter(self, "number", number)
        setter(self, "source", source)
        setter(self, "players", players)
        setter(self, "names", names)
        setter(self, "race", race)
        setter(self, "finished", finished)
        setter(self, "winner", winner)
        setter(self, "skunk", skunk)
        setter(self, "first_dealer_side", first_dealer_side)
        setter(self, "tallies", tallies)

    def to_json(self) -> dict[str, object]:
        """The per-game part of ``pegboard stats --json``."""
        return {
            "game": self.number,
            "source": self.source,
            "sides": list(self.names),
            "finished": self.finished,
            "winner": self.winner,
            "skunk": str(self.skunk),
            "first_dealer_side": self.first_dealer_side,
            "race": [list(row) for row in self.race.scores],
        }


@dataclass(slots=True)
class Skunks:
    """Skunks counted (ACC 2.1): ``every`` one, double skunks included, and the ``double``
    ones alone."""

    every: int = 0
    double: int = 0

    def count(self, skunk: Skunk) -> None:
        """Count one game's :class:`~pegboard.rules.state.Skunk` (``NONE`` counts none)."""
        self.every += skunk in (Skunk.SKUNK, Skunk.DOUBLE)
        self.double += skunk is Skunk.DOUBLE


@dataclass(slots=True)
class SideStats:
    """One player's (or partnership's) statistics over the finished games: the skunks
    ``given`` winning (judged on the last loser's score) and ``taken`` losing (each loser's
    own)."""

    name: str
    games: int = 0
    wins: int = 0
    given: Skunks = field(default_factory=Skunks)
    taken: Skunks = field(default_factory=Skunks)
    tally: Tally = field(default_factory=Tally)

    @property
    def average_discard_loss(self) -> float | None:
        """Points given up on average per discard reviewed (None: no dealt cards entered)."""
        return _ratio(self.tally.discard_loss, 1000 * self.tally.discards)

    @property
    def missed_a_game(self) -> float | None:
        """Points missed counting per game."""
        return _ratio(self.tally.missed, self.games)

    @property
    def pegging_loss_a_game(self) -> float | None:
        """Points given up on average in the pegging per game."""
        return _ratio(self.tally.pegging_loss, 1000 * self.games)

    def to_json(self) -> dict[str, object]:
        """The per-side part of ``pegboard stats --json``."""
        t = self.tally
        return {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "skunks_given": self.given.every,
            "double_skunks_given": self.given.double,
            "skunks_taken": self.taken.every,
            "double_skunks_taken": self.taken.double,
            "deals": t.deals,
            "hands": t.hands.times,
            "hand_points": t.hands.points,
            "average_hand": t.hands.average,
            "cribs": t.cribs.times,
            "crib_points": t.cribs.points,
            "average_crib": t.cribs.average,
            "pegging_deals": t.pegging.times,
            "pegging_points": t.pegging.points,
            "average_pegging": t.pegging.average,
            "best_hand": t.best_hand.to_json() if t.best_hand else None,
            "discards_reviewed": t.discards,
            "average_discard_loss": self.average_discard_loss,
            "missed_a_game": self.missed_a_game,
            "pegging_loss_a_game": self.pegging_loss_a_game,
        }


class Statistics(Value):
    """Everything ``pegboard stats`` reports."""

    __slots__ = ("finished", "first_dealer_games", "first_dealer_wins", "games", "notes", "sides")
    __match_args__ = (
        "sides",
        "games",
        "first_dealer_games",
        "first_dealer_wins",
        "notes",
        "finished",
    )

    sides: tuple[SideStats, ...]
    games: tuple[GameSummary, ...]
    first_dealer_games: int
    first_dealer_wins: int
    notes: tuple[str, ...]
    finished: int | None
    """Finished games counted (None: count those in ``games``)."""

    def __init__(
        self,
        sides: tuple[SideStats, ...],
        games: tuple[GameSummary, ...],
        first_dealer_games: int,
        first_dealer_wins: int,
        notes: tuple[str, ...] = (),
        finished: int | None = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "sides", sides)
        setter(self, "games", games)
        setter(self, "first_dealer_games", first_dealer_games)
        setter(self, "first_dealer_wins", first_dealer_wins)
        setter(self, "notes", notes)
        setter(self, "finished", finished)

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



class StatsError(PegboardError, ValueError):
    """A statistics request that cannot be met (no such game, nothing to plot)."""
