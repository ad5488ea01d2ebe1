"""The referee: a game (or match) as a value built from its entries, with undo.

``Game.push(event)`` checks one entry against the rules (docs/rules.md), pegs whatever it
scores and returns the entry's :class:`~pegboard.rules.facts.Report` (every award with its
reason, each hand counted, claim windows, penalties, the end of the game, who acts next); an
illegal entry raises a :class:`~pegboard.errors.RuleError` saying what is wrong and what would
be right, and leaves the game exactly as it was. ``Game.pop()`` takes the last entry back.
``Game.after(event)`` is a new game one entry on, sharing this one's history, which it leaves
untouched. ``Game.state`` is an immutable snapshot of the table.

The rules applied, in brief:

- The deal passes left every hand; the first dealer is named or cut for (lowest card deals).
- A jack turned as starter pegs 2 for the dealer at once ("his heels", ACC 6.3).
- The play: the player left of the dealer leads, play goes clockwise, the count never passes
  31. A player who says go is out of that count; a player with no cards left is out. When
  everybody is out the player who laid the last card pegs 1 for the go; a card making 31 pegs
  2 and restarts the count (never 3). The next count is led by the player left of the last
  card's player (skipping empty hands). The very last card pegs 1 ("last card"), or 2 for 31.
  Five-card cribbage has one count only: the play ends when that count does.
- The show: pone first, clockwise, the dealer's hand last, then the crib. Hands whose cards
  were all laid in the play are counted by the engine itself as soon as the play ends.
- A renege (a go while a card fitted, ACC 7.3) is reported once the hand is known; a renege
  penalty takes the play back to that go (:mod:`pegboard.rules.renege`).
- A new hand is dealt once the crib is counted, or at any time when the hand was pegged by
  points (no card of a hand or the crib entered).
- The game ends the instant a side reaches the target; nothing after that is scored. One card's
  combinations with its go or last-card point, one hand and one crib are each a single
  scoring act, pegged whole.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pegboard.errors import RuleError
from pegboard.rules.claims import (
    apply_claim,
    apply_muggins,
    apply_peg,
    apply_penalty,
    settle_claims,
)
from pegboard.rules.confirm import apply_confirm, apply_let_pass
from pegboard.rules.deal import (
    apply_cut,
    apply_deal,
    apply_dealt,
    apply_laid_away,
    apply_new_game,
    apply_starter,
)
from pegboard.rules.events import (
    Claim,
    Confirm,
    Crib,
    Cut,
    Deal,
    Dealt,
    Event,
    GameHeader,
    Go,
    LaidAway,
    LetPass,
    Muggins,
    NewGame,
    OptionsChanged,
    Override,
    OwnCount,
    Peg,
    Penalty,
    Play,
    Show,
    Starter,
    StarterSuit,
    Undo,
)
from pegboard.rules.facts import Report, Undone
from pegboard.rules.history import Entries, Node, same_entries
from pegboard.rules.own_count import apply_option, apply_own_count, hold_counts
from pegboard.rules.play import apply_go, apply_play
from pegboard.rules.renege import claimable_after_win
from pegboard.rules.report import turn
from pegboard.rules.show_order import apply_crib, apply_show, apply_starter_suit
from pegboard.rules.state import Award, GameState, Phase
from pegboard.rules.table import Table, side_name
from pegboard.rules.variants import Rules


class Game:
    """A cribbage game (or match) for 2, 3 or 4 players, built from its entries.

    >>> from pegboard.rules.cards import Card
    >>> from pegboard.rules.events import Deal, Starter
    >>> game = Game(["Ann", "Ben"])
    >>> game.push(Deal(dealer=0)).awards
    ()
    >>> later, report = game.after(Starter(Card.parse("JH")))
    >>> [f"{a.reason} {a.points}" for a in report.awards]
    ['his heels 2']
    >>> later.state.scores, game.state.scores
    ((2, 0), (0, 0))
    """

    __slots__ = ("_header", "_node")

    def __init__(self, players: Sequence[str], rules: Rules | None = None) -> None:
        names = tuple(players)
        if rules is None:
            rules = Rules()
        rules.check(len(names))
        for name in names:
            if not isinstance(name, str) or not name.strip():
                raise RuleError(f"player names must be non-empty text, got {name!r}")
        self._header = GameHeader(names, rules)
        self._node = Node(None, None, Table(self._header))

    @classmethod
    def from_header(cls, header: GameHeader) -> Game:
        """A new game from a record's first line (its version and table options kept)."""
        game = cls(header.players, header.rules)
        game._header = header
        game._node = Node(None, None, Table(header))
        return game

    def _at(self, node: Node) -> Game:
        game = object.__new__(Game)
        game._header = self._header
        game._node = node
        return game

    # Read-only views -----------------------------------------------------------------------

    @property
    def header(self) -> GameHeader:
        """The game line: players and rules."""
        return self._header

    @property
    def events(self) -> Entries:
        """The entries in force (undone entries are gone), oldest first."""
        return Entries(self._node)

    @property
    def names(self) -> tuple[str, ...]:
        """Player names in seat order."""
        return self._header.players

    @property
    def rules(self) -> Rules:
        """The rules this table plays."""
        return self._header.rules

    def side_of(self, player: int) -> int:
        """The side (score) seat ``player`` pegs for."""
        return self.rules.side_of(player, len(self.names))

    @property
    def state(self) -> GameState:
        """An immutable snapshot of the table now."""
        return self._node.state

    @property
    def report(self) -> Report | None:
        """The report of the last entry in force (``None`` before the first)."""
        return self._node.report

    def reports(self, start: int = 0) -> tuple[Report, ...]:
        """The reports of the entries in force after the first ``start``, oldest first: what
        an output that last saw ``start`` entries has still to tell (one step of the app can
        add two entries, the crib and the next deal)."""
        found: list[Report] = []
        for node in self._node.lineage():
            if node.depth <= start:
                break  # the older entries are not walked: the cost is the new ones'
            if node.report is not None:
                found.append(node.report)
        found.reverse()
        return tuple(found)

    def __eq__(self, other: object) -> bool:
        """Games are equal when they have the same header and the same entries in force."""
        if not isinstance(other, Game):
            return NotImplemented
        return self._header == other._header and same_entries(self._node, other._node)

    def __repr__(self) -> str:
        return f"<Game {' v '.join(self.names)}: {self._node.depth} entries>"

    # Changing the game ---------------------------------------------------------------------

    def after(self, event: Event) -> tuple[Game, Report]:
        """A new game: this one with ``event`` applied (an ``Undo`` takes the last entry
        back), and the entry's report. This game is unchanged; the two share their history.
        Illegal entries raise RuleError."""
        node, undone = _step(self._node, event)
        return self._at(node), _report(node, undone)

    def push(self, event: Event) -> Report:
        """Apply one entry to this game and report what it did (an ``Undo`` pops). Illegal
        entries raise RuleError and leave the game as it was."""
        self._node, undone = _step(self._node, event)
        return _report(self._node, undone)

    def enter(self, event: Event) -> None:
        """Apply one entry as :meth:`push` does, without making its report now: it is made
        when first read (:attr:`report`, :meth:`reports`), the same report. A game restored
        from its record enters every entry and reads the reports of the last few."""
        self._node, _ = _step(self._node, event)

    def pop(self) -> Event:
        """Take back the last entry and return it (RuleError when there is nothing to undo)."""
        node = self._node
        if node.parent is None or node.event is None:
            raise RuleError("nothing to undo: no entries yet")
        self._node = node.parent
        return node.event

    def copy(self) -> Game:
        """Another game with the same entries (pushing to one leaves the other as it is)."""
        return self._at(self._node)

    def apply(self, event: Event) -> tuple[Award, ...]:
        """Apply one entry; returns the awards it pegged (``push(event).awards``)."""
        return self.push(event).awards

    def undo(self) -> Event:
        """Take back the last entry and return it (the same as :meth:`pop`)."""
        return self.pop()


