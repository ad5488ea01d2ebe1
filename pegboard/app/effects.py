"""Effects: what the loop must do in the world after a step.

``step`` never touches the world; it returns effects in the order the loop must run them.
Durability comes first: the loop runs every ``Persist*`` effect (durably: fsync or SQLite
``synchronous=FULL``) before it draws the new frame or updates the LEDs, so nothing a player
saw acknowledged can be lost. If persisting fails the loop must not show the new frame.

Entries leave the app as the engine's values (a header, an event, the state a game ended
in); the store makes their record lines, in the one place the record's text is made
(:mod:`pegboard.record.writer`, written by :mod:`pegboard.store`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pegboard import lazy
from pegboard.app.view import Brightness
from pegboard.rules.events import Event, GameHeader
from pegboard.rules.facts import Report
from pegboard.rules.state import GameState
from pegboard.rules.value import Value, replace

# A field's type behind a seam is named through it, so its annotation still resolves at run
# time (typing.get_type_hints) without loading the module with this one.
if TYPE_CHECKING:
    from pegboard.app import sounds, suit_facts
else:
    sounds = lazy.module("pegboard.app.sounds")
    suit_facts = lazy.module("pegboard.app.suit_facts")


class PersistNewGame(Value):
    """Start a new game in the store with this header (its record's first line).

    The previous unfinished game, if any, was either finished or abandoned by the player;
    the store keeps it in its history."""

    __slots__ = ("header",)
    __match_args__ = ("header",)

    header: GameHeader

    def __init__(self, header: GameHeader) -> None:
        object.__setattr__(self, "header", header)


class Persist(Value):
    """Append one accepted entry to the current game's record; ``report`` is the engine's
    report of it, added for the loop's observers once the entry is saved (it is not part of
    what the effect is: two effects that save the same entry are equal). ``seat``: the seat
    whose phone made the entry (None: the box), kept beside the record so that a resumed
    game counts as given on the box only the lessons the box gave."""

    __slots__ = ("entry", "report", "seat")
    __match_args__ = ("entry", "report", "seat")
    _compared = ("entry",)

    entry: Event
    report: Report | None
    seat: int | None

    def __init__(self, entry: Event, report: Report | None = None,
                 seat: int | None = None) -> None:
        setter = object.__setattr__
        setter(self, "entry", entry)
        setter(self, "report", report)
        setter(self, "seat", seat)


class PersistUndo(Value):
    """Take back the last entry of the current game (the engine took it back); ``report``
    is the engine's report of that entry, withdrawn for the loop's observers once the undo
    is saved (it is not part of what the effect is: every undo saved is equal)."""

    __slots__ = ("report",)
    __match_args__ = ("report",)
    _compared = ()

    report: Report | None

    def __init__(self, report: Report | None = None) -> None:
        object.__setattr__(self, "report", report)


class FinishGame(Value):
    """The current game is over (a side reached the target, or the players ended it):
    the store moves it to the history with the result of ``state``, the engine's table as
    the game ended (:func:`pegboard.record.writer.result_json` words it)."""

    __slots__ = ("state",)
    __match_args__ = ("state",)

    state: GameState

    def __init__(self, state: GameState) -> None:
        object.__setattr__(self, "state", state)


class SetBrightness(Value):
    """Change the display brightness (dim and blank when idle, normal on wake)."""

    __slots__ = ("level",)
    __match_args__ = ("level",)

    level: Brightness

    def __init__(self, level: Brightness) -> None:
        object.__setattr__(self, "level", level)


class LedSide(Value):
    """One side's pegs on the LED board: front peg, back peg, and whether it won."""

    __slots__ = ("back", "front", "winner")
    __match_args__ = ("front", "back", "winner")

    front: int
    back: int
    winner: bool

    def __init__(self, front: int, back: int, winner: bool = False) -> None:
        setter = object.__setattr__
        setter(self, "front", front)
        setter(self, "back", back)
        setter(self, "winner", winner)


