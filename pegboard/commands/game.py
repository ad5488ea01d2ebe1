"""``pegboard game new|add|undo|status|export|list|repair|restore``: the store from a shell.

The same store the device uses (found from ``--store``, ``$PEGBOARD_STORE``, the service's
``$STATE_DIRECTORY``, else ``~/.local/share/pegboard``). Every change is checked by the game
engine first and written to disk before the command exits 0; an illegal entry exits 2 with the
engine's message and leaves the store exactly as it was. Only one writer at a time: while the
device runs, ``add``/``new``/``undo``/``restore`` say which process holds the store, and
``status``, ``export``, ``list`` and ``repair`` still work (they only read). A game that could
not be read whole is kept in the store's ``aside/`` folder: ``repair`` lists those games and
what can be brought back of each, ``restore`` brings one back.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable, Iterator
from typing import Any

from pegboard.errors import RecordError, StoreError
from pegboard.record import decode_text, parse_line, result_json
from pegboard.rules.events import Event, GameHeader
from pegboard.rules.game import Game
from pegboard.rules.state import Award, GameState
from pegboard.store import (
    AsideGame,
    CurrentGame,
    FinishedGame,
    Recovery,
    Store,
    StoreReader,
    check_id,
    find_store_path,
    parse_record_line,
)
from pegboard.store.index import GameIndex, IndexedGame
from pegboard.store.replay import EngineCheck, replay


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``game`` subcommand and its actions."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--store", metavar="PATH",
        help="the store directory (default: $PEGBOARD_STORE, the service's state directory, "
        "else ~/.local/share/pegboard)",
    )
    parser = subparsers.add_parser(
        "game", help="start, record, undo and inspect games in the durable store",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    new = actions.add_parser(
        "new", parents=[common], help="start a game from its record header line",
        description='Start a game from its header, e.g. \'{"type": "game", "players": '
        '["Ann", "Ben"], "rules": {"target": 121}}\'. A game in progress is kept in the '
        "history (as finished, or abandoned if it was not over).",
    )
    new.add_argument("line", nargs="?", default="-", help="the header line, or - for stdin")
    new.set_defaults(func=run_new)
    add = actions.add_parser(
        "add", parents=[common], help="record one event line (exit 0 once it is on disk)",
        description='Record one event, e.g. \'{"type": "play", "player": 1, "card": "5C"}\'.',
    )
    add.add_argument("line", nargs="?", default="-", help="the event line, or - for stdin")
    add.set_defaults(func=run_add)
    undo = actions.add_parser("undo", parents=[common], help="take back the last event")
    undo.set_defaults(func=run_undo)
    status = actions.add_parser("status", parents=[common], help="scores and whose turn it is")
    status.add_argument("--json", action="store_true", help="print a JSON object")
    status.set_defaults(func=run_status)
    export = actions.add_parser(
        "export", parents=[common], help="print a game's record (for pegboard replay)",
    )
    export.add_argument("--id", type=_game_id,
                        help="a finished game from `pegboard game list` (default: the "
                        "game in progress)")
    export.set_defaults(func=run_export)
    listing = actions.add_parser("list", parents=[common], help="list the games in the store")
    listing.add_argument("--json", action="store_true", help="print a JSON list")
    listing.set_defaults(func=run_list)
    repair = actions.add_parser(
        "repair", parents=[common], help="list the games set aside and what can be restored",
        description="List the games kept in the store's aside/ folder because they could not "
        "be read whole (a damaged line, or a record this release cannot replay): what is wrong "
        "with each, how much `restore` brings back, and the damaged lines themselves.",
    )
    repair.add_argument("--json", action="store_true", help="print a JSON list")
    repair.set_defaults(func=run_repair)
    restore_parser = actions.add_parser(
        "restore", parents=[common], help="bring a set-aside game back as the game in progress",
        description="Bring a game from `pegboard game repair` back as the game in progress: "
        "every line up to the first damaged or refused one. When all of it comes back it "
        "leaves aside/; otherwise the whole file stays there. A game in progress is never "
        "overwritten: the restore is refused unless --set-aside-current moves it to aside/.",
    )
    restore_parser.add_argument("name", type=_aside_name, help="the set-aside game's name")
    restore_parser.add_argument(
        "--skip-damaged", action="store_true",
        help="leave damaged lines out and keep the intact lines after them (repair shows "
        "what each damaged line held; check the scores afterwards)",
    )
    restore_parser.add_argument(
        "--set-aside-current", action="store_true",
        help="move the game in progress to aside/ first (it can be restored in turn)",
    )
    restore_parser.set_defaults(func=run_restore)


def _game_id(text: str) -> str:
    try:
        return check_id(text)
    except StoreError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _aside_name(text: str) -> str:
    try:
        return check_id(text, "set-aside game name")
    except StoreError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


# -- the engine over the store ----------------------------------------------------------------


def restore(current: CurrentGame, check: object = None) -> Game:
    """The stored game in the engine (StoreError if the engine refuses a line): the game the
    store's :class:`EngineCheck` replayed when it was opened, else the record replayed now."""
    done = check.take(current.records) if isinstance(check, EngineCheck) else None
    replayed = done or replay(current.records)
    if replayed.problem is not None or replayed.game is None:
        raise StoreError(
            f"the game in {current.path} cannot be replayed ({replayed.problem}); the next "
            "`pegboard run` or `pegboard game` change restores what it can and keeps the "
            "whole game aside"
        )
    return replayed.game


