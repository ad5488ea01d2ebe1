"""Reading one record line into the engine's values: a header or an event.

The first line of a record is the game header, ``{"type": "game", "players": [...], "rules":
{...}}``; every later line is one event. ``docs/record.md`` describes every type and field.
Reading is strict about what it needs (a missing or wrong-typed field is a
:class:`RecordError` naming the line and the field) and tolerant of what it does not know
(extra keys are ignored, so newer writers stay readable).

Text goes through the bounded JSON reader (:func:`pegboard.record.bounded.load_json`) once;
an object the store has already decoded from its log line is read as it is
(:func:`parse_object`), never encoded and decoded again. Every number and name a line carries
is range-checked here, so a ``RecordError`` names the line and what is accepted before the
engine sees the entry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from pegboard.errors import InvalidCardError, RecordError, RuleError
from pegboard.record.bounded import load_json, shown
from pegboard.rules import events as ev
from pegboard.rules.cards import Card, Suit, written_card
from pegboard.rules.events import (
    EVENT_TYPES,
    RECORD_VERSION,
    ClubSeat,
    Event,
    GameHeader,
    TableOptions,
)
from pegboard.rules.variants import Rules

Line = GameHeader | Event
"""Anything a record line can hold."""

_TYPES = ", ".join([GameHeader.TYPE, *(cls.TYPE for cls in EVENT_TYPES)])

MAX_NAME = 20
"""The longest player name, in characters (the device offers names of up to 7)."""

MAX_MEMBER = 20
"""The longest club member number (text: clubs number their members their own way)."""

MAX_NOTE = 200
"""The longest note on a director's override."""

MOST_CLUB = 9999
"""The highest night, round or table number of a club game."""

MAX_INFRACTION = 40
"""The longest ``infraction`` id (the catalogue's longest has 21 characters)."""

MOST_ONE_SCORE = 29
"""The most one scoring act can be worth (a 29 hand): the top of a claim or a muggins."""

BOARD = 121
"""The longest game's target: the most a peg or a penalty can move."""

SEATS = 4
"""Seats are numbered 0 to 3 (cribbage is played by 2, 3 or 4)."""

_BOARD_WHY = "at most the whole board of a 121 game"
_SCORE_WHY = "a 29 hand is the most one score can be"

