"""Deciding what of a log file can be kept as a game (pure: bytes in, a plan out).

A game is never lost to one bad line. The rules, in order:

- The good lines are the longest prefix with valid checksums and consecutive sequence
  numbers (:func:`pegboard.store.logfile.scan`). A damaged **last** line is a torn write that
  was never acknowledged: it is cut off and nothing is reported as lost.
- When a ``check`` is given (the engine's judgement, see :mod:`pegboard.store.replay`), the
  kept lines stop before the first line it refuses: a record written by an older release, or
  edited by hand, that the engine cannot replay.
- Damage or a refusal in the middle of a game: the lines before it are restored as the game,
  when they hold at least one entry after the header, and the whole file is kept, byte for
  byte, in ``aside/``. With nothing to restore (the header is damaged or refused, or no entry
  precedes the damage), the whole file is set aside and a new game can start.

Every such decision is a :class:`Recovery`, which says the same thing on the screen, in the
journal and in ``pegboard game status``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pegboard.rules.value import Value
from pegboard.store.games import (
    CurrentGame,
    FinishedGame,
    game_from_entries,
    header_problem,
)
from pegboard.store.logfile import count_lines, decode_any, scan

Check = Callable[[Sequence[Mapping[str, Any]]], tuple[int, str | None]]
"""The engine's judgement of a game's record lines (header first, each the JSON object its log
line holds): how many of them it accepts from the start, and why it stopped (None when it
accepted them all)."""

MIN_RESTORED = 2
"""A partly restored game holds its header and at least one entry; less is a new game."""


class Recovery(Value):
    """What was done with a game that could not be read whole.

    ``restored`` lines (header included) of the ``total`` in the file are the game now; 0 when
    the whole file was set aside. ``kept_as`` is where the whole file is kept (relative to the
    store); None when only a reader has seen the damage, before a writer acts on it.
    """

    __slots__ = ("game_id", "kept_as", "reason", "restored", "total")
    __match_args__ = ("game_id", "restored", "total", "reason", "kept_as")

    game_id: str | None
    restored: int
    total: int
    reason: str
    kept_as: str | None

    def __init__(
        self,
        game_id: str | None,
        restored: int,
        total: int,
        reason: str,
        kept_as: str | None = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "game_id", game_id)
        setter(self, "restored", restored)
        setter(self, "total", total)
        setter(self, "reason", reason)
        setter(self, "kept_as", kept_as)

    @property
    def label(self) -> str:
        """How the messages name the game."""
        return f"Game {self.game_id}" if self.game_id else "The unfinished game"

    def message(self) -> str:
        """One line for the journal, ``pegboard game status`` and the command line."""
        if self.kept_as is None:
            if self.restored:
                return (f"{self.label}: {self.reason}; when Pegboard next opens the store it "
                        f"restores the game to line {self.restored} of {self.total} and keeps "
                        "the whole file aside")
            return (f"{self.label} cannot be read ({self.reason}); when Pegboard next opens "
                    "the store it keeps the file aside and a new game can start")
        if self.restored:
            return (f"{self.label}: restored to line {self.restored} of {self.total}: "
                    f"{self.reason}. The whole game is kept as {self.kept_as} "
                    "(`pegboard game repair` shows it)")
        return (f"{self.label} could not be read ({self.reason}); it is kept as "
                f"{self.kept_as} (`pegboard game repair` shows it); a new game can start")

    def screen(self) -> tuple[str, ...]:
        """The device's notice: a title, then its lines."""
        if self.restored:
            return ("Game restored in part",
                    f"Restored to line {self.restored} of {self.total}: {self.reason}.",
                    f"The whole game is kept as {self.kept_as}.")
        return ("Game not restored",
                f"{self.label} could not be read: {self.reason}.",
                f"Kept as {self.kept_as}.", "OK for a new game.")

    def note(self) -> dict[str, Any]:
        """What the restored game's first log line keeps of this (``recovered``)."""
        return {"kept_as": self.kept_as, "restored": self.restored, "of": self.total,
                "reason": self.reason}

    @classmethod
    def from_note(cls, game_id: str, note: Mapping[str, Any] | None) -> Recovery | None:
        """The recovery a restored game's ``recovered`` note describes (None if none)."""
        if not note:
            return None
        restored, total = note.get("restored"), note.get("of")
        kept_as = note.get("kept_as")
        return cls(game_id, restored if isinstance(restored, int) else 0,
                   total if isinstance(total, int) else 0, str(note.get("reason", "")),
                   kept_as if isinstance(kept_as, str) else None)


