"""What happens at the table, one immutable value per entry (the game record's lines).

Players are seat indices 0..n-1, clockwise. A game is the header plus an append-only list of
these events; :class:`pegboard.rules.game.Game` derives everything else by applying them.
Each class's ``TYPE`` is its ``"type"`` in the JSON Lines record (see ``docs/record.md``).
"""

from __future__ import annotations

from typing import ClassVar

from pegboard.rules.cards import Card, Suit
from pegboard.rules.value import Value
from pegboard.rules.variants import DEFAULT_RULES, Rules

RECORD_VERSION = 8
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
(earlier records count on with the suit not entered). Version 8: a named starter without
``by_rank`` says every card of its deal was entered whole; an earlier record cannot say which
suits were entered (the device's card wheel wrote its own suits unmarked), so only its dealt
hands and its starter (from version 4) are shown with their suits, and every count stays as
it was (docs/record.md, "version")."""


class TableOptions(Value):
    """How the table keeps the game, beside the rules (they never change a score).

    ``teaching``: explain each point and near miss, offer rule help. ``points_only``: the
    players peg points by hand instead of entering every card. ``count_yourself`` (with
    teaching): at the show the owner says a count before the box shows it, with no penalty.
    ``open_hands`` (with teaching): a first game played open-handed, the way one is taught:
    at each deal every player's dealt cards are entered, with the cards they laid away, and
    the screen may show the hands (everyone at the table sees them).
    """

    __slots__ = ("count_yourself", "open_hands", "points_only", "teaching")
    __match_args__ = ("teaching", "points_only", "count_yourself", "open_hands")

    teaching: bool
    points_only: bool
    count_yourself: bool
    open_hands: bool

    def __init__(
        self,
        teaching: bool = False,
        points_only: bool = False,
        count_yourself: bool = False,
        open_hands: bool = False,
    ) -> None:
        setter = object.__setattr__
        setter(self, "teaching", teaching)
        setter(self, "points_only", points_only)
        setter(self, "count_yourself", count_yourself)
        setter(self, "open_hands", open_hands)

    @property
    def hands_open(self) -> bool:
        """Every hand is open to the table (``open_hands``, in effect with teaching only): what
        each player holds is known to every player, and to the coach judging a play."""
        return self.teaching and self.open_hands

    def with_option(self, option: OptionsChanged) -> TableOptions:
        """These options changed by an ``option`` entry."""
        return TableOptions(
            self.teaching if option.teaching is None else option.teaching,
            self.points_only if option.points_only is None else option.points_only,
            self.count_yourself if option.count_yourself is None else option.count_yourself,
            self.open_hands if option.open_hands is None else option.open_hands,
        )


PLAIN_TABLE = TableOptions()
"""A table kept with no option on (the default)."""


class ClubSeat(Value):
    """Where a club game is played: the night, its round and table, and each seat's member
    number (in seat order). It never changes a score; the club publisher reports it.
    ``lock``: the night's tournament lock, under which the table gives no help (no advice,
    hints, teaching or count it yourself); ``guests``: the seats of guests, the only players
    a locked table may still give a pegging hint or discard advice (docs/club.md)."""

    __slots__ = ("guests", "lock", "members", "night", "round", "table")
    __match_args__ = ("night", "round", "table", "members", "lock", "guests")

    night: int
    round: int
    table: int
    members: tuple[str, ...]
    lock: bool
    guests: tuple[int, ...]

    def __init__(
        self,
        night: int,
        round: int,
        table: int,
        members: tuple[str, ...],
        lock: bool = False,
        guests: tuple[int, ...] = (),
    ) -> None:
        setter = object.__setattr__
        setter(self, "night", night)
        setter(self, "round", round)
        setter(self, "table", table)
        setter(self, "members", members)
        setter(self, "lock", lock)
        setter(self, "guests", guests)

    def helps(self, seat: int | None) -> bool:
        """Whether the table may help ``seat`` (None: the whole table) with a hint or
        advice: always on a casual night; under the lock only a guest's own seat."""
        return not self.lock or (seat is not None and seat in self.guests)


