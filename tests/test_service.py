"""Service helpers: sd_notify on a real datagram socket, watchdog pacing, journal, poweroff."""

from __future__ import annotations

import io
import logging
import os
import secrets
import socket
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from pegboard.errors import PegboardError
from pegboard.service import (
    Watchdog,
    notify,
    ready,
    request_poweroff,
    request_reboot,
    setup_logging,
    status,
    stopping,
    watchdog,
)
from pegboard.service.logs import connected_to_journal

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def manager(tmp_path: Path) -> Iterator[tuple[socket.socket, dict[str, str]]]:
    """A stand-in for systemd's notification socket: a bound Unix datagram socket."""
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(5)
    yield sock, {"NOTIFY_SOCKET": str(path)}
    sock.close()


def received(sock: socket.socket) -> list[str]:
    """Every datagram waiting on the socket."""
    messages = []
    sock.setblocking(False)
    try:
        while True:
            messages.append(sock.recv(4096).decode())
    except BlockingIOError:
        pass
    finally:
        sock.settimeout(5)
    return messages


def test_each_helper_sends_its_message(manager: tuple[socket.socket, dict[str, str]]) -> None:
    sock, env = manager
    assert ready(environ=env)
    assert status("Ann 87  Ben 92\n  (play)", environ=env)
    assert watchdog(environ=env)
    assert stopping(environ=env)
    assert notify("RELOADING=1", environ=env)
    assert received(sock) == [
        "READY=1",
        "STATUS=Ann 87 Ben 92 (play)",
        "WATCHDOG=1",
        "STOPPING=1",
        "RELOADING=1",
    ]


def test_abstract_socket_addresses_are_understood() -> None:
    name = f"pegboard-test-{secrets.token_hex(4)}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        assert ready(environ={"NOTIFY_SOCKET": "@" + name})
        assert sock.recv(100) == b"READY=1"


def test_outside_systemd_nothing_is_sent(tmp_path: Path) -> None:
    assert not ready(environ={})
    assert not ready(environ={"NOTIFY_SOCKET": "relative/path"})
    assert not ready(environ={"NOTIFY_SOCKET": str(tmp_path / "gone")})


def test_a_real_process_reports_ready(manager: tuple[socket.socket, dict[str, str]]) -> None:
    sock, env = manager
    subprocess.run(
        [sys.executable, "-c", "from pegboard.service import ready; ready()"],
        env={**os.environ, **env},
        check=True,
    )
    assert sock.recv(100) == b"READY=1"


def test_the_watchdog_pings_at_half_the_interval(
    manager: tuple[socket.socket, dict[str, str]],
) -> None:
    sock, env = manager
    dog = Watchdog.from_environ({**env, "WATCHDOG_USEC": "10000000"})
    assert dog.enabled and dog.interval_s == 10.0
    # A loop turning every 0.5 s for 30 s pings at 0, 5, 10, 15, 20, 25, 30.
    pinged = [t / 2 for t in range(61) if dog.tick(t / 2)]
    assert pinged == [0.0, 5.0, 10.0, 15.0, 20.0, 25.0, 30.0]
    assert received(sock) == ["WATCHDOG=1"] * 7


def test_a_slow_loop_still_pings_on_its_next_turn(
    manager: tuple[socket.socket, dict[str, str]],
) -> None:
    sock, env = manager
    dog = Watchdog(4.0, environ=env)
    assert received(sock) == []
    assert [t for t in (0.0, 1.0, 2.5, 3.0, 7.0, 8.0, 9.1) if dog.tick(t)] == [0.0, 2.5, 7.0, 9.1]
    assert len(received(sock)) == 4


@pytest.mark.parametrize(
    "environ",
    [
        {},
        {"WATCHDOG_USEC": "0"},
        {"WATCHDOG_USEC": "abc"},
        {"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "1"},
    ],
)
def test_the_watchdog_is_off_unless_systemd_asks_this_process(environ: dict[str, str]) -> None:
    dog = Watchdog.from_environ(environ)
    assert not dog.enabled
    assert not dog.due(0.0) and not dog.tick(100.0)


def test_the_watchdog_for_this_process_is_on() -> None:
    env = {"WATCHDOG_USEC": "3000000", "WATCHDOG_PID": str(os.getpid())}
    assert Watchdog.from_environ(env).interval_s == 3.0


@pytest.fixture(autouse=True)
def pegboard_logger_as_it_was() -> Iterator[None]:
    """``setup_logging`` puts a handler on the ``pegboard`` logger writing to a stream these
    tests close: the logger is given back as it was, so no later test writes through it."""
    ours = logging.getLogger("pegboard")
    before = (list(ours.handlers), ours.level)
    yield
    ours.handlers[:] = before[0]
    ours.setLevel(before[1])


def make_logger(stream: io.TextIOBase | object, environ: dict[str, str]) -> logging.Logger:
    setup_logging(logging.DEBUG, stream=stream, environ=environ)  # type: ignore[arg-type]
    return logging.getLogger("pegboard.test")


def test_journal_lines_carry_the_priority_of_their_level(tmp_path: Path) -> None:
    with open(tmp_path / "journal", "w+", encoding="utf-8") as stream:
        info = os.fstat(stream.fileno())
        env = {"JOURNAL_STREAM": f"{info.st_dev}:{info.st_ino}"}
        assert connected_to_journal(stream, env)
        log = make_logger(stream, env)
        log.debug("polling")
        log.info("ready")
        log.warning("link down")
        log.error("store moved aside\nsecond line")
        log.critical("dying")
        stream.flush()
        stream.seek(0)
        assert stream.read().splitlines() == [
            "<7>pegboard.test: polling",
            "<6>pegboard.test: ready",
            "<4>pegboard.test: link down",
            "<3>pegboard.test: store moved aside",
            "<3>second line",
            "<2>pegboard.test: dying",
        ]


def test_a_terminal_gets_times_and_level_names(tmp_path: Path) -> None:
    with open(tmp_path / "other", "w+", encoding="utf-8") as stream:
        env = {"JOURNAL_STREAM": "1:2"}  # some other stream is the journal
        assert not connected_to_journal(stream, env)
        log = make_logger(stream, env)
        log.warning("link down")
        setup_logging(logging.WARNING, stream=stream, environ=env)  # replaces, not adds
        log.info("hidden")
        log.warning("once")
        stream.seek(0)
        lines = stream.read().splitlines()
    assert len(lines) == 2
    assert lines[0].endswith(" WARNING pegboard.test: link down")
    assert lines[1].endswith(" WARNING pegboard.test: once")
    assert lines[0][2] == ":" and not lines[0].startswith("<")


def test_poweroff_asks_systemctl_without_sudo_or_a_password() -> None:
    commands: list[list[str]] = []

    def run(command: Sequence[str]) -> subprocess.CompletedProcess[str]:
        commands.append(list(command))
        return subprocess.CompletedProcess(command, 0, "", "")

    request_poweroff(run=run)
    request_reboot(run=run)
    assert commands == [
        ["systemctl", "--no-ask-password", "poweroff"],
        ["systemctl", "--no-ask-password", "reboot"],
    ]


def test_a_refused_poweroff_says_why() -> None:
    def refuse(command: Sequence[str]) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(command, 1, "", "Access denied\n")

    def missing(command: Sequence[str]) -> subprocess.CompletedProcess[str]:
        raise FileNotFoundError(2, "No such file or directory", command[0])

    with pytest.raises(PegboardError, match=r"poweroff was refused: Access denied$"):
        request_poweroff(run=refuse)
    with pytest.raises(PegboardError, match="cannot run systemctl"):
        request_poweroff(run=missing)