def _step(node: Node, event: Event) -> tuple[Node, Report | None]:
    """The node after ``event`` (whose report is made when first read), and an undo's report;
    ``node`` itself is never changed."""
    if isinstance(event, Undo):
        parent = node.parent
        if parent is None or node.event is None:
            raise RuleError("nothing to undo: no entries yet")
        return parent, Report(event, (Undone(node.event),), turn(parent.table))
    table = node.table.copy()
    out: list[Award] = []
    _apply(table, event, out)
    hold_counts(node.table, table)
    # The table keeps this entry's notes: its report is made from them when first read.
    return Node(node, event, table, tuple(out)), None


def _report(node: Node, undone: Report | None) -> Report:
    """The report of the entry that made ``node``, or of the undo that went back to it."""
    report = undone if undone is not None else node.report
    assert report is not None  # a node made by an entry has its report
    return report


def _apply(t: Table, event: Event, out: list[Award]) -> None:
    kind = type(event)
    if kind in _ANSWERS:
        _answer(t, event)
        return
    if t.phase is Phase.GAME_OVER and not (
        isinstance(event, NewGame) or claimable_after_win(t, event)
    ):
        raise RuleError(_game_over_message(t))
    if kind is StarterSuit:
        assert isinstance(event, StarterSuit)
        # Asked before a count: the scores waiting for claims stay waiting, before it.
        apply_starter_suit(t, event, out)
        return
    if t.asked is not None and isinstance(event, _WAIT_FOR_SUIT):
        raise RuleError(_suit_message(t))
    # A result confirmed and then changed (a claim still allowed) must be confirmed again.
    t.confirmed, t.override = _NO_SEATS, None
    settle_claims(t, event, out)
    apply = _APPLY.get(kind)
    if apply is None:  # pragma: no cover - every Event type is in the table
        raise RuleError(f"unknown entry {event!r}")
    apply(t, event, out)
    if t.asked is not None and t.phase not in (Phase.SHOW, Phase.CRIB):
        t.asked = None  # a renege's take-back went back into the play: counted again later