class GameHeader(Value):
    """The first line of a record: who plays (in seat order, clockwise), with which rules and
    table options, and where in a club night, if it is a club game."""

    __slots__ = ("club", "players", "rules", "table", "version")
    __match_args__ = ("players", "rules", "version", "table", "club")

    TYPE: ClassVar[str] = "game"
    players: tuple[str, ...]
    rules: Rules
    version: int
    table: TableOptions
    club: ClubSeat | None

    def __init__(
        self,
        players: tuple[str, ...],
        rules: Rules = DEFAULT_RULES,
        version: int = RECORD_VERSION,
        table: TableOptions = PLAIN_TABLE,
        club: ClubSeat | None = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "players", players)
        setter(self, "rules", rules)
        setter(self, "version", version)
        setter(self, "table", table)
        setter(self, "club", club)


class Cut(Value):
    """Cutting for the first deal: one card per seat, in seat order. Lowest card deals."""

    __slots__ = ("cards",)
    __match_args__ = ("cards",)

    TYPE: ClassVar[str] = "cut"
    cards: tuple[Card, ...]

    def __init__(self, cards: tuple[Card, ...]) -> None:
        object.__setattr__(self, "cards", cards)


class Deal(Value):
    """A new hand is dealt; ``dealer`` is needed only when no cut or earlier deal decided it."""

    __slots__ = ("dealer",)
    __match_args__ = ("dealer",)

    TYPE: ClassVar[str] = "deal"
    dealer: int | None

    def __init__(self, dealer: int | None = None) -> None:
        object.__setattr__(self, "dealer", dealer)


class Dealt(Value):
    """Optional: the cards one player was dealt (before discarding to the crib).

    When known, the engine checks every card that player plays or shows against them. Which
    of them were laid away is a fact of its own (:class:`LaidAway`); until it is entered a
    renege is found only once the hand is known.
    """

    __slots__ = ("cards", "player")
    __match_args__ = ("player", "cards")

    TYPE: ClassVar[str] = "dealt"
    player: int
    cards: tuple[Card, ...]

    def __init__(self, player: int, cards: tuple[Card, ...]) -> None:
        setter = object.__setattr__
        setter(self, "player", player)
        setter(self, "cards", cards)


class LaidAway(Value):
    """Optional, after the player's :class:`Dealt` cards: which of them they laid away to the
    crib (2 with two players and in five-card, 1 with three or four).

    The engine then knows the hand the player kept: every card they lay must come from it, a
    go while one of it fits is refused (it would be a renege, ACC 7.3), the hand is counted
    at the show without a ``show`` entry, and the crib must hold the cards laid away (counted
    without a ``crib`` entry once every crib card is known).
    """

    __slots__ = ("cards", "player")
    __match_args__ = ("player", "cards")

    TYPE: ClassVar[str] = "laid_away"
    player: int
    cards: tuple[Card, ...]

    def __init__(self, player: int, cards: tuple[Card, ...]) -> None:
        setter = object.__setattr__
        setter(self, "player", player)
        setter(self, "cards", cards)


class Starter(Value):
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

    __slots__ = ("by_rank", "card", "suit_known")
    __match_args__ = ("card", "suit_known", "by_rank")

    TYPE: ClassVar[str] = "starter"
    card: Card
    suit_known: bool
    by_rank: bool

    def __init__(self, card: Card, suit_known: bool = True, by_rank: bool = False) -> None:
        setter = object.__setattr__
        setter(self, "card", card)
        setter(self, "suit_known", suit_known)
        setter(self, "by_rank", by_rank)


class StarterSuit(Value):
    """The suit of a starter entered by rank alone, named when a count needed it (record
    version 7): a hand or crib with a card named with its suit that could make his nobs or
    a flush with the starter. Every count after it in the deal uses it (docs/rules.md, "The
    starter")."""

    __slots__ = ("suit",)
    __match_args__ = ("suit",)

    TYPE: ClassVar[str] = "starter_suit"
    suit: Suit

    def __init__(self, suit: Suit) -> None:
        object.__setattr__(self, "suit", suit)


