"""The View: everything the 128x64 screen shows, as one immutable value.

The app computes a :class:`View` from its state after every step; the renderer draws it without
knowing any rules or game logic, and the loop redraws only when the new view differs from the
last one (views compare by value).

One screen kind per :class:`Screen`. The fields a renderer uses for each kind:

* every screen: ``screen``, ``title``, ``brightness`` (``BLANK`` means draw nothing), ``link``
  (a short LED-board status such as ``"LEDs off"``; empty when there is nothing to say);
* list screens (``HOME``, ``MENU``, ``SETUP``, ``DEALER``, ``PENALTIES``, ``CONFIRM``, ``PEG``):
  ``lines`` are the options and ``selected`` the highlighted one;
* text screens (``SHOW``, ``MESSAGE``, ``HELP``, ``GAME_OVER``, ``MATCH``, ``SCORES``,
  ``SAVED``): ``lines`` are text, ``selected`` is ``None``; ``first_line`` is the first line
  in view when the text is longer than the screen (the user scrolls by turning);
* table screens (``CUT``, ``STARTER``, ``PLAY``, ``CRIB``, ``HAND``, ``SHOW``, ``SCORES``,
  ``GAME_OVER``): ``sides`` (name, score, back peg, dealer mark, turn mark, winner),
  ``target`` and ``skunk_line`` for the pegboard bar;
* card entry screens (``CUT``, ``STARTER``, ``PLAY``, ``CRIB``, ``HAND``): ``picker`` is the
  card picker (prompt, the options in wheel order and the highlighted one);
* ``PLAY`` also: ``count``, ``pile`` (cards in the current count, oldest first), ``turn`` (who
  plays next) and ``award`` (the last score made, e.g. ``"Fifteen for 2"``).

* ``RACE`` also: ``race``, each side's score after every deal of the game just ended (the
  first row all zeros, the last the final score), for the small score-race picture
  (:func:`pegboard.ui.race.race_image` draws it from a ``Race`` of these rows); the result
  (``GAME_OVER``, ``MATCH``) does not carry it: it is folded only when it is shown.

``hint`` is a one-line key legend for the bottom of the screen ("OK play  GO go").

``large_print`` asks for the large-print layouts (:mod:`pegboard.ui.large`): the same view,
drawn for a player with low vision.

``page``: on a page to read (a count, a notice, a lesson), what kind of page it is
(:class:`PageKind`), so that an output that treats some pages apart (the voice says a coach
page as it comes and only its title as it is reached) knows them without reading titles;
``named``, what a count's page is about without its points ("Ben's hand"), for a listener
whom the engine's facts have told the points (empty: the title says it).

``PAIR`` (phones, docs/pairing.md): ``title`` names the seat, ``code`` is its join code and
``qr`` the text of the QR code to draw (its join address); ``lines`` say the same in words.

``locked``: the game on the board is under a club night's tournament lock, as its record's
header says (docs/club.md); the table screens show a lock mark, so everyone at the table (and
the director walking past) sees that no help is given.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING

from pegboard import lazy
from pegboard.rules.value import Value

if TYPE_CHECKING:
    from pegboard.app import suit_facts
else:
    suit_facts = lazy.module("pegboard.app.suit_facts")


class Screen(enum.Enum):
    """Which screen layout to draw."""

    HOME = "home"  # start menu: new game, resume, settings, help
    MENU = "menu"  # in-game menu (undo, penalties, scores, help, end game, shut down)
    SETUP = "setup"  # new-game options: "Players: 2", ... with "Start" last
    CUT = "cut"  # cut for deal: pick each seat's cut card
    DEALER = "dealer"  # choose the first dealer by name
    STARTER = "starter"  # pick the starter card
    PLAY = "play"  # the play: count, pile, turn, last award, picker
    SHOW = "show"  # one hand's (or the crib's) spoken breakdown
    CRIB = "crib"  # pick the crib's cards
    HAND = "hand"  # pick a hand's cards when the play was not recorded
    PEG = "peg"  # quick mode: choose a side and points to peg
    CLAIM = "claim"  # muggins games: the owner turns in the points claimed
    SCORES = "scores"  # score summary of the game (and match)
    PENALTIES = "penalties"  # the penalty catalogue, or one penalty's detail
    CONFIRM = "confirm"  # a yes/no question ("End this game?")
    MESSAGE = "message"  # a notice (renege found, rule ruling, error)
    HELP = "help"  # a rule help page
    GAME_OVER = "game_over"  # winner, skunk, game points
    MATCH = "match"  # match summary: games won, game points
    RACE = "race"  # the score race of the game just ended, as a small chart
    SAVED = "saved"  # the frame left on screen at shutdown ("Game saved")
    PAIR = "pair"  # a seat's join code and the QR code of its join address


class PageKind(enum.Enum):
    """What a page to read is, for the outputs that treat kinds of page apart."""

    NOTICE = "notice"
    """A notice, a ruling, a penalty offered, rule help: read as it is."""
    REFUSED = "refused"
    """An entry the rules refuse, with the engine's reason (audio mode sounds the refusal)."""
    COUNT = "count"
    """A hand or the crib counted (its points are the engine's facts, said as they come)."""
    END_OF_PLAY = "end of the play"
    """The point that ended the play, with the board after it."""
    TAKE_BACK = "take-back"
    """What a renege's penalty took back."""
    COACH = "coach"
    """Teaching: the first-game coach, or the pegging coach's note or line."""
    SHOW_ORDER = "show order"
    """Teaching: the coach's page on the show order, said before the counts it explains."""
    NO_SCORE = "no score"
    """Teaching: why the card just laid scored nothing (a near miss)."""
    CLUB = "club"
    """The club's broker refused one of the board's results (the publisher's reason)."""
    CUT = "cut"
    """The cut for deal: each seat's card and who deals, the low card (audio mode says it as
    the new deal's own announcement, once)."""
    MUGGINS = "muggins"
    """A muggins call that took points: who took them, who missed them and on what (the
    engine's fact of the call, said as it comes)."""


