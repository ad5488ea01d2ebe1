"""A game's history: a parent-linked chain of immutable tables, one per entry.

Each :class:`Node` holds one entry, the table after it and the entry's report, and points to
the node before it. Games made from one another share their common past, so a new game one
entry on costs one table copy, whatever the length of the match, and the old game is
untouched (python-chess keeps a move stack; this is the persistent form of it).

An entry's report is made from the two tables, the one before it and the one after, and the
awards it pegged (:func:`pegboard.rules.report.entry_report`), when it is first read: both
tables are never changed once their nodes exist, so the report made later is the report made
at once, and a record replayed to continue a game (a restore, whose reports nobody reads
but the last few) does not make one per entry. A report is made once, whichever thread reads
it first: the loop and the phones' server both read a game's reports, and the voice knows a
withdrawn report by identity.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

from pegboard.rules.events import Event
from pegboard.rules.facts import Report
from pegboard.rules.report import entry_report
from pegboard.rules.state import Award, GameState
from pegboard.rules.table import Table


class Node:
    """One point of a game's history: ``table`` after ``event`` (the root has no event).

    A node's table is never changed once the node exists: the engine applies every entry to a
    copy. ``state`` is the table's snapshot and ``report`` the entry's report, each made when
    first asked for (``pegged`` keeps the entry's awards for the report).
    """

    __slots__ = ("_report", "_state", "depth", "event", "parent", "pegged", "table")

    def __init__(
        self, parent: Node | None, event: Event | None, table: Table,
        pegged: tuple[Award, ...] = (),
    ) -> None:
        self.parent = parent
        self.event = event
        self.table = table
        self.pegged = pegged
        self.depth: int = 0 if parent is None else parent.depth + 1
        self._state: GameState | None = None
        # The report once made. A list, appended to once made and read at [0]: each of those
        # is one step for the interpreter, so two threads making it at once both give the one
        # appended first (the rules import no threading).
        self._report: list[Report] = []

    @property
    def report(self) -> Report | None:
        """The report of this node's entry (None for the root), made from the table before
        it (the parent's), the table after it and the awards it pegged."""
        made = self._report
        if not made:
            if self.parent is None or self.event is None:
                return None
            made.append(entry_report(self.parent.table, self.table, self.event, self.pegged))
        return made[0]

    @property
    def state(self) -> GameState:
        """The immutable snapshot of this node's table."""
        if self._state is None:
            self._state = self.table.snapshot()
        return self._state

    def lineage(self) -> Iterator[Node]:
        """This node and every node before it, newest first (the root last)."""
        node: Node | None = self
        while node is not None:
            yield node
            node = node.parent


class Entries(Sequence[Event]):
    """The entries in force of a game, newest last: a read-only view of its history.

    ``len`` and the last entry cost the same at any length; iterating walks the history once.
    Equal to another ``Entries`` or a tuple with the same entries.
    """

    __slots__ = ("_node",)

    def __init__(self, node: Node) -> None:
        self._node = node

    def __len__(self) -> int:
        return self._node.depth

    def _list(self) -> list[Event]:
        events = [node.event for node in self._node.lineage() if node.event is not None]
        events.reverse()
        return events

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Event, ...]: ...

    def __getitem__(self, index: int | slice) -> Event | tuple[Event, ...]:
        if isinstance(index, slice):
            return tuple(self._list()[index])
        length = self._node.depth
        if index < 0:
            index += length
        if not 0 <= index < length:
            raise IndexError("entry index out of range")
        for node in self._node.lineage():
            if node.depth == index + 1:
                assert node.event is not None
                return node.event
        raise IndexError("entry index out of range")  # pragma: no cover - depth is exact

    def __iter__(self) -> Iterator[Event]:
        return iter(self._list())

    def __reversed__(self) -> Iterator[Event]:
        return (node.event for node in self._node.lineage() if node.event is not None)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Entries):
            return same_entries(self._node, other._node)
        if isinstance(other, tuple):
            return tuple(self) == other
        return NotImplemented

    def __repr__(self) -> str:
        return f"Entries({self._list()!r})"


def same_entries(a: Node, b: Node) -> bool:
    """Whether two histories hold the same entries (they stop at a node they share)."""
    if a.depth != b.depth:
        return False
    for x, y in zip(a.lineage(), b.lineage(), strict=True):
        if x is y:
            return True
        if x.event != y.event:
            return False
    return True
