"""Seating a club night: who plays whom at which table, round by round, and the byes.

Two ways, as clubs do it:

- ``moves`` ("one side moves"): the players checked in are split into a side that stays at
  its table and a side that moves one table on each round, so nobody meets the same
  opponent twice until every table has been visited;
- ``random`` (RULES.md: "a club night is usually 9 games with random seating each round";
  ``club seat``'s default): each round is drawn afresh (from ``seed``: the same seed seats
  the night the same way; each round drawn carries it), taking the draw with the fewest
  repeated pairings of a few tried.

With an odd number of players, one sits out each round (a bye), each player at most once
until everyone has had one.

>>> [t.players for t in seat(["101", "102", "103", "104"], 2, "moves")[1].tables]
[('101', '104'), ('103', '102')]
"""

from __future__ import annotations

import enum
import random
import threading
from collections import Counter

from pegboard.errors import ClubError
from pegboard.record.parse import MAX_MEMBER
from pegboard.rules.value import Value, replace

TRIES = 50
"""Random draws tried for one round (the fewest repeats kept)."""


class Method(enum.StrEnum):
    """How a night is seated."""

    MOVES = "moves"
    RANDOM = "random"


class Pairing(Value):
    """One table of a round: its number and its two players (member numbers)."""

    __slots__ = ("number", "players")
    __match_args__ = ("number", "players")

    number: int
    players: tuple[str, str]

    def __init__(self, number: int, players: tuple[str, str]) -> None:
        setter = object.__setattr__
        setter(self, "number", number)
        setter(self, "players", players)


class Round(Value):
    """One round's tables and the player sitting out (None: nobody), and the seed of the
    random draw that seated it (None: one side moves, or not known)."""

    __slots__ = ("bye", "number", "seed", "tables")
    __match_args__ = ("number", "tables", "bye", "seed")

    number: int
    tables: tuple[Pairing, ...]
    bye: str | None
    seed: int | None

    def __init__(self, number: int, tables: tuple[Pairing, ...], bye: str | None,
                 seed: int | None = None) -> None:
        setter = object.__setattr__
        setter(self, "number", number)
        setter(self, "tables", tables)
        setter(self, "bye", bye)
        setter(self, "seed", seed)


def seat(members: list[str], rounds: int, method: str, seed: int = 0, first: int = 1
         ) -> list[Round]:
    """The night's rounds for the players checked in (member numbers, in check-in order),
    numbered from ``first`` (a re-seat of the rest of the night: a late arrival, a
    withdrawal)."""
    if not 1 <= first <= 99:
        raise ClubError(f"the first round {first}: give 1 to 99")
    if len(set(members)) != len(members):
        raise ClubError("a member is checked in twice: each member number once")
    if len(members) < 2:
        raise ClubError(f"{len(members)} players checked in: a night needs at least 2")
    if not 1 <= rounds <= 99:
        raise ClubError(f"{rounds} rounds: give 1 to 99")
    try:
        how = Method(method)
    except ValueError:
        raise ClubError(f"seating {method!r}: give moves or random") from None
    byes = _byes(members, rounds)
    met: set[frozenset[str]] = set()
    night = []
    for number in range(1, rounds + 1):
        bye = byes[number - 1]
        playing = [m for m in members if m != bye]
        if how is Method.MOVES:
            pairs = _moves(playing, number)
        else:
            pairs = _drawn(playing, met, random.Random(seed * 1009 + number))
        met.update(frozenset(pair) for pair in pairs)
        night.append(Round(number, tuple(Pairing(t, pair) for t, pair in
                                         enumerate(pairs, start=1)), bye,
                           None if how is Method.MOVES else seed))
    return [replace(r, number=r.number + first - 1) for r in night]


def _byes(members: list[str], rounds: int) -> list[str | None]:
    if len(members) % 2 == 0:
        return [None] * rounds
    order = list(reversed(members))  # the last to check in sits out first
    return [order[(r) % len(order)] for r in range(rounds)]


def _moves(playing: list[str], number: int) -> list[tuple[str, str]]:
    stay, move = playing[0::2], playing[1::2]
    shift = (number - 1) % len(move)
    moved = move[len(move) - shift:] + move[: len(move) - shift]
    return list(zip(stay, moved, strict=True))


def _drawn(playing: list[str], met: set[frozenset[str]], rng: random.Random
           ) -> list[tuple[str, str]]:
    best: list[tuple[str, str]] = []
    fewest = len(playing)
    for _ in range(TRIES):
        order = list(playing)
        rng.shuffle(order)
        pairs = []
        while order:  # each player, in the drawn order, meets the first one not met yet
            first = order.pop(0)
            other = next((m for m in order if frozenset((first, m)) not in met), order[0])
            order.remove(other)
            pairs.append((first, other))
        repeats = sum(frozenset(pair) in met for pair in pairs)
        if repeats < fewest:
            best, fewest = pairs, repeats
        if repeats == 0:
            break
    return best


def to_json(night: list[Round]) -> list[dict[str, object]]:
    """The rounds as ``club seat --json`` prints them and ``club serve --seating`` reads:
    a round drawn at random carries its draw's ``seed`` (the night's: ``club seat --seed``
    seats it the same way again)."""
    return [{"round": r.number, "bye": r.bye, "tables": [
        {"table": t.number, "members": list(t.players)} for t in r.tables],
        **({} if r.seed is None else {"seed": r.seed})} for r in night]