def result_of(game: Game) -> dict[str, Any]:
    """What the history keeps as the result of a game or match (see
    :func:`pegboard.record.result_json`)."""
    return result_json(game.state)


def status_of(game: Game, current: CurrentGame) -> dict[str, Any]:
    """The ``status --json`` object."""
    state: GameState = game.state
    return {
        "id": current.id,
        "players": list(state.names),
        "scores": list(state.scores),
        "events": len(game.events),
        "recorded": current.events,
        "winner": state.winner,
        "to_act": state.to_act,
        "phase": state.phase.value,
        "game": state.game_no,
        "deal": state.deal_no,
        "dealer": state.dealer,
        "count": state.count,
        "result": state.result.to_json() if state.result is not None else None,
    }


class GameSession:
    """A writable store with its current game replayed by the engine, kept in step with it.

    Every change is checked by the engine first and then written durably; when the write
    fails the engine's game is rebuilt from the store, so the two never disagree.
    """

    def __init__(self, store: Store, *, lenient: bool = False) -> None:
        """Replay the store's current game; ``lenient`` tolerates one that cannot be replayed
        (for starting a new game over it: it is then kept in the history as unreadable)."""
        self.store = store
        self.game: Game | None = None
        self.problem: str | None = None
        current = store.current()
        if current is not None:
            try:
                self.game = restore(current, store.check)
            except StoreError as error:
                if not lenient:
                    raise
                self.problem = str(error)

    def new(self, header_text: str) -> FinishedGame | None:
        """Check a header with the engine and start its game; the old one goes to history."""
        header = parse_line(header_text, 1)
        if not isinstance(header, GameHeader):
            raise RecordError(
                'line 1: a new game starts with its header, {"type": "game", "players": [...]}'
            )
        game = Game.from_header(header)
        record = parse_record_line(header_text)
        previous = self.store.current()
        kept: FinishedGame | None = None
        if previous is not None:
            if self.game is not None:
                result = result_of(self.game)
            else:
                result = {"abandoned": True, "unreadable": self.problem}
            kept = self.store.finish(result)
            self.game = None
        self.store.new_game(record)
        self.game = game
        return kept

    def add(self, line_text: str) -> tuple[Award, ...]:
        """Check one event with the engine, then record it durably; the awards it pegged.

        An illegal or unreadable event raises before anything is written.
        """
        current = self.store.current()
        if current is None:
            raise StoreError("no game in progress: start one with `pegboard game new`")
        if self.game is None:
            self.game = restore(current)  # raises if the stored game cannot be replayed
        number = len(current.lines) + 1
        item = parse_line(line_text, number)
        if isinstance(item, GameHeader):
            raise RecordError(
                f"line {number}: a game line starts a new game: use `pegboard game new`"
            )
        record = parse_record_line(line_text)
        event: Event = item
        awards = self.game.apply(event)
        try:
            self.store.append(record)
        except BaseException:
            self.game = restore(current)
            raise
        return awards

    def status(self) -> dict[str, Any] | None:
        """The ``status --json`` object of the current game, or None."""
        current = self.store.current()
        if current is None or self.game is None:
            return None
        return status_of(self.game, current)


# -- the commands -----------------------------------------------------------------------------


def _read_line(argument: str, what: str) -> str:
    if argument != "-":
        return argument
    # Read bytes: a line that is not UTF-8 is named with its byte, not a traceback.
    text = decode_text(sys.stdin.buffer.read(), "standard input")
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) != 1:
        raise RecordError(f"expected exactly one {what} line on stdin, got {len(lines)}")
    return lines[0]


def _open(args: argparse.Namespace, owner: str) -> Store:
    store = Store(find_store_path(args.store), owner=owner, check=EngineCheck())
    for notice in store.notices:
        print(f"pegboard game: {notice}", file=sys.stderr)
    return store


def _reader(args: argparse.Namespace) -> StoreReader:
    return StoreReader(find_store_path(args.store), check=EngineCheck())


