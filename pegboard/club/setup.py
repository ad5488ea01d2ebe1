"""``pegboard club setup``: a club broker nobody at the club can fake a result on.

Writes into one folder:

- ``ca.crt`` and ``ca.key``: the club's own small certificate authority (made by the
  ``openssl`` command: an EC P-256 key, :data:`CA_DAYS` days); ``ca.crt`` goes to every board
  and the standings host, which trust no other certificate for the broker;
- ``broker.crt`` and ``broker.key``: the broker's certificate, signed by that authority, for
  the names and addresses the boards reach it by (``--host``; :func:`broker_names`);
- ``standings.crt`` and ``standings.key``: the standings page's, for the same names
  (``club serve --certfile --keyfile``: the page and the director's acts over HTTPS);
- ``mosquitto.conf``: one listener on the given port with TLS only (TLS 1.2 at least), no
  anonymous clients, the password file and the ACL below, the bounds of :func:`bounds`
  (a packet's size, memory, connections, queues), persistence (the standings service's
  session and its queued results survive a broker restart);
- ``passwords``: one user per board (``board-1`` ...), one for the standings service
  (``standings``) and one for viewers (``viewer``), each with a random password, hashed by
  mosquitto's own ``mosquitto_passwd -U``;
- ``acl``: a board may publish only its own topics (``pegboard/<club>/board/<its id>/`` and
  ``result/<game>``, ``state``, ``online`` under it) and read the club's night
  (``pegboard/<club>/night``), the standings service may only read results and publish the
  night, a viewer may only read the live table states and availabilities;
- ``<user>.password``: each user's password in a file of its own (mode 600) for
  ``--password-file``: copy each board's to its board;
- with ``--league HOST:PORT``, a bridge forwarding the club's topics to the league's broker
  (:func:`bridge`), where a league's standings service (``--club +``) ranks every club; over
  TLS only, the league broker checked against its authority (``--league-cafile``, copied as
  ``league-ca.crt``).

Nothing is written over: the folder must not hold these files already. A club set up by
an older version is brought up to date with ``--upgrade`` (:func:`upgrade_acl`): the lines
its ACL lacks are added, and nothing else is touched.
"""

from __future__ import annotations

import ipaddress
import os
import re
import secrets
import shutil
import subprocess
import tempfile
from collections.abc import Iterable
from pathlib import Path

from pegboard.club.topics import (
    MAX_MESSAGE,
    ONLINE,
    RESULT,
    ROOT,
    STATE,
    check_id,
    night_topic,
)
from pegboard.errors import ClubError
from pegboard.rules.value import Value
from pegboard.web.server_hosts import board_names

SAVE_AFTER_CHANGES = 100
"""The broker writes its database (every retained result of the season, every session)
after this many changes, and when it stops. Its persistence is a whole snapshot written and
fsync-ed each time, not a journal: saved after every change, a night's few thousand live
states and results would each rewrite a database that grows all season, and a loaded host
(or a Pi's SD card) would hold every PUBACK behind those writes."""


def persistence(folder: Path) -> str:
    """The broker's persistence settings: its database in ``folder``, saved after
    :data:`SAVE_AFTER_CHANGES` changes and when it stops."""
    return (f"persistence true\npersistence_location {folder}/\n"
            f"autosave_interval {SAVE_AFTER_CHANGES}\nautosave_on_changes true\n"
            "max_queued_messages 100000\n")


MOST_BOARDS = 200


def _write(path: Path, text: str, mode: int = 0o600) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)


