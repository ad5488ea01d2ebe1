"""A real mosquitto broker on a free loopback port, for the club's tests and benchmark.

The configuration is written into a folder of the test's own; the broker is started as a
process and is ready when it says so on its log (read line by line, never a sleep) and a
connection to its port is accepted. :meth:`Broker.restart` stops it (SIGTERM: it saves its
persistent sessions and queued messages) and starts it again on the same port.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import threading
from pathlib import Path
from types import TracebackType

from pegboard.cli import main
from pegboard.club.setup import persistence
from tests.support.ports import free_port
from tests.support.waiting import LIVENESS_S, line_from

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


def _die_with_parent() -> None:
    """In the child: SIGTERM when the test's process dies (no broker left behind)."""
    import ctypes

    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def club_setup(out: Path, port: int, *, boards: int = 2, club: str = "c1") -> Path:
    """``pegboard club setup`` into ``out`` for a broker on ``port``; its mosquitto.conf,
    made to listen on loopback only (and, as root, to stay root: mosquitto would become the
    user "mosquitto", which cannot read the test's folder; docs/club.md has the folder made
    the mosquitto user's on a club host)."""
    assert main(["club", "setup", "--out", str(out), "--boards", str(boards), "--club", club,
                 "--port", str(port), "--host", "127.0.0.1"]) == 0
    config = out / "mosquitto.conf"
    text = config.read_text(encoding="utf-8")
    assert f"listener {port}\n" in text
    config.write_text(text.replace(f"listener {port}\n", f"listener {port} 127.0.0.1\n") + (
        "user root\n" if os.geteuid() == 0 else ""), encoding="utf-8")
    return config


class Broker:
    """mosquitto on 127.0.0.1 (see the module)."""

    def __init__(self, folder: Path, *, port: int | None = None, extra: str = "",
                 config: Path | None = None) -> None:
        """``config``: run the broker with this configuration (it must listen on ``port``)
        instead of the test's own."""
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.config = config or folder / "mosquitto.conf"
        self.process: subprocess.Popen[str] | None = None
        self.log: list[str] = []
        if config is not None:
            return
        self.config.write_text(
            f"listener {self.port} 127.0.0.1\n"
            "allow_anonymous true\n"
            + persistence(folder)
            + "log_dest stderr\n"
            "log_type error\nlog_type warning\nlog_type notice\nlog_type information\n"
            + extra,
            encoding="utf-8",
        )

    @property
    def address(self) -> str:
        """``HOST:PORT`` as the club commands take it."""
        return f"127.0.0.1:{self.port}"

    def start(self) -> Broker:
        """Start the broker and return once it accepts connections."""
        process = subprocess.Popen(
            [MOSQUITTO, "-c", str(self.config)], stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE, text=True, preexec_fn=_die_with_parent,
        )
        self.process = process
        assert process.stderr is not None
        while line := line_from(process.stderr, f"mosquitto to start on port {self.port}",
                                process=process):
            self.log.append(line)
            if "running" in line or "Error" in line:
                break
        if process.poll() is not None or not any("running" in line for line in self.log):
            raise RuntimeError(f"mosquitto did not start: {''.join(self.log[-5:])}")
        with socket.create_connection(("127.0.0.1", self.port), timeout=LIVENESS_S):
            pass
        # Keep reading its log so that the pipe never fills.
        threading.Thread(target=self._drain, args=(process,), daemon=True).start()
        return self

    def _drain(self, process: subprocess.Popen[str]) -> None:
        assert process.stderr is not None
        for line in process.stderr:
            self.log.append(line)

    def stop(self) -> None:
        """Stop the broker (it saves what it holds) and wait for it to end."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=60)
        self.process = None

    def restart(self) -> None:
        """Stop the broker and start it again on the same port."""
        self.stop()
        self.start()

    def __enter__(self) -> Broker:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.stop()
