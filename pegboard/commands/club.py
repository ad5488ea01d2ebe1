"""``pegboard club``: a club night's results over MQTT (docs/club.md).

- ``club publish --store DIR --broker HOST:PORT --board ID [--club NAME]``: follow one
  board's store and publish its confirmed results (the device runs the same publisher);
- ``club serve --broker HOST:PORT --db FILE --port P``: the standings service and its page
  (the URL is printed once the socket is bound; ``--port 0`` picks a free one);
- ``club setup --out DIR --boards N``: a mosquitto configuration with a password per board
  and an ACL.

The broker, the board and the credentials come from the options, else from the config file's
``[club]`` (``--config``; :mod:`pegboard.commands.club_settings`). The password is always in
a file (``--password-file``, ``club.password_file``; serve's own ``club.serve_password_file``),
never on a command line; without a user the broker is used without authentication.
"""

from __future__ import annotations

import argparse
import hashlib
import ipaddress
import json
import logging
import secrets
import signal
import ssl
import sys
import time
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from pegboard import lazy
from pegboard.club.topics import broker_address, check_id
from pegboard.commands import paths
from pegboard.commands.club_settings import _read_password, settings
from pegboard.commands.web import bind, port_number
from pegboard.errors import ClubError
from pegboard.rules.variants import GamePoints

if TYPE_CHECKING:
    import sqlite3

    from pegboard.club import heal, outbox, results, seating
    from pegboard.club import publisher as club_publisher
    from pegboard.club import server as club_server
    from pegboard.club import setup as club_setup
    from pegboard.club import standings as club_standings
    from pegboard.web import server_hosts
else:
    club_server = lazy.module("pegboard.club.server")
    club_setup = lazy.module("pegboard.club.setup")
    outbox = lazy.module("pegboard.club.outbox")
    heal = lazy.module("pegboard.club.heal")
    club_publisher = lazy.module("pegboard.club.publisher")
    results = lazy.module("pegboard.club.results")
    seating = lazy.module("pegboard.club.seating")
    club_standings = lazy.module("pegboard.club.standings")
    server_hosts = lazy.module("pegboard.web.server_hosts")
    sqlite3 = lazy.module("sqlite3")