class _Fields:
    """Typed access to one line's object, raising RecordError that names the line."""

    def __init__(self, data: Mapping[str, object], line: int, within: str = "") -> None:
        self.data = data
        self.line = line
        self.within = within  # the object inside the line these fields are in, if any

    def fail(self, reason: str) -> RecordError:
        return RecordError(f"line {self.line}: {reason}")

    def _get(self, key: str) -> object:
        if key not in self.data:
            kind = repr(self.within) if self.within else shown(self.data.get("type"))
            raise self.fail(f"{kind} needs the field {key!r}")
        return self.data[key]

    def whole(self, key: str, low: int, high: int, what: str) -> int:
        """A whole number from ``low`` to ``high``; ``what`` says why those bounds."""
        value = self._get(key)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(
                f"{key!r} must be a whole number from {low} to {high} ({what}), "
                f"got {shown(value)}"
            )
        return value

    def seat(self, key: str) -> int:
        return self.whole(key, 0, SEATS - 1, "a seat")

    def opt_seat(self, key: str) -> int | None:
        if self.data.get(key) is None:
            return None
        return self.seat(key)

    def opt_int(self, key: str) -> int | None:
        """Any whole number (load_json has bounded its digits), or None when absent."""
        value = self.data.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(f"{key!r} must be a whole number, got {shown(value)}")
        return value

    def opt_whole(self, key: str, low: int, high: int, what: str) -> int | None:
        if self.data.get(key) is None:
            return None
        return self.whole(key, low, high, what)

    def opt_bool(self, key: str) -> bool | None:
        value = self.data.get(key)
        if value is not None and not isinstance(value, bool):
            raise self.fail(f"{key!r} must be true or false, got {shown(value)}")
        return value

    def text(self, key: str, longest: int) -> str:
        """Printable text of 1 to ``longest`` characters (see :func:`printable_error`)."""
        value = self._get(key)
        if not isinstance(value, str):
            raise self.fail(f"{key!r} must be text, got {shown(value)}")
        problem = printable_error(value, longest)
        if problem is not None:
            raise self.fail(f"{key!r} {problem}")
        return value

    def card(self, key: str) -> Card:
        return self._card(self._get(key), key)

    def _card(self, value: object, key: str) -> Card:
        if not isinstance(value, str):
            raise self.fail(f"{key!r} must be a card like \"5H\", got {shown(value)}")
        card = written_card(value)  # written as a record writes it: no need to tidy it up
        if card is not None:
            return card
        try:
            return Card.parse(value)
        except InvalidCardError as error:
            raise self.fail(f"{key!r}: {error}") from None

    def suit(self, key: str) -> Suit:
        """A suit by its letter (C D H S) or symbol, any case."""
        value = self._get(key)
        letters = {suit.letter: suit for suit in Suit} | {suit.symbol: suit for suit in Suit}
        if not isinstance(value, str) or value.strip().upper() not in letters:
            raise self.fail(f"{key!r} must be a suit (C D H S or \u2663 \u2666 \u2665 "
                            f"\u2660), got {shown(value)}")
        return letters[value.strip().upper()]

    def cards(self, key: str) -> tuple[Card, ...]:
        value = self._get(key)
        if not isinstance(value, list):
            raise self.fail(
                f"{key!r} must be a list of cards like [\"5H\", \"KD\"], got {shown(value)}"
            )
        if len(value) > 6:  # the most any entry lists: a dealt hand
            raise self.fail(f"{key!r} lists {len(value)} cards; an entry lists at most 6")
        return tuple(self._card(item, key) for item in value)


def printable_error(text: str, longest: int) -> str | None:
    """Why ``text`` cannot be a name (or id) in a record, or None if it can.

    A name is 1 to ``longest`` characters, not only spaces, every one printable (no control
    characters, NUL, line breaks, format or private-use characters, lone surrogates): it is
    shown on the OLED and in the terminal and written back to the store as UTF-8.

    >>> printable_error("Ann", 20) is None
    True
    >>> printable_error("A\\x00n", 20)
    "has the character '\\\\x00' at 2; accepted: letters, digits, punctuation and spaces"
    """
    if not text.strip():
        return f"must not be empty or blank, got {shown(text)}"
    if len(text) > longest:
        return f"is {len(text):,} characters long ({shown(text)}); accepted: 1 to {longest}"
    for position, char in enumerate(text, start=1):
        if not char.isprintable():
            return (
                f"has the character {char!r} at {position}; accepted: letters, digits, "
                "punctuation and spaces"
            )
    return None


def parse_line(text: str, line: int = 1) -> Line:
    """Read one record line (header or event); RecordError says which line and why.

    The line goes through :func:`~pegboard.record.bounded.load_json`, then
    :func:`parse_object`.

    >>> parse_line('{"type": "play", "player": 1, "card": "5C"}')
    Play(player=1, card=Card.parse('5C'), named=False)
    """
    return parse_object(load_json(text, line), line)


def parse_object(data: object, line: int = 1) -> Line:
    """Read one record line already decoded from JSON (as the store decodes its log lines).

    Every seat must be 0-3, a claim or muggins 0-29 (the most one scoring act is worth), a
    peg -121 to 121, penalty points 0-121 (the engine then checks them against the game at
    hand: its seats, its target, the score waiting).

    >>> parse_object({"type": "go", "player": 4}, 7)
    Traceback (most recent call last):
    ...
    pegboard.errors.RecordError: line 7: 'player' must be a whole number from 0 to 3 (a seat),
    got 4
    """
    # A dict (what JSON decodes to) is a mapping without asking the abstract class.
    if type(data) is not dict and not isinstance(data, Mapping):
        raise RecordError(f"line {line}: expected a JSON object {{...}}, got {shown(data)}")
    f = _Fields(data, line)
    kind = data.get("type")
    if not isinstance(kind, str):
        raise f.fail(f"every line needs a \"type\" (one of {_TYPES})")
    read = _READERS.get(kind)
    if read is not None:
        return read(f)
    raise f.fail(f"unknown type {shown(kind)}: expected one of {_TYPES}")