class UpdateLeds(Value):
    """Show these pegs on the LED board (only emitted when they change). ``last`` is the side
    whose scoring act the pegs show (the engine's report says whose it was; None: the board
    keeps the one it had)."""

    __slots__ = ("last", "sides", "target")
    __match_args__ = ("sides", "target", "last")

    sides: tuple[LedSide, ...]
    target: int
    last: int | None

    def __init__(
        self,
        sides: tuple[LedSide, ...],
        target: int = 121,
        last: int | None = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "sides", sides)
        setter(self, "target", target)
        setter(self, "last", last)


class PowerOff(Value):
    """Shut the device down cleanly (the player confirmed "Shut down"): the loop draws the
    "game saved" frame, closes the store and asks the system to power off."""

    __slots__ = ()


class Quit(Value):
    """Leave the program without powering off (the simulator's quit)."""

    __slots__ = ()


class BringUp(Value):
    """Hand the box to its bring-up tests (the home menu's "Test the box"): the loop lets go of
    the input kit, shows each switch, detent and key on the panel with the pins it came in on,
    then the panel's test pattern and the LED strip's walk, and takes the kit back when the
    builder leaves them. The game's state is untouched meanwhile."""

    __slots__ = ()


class SayAgain(Value):
    """Say the last announcement again (MENU, "Say it again"; only with the voice on)."""

    __slots__ = ()


class ReadScreen(Value):
    """Read the screen now on display aloud (GO held, with the voice on)."""

    __slots__ = ()


class SayScore(Value):
    """Say the standing now: each side's score, the count in the play and who is to act
    (audio mode: MENU held)."""

    __slots__ = ()


class FactsEntered(Value):
    """A card entered at once with the suit facts a hold set on it (a keypad's held rank
    key, where the rank has one fact): the facts in words with the entry, as the hold would
    have shown them had it asked (``card``: the card as the wheel shows it)."""

    __slots__ = ("card", "facts")
    __match_args__ = ("card", "facts")

    card: str
    facts: tuple[suit_facts.SuitFact, ...]

    def __init__(self, card: str, facts: tuple[suit_facts.SuitFact, ...]) -> None:
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "facts", facts)


class Earcon(Value):
    """Play one of audio mode's short sounds (only in audio mode)."""

    __slots__ = ("sound",)
    __match_args__ = ("sound",)

    sound: sounds.Sound

    def __init__(self, sound: sounds.Sound) -> None:
        object.__setattr__(self, "sound", sound)


class AudioMode(Value):
    """Audio mode was turned on or off (the voice says so, and opens if it was closed)."""

    __slots__ = ("on",)
    __match_args__ = ("on",)

    on: bool

    def __init__(self, on: bool) -> None:
        object.__setattr__(self, "on", on)


class SeatAnswer(Value):
    """The answer to a seat's own entry (:class:`~pegboard.app.inputs.SeatEntry`): taken
    (its entries saved before any output is told) or refused, with the reason in words
    meant for that seat alone. The loop hands it to the outputs like the LEDs' pegs; if
    the save fails the loop turns it into a refusal."""

    __slots__ = ("reason", "seat", "taken", "ticket")
    __match_args__ = ("ticket", "seat", "taken", "reason")

    ticket: int
    seat: int
    taken: bool
    reason: str

    def __init__(self, ticket: int, seat: int, taken: bool, reason: str = "") -> None:
        setter = object.__setattr__
        setter(self, "ticket", ticket)
        setter(self, "seat", seat)
        setter(self, "taken", taken)
        setter(self, "reason", reason)


class SeatNotice(Value):
    """Words for one seat's phone alone, not the answer to its own request: a card the box
    entered was refused because that seat's hand, entered on its phone, holds it. Only the
    seat whose hand holds the card is told which card and what to do; the box and every
    other output say nothing of it (:data:`pegboard.app.private.CLASH`)."""

    __slots__ = ("seat", "text")
    __match_args__ = ("seat", "text")

    seat: int
    text: str

    def __init__(self, seat: int, text: str) -> None:
        setter = object.__setattr__
        setter(self, "seat", seat)
        setter(self, "text", text)