class Play(Value):
    """A card laid in the play.

    ``named``: its player named its suit, in a deal whose cards are otherwise entered by
    rank (a phone's tap on its real card): the suit is a fact of the deal, as a dealt hand's
    is, and no card entered by rank alone holds it (a stand-in given that suit moves to
    another). Without it, a card laid in a deal entered by rank has its suit unknown."""

    __slots__ = ("card", "named", "player")
    __match_args__ = ("player", "card", "named")

    TYPE: ClassVar[str] = "play"
    player: int
    card: Card
    named: bool

    def __init__(self, player: int, card: Card, named: bool = False) -> None:
        setter = object.__setattr__
        setter(self, "player", player)
        setter(self, "card", card)
        setter(self, "named", named)


class Go(Value):
    """A player says go: they cannot (or will not) play without passing 31."""

    __slots__ = ("player",)
    __match_args__ = ("player",)

    TYPE: ClassVar[str] = "go"
    player: int

    def __init__(self, player: int) -> None:
        object.__setattr__(self, "player", player)


class Show(Value):
    """A player's hand in the show (needed only when the play was not entered card by card)."""

    __slots__ = ("cards", "player")
    __match_args__ = ("player", "cards")

    TYPE: ClassVar[str] = "show"
    player: int
    cards: tuple[Card, ...]

    def __init__(self, player: int, cards: tuple[Card, ...]) -> None:
        setter = object.__setattr__
        setter(self, "player", player)
        setter(self, "cards", cards)


class Crib(Value):
    """The crib's four cards, counted for the dealer after every hand."""

    __slots__ = ("cards",)
    __match_args__ = ("cards",)

    TYPE: ClassVar[str] = "crib"
    cards: tuple[Card, ...]

    def __init__(self, cards: tuple[Card, ...]) -> None:
        object.__setattr__(self, "cards", cards)


class Peg(Value):
    """Quick mode: points pegged by hand for a player's side (no cards entered)."""

    __slots__ = ("player", "points")
    __match_args__ = ("player", "points")

    TYPE: ClassVar[str] = "peg"
    player: int
    points: int

    def __init__(self, player: int, points: int) -> None:
        setter = object.__setattr__
        setter(self, "player", player)
        setter(self, "points", points)


class Penalty(Value):
    """An infraction from the catalogue (:mod:`pegboard.rules.penalties`); ``player`` offended.

    ``points`` overrides the catalogue's points (to the opponents, or back for "back"
    infractions); ``to`` names the seat that receives them when there are several opponents.
    ``back`` overrides the points the offender loses on top (false claim of game: 15).
    ``held`` (a renege only): the cards the offender still holds, shown to claim a renege the
    engine could not see (their hand unseen, as when the game was won in the play); the
    engine then judges the renege from them (ACC 7.3).
    """

    __slots__ = ("back", "held", "infraction", "player", "points", "to")
    __match_args__ = ("player", "infraction", "points", "to", "back", "held")

    TYPE: ClassVar[str] = "penalty"
    player: int
    infraction: str
    points: int | None
    to: int | None
    back: int | None
    held: tuple[Card, ...]

    def __init__(
        self,
        player: int,
        infraction: str,
        points: int | None = None,
        to: int | None = None,
        back: int | None = None,
        held: tuple[Card, ...] = (),
    ) -> None:
        setter = object.__setattr__
        setter(self, "player", player)
        setter(self, "infraction", infraction)
        setter(self, "points", points)
        setter(self, "to", to)
        setter(self, "back", back)
        setter(self, "held", held)