def from_json(data: object) -> list[Round]:
    """The rounds of a seating file; ClubError naming what is wrong (a round is seated
    once, 1 to 99; in a round, each table once, numbered from 1, with two member numbers,
    and each member at one table or on the bye at most)."""
    if not isinstance(data, list):
        raise ClubError("a seating file is a list of rounds, as club seat --json prints")
    night = []
    for item in data:
        try:
            tables = tuple(Pairing(_whole(t["table"]), _pair(t["members"]))
                           for t in item["tables"])
            bye, seed = item.get("bye"), item.get("seed")
            night.append(Round(_whole(item["round"]), tables,
                               None if bye is None else _member(bye),
                               None if seed is None else _whole(seed)))
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            raise ClubError(f"a seating round must be {{\"round\", \"bye\", \"tables\": "
                            f"[{{\"table\", \"members\": [two member numbers]}}]}}, got "
                            f"{str(item)[:80]}") from None
        _check_round(night[-1])
    numbers = [r.number for r in night]
    if len(set(numbers)) != len(numbers):
        raise ClubError(f"a seating gives each round once; got rounds {numbers[:20]}")
    return night


def _whole(value: object) -> int:
    """A whole number as a seating file gives one (JSON's integers; not true, not 2.5)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(value)
    return value


def _member(value: object) -> str:
    """A member number as a seating file gives one: text (or a whole number) of 1 to
    :data:`~pegboard.record.parse.MAX_MEMBER` printable (as a game's header takes) characters."""
    text = str(_whole(value)) if not isinstance(value, str) else value
    if not text.strip() or len(text) > MAX_MEMBER or not text.isprintable():
        raise ValueError(value)
    return text


def _pair(value: object) -> tuple[str, str]:
    if not isinstance(value, list) or len(value) != 2:
        raise ValueError(value)
    return _member(value[0]), _member(value[1])


def _check_round(found: Round) -> None:
    """ClubError when ``found`` seats nobody right: its number 1 to 99, each table once
    (from 1), each member once in the round (at one table, or on the bye)."""
    if not 1 <= found.number <= 99:
        raise ClubError(f"seating round {found.number}: give rounds 1 to 99")
    tables = [t.number for t in found.tables]
    if any(n < 1 for n in tables) or len(set(tables)) != len(tables):
        raise ClubError(f"round {found.number} seats tables {tables[:20]}: each table once, "
                        "numbered from 1")
    seated = [m for t in found.tables for m in t.players] + (
        [found.bye] if found.bye is not None else [])
    twice = sorted(m for m, times in Counter(seated).items() if times > 1)
    if twice:
        raise ClubError(f"round {found.number} seats member {twice[0]} twice: each member "
                        "at one table, or on the bye, in a round")


def merged(kept: list[Round] | None, given: list[Round]) -> list[Round]:
    """``kept`` re-seated by ``given``: the rounds before ``given``'s first kept, that round
    and every later one ``given``'s (a re-seat from round N replaces the rest of the night).

    >>> night = seat(["1", "2", "3", "4"], 3, "moves")
    >>> again = seat(["1", "2", "3", "4", "5", "6"], 2, "moves", first=2)
    >>> [(r.number, len(r.tables)) for r in merged(night, again)]
    [(1, 2), (2, 3), (3, 3)]
    """
    if not given:
        raise ClubError("a seating gives at least one round")
    numbers = [r.number for r in given]
    if len(set(numbers)) != len(numbers):
        raise ClubError(f"a seating gives each round once; got rounds {numbers}")
    start = min(numbers)
    return sorted([*(r for r in kept or [] if r.number < start), *given],
                  key=lambda r: r.number)


class Tonight:
    """Tonight's seating as the standings service holds it (None: none loaded), which the
    director may change while the service runs (:meth:`load`); the subscriber checks each
    new game against it and the page shows its next round."""

    def __init__(self, rounds: list[Round] | None = None, night: int | None = None,
                 why_none: str = "") -> None:
        """``night``: the night the seating is for (the service's ``--night``; None: not
        known yet, until a game of it is counted: :meth:`bind`), kept with it in the results
        database; a game of another night is not checked against it
        (:func:`pegboard.club.results.seated`). ``why_none``: why no seating is loaded, for
        the page ("" when one is, or none was ever kept)."""
        self._rounds = rounds
        self.night = night
        self.why_none = "" if rounds is not None else why_none
        self._lock = threading.Lock()

    @property
    def rounds(self) -> list[Round] | None:
        """The rounds now (None: no seating loaded)."""
        with self._lock:
            return self._rounds

    def load(self, given: list[Round]) -> list[Round]:
        """Re-seat from ``given``'s first round on (:func:`merged`); the rounds now."""
        with self._lock:
            self._rounds = merged(self._rounds, given)
            self.why_none = ""
            return self._rounds

    def bind(self, night: int) -> bool:
        """The seating is ``night``'s, when its night was not known: a game of ``night``
        was counted against it (a service started without ``--night`` learns its night
        from its first game seated). Whether it was bound now (not: known before, or no
        seating)."""
        with self._lock:
            if self.night is not None or self._rounds is None:
                return False
            self.night = night
            return True
