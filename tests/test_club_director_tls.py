"""The director's password never crosses the network in clear: ``club setup`` makes the
standings page's certificate from the club's own authority, ``club serve --certfile
--keyfile`` serves the page and the director's acts over HTTPS (uvicorn's TLS); without TLS
the director's acts are taken only from the standings host itself, and a service that would
take them from the network in clear refuses to start."""

from __future__ import annotations

import json
import ssl
from pathlib import Path

import httpx2 as httpx
import pytest
from starlette.requests import Request
from starlette.testclient import TestClient

from pegboard.cli import main
from pegboard.club.page import DIRECTOR_IN_CLEAR, Notes, create_app, local
from tests.support.club import Standings
from tests.support.mosquitto import Broker
from tests.support.ports import free_port

SECRET = "correct horse battery"


def request_from(host: str) -> Request:
    return Request({"type": "http", "method": "POST", "path": "/api/director", "headers": [],
                    "query_string": b"", "client": (host, 50000)})


def test_only_a_loopback_client_is_this_host() -> None:
    for host in ("127.0.0.1", "127.8.9.1", "::1", "::ffff:127.0.0.1"):
        assert local(request_from(host)), host
    for host in ("192.168.1.20", "10.0.0.7", "fe80::1%eth0", "::ffff:192.168.1.20",
                 "testclient", ""):
        assert not local(request_from(host)), host


def test_the_director_over_https_with_the_clubs_certificate(tmp_path: Path) -> None:
    out = tmp_path / "club"
    assert main(["club", "setup", "--out", str(out), "--boards", "1", "--club", "club",
                 "--port", str(free_port()), "--host", "127.0.0.1"]) == 0
    assert oct((out / "standings.key").stat().st_mode & 0o777) == "0o600"
    secret = tmp_path / "director.password"
    secret.write_text(SECRET + "\n", encoding="utf-8")
    trusted = ssl.create_default_context(cafile=str(out / "ca.crt"))
    with Broker(tmp_path / "broker") as broker:
        # served to the room's network (--host 0.0.0.0), so only over TLS
        service = Standings(tmp_path / "r.db", broker.address, extra=(
            "--host", "0.0.0.0", "--director-password-file", str(secret),
            "--certfile", str(out / "standings.crt"), "--keyfile", str(out / "standings.key")))
        try:
            assert service.url.startswith("https://")
            url = service.url.replace("0.0.0.0", "127.0.0.1").rstrip("/")
            status = httpx.get(url + "/api/status", verify=trusted, timeout=60)
            assert status.status_code == 200 and status.json()["results"] == 0
            body = {"act": "void", "id": "club-n1-r1-t1-x", "revision": "0" * 16,
                    "director": "Pat", "reason": "a test"}
            done = httpx.post(url + "/api/director", json=body, verify=trusted, timeout=60,
                              headers={"authorization": f"Bearer {SECRET}"})
            # the password taken over TLS: the act itself is judged (nothing to void)
            assert done.status_code == 409 and "no revision" in done.json()["error"]
            with pytest.raises(httpx.ConnectError):  # a certificate the club did not make
                httpx.get(url + "/api/status", verify=ssl.create_default_context(),
                          timeout=60)
            with pytest.raises(httpx.TransportError):  # no plain HTTP on the port
                httpx.get(url.replace("https://", "http://") + "/api/status", timeout=60)
        finally:
            service.stop()


def test_a_director_in_clear_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                        ) -> None:
    secret = tmp_path / "director.password"
    secret.write_text(SECRET + "\n", encoding="utf-8")
    args = ["club", "serve", "--db", str(tmp_path / "r.db"), "--broker", "127.0.0.1:1",
            "--port", "0", "--director-password-file", str(secret)]
    assert main([*args, "--host", "0.0.0.0"]) == 2
    said = capsys.readouterr().err
    assert "would let the director's password cross the network in clear" in said
    assert "--certfile and --keyfile" in said
    assert main([*args, "--certfile", str(secret)]) == 2  # the pair, or neither
    assert "--certfile and --keyfile go together" in capsys.readouterr().err
    assert main([*args, "--certfile", str(secret), "--keyfile", str(secret)]) == 2
    assert "cannot use the certificate" in capsys.readouterr().err


def test_without_tls_the_director_is_refused_from_another_machine(tmp_path: Path) -> None:
    """The route itself, served without TLS: a request from another address is refused
    with why before its password is looked at."""
    app = create_app(tmp_path / "r.db", Notes(), hosts=None, start=lambda: None,
                     stop=lambda: None, director=SECRET)
    with TestClient(app, client=("192.168.1.20", 50000)) as client:
        refused = client.post("/api/director", content=json.dumps({}),
                              headers={"authorization": f"Bearer {SECRET}"})
    assert refused.status_code == 403 and refused.json()["error"] == DIRECTOR_IN_CLEAR
    secure = create_app(tmp_path / "r.db", Notes(), hosts=None, start=lambda: None,
                        stop=lambda: None, director=SECRET, secure=True)
    with TestClient(secure, client=("192.168.1.20", 50000)) as client:
        wrong = client.post("/api/director", content=b"{}",
                            headers={"authorization": "Bearer wrong"})
    assert wrong.status_code == 401
