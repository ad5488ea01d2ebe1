"""The app's state: what the table is doing (the engine's session) and which screen is up.

One small immutable value per screen. A screen holds only what that screen needs (a
highlighted row, a number being turned, the cards of a crib entered so far); everything about
the game itself is in the :class:`~pegboard.app.session.Session`, the only source of truth.
Screens reached from another (the menu, rule help, a penalty, the scores) keep the screen
``under`` them, so backing out returns exactly where the player was.
"""

from __future__ import annotations

from pegboard.app.effects import Effect
from pegboard.app.inputs import SeatCode
from pegboard.app.session import Session
from pegboard.app.view import Brightness, PageKind, Screen, SideView
from pegboard.config import Config
from pegboard.rules.cards import Card, Rank
from pegboard.rules.events import Event, TableOptions
from pegboard.rules.scoring import ScoreItem
from pegboard.rules.value import Value, replace
from pegboard.rules.variants import DEFAULT_RULES, Rules

# -- values shared by several screens ---------------------------------------------------------


class Setup(Value):
    """The new-game options being chosen (remembered between games): the seats, their names,
    the rules (five-card stays chosen while the table has more than two players, for when it
    has two again) and the table options; and the device's own settings (not the game's: they
    are in no record): audio mode, from ``[voice] audio`` at power-on, and large print (how
    the screen draws), from ``[display] large_print``."""

    __slots__ = (
        "audio",
        "club_round",
        "count_yourself",
        "guest",
        "large_print",
        "members",
        "names",
        "open_hands",
        "players",
        "points_only",
        "rules",
        "teaching",
        "terse",
    )
    __match_args__ = ("players", "names", "rules", "points_only", "teaching", "count_yourself",
                      "open_hands", "audio", "terse", "club_round", "guest", "members",
                      "large_print")

    players: int
    names: tuple[str, ...]
    rules: Rules
    points_only: bool
    teaching: bool
    count_yourself: bool
    open_hands: bool
    audio: bool
    terse: bool
    """The voice's terse style (``[voice] style``; the setup row "Speech", in audio mode)."""
    club_round: int
    guest: int
    members: tuple[str, ...]
    large_print: bool

    def __init__(
        self,
        players: int = 2,
        names: tuple[str, ...] = ("P1", "P2", "P3", "P4"),
        rules: Rules = DEFAULT_RULES,
        points_only: bool = False,
        teaching: bool = False,
        count_yourself: bool = False,
        open_hands: bool = False,
        audio: bool = False,
        terse: bool = False,
        club_round: int = 1,
        guest: int = -1,
        members: tuple[str, ...] = ("", "", "", ""),
        large_print: bool = False,
    ) -> None:
        setter = object.__setattr__
        setter(self, "players", players)
        setter(self, "names", names)
        setter(self, "rules", rules)
        setter(self, "points_only", points_only)
        setter(self, "teaching", teaching)
        setter(self, "count_yourself", count_yourself)
        setter(self, "open_hands", open_hands)
        setter(self, "audio", audio)
        setter(self, "terse", terse)
        setter(self, "club_round", club_round)
        setter(self, "guest", guest)
        setter(self, "members", members)
        setter(self, "large_print", large_print)

    def game_rules(self) -> Rules:
        """The engine rules for this table: five-card only when two play."""
        return replace(self.rules, five_card=self.rules.five_card and self.players == 2)

    def table(self) -> TableOptions:
        """The table options these choices make (kept in the game record)."""
        return TableOptions(teaching=self.teaching, points_only=self.points_only,
                            count_yourself=self.teaching and self.count_yourself,
                            open_hands=self.teaching and self.open_hands)


DEFAULT_SETUP = Setup()
"""The new-game options before any is chosen."""


class Wheel(Value):
    """Where the card wheel's highlight is: ``cursor`` (None = the wheel's own start) and
    which suit fact of that place is chosen (0 = the plain card); ``held``: a hold chose it
    (the plain card a hold went round to is said to be plain)."""

    __slots__ = ("cursor", "fact", "held")
    __match_args__ = ("cursor", "fact", "held")

    cursor: int | None
    fact: int
    held: bool

    def __init__(self, cursor: int | None = None, fact: int = 0, held: bool = False) -> None:
        setter = object.__setattr__
        setter(self, "cursor", cursor)
        setter(self, "fact", fact)
        setter(self, "held", held)


