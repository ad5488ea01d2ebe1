"""Random legal cribbage games written as records (lists of event dicts), from a seed.

The table is simulated the way people play: shuffle, deal, lay away to the crib, turn the
starter, play (a random card that fits; "go" only when none fits), show in order, crib. The
play is simulated here independently of the referee's turn bookkeeping; the referee is only
asked when the game is over, so that the record stops at that line.

Ways of entering a deal (``modes``):
- ``"cards"``: the play card by card (hands then known from the play);
- ``"show"``: no play recorded, every hand given by a ``show`` event in show order;
- ``"peg"``: the play's points pegged by hand with ``peg`` events, then ``show`` events;
- ``"quick"``: only ``peg`` events (play and hands), then straight to the next ``deal``;
- ``"mixed"``: card by card with a few ``peg`` events in between.

A hand whose cards were entered is always finished before the next ``deal``: only a hand
pegged by points may be left early. With ``penalty`` > 0, a renege reported at the end of a
card-by-card play is sometimes claimed: the ``penalty`` line, then the play again from that
go, every card fitting now played.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import RCard, card, full_deck
from .referee import Session
from .scoring import play_points

Event = dict[str, Any]
NAMES = ["Ann", "Ben", "Cat", "Dan"]


@dataclass(frozen=True)
class Table:
    """The table a game is generated for."""

    players: int = 2
    five_card: bool = False
    partnerships: bool = True
    target: int | None = None  # None: leave it to the default
    game_points: str | None = None  # None: leave it to the default
    cut: bool = True
    modes: Sequence[str] = ("cards",)
    undo: float = 0.0  # chance that an entry is also entered and undone (twice) before it
    renege: float = 0.0  # chance that a player says go although a card fits
    penalty: float = 0.0  # chance that a renege found in a deal's play is claimed

    def rules(self) -> dict[str, Any]:
        rules: dict[str, Any] = {}
        if self.five_card:
            rules["five_card"] = True
        if self.target is not None:
            rules["target"] = self.target
        if self.game_points is not None:
            rules["game_points"] = self.game_points
        if self.players == 4 and not self.partnerships:
            rules["partnerships"] = False
        return rules


def _text(c: RCard, rng: random.Random) -> str:
    if c.rank == 10 and rng.random() < 0.3:
        return "10" + c.suit
    return c.text


def simulate_play(
    hands: dict[int, list[RCard]],
    dealer: int,
    *,
    one_count: bool,
    rng: random.Random,
    renege: float = 0.0,
    forced: Sequence[Event] = (),
) -> list[Event]:
    """Play events for a deal: clockwise from the pone, goes only when nothing fits.

    With ``renege`` > 0, a player sometimes says go although a card fits (never at count 0,
    where the go is refused outright). ``forced`` are the first decisions, already made (the
    play up to a renege that was taken back); the rest is chosen as usual.
    """
    todo = list(forced)
    n = len(hands)
    held = {p: list(h) for p, h in hands.items()}
    events: list[Event] = []
    pile: list[RCard] = []
    passed: set[int] = set()
    last = dealer
    turn = (dealer + 1) % n

    def reset() -> bool:
        """End of a count; True when the play goes on."""
        nonlocal turn
        pile.clear()
        passed.clear()
        if one_count or not any(held.values()):
            return False
        turn = (last + 1) % n
        while not held[turn]:
            turn = (turn + 1) % n
        return True

    while True:
        if not [p for p in range(n) if held[p] and p not in passed]:
            if not reset():
                break
            continue
        if not held[turn] or turn in passed:
            turn = (turn + 1) % n
            continue
        count = sum(c.pips for c in pile)
        fits = [c for c in held[turn] if count + c.pips <= 31]
        made: RCard | None = None
        if todo:
            decided = todo.pop(0)
            assert decided["player"] == turn, (decided, turn)
            if decided["type"] == "go":
                fits = []
            else:
                made = card(decided["card"])
        elif fits and count and rng.random() < renege:
            fits = []
        if fits:
            if made is not None:
                choice = made
            elif rng.random() < 0.4:  # a greedy player now and then: more combinations
                fits.sort(key=lambda c: -sum(p for _, p in play_points([*pile, c])))
                choice = fits[0]
            else:
                choice = rng.choice(fits)
            held[turn].remove(choice)
            pile.append(choice)
            last = turn
            events.append({"type": "play", "player": turn, "card": _text(choice, rng)})
            if count + choice.pips == 31:
                if not reset():
                    break
                continue
        else:
            events.append({"type": "go", "player": turn})
            passed.add(turn)
        turn = (turn + 1) % n
    return events


def played_fully(events: list[Event], player: int, size: int) -> bool:
    return sum(1 for e in events if e["type"] == "play" and e["player"] == player) == size


def random_game(seed: int, table: Table) -> list[Event]:
    """A whole legal game, ending on the line where a side reaches the target."""
    rng = random.Random(seed)
    n = table.players
    record: list[Event] = [
        {"type": "game", "version": 2, "players": NAMES[:n], "rules": table.rules()},
    ]
    session = Session()
    session.apply(record[0])

    def emit(event: Event) -> bool:
        """Append an event; True when the game is over."""
        if rng.random() < table.undo:  # a slip taken back: the same entry, undone, again
            for _ in range(2):
                record.append(dict(event))
                session.apply(event)
                record.append({"type": "undo"})
                session.apply({"type": "undo"})
        record.append(event)
        session.apply(event)
        return session.referee.over

    dealer: int | None = None
    if table.cut:
        while dealer is None:
            cut = rng.sample(full_deck(), n)
            if rng.random() < 0.2:  # force a tie for lowest now and then: cut again
                low = rng.randint(1, 12)
                twins = rng.sample([c for c in full_deck() if c.rank == low], 2)
                higher = rng.sample([c for c in full_deck() if c.rank > low], n - 2)
                cut = twins + higher
                rng.shuffle(cut)
            low = min(c.rank for c in cut)
            lowest = [s for s, c in enumerate(cut) if c.rank == low]
            emit({"type": "cut", "cards": [c.text for c in cut]})
            if len(lowest) == 1:
                dealer = lowest[0]
        emit({"type": "deal"})
    else:
        dealer = rng.randrange(n)
        emit({"type": "deal", "dealer": dealer})
    dealt = 6 if n == 2 and not table.five_card else 5
    to_crib = 2 if n == 2 else 1
    size = dealt - to_crib
    first = True
    while True:
        if not first:
            dealer = (dealer + 1) % n
            # Now and then the dealer is named although the deal passes left anyway.
            named = {"dealer": dealer} if rng.random() < 0.1 else {}
            if emit({"type": "deal", **named}):
                return record
        first = False
        deck = full_deck()
        rng.shuffle(deck)
        hands: dict[int, list[RCard]] = {}
        crib: list[RCard] = []
        for p in range(n):
            cards = [deck.pop() for _ in range(dealt)]
            rng.shuffle(cards)
            crib += cards[size:]
            hands[p] = cards[:size]
        if n == 3:
            crib.append(deck.pop())
        starter = deck.pop()
        mode = rng.choice(list(table.modes))
        if (mode != "quick" or rng.random() < 0.5) and emit(
            {"type": "starter", "card": _text(starter, rng)}
        ):
            return record
        order = [(dealer + i) % n for i in range(1, n + 1)]
        plays: list[Event] = []
        if mode in ("cards", "mixed"):
            plays = simulate_play(
                hands, dealer, one_count=table.five_card, rng=rng, renege=table.renege
            )
            if mode == "mixed":  # pegs by hand between the cards (a correction, a penalty)
                for _ in range(rng.randint(1, 3)):
                    at = rng.randint(0, len(plays))
                    points = rng.randint(1, 4)
                    plays.insert(at, {"type": "peg", "player": rng.randrange(n), "points": points})
        elif mode in ("peg", "quick"):
            plays = [
                {"type": "peg", "player": rng.randrange(n), "points": rng.randint(1, 6)}
                for _ in range(rng.randint(0, 4))
            ]
            if mode == "quick":  # the whole deal by points, the hands too
                plays += [
                    {"type": "peg", "player": p, "points": rng.randint(1, 16)} for p in order
                ]
        # The referee numbers the entries in force (undone ones drop out of its count).
        start = session.referee.line
        at_line: dict[int, int] = {}  # the referee's line of a play or go -> index in plays
        for index, event in enumerate(plays):
            if event["type"] == "peg" and rng.random() < 0.1:
                # A correction: move back, at most what the side has.
                referee = session.referee
                side = referee.side(event["player"])
                if referee.scores[side]:
                    event["points"] = -min(referee.scores[side], event["points"])
            if emit(event):
                return record
            at_line[session.referee.line] = index
        if mode == "cards" and not table.five_card and rng.random() < table.penalty:
            found = [(line, who) for line, who, _ in session.referee.reneges if line > start]
            if found:
                offender = rng.choice(sorted({who for _, who in found}))
                go_line = min(line for line, who in found if who == offender)
                emit({"type": "penalty", "player": offender, "infraction": "renege"})
                if session.referee.over:
                    return record
                kept = plays[: at_line[go_line]]
                plays = simulate_play(hands, dealer, one_count=False, rng=rng, forced=kept)
                for event in plays[len(kept):]:
                    if emit(event):
                        return record
        if mode == "quick":
            continue
        for p in order:
            if mode in ("cards", "mixed") and played_fully(plays, p, size):
                continue
            cards = list(hands[p])
            rng.shuffle(cards)
            if emit({"type": "show", "player": p, "cards": [_text(c, rng) for c in cards]}):
                return record
        rng.shuffle(crib)
        if emit({"type": "crib", "cards": [_text(c, rng) for c in crib]}):
            return record