def _recovery_of(reader: StoreReader) -> str | None:
    """What happened to the unfinished game, as the device said it (None: nothing)."""
    current = reader.current()
    if reader.recoveries:
        return "; ".join(recovery.message() for recovery in reader.recoveries)
    if current is not None:
        recovery = Recovery.from_note(current.id, current.recovered)
        return recovery.message() if recovery is not None else None
    return None


def _aside_summary(game: AsideGame) -> str:
    """One line on a set-aside game, for ``status`` when no game is in progress."""
    if game.error is not None:
        return f"{game.path} cannot be read: {game.error}"
    kept_as = f"aside/{game.path.name}"
    if game.restorable:
        return (f"Game {game.name} is set aside ({game.problem or 'whole'}); `pegboard game "
                f"restore {game.name}` brings back {game.restorable} of its {game.total} lines")
    return Recovery(game.game_id or game.name, 0, game.total,
                    game.problem or "it cannot be read", kept_as).message()


def _print_awards(awards: Iterable[Award]) -> None:
    for award in awards:
        print(award.sentence)


def run_new(args: argparse.Namespace) -> int:
    """Start a game from its header line."""
    text = _read_line(args.line, "header")
    with _open(args, "pegboard game new") as store:
        session = GameSession(store, lenient=True)
        kept = session.new(text)
        game = session.game
        if kept is not None:
            how = "abandoned" if kept.abandoned else "finished"
            print(f"pegboard game: the previous game ({kept.id}) was kept in the history as "
                  f"{how}", file=sys.stderr)
        current = store.current()
    assert current is not None and game is not None
    print(f"New game {current.id}: {' v '.join(game.names)}")
    return 0


def run_add(args: argparse.Namespace) -> int:
    """Record one event; exit 0 only once it is on disk."""
    text = _read_line(args.line, "event")
    with _open(args, "pegboard game add") as store:
        awards = GameSession(store).add(text)
    _print_awards(awards)
    return 0


def run_undo(args: argparse.Namespace) -> int:
    """Take back the last event (recorded as an undo line; nothing is erased)."""
    with _open(args, "pegboard game undo") as store:
        GameSession(store).add('{"type": "undo"}')
    return 0


def run_status(args: argparse.Namespace) -> int:
    """Print the scores, whose turn it is and how many events are in force."""
    reader = _reader(args)
    current = reader.current()
    recovery = _recovery_of(reader)
    said = {recovery.message() for recovery in reader.recoveries}
    for notice in reader.notices:
        if notice not in said:  # e.g. a current.log that is not a regular file
            print(f"pegboard game: {notice}", file=sys.stderr)
    if current is None:
        aside = [] if recovery else reader.set_aside()
        notes = [recovery] if recovery else [_aside_summary(game) for game in aside]
        if args.json:
            print(json.dumps({"id": None, "scores": [], "events": 0, "winner": None,
                              "to_act": None, "recovery": "; ".join(notes) or None,
                              "set_aside": [game.name for game in aside]},
                             ensure_ascii=False))
        else:
            print("No game in progress.")
            for note in notes:
                print(note)
        return 0
    game = restore(current, reader.check)
    status = status_of(game, current)
    if args.json:
        status["recovery"] = recovery
        print(json.dumps(status, ensure_ascii=False))
        return 0
    names = game.state.names
    sides = [
        " & ".join(name for seat, name in enumerate(names) if game.side_of(seat) == side)
        for side in range(len(status["scores"]))
    ]
    print("  ".join(f"{side} {score}" for side, score in zip(sides, status["scores"],
                                                               strict=True)))
    if status["winner"] is not None:
        print(f"{sides[status['winner']]} won.")
    elif status["to_act"] is not None:
        print(f"{names[status['to_act']]} to act ({status['phase']}).")
    else:
        print(f"Waiting for: {status['phase']}.")
    print(f"{status['events']} events in force ({status['recorded']} lines recorded).")
    if recovery:
        print(recovery)
    return 0


def _index(args: argparse.Namespace, reader: StoreReader) -> GameIndex:
    """The store's index of finished games, caught up with its history."""
    index = GameIndex(reader.directory)
    for notice in index.notices:
        print(f"pegboard game: {notice}", file=sys.stderr)
    return index


def run_export(args: argparse.Namespace) -> int:
    """Print a game's record as JSON Lines."""
    reader = _reader(args)
    current = reader.current()
    for notice in reader.notices:
        print(f"pegboard game: {notice}", file=sys.stderr)
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
    reader = _reader(args)
    current = reader.current()
    for notice in reader.notices:
        print(f"pegboard game: {notice}", file=sys.stderr)
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
    reader = _reader(args)
    games = reader.set_aside()
    for notice in reader.notices:
        print(f"pegboard game: {notice}", file=sys.stderr)
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
    with _open(args, "pegboard game restore") as store:
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
