"""``pegboard club setup``: a club broker nobody at the club can fake a result on.

Writes into one folder:

- ``mosquitto.conf``: a listener on the given port, no anonymous clients, the password file
  and the ACL below, persistence (the standings service's session and its queued results
  survive a broker restart);
- ``passwords``: one user per board (``board-1`` ...), one for the standings service
  (``standings``) and one for viewers (``viewer``), each with a random password, hashed by
  mosquitto's own ``mosquitto_passwd -U``;
- ``acl``: a board may publish only under its own topic (``pegboard/<club>/board/<its id>/#``),
  the standings service may only read results, a viewer may only read the live table states
  and availabilities;
- ``<user>.password``: each user's password in a file of its own (mode 600) for
  ``--password-file``: copy each board's to its board;
- with ``--league HOST:PORT``, a bridge forwarding the club's topics to the league's broker
  (:func:`bridge`), where a league's standings service (``--club +``) ranks every club.

Nothing is written over: the folder must not hold these files already.
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
from pathlib import Path

from pegboard.club.topics import ONLINE, RESULT, ROOT, STATE
from pegboard.errors import ClubError

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
    """The ACL: each board writes its own topics, the service reads results, viewers read
    states."""
    lines = [f"# pegboard club {club}: who may publish and read what (docs/club.md)", ""]
    for board in boards:
        lines += [f"user {board}", f"topic write {ROOT}/{club}/board/{board}/#", ""]
    lines += ["user standings", f"topic read {ROOT}/{club}/board/+/{RESULT}/+",
              f"topic read {ROOT}/{club}/board/+/{STATE}",
              f"topic read {ROOT}/{club}/board/+/{ONLINE}", "",
              "user viewer", f"topic read {ROOT}/{club}/board/+/{STATE}",
              f"topic read {ROOT}/{club}/board/+/{ONLINE}", ""]
    return "\n".join(lines)


def bridge(club: str, league: tuple[str, int], *, user: str | None = None,
           password: str | None = None) -> str:
    """The mosquitto bridge that forwards a club's results and live states to the league's
    broker (mosquitto's own bridge: QoS 1, retained flags kept, a persistent session so a
    result is not lost while the link is down)."""
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
    if user is not None:
        lines.append(f"remote_username {user}")
        if password is not None:
            lines.append(f"remote_password {password}")
    return "\n".join(lines) + "\n"


def write_setup(out: Path, *, club: str, boards: int, port: int,
                league: tuple[str, int] | None = None) -> list[str]:
    """Write the broker's files into ``out``; lines saying what was written."""
    if not 1 <= boards <= MOST_BOARDS:
        raise ClubError(f"--boards {boards}: give 1 to {MOST_BOARDS} boards")
    tool = shutil.which("mosquitto_passwd")
    if tool is None:
        raise ClubError("mosquitto_passwd was not found: install Debian's mosquitto package")
    out.mkdir(parents=True, exist_ok=True)
    names = [f"board-{n}" for n in range(1, boards + 1)]
    users = [*names, "standings", "viewer"]
    for name in ("mosquitto.conf", "passwords", "acl", *(f"{u}.password" for u in users)):
        if (out / name).exists():
            raise ClubError(f"{out / name} exists already; setup never writes over a "
                            "club's passwords")
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
    _write(out / "mosquitto.conf", (
        f"# pegboard club {club}: mosquitto -c {out / 'mosquitto.conf'}\n"
        f"listener {port}\n"
        "allow_anonymous false\n"
        f"password_file {out / 'passwords'}\n"
        f"acl_file {out / 'acl'}\n"
        + persistence(out)
        + ("" if league is None else "\n# the league's broker\n" + bridge(club, league))
    ), 0o644)
    return [f"wrote {out / 'mosquitto.conf'}, passwords and acl for {boards} boards of {club}",
            f"each user's password is in {out}/<user>.password (board-1 ... board-{boards}, "
            "standings, viewer)"]
