"""Reading a store without changing it: no lock is needed, a writer may be running (the
store's layout is described in :mod:`pegboard.store.store`)."""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from pegboard.errors import StoreError
from pegboard.store.aside import ASIDE_NAME, AsideGame
from pegboard.store.games import CurrentGame, FinishedGame, game_from_entries
from pegboard.store.ids import is_valid_id
from pegboard.store.logfile import OddFileError, decode_any, read_regular, scan
from pegboard.store.recovery import Check, Recovery, plan, plan_skipping_damage

CURRENT_NAME = "current.log"
HISTORY_NAME = "history"
NEWEST_NAME = "newest"
"""The name of the history file the writer moved into ``history/`` last, one line: what a
start reads for the last game's seats without listing the history (see
:meth:`StoreReader.newest_kept`)."""


class StoreReader:
    """Read a store without changing it (no lock needed: a writer may be running).

    A torn tail is ignored, not cut. A damaged unfinished game is shown as the game a writer
    would restore of it, with a :class:`Recovery` (``kept_as`` None) saying so in
    :attr:`notices` and :attr:`recoveries`; nothing is moved.
    """

    def __init__(self, directory: str | os.PathLike[str], *, check: Check | None = None
                 ) -> None:
        self.directory = Path(directory)
        self.notices: list[str] = []
        self.recoveries: list[Recovery] = []
        self._check = check
        self._current: CurrentGame | None = None
        self._leftover: FinishedGame | None = None
        if not self.directory.exists():
            return
        if not self.directory.is_dir():
            raise StoreError(f"the store {self.directory} is not a directory")
        path = self.directory / CURRENT_NAME
        try:
            data = read_regular(path)
        except OddFileError as error:
            self.notices.append(str(error))
            return
        except OSError as error:
            raise StoreError(f"cannot read {path}: {error.strerror or error}") from None
        if data is None:
            return
        kept = plan(data, check)
        if kept.problem is not None:
            self._recovered(kept.recovery(None))
        game = kept.game_at(path)
        if isinstance(game, CurrentGame):
            self._current = game
        elif isinstance(game, FinishedGame):  # finished but not yet moved (a crash between)
            self._leftover = game

    def _recovered(self, recovery: Recovery) -> None:
        self.recoveries.append(recovery)
        self.notices.append(recovery.message())

    @property
    def check(self) -> Check | None:
        """The engine's judgement this store was opened with (None: none)."""
        return self._check

    def current(self) -> CurrentGame | None:
        """The unfinished game, or None."""
        return self._current

    @property
    def leftover(self) -> FinishedGame | None:
        """A game finished but not yet moved into ``history/`` (a crash came between; the
        next writer moves it), which :meth:`history` lists last."""
        return self._leftover

    def history(self) -> list[FinishedGame]:
        """Every finished or abandoned game, oldest first, with full records and results."""
        games: list[FinishedGame] = []
        for path in self._logs(self.directory / HISTORY_NAME):
            try:
                data = read_regular(path)
            except OSError as error:  # OddFileError included
                self.notices.append(f"{path} cannot be read: {error}; it was not counted")
                continue
            found = scan(data or b"")
            game = game_from_entries(found.entries, path) if not found.damaged else None
            if isinstance(game, FinishedGame):
                games.append(game)
            elif found.damaged:
                self.notices.append(f"{path} cannot be read: {found.damaged}; it was not "
                                    "counted")
            else:
                self.notices.append(f"{path} has no finish line; it was not counted")
        if self._leftover is not None:
            games.append(self._leftover)
        games.sort(key=lambda game: (game.started_at, game.id))
        return games

    def last_players(self) -> tuple[str, ...]:
        """The seat names of the last game kept (finished or abandoned), read from its
        header alone: a new game's setup starts with them, as the table left them. () when
        there is none, or it cannot be read (the setup's own names then).

        The last game kept is the one :data:`NEWEST_NAME` names, so a start costs the same
        whatever the length of the history; only a store without that note (kept before
        it was written, or its file gone) is listed, once."""
        if self._leftover is not None:
            return _names(self._leftover.players)
        name = self.newest_kept()
        if name is None:
            return ()
        try:
            data = read_regular(self.directory / HISTORY_NAME / name) or b""
        except OSError:
            return ()
        first = decode_any(data.split(b"\n", 1)[0]) or {}
        header = first.get("record")
        return _names(header.get("players")) if isinstance(header, dict) else ()

    def newest_kept(self) -> str | None:
        """The name of the history file kept last: the one :data:`NEWEST_NAME` names when
        it is there, else the greatest name in ``history/`` (game ids begin with their start
        time), found in one listing; None for an empty history."""
        noted = noted_newest(self.directory)
        if noted is not None and os.path.isfile(self.directory / HISTORY_NAME / noted):
            return noted
        newest: str | None = None
        try:
            with os.scandir(self.directory / HISTORY_NAME) as entries:
                for entry in entries:
                    name = entry.name
                    if name.endswith(".log") and is_valid_id(name[:-4]) and (
                            newest is None or name > newest):
                        newest = name
        except (FileNotFoundError, NotADirectoryError):
            return None
        return newest

    def set_aside(self) -> list[AsideGame]:
        """Every game kept in ``aside/``, with what ``restore`` could bring back of it."""
        games: list[AsideGame] = []
        for path in self._logs(self.directory / ASIDE_NAME):
            name = path.stem
            try:
                data = read_regular(path) or b""
            except OSError as error:
                games.append(AsideGame(name, path, error=str(error)))
                continue
            kept, skipping = plan(data, self._check), plan_skipping_damage(data, self._check)
            first = decode_any(data.split(b"\n", 1)[0]) or {}
            header = first.get("record") if isinstance(first.get("record"), dict) else None
            at = first.get("at")
            game_id = first.get("id") if is_valid_id(first.get("id")) else None
            games.append(AsideGame(
                name, path, game_id, kept.total, len(kept.entries), len(skipping.entries),
                kept.problem or skipping.problem, skipping.dropped, header,
                float(at) if isinstance(at, int | float) else None,
                str(first["pegboard"]) if "pegboard" in first else None,
            ))
        return games

    def _logs(self, folder: Path) -> Iterator[Path]:
        """The ``*.log`` files of a folder whose names are valid ids, in name order.

        A name found on disk becomes a game id (``export --id``) or a restore handle, so
        one outside the id alphabet is reported and left alone.
        """
        if not folder.is_dir():
            return
        for path in sorted(folder.glob("*.log")):
            if is_valid_id(path.stem):
                yield path
            else:
                self.notices.append(f"{path!s:.200} has a name that is not a game id; "
                                    "Pegboard leaves it alone")