def _answer(t: Table, event: Event) -> None:
    """An entry settled before the claims: a table option, an owner's own count, a result
    confirmed, an offer let pass (each by its exact type, as :data:`_APPLY` goes)."""
    if isinstance(event, OptionsChanged):
        if (event.teaching or event.count_yourself) and t.locked:
            raise RuleError("the tournament lock is on: no teaching or count it yourself at "
                            "this table tonight")
        apply_option(t, event)  # a table option: no score changes
    elif isinstance(event, OwnCount):
        apply_own_count(t, event)  # the count was pegged already; it may now be shown
    elif isinstance(event, Confirm | Override):
        apply_confirm(t, event)
    elif isinstance(event, LetPass):
        apply_let_pass(t, event)  # the table's answer to an offer: no score, no window moves


_ANSWERS: frozenset[type[Event]] = frozenset({OptionsChanged, OwnCount, Confirm, Override,
                                              LetPass})
"""The entries :func:`_answer` settles, before the game-over and claim rules: one lookup of
an entry's type tells every other entry apart from them."""

_NO_SEATS: frozenset[int] = frozenset()
"""No seat has confirmed the result."""

_WAIT_FOR_SUIT = (Cut, Deal, Dealt, Starter, Play, Go, Show, Crib, NewGame)
"""Entries that go on with the deal, refused while a count waits for the starter's suit."""


def _suit_message(t: Table) -> str:
    asked = t.asked
    assert asked is not None
    whose = f"{t.name(asked.player)}'s {'crib' if asked.crib else 'hand'}"
    suits = " ".join(suit.letter for suit in asked.suits)
    return (f"counting {whose} needs the starter's suit, entered by its rank alone: enter "
            f"it first (starter_suit, one of {suits})")


_Apply = Callable[[Table, Any, list[Award]], None]


def _pegs_nothing(apply: Callable[[Table, Any], None]) -> _Apply:
    """An entry's rule that pegs no points, in the shape of one that may."""

    def apply_entry(t: Table, event: Any, out: list[Award]) -> None:
        apply(t, event)

    return apply_entry


# One rule per kind of entry (OptionsChanged, OwnCount, Confirm, Override and LetPass are settled
# before the claims).
_APPLY: dict[type[Event], _Apply] = {
    Play: apply_play,
    Go: apply_go,
    Starter: apply_starter,
    Deal: apply_deal,
    Show: apply_show,
    Crib: apply_crib,
    Peg: apply_peg,
    Cut: _pegs_nothing(apply_cut),
    Dealt: _pegs_nothing(apply_dealt),
    LaidAway: _pegs_nothing(apply_laid_away),
    Penalty: apply_penalty,
    Claim: apply_claim,
    Muggins: apply_muggins,
    NewGame: _pegs_nothing(apply_new_game),
}


def _game_over_message(t: Table) -> str:
    assert t.winner is not None
    who = side_name(t, t.winner)
    more = (
        "a new game can start (new_game) or the last entry can be undone"
        if t.match_winner is None else "only undo is possible"
    )
    return f"the game is over: {who} won; {more}"


