"""Where ``club publish`` and ``club serve`` take the broker, the board and the credentials
from: the config file's ``[club]`` (as the device's unit runs it), the options winning."""

from __future__ import annotations

import errno
import os
import socket
from pathlib import Path

import pytest

from pegboard.cli import main
from pegboard.club.outbox import Outbox
from pegboard.commands.club_settings import settings
from pegboard.commands.parsers import build_parser
from pegboard.store import Store
from tests.support.club import Publisher, Standings, write_club_game
from tests.support.mosquitto import Broker, club_setup
from tests.support.ports import free_port


def some_ca(folder: Path) -> str:
    """A file that reads as a certificate authority (the settings tests never connect)."""
    path = folder / "ca.crt"
    path.write_text("-----BEGIN CERTIFICATE-----\nMII=\n-----END CERTIFICATE-----\n",
                    encoding="utf-8")
    return str(path)


def club_toml(path: Path, **keys: object) -> Path:
    lines = ["[club]"]
    for key, value in keys.items():
        shown = ("true" if value else "false") if isinstance(value, bool) else (
            f'"{value}"' if isinstance(value, str) else str(value))
        lines.append(f"{key} = {shown}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_publish_and_serve_take_their_credentials_from_the_config(tmp_path: Path) -> None:
    """A broker that lets nobody in without a password (club setup's ACL): the board and
    the standings service connect with the user and password file their config names."""
    port = free_port()
    out = tmp_path / "club"
    conf = club_setup(out, port, boards=1)
    broker = f"127.0.0.1:{port}"
    board = club_toml(tmp_path / "board.toml", enabled=True, club="c1", board="board-1",
                      broker=broker, user="board-1",
                      password_file=str(out / "board-1.password"), ca_file=str(out / "ca.crt"))
    # The standings host is also board 1: its config has the board's identity beside the
    # service's own, and the service must connect as "standings" (a board may not read).
    host = club_toml(tmp_path / "host.toml", broker=broker, user="board-1",
                     password_file=str(out / "board-1.password"), serve_user="standings",
                     serve_password_file=str(out / "standings.password"),
                     ca_file=str(out / "ca.crt"))
    store = tmp_path / "store"
    with Store(store, owner="board") as opened:
        write_club_game(opened, 5, night=1, round_=1, table=1, members=("101", "102"))
    with Broker(tmp_path / "broker", port=port, config=conf):
        service = Standings(tmp_path / "r.db", None, club="c1", extra=("--config", str(host)))
        publisher = Publisher(store, "", "board-1", config=board)
        try:
            assert service.wait_for(1)["results"] == 1
            assert publisher.stop() == 0
            assert "Publishing board board-1 of c1 to 127.0.0.1" in publisher.log.read_text(
                encoding="utf-8")
        finally:
            publisher.stop()
            service.stop()


def test_an_option_wins_over_the_config_key(tmp_path: Path) -> None:
    (tmp_path / "board.password").write_text("from the file\n", encoding="utf-8")
    (tmp_path / "other.password").write_text("from the option\n", encoding="utf-8")
    config = club_toml(tmp_path / "c.toml", enabled=True, club="c1", board="board-1",
                       broker="10.0.0.5:1884", user="board-1",
                       password_file=str(tmp_path / "board.password"), ca_file=some_ca(tmp_path))
    parser = build_parser()
    publish = ["club", "publish", "--store", str(tmp_path), "--config", str(config)]
    got = settings(parser.parse_args(publish), publish=True)
    assert (got.broker, got.club, got.board, got.username, got.password) == (
        ("10.0.0.5", 1884), "c1", "board-1", "board-1", "from the file")
    got = settings(parser.parse_args([*publish, "--broker", "h:1", "--board", "b2", "--club",
                                      "c2", "--user", "u", "--password-file",
                                      str(tmp_path / "other.password")]), publish=True)
    assert (got.broker, got.club, got.board, got.username, got.password) == (
        ("h", 1), "c2", "b2", "u", "from the option")
    served = settings(parser.parse_args(["club", "serve", "--db", "x.db", "--config",
                                         str(config)]), publish=False)
    assert (served.broker, served.club, served.username, served.password) == (
        ("10.0.0.5", 1884), "+", None, None)  # the board's identity is the board's alone


def test_serve_connects_with_its_own_identity_never_the_boards(tmp_path: Path) -> None:
    """On a host that is also a board, the standings service reads the same config but
    connects as ``serve_user`` with ``serve_password_file``; its options still win."""
    (tmp_path / "board.password").write_text("board's\n", encoding="utf-8")
    (tmp_path / "standings.password").write_text("service's\n", encoding="utf-8")
    config = club_toml(tmp_path / "c.toml", enabled=True, club="c1", board="board-1",
                       broker="10.0.0.5:1884", user="board-1",
                       password_file=str(tmp_path / "board.password"),
                       serve_user="standings",
                       serve_password_file=str(tmp_path / "standings.password"),
                       ca_file=some_ca(tmp_path))
    parser = build_parser()
    serve = ["club", "serve", "--db", "x.db", "--config", str(config)]
    served = settings(parser.parse_args(serve), publish=False)
    assert (served.username, served.password) == ("standings", "service's")
    published = settings(parser.parse_args(["club", "publish", "--store", str(tmp_path),
                                            "--config", str(config)]), publish=True)
    assert (published.username, published.password) == ("board-1", "board's")
    given = settings(parser.parse_args([*serve, "--user", "viewer"]), publish=False)
    assert given.username == "viewer"


@pytest.mark.parametrize(("keys", "expected"), [
    ({"board": "b1", "broker": "h:1"}, "club.enabled is false and no --board and --broker"),
    ({"enabled": True, "board": "b/1", "broker": "h:1"}, 'club.board = "b/1" is not'),
    ({"enabled": True, "board": "b1"}, 'club.enabled = true but club.broker = ""'),
    ({"enabled": True, "board": "b1", "broker": "h:1", "user": "u", "ca_file": "/dev/null",
      "password_file": "/nonexistent/p"}, "cannot read club.password_file in"),
    ({"enabled": True, "board": "b1", "broker": "h:1", "user": "u",
      "password_file": "/nonexistent/p"}, 'club.user is set but club.ca_file = ""'),
    ({"enabled": True, "board": "b1", "broker": "h:1", "ca_file": "/dev/null"},
     "club.ca_file in"),
])
def test_a_bad_club_config_stops_publish_naming_the_key(
        tmp_path: Path, keys: dict[str, object], expected: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    config = club_toml(tmp_path / "c.toml", **keys)
    assert main(["club", "publish", "--store", str(tmp_path), "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert expected in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(("made", "expected"), [
    ("empty", "is empty: it holds the password"),
    ("blank", "is empty: it holds the password"),
    ("folder", "is not a file"),
    ("fifo", "is not a file"),  # opened without waiting for a writer
    ("long", "is longer than 4096 bytes"),
    ("latin-1", "cannot read club.password_file in"),
])
def test_a_password_file_that_holds_no_password_stops_publish_naming_it(
        tmp_path: Path, made: str, expected: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "board.password"
    if made == "folder":
        path.mkdir()
    elif made == "fifo":
        os.mkfifo(path)
    else:
        path.write_bytes({"empty": b"", "blank": b" \n\n", "long": b"p" * 5000,
                          "latin-1": b"caf\xe9\n"}[made])
    config = club_toml(tmp_path / "c.toml", enabled=True, board="b1", broker="h:1",
                       user="u", password_file=str(path), ca_file=some_ca(tmp_path))
    assert main(["club", "publish", "--store", str(tmp_path), "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert f"club.password_file in {config} {path}" in err and expected in err, err
    assert len(err.strip().splitlines()) == 1


def test_a_full_disk_stops_publish_in_one_line_and_keeps_every_result(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The broker acknowledges a result and the disk holding the acknowledgements is full:
    the publisher stops with one line and status 1 (systemd starts it again), and the
    result, never written down as acknowledged, is still waiting for the next start."""
    store = tmp_path / "store"
    with Store(store, owner="board") as opened:
        write_club_game(opened, 5, night=1, round_=1, table=1, members=("101", "102"))
    acked = tmp_path / "acked.txt"

    def full(fd: int, data: bytes) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with Broker(tmp_path / "broker") as broker:
        argv = ["club", "publish", "--store", str(store), "--broker", broker.address,
                "--board", "b1", "--club", "c1", "--acked", str(acked), "--poll", "0.05"]
        with monkeypatch.context() as patched:
            patched.setattr("pegboard.club.outbox.os.write", full)
            assert main(argv) == 1
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
        assert f"cannot write {acked}: No space left on device" in err
    # Nothing was written down as acknowledged: the next start sends the result again.
    assert acked.read_text(encoding="utf-8") == ""
    again = Outbox(acked)
    try:
        assert again.acked == set()
    finally:
        again.close()


@pytest.mark.parametrize("command", ["publish", "serve"])
def test_a_user_without_the_clubs_authority_is_refused_before_connecting(
        tmp_path: Path, command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A user and password with no certificate authority would cross the network in clear:
    ``club publish`` and ``club serve`` stop with one line naming ``--cafile`` (exit 2)
    before connecting; the port given never sees a connection."""
    password = tmp_path / "p.password"
    password.write_text("secret\n", encoding="utf-8")
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen(8)
        listening.setblocking(False)
        broker = f"127.0.0.1:{listening.getsockname()[1]}"
        given = (["club", "publish", "--store", str(tmp_path), "--board", "board-1"]
                 if command == "publish" else
                 ["club", "serve", "--db", str(tmp_path / "r.db"), "--port", "0"])
        assert main([*given, "--broker", broker, "--user", "board-1",
                     "--password-file", str(password)]) == 2
        with pytest.raises(BlockingIOError):
            listening.accept()  # nothing connected, not even to say hello
    err = capsys.readouterr().err
    assert "would send its password in clear" in err and "--cafile" in err, err
    assert len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "r.db").exists()