def register(parser: argparse.ArgumentParser) -> None:
    """The ``club`` command\'s actions and their arguments."""
    sub = parser.add_subparsers(dest="club_command", metavar="ACTION", required=True)

    publish = sub.add_parser("publish", help="follow one board's store and publish its results")
    publish.add_argument("--store", required=True, type=paths.path_name, metavar="DIR",
                         help="the board's store folder")
    _broker(publish)
    publish.add_argument("--board", type=board_id, metavar="ID",
                         help="this board's id (1 to 32 letters, digits, - or _; default: "
                         "club.board in the config)")
    publish.add_argument("--acked", type=paths.path_name, metavar="FILE",
                         help="where acknowledged results are written down (default: "
                         "club-acked.txt in the store folder)")
    publish.add_argument("--again", action="store_true",
                         help="send every confirmed result in the store again, acknowledged "
                         "or not (a broker that lost its database; each is counted once)")
    publish.add_argument("--poll", default=0.1, type=paths.seconds(5), metavar="SECONDS",
                         help="how often the store is looked at (default 0.1)")
    publish.set_defaults(func=run_publish)

    serve = sub.add_parser("serve", help="the standings service and its live page")
    _broker(serve, every=True)
    serve.add_argument("--db", required=True, type=paths.path_name, metavar="FILE",
                       help="the results database (SQLite; made when missing)")
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on "
                       "(default 127.0.0.1; 0.0.0.0 for the room's network)")
    serve.add_argument("--port", default=8122, type=port_number,
                       help="the TCP port (default 8122; 0 picks a free one)")
    serve.add_argument("--members", type=paths.path_name, metavar="CSV",
                       help="the roster: member,name[,guest] per line")
    serve.add_argument("--seating", type=paths.path_name, metavar="JSON",
                       help="tonight's seating (club seat --json): the page shows each "
                       "player's next table and opponent (without it: the seating the results "
                       "database holds, as last seated, when it is tonight's: kept for this "
                       "--night, or without --night used within the last 12 hours)")
    serve.add_argument("--name", default="standings", type=board_id,
                       help="the service's MQTT session name (default standings)")
    serve.add_argument("--game-points", default="acc", choices=("acc", "classic"),
                       help="the club's game points, by which every game is counted: acc (a "
                       "win 2, any skunk 3; the default) or classic (a win 1, a skunk 2, a "
                       "double 4); a game played otherwise is counted so and flagged")
    serve.add_argument("--director-password-file", type=paths.path_name, metavar="FILE",
                       help="a file holding the director's password, by which results are "
                       "accepted from the queue, voided or adjusted (POST /api/director); "
                       "served beyond this host it needs --certfile and --keyfile")
    serve.add_argument("--bye", default="win", choices=("win", "none"),
                       help="how a bye in the seating is credited once its round has a game "
                       "counted: win (the club's game points for a win, one win, no spread; "
                       "the default) or none. No rule says how: RULES.md says only that there "
                       "are byes when the count is odd, so the default is this program's "
                       "choice, not ACC practice; give the club's own rule")
    serve.add_argument("--season-points", default="12=1", metavar="GP=SP,...",
                       help="the club's table of season points: a night's game points (a "
                       "bye's included) and the season points they earn, the highest reached "
                       "counting. Default 12=1: RULES.md says Grass Roots clubs award season "
                       "points for 12 or more game points in a night, and not how many; the "
                       "one point is this program's choice: give the club's own table")
    serve.add_argument("--night", type=night_number, metavar="N",
                       help="tonight's night number, published with the next round and the "
                       "lock on pegboard/<club>/night for every board of --club to start "
                       "its games in (no board's config changes from week to week)")
    serve.add_argument("--lock", action="store_true",
                       help="with --night: tonight is under the tournament lock")
    serve.add_argument("--certfile", type=paths.path_name, metavar="FILE",
                       help="serve over HTTPS with this certificate (club setup's "
                       "standings.crt), with --keyfile")
    serve.add_argument("--keyfile", type=paths.path_name, metavar="FILE",
                       help="the certificate's private key (club setup's standings.key)")
    serve.set_defaults(func=run_serve)

    seat = sub.add_parser("seat", help="check players in and seat the night's rounds")
    seat.add_argument("--members", type=paths.path_name, metavar="CSV",
                      help="the roster: member,name[,guest] per line")
    seat.add_argument("--present", required=True, metavar="NUMBERS",
                      help="the member numbers checked in, comma-separated")
    seat.add_argument("--rounds", default=9, type=int, help="rounds in the night (default 9)")
    seat.add_argument("--seating", default="random", choices=("random", "moves"),
                      help="a random draw each round (the default: RULES.md's usual club "
                      "night), or one side moves a table each round")
    seat.add_argument("--seed", type=seed_number, metavar="N",
                      help="the random draw's seed, 0 to 999999 (default: a new one, "
                      "printed and written in each round of --json, so the same command "
                      "with --seed N seats the night the same way again)")
    seat.add_argument("--json", action="store_true", help="print the rounds as JSON")
    seat.add_argument("--from-round", default=1, type=int, metavar="N",
                      help="number the rounds from N: a re-seat of the rest of the night "
                      "(POST it to the running service's /api/seating)")
    seat.set_defaults(func=run_seat)

    setup = sub.add_parser("setup", help="write a mosquitto configuration with a password "
                           "per board and an ACL")
    setup.add_argument("--out", required=True, type=paths.path_name, metavar="DIR",
                       help="the folder to write mosquitto.conf, passwords and acl into")
    setup.add_argument("--boards", type=int, metavar="N",
                       help="how many boards (board-1 ... board-N); needed but with --upgrade")
    setup.add_argument("--club", type=club_name, help="the club's id (default club)")
    setup.add_argument("--port", type=port_number,
                       help="the broker's TLS port (default 8883)")
    setup.add_argument("--upgrade", action="store_true",
                       help="bring the club set up in --out up to date: add what its ACL "
                       "lacks (a club set up before the club's night topic) and what its "
                       "mosquitto.conf lacks (TLS, with a certificate authority made when "
                       "the club has none; the size limits; persistence), never writing over "
                       "its passwords, keys or certificates; --out alone (and --host)")
    setup.add_argument("--league", type=broker, metavar="HOST:PORT",
                       help="bridge the club's results to this league broker (TLS only)")
    setup.add_argument("--league-cafile", type=paths.path_name, metavar="FILE",
                       help="the league broker's certificate authority (its ca.crt), which "
                       "the bridge checks it against; needed with --league")
    setup.add_argument("--league-user", metavar="NAME",
                       help="the bridge's user on the league broker, if it has users")
    setup.add_argument("--league-password-file", type=paths.path_name, metavar="FILE",
                       help="the file holding that user's password")
    setup.add_argument("--host", action="append", default=[], type=host_name, metavar="NAME",
                       help="a name or address the boards reach the broker by (repeat for "
                       "each; the broker's certificate names them and this host's own names)")
    setup.set_defaults(func=run_setup)