_TABLE_KEYS = ("teaching", "points_only", "count_yourself", "open_hands")
"""The header's table options, in the order of :class:`TableOptions`."""


def _option(f: _Fields) -> ev.OptionsChanged:
    option = ev.OptionsChanged(f.opt_bool("teaching"), f.opt_bool("points_only"),
                       f.opt_bool("count_yourself"), f.opt_bool("open_hands"))
    if option == ev.OptionsChanged():
        raise f.fail("an option line names teaching, points_only, count_yourself or "
                     "open_hands (true or false)")
    return option


def _header(f: _Fields) -> GameHeader:
    version = f.opt_int("version")
    if version is None:
        version = 1
    if not 1 <= version <= RECORD_VERSION:
        raise f.fail(f"record version {version} is not supported (this reader knows 1 to "
                     f"{RECORD_VERSION})")
    players = f._get("players")
    if not isinstance(players, list) or not all(
        isinstance(p, str) and p.strip() for p in players
    ):
        raise f.fail(f"'players' must be a list of 2 to 4 names, got {shown(players)}")
    for seat, name in enumerate(players):
        problem = printable_error(name, MAX_NAME)
        if problem is not None:
            raise f.fail(f"the name of seat {seat} {problem}")
    rules_data = f.data.get("rules", {})
    if not isinstance(rules_data, dict):
        raise f.fail(f"'rules' must be an object, got {shown(rules_data)}")
    try:
        rules = Rules.from_json(rules_data, len(players))
    except RuleError as error:
        raise f.fail(str(error)) from None
    table_data = f.data.get("table", {})
    if not isinstance(table_data, dict):
        raise f.fail(f"'table' must be an object, got {shown(table_data)}")
    unknown = sorted(set(table_data) - set(_TABLE_KEYS))
    if unknown:
        raise f.fail(
            f"unknown table option {shown(unknown[0])}: accepted are "
            f"{', '.join(sorted(_TABLE_KEYS))}"
        )
    table = _Fields(table_data, f.line)
    options = TableOptions(*(bool(table.opt_bool(key)) for key in _TABLE_KEYS))
    return GameHeader(tuple(players), rules, version, options, _club(f, len(players)))


def _club(f: _Fields, seats: int) -> ClubSeat | None:
    """The header's optional ``club`` object: night, round, table and a member per seat."""
    data = f.data.get("club")
    if data is None:
        return None
    if not isinstance(data, dict):
        raise f.fail(f"'club' must be an object, got {shown(data)}")
    club = _Fields(data, f.line, "club")
    numbers = [club.whole(key, 1, MOST_CLUB, "a club number") for key in
               ("night", "round", "table")]
    members = club._get("members")
    if not isinstance(members, list) or len(members) != seats:
        raise f.fail(f"'members' must list one member number per player ({seats}), got "
                     f"{shown(members)}")
    for seat, member in enumerate(members):
        problem = printable_error(member, MAX_MEMBER) if isinstance(member, str) else (
            f"must be text, got {shown(member)}")
        if problem is not None:
            raise f.fail(f"the member number of seat {seat} {problem}")
    lock = bool(club.opt_bool("lock"))
    table = f.data.get("table")
    for helper in ("teaching", "count_yourself"):
        if lock and isinstance(table, dict) and table.get(helper) is True:
            raise f.fail(f"a game under the tournament lock ('club' 'lock') cannot have "
                         f"{helper} on")
    return ClubSeat(numbers[0], numbers[1], numbers[2], tuple(members), lock,
                    _guests(f, club.data.get("guests", []), seats))


