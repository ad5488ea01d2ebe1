"""Which phone holds which seat: join codes offered by the board, bearer tokens held by phones.

The rules (docs/pairing.md, docs/security.md):

* **A code per seat.** :meth:`Passes.offer` gives the seat of a game a short join code the
  board shows: six characters from :data:`ALPHABET`, which leaves out look-alikes (0/O/D/Q,
  1/I/L, 2/Z, 5/S, 6/G, 8/B, V) and the card ranks (A, J, K), drawn with :mod:`secrets`.
  Offering again while the code is unused gives the same code, so the picture on the board
  stays the one a phone is reading.
* **One phone per seat.** :meth:`Passes.join` trades an open code for a new bearer token
  (256 bits from :mod:`secrets`) and marks the code used. It refuses, with a
  :class:`~pegboard.errors.PairingError` naming the reason, a code that is not a code, one
  nobody offered, one already used, and any code of a seat a phone already holds.
* **A token is its seat, for its game only.** :meth:`Passes.holder` answers which seat of
  which game a token holds, or None. :meth:`Passes.release` frees a seat (a lost phone: its
  token stops working at once); :meth:`Passes.end_game` forgets every code and token of a game.
* **Only digests are kept.** The file holds each token's SHA-256, never the token; a token is
  compared with every held digest with :func:`hmac.compare_digest`, so how long the answer
  takes says nothing about which digest came close.
* **Durable.** One SQLite file (``passes.sqlite3``) in the folder given (the board's state
  directory's ``phones/``, :func:`passes_folder`), written with ``synchronous=FULL`` before a
  call returns, so pairing survives a restart of the board or of the phone server. Both may
  open it at once (SQLite's locking). A file SQLite cannot read, or one that is not ours, is
  moved aside (``passes.sqlite3.damaged``) and a fresh one made: every phone pairs again, and
  :attr:`Passes.notices` says so in one sentence; no traceback.
* **Bounded.** At most :data:`MAX_GAMES` games are remembered (offering for another forgets
  the oldest), :data:`MAX_SEATS` seats each, :data:`KEPT_CODES` codes a seat. Wrong joins are
  limited: :data:`WRONG_PER_SOURCE` a minute from one address and :data:`WRONG_IN_ALL` a
  minute from everyone; past either, joins are refused with
  :class:`~pegboard.errors.PairingBusyError` (its ``retry_after`` in seconds) until the
  minute has passed. Guessing one of four open codes at 30 tries a minute takes about ten
  weeks on average. The failures are counted in memory, for at most
  :data:`TRACKED_SOURCES` addresses.

Time is injected (``clock``), as everywhere in Pegboard.
"""

from __future__ import annotations

import collections
import contextlib
import hashlib
import hmac
import logging
import os
import re
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from pegboard.errors import PairingBusyError, PairingError, StoreError

log = logging.getLogger(__name__)

ALPHABET = "CEFHMNPRTUWXY3479"
"""The characters of a join code: capitals and digits that no font confuses with another and
that no card table reads as a card (A, J, Q, K), so a voice spells them as letters too."""
CODE_LENGTH = 6
"""A code's length: 17**6 = 24 million codes, read off the board and typed in a few seconds."""
TOKEN_BYTES = 32
"""A token's randomness: 256 bits."""
MAX_GAMES = 4
"""Games whose codes and tokens are remembered at once (a board plays one; a few spare for a
game ended without :meth:`Passes.end_game`, say by a power cut)."""
MAX_SEATS = 4
"""Seats a game may have (two, three or four players)."""
KEPT_CODES = 4
"""Codes remembered a seat, used ones included (so a used code is named as used)."""
WINDOW = 60.0
"""The span, in seconds, over which wrong joins are counted."""
WRONG_PER_SOURCE = 5
"""Wrong joins one address may make within :data:`WINDOW`."""
WRONG_IN_ALL = 30
"""Wrong joins everyone together may make within :data:`WINDOW`."""
TRACKED_SOURCES = 256
"""Addresses whose wrong joins are remembered; the longest quiet is forgotten first."""
FILE_NAME = "passes.sqlite3"
JOIN_PATH = "/join"
"""The phone page's join address; the code is its ``code`` query parameter."""
SHORT_PATH = "/J/"
"""The join address as the QR code holds it, the code following: ``/J/CEF347`` (the phone
server sends it on to :data:`JOIN_PATH`). In capitals, the whole address is in QR's
alphanumeric mode, which fits a DNS name or IPv4 address of up to 17 characters with the
port in a version 2 symbol at level M, 2 pixels a module on the board's panel."""

_GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,63}")
_LAYOUT = 1  # PRAGMA user_version of a file laid out as SCHEMA says
_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    game TEXT PRIMARY KEY,
    made INTEGER NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS codes (
    code TEXT PRIMARY KEY,
    game TEXT NOT NULL REFERENCES games(game) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    used INTEGER NOT NULL DEFAULT 0,
    made INTEGER NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS holders (
    game TEXT NOT NULL REFERENCES games(game) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    digest TEXT NOT NULL,
    PRIMARY KEY (game, seat)
) STRICT;
"""
_TABLES = {"games": ["game", "made"], "codes": ["code", "game", "seat", "used", "made"],
           "holders": ["game", "seat", "digest"]}


@dataclass(frozen=True)
class JoinOffer:
    """A code the board shows for one seat of one game."""

    game: str
    seat: int
    code: str

    def url(self, host: str, port: int) -> str:
        """The join address a phone opens (the QR code's text).

        >>> JoinOffer("g1", 0, "CEF347").url("pegboard.local", 8121)
        'http://pegboard.local:8121/join?code=CEF347'
        """
        return join_url(host, port, self.code)


@dataclass(frozen=True)
class SeatHolder:
    """The seat of a game a phone's token holds."""

    game: str
    seat: int


def join_url(host: str, port: int, code: str) -> str:
    """The join address for ``code`` on the board at ``host:port`` (an IPv6 host bracketed).

    >>> join_url("::1", 8121, "CEF347")
    'http://[::1]:8121/join?code=CEF347'
    """
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{port}{JOIN_PATH}?code={code}"


def qr_text(host: str, port: int, code: str) -> str:
    """The join address for ``code`` as the board's QR code holds it (see :data:`SHORT_PATH`).

    >>> qr_text("pegboard.local", 8121, "CEF347")
    'HTTP://PEGBOARD.LOCAL:8121/J/CEF347'
    """
    return join_url(host, port, "").replace(f"{JOIN_PATH}?code=", SHORT_PATH).upper() + code


def passes_folder(store: Path) -> Path:
    """Where the board with the store ``store`` keeps its passes: a folder of its own, so a
    phone server whose store is read-only can be let write there and nowhere else."""
    return store / "phones"


def normal_code(text: str) -> str:
    """``text`` as a join code: capitals, spaces and dashes dropped; PairingError if it is not one.

    >>> normal_code(" cef-347 ")
    'CEF347'
    >>> normal_code("CEF0")
    Traceback (most recent call last):
    ...
    pegboard.errors.PairingError: 'CEF0' is not a join code: it is 6 of CEFHMNPRTUWXY3479 \
as the board shows it
    """
    code = text.strip().upper().replace(" ", "").replace("-", "")
    if len(code) != CODE_LENGTH or any(char not in ALPHABET for char in code):
        raise PairingError(
            f"{text[:20]!r} is not a join code: it is {CODE_LENGTH} of {ALPHABET} as the board "
            "shows it")
    return code


def digest(token: str) -> str:
    """The SHA-256 of a token, as the file keeps it."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class _WrongJoins:
    """Wrong joins of the last :data:`WINDOW` seconds, per address and in all (bounded)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._all: collections.deque[float] = collections.deque()
        self._by_source: collections.OrderedDict[str, collections.deque[float]] = (
            collections.OrderedDict())

    def _trim(self, times: collections.deque[float], now: float) -> None:
        while times and times[0] <= now - WINDOW:
            times.popleft()

    def check(self, source: str) -> None:
        """PairingBusyError if ``source`` or everyone has used up this minute's wrong joins."""
        now = self._clock()
        self._trim(self._all, now)
        if len(self._all) >= WRONG_IN_ALL:
            wait = self._all[0] + WINDOW - now
            raise PairingBusyError(
                f"too many wrong join codes from the network; try again in {wait:.0f} s",
                retry_after=wait)
        times = self._by_source.get(source)
        if times is not None:
            self._trim(times, now)
            if len(times) >= WRONG_PER_SOURCE:
                wait = times[0] + WINDOW - now
                raise PairingBusyError(
                    f"too many wrong join codes from this phone; try again in {wait:.0f} s",
                    retry_after=wait)

    def count(self, source: str) -> None:
        """One more wrong join from ``source``."""
        now = self._clock()
        self._all.append(now)
        times = self._by_source.pop(source, None)
        if times is None:
            times = collections.deque(maxlen=WRONG_PER_SOURCE)
        times.append(now)
        self._by_source[source] = times
        while len(self._by_source) > TRACKED_SOURCES:
            self._by_source.popitem(last=False)
        while len(self._all) > WRONG_IN_ALL:
            self._all.popleft()


class Passes:
    """The board's pairing of phones to seats, kept in ``folder`` (see the module's rules)."""

    def __init__(self, folder: Path, *, clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time) -> None:
        self.folder = Path(folder)
        self.path = self.folder / FILE_NAME
        self._wall = wall
        self._wrong = _WrongJoins(clock)
        self.notices: tuple[str, ...] = ()
        """What opening the file had to put right, one sentence each."""
        try:
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError(f"cannot make the pairing folder {str(self.folder)!r}: "
                             f"{error.strerror or error}") from error
        try:
            self._db = self._open()
        except sqlite3.DatabaseError as error:
            self._db = self._fresh(f"{error}")

    # -- the file ---------------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        try:
            db = sqlite3.connect(self.path, timeout=5.0, isolation_level=None,
                                 check_same_thread=False)
        except sqlite3.OperationalError as error:
            raise StoreError(f"cannot open the pairing file {str(self.path)!r}: {error}") from error
        with contextlib.suppress(OSError):
            os.chmod(self.path, 0o600)  # the digests are nobody else's business
        return db

    def _open(self) -> sqlite3.Connection:
        db = self._connect()
        try:
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            if db.execute("PRAGMA quick_check").fetchone() != ("ok",):
                raise sqlite3.DatabaseError("SQLite's check of it failed")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            names = {row[0] for row in db.execute(
                "SELECT name FROM sqlite_schema WHERE type = 'table'")}
            if version == 0 and not names:
                db.executescript(
                    f"BEGIN IMMEDIATE; {_SCHEMA} PRAGMA user_version = {_LAYOUT}; COMMIT;")
            elif version != _LAYOUT or not self._laid_out(db):
                raise sqlite3.DatabaseError("it is not a pairing file of this Pegboard")
        except BaseException:
            db.close()
            raise
        return db

    @staticmethod
    def _laid_out(db: sqlite3.Connection) -> bool:
        for table, columns in _TABLES.items():
            found = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
            if found != columns:
                return False
        return True

    def _fresh(self, why: str) -> sqlite3.Connection:
        aside = self.path.with_name(FILE_NAME + ".damaged")
        for suffix in ("", "-journal", "-wal", "-shm"):
            part = self.path.with_name(FILE_NAME + suffix)
            with contextlib.suppress(FileNotFoundError):
                if suffix:
                    part.unlink()
                else:
                    os.replace(part, aside)
        notice = (f"The pairing file {str(self.path)!r} could not be read ({why}); it was moved "
                  f"to {aside.name!r} and every phone must pair again.")
        log.warning("%s", notice)
        self.notices = (*self.notices, notice)
        try:
            return self._open()
        except sqlite3.DatabaseError as error:
            raise StoreError(f"cannot make a new pairing file {str(self.path)!r}: {error}"
                             ) from error

    @staticmethod
    @contextlib.contextmanager
    def _write(db: sqlite3.Connection) -> Iterator[None]:
        db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def close(self) -> None:
        """Close the file (each call has already written what it changed)."""
        self._db.close()

    def __enter__(self) -> Passes:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the rules --------------------------------------------------------------------------

    @staticmethod
    def _check(game: str, seat: int) -> None:
        if not isinstance(game, str) or not _GAME_ID.fullmatch(game):
            raise PairingError(f"{str(game)[:70]!r} is not a game id (letters, digits, . _ : -,"
                               " at most 64)")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < MAX_SEATS:
            raise PairingError(f"seat {seat!r} is not a seat: 0 to {MAX_SEATS - 1}")

    def offer(self, game: str, seat: int) -> JoinOffer:
        """The join code for ``seat`` of ``game``: its open code if it has one, else a new one.

        A seat a phone holds is offered a code as well; :meth:`join` refuses it until the seat
        is released (:meth:`held` says which seats to show as held).
        """
        self._check(game, seat)
        db = self._db
        with self._write(db):
            row = db.execute("SELECT code FROM codes WHERE game = ? AND seat = ? AND used = 0",
                             (game, seat)).fetchone()
            if row is not None:
                return JoinOffer(game, seat, row[0])
            if db.execute("SELECT 1 FROM games WHERE game = ?", (game,)).fetchone() is None:
                stale = db.execute("SELECT game FROM games ORDER BY made, rowid").fetchall()
                for (old,) in stale[:max(0, len(stale) - MAX_GAMES + 1)]:
                    db.execute("DELETE FROM games WHERE game = ?", (old,))
                db.execute("INSERT INTO games (game, made) VALUES (?, ?)",
                           (game, int(self._wall())))
            while True:
                code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
                if db.execute("SELECT 1 FROM codes WHERE code = ?", (code,)).fetchone() is None:
                    break
            db.execute("INSERT INTO codes (code, game, seat, made) VALUES (?, ?, ?, ?)",
                       (code, game, seat, int(self._wall())))
            db.execute(
                "DELETE FROM codes WHERE game = ? AND seat = ? AND code NOT IN (SELECT code FROM"
                " codes WHERE game = ? AND seat = ? ORDER BY rowid DESC LIMIT ?)",
                (game, seat, game, seat, KEPT_CODES))
        return JoinOffer(game, seat, code)

    def join(self, code: str, *, source: str = "", game: str | None = None) -> str:
        """A new token holding the seat ``code`` was offered for; PairingError if it cannot.

        ``source`` is the phone's address, for the limit on wrong joins. Every refusal counts
        against it; past the limit, PairingBusyError comes before the code is even looked at.
        ``game``: the game in progress, when the caller knows it: a code of another game is
        refused, and stays unused.
        """
        self._wrong.check(source)
        try:
            return self._join(code, game)
        except PairingError:
            self._wrong.count(source)
            raise

    def _join(self, code: str, current: str | None = None) -> str:
        wanted = normal_code(code) if isinstance(code, str) else normal_code(repr(code))
        db = self._db
        with self._write(db):
            found = None
            # Every code is compared, each in constant time: no early way out to time.
            for row in db.execute("SELECT code, game, seat, used FROM codes").fetchall():
                if hmac.compare_digest(row[0], wanted):
                    found = row
            if found is None:
                raise PairingError(f"join code {wanted} is not one the board offered (a code "
                                   "of another table, or of a game that has ended); read it "
                                   "again off this board, or ask it for a new one (menu: "
                                   "Phones)")
            _, game, seat, used = found
            if current is not None and game != current:
                raise PairingError(f"join code {wanted} is for another game than the one in "
                                   "progress; ask the board for this game's code (menu: "
                                   "Phones)")
            holds = db.execute("SELECT 1 FROM holders WHERE game = ? AND seat = ?",
                               (game, seat)).fetchone() is not None
            if used and holds:
                raise PairingError(f"join code {wanted} was used already: seat {seat + 1} is "
                                   "held by the phone that joined with it. If that is this "
                                   "phone, it holds the seat: open its page again. If not, "
                                   "release that seat on the board first (menu: Phones)")
            if used:
                raise PairingError(f"join code {wanted} was used already; ask the board for a "
                                   "new one (menu: Phones)")
            if holds:
                raise PairingError(f"seat {seat + 1} is held by another phone; release it on "
                                   "the board first (menu: Phones)")
            token = secrets.token_urlsafe(TOKEN_BYTES)
            db.execute("UPDATE codes SET used = 1 WHERE code = ?", (wanted,))
            db.execute("INSERT INTO holders (game, seat, digest) VALUES (?, ?, ?)",
                       (game, seat, digest(token)))
        return token

    def holder(self, token: str) -> SeatHolder | None:
        """The seat ``token`` holds, or None (unknown, released, its game ended)."""
        if not isinstance(token, str) or not 0 < len(token) <= 256:
            return None
        wanted = digest(token)
        found = None
        for game, seat, kept in self._db.execute("SELECT game, seat, digest FROM holders"):
            if hmac.compare_digest(kept, wanted):
                found = SeatHolder(game, seat)
        return found

    def games(self) -> tuple[str, ...]:
        """The games whose codes or tokens are remembered, oldest first."""
        return tuple(row[0] for row in self._db.execute(
            "SELECT game FROM games ORDER BY made, rowid"))

    def held(self, game: str) -> frozenset[int]:
        """The seats of ``game`` a phone holds."""
        return frozenset(row[0] for row in self._db.execute(
            "SELECT seat FROM holders WHERE game = ?", (game,)))

    def release(self, game: str, seat: int) -> bool:
        """Free ``seat`` of ``game``: its phone's token stops working. True if a phone held it."""
        self._check(game, seat)
        db = self._db
        with self._write(db):
            gone = db.execute("DELETE FROM holders WHERE game = ? AND seat = ?",
                              (game, seat)).rowcount
        return gone > 0

    def end_game(self, game: str) -> None:
        """Forget every code and token of ``game``."""
        db = self._db
        with self._write(db):
            db.execute("DELETE FROM games WHERE game = ?", (game,))
