"""``pegboard stats``: statistics from the finished games, and the score race picture.

Games come from the store's history (``--store PATH``, else the usual store location) or
from record files (``--record FILE ...``, ``-`` for standard input). Every game is replayed
through the engine. ``--plot FILE`` draws a game's score race (``.png`` or ``.svg``; the
last game unless ``--game N``).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from pegboard.commands import paths
from pegboard.errors import PegboardError, RecordError, StoreError
from pegboard.record import decode_text
from pegboard.stats import (
    RACE_TITLE,
    GameSummary,
    Statistics,
    StatsError,
    Totals,
    compute,
    head_lines,
    learning_lines,
    race_line,
    replay_record,
)
from pegboard.store import FinishedGame, StoreReader, find_store_path
from pegboard.store.index import GameIndex, IndexedGame
from pegboard.ui.race import PLOT_FORMATS, PlotFormatError, write_plot

MAX_RECORD_BYTES = 16 << 20
"""The largest record file read (a best-of-99 match would be a few MiB)."""


def register(parser: argparse.ArgumentParser) -> None:
    """The ``stats`` command\'s arguments."""
    parser.add_argument("--store", metavar="PATH", help="the game store directory")
    parser.add_argument(
        "--record", metavar="FILE", nargs="+",
        help="read these game records instead of the store ('-' reads standard input)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument(
        "--plot", metavar="FILE", help="draw the score race to FILE (.png or .svg)"
    )
    parser.add_argument(
        "--game", metavar="N", type=_positive, help="the game to show or plot (1 = oldest)"
    )
    parser.set_defaults(func=run)


def _positive(text: str) -> int:
    try:
        value = int(text) if len(text) <= 12 else 0  # int() refuses 4,301 digits anyway
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(
            f"{paths.shown(text)} is not a game number: give 1 or more"
        )
    return value


def _from_records(names: list[str]) -> list[tuple[str, str]]:
    """Each named record's text; a file that is not UTF-8 is refused with its line and byte."""
    records = []
    for name in names:
        if name == "-":
            # The bytes underneath, decoded strictly whatever the locale (a test's StringIO
            # has no buffer and is text already).
            binary = getattr(sys.stdin, "buffer", None)
            if binary is None:
                records.append(("stdin", sys.stdin.read()))
            else:
                data = binary.read(MAX_RECORD_BYTES + 1)
                records.append(("stdin", _record_text(data, "stdin")))
            continue
        try:
            with open(name, "rb") as stream:
                data = stream.read(MAX_RECORD_BYTES + 1)
        except OSError as error:
            raise PegboardError(
                f"cannot read {paths.shown(name)}: {error.strerror or error}"
            ) from None
        records.append((name, _record_text(data, name)))
    return records


def _record_text(data: bytes, source: str) -> str:
    if len(data) > MAX_RECORD_BYTES:
        raise PegboardError(f"{source}: larger than {MAX_RECORD_BYTES >> 20} MiB; a game "
                            "record (JSON Lines) of even a long match is a few MiB")
    return decode_text(data, source)


def _check_plot(name: str) -> None:
    """``--plot``: a .png or .svg file in an existing, writable folder (checked before work)."""
    if Path(paths.path_name(name)).suffix.lower() not in PLOT_FORMATS:
        raise PlotFormatError(
            f"cannot plot to {paths.shown(name)}: the file name must end in .png or .svg"
        )
    paths.output_file(name)


def run(args: argparse.Namespace) -> int:
    """Compute and print the statistics; write the plot when asked."""
    # Every name on the command line first: a bad one fails before any game is replayed.
    for name in args.record or ():
        paths.input_name(name)
    if args.store:
        paths.folder(args.store)
    if args.plot:
        _check_plot(args.plot)
    shown: Callable[[GameSummary], str] = _json_game if args.json else race_line
    if args.record:
        # A record named on the command line must be right (few files, read whole).
        records = _from_records(args.record)
        report: _Report = _Listed(compute(records), shown)
    else:
        report = _FromStore(find_store_path(args.store), shown)
    with report:
        stats = report.statistics(args.game)
        if args.game is not None and report.chosen is None:
            raise StatsError(f"there is no game {args.game}: {report.count} game(s) were read")
        if args.plot:
            _plot(report.chosen or report.last, args.plot)
        if args.json:
            _write_json(stats, report.shown())
        else:
            _write_text(stats, report.shown(), report.count)
            learned = learning_lines(stats) if args.game is None else []
            if learned:
                print("\n".join(["", *learned]))
    return 0


def _json_game(summary: GameSummary) -> str:
    """One game of ``--json``'s ``games``, as it is written."""
    return _indented(summary.to_json(), 4)


class _Report:
    """Statistics and the games chosen to be shown, each as ``shown`` writes it."""

    chosen: GameSummary | None = None
    last: GameSummary | None = None
    count = 0

    def statistics(self, game: int | None) -> Statistics:
        raise NotImplementedError

    def shown(self) -> Iterator[str]:
        """What ``shown`` made of each game chosen (all, or the one ``--game`` names)."""
        raise NotImplementedError

    def __enter__(self) -> _Report:
        return self

    def __exit__(self, *exc_info: object) -> None:
        return None