def _guests(f: _Fields, guests: object, seats: int) -> tuple[int, ...]:
    """The club object's ``guests``: the seats (0 first) whose players are guests."""
    if not isinstance(guests, list) or not all(
            isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < seats
            for seat in guests) or len(set(guests)) != len(guests):
        raise f.fail(f"'guests' must list the seats of guests, each once, from 0 to "
                     f"{seats - 1}, got {shown(guests)}")
    return tuple(sorted(guests))


def _play(f: _Fields) -> ev.Play:
    """A card laid: most lines of a record. The usual line (a seat, a card written as a
    record writes it, no ``named``) is read straight from its object; any other is read field
    by field, which words what is wrong."""
    data = f.data
    player, card = data.get("player"), data.get("card")
    if type(player) is int and 0 <= player < SEATS and type(card) is str and (
            data.get("named") is None):
        laid = written_card(card)
        if laid is not None:
            return ev.Play(player, laid, False)
    return ev.Play(f.seat("player"), f.card("card"), f.opt_bool("named") is True)


_READERS: dict[str, Callable[[_Fields], Line]] = {
    GameHeader.TYPE: lambda f: _header(f),
    ev.Cut.TYPE: lambda f: ev.Cut(f.cards("cards")),
    ev.Deal.TYPE: lambda f: ev.Deal(f.opt_seat("dealer")),
    ev.Dealt.TYPE: lambda f: ev.Dealt(f.seat("player"), f.cards("cards")),
    ev.LaidAway.TYPE: lambda f: ev.LaidAway(f.seat("player"), f.cards("cards")),
    ev.Starter.TYPE: lambda f: ev.Starter(f.card("card"),
                                          f.opt_bool("suit_known") is not False,
                                          f.opt_bool("by_rank") is True),
    ev.StarterSuit.TYPE: lambda f: ev.StarterSuit(f.suit("suit")),
    ev.Play.TYPE: lambda f: _play(f),
    ev.Go.TYPE: lambda f: ev.Go(f.seat("player")),
    ev.Show.TYPE: lambda f: ev.Show(f.seat("player"), f.cards("cards")),
    ev.Crib.TYPE: lambda f: ev.Crib(f.cards("cards")),
    ev.Peg.TYPE: lambda f: ev.Peg(f.seat("player"),
                                  f.whole("points", -BOARD, BOARD, _BOARD_WHY)),
    ev.Penalty.TYPE: lambda f: ev.Penalty(
        f.seat("player"), f.text("infraction", MAX_INFRACTION),
        f.opt_whole("points", 0, BOARD, _BOARD_WHY), f.opt_seat("to"),
        f.opt_whole("back", 0, BOARD, _BOARD_WHY),
        f.cards("held") if "held" in f.data else ()),
    ev.Claim.TYPE: lambda f: ev.Claim(f.seat("player"),
                                f.whole("points", 0, MOST_ONE_SCORE, _SCORE_WHY)),
    ev.Muggins.TYPE: lambda f: ev.Muggins(f.seat("player"),
                                    f.whole("points", 0, MOST_ONE_SCORE, _SCORE_WHY)),
    ev.Undo.TYPE: lambda f: ev.Undo(),
    ev.NewGame.TYPE: lambda f: ev.NewGame(f.opt_seat("dealer")),
    ev.Confirm.TYPE: lambda f: ev.Confirm(f.seat("player")),
    ev.LetPass.TYPE: lambda f: ev.LetPass(f.seat("player"),
                                          f.text("infraction", MAX_INFRACTION)),
    ev.Override.TYPE: lambda f: ev.Override(f.text("director", MAX_NAME),
                                            f.text("note", MAX_NOTE)),
    ev.OptionsChanged.TYPE: _option,
    ev.OwnCount.TYPE: lambda f: ev.OwnCount(f.seat("player"),
                                            f.whole("points", 0, MOST_ONE_SCORE, _SCORE_WHY)),
}
"""How each type of line is read (its fields checked as the engine needs them)."""
