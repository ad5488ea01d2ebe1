"""A stored game rendered as the club's scorecard line (ACC), from the engine's facts.

A game makes a scorecard once its header names a club seat, the game is over and its result
is confirmed (every seat pressed confirm, or the director's override), with nothing scored
after the confirmation. Everything on the card is the engine's: the winner, the scores shown
(a winner past the target at it), the spread, the skunk and the game points from its
:class:`~pegboard.rules.facts.GameOver`, the special hands from its
:class:`~pegboard.rules.facts.ShowStep` facts (24, 28 and 29 counts, four of a kind) and the
confirmations from its :class:`~pegboard.rules.facts.Confirmed`. The record is read through
the one record reader; the card carries the stored lines as they are.

The card's ``id`` is the game itself: its place in the night (the club, the night, the
round, the table and the members at it), whichever board sent it and under whatever game id;
its ``revision`` is a digest of its record. A game corrected on the board after it was
confirmed (taken back, entered right, confirmed again) keeps its id with a new revision whose
record extends the old one. A version-1 card (``id`` ``<board>:<game id>``, the starter and
cards as the card wheel completed them) is still made for the service to check old cards.
docs/club.md describes every field.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from pegboard.record.reader import replay
from pegboard.rules.cards import Card, EnteredCard
from pegboard.rules.events import ClubSeat, GameHeader, NewGame, OptionsChanged, Override
from pegboard.rules.facts import GameOver, Report, ShowStep
from pegboard.rules.game import Game
from pegboard.rules.scoring import Breakdown
from pegboard.rules.state import Phase
from pegboard.rules.value import Value

FORMAT = "pegboard-club-result"
VERSION = 2
VERSIONS = (1, 2)
"""The card versions the standings service reads (each rebuilt exactly as it was made)."""
SPECIAL_COUNTS = (24, 28, 29)
"""Show counts the club's side pots pay for."""
FOUR_OF_A_KIND = "four of a kind"


class Judged(Value):
    """What a stored game is to the club: its scorecard, or why it has none yet."""

    __slots__ = ("card", "live", "why")
    __match_args__ = ("card", "why", "live")

    card: dict[str, Any] | None
    why: str
    live: dict[str, Any] | None
    """The table's state for the retained ``state`` message (None: no header read)."""

    def __init__(
        self,
        card: dict[str, Any] | None,
        why: str,
        live: dict[str, Any] | None = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "card", card)
        setter(self, "why", why)
        setter(self, "live", live)


def four_of_a_kind(breakdown: Breakdown) -> bool:
    """Whether a counted hand holds four cards of one rank (its six pairs, ACC 4.3)."""
    pairs = Counter(item.cards[0].rank for item in breakdown.items if item.kind == "pair")
    return any(count >= 6 for count in pairs.values())


def special_hands(step: ShowStep) -> list[str]:
    """The pots one counted hand or crib is in: its count (24, 28, 29), four of a kind."""
    found = [str(step.breakdown.total)] if step.breakdown.total in SPECIAL_COUNTS else []
    if four_of_a_kind(step.breakdown):
        found.append(FOUR_OF_A_KIND)
    return found


def identity(club: str, seat: ClubSeat) -> str:
    """A result's id: the game's place in the night, the same from any board.

    The members are taken in number order (a game keyed again with its seats swapped is
    still this place); their digest keeps the id one topic-safe word whatever a club's member
    numbers hold.

    >>> identity("oak", ClubSeat(3, 2, 7, ("102", "101")))
    'oak-n3-r2-t7-d118a4d4a4af'
    """
    members = json.dumps(sorted(seat.members), ensure_ascii=False)
    digest = hashlib.sha256(f"{club}\n{members}".encode()).hexdigest()[:12]
    return f"{club}-n{seat.night}-r{seat.round}-t{seat.table}-{digest}"