WHEEL_START = Wheel()
"""A wheel at its own start, no suit fact chosen."""


class Count(Value):
    """A hand or crib counted at the show: its owner, cards, and true score.

    ``claimed`` is what the owner claimed in a muggins game (None when the device pegged it).
    """

    __slots__ = ("cards", "claimed", "crib", "entered", "items", "player")
    __match_args__ = ("player", "crib", "cards", "items", "claimed", "entered")

    player: int
    crib: bool
    cards: tuple[Card, ...]
    items: tuple[ScoreItem, ...]
    claimed: int | None
    entered: frozenset[Card]
    """The cards whose suits a player entered (the engine's ``suits_entered``): only these
    are shown with their suits."""

    def __init__(
        self,
        player: int,
        crib: bool,
        cards: tuple[Card, ...],
        items: tuple[ScoreItem, ...],
        claimed: int | None = None,
        entered: frozenset[Card] = frozenset(),
    ) -> None:
        setter = object.__setattr__
        setter(self, "player", player)
        setter(self, "crib", crib)
        setter(self, "cards", cards)
        setter(self, "items", items)
        setter(self, "claimed", claimed)
        setter(self, "entered", entered)

    @property
    def points(self) -> int:
        """The true score of the cards."""
        return sum(item.points for item in self.items)


class Page(Value):
    """A notice to read before going on: a count at the show, a renege, a ruling, a lesson.

    ``offer`` is an entry OK applies (a penalty the table may take; GO skips it); ``count``
    marks a show count (GO may add a forgotten flush or nobs to it); ``sides`` is the board
    as it stood when this count was pegged, ``before`` as it stood just before (what count it
    yourself shows while the owner counts) and ``scored`` the side whose act pegged it;
    ``award`` a pegging award to keep in view; ``kind`` what kind of page it is and ``named``
    what it is about without its points (a count's "Ben's hand"; empty: the title)."""

    __slots__ = (
        "award",
        "before",
        "count",
        "kind",
        "lines",
        "named",
        "offer",
        "scored",
        "screen",
        "sides",
        "title",
    )
    __match_args__ = ("title", "lines", "screen", "kind", "named", "offer", "count", "sides",
                      "award", "scored", "before")

    title: str
    lines: tuple[str, ...]
    screen: Screen
    kind: PageKind
    named: str
    offer: Event | None
    count: Count | None
    sides: tuple[SideView, ...] | None
    award: str
    scored: int | None
    before: tuple[SideView, ...] | None

    def __init__(
        self,
        title: str,
        lines: tuple[str, ...],
        screen: Screen = Screen.MESSAGE,
        kind: PageKind = PageKind.NOTICE,
        named: str = "",
        offer: Event | None = None,
        count: Count | None = None,
        sides: tuple[SideView, ...] | None = None,
        award: str = "",
        scored: int | None = None,
        before: tuple[SideView, ...] | None = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "title", title)
        setter(self, "lines", lines)
        setter(self, "screen", screen)
        setter(self, "kind", kind)
        setter(self, "named", named)
        setter(self, "offer", offer)
        setter(self, "count", count)
        setter(self, "sides", sides)
        setter(self, "award", award)
        setter(self, "scored", scored)
        setter(self, "before", before)


# -- one state per screen ---------------------------------------------------------------------


class Home(Value):
    """Power-on with no game: New game, Learn to play (teaching on), Shut down."""

    __slots__ = ("index",)
    __match_args__ = ("index",)

    index: int

    def __init__(self, index: int = 0) -> None:
        object.__setattr__(self, "index", index)


POWER_ON = Home()
"""The home screen as the box powers on."""


class SetupScreen(Value):
    """Choosing the new game's options (the values are ``AppState.setup``); on a club
    board, ``editing`` is the seat whose member number is being entered (``number``)."""

    __slots__ = ("editing", "index", "number")
    __match_args__ = ("index", "editing", "number")

    index: int
    editing: int
    number: int

    def __init__(self, index: int = 0, editing: int = -1, number: int = 0) -> None:
        setter = object.__setattr__
        setter(self, "index", index)
        setter(self, "editing", editing)
        setter(self, "number", number)


