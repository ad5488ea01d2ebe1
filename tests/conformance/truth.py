"""The truth a game is checked against: each deal entered with every real card through the
engine, and a ledger that pegs what the table should end up with.

:class:`DealTruth` plays one deal with the real cards and real suits through a fresh
:class:`~pegboard.rules.game.Game` (muggins on, every score claimed exactly at once, so each
scoring act — a card's combinations with its go, a hand, a crib, his heels — comes out whole
and in order, a hand of nothing included). Scores never depend on the deals before, so a
fresh game per deal gives the same acts as the whole game would.

:class:`Ledger` then pegs those acts as the table should: in order, each act whole, stopping
the instant a side reaches the target (RULES.md, "Winning"). It is changed only by what the
players did: a hand entered without its flush or nobs and never put right counts exactly the
stand-in's points (the real count less :func:`~tests.conformance.deal.fact_points`), and
in a muggins game (ACC 10) each act pegs what its owner claimed (an over-claim is corrected,
an under-claim pegs the claim), and missed points go to the opponent who calls muggins or
are lost.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from pegboard.rules.events import Claim, Deal, Event
from pegboard.rules.game import Game
from pegboard.rules.state import Award, GameState
from pegboard.rules.variants import Rules

AwardKey = tuple[int, str, int]
"""An award as the checks compare it: (seat, reason, points)."""


@dataclass(frozen=True, slots=True)
class Part:
    """One award of an act: its reason, points, and how many cards it names (a run's
    length)."""

    reason: str
    points: int
    cards: int = 0


@dataclass(frozen=True, slots=True)
class Act:
    """One scoring act, pegged whole: who, what kind ("play", "hand", "crib", "heels",
    "three"), its awards and its real total. ``points`` is what the app should count (less
    than ``real`` only for a hand or crib whose flush or nobs was never entered)."""

    player: int
    kind: str
    parts: tuple[Part, ...]
    real: int
    points: int
    claimable: bool = True

    @property
    def reason(self) -> str:
        """What a claim screen names the act by (its first award's reason)."""
        return self.parts[0].reason if self.parts else self.kind

    @property
    def counted(self) -> bool:
        """A hand or a crib (it gets a page of its own at the show)."""
        return self.kind in ("hand", "crib")

    def pegged_parts(self) -> tuple[Part, ...]:
        """The awards the app pegs for the whole act (a count as one award)."""
        if self.counted:
            return (Part(self.kind, self.points),)
        return self.parts


def _act(player: int, awards: tuple[Award, ...], points: int, reason: str) -> Act:
    """One act from its awards (a claimed count of nothing still names its reason)."""
    parts = tuple(Part(a.reason, a.points, len(a.cards)) for a in awards)
    kind = {"hand": "hand", "crib": "crib", "his heels": "heels",
            "three for last": "three"}.get(reason, "play")
    return Act(player, kind, parts or (Part(reason, points),), points, points,
               claimable=kind not in ("heels", "three"))


class DealTruth:
    """One deal with the real cards through the engine; :meth:`apply` returns the acts each
    entry makes. Undo by :meth:`restore` (the deal is rebuilt from its entries)."""

    def __init__(self, names: tuple[str, ...], rules: Rules, dealer: int) -> None:
        self.names = names
        self.rules = Rules(target=121, five_card=rules.five_card, muggins=True)
        self.dealer = dealer
        self.game = Game(names, self.rules)
        self.opening = tuple(self._acts(self.game.apply(Deal(dealer=dealer))))
        self.events: list[Event] = []

    @property
    def state(self) -> GameState:
        """The engine's table for this deal (count, turn, pile, hands)."""
        return self.game.state

    def apply(self, event: Event) -> list[Act]:
        """Apply one real entry; the acts it makes, in the order they are pegged."""
        awards = self.game.apply(event)
        self.events.append(event)
        return self._acts(awards)

    def _acts(self, awards: tuple[Award, ...]) -> list[Act]:
        acts = [_act(a.player, (a,), a.points, a.reason) for a in awards]
        while self.game.state.pending_claims:
            waiting = self.game.state.pending_claims[0]
            got = self.game.apply(Claim(waiting.player, waiting.points))
            mine = tuple(a for a in got if a.player == waiting.player)
            acts.append(_act(waiting.player, mine, waiting.points, waiting.reason))
        return acts

    def restore(self, events: list[Event]) -> None:
        """Go back to the deal as it was after ``events``."""
        self.game = Game(self.names, self.rules)
        self._acts(self.game.apply(Deal(dealer=self.dealer)))
        self.events = []
        for event in events:
            self.apply(event)


@dataclass(frozen=True, slots=True)
class Ledger:
    """The scores the table should reach: acts pegged in order, stopping at the target.

    ``waiting`` are a muggins game's acts not yet claimed (first one next) and ``missed``
    the points an under-claim left open to a muggins call (owner, points). ``deals`` keeps
    every award of each deal, as the game record must replay them; ``pegged`` the awards of
    the latest entry (what the play screen's award line says)."""

    target: int
    sides_of: tuple[int, ...]
    muggins: bool
    scores: tuple[int, ...]
    winner: int | None = None
    deals: tuple[tuple[AwardKey, ...], ...] = ()
    waiting: tuple[Act, ...] = ()
    missed: tuple[int, int] | None = None
    pegged: tuple[tuple[int, Part], ...] = ()

    @classmethod
    def start(cls, spec_rules: Rules, players: int) -> Ledger:
        """No points yet."""
        sides = spec_rules.sides(players)
        return cls(spec_rules.target, tuple(spec_rules.side_of(p, players)
                                            for p in range(players)),
                   spec_rules.muggins, (0,) * sides)

    def new_deal(self) -> Ledger:
        """A deal begins: its awards are kept apart (nothing waits across deals)."""
        return replace(self, deals=(*self.deals, ()), waiting=(), missed=None)

    def peg(self, player: int, parts: tuple[Part, ...]) -> Ledger:
        """Peg one act whole for ``player``'s side; the game ends when the side reaches the
        target (nothing is pegged after that)."""
        if self.winner is not None or not parts:
            return self
        side = self.sides_of[player]
        scores = list(self.scores)
        scores[side] += sum(p.points for p in parts)
        awards = tuple((player, p.reason, p.points) for p in parts)
        deals = (*self.deals[:-1], self.deals[-1] + awards) if self.deals else (awards,)
        pegged = (*self.pegged, *((player, p) for p in parts))
        if scores[side] < self.target:
            return replace(self, scores=tuple(scores), deals=deals, pegged=pegged)
        return replace(self, scores=tuple(scores), deals=deals, pegged=pegged, winner=side,
                       waiting=(), missed=None)

    def score(self, act: Act) -> Ledger:
        """An act the engine makes: pegged at once (a count of nothing pegs nothing), or in a
        muggins game left waiting for its owner's claim; his heels and three for last are
        never claimed."""
        if self.winner is not None:
            return self
        if not act.claimable:
            return self.peg(act.player, act.pegged_parts())
        if self.muggins:
            return replace(self, waiting=(*self.waiting, act))
        if act.counted and act.points == 0:
            return self
        return self.peg(act.player, act.pegged_parts())

    def claim(self, points: int) -> Ledger:
        """The owner of the first waiting act claims ``points`` (ACC 10): at least the
        count pegs the count; less pegs the claim and leaves the rest to muggins."""
        act = self.waiting[0]
        rest = replace(self, waiting=self.waiting[1:], missed=None)
        if points >= act.points:
            return rest.peg(act.player, act.pegged_parts())
        first = act.parts[0]
        pegged = rest.peg(act.player, (Part(first.reason, points, first.cards),)) \
            if points else rest
        if pegged.winner is not None:
            return pegged
        return replace(pegged, missed=(act.player, act.points - points))

    def call(self, caller: int) -> Ledger:
        """``caller`` calls muggins and takes every missed point."""
        assert self.missed is not None
        return replace(self, missed=None).peg(caller, (Part("muggins", self.missed[1]),))

    def decline(self) -> Ledger:
        """Nobody calls muggins: the missed points are lost."""
        return replace(self, missed=None)

    @property
    def next_act(self) -> Act | None:
        """The act waiting for its owner's claim."""
        return self.waiting[0] if self.waiting else None


def skunk(target: int, loser: int) -> str:
    """RULES.md, "Winning": a loser at 90 or less is skunked (61 holes: 30), at 60 or less
    double skunked (no double skunk in a 61 game)."""
    if target == 121 and loser <= 60:
        return "double"
    if loser <= (90 if target == 121 else 30):
        return "skunk"
    return "none"


def game_points(kind: str, scheme: str = "acc") -> int:
    """Game points for a win: ACC 2, 3 with any skunk; classic 1, skunk 2, double 4."""
    if scheme == "acc":
        return 2 if kind == "none" else 3
    return {"none": 1, "skunk": 2, "double": 4}[kind]


Said = tuple[str, int | None, tuple[str, ...]]
"""One player's part of an award line: name, points (None if not given), reasons."""
_WORDS = {"15": "fifteen", "31": "thirty-one"}
_SEGMENT = re.compile(r"(?P<name>[\w ]+?)(?: \+(?P<total>\d+))?: (?P<what>.*)")


def award_words(text: str) -> list[Said]:
    """Read an award line ("Ann: Fifteen for 2", "Ann +5: 31, run of 3; Ben: Go for 1",
    "Ben: Three for last") as (name, points, reasons) for each player it names; the points
    are None where the line gives none.

    >>> award_words("Ann +5: 31, run of 3; Ben: Go for 1")
    [('Ann', 5, ('thirty-one', 'run of 3')), ('Ben', 1, ('go',))]
    """
    read: list[Said] = []
    for segment in text.split("; ") if text else ():
        match = _SEGMENT.fullmatch(segment)
        if match is None:
            read.append((segment, None, ()))
            continue
        what, total = match["what"], match["total"]
        points: int | None = int(total) if total else None
        single = re.fullmatch(r"(.*) for (\d+)", what)
        if single is not None and total is None:
            what, points = single[1], int(single[2])
        reasons = tuple(_WORDS.get(w.strip().lower(), w.strip().lower())
                        for w in what.split(", "))
        read.append((match["name"], points, reasons))
    return read


def reason_words(part: Part) -> str:
    """An award's reason as the award line words it ("run of 3", "thirty-one")."""
    return f"run of {part.cards}" if part.reason == "run" else part.reason


def names_awards(text: str, pegged: list[tuple[str, Part]]) -> bool:
    """Does an award line name exactly these awards: each player who pegged, in order, with
    their points and every reason (RULES.md, "The play")?"""
    want = _by_player([(name, part.points, (reason_words(part),)) for name, part in pegged])
    got = _by_player(award_words(text))
    if len(got) != len(want):
        return False
    for (name, points, reasons), (w_name, w_points, w_reasons) in zip(got, want, strict=True):
        if name != w_name or len(reasons) != len(w_reasons) or not all(
                _same_reason(r, w) for r, w in zip(reasons, w_reasons, strict=True)):
            return False
        if points is not None and points != w_points:
            return False
        if points is None and w_reasons != ("three for last",):
            return False
    return True


def _same_reason(said: str, wanted: str) -> bool:
    """The line's reason names the award: exactly, or "run" for a run claimed in part (a
    claim pegs points, not cards, so the line cannot say the run's length)."""
    return said == wanted or (said == "run" and wanted.startswith("run of "))


def _by_player(said: list[Said]) -> list[Said]:
    """Neighbouring awards of one player taken together (points added, reasons listed)."""
    merged: list[Said] = []
    for name, points, reasons in said:
        if merged and merged[-1][0] == name:
            _, before, listed = merged[-1]
            total = None if before is None or points is None else before + points
            merged[-1] = (name, total, (*listed, *reasons))
        else:
            merged.append((name, points, reasons))
    return merged
