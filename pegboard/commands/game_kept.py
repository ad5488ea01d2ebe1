"""``pegboard game export|list|repair|restore``: the games the store keeps, finished or set
aside (see :mod:`pegboard.commands.game`)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable, Iterator
from typing import Any

from pegboard.commands.game_session import open_reader, open_store, say
from pegboard.errors import StoreError
from pegboard.store import AsideGame, CurrentGame, FinishedGame, StoreReader
from pegboard.store.index import GameIndex, IndexedGame


def _index(args: argparse.Namespace, reader: StoreReader) -> GameIndex:
    """The store's index of finished games, caught up with its history."""
    index = GameIndex(reader.directory)
    say(index.notices)
    return index


def run_export(args: argparse.Namespace) -> int:
    """Print a game's record as JSON Lines."""
    reader = open_reader(args)
    current = reader.current()
    say(reader.notices)
    if args.id:
        for game in (current, reader.leftover):
            if game is not None and game.id == args.id:
                sys.stdout.write(game.record)
                return 0
        with _index(args, reader) as index:
            found = index.find(args.id)
            if found is None:
                problem = index.problem(args.id)
                if problem is not None:  # a damaged file: nothing to export, for good
                    raise StoreError(f"game {args.id} cannot be exported: {problem}")
                raise StoreError(f"no game {args.id!r} in the store; `pegboard game list` "
                                 "shows them")
            sys.stdout.write(index.read(found).record)
        return 0
    if current is None:
        raise StoreError("no game in progress; export a finished one with --id "
                         "(see `pegboard game list`)")
    sys.stdout.write(current.record)
    return 0


def _when(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(seconds))


def _finished(index: GameIndex, reader: StoreReader) -> Iterator[IndexedGame | FinishedGame]:
    """Every finished game, oldest first: the index's, then one not yet moved into history."""
    yield from index.games()
    if reader.leftover is not None:
        yield reader.leftover


def run_list(args: argparse.Namespace) -> int:
    """List finished games (oldest first) and the game in progress, one line at a time."""
    reader = open_reader(args)
    current = reader.current()
    say(reader.notices)
    with _index(args, reader) as index:
        if args.json:
            _list_json(_finished(index, reader), current)
        else:
            _list_text(_finished(index, reader), current)
    return 0


def _list_json(history: Iterable[IndexedGame | FinishedGame], current: CurrentGame | None
               ) -> None:
    """A JSON list written row by row (the history is never held whole)."""
    out = sys.stdout
    out.write("[")
    first = True
    for game in history:
        row = {"id": game.id, "players": game.players, "rules": game.rules,
               "started_at": game.started_at, "finished_at": game.finished_at,
               "events": game.events, "result": game.result}
        out.write(("" if first else ", ") + json.dumps(row, ensure_ascii=False))
        first = False
    if current is not None:
        row = {"id": current.id, "players": current.players, "rules": current.rules,
               "started_at": current.started_at, "finished_at": None,
               "events": current.events, "result": None}
        out.write(("" if first else ", ") + json.dumps(row, ensure_ascii=False))
    out.write("]\n")


def _list_text(history: Iterable[IndexedGame | FinishedGame], current: CurrentGame | None
               ) -> None:
    listed = False
    for game in history:
        listed = True
        scores = "-".join(str(score) for score in game.result.get("scores", []))
        outcome = "abandoned" if game.abandoned else "finished"
        print(f"{game.id}  {_when(game.started_at)}  {' v '.join(map(str, game.players))}  "
              f"{scores}  {outcome}")
    if current is not None:
        print(f"{current.id}  {_when(current.started_at)}  "
              f"{' v '.join(map(str, current.players))}  in progress ({current.events} lines)")
    elif not listed:
        print("No games yet.")


def run_repair(args: argparse.Namespace) -> int:
    """List the set-aside games: what is wrong with each and what ``restore`` brings back."""
    reader = open_reader(args)
    games = reader.set_aside()
    say(reader.notices)
    if args.json:
        print(json.dumps([_aside_json(game) for game in games], ensure_ascii=False))
        return 0
    if not games:
        print("No games set aside.")
    for game in games:
        for line in _aside_lines(game):
            print(line)
    return 0


def _aside_json(game: AsideGame) -> dict[str, Any]:
    return {"name": game.name, "id": game.game_id, "players": game.players,
            "started_at": game.started_at, "written_by": game.written_by,
            "lines": game.total, "restorable": game.restorable,
            "skipping_damaged": game.skipping, "problem": game.problem,
            "damaged": [{"line": number, "text": raw.decode("utf-8", "replace")}
                        for number, raw in game.dropped],
            "error": game.error}


def _aside_lines(game: AsideGame) -> list[str]:
    if game.error is not None:
        return [f"{game.name}  cannot be read: {game.error}"]
    when = _when(game.started_at) if game.started_at is not None else "?"
    players = " v ".join(map(str, game.players)) or "?"
    writer = f"  (written by pegboard {game.written_by})" if game.written_by else ""
    lines = [f"{game.name}  {when}  {players}{writer}",
             f"  {game.total} lines" + (f"; {game.problem}" if game.problem else "")]
    if game.restorable == game.total and not game.problem:
        lines.append(f"  `pegboard game restore {game.name}` brings it back whole")
    elif game.restorable:
        lines.append(f"  `pegboard game restore {game.name}` brings back lines 1-"
                     f"{game.restorable}")
    else:
        lines.append("  nothing can be restored up to the first problem")
    if game.dropped and game.skipping > game.restorable:
        numbers = ", ".join(str(number) for number, _ in game.dropped)
        lines.append(f"  with --skip-damaged: {game.skipping} lines, leaving out line "
                     f"{numbers}")
    for number, raw in game.dropped[:5]:
        lines.append(f"  line {number}: {raw[:160].decode('utf-8', 'replace')!r}")
    return lines


def run_restore(args: argparse.Namespace) -> int:
    """Bring a set-aside game back as the game in progress."""
    with open_store(args, "pegboard game restore") as store:
        done = store.restore(args.name, skip_damaged=args.skip_damaged,
                             set_aside_current=args.set_aside_current)
    if done.moved is not None:
        print(f"pegboard game: the game that was in progress is kept as aside/"
              f"{done.moved.name}; `pegboard game restore {done.moved.stem}` brings it back",
              file=sys.stderr)
    game = done.game
    players = " v ".join(map(str, game.players))
    if done.recovery is None:
        print(f"Restored {args.name} ({players}), all {len(game.records)} lines.")
    else:
        print(f"Restored {args.name} ({players}) to line {done.recovery.restored} of "
              f"{done.recovery.total}: {done.recovery.reason}. The whole file stays in "
              f"{done.recovery.kept_as}.")
    if isinstance(game, FinishedGame):
        print("It was finished, so it is in the history now (`pegboard game list`).")
    return 0