def acl(club: str, boards: list[str]) -> str:
    """The ACL: each board writes its own three kinds of topic (a result per game, its live
    state, its availability) and nothing deeper and reads the club's night; the service
    reads results and publishes the night; viewers read states."""
    lines = [f"# pegboard club {club}: who may publish and read what (docs/club.md)", ""]
    night = night_topic(club)
    for board in boards:
        own = f"{ROOT}/{club}/board/{board}"
        lines += [f"user {board}", f"topic write {own}/{RESULT}/+", f"topic write {own}/{STATE}",
                  f"topic write {own}/{ONLINE}", f"topic read {night}", ""]
    lines += ["user standings", f"topic read {ROOT}/{club}/board/+/{RESULT}/+",
              f"topic read {ROOT}/{club}/board/+/{STATE}",
              f"topic read {ROOT}/{club}/board/+/{ONLINE}", f"topic readwrite {night}", "",
              "user viewer", f"topic read {ROOT}/{club}/board/+/{STATE}",
              f"topic read {ROOT}/{club}/board/+/{ONLINE}", ""]
    return "\n".join(lines)


class League(Value):
    """The league's broker a club's broker forwards to (``club setup --league``)."""

    __slots__ = ("address", "ca_file", "password", "user")
    __match_args__ = ("address", "ca_file", "user", "password")

    address: tuple[str, int]
    ca_file: Path
    """The league broker's certificate authority (its ``ca.crt``): the bridge speaks TLS
    only and checks the league broker's certificate, its name included, against it."""
    user: str | None
    password: str | None

    def __init__(
        self,
        address: tuple[str, int],
        ca_file: Path,
        user: str | None = None,
        password: str | None = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "address", address)
        setter(self, "ca_file", ca_file)
        setter(self, "user", user)
        setter(self, "password", password)


LEAGUE_CA = "league-ca.crt"
"""The league broker's authority, as copied into the club's setup folder."""


def bridge(club: str, league: tuple[str, int], *, ca_file: Path | None = None,
           user: str | None = None, password: str | None = None) -> str:
    """The mosquitto bridge that forwards a club's results and live states to the league's
    broker (mosquitto's own bridge: QoS 1, retained flags kept, a persistent session so a
    result is not lost while the link is down). ``ca_file``: over TLS (1.2 at least), the
    league broker's certificate checked against that authority and for the name or address
    in ``league`` (``club setup`` always gives one; without, plain MQTT, for the tests)."""
    lines = [
        f"connection pegboard-{club}-league",
        f"address {league[0]}:{league[1]}",
        f"topic {ROOT}/{club}/board/# out 1",
        "cleansession false",
        f"remote_clientid pegboard-{club}-bridge",
        "bridge_protocol_version mqttv311",
        "try_private true",
        "restart_timeout 1 4",
    ]
    if ca_file is not None:
        lines += [f"bridge_cafile {ca_file}", "bridge_tls_version tlsv1.2",
                  "bridge_insecure false"]
    if user is not None:
        lines.append(f"remote_username {user}")
        if password is not None:
            lines.append(f"remote_password {password}")
    return "\n".join(lines) + "\n"


CA_DAYS = 7300
"""The club's certificate authority is good for 20 years: it signs the broker's certificate
once, at setup, and boards trust it for as long as the club keeps its broker."""
BROKER_DAYS = 3650
"""The broker's certificate is good for 10 years (a new one: ``club setup`` into a new
folder, and ``ca.crt`` copied to the boards again)."""

MAX_PACKET = MAX_MESSAGE
"""The largest MQTT packet the broker takes (``max_packet_size``,
:data:`pegboard.club.topics.MAX_MESSAGE`): a bigger one disconnects its sender and is never
retained. The standings service refuses anything above it before reading it
(:mod:`pegboard.club.check`)."""
MEMORY_LIMIT = 256 * 1024 * 1024
"""The most heap the broker may take (``memory_limit``): a season's retained results are a
few tens of megabytes; past it a publisher's message is dropped and the publisher
disconnected, never the broker."""
QUEUED_BYTES = 64 * 1024 * 1024
"""The most bytes queued for one client while it is away (``max_queued_bytes``): the
standings service's session between its restarts. Results are also retained, so a result
dropped from a full queue reaches the service again when it subscribes."""


