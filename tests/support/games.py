"""Seeded random cribbage games, for tests, benchmarks and demonstrations.

:func:`random_game` shuffles and plays a whole legal game at a virtual table and returns its
record (header and events) with the final scores worked out *independently* of
:class:`pegboard.rules.game.Game`: this module keeps its own table (turns, gos, counts, show
order, stopping at the target), so replaying the events through the engine and comparing the
results checks one implementation against another. The same seed always gives the same game.

Modes: ``"cards"`` (every card entered), ``"show"`` (the play pegged by points with ``peg``
events, the hands given by ``show`` events), ``"quick"`` (``peg`` events only), ``"mixed"``
(a different mode each deal). With ``muggins=True`` every score is claimed (mostly right,
sometimes under or over) and opponents sometimes call muggins.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from pegboard.rules.cards import DECK, Card, Rank
from pegboard.rules.events import (
    Claim,
    Crib,
    Cut,
    Deal,
    Dealt,
    Event,
    GameHeader,
    Go,
    Muggins,
    Peg,
    Play,
    Show,
    Starter,
)
from pegboard.rules.game import Game
from pegboard.rules.pegging import score_play
from pegboard.rules.show import score_hand
from pegboard.rules.state import Award
from pegboard.rules.variants import Rules

NAMES = ("Ann", "Ben", "Cat", "Dan")
MODES = ("cards", "show", "quick", "mixed")


@dataclass
class RandomGame:
    """A generated game: its record and the result the virtual table reached."""

    header: GameHeader
    events: list[Event]
    scores: list[int]
    winner: int | None
    deals: list[list[Event]] = field(default_factory=list)
    reneges: list[tuple[int, int, frozenset[Card]]] = field(default_factory=list)
    """Every renege the engine must report: (player, count at the go, cards that fitted)."""


class _Table:
    def __init__(self, rng: random.Random, rules: Rules, players: int, mode: str) -> None:
        self.rng = rng
        self.rules = rules
        self.n = players
        self.mode = mode
        self.sides = rules.sides(players)
        self.scores = [0] * self.sides
        self.winner: int | None = None
        self.events: list[Event] = []
        self.deals: list[list[Event]] = []
        self.renege_rate = 0.0
        self.reneges: list[tuple[int, int, frozenset[Card]]] = []
        self.unseen_reneges: list[tuple[int, int, frozenset[Card]]] = []

    def side(self, player: int) -> int:
        return self.rules.side_of(player, self.n)

    def emit(self, event: Event) -> None:
        self.events.append(event)

    def score(
        self, player: int, points: int, *, claimable: bool = True, count_zero: bool = False
    ) -> None:
        """Peg one scoring act (claimed first in a muggins game; hands even when zero)."""
        if self.winner is not None:
            return
        if claimable and self.rules.muggins:
            if points or count_zero:
                self._claimed(player, points)
            return
        self._add(player, points)

    def peg(self, player: int, points: int) -> None:
        """A quick-mode peg entry."""
        self.emit(Peg(player, points))
        self._add(player, points)

    def _add(self, player: int, points: int) -> None:
        if self.winner is not None or points == 0:
            return
        side = self.side(player)
        self.scores[side] += points
        if self.scores[side] >= self.rules.target:
            self.winner = side

    def _claimed(self, player: int, points: int) -> None:
        roll = self.rng.random()
        if roll < 0.7 or (points == 0 and roll < 0.9):
            claim = points
        elif roll < 0.85 and points > 0:
            claim = self.rng.randrange(points)
        else:
            claim = points + self.rng.randint(1, 3)
        self.emit(Claim(player, claim))
        self._add(player, min(claim, points))
        missed = points - claim
        if missed > 0 and self.winner is None and self.rng.random() < 0.6:
            caller = self.rng.choice(
                [p for p in range(self.n) if self.side(p) != self.side(player)]
            )
            call = self.rng.randint(1, missed + 1)
            self.emit(Muggins(caller, call))
            self._add(caller, min(call, missed))


def random_game(
    seed: int,
    players: int = 2,
    *,
    five_card: bool = False,
    target: int | None = None,
    muggins: bool = False,
    mode: str = "cards",
    dealt: bool = False,
    renege_rate: float = 0.0,
) -> RandomGame:
    """Play a whole random game at a virtual table; the same arguments give the same game.

    ``renege_rate`` is the chance that a player who could play says go instead (a renege).
    """
    rng = random.Random(seed)
    data: dict[str, object] = {"five_card": five_card, "muggins": muggins}
    if target is not None:
        data["target"] = target
    rules = Rules.from_json(data, players)
    header = GameHeader(NAMES[:players], rules)
    table = _Table(rng, rules, players, mode)
    table.renege_rate = renege_rate
    dealer = _cut(table)
    first = True
    while table.winner is None:
        start = len(table.events)
        table.emit(Deal(dealer if first and rng.random() < 0.5 else None))
        _deal(table, dealer, first, dealt)
        table.deals.append(table.events[start:])
        first = False
        dealer = (dealer + 1) % players
    return RandomGame(
        header, table.events, table.scores, table.winner, table.deals, table.reneges
    )


def _cut(table: _Table) -> int:
    while True:
        cards = table.rng.sample(DECK, table.n)
        table.emit(Cut(tuple(cards)))
        low = min(int(card.rank) for card in cards)
        lowest = [p for p, card in enumerate(cards) if int(card.rank) == low]
        if len(lowest) == 1:
            return lowest[0]


def _deal(table: _Table, dealer: int, first: bool, with_dealt: bool) -> None:
    rng, rules, n = table.rng, table.rules, table.n
    mode = rng.choice(MODES[:3]) if table.mode == "mixed" else table.mode
    deck = list(DECK)
    rng.shuffle(deck)
    size = rules.dealt_size(n)
    dealt = [deck[p * size:(p + 1) * size] for p in range(n)]
    rest = deck[n * size:]
    crib: list[Card] = []
    if n == 3:
        crib.append(rest.pop())
    keep = rules.hand_size()
    hands: list[list[Card]] = []
    for p in range(n):
        cards = list(dealt[p])
        rng.shuffle(cards)
        hands.append(cards[:keep])
        crib.extend(cards[keep:])
    pone = (dealer + 1) % n
    if rules.five_card and first:
        table.score(pone, 3, claimable=False)
    if with_dealt:
        for p in range(n):
            table.emit(Dealt(p, tuple(dealt[p])))
    if mode == "quick":
        _quick(table, dealer)
        return
    starter = rest.pop()
    table.emit(Starter(starter))
    if starter.rank is Rank.JACK:
        table.score(dealer, 2, claimable=False)
    if table.winner is not None:
        return
    if mode == "cards":
        unplayed = _play(table, dealer, [list(h) for h in hands])
    else:
        unplayed = list(range(n))
        for _ in range(rng.randint(0, 3)):
            if table.winner is None:
                table.peg(rng.randrange(n), rng.randint(1, 4))
    if table.winner is not None:
        return
    for k in range(1, n + 1):
        p = (dealer + k) % n
        if p in unplayed:
            # The engine checks a go for a renege once the hand is shown.
            table.reneges.extend(r for r in table.unseen_reneges if r[0] == p)
            shown = list(hands[p])
            rng.shuffle(shown)
            table.emit(Show(p, tuple(shown)))
        table.score(p, score_hand(hands[p], starter).total, count_zero=True)
        if table.winner is not None:
            return
    table.emit(Crib(tuple(crib)))
    table.score(dealer, score_hand(crib, starter, crib=True).total, count_zero=True)


def _quick(table: _Table, dealer: int) -> None:
    for _ in range(table.rng.randint(2, 6)):
        player = table.rng.randrange(table.n)
        points = table.rng.randint(1, 12)
        table.peg(player, points)
        if table.winner is not None:
            return


def _play(table: _Table, dealer: int, held: list[list[Card]]) -> list[int]:
    """The play at the virtual table; returns the players with cards never laid."""
    rng, n, five = table.rng, table.n, table.rules.five_card
    count = 0
    pile: list[Card] = []
    said_go: set[int] = set()
    last: int | None = None
    turn = (dealer + 1) % n
    pending: list[tuple[int, int, frozenset[Card]]] = []
    table.unseen_reneges = []

    def next_in(start: int, include: bool) -> int | None:
        for k in range(1, n + 1):
            seat = (start + k) % n
            if seat == start and not include:
                continue
            if seat not in said_go and held[seat]:
                return seat
        return None

    def next_with_cards(start: int) -> int:
        for k in range(1, n + 1):
            seat = (start + k) % n
            if held[seat]:
                return seat
        raise AssertionError("nobody has cards")

    while True:
        fits = [c for c in held[turn] if count + c.pips <= 31]
        if fits and count > 0 and rng.random() < table.renege_rate:
            pending.append((turn, count, frozenset(fits)))
            fits = []
        if fits:
            card = rng.choice(fits)
            held[turn].remove(card)
            table.emit(Play(turn, card))
            pile.append(card)
            count += card.pips
            last = turn
            points = score_play(pile).total
            everyone_out = all(not h for h in held)
            if count == 31:
                table.score(turn, points)
                ended, go_point = True, 0
            elif everyone_out:
                ended, go_point = True, 1
            else:
                nxt = next_in(turn, True)
                ended, go_point = (nxt is None), (1 if nxt is None else 0)
                if nxt is not None:
                    turn = nxt
            if go_point:
                # The card's combinations and its go or last-card point are one act.
                table.score(last, points + go_point)
            elif count != 31:
                table.score(last, points)
        else:
            table.emit(Go(turn))
            said_go.add(turn)
            nxt = next_in(turn, False)
            ended = nxt is None
            if ended:
                assert last is not None
                table.score(last, 1)
            else:
                turn = nxt  # type: ignore[assignment]
            everyone_out = False
        if table.winner is not None:
            # A hand laid completely is known when the game ends in the play: its gos are
            # checked then (a renege that decided the game can still be claimed).
            table.reneges.extend(r for r in pending if not held[r[0]])
            return []
        if ended:
            assert last is not None
            if all(not h for h in held) or five:
                # Hands laid completely are known now: their gos are checked.
                table.reneges.extend(r for r in pending if not held[r[0]])
                table.unseen_reneges = [r for r in pending if held[r[0]]]
                return [p for p in range(n) if held[p]]
            count, pile, said_go = 0, [], set()
            turn = next_with_cards(last)
            last = None


# Ann (0) deals, starter 2C. Ben 5C, Ann TH (fifteen, Ann 2), Ben KD: 25. Ann says go holding
# 4S: the renege. Ben says go too and pegs 1. Then Ann 4S, Ben QS, Ann 9C (23), Ben go, Ann
# 8D makes 31 (2), Ben JH is the last card (1). The hands are counted at once: Ben 5C JH QS KD
# with 2C is 9 (three fifteens and a run of three), Ann TH 4S 9C 8D with 2C is 5 (2C 4S 9C
# and 8-9-10).
RENEGE_DEAL = """
    deal 0; starter 2C
    play 1 5C 0 TH 1 KD; go 0 1
    play 0 4S 1 QS 0 9C; go 1; play 0 8D
    play 1 JH