def _broker(parser: argparse.ArgumentParser, *, every: bool = False) -> None:
    parser.add_argument("--config", type=paths.path_name, metavar="FILE",
                        help="the config file whose [club] gives what no option gives "
                        "(default /etc/pegboard/config.toml, if it exists)")
    parser.add_argument("--broker", type=broker, metavar="HOST:PORT",
                        help="the club's MQTT broker (default: club.broker)")
    if every:
        parser.add_argument("--club", type=club_or_every,
                            help="the club whose results count (default +: every club on "
                            "the broker, as a league's service)")
    else:
        parser.add_argument("--club", type=club_name,
                            help="the club's id in the topics (default: club.club, club)")
    user, password = ("club.serve_user", "club.serve_password_file") if every else (
        "club.user", "club.password_file")
    parser.add_argument("--user", help=f"the MQTT user name (default: {user}, else none)")
    parser.add_argument("--password-file", type=paths.path_name, metavar="FILE",
                        help=f"a file holding the MQTT password (default: {password})")
    parser.add_argument("--cafile", type=paths.path_name, metavar="FILE",
                        help="the club's certificate authority (club setup's ca.crt): connect "
                        "with TLS and trust only a broker it signed (default: club.ca_file, "
                        "else no TLS, which a user and password refuse)")


@paths.argument_type
def board_id(text: str) -> str:
    """A board id (1 to 32 letters, digits, - or _)."""
    return check_id(text, "board id")


@paths.argument_type
def club_name(text: str) -> str:
    """A club id (1 to 32 letters, digits, - or _)."""
    return check_id(text, "club id")


def club_or_every(text: str) -> str:
    """A club id, or ``+`` for every club."""
    return text if text == "+" else club_name(text)


@paths.argument_type
def host_name(text: str) -> str:
    """A DNS name or IP address the broker is reached by."""
    return server_hosts.host_name(text)


@paths.argument_type
def broker(text: str) -> tuple[str, int]:
    """``HOST:PORT`` of the broker."""
    return broker_address(text)


class SignalStop:
    """A stop a signal handler may set: a plain flag. ``threading.Event.set`` takes a lock
    that the main thread, interrupted by the signal inside ``Event.wait``, may be holding:
    the handler would wait for that lock for ever and the publisher would never stop."""

    def __init__(self) -> None:
        self.stopped = False

    def set(self) -> None:
        """Stop at the next look (within one period)."""
        self.stopped = True

    def is_set(self) -> bool:
        return self.stopped

    def wait(self, timeout: float) -> bool:
        """Sleep ``timeout`` seconds unless stopped already; whether stopped."""
        if not self.stopped:
            time.sleep(timeout)
        return self.stopped


def _stop_on_signals(stop: SignalStop) -> None:
    def handle(sig: int, frame: FrameType | None) -> None:
        stop.set()
    signal.signal(signal.SIGTERM, handle)
    signal.signal(signal.SIGINT, handle)