def _names(players: object) -> tuple[str, ...]:
    """Seat names as a header holds them: 1 to 20 printable characters each, not all
    spaces (the record's rule for a name), else none."""
    if not isinstance(players, list) or not all(
            isinstance(name, str) and 0 < len(name) <= 20 and name.isprintable()
            and name.strip() for name in players):
        return ()
    return tuple(players)


def noted_newest(directory: Path) -> str | None:
    """The history file's name :data:`NEWEST_NAME` holds, when it holds one."""
    try:
        fd = os.open(directory / NEWEST_NAME,
                     os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        data = os.read(fd, 128)
    finally:
        os.close(fd)
    name = data.decode("ascii", "replace").strip()
    return name if name.endswith(".log") and is_valid_id(name[:-4]) else None


def note_newest(directory: Path, name: str) -> None:
    """Note ``name`` as the history file kept last (written whole under a temporary name,
    then renamed over the note: a reader sees the old note or the new one). A hint only:
    a note lost to a crash is found again from the history."""
    temporary = directory / (NEWEST_NAME + ".new")
    with contextlib.suppress(FileNotFoundError):
        os.unlink(temporary)
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                 0o640)
    try:
        os.write(fd, name.encode("ascii") + b"\n")
    finally:
        os.close(fd)
    os.rename(temporary, directory / NEWEST_NAME)