class Brightness(enum.Enum):
    """Screen brightness: ``DIM`` after a few idle minutes, ``BLANK`` later (burn-in)."""

    NORMAL = "normal"
    DIM = "dim"
    BLANK = "blank"


class SideView(Value):
    """One side of the board (a player, or a partnership named "Ann & Cy").

    ``back`` is the back peg (the score before the last award). ``dealer`` marks the side
    that deals and owns the crib this deal; ``to_act`` the side whose turn it is; ``winner``
    the side that won.
    """

    __slots__ = ("back", "dealer", "name", "score", "to_act", "winner")
    __match_args__ = ("name", "score", "back", "dealer", "to_act", "winner")

    name: str
    score: int
    back: int
    dealer: bool
    to_act: bool
    winner: bool

    def __init__(
        self,
        name: str,
        score: int,
        back: int = 0,
        dealer: bool = False,
        to_act: bool = False,
        winner: bool = False,
    ) -> None:
        setter = object.__setattr__
        setter(self, "name", name)
        setter(self, "score", score)
        setter(self, "back", back)
        setter(self, "dealer", dealer)
        setter(self, "to_act", to_act)
        setter(self, "winner", winner)


class PickerView(Value):
    """The card picker: a wheel of ``options`` with ``index`` highlighted.

    Options are short labels in wheel order (turning clockwise moves to the next one and
    wraps round): ranks such as ``"7"`` or ``"10"``, or a full card (``"7♥"``) when a real
    suit is asked. ``prompt`` says whose card it is ("Ben plays", "Crib card 2 of 4",
    "Starter"). ``facts`` are the suit facts a hold set on the highlighted card (``(NOBS,)``
    for "J, with nobs"; ``(PLAIN,)`` once a hold went round to the card without any; empty
    when no hold chose): typed, so the OLED, the text panel and the voice each word them
    (:func:`~pegboard.app.suit_facts.suit_words`) and none reads a label. ``empty`` is what
    a wheel offering no card says instead, in its parts ("No card fits", "GO says go"): the
    screen puts each on a line of its own, the text panel and the voice say them together
    (:attr:`empty_words`).
    ``spoken`` is the prompt whole, in words, where the screen's line shortens it (the
    starter's suit question with the keypad's keys: "Starter ace: suit for nobs? 1 clubs, 2
    diamonds, 3 hearts, 4 spades"; empty: the prompt as shown). ``keys`` is the keypad's key
    for each option where a key answers the question at once (the starter's suit: "1" to
    "4"): the screen shows them in place of the wheel ("press 1♣ 2♦ 3♥ 4♠"); empty: a wheel.
    """

    __slots__ = ("empty", "facts", "index", "keys", "options", "prompt", "spoken")
    __match_args__ = ("prompt", "options", "index", "facts", "empty", "spoken", "keys")

    prompt: str
    options: tuple[str, ...]
    index: int
    facts: tuple[suit_facts.SuitFact, ...]
    empty: tuple[str, ...]
    spoken: str
    keys: tuple[str, ...]

    def __init__(
        self,
        prompt: str,
        options: tuple[str, ...],
        index: int,
        facts: tuple[suit_facts.SuitFact, ...] = (),
        empty: tuple[str, ...] = (),
        spoken: str = "",
        keys: tuple[str, ...] = (),
    ) -> None:
        setter = object.__setattr__
        setter(self, "prompt", prompt)
        setter(self, "options", options)
        setter(self, "index", index)
        setter(self, "facts", facts)
        setter(self, "empty", empty)
        setter(self, "spoken", spoken)
        setter(self, "keys", keys)

    @property
    def candidate(self) -> str:
        """The highlighted option's card (what OK would enter, its suit facts aside)."""
        return self.options[self.index] if self.options else ""

    @property
    def fact_words(self) -> str:
        """The highlighted card's suit facts in words ("with nobs"; empty: none set)."""
        return suit_facts.suit_words(self.facts)

    @property
    def key_legend(self) -> str:
        """The keys shown in place of the wheel, each with its option's suit ("press 1♣ 2♦
        3♥ 4♠"; empty: a wheel)."""
        if not self.keys:
            return ""
        return "press " + " ".join(f"{key}{option[-1]}"
                                   for key, option in zip(self.keys, self.options, strict=True))

    @property
    def entering(self) -> str:
        """What OK would enter, in words: the card and its suit facts ("J, with nobs"); on a
        wheel offering no card, what it says instead (:attr:`empty_words`)."""
        if not self.options:
            return self.empty_words
        return suit_facts.entered_words(self.candidate, self.facts)

    @property
    def empty_words(self) -> str:
        """A wheel offering no card, in one line: "No card fits, GO says go" (empty on a
        wheel with cards)."""
        return ", ".join(self.empty) if not self.options else ""