def run_publish(args: argparse.Namespace) -> int:
    """Publish until SIGTERM or Ctrl-C."""
    store = Path(args.store)
    if not store.is_dir():
        raise ClubError(f"no store folder at {store}: give the board's store with --store")
    given = settings(args, publish=True)
    stop = SignalStop()
    _stop_on_signals(stop)  # before the imports: a stop while starting up is a clean stop
    logging.basicConfig(level=logging.INFO, format="pegboard club publish: %(message)s",
                        stream=sys.stderr)
    acked = Path(args.acked) if args.acked else store / outbox.ACKED_NAME
    publisher = club_publisher.Publisher(store, given.broker, club=given.club, board=given.board,
                                         acked=acked, username=given.username,
                                         password=given.password, again=args.again,
                                         ca_file=given.ca_file)
    print(f"Publishing board {given.board} of {given.club} to {given.broker[0]}:"
          f"{given.broker[1]}{' (TLS)' if given.ca_file else ''} (store {store})", flush=True)
    try:
        publisher.run(stop, args.poll)
    except OSError as error:
        # A full disk (or one gone read-only) where acknowledgements are written: nothing is
        # lost, since the store is the outbox and a result not written down as acknowledged
        # is sent again (and counted once); systemd starts the publisher again.
        print(f"pegboard club publish: stopped: cannot write {acked}: "
              f"{error.strerror or error}; every result not written down as acknowledged "
              "stays in the store and is sent again when the publisher starts", file=sys.stderr,
              flush=True)
        return 1
    return 0


def run_serve(args: argparse.Namespace) -> int:
    """Serve until stopped; 1 if a result could not be stored (systemd starts it again)."""
    given = settings(args, publish=False)
    db_path = Path(args.db)
    if args.lock and args.night is None:
        raise ClubError("--lock is the night's: give --night N with it")
    if args.night is not None and given.club == "+":
        raise ClubError("--night is one club's: give --club ID with it (not every club, +)")
    night = None if args.night is None else (args.night, bool(args.lock))
    rounds, source = _seating(Path(args.seating)) if args.seating else (None, "")
    db = heal.at_start(db_path, said=_said)  # a damaged one rebuilt, said in one line
    try:
        if args.members:
            results.load_members(db, Path(args.members))
        why_none = ""
        if rounds is not None:
            rounds, seated = _tonight(db, rounds, source, args.seating, args.night)
        else:
            rounds, source, why_none, seated = _held(db, args.night)
    finally:
        db.close()
    tls = _tls(args.certfile, args.keyfile)
    season_points = club_standings.SeasonPoints.parse(args.season_points)
    director = _director(args.director_password_file)
    if director is not None and tls is None and not _loopback(args.host):
        raise ClubError(f"--director-password-file with --host {args.host} and no TLS would "
                        "let the director's password cross the network in clear: give "
                        "--certfile and --keyfile (club setup's standings.crt and "
                        "standings.key), or serve on 127.0.0.1 and reach it from another "
                        "machine through ssh -L (docs/club.md)")
    sock = bind(args.host, args.port)
    host, port = sock.getsockname()[:2]
    scheme = "http" if tls is None else "https"
    print(f"Club standings on {scheme}://{host}:{port}/ (results {db_path})", flush=True)
    try:
        return club_server.serve(db_path, sock, given.broker, club=given.club, name=args.name,
                                 username=given.username, password=given.password,
                                 ca_file=given.ca_file, hosts=server_hosts.board_names(),
                                 seating=seating.Tonight(rounds, seated, why_none),
                                 points=GamePoints(args.game_points),
                                 director=director, tls=tls, night=night,
                                 seating_source=source, bye=results.Bye(args.bye),
                                 season_points=season_points)
    finally:
        sock.close()


def _said(text: str) -> None:
    print(f"pegboard club serve: {text}", file=sys.stderr, flush=True)


MOST_SEED = 999_999
"""The highest seed ``club seat`` draws or takes: six digits, easy to write down."""


def seed_number(text: str) -> int:
    """``--seed``: a whole number from 0 to :data:`MOST_SEED`."""
    if not text.isascii() or not text.isdigit() or int(text) > MOST_SEED:
        raise argparse.ArgumentTypeError(f"{text[:20]!r}: give a seed from 0 to {MOST_SEED}")
    return int(text)


def night_number(text: str) -> int:
    """``--night``: a night number from 1 to 9999."""
    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= 9999:
        raise argparse.ArgumentTypeError(f"{text[:20]!r}: give a night number from 1 to 9999")
    return int(text)


