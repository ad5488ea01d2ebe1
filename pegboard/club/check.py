"""Checking a result that arrives on the broker before it is counted.

A message is taken only when all of this holds, checked cheapest first (its length before
a byte is decoded, its shape before the engine reads it): its topic is a board's
``result/<game>``; its payload is at most :data:`MAX_PAYLOAD` bytes of JSON in the
scorecard's format, its record at most :data:`MAX_LINES` lines; its
``club`` is the topic's, and on its own board's topic its ``game`` is the topic's; and the
card is exactly the scorecard of its version (docs/club.md: 2, or 1 from a board not yet
updated) its own record makes under its own club, board and game, read again through the
one record reader and the engine, its ``id`` (the game's place in the night; a version-1
card's ``<board>:<game>``) and ``revision`` included. A card whose numbers do not follow from
its record (a forged or edited result) is refused, the first difference named.

A board publishes only under its own topic: a card that follows from its record but names
another board than the topic's (:attr:`Read.misplaced` says so, naming both) is not refused
but held for the director (:func:`pegboard.club.results.store_result`), never counted
unless the director accepts it.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pegboard.club.scorecard import FORMAT, VERSIONS, judge
from pegboard.club.topics import MAX_MESSAGE, check_id, parse_result_topic
from pegboard.errors import ClubError
from pegboard.rules.value import Value

MAX_PAYLOAD = MAX_MESSAGE
"""The largest result taken (the broker's own limit, :data:`MAX_MESSAGE`): anything longer
is refused by its length alone, before a byte of it is decoded."""
MAX_LINES = 2000
"""The most lines a result's record may have (a game has a few hundred, take-backs
included): a longer one is refused before the engine reads it."""


class Read(Value):
    """A message read as far as it can be without the engine: its card, with its topic's
    club, board and game, its record, and why it is not on its own board's topic ("" when
    it is)."""

    __slots__ = ("board", "card", "club", "game", "misplaced", "record", "version")
    __match_args__ = ("card", "club", "board", "game", "version", "record", "misplaced")

    card: dict[str, Any]
    club: str
    board: str
    game: str
    version: int
    record: list[dict[str, Any]]
    misplaced: str
    """Why the card waits for the director: the topic is another board's than the one the
    card names, both named ("" when the card names the topic's board)."""

    def __init__(
        self,
        card: dict[str, Any],
        club: str,
        board: str,
        game: str,
        version: int,
        record: list[dict[str, Any]],
        misplaced: str = "",
    ) -> None:
        setter = object.__setattr__
        setter(self, "card", card)
        setter(self, "club", club)
        setter(self, "board", board)
        setter(self, "game", game)
        setter(self, "version", version)
        setter(self, "record", record)
        setter(self, "misplaced", misplaced)

    @property
    def name(self) -> str:
        """How the messages name the result: ``<board>:<game>`` as the topic names it."""
        return f"{self.board}:{self.game}"

    @property
    def own(self) -> tuple[str, str]:
        """The board and game the card names (the topic's, unless :attr:`misplaced`)."""
        if not self.misplaced:
            return self.board, self.game
        return str(self.card["board"]), str(self.card["game"])


def identity(card: dict[str, Any]) -> bytes | None:
    """What a card is, whatever its bytes: a digest of its fields and values (keys in order,
    no spacing), so the same card sent again spaced or ordered otherwise is known as the
    same. Its verdict follows from its fields alone (:func:`follows` compares them), so a
    card refused or counted once needs no engine read again. None for a card that cannot
    be written again (nested too deep): it is known by its bytes alone."""
    try:
        text = json.dumps(card, sort_keys=True, separators=(",", ":"))
    except (ValueError, RecursionError):
        return None
    # Never a message's digest (its topic, a zero byte, its payload): a topic has no zero.
    hashed = hashlib.sha256(b"\0card\0")
    hashed.update(text.encode("ascii"))
    return hashed.digest()


def check_result(topic: str, payload: bytes) -> dict[str, Any]:
    """The scorecard a message carries; ClubError saying why it is refused."""
    return follows(read_card(topic, payload))


def read_card(topic: str, payload: bytes) -> Read:
    """Every check but the engine's, cheapest first (docs above); ClubError saying why the
    message is refused. Costs at most a JSON parse of :data:`MAX_PAYLOAD` bytes."""
    parts = parse_result_topic(topic)
    if parts is None:
        raise ClubError(f"{topic[:80]!r} is not a board's result topic")
    club, board, topic_game = parts
    if len(payload) > MAX_PAYLOAD:
        raise ClubError(f"the result on {topic} is {len(payload):,} bytes; at most "
                        f"{MAX_PAYLOAD:,} are taken")
    if payload.lstrip()[:1] != b"{":
        raise ClubError(f"the message on {topic} is not JSON (an object), so not a {FORMAT!r}")
    try:
        card = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise ClubError(f"the result on {topic} is not JSON ({error})") from None
    if not isinstance(card, dict) or card.get("format") != FORMAT:
        raise ClubError(f"the message on {topic} is not a {FORMAT!r}")
    version = card.get("version")
    if version not in VERSIONS or isinstance(version, bool):
        raise ClubError(f"the result on {topic} has version {version!r}; this service reads "
                        f"versions {', '.join(map(str, VERSIONS))}")
    named, game = card.get("board"), card.get("game")
    if card.get("club") != club or not isinstance(named, str):
        raise ClubError(f"the result on {topic} names club {card.get('club')!r} and board "
                        f"{named!r}: a board publishes only its own results")
    name = f"{board}:{topic_game}"  # how the messages below name it
    misplaced = ""
    if named != board:  # another board's card: the director's, if it follows from its record
        check_id(named, "board the result names")
        if not isinstance(game, str) or not game:
            raise ClubError(f"the result on {topic} names no game of board {named[:40]!r}")
        misplaced = (f"board {board}'s topic (result {topic_game}) carried a result of board "
                     f"{named} (game {game[:64]}): a board publishes only its own results")
    elif game != topic_game:
        raise ClubError(f"the result on {topic} names the game {str(game)[:80]!r}, not "
                        f"{topic_game!r}")
    record = card.get("record")
    if isinstance(record, list) and len(record) > MAX_LINES:  # before a line is looked at
        raise ClubError(f"the record of {name} has {len(record):,} lines; at most "
                        f"{MAX_LINES:,} are read")
    if not isinstance(record, list) or not all(isinstance(line, dict) for line in record):
        raise ClubError(f"the result {name} carries no record (a list of its lines)")
    return Read(card, club, board, topic_game, int(version), record, misplaced)


def follows(read: Read) -> dict[str, Any]:
    """The engine's check of a card :func:`read_card` took: the card its record makes,
    equal field by field to the card sent; ClubError naming the first difference. The dear
    part (about 0.05 to 0.1 s a card), which a board's budget bounds
    (:mod:`pegboard.club.budget`)."""
    card, name, version = read.card, read.name, read.version
    board, game = read.own  # the card is judged as the board it names made it
    try:
        again = judge(read.record, club=read.club, board=board, game_id=game,
                      version=version).card
    except Exception as error:  # whatever the engine makes of a hostile record
        raise ClubError(f"the record of {name} cannot be read: {error}") from None
    if again is None:
        raise ClubError(f"the record of {name} is not a confirmed club game")
    if set(card) != set(again):
        raise ClubError(f"the result {name} does not have the fields of a version {version} "
                        f"card: {', '.join(sorted(set(card) ^ set(again)))[:120]}")
    for key, value in again.items():
        if card.get(key) != value:
            raise ClubError(f"the result {name} does not follow from its record: "
                            f"{key!r} differs")
    return again
