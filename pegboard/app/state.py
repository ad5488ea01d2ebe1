"""The app's state: what the table is doing (the engine's session) and which screen is up.

One small immutable value per screen. A screen holds only what that screen needs (a
highlighted row, a number being turned, the cards of a crib entered so far); everything about
the game itself is in the :class:`~pegboard.app.session.Session`, the only source of truth.
Screens reached from another (the menu, rule help, a penalty, the scores) keep the screen
``under`` them, so backing out returns exactly where the player was.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from pegboard.app.effects import Effect
from pegboard.app.inputs import SeatCode
from pegboard.app.session import Session
from pegboard.app.view import Brightness, PageKind, Screen, SideView
from pegboard.config import Config
from pegboard.rules.cards import Card, Rank
from pegboard.rules.events import Event, TableOptions
from pegboard.rules.scoring import ScoreItem
from pegboard.rules.value import Value
from pegboard.rules.variants import Rules

# -- values shared by several screens ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Setup:
    """The new-game options being chosen (remembered between games): the seats, their names,
    the rules (five-card stays chosen while the table has more than two players, for when it
    has two again) and the table options; and the device's own settings (not the game's: they
    are in no record): audio mode, from ``[voice] audio`` at power-on, and large print (how
    the screen draws), from ``[display] large_print``."""

    players: int = 2
    names: tuple[str, ...] = ("P1", "P2", "P3", "P4")
    rules: Rules = field(default_factory=Rules)
    points_only: bool = False
    teaching: bool = False
    count_yourself: bool = False
    open_hands: bool = False
    audio: bool = False
    terse: bool = False
    """The voice's terse style (``[voice] style``; the setup row "Speech", in audio mode)."""
    club_round: int = 1
    guest: int = -1  # a club game's guest seat (-1: none)
    members: tuple[str, ...] = ("", "", "", "")  # a club game's member numbers ("": none)
    large_print: bool = False

    def game_rules(self) -> Rules:
        """The engine rules for this table: five-card only when two play."""
        return replace(self.rules, five_card=self.rules.five_card and self.players == 2)

    def table(self) -> TableOptions:
        """The table options these choices make (kept in the game record)."""
        return TableOptions(teaching=self.teaching, points_only=self.points_only,
                            count_yourself=self.teaching and self.count_yourself,
                            open_hands=self.teaching and self.open_hands)


@dataclass(frozen=True, slots=True)
class Wheel:
    """Where the card wheel's highlight is: ``cursor`` (None = the wheel's own start) and
    which suit fact of that place is chosen (0 = the plain card); ``held``: a hold chose it
    (the plain card a hold went round to is said to be plain)."""

    cursor: int | None = None
    fact: int = 0
    held: bool = False


@dataclass(frozen=True, slots=True)
class Count:
    """A hand or crib counted at the show: its owner, cards, and true score.

    ``claimed`` is what the owner claimed in a muggins game (None when the device pegged it).
    """

    player: int
    crib: bool
    cards: tuple[Card, ...]
    items: tuple[ScoreItem, ...]
    claimed: int | None = None
    entered: frozenset[Card] = frozenset()
    """The cards whose suits a player entered (the engine's ``suits_entered``): only these
    are shown with their suits."""

    @property
    def points(self) -> int:
        """The true score of the cards."""
        return sum(item.points for item in self.items)


@dataclass(frozen=True, slots=True)
class Page:
    """A notice to read before going on: a count at the show, a renege, a ruling, a lesson.

    ``offer`` is an entry OK applies (a penalty the table may take; GO skips it); ``count``
    marks a show count (GO may add a forgotten flush or nobs to it); ``sides`` is the board
    as it stood when this count was pegged, ``before`` as it stood just before (what count it
    yourself shows while the owner counts) and ``scored`` the side whose act pegged it;
    ``award`` a pegging award to keep in view; ``kind`` what kind of page it is and ``named``
    what it is about without its points (a count's "Ben's hand"; empty: the title)."""

    title: str
    lines: tuple[str, ...]
    screen: Screen = Screen.MESSAGE
    kind: PageKind = PageKind.NOTICE
    named: str = ""
    offer: Event | None = None
    count: Count | None = None
    sides: tuple[SideView, ...] | None = None
    award: str = ""
    scored: int | None = None
    before: tuple[SideView, ...] | None = None