def _loopback(host: str) -> bool:
    """Whether ``--host`` listens on this host alone (a loopback address, or localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _tls(certfile: str | None, keyfile: str | None) -> tuple[Path, Path] | None:
    """The page's certificate and key for HTTPS (None: plain HTTP); ClubError when only one
    is given or the two do not make a certificate with its key."""
    if certfile is None and keyfile is None:
        return None
    if certfile is None or keyfile is None:
        raise ClubError("--certfile and --keyfile go together (club setup's standings.crt "
                        "and standings.key)")
    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(certfile, keyfile)
    except (OSError, ssl.SSLError) as error:
        raise ClubError(f"cannot use the certificate {certfile} with the key {keyfile}: "
                        f"{error}") from None
    return Path(certfile), Path(keyfile)


def _director(path: str | None) -> str | None:
    """The director's password, from its file (None: no director's acts)."""
    if path is None:
        return None
    try:
        secret = Path(path).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as error:
        raise ClubError(f"cannot read the director's password file {path}: {error}") from None
    if len(secret) < 8:
        raise ClubError(f"the director's password in {path} must be at least 8 characters")
    return secret


def _seating(path: Path) -> tuple[list[Any], str]:
    """The seating file's rounds and the digest of its bytes."""
    try:
        data = path.read_bytes()
        return seating.from_json(json.loads(data.decode("utf-8"))), hashlib.sha256(
            data).hexdigest()
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise ClubError(f"cannot read the seating {path}: {error}") from None


def _tonight(db: Any, rounds: list[Any], source: str, path: str, night: int | None
             ) -> tuple[list[Any], int | None]:
    """Tonight's seating at the start, and the night it is for: the file's, unless the
    director re-seated the night since this very file was loaded for tonight
    (:func:`~pegboard.club.results.carried`; then that re-seat, kept in the database, so a
    restart with the same ``--seating`` does not undo it)."""
    saved = results.saved_seating(db)
    if (saved is not None and saved.source == source
            and not results.carried(db, saved, night, time.time())):
        try:
            return list(seating.from_json(saved.rounds)), saved.night
        except ClubError as error:  # kept before seatings were checked: the file's again
            print(f"pegboard club serve: the seating held does not read ({error}): "
                  f"--seating {path} is loaded again", file=sys.stderr, flush=True)
    results.save_seating(db, seating.to_json(rounds), source=source, director="club serve",
                         reason=f"--seating {path}", night=night)
    return rounds, night


def _held(db: Any, night: int | None) -> tuple[list[Any] | None, str, str, int | None]:
    """Tonight's seating at a start without ``--seating``: the one the results database
    holds (the file loaded before, as the director last re-seated it) when it is tonight's
    (:func:`~pegboard.club.results.carried`: kept for this very ``--night``; without
    ``--night``, used within the evening). A seating belongs to its night: one kept for
    another night is not carried over, and the night starts with none. Its rounds (None: no
    seating), the digest of the file it came from, why none is loaded (for the page; ""
    when one is), and the night it is for (None: not known yet). Said on standard error."""
    saved = results.saved_seating(db)
    if saved is None:
        return None, "", "", night
    why = results.carried(db, saved, night, time.time())
    try:
        rounds = list(seating.from_json(saved.rounds))
    except ClubError as error:  # kept before seatings were checked
        why = why or f"the seating held does not read ({error}), so none is loaded"
    if why:
        why += (" (give --seating FILE, or POST /api/seating; started with --night N, a "
                "night's seating carries over a restart)")
        print(f"pegboard club serve: {why}", file=sys.stderr, flush=True)
        return None, "", why, night
    numbers = [r.number for r in rounds]
    of = "night not known yet" if saved.night is None else f"night {saved.night}"
    print(f"pegboard club serve: tonight's seating is the one held in the results database "
          f"(rounds {min(numbers)}-{max(numbers)}, {of}, as last seated)",
          file=sys.stderr, flush=True)
    return rounds, saved.source, "", saved.night