class View(Value):
    """What the screen shows. See the module docstring for which fields each screen uses."""

    __slots__ = (
        "award",
        "brightness",
        "coach",
        "code",
        "count",
        "entered",
        "first_line",
        "hint",
        "large_print",
        "lines",
        "link",
        "locked",
        "named",
        "page",
        "picker",
        "pile",
        "qr",
        "race",
        "screen",
        "selected",
        "sides",
        "suits",
        "target",
        "title",
        "turn",
    )
    __match_args__ = ("screen", "title", "lines", "selected", "first_line", "sides", "target",
                      "count", "pile", "turn", "award", "picker", "hint", "suits", "coach", "race",
                      "link", "page", "named", "brightness", "large_print", "locked", "qr", "code",
                      "entered")

    screen: Screen
    title: str
    lines: tuple[str, ...]
    selected: int | None
    first_line: int
    sides: tuple[SideView, ...]
    target: int
    count: int | None
    pile: tuple[str, ...]
    turn: str
    award: str
    picker: PickerView | None
    hint: str
    suits: tuple[str, ...]
    """The suit facts of the count or claim on screen, in words, where GO or a hold set them
    ("suits: plain", "GO: flush of 4"): part of ``lines`` too, and said in audio mode."""
    coach: str
    race: tuple[tuple[int, ...], ...]
    link: str
    page: PageKind | None
    named: str
    brightness: Brightness
    large_print: bool
    locked: bool
    qr: str
    """``PAIR``: the text of the QR code to draw (a seat's join address; empty: none)."""
    code: str
    """``PAIR``: the join code, drawn large beside the QR code."""
    entered: str
    """The card a held rank key entered at once with the one suit fact it could mean, in the
    words the voice says it (``"J, with nobs"``,
    :func:`~pegboard.app.suit_facts.entered_words`), until the next entry; empty: none."""

    def __init__(
        self,
        screen: Screen,
        title: str = "",
        lines: tuple[str, ...] = (),
        selected: int | None = None,
        first_line: int = 0,
        sides: tuple[SideView, ...] = (),
        target: int = 121,
        count: int | None = None,
        pile: tuple[str, ...] = (),
        turn: str = "",
        award: str = "",
        picker: PickerView | None = None,
        hint: str = "",
        suits: tuple[str, ...] = (),
        coach: str = "",
        race: tuple[tuple[int, ...], ...] = (),
        link: str = "",
        page: PageKind | None = None,
        named: str = "",
        brightness: Brightness = Brightness.NORMAL,
        large_print: bool = False,
        locked: bool = False,
        qr: str = "",
        code: str = "",
        entered: str = "",
    ) -> None:
        setter = object.__setattr__
        setter(self, "screen", screen)
        setter(self, "title", title)
        setter(self, "lines", lines)
        setter(self, "selected", selected)
        setter(self, "first_line", first_line)
        setter(self, "sides", sides)
        setter(self, "target", target)
        setter(self, "count", count)
        setter(self, "pile", pile)
        setter(self, "turn", turn)
        setter(self, "award", award)
        setter(self, "picker", picker)
        setter(self, "hint", hint)
        setter(self, "suits", suits)
        setter(self, "coach", coach)
        setter(self, "race", race)
        setter(self, "link", link)
        setter(self, "page", page)
        setter(self, "named", named)
        setter(self, "brightness", brightness)
        setter(self, "large_print", large_print)
        setter(self, "locked", locked)
        setter(self, "qr", qr)
        setter(self, "code", code)
        setter(self, "entered", entered)

    @property
    def skunk_line(self) -> int:
        """The highest losing score that is a skunk: 90 in a 121 game, 30 in a 61 game."""
        return 90 if self.target == 121 else 30
