"""``[phones] enabled`` without ``--phones``: the board serves the phones on ``[phones] port``,
or says why it cannot and shows no join code that no server would answer."""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from pegboard.app import pairing
from pegboard.app.effects import OfferPairing
from pegboard.app.inputs import KnobTurn
from pegboard.config import Config
from pegboard.config.phones import PhonesConfig
from pegboard.device import build
from tests.support.app_driver import OK, App
from tests.support.ports import free_port

WAIT_S = 60.0

# Reading the board's log waits for its lines: a board that never says "ready" fails here.
pytestmark = pytest.mark.timeout(120)


@contextmanager
def board(tmp_path: Path, port: int) -> Iterator[tuple[subprocess.Popen[str], list[str]]]:
    """``pegboard run`` on mock pins and the dummy display, with ``[phones] enabled`` on
    ``port`` in its configuration, until it is ready; stopped (SIGTERM) at the end."""
    config = tmp_path / "config.toml"
    config.write_text(f"[phones]\nenabled = true\nport = {port}\n")
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "PEGBOARD_STORE": str(tmp_path / "s")}
    proc = subprocess.Popen([sys.executable, "-m", "pegboard", "run", "--display", "dummy",
                             "--config", str(config)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    assert proc.stdout is not None
    logged: list[str] = []
    try:
        for line in proc.stdout:  # blocks until the process writes: no sleeping
            logged.append(line)
            if line.rstrip().endswith("ready"):
                break
        else:
            raise AssertionError(f"pegboard run never said ready: {''.join(logged)}")
        yield proc, logged
        proc.send_signal(signal.SIGTERM)
        logged += proc.stdout.readlines()
        assert proc.wait(timeout=WAIT_S) == 0, "".join(logged)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_phones_enabled_in_the_config_serves_them_on_its_port(tmp_path: Path) -> None:
    port = free_port()
    with board(tmp_path, port) as (_, logged):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT_S)
        connection.request("GET", "/phone", headers={"host": f"127.0.0.1:{port}"})
        answer = connection.getresponse()
        assert answer.status == 200 and b"Pegboard: your hand" in answer.read()
        connection.close()
    assert f"phone seats on http://0.0.0.0:{port}/phone" in "".join(logged)


def test_phones_enabled_on_a_port_taken_says_why_and_pairs_nobody(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        taken.bind(("0.0.0.0", 0))
        taken.listen(1)
        port = int(taken.getsockname()[1])
        with board(tmp_path, port) as (_, logged):
            pass
    text = "".join(logged)
    assert (f"phones: [phones] is enabled, but cannot listen on 0.0.0.0 port {port}: "
            "Address already in use: no join codes are shown") in text, text
    assert "phone seats on" not in text and "Traceback" not in text


def test_pairing_is_on_exactly_when_the_phones_are_served() -> None:
    enabled = Config(phones=PhonesConfig(enabled=True))
    assert not build.with_phones(enabled, False).phones.enabled
    assert build.with_phones(Config(), True).phones.enabled
    assert build.with_phones(enabled, True) is enabled
    # With pairing off, a new game offers no code (nothing would answer it); on, it does.
    for served in (False, True):
        app = App.start(phones=build.with_phones(enabled, served).phones)
        app.feed(OK)  # New game
        while app.view.selected != 0:
            app.feed(KnobTurn(1))
        app.feed(OK)  # Start
        offered = [e for e in app.effects if isinstance(e, OfferPairing)]
        assert offered == ([OfferPairing(2)] if served else []), app.effects
        assert (pairing.offer(app.state) is not None) is served
