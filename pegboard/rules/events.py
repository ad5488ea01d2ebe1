"""What happens at the table, one immutable value per entry (the game record's lines).

Players are seat indices 0..n-1, clockwise. A game is the header plus an append-only list of
these events; :class:`pegboard.rules.game.Game` derives everything else by applying them.
Each class's ``TYPE`` is its ``"type"`` in the JSON Lines record (see ``docs/record.md``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from pegboard.rules.cards import Card, Suit
from pegboard.rules.variants import Rules

RECORD_VERSION = 7
"""The record format written now. Version 2 added the renege take-back (ACC 7.3): a renege
penalty in a version-1 record pays the points and takes nothing back, as that release did,
so every game written earlier replays to the same scores. Version 3 (muggins games): a hand
or crib waiting for its owner's claim is never skipped, a false claim of game's offer
lapses with its deal, and missed points stay open to muggins until the next score is pegged.
Version 4: a ``muggins`` line of 0 points is the table saying "no muggins", which shuts the
window (earlier records refuse it), and a crib with a named card makes no flush with a
starter whose suit is a stand-in. Version 5 (muggins games): points missed stay open to
muggins across the next deal until the next score is pegged, as RULES.md has it (earlier
records: the deal shut the window). Version 6: a misdeal is called only while the hand is
dealt, before its starter is turned or anything of it pegged (earlier records dealt again at
any time, keeping the deal's points). Version 7: a starter entered by rank alone is asked
its suit when a count needs it (a ``starter_suit`` entry), and the count waits for it
(earlier records count on with the suit not entered) (docs/record.md, "version")."""


@dataclass(frozen=True, slots=True)
class TableOptions:
    """How the table keeps the game, beside the rules (they never change a score).

    ``teaching``: explain each point and near miss, offer rule help. ``points_only``: the
    players peg points by hand instead of entering every card. ``count_yourself`` (with
    teaching): at the show the owner says a count before the box shows it, with no penalty.
    ``open_hands`` (with teaching): a first game played open-handed, the way one is taught:
    at each deal every player's dealt cards are entered, with the cards they laid away, and
    the screen may show the hands (everyone at the table sees them).
    """

    teaching: bool = False
    points_only: bool = False
    count_yourself: bool = False
    open_hands: bool = False

    def with_option(self, option: OptionsChanged) -> TableOptions:
        """These options changed by an ``option`` entry."""
        return TableOptions(
            self.teaching if option.teaching is None else option.teaching,
            self.points_only if option.points_only is None else option.points_only,
            self.count_yourself if option.count_yourself is None else option.count_yourself,
            self.open_hands if option.open_hands is None else option.open_hands,
        )


@dataclass(frozen=True, slots=True)
class ClubSeat:
    """Where a club game is played: the night, its round and table, and each seat's member
    number (in seat order). It never changes a score; the club publisher reports it.
    ``lock``: the night's tournament lock, under which the table gives no help (no advice,
    hints, teaching or count it yourself); ``guests``: the seats of guests, the only players
    a locked table may still give a pegging hint or discard advice (docs/club.md)."""

    night: int
    round: int
    table: int
    members: tuple[str, ...]
    lock: bool = False
    guests: tuple[int, ...] = ()

    def helps(self, seat: int | None) -> bool:
        """Whether the table may help ``seat`` (None: the whole table) with a hint or
        advice: always on a casual night; under the lock only a guest's own seat."""
        return not self.lock or (seat is not None and seat in self.guests)


@dataclass(frozen=True, slots=True)
class GameHeader:
    """The first line of a record: who plays (in seat order, clockwise), with which rules and
    table options, and where in a club night, if it is a club game."""

    TYPE: ClassVar[str] = "game"
    players: tuple[str, ...]
    rules: Rules = field(default_factory=Rules)
    version: int = RECORD_VERSION
    table: TableOptions = field(default_factory=TableOptions)
    club: ClubSeat | None = None


@dataclass(frozen=True, slots=True)
class Cut:
    """Cutting for the first deal: one card per seat, in seat order. Lowest card deals."""

    TYPE: ClassVar[str] = "cut"
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Deal:
    """A new hand is dealt; ``dealer`` is needed only when no cut or earlier deal decided it."""

    TYPE: ClassVar[str] = "deal"
    dealer: int | None = None


@dataclass(frozen=True, slots=True)
class Dealt:
    """Optional: the cards one player was dealt (before discarding to the crib).

    When known, the engine checks every card that player plays or shows against them. Which
    of them were laid away is a fact of its own (:class:`LaidAway`); until it is entered a
    renege is found only once the hand is known.
    """

    TYPE: ClassVar[str] = "dealt"
    player: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class LaidAway:
    """Optional, after the player's :class:`Dealt` cards: which of them they laid away to the
    crib (2 with two players and in five-card, 1 with three or four).

    The engine then knows the hand the player kept: every card they lay must come from it, a
    go while one of it fits is refused (it would be a renege, ACC 7.3), the hand is counted
    at the show without a ``show`` entry, and the crib must hold the cards laid away (counted
    without a ``crib`` entry once every crib card is known).
    """

    TYPE: ClassVar[str] = "laid_away"
    player: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Starter:
    """The card turned up after the cut. A jack is "his heels": 2 for the dealer.

    ``suit_known`` is False when only the rank was entered: the engine then holds a suit of
    its own choosing to count with, which never makes a nobs or a flush with cards named with
    their suits and is never reported as the starter's (docs/rules.md, "The starter").

    ``by_rank`` (with the suit named): the deal's other cards are entered by their ranks, as
    the device's card wheel enters them, so only the starter and the cards dealt by name had
    their suits entered; the suits of the others are the wheel's, which count the suit facts
    the players chose and are never shown or said. Without it a named starter means every
    card of the deal is entered whole (the command line).
    """

    TYPE: ClassVar[str] = "starter"
    card: Card
    suit_known: bool = True
    by_rank: bool = False