# -- one state per screen ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Home:
    """Power-on with no game: New game, Learn to play (teaching on), Shut down."""

    index: int = 0


@dataclass(frozen=True, slots=True)
class SetupScreen:
    """Choosing the new game's options (the values are ``AppState.setup``); on a club
    board, ``editing`` is the seat whose member number is being entered (``number``)."""

    index: int = 0
    editing: int = -1
    number: int = 0


class Dealer(Value):
    """Who deals first: cut for deal, or name the dealer."""

    __slots__ = ("index",)
    __match_args__ = ("index",)

    index: int

    def __init__(self, index: int = 0) -> None:
        object.__setattr__(self, "index", index)


@dataclass(frozen=True, slots=True)
class Cutting:
    """Each seat's cut card, entered in seat order."""

    cards: tuple[Card, ...] = ()
    wheel: Wheel = Wheel()


@dataclass(frozen=True, slots=True)
class WheelScreen:
    """The card wheel of the table: the starter, the play, a hand to show, the crib (which
    one follows from the engine's phase). ``pending`` are a hand's or the crib's cards
    entered so far; ``anchor`` is where the next wheel starts."""

    wheel: Wheel = Wheel()
    pending: tuple[Card, ...] = ()
    anchor: Rank | None = None


class Claiming(Value):
    """Muggins games: the owner of the waiting score turns in the points they claim.

    ``number`` starts where :func:`pegboard.app.flow.claim_start` puts it; ``turned_at`` is
    when the dial last moved (None before it has), so that a fast turn can move it by
    fives; ``typed`` that the number came from digit keys (the next digit adds to it)."""

    __slots__ = ("number", "turned_at", "typed")
    __match_args__ = ("number", "turned_at", "typed")

    number: int
    turned_at: float | None
    typed: bool

    def __init__(
        self,
        number: int = 0,
        turned_at: float | None = None,
        typed: bool = False,
    ) -> None:
        setter = object.__setattr__
        setter(self, "number", number)
        setter(self, "turned_at", turned_at)
        setter(self, "typed", typed)


@dataclass(frozen=True, slots=True)
class OwnCount:
    """Count it yourself (teaching): the owner of the count on ``pages[0]`` turns in what they
    make it before the box shows it; ``pages`` are the notices still to read from there."""

    pages: tuple[Page, ...]
    number: int = 0


@dataclass(frozen=True, slots=True)
class Calling:
    """Muggins games with teaching on: points were missed, and the table says who calls
    muggins on them, or nobody (without teaching an opponent calls from the menu)."""

    index: int = 0


@dataclass(frozen=True, slots=True)
class Reading:
    """Notices to read, first one on screen; ``then`` is where OK on the last one goes (None:
    on to whatever the table does next)."""

    pages: tuple[Page, ...]
    scroll: int = 0
    then: ScreenState | None = None


@dataclass(frozen=True, slots=True)
class QuickPeg:
    """Pegging by points: choose the side (GO) and the points (turn or keys), OK pegs.

    ``under`` is the screen it was opened over from the menu (None: the table pegs by points
    all the time)."""

    number: int = 0
    side: int = 0
    under: ScreenState | None = None


@dataclass(frozen=True, slots=True)
class GameOverScreen:
    """The result of a finished game (GO shows the score race)."""

    race_shown: bool = False
    scroll: int = 0
    """Large print: the result's line in view, the title counted as the first (turning
    scrolls, so every line is read whole)."""


class Saved(Value):
    """The last frame before power-off."""

    __slots__ = ()


class Menu(Value):
    """The menu over the screen ``under`` it."""

    __slots__ = ("index", "under")
    __match_args__ = ("under", "index")

    under: ScreenState
    index: int

    def __init__(self, under: ScreenState, index: int = 0) -> None:
        setter = object.__setattr__
        setter(self, "under", under)
        setter(self, "index", index)


@dataclass(frozen=True, slots=True)
class Confirm:
    """A yes/no question (``what``: "shutdown" or "end") over ``under``."""

    what: str
    under: ScreenState
    index: int = 0