"""
"""A deal in which Ann reneges (ACC 7.3): a script for :func:`scripted_game`."""


def parse_script(text: str) -> list[Event]:
    """Events from a compact script, one entry per line or ``;``-separated.

    Entries: ``cut 7H KD``, ``deal`` / ``deal 0``, ``dealt 1 5C 6D ...``, ``starter JH``,
    ``play 1 5C``, ``go 0``, ``show 1 5C 6D 7H 8S``, ``crib 2C 3D 4H KS``, ``peg 0 3``,
    ``claim 1 7``, ``muggins 0 2``, ``penalty 0 renege [points]``, ``undo``, ``new_game``.
    Several plays can share a line: ``play 1 5C 0 TH 1 5D``.

    >>> parse_script("deal 0; starter 5S; play 1 5C 0 TH; go 1")[-1]
    Go(player=1)
    """
    from pegboard.rules.cards import parse_cards
    from pegboard.rules.events import NewGame, Penalty, Undo

    events: list[Event] = []
    for raw in text.replace(";", "\n").splitlines():
        words = raw.split()
        if not words:
            continue
        kind, args = words[0], words[1:]
        if kind == "cut":
            events.append(Cut(tuple(parse_cards(args))))
        elif kind == "deal":
            events.append(Deal(int(args[0]) if args else None))
        elif kind == "dealt":
            events.append(Dealt(int(args[0]), tuple(parse_cards(args[1:]))))
        elif kind == "starter":
            events.append(Starter(Card.parse(args[0])))
        elif kind == "play":
            for i in range(0, len(args), 2):
                events.append(Play(int(args[i]), Card.parse(args[i + 1])))
        elif kind == "go":
            events.extend(Go(int(p)) for p in args)
        elif kind == "show":
            events.append(Show(int(args[0]), tuple(parse_cards(args[1:]))))
        elif kind == "crib":
            events.append(Crib(tuple(parse_cards(args))))
        elif kind == "peg":
            events.append(Peg(int(args[0]), int(args[1])))
        elif kind == "claim":
            events.append(Claim(int(args[0]), int(args[1])))
        elif kind == "muggins":
            events.append(Muggins(int(args[0]), int(args[1])))
        elif kind == "penalty":
            points = int(args[2]) if len(args) > 2 else None
            events.append(Penalty(int(args[0]), args[1], points))
        elif kind == "undo":
            events.append(Undo())
        elif kind == "new_game":
            events.append(NewGame(int(args[0]) if args else None))
        else:
            raise ValueError(f"unknown script entry {raw!r}")
    return events


def scripted_game(
    players: int = 2, script: str = "", **rules: object
) -> tuple[Game, list[Award]]:
    """A game for seats Ann, Ben, Cat, Dan (as many as ``players``) after ``script``'s entries.

    Returns the game and every award the script pegged, in order.
    """
    names = ["Ann", "Ben", "Cat", "Dan"][:players]
    game = Game(names, Rules.from_json(rules, players))
    awards: list[Award] = []
    for event in parse_script(script):
        awards.extend(game.apply(event))
    return game, awards


TABLES: list[tuple[str, int, dict[str, object]]] = [
    ("two", 2, {}),
    ("two-five-card", 2, {"five_card": True}),
    ("three", 3, {}),
    ("four-partners", 4, {}),
    ("two-show-mode", 2, {"mode": "show"}),
    ("three-mixed-61", 3, {"mode": "mixed", "target": 61}),
    ("two-muggins", 2, {"muggins": True}),
    ("four-muggins-mixed", 4, {"muggins": True, "mode": "mixed"}),
    ("two-dealt", 2, {"dealt": True}),
    ("three-muggins", 3, {"muggins": True}),
    ("two-reneges", 2, {"renege_rate": 0.2}),
    ("three-reneges", 3, {"renege_rate": 0.2}),
    ("four-reneges", 4, {"renege_rate": 0.2}),
    ("five-card-reneges", 2, {"renege_rate": 0.3, "five_card": True}),
]
"""The tables random games are played on in the tests: a name, the players, and the options
:func:`random_game` is given."""
