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
from collections.abc import Callable, Iterable

from pegboard.commands import paths
from pegboard.commands.game_kept import run_export, run_list, run_repair, run_restore
from pegboard.commands.game_session import (
    GameSession,
    open_reader,
    open_store,
    restore,
    result_of,
    status_of,
)
from pegboard.errors import RecordError
from pegboard.record import decode_text
from pegboard.rules.state import Award
from pegboard.store import AsideGame, Recovery, StoreReader, check_id

__all__ = ["GameSession", "register", "restore", "result_of", "status_of"]


def register(parser: argparse.ArgumentParser) -> None:
    """The ``game`` command\'s actions and their arguments."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--store", metavar="PATH",
        help="the store directory (default: $PEGBOARD_STORE, the service's state directory, "
        "else ~/.local/share/pegboard)",
    )
    parser.description = __doc__.split("\n\n")[1] if __doc__ else None
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    def action(name: str, run: Callable[[argparse.Namespace], int], summary: str,
               description: str | None = None) -> argparse.ArgumentParser:
        """An action's parser: the store option, its words and what it runs."""
        sub = actions.add_parser(name, parents=[common], help=summary, description=description)
        sub.set_defaults(func=run)
        return sub

    new = action(
        "new", run_new, "start a game from its record header line",
        'Start a game from its header, e.g. \'{"type": "game", "players": '
        '["Ann", "Ben"], "rules": {"target": 121}}\'. A game in progress is kept in the '
        "history (as finished, or abandoned if it was not over).",
    )
    new.add_argument("line", nargs="?", default="-", help="the header line, or - for stdin")
    add = action(
        "add", run_add, "record one event line (exit 0 once it is on disk)",
        'Record one event, e.g. \'{"type": "play", "player": 1, "card": "5C"}\'.',
    )
    add.add_argument("line", nargs="?", default="-", help="the event line, or - for stdin")
    action("undo", run_undo, "take back the last event")
    status = action("status", run_status, "scores and whose turn it is")
    status.add_argument("--json", action="store_true", help="print a JSON object")
    export = action("export", run_export, "print a game's record (for pegboard replay)")
    export.add_argument("--id", type=_game_id,
                        help="a finished game from `pegboard game list` (default: the "
                        "game in progress)")
    listing = action("list", run_list, "list the games in the store")
    listing.add_argument("--json", action="store_true", help="print a JSON list")
    repair = action(
        "repair", run_repair, "list the games set aside and what can be restored",
        "List the games kept in the store's aside/ folder because they could not "
        "be read whole (a damaged line, or a record this release cannot replay): what is wrong "
        "with each, how much `restore` brings back, and the damaged lines themselves.",
    )
    repair.add_argument("--json", action="store_true", help="print a JSON list")
    restore_parser = action(
        "restore", run_restore, "bring a set-aside game back as the game in progress",
        "Bring a game from `pegboard game repair` back as the game in progress: "
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


_game_id = paths.argument_type(check_id)


@paths.argument_type
def _aside_name(text: str) -> str:
    return check_id(text, "set-aside game name")


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
    with open_store(args, "pegboard game new") as store:
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
    with open_store(args, "pegboard game add") as store:
        awards = GameSession(store).add(text)
    _print_awards(awards)
    return 0


def run_undo(args: argparse.Namespace) -> int:
    """Take back the last event (recorded as an undo line; nothing is erased)."""
    with open_store(args, "pegboard game undo") as store:
        GameSession(store).add('{"type": "undo"}')
    return 0


def run_status(args: argparse.Namespace) -> int:
    """Print the scores, whose turn it is and how many events are in force."""
    reader = open_reader(args)
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