def revision(records: Sequence[Mapping[str, Any]]) -> str:
    """A digest of a record's lines: two cards of one game with the same revision carry the
    same record."""
    text = json.dumps([dict(line) for line in records], ensure_ascii=False,
                      sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def key_of(card: Mapping[str, Any]) -> tuple[str, str]:
    """(id, revision) of a checked card of any version: a version-1 card's ``id`` names its
    board, so its game's id is worked out from its place in the night as a version-2 card's
    is."""
    seat = ClubSeat(card["night"], card["round"], card["table"],
                    tuple(player["member"] for player in card["players"]))
    return identity(card["club"], seat), revision(card["record"])


def entered(card: Card | EnteredCard, known: bool = True) -> str:
    """A card as the table entered it, in the record's notation: ``QS``, or ``Q`` when its
    suit was not entered (the suit the card wheel or the engine chose is never written).

    >>> entered(EnteredCard.of(Card.parse("QS"), suit_known=False)), entered(Card.parse("TH"))
    ('Q', 'TH')
    """
    if isinstance(card, EnteredCard):
        return card.rank.symbol if card.suit is None else f"{card.rank.symbol}{card.suit.letter}"
    return str(card) if known else card.rank.symbol


def judge(records: Sequence[Mapping[str, Any]], *, club: str, board: str, game_id: str,
          version: int = VERSION) -> Judged:
    """The scorecard of a stored game (its record lines, header first), or why none;
    ``version``: the card's version (one of :data:`VERSIONS`)."""
    played = replay(records)
    if played.game is None:
        return Judged(None, played.problem or "no header")
    return judge_game(played.game, records, club=club, board=board, game_id=game_id,
                      version=version)


def confirmed(game: Game) -> bool:
    """Whether a club game's result is confirmed, with nothing scored since."""
    if game.header.club is None:
        return False
    last = next((r for r in reversed(game.reports()) if not isinstance(r.event, OptionsChanged)),
                None)
    return last is not None and last.confirmed is not None and last.confirmed.complete


def live_state(game: Game, *, club: str, board: str, game_id: str) -> dict[str, Any]:
    """The table's live state (the retained ``state`` message)."""
    return _live(game.header, game.reports(), board, game_id, club)


def judge_game(game: Game, records: Sequence[Mapping[str, Any]], *, club: str, board: str,
               game_id: str, version: int = VERSION) -> Judged:
    """The scorecard of ``game``, replayed from ``records``, or why none."""
    header = game.header
    reports = game.reports()
    live = _live(header, reports, board, game_id, club)
    if header.club is None:
        return Judged(None, "not a club game", live)
    if not confirmed(game):
        return Judged(None, "not confirmed", live)
    start = max((i for i, r in enumerate(reports) if isinstance(r.event, NewGame)), default=-1)
    this_game = reports[start + 1:]
    over = next(fact for r in reversed(this_game) for fact in r.of(GameOver))
    return Judged(_card(header, this_game, over, records, club, board, game_id, version), "",
                  live)


def _special(step: ShowStep, version: int) -> tuple[list[str], str]:
    """A counted hand's cards and starter on the card: as entered (version 2), or as the
    engine held them, a stand-in suit included (version 1)."""
    if version == 1:
        return [str(c) for c in step.cards], str(step.starter)
    starter = entered(step.turned) if step.turned is not None else str(step.starter)
    return [entered(c, c in step.entered) for c in step.cards], starter


def _card(header: GameHeader, reports: Sequence[Report], over: GameOver,
          records: Sequence[Mapping[str, Any]], club: str, board: str, game_id: str,
          version: int) -> dict[str, Any]:
    assert header.club is not None
    seat = header.club
    n = len(header.players)
    rules = header.rules
    players = [
        {"seat": s, "member": seat.members[s], "name": header.players[s],
         "guest": s in seat.guests, "side": rules.side_of(s, n),
         "won": rules.side_of(s, n) == over.winner,
         "game_points": over.game_points[rules.side_of(s, n)],
         "score": over.shown[rules.side_of(s, n)],
         "spread": over.spread if rules.side_of(s, n) == over.winner else -over.spread}
        for s in range(n)
    ]
    special = [
        {"seat": step.player, "member": seat.members[step.player],
         "name": header.players[step.player], "hand": hand, "points": step.breakdown.total,
         "counted": step.counted.value, "cards": _special(step, version)[0],
         "starter": _special(step, version)[1]}
        for report in reports for step in report.show_steps for hand in special_hands(step)
    ]
    last = reports[-1]
    assert last.confirmed is not None
    director = next((r.event for r in reversed(reports) if isinstance(r.event, Override)), None)
    key = {"id": f"{board}:{game_id}"} if version == 1 else {
        "id": identity(club, seat), "revision": revision(records)}
    return {
        "format": FORMAT, "version": version, **key,
        "club": club, "night": seat.night, "round": seat.round, "table": seat.table,
        "board": board, "game": game_id, "rules": rules.to_json(n), "lock": seat.lock,
        "players": players, "winner": over.winner,
        "scores": list(over.scores), "shown": list(over.shown),
        "game_points": list(over.game_points), "spread": over.spread,
        "skunk": over.skunk.value, "special": special,
        "confirmed": {
            "seats": list(last.confirmed.confirmed),
            "director": director.director if director is not None else None,
            "note": director.note if director is not None else None,
        },
        "record": [dict(record) for record in records],
    }


def _live(header: GameHeader, reports: Sequence[Report], board: str, game_id: str,
          club: str) -> dict[str, Any]:
    """The table's live state: who plays, the scores and what the table does next.
    ``shown`` is the board as the table sees it: the scores, with the winner at the target
    once the game is over (the engine's :class:`GameOver`; ``scores`` keeps the totals)."""
    turn = reports[-1].next if reports else None
    seat = header.club
    scores = list(turn.scores) if turn is not None else [0] * header.rules.sides(
        len(header.players))
    shown = scores
    if turn is not None and turn.phase is Phase.GAME_OVER:
        over = next((fact for report in reversed(reports) for fact in report.of(GameOver)),
                    None)
        if over is not None:
            shown = list(over.shown)
    return {
        "club": club, "board": board, "game": game_id, "players": list(header.players),
        "members": list(seat.members) if seat is not None else None,
        "night": seat.night if seat is not None else None,
        "round": seat.round if seat is not None else None,
        "table": seat.table if seat is not None else None,
        "lock": seat.lock if seat is not None else None,
        "scores": scores,
        "shown": shown,
        "phase": turn.phase.value if turn is not None else "cut",
        "to_act": turn.to_act if turn is not None else None,
    }
