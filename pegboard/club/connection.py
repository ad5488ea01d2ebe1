"""Why a connection to the club's broker failed, in words a club can act on.

paho connects on its own thread and, when an attempt fails (nothing listening, a TLS
handshake refused), only tries again: the reason is dropped. :class:`Client` is paho's client
telling :attr:`Client.connect_failed` each failed attempt's error; :func:`why_not` words it
(the broker's certificate not of the club's authority, not naming the host the board was
given, nothing listening, ...); :class:`Failures` logs each reason once until a connection
is made, so a board retrying every few seconds writes one line, not one a retry.

mosquitto lets any user connect with any client id, closing the connection that had it (and
handing over its session). So every client id Pegboard connects with carries a token
(:func:`client_id`) that only the holder of the connection's password can make: a board with
its own password can guess no other board's id, nor any of the standings service's.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import socket
import ssl
from collections.abc import Callable
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import MQTTErrorCode

TOKEN_HEX = 16
"""A client id's token's length in hex digits (64 bits)."""


def client_token(name: str, password: str | None) -> str:
    """The token in the client ids of ``name`` (a board, the standings service) connecting
    with ``password``: a keyed digest (HMAC-SHA-256, :data:`TOKEN_HEX` hex digits), the same
    at every start (so a persistent session is found again), that no one without the
    password can make; empty without a password (a broker letting anyone in, where anyone
    may take any id anyway)."""
    if not password:
        return ""
    digest = hmac.new(password.encode(), f"pegboard client id {name}".encode(),
                      hashlib.sha256)
    return digest.hexdigest()[:TOKEN_HEX]


def client_id(name: str, password: str | None) -> str:
    """``pegboard-<name>.<token>`` (:func:`client_token`; ``pegboard-<name>`` without a
    password): the id ``name`` connects with, and the start of any other id of its."""
    token = client_token(name, password)
    return f"pegboard-{name}" + (f".{token}" if token else "")


X509_V_ERR_CERT_HAS_EXPIRED = 10
X509_V_ERR_HOSTNAME_MISMATCH = 62
X509_V_ERR_IP_ADDRESS_MISMATCH = 64


def why_not(error: OSError, host: str, port: int, ca_file: Path | None) -> str:
    """What ``error`` (a failed attempt to connect to ``host``:``port``, trusting
    ``ca_file``) means for the club."""
    where = f"the broker {host}:{port}"
    if isinstance(error, ssl.SSLCertVerificationError):
        code = error.verify_code
        if code in (X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH):
            return (f"{where}: its certificate does not name {host!r} (TLS hostname "
                    "mismatch): give the board the name or address club setup's --host "
                    "named, or make the broker's certificate again with it")
        if code == X509_V_ERR_CERT_HAS_EXPIRED:
            return f"{where}: its certificate has expired (TLS): run club setup again"
        return (f"{where}: its certificate is not signed by the club's authority "
                f"{ca_file or '(none given)'} (TLS: {error.verify_message}): copy the "
                "club's ca.crt to the board")
    if isinstance(error, ssl.SSLError):
        reason = error.reason or str(error)
        if reason == "WRONG_VERSION_NUMBER":
            return (f"{where} does not speak TLS on that port (TLS: {reason}): give the "
                    "port of club setup's listener")
        return f"{where}: the TLS handshake failed ({reason})"
    if isinstance(error, ConnectionResetError) and ca_file is not None:
        # A plain MQTT listener (mosquitto) resets a connection that opens with a TLS
        # hello, rather than answering it in clear.
        return (f"{where} reset the connection at the TLS handshake: it most likely does "
                "not speak TLS on that port: give the port of club setup's listener")
    if isinstance(error, ConnectionRefusedError):
        return f"{where} refused the connection: nothing listens on port {port} there"
    if isinstance(error, socket.gaierror):
        return f"{where}: the name {host!r} cannot be resolved ({error.strerror})"
    if isinstance(error, TimeoutError):
        return f"{where} did not answer (timed out)"
    return f"{where} cannot be reached: {error.strerror or error}"


class Client(mqtt.Client):
    """paho's client, telling :attr:`connect_failed` why each attempt to connect failed."""

    connect_failed: Callable[[OSError], None] = staticmethod(lambda error: None)

    def reconnect(self) -> MQTTErrorCode:
        try:
            return super().reconnect()
        except OSError as error:
            self.connect_failed(error)
            raise


class Failures:
    """Logs why connecting to the broker fails, each reason once until a connection is made
    (:meth:`connected`)."""

    def __init__(self, log: logging.Logger, host: str, port: int, ca_file: Path | None,
                 who: str) -> None:
        self.log = log
        self.host, self.port, self.ca_file = host, port, ca_file
        self.who = who
        self.last: str | None = None
        """The newest reason, until a connection is made."""

    def failed(self, error: OSError) -> None:
        why = why_not(error, self.host, self.port, self.ca_file)
        if why != self.last:
            self.log.warning("%s cannot connect: %s", self.who, why)
        self.last = why

    def connected(self) -> None:
        self.last = None