class LetPass(Value):
    """The table lets a penalty the engine offered pass (GO on its page): the first offer
    still open of ``infraction`` by ``player``. No score changes and no window moves; the
    offer is no longer put to the table, a game resumed after a power cut included, and it
    stays open to a ``penalty`` entry while the rules allow one (the Penalty menu)."""

    __slots__ = ("infraction", "player")
    __match_args__ = ("player", "infraction")

    TYPE: ClassVar[str] = "let_pass"
    player: int
    infraction: str

    def __init__(self, player: int, infraction: str) -> None:
        setter = object.__setattr__
        setter(self, "player", player)
        setter(self, "infraction", infraction)


class Claim(Value):
    """Muggins games: the owner of a score says how many points they take."""

    __slots__ = ("player", "points")
    __match_args__ = ("player", "points")

    TYPE: ClassVar[str] = "claim"
    player: int
    points: int

    def __init__(self, player: int, points: int) -> None:
        setter = object.__setattr__
        setter(self, "player", player)
        setter(self, "points", points)


class Muggins(Value):
    """Muggins games: ``player`` calls muggins and takes points the owner under-claimed; 0
    points (record version 4) is the table letting them pass ("no muggins")."""

    __slots__ = ("player", "points")
    __match_args__ = ("player", "points")

    TYPE: ClassVar[str] = "muggins"
    player: int
    points: int

    def __init__(self, player: int, points: int) -> None:
        setter = object.__setattr__
        setter(self, "player", player)
        setter(self, "points", points)


class Undo(Value):
    """Take back the last entry."""

    __slots__ = ()

    TYPE: ClassVar[str] = "undo"


class NewGame(Value):
    """Start the next game of a match (scores back to 0). ``dealer`` if the table names one."""

    __slots__ = ("dealer",)
    __match_args__ = ("dealer",)

    TYPE: ClassVar[str] = "new_game"
    dealer: int | None

    def __init__(self, dealer: int | None = None) -> None:
        object.__setattr__(self, "dealer", dealer)


class OptionsChanged(Value):
    """A table option changed during the game (teaching, or pegging by points); scores never
    change and unclaimed scores stay waiting. ``None`` leaves an option as it was."""

    __slots__ = ("count_yourself", "open_hands", "points_only", "teaching")
    __match_args__ = ("teaching", "points_only", "count_yourself", "open_hands")

    TYPE: ClassVar[str] = "option"
    teaching: bool | None
    points_only: bool | None
    count_yourself: bool | None
    open_hands: bool | None

    def __init__(
        self,
        teaching: bool | None = None,
        points_only: bool | None = None,
        count_yourself: bool | None = None,
        open_hands: bool | None = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "teaching", teaching)
        setter(self, "points_only", points_only)
        setter(self, "count_yourself", count_yourself)
        setter(self, "open_hands", open_hands)


class Confirm(Value):
    """After the game: ``player`` confirms the result on the board (one press each). Scores
    never change; a scoring entry after it (a claim still allowed) asks for it again."""

    __slots__ = ("player",)
    __match_args__ = ("player",)

    TYPE: ClassVar[str] = "confirm"
    player: int

    def __init__(self, player: int) -> None:
        object.__setattr__(self, "player", player)


class Override(Value):
    """After the game: the club's director confirms the result for the table (a player who
    left, a dispute settled); ``director`` names them and ``note`` says why (the audit line).
    Scores never change."""

    __slots__ = ("director", "note")
    __match_args__ = ("director", "note")

    TYPE: ClassVar[str] = "override"
    director: str
    note: str

    def __init__(self, director: str, note: str) -> None:
        setter = object.__setattr__
        setter(self, "director", director)
        setter(self, "note", note)


class OwnCount(Value):
    """Count it yourself (teaching): the owner of the hand or crib the engine holds says
    the count they make it, ``points``, before the table is shown it. Scores never change:
    the engine has pegged the count already; what was said is kept for the lesson."""

    __slots__ = ("player", "points")
    __match_args__ = ("player", "points")

    TYPE: ClassVar[str] = "own_count"
    player: int
    points: int

    def __init__(self, player: int, points: int) -> None:
        setter = object.__setattr__
        setter(self, "player", player)
        setter(self, "points", points)


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
