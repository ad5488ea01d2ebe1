"""Count it yourself (teaching, the ``count_yourself`` table option): the owner's count is an
entry of the record.

At a table with teaching and count it yourself on, every hand and crib the engine pegs at
once (not one waiting for its owner's claim in a muggins game: the claim is the owner's
count) is *held* until its owner says their own count with an ``own_count`` entry, in show
order. Holding changes no score, since the count is pegged as it always is; it tells every
output that the count is not to be shown yet (:attr:`GameState.held_counts`, with the board as
it stood before the count), and the ``own_count`` entry's :class:`CountSaid` fact says it may
be shown, with what its owner said. Counts still held when the next deal starts lapse with
their deal; so do they when the option is turned off.
"""

from __future__ import annotations

from functools import partial

from pegboard.errors import RuleError
from pegboard.rules.events import OptionsChanged, OwnCount
from pegboard.rules.facts import ClaimOpened, Counted, CountSaid, ShowStep
from pegboard.rules.state import HeldCount, Reason
from pegboard.rules.table import Pegged, Table


def holds(t: Table) -> bool:
    """Whether this table holds its counts for their owners (teaching and count it
    yourself both on; never under the tournament lock, which gives no help)."""
    return t.options.teaching and t.options.count_yourself and not t.locked


def apply_option(t: Table, event: OptionsChanged) -> None:
    """An ``option`` entry: the table's options change; held counts lapse once the table no
    longer holds counts."""
    t.options = t.options.with_option(event)
    if not holds(t):
        t.held_counts = ()


def hold_counts(before: Table, t: Table) -> None:
    """After an entry: hold each hand and crib it pegged at once, with the board as it stood
    before that count (the last act pegged before it, else the board before the entry)."""
    if not holds(t):
        return
    scores, backs = tuple(before.scores), tuple(before.back_pegs)
    held = list(t.held_counts)
    # The facts noted to be made later are made here (the report makes its own, the same).
    notes = [note() if isinstance(note, partial) else note for note in t.notes]
    for at, note in enumerate(notes):
        if isinstance(note, Pegged):
            scores, backs = note.scores, note.back_pegs
        elif isinstance(note, ShowStep):
            following = notes[at + 1] if at + 1 < len(notes) else None
            if isinstance(following, ClaimOpened):
                continue  # its owner's claim is their count
            reason = Reason.CRIB if note.counted is Counted.CRIB else Reason.HAND
            held.append(HeldCount(note.player, reason, note.total, scores, backs, note.items))
    t.held_counts = tuple(held)


def apply_own_count(t: Table, event: OwnCount) -> None:
    """The owner of the first count held says theirs (RuleError when no count is held, or
    when another player's count comes first); nothing is pegged."""
    if not t.held_counts:
        raise RuleError("no count is waiting for its owner's own count (own_count comes "
                        "after a hand or crib is counted, with count it yourself on)")
    first = t.held_counts[0]
    if event.player != first.player:
        what = "crib" if first.reason is Reason.CRIB else "hand"
        raise RuleError(f"{t.names[first.player]} counts their {what} first, not "
                        f"{t.names[event.player] if event.player < t.n else event.player}")
    t.held_counts = t.held_counts[1:]
    counted = Counted.CRIB if first.reason is Reason.CRIB else Counted.HAND
    t.notes.append(CountSaid(first.player, counted, event.points, first.points))