class Dealer(Value):
    """Who deals first: cut for deal, or name the dealer."""

    __slots__ = ("index",)
    __match_args__ = ("index",)

    index: int

    def __init__(self, index: int = 0) -> None:
        object.__setattr__(self, "index", index)


class Cutting(Value):
    """Each seat's cut card, entered in seat order."""

    __slots__ = ("cards", "wheel")
    __match_args__ = ("cards", "wheel")

    cards: tuple[Card, ...]
    wheel: Wheel

    def __init__(self, cards: tuple[Card, ...] = (), wheel: Wheel = WHEEL_START) -> None:
        setter = object.__setattr__
        setter(self, "cards", cards)
        setter(self, "wheel", wheel)


class WheelScreen(Value):
    """The card wheel of the table: the starter, the play, a hand to show, the crib (which
    one follows from the engine's phase). ``pending`` are a hand's or the crib's cards
    entered so far; ``anchor`` is where the next wheel starts."""

    __slots__ = ("anchor", "pending", "wheel")
    __match_args__ = ("wheel", "pending", "anchor")

    wheel: Wheel
    pending: tuple[Card, ...]
    anchor: Rank | None

    def __init__(
        self,
        wheel: Wheel = WHEEL_START,
        pending: tuple[Card, ...] = (),
        anchor: Rank | None = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "wheel", wheel)
        setter(self, "pending", pending)
        setter(self, "anchor", anchor)


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


class OwnCount(Value):
    """Count it yourself (teaching): the owner of the count on ``pages[0]`` turns in what they
    make it before the box shows it; ``pages`` are the notices still to read from there."""

    __slots__ = ("number", "pages")
    __match_args__ = ("pages", "number")

    pages: tuple[Page, ...]
    number: int

    def __init__(self, pages: tuple[Page, ...], number: int = 0) -> None:
        setter = object.__setattr__
        setter(self, "pages", pages)
        setter(self, "number", number)


class Calling(Value):
    """Muggins games with teaching on: points were missed, and the table says who calls
    muggins on them, or nobody (without teaching an opponent calls from the menu)."""

    __slots__ = ("index",)
    __match_args__ = ("index",)

    index: int

    def __init__(self, index: int = 0) -> None:
        object.__setattr__(self, "index", index)


class Reading(Value):
    """Notices to read, first one on screen; ``then`` is where OK on the last one goes (None:
    on to whatever the table does next)."""

    __slots__ = ("pages", "scroll", "then")
    __match_args__ = ("pages", "scroll", "then")

    pages: tuple[Page, ...]
    scroll: int
    then: ScreenState | None

    def __init__(
        self,
        pages: tuple[Page, ...],
        scroll: int = 0,
        then: ScreenState | None = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "pages", pages)
        setter(self, "scroll", scroll)
        setter(self, "then", then)


class QuickPeg(Value):
    """Pegging by points: choose the side (GO) and the points (turn or keys), OK pegs.

    ``under`` is the screen it was opened over from the menu (None: the table pegs by points
    all the time)."""

    __slots__ = ("number", "side", "under")
    __match_args__ = ("number", "side", "under")

    number: int
    side: int
    under: ScreenState | None

    def __init__(self, number: int = 0, side: int = 0, under: ScreenState | None = None) -> None:
        setter = object.__setattr__
        setter(self, "number", number)
        setter(self, "side", side)
        setter(self, "under", under)


class GameOverScreen(Value):
    """The result of a finished game (GO shows the score race)."""

    __slots__ = ("race_shown", "scroll")
    __match_args__ = ("race_shown", "scroll")

    race_shown: bool
    scroll: int
    """Large print: the result's line in view, the title counted as the first (turning
    scrolls, so every line is read whole)."""

    def __init__(self, race_shown: bool = False, scroll: int = 0) -> None:
        setter = object.__setattr__
        setter(self, "race_shown", race_shown)
        setter(self, "scroll", scroll)


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