class Scores(Value):
    """The game's (and match's) scores."""

    __slots__ = ("under",)
    __match_args__ = ("under",)

    under: ScreenState

    def __init__(self, under: ScreenState) -> None:
        object.__setattr__(self, "under", under)


@dataclass(frozen=True, slots=True)
class PenaltyScreen:
    """A penalty from the catalogue: which one, who offended, how many points."""

    under: ScreenState
    index: int = 0
    penalty: int | None = None
    offender: int | None = None
    number: int = 0


@dataclass(frozen=True, slots=True)
class HelpScreen:
    """Rule help: the topic list, or a topic's page."""

    under: ScreenState
    index: int = 0
    topic: int | None = None
    page: int = 0


@dataclass(frozen=True, slots=True)
class CardEntry:
    """Cards entered for the table's help: the dealt cards for discard advice ("advice",
    recorded as the player's dealt cards), the cards laid away (teaching), or the cards a
    reneging player still holds ("renege"). ``player`` None: choosing whose."""

    purpose: str
    under: ScreenState
    player: int | None = None
    cards: tuple[Card, ...] = ()
    rank: Rank | None = None
    wheel: Wheel = Wheel()
    index: int = 0


@dataclass(frozen=True, slots=True)
class PairingScreen:
    """Phones (:mod:`pegboard.app.pairing`): each seat's join code and QR code, one seat at a
    time (``index``), over the screen ``under``; ``asking`` while "Release this phone?" is
    up, with ``answer`` its highlighted row (0: No)."""

    seats: tuple[SeatCode, ...]
    under: ScreenState
    index: int = 0
    asking: bool = False
    answer: int = 0


ScreenState = (
    Home | SetupScreen | Dealer | Cutting | WheelScreen | Claiming | OwnCount | Calling | Reading
    | QuickPeg
    | GameOverScreen | Saved | Menu | Confirm | Scores | PenaltyScreen | HelpScreen | CardEntry
    | PairingScreen
)
"""Every screen the app can be on."""


# -- the whole app ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AppState:
    """Everything the app knows. Immutable; ``step`` returns a new one.

    ``award`` is the last pegging award said on the play screen; ``helped`` the teaching
    lessons already given this game; ``offers_shown`` how many of the engine's penalty
    offers have been put to the table. ``fresh`` until the first key after power-on is taken
    (holding GO then turns audio mode on). ``phones``: the seats of the game in progress
    that phones hold (their hands are private: :mod:`pegboard.app.private`). ``score_held``:
    audio mode on the keypad, the last key was ``D`` held, which said the score (held again
    at once, it opens the menu).
    """

    config: Config
    screen: ScreenState = Home()
    setup: Setup = Setup()
    session: Session | None = None
    award: str = ""
    helped: frozenset[str] = frozenset()
    offers_shown: int = 0
    race: tuple[tuple[int, ...], ...] = ()
    brightness: Brightness = Brightness.NORMAL
    last_input: float | None = None
    link: str = ""
    club: str = ""
    fresh: bool = True
    phones: frozenset[int] = frozenset()
    score_held: bool = False

    @property
    def audio(self) -> bool:
        """Audio mode is on: the screen is said as it changes (docs/accessibility.md)."""
        return self.setup.audio

    @property
    def terse(self) -> bool:
        """The voice speaks in its terse style: the same facts in fewer words."""
        return self.setup.terse

    @property
    def speaking(self) -> bool:
        """The voice is heard: ``[voice] enabled``, or audio mode."""
        return self.config.voice.enabled or self.setup.audio

    @property
    def keypad(self) -> bool:
        """True on the keypad kit (rank keys, no encoder)."""
        return self.config.input.kit == "keypad"

    @property
    def table(self) -> TableOptions:
        """The table options in force: the game's header changed by its option entries, or
        the options being set up when there is no game."""
        if self.session is None:
            return self.setup.table()
        return self.session.table

    @property
    def teaching(self) -> bool:
        """Teaching mode is on (never under a club night's tournament lock: the engine
        refuses it, and nothing that teaches reads the option itself)."""
        club = self.session.header.club if self.session is not None else None
        return self.table.teaching and not (club is not None and club.lock)


Result = tuple[AppState, tuple[Effect, ...]]
"""What a step returns: the new state and the effects the loop runs, in order."""