@dataclass(frozen=True, slots=True)
class StarterSuit:
    """The suit of a starter entered by rank alone, named when a count needed it (record
    version 7): a hand or crib with a card named with its suit that could make his nobs or
    a flush with the starter. Every count after it in the deal uses it (docs/rules.md, "The
    starter")."""

    TYPE: ClassVar[str] = "starter_suit"
    suit: Suit


@dataclass(frozen=True, slots=True)
class Play:
    """A card laid in the play."""

    TYPE: ClassVar[str] = "play"
    player: int
    card: Card


@dataclass(frozen=True, slots=True)
class Go:
    """A player says go: they cannot (or will not) play without passing 31."""

    TYPE: ClassVar[str] = "go"
    player: int


@dataclass(frozen=True, slots=True)
class Show:
    """A player's hand in the show (needed only when the play was not entered card by card)."""

    TYPE: ClassVar[str] = "show"
    player: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Crib:
    """The crib's four cards, counted for the dealer after every hand."""

    TYPE: ClassVar[str] = "crib"
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Peg:
    """Quick mode: points pegged by hand for a player's side (no cards entered)."""

    TYPE: ClassVar[str] = "peg"
    player: int
    points: int


@dataclass(frozen=True, slots=True)
class Penalty:
    """An infraction from the catalogue (:mod:`pegboard.rules.penalties`); ``player`` offended.

    ``points`` overrides the catalogue's points (to the opponents, or back for "back"
    infractions); ``to`` names the seat that receives them when there are several opponents.
    ``back`` overrides the points the offender loses on top (false claim of game: 15).
    ``held`` (a renege only): the cards the offender still holds, shown to claim a renege the
    engine could not see (their hand unseen, as when the game was won in the play); the
    engine then judges the renege from them (ACC 7.3).
    """

    TYPE: ClassVar[str] = "penalty"
    player: int
    infraction: str
    points: int | None = None
    to: int | None = None
    back: int | None = None
    held: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class LetPass:
    """The table lets a penalty the engine offered pass (GO on its page): the first offer
    still open of ``infraction`` by ``player``. No score changes and no window moves; the
    offer is no longer put to the table, a game resumed after a power cut included, and it
    stays open to a ``penalty`` entry while the rules allow one (the Penalty menu)."""

    TYPE: ClassVar[str] = "let_pass"
    player: int
    infraction: str


@dataclass(frozen=True, slots=True)
class Claim:
    """Muggins games: the owner of a score says how many points they take."""

    TYPE: ClassVar[str] = "claim"
    player: int
    points: int


@dataclass(frozen=True, slots=True)
class Muggins:
    """Muggins games: ``player`` calls muggins and takes points the owner under-claimed; 0
    points (record version 4) is the table letting them pass ("no muggins")."""

    TYPE: ClassVar[str] = "muggins"
    player: int
    points: int


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last entry."""

    TYPE: ClassVar[str] = "undo"


@dataclass(frozen=True, slots=True)
class NewGame:
    """Start the next game of a match (scores back to 0). ``dealer`` if the table names one."""

    TYPE: ClassVar[str] = "new_game"
    dealer: int | None = None


@dataclass(frozen=True, slots=True)
class OptionsChanged:
    """A table option changed during the game (teaching, or pegging by points); scores never
    change and unclaimed scores stay waiting. ``None`` leaves an option as it was."""

    TYPE: ClassVar[str] = "option"
    teaching: bool | None = None
    points_only: bool | None = None
    count_yourself: bool | None = None
    open_hands: bool | None = None


@dataclass(frozen=True, slots=True)
class Confirm:
    """After the game: ``player`` confirms the result on the board (one press each). Scores
    never change; a scoring entry after it (a claim still allowed) asks for it again."""

    TYPE: ClassVar[str] = "confirm"
    player: int


@dataclass(frozen=True, slots=True)
class Override:
    """After the game: the club's director confirms the result for the table (a player who
    left, a dispute settled); ``director`` names them and ``note`` says why (the audit line).
    Scores never change."""

    TYPE: ClassVar[str] = "override"
    director: str
    note: str


@dataclass(frozen=True, slots=True)
class OwnCount:
    """Count it yourself (teaching): the owner of the hand or crib the engine holds says
    the count they make it, ``points``, before the table is shown it. Scores never change:
    the engine has pegged the count already; what was said is kept for the lesson."""

    TYPE: ClassVar[str] = "own_count"
    player: int
    points: int


Event = (
    Cut | Deal | Dealt | LaidAway | Starter | StarterSuit | Play | Go | Show | Crib | Peg
    | Penalty | Claim | Muggins | Undo | NewGame | OptionsChanged | Confirm | Override | OwnCount
    | LetPass
)
"""Every entry that can follow the header."""

EVENT_TYPES: tuple[type[Event], ...] = (
    Cut, Deal, Dealt, LaidAway, Starter, StarterSuit, Play, Go, Show, Crib, Peg, Penalty, Claim,
    Muggins, Undo, NewGame, OptionsChanged, Confirm, Override, OwnCount, LetPass,
)
