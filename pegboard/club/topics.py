"""The club's MQTT topics and the names in them.

Every topic starts ``pegboard/<club>/board/<board>/``; a board publishes only under its own
(the broker's ACL keeps it there, see :mod:`pegboard.club.setup`):

- ``.../result/<game>``: each confirmed scorecard (QoS 1, retained: a topic per game, so the
  broker keeps every result, through its restarts, for any standings service that subscribes
  later, and a league's service sees a club's whole night);
- ``.../state``: the table's live state (QoS 1, retained: a page joining late sees it);
- ``.../online``: ``online`` or, as the board's Last Will, ``offline`` (retained).

The standings service publishes one topic of its own, ``pegboard/<club>/night`` (QoS 1,
retained): tonight's night, the next round and the tournament lock, which every board of
the club reads (:func:`night_topic`, :func:`parse_night`).

A club or board id is 1 to 32 letters, digits, ``-`` or ``_`` (a game id up to 64): nothing
MQTT gives a meaning (``/``, ``+``, ``#``) can be in one.
"""

from __future__ import annotations

import json
import re

from pegboard.errors import ClubError

ROOT = "pegboard"
MAX_MESSAGE = 256 * 1024
"""The largest MQTT packet a club's broker takes (``max_packet_size``, written by ``club
setup``) and the largest message the standings service reads, in bytes: a scorecard carries
its game's whole record (a two-player game's card is under 10 KiB, a long three-player game
with take-backs under 64 KiB)."""
RESULT, STATE, ONLINE, NIGHT = "result", "state", "online", "night"
MOST_NIGHT = 9999
MOST_ROUND = 99
_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
_GAME = re.compile(r"[A-Za-z0-9_-]{1,64}")


def check_id(text: str, what: str) -> str:
    """``text`` as a club or board id; ClubError naming ``what`` when it cannot be one.

    >>> check_id("table-7", "board id")
    'table-7'
    >>> check_id("a/b", "board id")
    Traceback (most recent call last):
    ...
    pegboard.errors.ClubError: the board id 'a/b' must be 1 to 32 letters, digits, - or _
    """
    if not _ID.fullmatch(text):
        raise ClubError(f"the {what} {text[:40]!r} must be 1 to 32 letters, digits, - or _")
    return text


def topic(club: str, board: str, leaf: str) -> str:
    """The topic of one board's ``state`` or ``online`` messages."""
    return f"{ROOT}/{club}/board/{board}/{leaf}"


def result_topic(club: str, board: str, game: str) -> str:
    """The topic of one game's result."""
    if not _GAME.fullmatch(game):
        raise ClubError(f"the game id {game[:80]!r} cannot be a topic level")
    return f"{ROOT}/{club}/board/{board}/{RESULT}/{game}"


def results_filter(club: str = "+") -> str:
    """The subscription to every board's results (of one club, or of every club: ``+``)."""
    return f"{ROOT}/{club}/board/+/{RESULT}/+"


def board_results_filter(club: str, board: str) -> str:
    """The subscription to one board's results."""
    return f"{ROOT}/{club}/board/{board}/{RESULT}/+"


def board_key(name: str) -> str:
    """``<club>/<board>`` of a board's topic, by its levels alone (nothing of the message
    read; the broker's ACL makes the board's level its own): the key a board's rate is kept
    by. Any other topic is its own key (cut to 100 characters)."""
    parts = name.split("/", 4)
    if len(parts) >= 4 and parts[0] == ROOT and parts[2] == "board":
        return f"{parts[1][:32]}/{parts[3][:32]}"
    return name[:100]


def board_filter(club: str, leaf: str) -> str:
    """The subscription to every board's ``state`` or ``online`` messages."""
    return f"{ROOT}/{club}/board/+/{leaf}"


def parse_board_topic(name: str) -> tuple[str, str, str] | None:
    """(club, board, leaf) of a board's ``state`` or ``online`` topic, or None."""
    parts = name.split("/")
    if len(parts) != 5 or parts[0] != ROOT or parts[2] != "board" or parts[4] not in (
            STATE, ONLINE):
        return None
    if not (_ID.fullmatch(parts[1]) and _ID.fullmatch(parts[3])):
        return None
    return parts[1], parts[3], parts[4]


def parse_result_topic(name: str) -> tuple[str, str, str] | None:
    """(club, board, game) of a result's topic, or None for any other topic."""
    parts = name.split("/")
    if len(parts) != 6 or parts[0] != ROOT or parts[2] != "board" or parts[4] != RESULT:
        return None
    if not (_ID.fullmatch(parts[1]) and _ID.fullmatch(parts[3]) and _GAME.fullmatch(parts[5])):
        return None
    return parts[1], parts[3], parts[5]


def broker_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (the port defaults to MQTT's 1883); ClubError when it is not one."""
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = text, "1883"
    host = host.strip("[]")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ClubError(f"the broker {text[:60]!r} must be HOST:PORT, e.g. 127.0.0.1:1883")
    return host, int(port)


def night_topic(club: str) -> str:
    """The topic of the club's night: ``{"night", "round", "lock"}``, retained, published by
    the standings service."""
    return f"{ROOT}/{club}/{NIGHT}"


def parse_night(payload: bytes) -> tuple[int, int, bool] | None:
    """(night, round, lock) of a night message, or None when it is not one: a JSON object
    with ``night`` (1 to 9999), ``round`` (1 to 99) and ``lock`` (true or false).

    >>> parse_night(b'{"night": 12, "round": 3, "lock": true}')
    (12, 3, True)
    >>> parse_night(b'{"night": 0, "round": 3, "lock": true}') is None
    True
    """
    if len(payload) > 1024:
        return None
    try:
        value = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(value, dict):
        return None
    night, round_, lock = value.get("night"), value.get("round"), value.get("lock")
    if (type(night) is not int or type(round_) is not int or type(lock) is not bool
            or not 1 <= night <= MOST_NIGHT or not 1 <= round_ <= MOST_ROUND):
        return None
    return night, round_, lock
