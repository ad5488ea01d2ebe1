"""``pegboard stats``: statistics from the finished games, and the score race picture.

Games come from the store's history (``--store PATH``, else the usual store location) or
from record files (``--record FILE ...``, ``-`` for standard input). Every game is replayed
through the engine. ``--plot FILE`` draws a game's score race (``.png`` or ``.svg``; the
last game unless ``--game N``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from pegboard.commands import paths
from pegboard.errors import PegboardError, StoreError
from pegboard.record import decode_text
from pegboard.stats import Statistics, StatsError, compute, format_text
from pegboard.store import StoreReader, find_store_path
from pegboard.ui.race import PLOT_FORMATS, PlotFormatError, write_plot

MAX_RECORD_BYTES = 16 << 20
"""The largest record file read (a best-of-99 match would be a few MiB)."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``stats`` subcommand."""
    parser = subparsers.add_parser(
        "stats",
        help="statistics of finished games (wins, skunks, averages, score race)",
        description=(
            "Statistics per player or partnership from the store's finished games, or from "
            "record files with --record."
        ),
    )
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


def _from_store(store: str | None) -> tuple[list[tuple[str, str]], list[str]]:
    path = find_store_path(store)
    try:
        reader = StoreReader(path)
        history = reader.history()
    except OSError as error:
        if isinstance(error, StoreError):
            raise
        raise StoreError(f"cannot read the store {path}: {error.strerror or error}") from None
    notes = list(reader.notices)
    records = []
    for game in history:
        if game.abandoned:
            notes.append(f"store game {game.id} was abandoned: not counted")
            continue
        records.append((f"store game {game.id}", game.record))
    if not records:
        notes.append(f"no finished games in the store {path}")
    return records, notes


def run(args: argparse.Namespace) -> int:
    """Compute and print the statistics; write the plot when asked."""
    notes: list[str] = []
    # Every name on the command line first: a bad one fails before any game is replayed.
    for name in args.record or ():
        paths.input_name(name)
    if args.store:
        paths.folder(args.store)
    if args.plot:
        _check_plot(args.plot)
    if args.record:
        records = _from_records(args.record)
    else:
        records, notes = _from_store(args.store)
    # A record named on the command line must be right; in the store, one damaged game is
    # reported and the others still count.
    stats = compute(records, skip_bad=not args.record)
    stats = Statistics(
        stats.sides, stats.games, stats.first_dealer_games, stats.first_dealer_wins,
        (*notes, *stats.notes),
    )
    chosen = None
    if args.game is not None:
        if args.game > len(stats.games):
            raise StatsError(
                f"there is no game {args.game}: {len(stats.games)} game(s) were read"
            )
        chosen = stats.games[args.game - 1]
    if args.plot:
        if not stats.games:
            raise StatsError("nothing to plot: no games were read")
        summary = chosen or stats.games[-1]
        try:
            written = write_plot(summary.race, args.plot)
        except OSError as error:
            raise PegboardError(
                f"cannot write {args.plot!r}: {error.strerror or error}"
            ) from None
        print(f"score race of game {summary.number} written to {written}", file=sys.stderr)
    if args.json:
        print(json.dumps(stats.to_json(game=args.game), ensure_ascii=False, indent=2))
    else:
        print(format_text(stats, game=args.game), end="")
    return 0
