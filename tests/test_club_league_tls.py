"""The bridge from a club's broker to the league's speaks TLS only (docs/club.md, "A league";
docs/security.md): ``club setup --league`` needs the league broker's authority, the bridge
carries a club's results to a league broker with TLS and checks its certificate, and a
league broker whose certificate is of another authority gets nothing. Real mosquitto brokers
on loopback, both with TLS; every wait on a log line or the standings' event stream,
bounded."""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import pytest

from pegboard.cli import main
from pegboard.club.setup import make_certificates
from pegboard.club.topics import result_topic
from tests.support.club import Standings
from tests.support.mosquitto import Broker
from tests.support.ports import free_port
from tests.test_club_broker import Client, card

WAIT_S = 60.0
"""How long the bridge may take to connect or to be refused: far above what it takes."""


def league_broker(tmp_path: Path, name: str) -> tuple[Broker, Path]:
    """A league's broker with TLS only on loopback, its certificate of an authority of its
    own (made as ``club setup`` makes a club's); anonymous clients let in, as the test's
    league has no users. The broker and its ``ca.crt``."""
    tls = tmp_path / name
    tls.mkdir()
    make_certificates(tls, name, ["127.0.0.1"])
    broker = Broker(tmp_path / f"{name}-broker", extra=(
        f"cafile {tls / 'ca.crt'}\ncertfile {tls / 'broker.crt'}\n"
        f"keyfile {tls / 'broker.key'}\ntls_version tlsv1.2\n"
        + ("user root\n" if os.geteuid() == 0 else "")))
    return broker, tls / "ca.crt"


def club_broker(tmp_path: Path, league_port: int, league_ca: Path) -> tuple[Broker, Path]:
    """The club's broker as ``club setup --league`` makes it, on loopback."""
    out = tmp_path / "club"
    port = free_port()
    assert main(["club", "setup", "--out", str(out), "--boards", "2", "--club", "north",
                 "--port", str(port), "--host", "127.0.0.1", "--league",
                 f"127.0.0.1:{league_port}", "--league-cafile", str(league_ca)]) == 0
    config = out / "mosquitto.conf"
    text = config.read_text(encoding="utf-8")
    assert f"bridge_cafile {out / 'league-ca.crt'}\n" in text
    assert "bridge_insecure false\n" in text and "bridge_tls_version tlsv1.2\n" in text
    config.write_text(text.replace(f"listener {port}\n", f"listener {port} 127.0.0.1\n")
                      + "log_dest stderr\nlog_type all\n"
                      + ("user root\n" if os.geteuid() == 0 else ""), encoding="utf-8")
    return Broker(tmp_path / "club-broker", port=port, config=config), out


def test_a_league_without_its_authority_is_refused_naming_it(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]
                                                             ) -> None:
    assert main(["club", "setup", "--out", str(tmp_path / "a"), "--boards", "2",
                 "--league", "127.0.0.1:8883"]) == 2
    assert "--league needs --league-cafile" in capsys.readouterr().err
    (tmp_path / "junk.crt").write_text("not a certificate\n", encoding="utf-8")
    assert main(["club", "setup", "--out", str(tmp_path / "b"), "--boards", "2",
                 "--league", "127.0.0.1:8883", "--league-cafile",
                 str(tmp_path / "junk.crt")]) == 2
    assert "is not a PEM certificate" in capsys.readouterr().err
    assert not (tmp_path / "b" / "mosquitto.conf").exists()
    ca = tmp_path / "ca"
    ca.mkdir()
    make_certificates(ca, "league", ["127.0.0.1"])
    league = ["--league", "127.0.0.1:8883", "--league-cafile", str(ca / "ca.crt")]
    assert main(["club", "setup", "--out", str(tmp_path / "c"), "--boards", "2", *league,
                 "--league-user", "north"]) == 2
    assert "--league-user and --league-password-file go together" in capsys.readouterr().err
    (tmp_path / "league.password").write_text("s3cret-bridge\n", encoding="utf-8")
    assert main(["club", "setup", "--out", str(tmp_path / "d"), "--boards", "2", *league,
                 "--league-user", "north", "--league-password-file",
                 str(tmp_path / "league.password")]) == 0
    config = tmp_path / "d" / "mosquitto.conf"
    assert "remote_username north\nremote_password s3cret-bridge\n" in config.read_text(
        encoding="utf-8")
    assert config.stat().st_mode & 0o077 == 0  # holding a password: the broker's alone


def test_the_bridge_carries_results_over_tls_to_the_league(tmp_path: Path) -> None:
    league, league_ca = league_broker(tmp_path, "league")
    with league:
        club, out = club_broker(tmp_path, league.port, league_ca)
        with club:
            everyone = Standings(tmp_path / "league.db", league.address,
                                 extra=("--cafile", str(league_ca)))
            secret = (out / "board-1.password").read_text(encoding="utf-8").strip()
            board = Client(club.port, "board-1", secret, ca=out / "ca.crt")
            try:
                board.send(result_topic("north", "board-1", "g11"),
                           json.dumps(card(11, "board-1", "north")).encode())
                assert everyone.wait_for(1)["results"] == 1
                assert any("as pegboard-north-bridge" in line for line in league.log)
            finally:
                board.close()
                everyone.stop()


def test_a_league_broker_of_another_authority_gets_nothing(tmp_path: Path) -> None:
    league, _ = league_broker(tmp_path, "league")
    _, foreign = league_broker(tmp_path, "foreign")  # its authority only: a broker posing
    with league:
        club, _ = club_broker(tmp_path, league.port, foreign)
        with club:
            deadline = time.monotonic() + WAIT_S
            pause = threading.Event()
            while not any("certificate verify failed" in line for line in club.log):
                assert time.monotonic() < deadline, "".join(club.log[-20:])
                pause.wait(0.2)  # the broker's log is read on its own thread
            assert not any("as pegboard-north-bridge" in line for line in league.log)