class OfferPairing(Value):
    """Ask the pairing port for the join code of each of the ``seats`` of the game in
    progress (a new game, or "Phones" on the menu); it answers with a
    :class:`~pegboard.app.inputs.Pairing` input, shown from the seat ``first`` (the seat
    last taken on the box, so its phone gets it back at once). Nothing happens where phones
    are off."""

    __slots__ = ("first", "seats")
    __match_args__ = ("seats", "first")

    seats: int
    first: int

    def __init__(self, seats: int, first: int = 0) -> None:
        setter = object.__setattr__
        setter(self, "seats", seats)
        setter(self, "first", first)


class ReleaseSeat(Value):
    """Free ``seat`` of the game in progress from its phone (a lost phone: its token stops
    working); the pairing port answers with the pairing as it then is, from that seat
    (``offer``: its new join code on the pairing screen), or, for a seat taken on the box
    while the starter waited for its phone's hand (not ``offer``), with the seats phones
    still hold alone."""

    __slots__ = ("offer", "seat", "seats")
    __match_args__ = ("seat", "seats", "offer")

    seat: int
    seats: int
    offer: bool

    def __init__(self, seat: int, seats: int, offer: bool = True) -> None:
        setter = object.__setattr__
        setter(self, "seat", seat)
        setter(self, "seats", seats)
        setter(self, "offer", offer)


Effect = (
    PersistNewGame | Persist | PersistUndo | FinishGame | SetBrightness | UpdateLeds
    | PowerOff | Quit | BringUp | SayAgain | ReadScreen | SayScore | Earcon | AudioMode | SeatAnswer
    | SeatNotice | OfferPairing | ReleaseSeat | FactsEntered
)
"""Anything ``step`` can ask the loop to do."""


class Changes(Value):
    """What a run of saved effects did to the entries in force, as the engine reported it:
    the reports of the entries :attr:`added` (in the order entered) and of those
    ``withdrawn`` (taken back, in the order they had been entered), net of each other: an
    entry added and taken back in the same run is in neither. ``began`` when a new game was
    started: what came before it is no longer the game's, and is dropped.

    An undo always takes back the newest entry in force, so the entries a run withdraws
    are all older than the ones it adds: they were withdrawn first.
    """

    __slots__ = ("began", "entered", "withdrawn")
    __match_args__ = ("entered", "withdrawn", "began")

    entered: tuple[Report | None, ...]
    """Each entry added, with its report (None: an entry given without one)."""
    withdrawn: tuple[Report, ...]
    began: bool

    def __init__(
        self,
        entered: tuple[Report | None, ...] = (),
        withdrawn: tuple[Report, ...] = (),
        began: bool = False,
    ) -> None:
        setter = object.__setattr__
        setter(self, "entered", entered)
        setter(self, "withdrawn", withdrawn)
        setter(self, "began", began)

    @property
    def added(self) -> tuple[Report, ...]:
        """The reports of the entries added, oldest first."""
        return tuple(report for report in self.entered if report is not None)

    def after(self, effect: Effect) -> Changes:
        """These changes and one more effect the store has saved (any other effect changes
        nothing)."""
        if isinstance(effect, PersistNewGame):
            return Changes(began=True)
        if isinstance(effect, Persist):
            return replace(self, entered=(*self.entered, effect.report))
        if not isinstance(effect, PersistUndo):
            return self
        if self.entered:  # added in this run: never in force for an observer
            return replace(self, entered=self.entered[:-1])
        if effect.report is None:
            return self
        return replace(self, withdrawn=(effect.report, *self.withdrawn))


NO_CHANGES = Changes()
"""A batch that added and withdrew nothing."""