def bounds(boards: int) -> str:
    """The broker's bounds on what a client can make it hold: a packet's size
    (:data:`MAX_PACKET`), its memory (:data:`MEMORY_LIMIT`), a client's queue while away
    (:data:`QUEUED_BYTES`), a client's messages in flight, the keep-alive a client may ask
    for, and the connections at once (every board twice, as a board that lost its
    connection comes back before the broker has timed the old one out; once more for the
    standings service's connection for that board's results, :mod:`pegboard.club.links`;
    and 32 more for the service's own two, viewers and a league's bridge)."""
    return (f"max_packet_size {MAX_PACKET}\nmemory_limit {MEMORY_LIMIT}\n"
            f"max_queued_bytes {QUEUED_BYTES}\nmax_inflight_messages 20\n"
            f"max_keepalive 120\nmax_connections {3 * boards + 32}\n")


def broker_names(extra: Iterable[str] = ()) -> list[str]:
    """The names and addresses the broker's certificate is made for: this host's names
    (:func:`pegboard.web.server_hosts.board_names`: its name, ``.local``, ``localhost``, the
    loopback addresses) and ``extra`` (``--host``: the address the boards are given as
    ``club.broker``, checked by :func:`pegboard.web.server_hosts.host_name`)."""
    return sorted(board_names(extra))


def _subject_names(names: Iterable[str]) -> str:
    """``subjectAltName`` for ``names``: an ``IP:`` entry for an address, ``DNS:`` else."""
    entries = []
    for name in names:
        try:
            entries.append(f"IP:{ipaddress.ip_address(name)}")
        except ValueError:
            entries.append(f"DNS:{name}")
    return ",".join(entries)


def _openssl(tool: str, *args: str, cwd: Path) -> None:
    done = subprocess.run([tool, *args], cwd=cwd, capture_output=True, text=True, check=False,
                          stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise ClubError(f"openssl {args[0]} failed: {last}")


def make_certificates(out: Path, club: str, names: list[str]) -> None:
    """The club's certificate authority (``ca.crt``, ``ca.key``), the broker's certificate
    for ``names`` (``broker.crt``, ``broker.key``) and the standings page's for the same
    names (``standings.crt``, ``standings.key``: ``club serve --certfile --keyfile``, so the
    director's password crosses the room's network only inside TLS), made by the
    ``openssl`` command in a private folder and moved into ``out`` once all six are made;
    private keys mode 600, certificates 644."""
    tool = shutil.which("openssl")
    if tool is None:
        raise ClubError("openssl was not found: install Debian's openssl package")
    curve = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes")
    with tempfile.TemporaryDirectory(dir=out, prefix=".tls-") as folder:
        work = Path(folder)
        _openssl(tool, "req", "-x509", *curve, "-keyout", "ca.key", "-out", "ca.crt",
                 "-days", str(CA_DAYS), "-subj", f"/O=pegboard club {club}/CN={club} club CA",
                 "-addext", "basicConstraints=critical,CA:TRUE,pathlen:0",
                 "-addext", "keyUsage=critical,keyCertSign,cRLSign", cwd=work)
        (work / "server.ext").write_text(
            "basicConstraints=critical,CA:FALSE\n"
            "keyUsage=critical,digitalSignature\n"
            "extendedKeyUsage=serverAuth\n"
            f"subjectAltName={_subject_names(names)}\n", encoding="utf-8")
        for server in ("broker", "standings"):  # the broker's, and the standings page's
            _openssl(tool, "req", "-new", *curve, "-keyout", f"{server}.key", "-out",
                     f"{server}.csr", "-subj", f"/O=pegboard club {club}/CN={names[0]}",
                     cwd=work)
            _openssl(tool, "x509", "-req", "-in", f"{server}.csr", "-CA", "ca.crt", "-CAkey",
                     "ca.key", "-set_serial", str(secrets.randbits(120)), "-days",
                     str(BROKER_DAYS), "-extfile", "server.ext", "-out", f"{server}.crt",
                     cwd=work)
        for name, mode in (("ca.key", 0o600), ("broker.key", 0o600), ("standings.key", 0o600),
                           ("ca.crt", 0o644), ("broker.crt", 0o644), ("standings.crt", 0o644)):
            os.chmod(work / name, mode)
            os.link(work / name, out / name)  # fails rather than write over


def mosquitto_conf(out: Path, *, club: str, boards: int, port: int,
                   league: League | None = None) -> str:
    """The broker's configuration: one listener, TLS only, with the club's certificate."""
    return (
        f"# pegboard club {club}: mosquitto -c {out / 'mosquitto.conf'}\n"
        f"listener {port}\n"
        f"cafile {out / 'ca.crt'}\n"
        f"certfile {out / 'broker.crt'}\n"
        f"keyfile {out / 'broker.key'}\n"
        "tls_version tlsv1.2\n"
        "allow_anonymous false\n"
        f"password_file {out / 'passwords'}\n"
        f"acl_file {out / 'acl'}\n"
        + bounds(boards)
        + persistence(out)
        + ("" if league is None else "\n# the league's broker, over TLS\n" + bridge(
            club, league.address, ca_file=out / LEAGUE_CA, user=league.user,
            password=league.password))
    )


SETUP_FILES = ("mosquitto.conf", "passwords", "acl", "ca.crt", "ca.key", "broker.crt",
               "broker.key", "standings.crt", "standings.key")


def _league_ca(league: League | None) -> str | None:
    """The league broker's authority as given (``--league-cafile``): PEM certificates;
    ClubError naming the file when it is not one."""
    if league is None:
        return None
    try:
        text = league.ca_file.read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError) as error:
        raise ClubError(f"--league-cafile {league.ca_file}: cannot be read "
                        f"({getattr(error, 'strerror', None) or error})") from None
    if "-----BEGIN CERTIFICATE-----" not in text:
        raise ClubError(f"--league-cafile {league.ca_file} is not a PEM certificate (the "
                        "league broker's ca.crt)")
    return text