class Confirm(Value):
    """A yes/no question (``what``: "shutdown" or "end") over ``under``."""

    __slots__ = ("index", "under", "what")
    __match_args__ = ("what", "under", "index")

    what: str
    under: ScreenState
    index: int

    def __init__(self, what: str, under: ScreenState, index: int = 0) -> None:
        setter = object.__setattr__
        setter(self, "what", what)
        setter(self, "under", under)
        setter(self, "index", index)


class Scores(Value):
    """The game's (and match's) scores."""

    __slots__ = ("under",)
    __match_args__ = ("under",)

    under: ScreenState

    def __init__(self, under: ScreenState) -> None:
        object.__setattr__(self, "under", under)


class PenaltyScreen(Value):
    """A penalty from the catalogue: which one, who offended, how many points."""

    __slots__ = ("index", "number", "offender", "penalty", "under")
    __match_args__ = ("under", "index", "penalty", "offender", "number")

    under: ScreenState
    index: int
    penalty: int | None
    offender: int | None
    number: int

    def __init__(
        self,
        under: ScreenState,
        index: int = 0,
        penalty: int | None = None,
        offender: int | None = None,
        number: int = 0,
    ) -> None:
        setter = object.__setattr__
        setter(self, "under", under)
        setter(self, "index", index)
        setter(self, "penalty", penalty)
        setter(self, "offender", offender)
        setter(self, "number", number)


class HelpScreen(Value):
    """Rule help: the topic list, or a topic's page."""

    __slots__ = ("index", "page", "topic", "under")
    __match_args__ = ("under", "index", "topic", "page")

    under: ScreenState
    index: int
    topic: int | None
    page: int

    def __init__(
        self,
        under: ScreenState,
        index: int = 0,
        topic: int | None = None,
        page: int = 0,
    ) -> None:
        setter = object.__setattr__
        setter(self, "under", under)
        setter(self, "index", index)
        setter(self, "topic", topic)
        setter(self, "page", page)


class CardEntry(Value):
    """Cards entered for the table's help: the dealt cards for discard advice ("advice",
    recorded as the player's dealt cards), the cards laid away (teaching), or the cards a
    reneging player still holds ("renege"). ``player`` None: choosing whose."""

    __slots__ = ("cards", "index", "player", "purpose", "rank", "under", "wheel")
    __match_args__ = ("purpose", "under", "player", "cards", "rank", "wheel", "index")

    purpose: str
    under: ScreenState
    player: int | None
    cards: tuple[Card, ...]
    rank: Rank | None
    wheel: Wheel
    index: int

    def __init__(
        self,
        purpose: str,
        under: ScreenState,
        player: int | None = None,
        cards: tuple[Card, ...] = (),
        rank: Rank | None = None,
        wheel: Wheel = WHEEL_START,
        index: int = 0,
    ) -> None:
        setter = object.__setattr__
        setter(self, "purpose", purpose)
        setter(self, "under", under)
        setter(self, "player", player)
        setter(self, "cards", cards)
        setter(self, "rank", rank)
        setter(self, "wheel", wheel)
        setter(self, "index", index)


class PairingScreen(Value):
    """Phones (:mod:`pegboard.app.pairing`): each seat's join code and QR code, one seat at a
    time (``index``), over the screen ``under``; ``asking`` while "Release this phone?" is
    up, with ``answer`` its highlighted row (0: No)."""

    __slots__ = ("answer", "asking", "index", "seats", "under")
    __match_args__ = ("seats", "under", "index", "asking", "answer")

    seats: tuple[SeatCode, ...]
    under: ScreenState
    index: int
    asking: bool
    answer: int

    def __init__(
        self,
        seats: tuple[SeatCode, ...],
        under: ScreenState,
        index: int = 0,
        asking: bool = False,
        answer: int = 0,
    ) -> None:
        setter = object.__setattr__
        setter(self, "seats", seats)
        setter(self, "under", under)
        setter(self, "index", index)
        setter(self, "asking", asking)
        setter(self, "answer", answer)


class FallBack(Value):
    """"On the box instead?" (:mod:`pegboard.app.pairing`), asked by OK while the starter
    waits for phones' hands: ``seats`` are the seats it waits for on phones, from the
    dealer's left, each a row after "No" (``index``: the row highlighted), over ``under``."""

    __slots__ = ("index", "seats", "under")
    __match_args__ = ("seats", "under", "index")

    seats: tuple[int, ...]
    under: ScreenState
    index: int

    def __init__(self, seats: tuple[int, ...], under: ScreenState, index: int = 0) -> None:
        setter = object.__setattr__
        setter(self, "seats", seats)
        setter(self, "under", under)
        setter(self, "index", index)