class _Listed(_Report):
    """Records named on the command line, replayed into memory."""

    def __init__(self, stats: Statistics, shown: Callable[[GameSummary], str]) -> None:
        self.stats = stats
        self._shown = shown
        self._game: int | None = None
        self.count = len(stats.games)
        self.last = stats.games[-1] if stats.games else None

    def statistics(self, game: int | None) -> Statistics:
        self._game = game
        if game is not None and game <= self.count:
            self.chosen = self.stats.games[game - 1]
        return self.stats

    def shown(self) -> Iterator[str]:
        return (self._shown(g) for g in self.stats.games
                if self._game is None or g.number == self._game)


class _FromStore(_Report):
    """The store's finished games, each game's summaries read from its index once: folded
    into the statistics and, as they go by, what is shown of them written aside (to a
    temporary file past a megabyte), so that memory does not grow with the history. In the
    store one damaged game is reported and the others still count."""

    def __init__(self, path: Path, shown: Callable[[GameSummary], str]) -> None:
        self.path = path
        self._shown = shown
        self._aside = tempfile.SpooledTemporaryFile(  # noqa: SIM115 - closed on __exit__
            max_size=1 << 20, mode="w+", encoding="utf-8")
        try:
            self.reader = StoreReader(path)
            self.index = GameIndex(path)
        except OSError as error:
            self._aside.close()
            if isinstance(error, StoreError):
                raise
            raise StoreError(f"cannot read the store {path}: {error.strerror or error}"
                             ) from None

    def _summaries(self, notes: list[str]) -> Iterator[GameSummary]:
        abandoned: list[str] = []  # the first few, to name them
        skipped = 0
        number = 1
        finished: Iterator[FinishedGame | IndexedGame] = self.index.games()
        if self.reader.leftover is not None:
            finished = itertools.chain(finished, [self.reader.leftover])
        for game in finished:
            if game.abandoned:
                if len(abandoned) < 4:
                    abandoned.append(game.id)
                skipped += 1
                continue
            try:
                if isinstance(game, FinishedGame):
                    made = replay_record(game.records,
                                         source=f"store game {game.id}", first_number=number)
                else:
                    made = self.index.summaries(game, number)
            except RecordError as error:
                notes.append(f"left out: {error}")
                continue
            number += len(made)
            yield from made
        if skipped:
            shown = ", ".join(abandoned[:3]) + (", ..." if skipped > 3 else "")
            notes.append(f"{skipped} abandoned store game{'' if skipped == 1 else 's'} "
                         f"not counted ({shown})")
        if number == 1:
            notes.append(f"no finished games in the store {self.path}")

    def statistics(self, game: int | None) -> Statistics:
        notes = [*self.reader.notices, *self.index.notices]
        healed = len(self.index.notices)
        totals = Totals()
        for summary in self._summaries(notes):
            totals.add(summary)
            self.count += 1
            self.last = summary
            if summary.number == game:
                self.chosen = summary
            if game is None or summary.number == game:
                # One line each: what is shown may hold line breaks (--json's indented games).
                self._aside.write(json.dumps(self._shown(summary), ensure_ascii=False) + "\n")
        notes.extend(self.index.notices[healed:])  # kept summaries made again on the way
        return totals.statistics(notes=notes)

    def shown(self) -> Iterator[str]:
        self._aside.seek(0)
        return (json.loads(line) for line in self._aside)

    def __exit__(self, *exc_info: object) -> None:
        self._aside.close()
        self.index.close()


def _plot(summary: GameSummary | None, name: str) -> None:
    if summary is None:
        raise StatsError("nothing to plot: no games were read")
    try:
        written = write_plot(summary.race, name)
    except OSError as error:
        raise PegboardError(f"cannot write {name!r}: {error.strerror or error}") from None
    print(f"score race of game {summary.number} written to {written}", file=sys.stderr)


def _write_text(stats: Statistics, lines: Iterable[str], count: int) -> None:
    print("\n".join(head_lines(stats)))
    if count:
        print()
        print(RACE_TITLE)
        for line in lines:
            print(line)
    for note in stats.notes:
        print(f"note: {note}")


def _write_json(stats: Statistics, games: Iterable[str]) -> None:
    """The ``--json`` object, its games (each as :func:`_json_game` wrote it) one at a
    time."""
    whole = stats.to_json()
    out = sys.stdout
    out.write("{\n")
    for key in ("players", "first_dealer"):
        out.write(f"  {json.dumps(key)}: {_indented(whole[key])},\n")
    out.write('  "games": [')
    written = False
    for game in games:
        out.write((",\n    " if written else "\n    ") + game)
        written = True
    out.write("\n  ],\n" if written else "],\n")
    out.write(f'  "notes": {_indented(whole["notes"])}\n}}\n')


def _indented(value: object, depth: int = 2) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n" + " " * depth)