def _league(args: argparse.Namespace) -> club_setup.League | None:
    """The league's broker from ``--league`` and its options; ClubError when they do not
    go together (the bridge speaks TLS only, so ``--league`` needs ``--league-cafile``)."""
    given = [name for name in ("league_cafile", "league_user", "league_password_file")
             if getattr(args, name) is not None]
    if args.league is None:
        if given:
            raise ClubError(f"--{given[0].replace('_', '-')} is for the bridge to a league: "
                            "give --league HOST:PORT too")
        return None
    if args.league_cafile is None:
        raise ClubError("--league needs --league-cafile FILE: the bridge to the league "
                        "speaks TLS only and checks the league broker against its certificate "
                        "authority (the league's ca.crt)")
    if (args.league_user is None) != (args.league_password_file is None):
        raise ClubError("--league-user and --league-password-file go together")
    password = None
    if args.league_password_file is not None:
        password = _read_password(Path(args.league_password_file), "the league's password file")
    return club_setup.League(args.league, Path(args.league_cafile), args.league_user,
                             password)


def run_setup(args: argparse.Namespace) -> int:
    """Write the broker's configuration, or (``--upgrade``) bring an existing club's ACL up
    to date."""
    if args.upgrade:
        given = [option for option, value in (
            ("--boards", args.boards), ("--club", args.club), ("--port", args.port),
            ("--league", args.league), ("--league-cafile", args.league_cafile),
            ("--league-user", args.league_user),
            ("--league-password-file", args.league_password_file)) if value is not None]
        if given:
            raise ClubError(f"--upgrade brings the club already set up in --out up to date, "
                            f"as it is: give --out alone (and --host for a club whose "
                            f"broker has no certificate yet), not {given[0]}")
        # The configuration first: it checks the ACL too, so a club that cannot be
        # brought up to date with care has neither file changed.
        conf = club_setup.upgrade_conf(Path(args.out), args.host)
        for line in [*club_setup.upgrade_acl(Path(args.out)), *conf]:
            print(line)
        return 0
    if args.boards is None:
        raise ClubError("club setup needs --boards N (how many boards), or --upgrade to "
                        "bring a club already set up in --out up to date")
    for line in club_setup.write_setup(Path(args.out), club=args.club or "club",
                                       boards=args.boards,
                                       port=8883 if args.port is None else args.port,
                                       league=_league(args), hosts=args.host):
        print(line)
    return 0


def run_seat(args: argparse.Namespace) -> int:
    """Check in (each member's name shown to verify; guests and unknown numbers flagged) and
    print the night's seating."""
    roster: dict[str, tuple[str, bool]] = {}
    if args.members:
        roster = _roster(Path(args.members))
    present = [number.strip() for number in args.present.split(",") if number.strip()]
    drawn = args.seating == "random"
    seed = args.seed if args.seed is not None else secrets.randbelow(MOST_SEED + 1)
    night = seating.seat(present, args.rounds, args.seating, seed, args.from_round)
    # With --json standard output is the seating file alone (club serve --seating reads it):
    # the check-in lines, for the director's eyes, go to standard error.
    said = sys.stderr if args.json else sys.stdout
    for number in present:
        name, guest = roster.get(number, ("", False))
        flag = "(guest)" if guest else "" if name or not roster else "(not on the roster)"
        print(" ".join(word for word in ("checked in", number, name, flag) if word), file=said)
    if drawn:
        print(f"seated at random each round with seed {seed} (the same players, rounds and "
              f"--seed {seed} seat the night the same way again)", file=said)
    if args.json:
        print(json.dumps(seating.to_json(night)))
        return 0
    for r in night:
        tables = "; ".join(f"table {t.number}: {t.players[0]} v {t.players[1]}"
                           for t in r.tables)
        print(f"round {r.number}: {tables}" + (f"; bye: {r.bye}" if r.bye else ""))
    return 0


def _roster(path: Path) -> dict[str, tuple[str, bool]]:
    db = results.connect(Path(":memory:"))
    try:
        results.load_members(db, path)
        return {row[0]: (row[1], bool(row[2])) for row in db.execute("SELECT * FROM member")}
    except sqlite3.Error as error:
        raise ClubError(f"cannot read the roster {path}: {error}") from None
    finally:
        db.close()