ScreenState = (
    Home | SetupScreen | Dealer | Cutting | WheelScreen | Claiming | OwnCount | Calling | Reading
    | QuickPeg
    | GameOverScreen | Saved | Menu | Confirm | Scores | PenaltyScreen | HelpScreen | CardEntry
    | PairingScreen | FallBack
)
"""Every screen the app can be on."""


# -- the whole app ----------------------------------------------------------------------------


class AppState(Value):
    """Everything the app knows. Immutable; ``step`` returns a new one.

    ``award`` is the last pegging award said on the play screen; ``helped`` the teaching
    lessons already given this game; ``offers_shown`` how many of the engine's penalty
    offers have been put to the table. ``fresh`` until the first key after power-on is taken
    (holding GO then turns audio mode on). ``phones``: the seats of the game in progress
    that phones hold (their hands are private: :mod:`pegboard.app.private`). ``score_held``:
    audio mode on the keypad, the last key was ``D`` held, which said the score (held again
    at once, it opens the menu). ``entered``: the card a held rank key entered at once with
    the one suit fact it could mean, in words ("J, with nobs"), shown until the next entry.
    ``helped_unread``: a game resumed from its record, whose lessons given (``helped``) are
    read off the record when the next entry is made (not at start: the lessons' modules are
    loaded only when teaching needs them), never remembered across a restart.
    ``phone_made``: with ``helped_unread``, which of the resumed game's entries in force (by
    their place, the first 0) a phone made: their lessons were that phone's, not the box's.
    ``let_go``: the seat last taken on the box from its phone ("On the box instead?"), whose
    phone has not joined again: the Phones screen opens on it (None: none).
    """

    __slots__ = (
        "award",
        "brightness",
        "club",
        "config",
        "entered",
        "fresh",
        "helped",
        "helped_unread",
        "last_input",
        "let_go",
        "link",
        "offers_shown",
        "phone_made",
        "phones",
        "score_held",
        "screen",
        "session",
        "setup",
    )
    __match_args__ = ("config", "screen", "setup", "session", "award", "helped", "offers_shown",
                      "brightness", "last_input", "link", "club", "fresh", "phones",
                      "score_held", "entered", "helped_unread", "phone_made", "let_go")

    config: Config
    screen: ScreenState
    setup: Setup
    session: Session | None
    award: str
    helped: frozenset[str]
    offers_shown: int
    brightness: Brightness
    last_input: float | None
    link: str
    club: str
    fresh: bool
    phones: frozenset[int]
    score_held: bool
    entered: str
    helped_unread: bool
    phone_made: frozenset[int]
    let_go: int | None

    def __init__(
        self,
        config: Config,
        screen: ScreenState = POWER_ON,
        setup: Setup = DEFAULT_SETUP,
        session: Session | None = None,
        award: str = "",
        helped: frozenset[str] = frozenset(),
        offers_shown: int = 0,
        brightness: Brightness = Brightness.NORMAL,
        last_input: float | None = None,
        link: str = "",
        club: str = "",
        fresh: bool = True,
        phones: frozenset[int] = frozenset(),
        score_held: bool = False,
        entered: str = "",
        helped_unread: bool = False,
        phone_made: frozenset[int] = frozenset(),
        let_go: int | None = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "config", config)
        setter(self, "screen", screen)
        setter(self, "setup", setup)
        setter(self, "session", session)
        setter(self, "award", award)
        setter(self, "helped", helped)
        setter(self, "offers_shown", offers_shown)
        setter(self, "brightness", brightness)
        setter(self, "last_input", last_input)
        setter(self, "link", link)
        setter(self, "club", club)
        setter(self, "fresh", fresh)
        setter(self, "phones", phones)
        setter(self, "score_held", score_held)
        setter(self, "entered", entered)
        setter(self, "helped_unread", helped_unread)
        setter(self, "phone_made", phone_made)
        setter(self, "let_go", let_go)

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