class Plan(Value):
    """What to keep of one log file."""

    __slots__ = ("dropped", "entries", "game_id", "problem", "torn", "total")
    __match_args__ = ("entries", "total", "torn", "problem", "game_id", "dropped")

    entries: list[dict[str, Any]]  # the log entries kept (empty: none)
    total: int  # lines in the file
    torn: int  # bytes of torn tail to cut off (only when nothing else is wrong)
    problem: str | None  # why the lines after the kept ones are not used
    game_id: str | None
    dropped: tuple[tuple[int, bytes], ...]  # damaged lines skipped (line number, bytes)

    def __init__(
        self,
        entries: list[dict[str, Any]],
        total: int,
        torn: int,
        problem: str | None,
        game_id: str | None,
        dropped: tuple[tuple[int, bytes], ...] = (),
    ) -> None:
        setter = object.__setattr__
        setter(self, "entries", entries)
        setter(self, "total", total)
        setter(self, "torn", torn)
        setter(self, "problem", problem)
        setter(self, "game_id", game_id)
        setter(self, "dropped", dropped)

    def game_at(self, path: Path) -> CurrentGame | FinishedGame | None:
        """The kept lines as the game in the file at ``path`` (None when none are kept)."""
        return game_from_entries(self.entries, path) if self.entries else None

    @property
    def whole(self) -> bool:
        """Whether everything acknowledged in the file is kept."""
        return self.problem is None and not self.dropped

    def recovery(self, kept_as: str | None) -> Recovery:
        """This plan's problem as a recovery, the whole file kept as ``kept_as``."""
        reason = self.problem or "damaged lines were left out"
        if self.dropped:
            skipped = ", ".join(str(number) for number, _ in self.dropped)
            reason = f"damaged lines {skipped} were left out" + (
                f"; then {self.problem}" if self.problem else "")
        return Recovery(self.game_id, len(self.entries), self.total, reason, kept_as)


def _game_id(entries: list[dict[str, Any]]) -> str | None:
    if not entries or header_problem(entries) is not None:
        return None
    game_id = entries[0].get("id")
    return game_id if isinstance(game_id, str) else None


def plan(data: bytes, check: Check | None = None) -> Plan:
    """What of a log file to keep (see the module's rules)."""
    found = scan(data)
    total = count_lines(data)
    entries = found.entries
    if not entries:
        return Plan([], total, found.torn_bytes, found.damaged, None)
    bad_header = header_problem(entries)
    if bad_header is not None:
        return Plan([], total, 0, bad_header, None)
    problem = found.damaged
    if found.damaged_line:
        problem = found.line_problem
        if found.damaged == "a line follows the finish line":
            problem = f"line {found.damaged_line} follows the finish line"
    return _judged(entries, total, found.torn_bytes if problem is None else 0, problem,
                   check, ())


def _judged(entries: list[dict[str, Any]], total: int, torn: int, problem: str | None,
            check: Check | None, dropped: tuple[tuple[int, bytes], ...]) -> Plan:
    game_id = _game_id(entries)
    if check is not None and "finish" not in entries[-1]:
        accepted, why = check([entry["record"] for entry in entries])
        if accepted < len(entries):
            entries = entries[:accepted]
            problem = why or f"line {accepted + 1} could not be replayed"
            torn = 0
    if problem is not None and len(entries) < MIN_RESTORED:
        return Plan([], total, 0, problem, game_id, dropped)
    return Plan(entries, total, torn, problem, game_id, dropped)


def plan_skipping_damage(data: bytes, check: Check | None = None) -> Plan:
    """Like :func:`plan`, but damaged lines are left out and the intact ones after them kept
    (renumbered), up to the first line the ``check`` refuses.

    For ``pegboard game restore --skip-damaged``: a person decides that the game without the
    damaged lines (shown to them) is better than the game cut at the first one.
    """
    entries: list[dict[str, Any]] = []
    dropped: list[tuple[int, bytes]] = []
    raws = data.split(b"\n")
    complete, tail = raws[:-1], raws[-1]
    for number, raw in enumerate(complete, start=1):
        entry = decode_any(raw)
        in_order = entry is not None and (
            entry["seq"] > entries[-1]["seq"] if entries else entry["seq"] == 0)
        if entry is None or not in_order or (entries and "finish" in entries[-1]):
            if raw.strip(b"\0 "):
                dropped.append((number, raw))
            continue
        entries.append(entry)
    total = count_lines(data)
    torn = len(tail)  # an unfinished last line is a torn write, never acknowledged
    if not entries:
        return Plan([], total, torn, "no line can be read", None, tuple(dropped))
    bad_header = header_problem(entries)
    if bad_header is not None:
        return Plan([], total, 0, bad_header, None, tuple(dropped))
    entries = [{**entry, "seq": seq} for seq, entry in enumerate(entries)]
    return _judged(entries, total, torn, None, check, tuple(dropped))