def write_setup(out: Path, *, club: str, boards: int, port: int,
                league: League | None = None,
                hosts: Iterable[str] = ()) -> list[str]:
    """Write the broker's files into ``out``; lines saying what was written. ``hosts``: the
    names and addresses boards reach the broker by, beside this host's own."""
    if not 1 <= boards <= MOST_BOARDS:
        raise ClubError(f"--boards {boards}: give 1 to {MOST_BOARDS} boards")
    tool = shutil.which("mosquitto_passwd")
    if tool is None:
        raise ClubError("mosquitto_passwd was not found: install Debian's mosquitto package")
    out.mkdir(parents=True, exist_ok=True)
    names = [f"board-{n}" for n in range(1, boards + 1)]
    users = [*names, "standings", "viewer"]
    league_ca = _league_ca(league)
    for name in (*SETUP_FILES, LEAGUE_CA, *(f"{u}.password" for u in users)):
        if (out / name).exists():
            raise ClubError(f"{out / name} exists already; setup never writes over a "
                            "club's passwords and keys (an existing club's ACL is brought up "
                            f"to date by: pegboard club setup --out {out} --upgrade)")
    extra = list(hosts)
    certified = [*extra, *(n for n in broker_names() if n not in extra)]
    make_certificates(out, club, certified)
    secret = {user: secrets.token_urlsafe(18) for user in users}
    _write(out / "passwords", "".join(f"{u}:{secret[u]}\n" for u in users))
    done = subprocess.run([tool, "-U", str(out / "passwords")], capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        (out / "passwords").unlink()
        raise ClubError(f"mosquitto_passwd failed: {done.stderr.strip()}")
    for user in users:
        _write(out / f"{user}.password", secret[user] + "\n")
    _write(out / "acl", acl(club, names), 0o644)
    if league_ca is not None:
        _write(out / LEAGUE_CA, league_ca, 0o644)
    # With the league's password in it, the configuration is the broker's to read alone.
    _write(out / "mosquitto.conf", mosquitto_conf(out, club=club, boards=boards, port=port,
                                                  league=league),
           0o600 if league is not None and league.password is not None else 0o644)
    return [f"wrote {out / 'mosquitto.conf'}, passwords and acl for {boards} boards of {club}",
            f"each user's password is in {out}/<user>.password (board-1 ... board-{boards}, "
            "standings, viewer)",
            f"the broker listens with TLS only on port {port}; its certificate names "
            f"{', '.join(certified)}",
            f"copy {out / 'ca.crt'} to every board and the standings host (club.ca_file); "
            f"keep {out / 'ca.key'} private",
            f"the standings page's certificate for the same names: {out / 'standings.crt'} "
            f"and {out / 'standings.key'} (club serve --certfile --keyfile: HTTPS)"]


SERVICE_USERS = ("standings", "viewer")
"""The ACL's users that are not boards."""


def _users(lines: list[str]) -> dict[str, list[int]]:
    """Each user of an ACL's lines and the indexes of its ``user`` line and its ``topic``
    lines (mosquitto's grammar: a ``topic`` line belongs to the ``user`` line above it; a
    ``pattern`` line and the lines before any ``user`` belong to no user)."""
    found: dict[str, list[int]] = {}
    current: str | None = None
    for index, line in enumerate(lines):
        words = line.split()
        if words[:1] == ["user"] and len(words) == 2:
            current = words[1]
            found.setdefault(current, []).append(index)
        elif words[:1] == ["pattern"]:
            current = None
        elif words[:1] == ["topic"] and current is not None:
            found[current].append(index)
    return found


def _read(path: Path) -> tuple[str, os.stat_result]:
    """A club's file for ``--upgrade``: its text and its status (mode, owner); ClubError
    naming the file when it cannot be read."""
    try:
        return path.read_text(encoding="utf-8"), path.stat()
    except (OSError, UnicodeDecodeError) as error:
        raise ClubError(f"--upgrade: cannot read {path} "
                        f"({getattr(error, 'strerror', None) or error}): give the folder "
                        "club setup wrote the club's broker into (--out)") from None


def _club_of(path: Path, text: str) -> tuple[str, list[str], list[str], dict[str, list[int]]]:
    """The club and its boards as the ACL at ``path`` (its ``text``) has them: the topics'
    one club, and each user that writes its own live state; with the ACL's lines and their
    users (:func:`_users`). ClubError when it is not an ACL club setup wrote for one club."""
    clubs = sorted(set(re.findall(rf"^\s*topic\s+\w+\s+{ROOT}/([^/\s]+)/", text, re.M)))
    if len(clubs) != 1:
        named = "no club" if not clubs else "the clubs " + ", ".join(clubs)
        raise ClubError(f"--upgrade: {path} names {named} in its topics: not an ACL club "
                        "setup wrote for one club")
    club = check_id(clubs[0], "the ACL's club id")
    lines = text.splitlines()
    users = _users(lines)
    boards = [user for user, where in users.items() if user not in SERVICE_USERS and any(
        lines[i].split()[1:3] == ["write", f"{ROOT}/{club}/board/{user}/{STATE}"]
        for i in where[1:])]  # a board writes its own live state; any other user is the club's
    return club, boards, lines, users


def _replace(path: Path, lines: list[str], kept: os.stat_result) -> None:
    """Write ``lines`` as the file at ``path``, whole or not at all: a new file, written
    through, with the old one's mode and owner (``kept``), renamed over it."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as new:
            new.write("\n".join(lines) + "\n")
            new.flush()
            os.fsync(new.fileno())
        os.chmod(temporary, kept.st_mode & 0o7777)
        if (kept.st_uid, kept.st_gid) != (os.getuid(), os.getgid()):
            os.chown(temporary, kept.st_uid, kept.st_gid)
        os.replace(temporary, path)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise ClubError(f"--upgrade: cannot write {path}: {error.strerror or error}") from None


def upgrade_acl(out: Path) -> list[str]:
    """Bring the ACL of the club set up in ``out`` up to date (``club setup --upgrade``):
    every line the ACL :func:`acl` writes today that a user of the club's ACL lacks (a club
    set up before the club's night topic lacks the boards' ``topic read`` and the
    service's ``topic readwrite`` of it) is added under that user; every other line (a
    board added by hand, a line of the club's own) stays as it is, and no password, key
    or certificate is read or written. The club and its boards are the ACL's own (its
    topics' club; a board is a user writing its own live state), and a user of the club's
    own (neither a board, ``standings`` nor ``viewer``) is left as it is. Written whole or
    not at all (a new file renamed over the old, its mode and owner kept); lines saying
    what changed, or that nothing needed to. ClubError naming the problem when ``out``
    holds no ACL a club setup wrote."""
    path = out / "acl"
    text, kept = _read(path)
    club, boards, lines, users = _club_of(path, text)
    wanted = _users(acl(club, boards).splitlines())
    expected = acl(club, boards).splitlines()
    missing: dict[str, list[str]] = {}
    for user, where in users.items():
        if user not in boards and user not in SERVICE_USERS:
            continue
        have = {" ".join(lines[i].split()) for i in where[1:]}
        lacks = [expected[i] for i in wanted.get(user, [])[1:] if expected[i] not in have]
        if lacks:
            missing[user] = lacks
    if not missing:
        return [f"the ACL {path} of club {club} is up to date ({len(boards)} boards): "
                "nothing changed"]
    for user in sorted(missing, key=lambda u: users[u][-1], reverse=True):
        last = users[user][-1]  # under the user's last line, from the bottom up
        lines[last + 1:last + 1] = missing[user]
    _replace(path, lines, kept)
    said = [f"brought the ACL {path} of club {club} up to date:"]
    groups: dict[tuple[str, ...], list[str]] = {}
    for user in users:
        if user in missing:
            groups.setdefault(tuple(missing[user]), []).append(user)
    for added, who in groups.items():
        named = ", ".join(who) if len(who) <= 3 else f"{who[0]} ... {who[-1]} ({len(who)} users)"
        said.append(f"  added under {named}: {'; '.join(added)}")
    said += ["the passwords, keys and certificates are as they were (not read, not written)",
             "mosquitto reads the ACL again when sent SIGHUP or restarted: "
             "sudo systemctl reload-or-restart mosquitto"]
    return said


LISTENER_TLS = ("cafile", "certfile", "keyfile", "tls_version")
"""The listener's TLS settings, which belong to the ``listener`` line above them."""
LISTENER_OWN = ("max_connections",)
"""The other settings :func:`mosquitto_conf` writes that belong to the listener above them
(mosquitto.conf(5)); every other one is the broker's, wherever it stands."""
BROKER_FILES = ("ca.crt", "ca.key", "broker.crt", "broker.key", "standings.crt",
                "standings.key")
"""The club's authority and the certificates it signed (:func:`make_certificates`)."""


def _key(line: str) -> str | None:
    """A configuration line's setting (its first word), None for a comment or a blank."""
    words = line.split()
    return None if not words or words[0].startswith("#") else words[0]


def upgrade_conf(out: Path, hosts: Iterable[str] = ()) -> list[str]:
    """Bring the broker's configuration of the club set up in ``out`` up to date (``club
    setup --upgrade``), as :func:`upgrade_acl` does the ACL: every setting
    :func:`mosquitto_conf` writes today that the club's configuration lacks is added, and
    nothing else changes (a setting the club has, at whatever value, a line of its own, a
    bridge). The listener setup wrote (the first) gets what it lacks of TLS (the club's
    certificate authority and the broker's certificate, made by :func:`make_certificates`
    with ``hosts`` when the folder holds none; never written over) and of its own bounds,
    under it; the broker's bounds and persistence go at the end of that listener's lines,
    before any other listener or bridge. Written whole or not at all, its mode and owner
    kept; lines saying what changed (and the settings the club has at another value than
    today's setup writes, kept), or that nothing needed to. ClubError naming the problem
    (nothing changed) when it cannot be done with care: no ACL or configuration a club setup
    wrote, a listener with some TLS settings of its own but not all, or some of the club's
    certificates present and others not."""
    acl_path = out / "acl"
    acl_text, _ = _read(acl_path)
    club, boards, _, _ = _club_of(acl_path, acl_text)
    path = out / "mosquitto.conf"
    text, kept = _read(path)
    lines = text.splitlines()
    keys = [_key(line) for line in lines]
    if "listener" not in keys:
        raise ClubError(f"--upgrade: {path} has no listener line: not a configuration club "
                        "setup wrote")
    first = keys.index("listener")
    try:
        port = int(lines[first].split()[1])
    except (IndexError, ValueError):
        raise ClubError(f"--upgrade: {path} line {first + 1}: {lines[first][:80]!r} is not "
                        "a listener club setup wrote (listener PORT)") from None
    end = next((i for i in range(first + 1, len(lines)) if keys[i] in ("listener",
                                                                        "connection")),
               len(lines))
    own = {key for key in keys[first + 1:end] if key is not None}
    broker_keys = {key for i, key in enumerate(keys) if key is not None and (
        "connection" not in keys or i < keys.index("connection"))}
    today = [line for line in mosquitto_conf(out, club=club, boards=max(1, len(boards)),
                                             port=port).splitlines() if _key(line)]
    tls = [line for line in today if _key(line) in LISTENER_TLS and _key(line) not in own]
    rest = [line for line in today if _key(line) not in (*LISTENER_TLS, "listener")
            and _key(line) not in (own if _key(line) in LISTENER_OWN else broker_keys)]
    have = {key: " ".join(line.split()) for key, line in zip(keys, lines, strict=True)
            if key is not None}
    differ = [(have[key], line) for line in today if (key := _key(line)) in have
              and key != "listener" and have[key] != line
              and (key not in (*LISTENER_TLS, *LISTENER_OWN) or key in own)]
    said: list[str] = []
    needs = {"cafile", "certfile", "keyfile"} & {_key(line) for line in tls}
    if needs and needs != {"cafile", "certfile", "keyfile"}:
        raise ClubError(f"--upgrade: the listener in {path} has TLS settings of its own but "
                        f"not {', '.join(sorted(needs))}: set them by hand (nothing changed)")
    if needs:
        present = [name for name in BROKER_FILES if (out / name).exists()]
        if present and len(present) != len(BROKER_FILES):
            raise ClubError(f"--upgrade: {out} holds {', '.join(present)} but not "
                            f"{', '.join(n for n in BROKER_FILES if n not in present)}: "
                            "setup never writes over a club's keys (nothing changed)")
        if not present:
            extra = list(hosts)
            certified = [*extra, *(n for n in broker_names() if n not in extra)]
            make_certificates(out, club, certified)
            said += [f"made the club's certificate authority ({out / 'ca.crt'}, keep "
                     f"{out / 'ca.key'} private) and the broker's certificate for "
                     f"{', '.join(certified)}"]
    elif list(hosts):
        raise ClubError("--upgrade --host names the broker's certificate, which only a club "
                        "without one is given; this club's listener has its TLS settings")
    if not tls and not rest:
        return [f"the configuration {path} of club {club} is up to date: nothing changed",
                *(f"  kept as the club has it: {mine} (setup writes {theirs} today)"
                  for mine, theirs in differ)]
    last = max([first, *(i for i in range(first + 1, end) if keys[i] is not None)])
    lines[last + 1:last + 1] = rest
    lines[first + 1:first + 1] = tls
    _replace(path, lines, kept)
    said.insert(0, f"brought the configuration {path} of club {club} up to date:")
    if tls:
        said.append(f"  added under {lines[first].strip()}: {'; '.join(tls)}")
    if rest:
        said.append(f"  added: {'; '.join(rest)}")
    said += [f"  kept as the club has it: {mine} (setup writes {theirs} today)"
             for mine, theirs in differ]
    if needs:
        said += [f"the broker now listens with TLS only on port {port}: copy {out / 'ca.crt'} "
                 "to every board and the standings host (club.ca_file, --cafile); a board "
                 "without it is refused (docs/club.md: enrolling a board)"]
    said += ["mosquitto reads its configuration when started: "
             "sudo systemctl restart mosquitto"]
    return said
