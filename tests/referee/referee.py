"""An independent cribbage referee for game records (JSON Lines events as dicts).

Written from the rules page and the record format only. :class:`Referee` applies one event
at a time and says what each line awards; :func:`judge` runs a whole record and stops at the
first illegal line, the way ``pegboard replay --json`` must.

Rulings implemented (see the rules page):
- the cut: lowest rank deals, a tie for lowest cuts again; the deal then passes left;
- five-card 61: the pone pegs 3 "three for last" at the first deal, hands of 3, one count;
- heels: a jack starter gives the dealer 2 at once;
- the play: turn order, go chains, 31 = 2 and resets, go/last card 1 (never on top of 31);
- the show: pone first clockwise, dealer, then the crib; hands known from the play are scored
  by the referee when the play ends, unknown ones come as ``show`` events in show order;
- a new deal only once the crib is counted, or when the hand was pegged by points (no play,
  go or show line in it);
- a renege penalty: 2 per card that fitted, to the next opponent; when the renege was found
  in this deal and its crib is not counted yet, the play is put back as it was before that
  go, every point the play and the show scored since is cancelled ("renege take-back"), and
  the hands seen by then are known: they are counted again, without a new show line (the
  referee does not check that the cards laid again come from them);
- the game stops the instant a side reaches the target; later events are illegal, except
  the claim of a renege reported in the deal that was won in its play or show (the hands laid
  whole by the winning card are checked too): the take-back cancels the win when the points
  that made it are among those cancelled, and is refused otherwise.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .cards import RCard, card
from .scoring import play_points, show_points


class Illegal(Exception):
    """An event the rules do not allow at this point of the record."""


@dataclass(frozen=True)
class Award:
    player: int
    points: int
    reason: str


@dataclass
class LineVerdict:
    line: int
    awards: list[Award]
    scores: list[int]


@dataclass
class Result:
    scores: list[int]
    winner: int | None
    skunk: str
    game_points: list[int]


@dataclass
class Verdict:
    """The referee's reading of a whole record."""

    lines: list[LineVerdict]
    result: Result
    rejected_line: int | None = None
    rejected_reason: str = ""
    reneges: list[tuple[int, int, list[str]]] = field(default_factory=list)


# Skunk with more than one losing side (three players, or four without partners): the rules
# page speaks of "the loser"; the referee reads it as the last-placed player.
SKUNK_BY = "lowest_loser"


@dataclass
class _Deal:
    dealer: int
    seen: set[RCard] = field(default_factory=set)
    starter: RCard | None = None
    played: dict[int, list[RCard]] = field(default_factory=dict)
    pile: list[RCard] = field(default_factory=list)
    out: set[int] = field(default_factory=set)
    last: int | None = None
    turn: int = 0
    counts_done: int = 0
    play_over: bool = False
    any_play: bool = False
    show_order: list[int] = field(default_factory=list)
    show_index: int = 0
    gos: list[tuple[int, int, int]] = field(default_factory=list)  # (line, player, count)
    plays: list[tuple[int, int, RCard]] = field(default_factory=list)  # (line, player, card)
    shown: dict[int, list[RCard]] = field(default_factory=dict)
    known: dict[int, list[RCard]] = field(default_factory=dict)  # kept over a take-back

    @property
    def count(self) -> int:
        return sum(c.pips for c in self.pile)


class Referee:
    """Applies record events one by one; :meth:`apply` returns the line's awards."""

    def __init__(self) -> None:
        self.started = False
        self.players = 0
        self.target = 121
        self.five_card = False
        self.partnerships = False
        self.scheme = "acc"
        self.scores: list[int] = []
        self.first_dealer: int | None = None
        self.deal: _Deal | None = None
        self.deals = 0
        self.need_crib = False
        self.winner: int | None = None
        self.line = 0
        self.reneges: list[tuple[int, int, list[str]]] = []
        self.settled: set[int] = set()  # go lines of reneges paid or taken back
        self.before_go: dict[int, _Deal] = {}  # this deal: the deal just before each go
        self.deal_log: list[tuple[int, str, list[Award]]] = []  # this deal's lines
        self.cancelled: set[tuple[int, int]] = set()  # (line, award index) taken back

    # ----- table facts -------------------------------------------------------------------
    @property
    def sides(self) -> int:
        return 2 if self.partnerships else self.players

    def side(self, player: int) -> int:
        return player % 2 if self.partnerships else player

    @property
    def hand_size(self) -> int:
        return 3 if self.five_card else 4

    @property
    def over(self) -> bool:
        return self.winner is not None

    # ----- helpers -------------------------------------------------------------------------
    def _player(self, event: Mapping[str, Any]) -> int:
        player = event.get("player")
        if not isinstance(player, int) or isinstance(player, bool):
            raise Illegal("missing or non-integer player")
        if not 0 <= player < self.players:
            raise Illegal(f"no seat {player}")
        return player

    def _card(self, text: object) -> RCard:
        try:
            return card(text)
        except ValueError as error:
            raise Illegal(str(error)) from None

    def _new_card(self, text: object) -> RCard:
        assert self.deal is not None
        c = self._card(text)
        if c in self.deal.seen:
            raise Illegal(f"{c} was already seen this deal")
        return c

    def _award(self, awards: list[Award], player: int, points: int, reason: str) -> None:
        """Peg points for a player's side; the caller checks for the end of the game.

        A score of nothing (a hand of "nineteen") is not listed as an award.
        """
        if points == 0:
            return
        awards.append(Award(player, points, reason))
        self.scores[self.side(player)] += points

    def _check_end(self) -> bool:
        if self.winner is None:
            for side, score in enumerate(self.scores):
                if score >= self.target:
                    self.winner = side
                    break
        return self.winner is not None

    # ----- the events ----------------------------------------------------------------------
    def apply(self, event: Mapping[str, Any]) -> list[Award]:
        """Apply one event; raises :class:`Illegal` (state then unusable) if not allowed."""
        self.line += 1
        if not isinstance(event, Mapping) or not isinstance(event.get("type"), str):
            raise Illegal("not an event object with a type")
        kind = event["type"]
        if not self.started:
            if kind != "game":
                raise Illegal("the first line must be the game")
            self._game(event)
            return []
        if self.over and not self._open_after_win(kind, event):
            raise Illegal("the game is over")
        handler = {
            "cut": self._cut, "deal": self._deal, "starter": self._starter,
            "play": self._play, "go": self._go, "show": self._show, "crib": self._crib,
            "peg": self._peg, "penalty": self._penalty,
        }.get(kind)
        if handler is None:
            raise Illegal(f"event type {kind!r} is not handled by the referee")
        awards: list[Award] = []
        handler(event, awards)
        self.deal_log.append((self.line, kind, awards))
        if self.over and kind in ("play", "go") and self.deal is not None:
            self._find_reneges(self.deal)  # the hands laid whole by the winning card
        return awards

    def _open_after_win(self, kind: str, event: Mapping[str, Any]) -> bool:
        """A game won in the play or show of a deal stays open to the claim of a renege
        reported in that deal until its crib would have been counted."""
        if kind != "penalty" or event.get("infraction") != "renege" or self.deal is None:
            return False
        if "held" in event:
            self._show_held(event)
        player = event.get("player")
        return any(who == player and line not in self.settled and line in self.before_go
                   for line, who, _ in self.reneges)

    def _game(self, event: Mapping[str, Any]) -> None:
        players = event.get("players")
        if not isinstance(players, list) or not 2 <= len(players) <= 4:
            raise Illegal("players must list 2 to 4 names")
        rules = event.get("rules", {})
        self.players = len(players)
        self.five_card = bool(rules.get("five_card", False))
        self.target = int(rules.get("target", 61 if self.five_card else 121))
        if self.target not in (61, 121):
            raise Illegal("the target is 121 or 61")
        if rules.get("partnerships") is True and self.players != 4:
            raise Illegal("partnerships are for four players")
        self.partnerships = bool(rules.get("partnerships", True)) and self.players == 4
        self.scheme = str(rules.get("game_points", "acc"))
        if self.five_card and self.players != 2:
            raise Illegal("five-card is for two players")
        self.scores = [0] * self.sides
        self.started = True

    def _cut(self, event: Mapping[str, Any], awards: list[Award]) -> None:
        if self.deals or self.first_dealer is not None:
            raise Illegal("the cut comes before the first deal only")
        cards = [self._card(t) for t in event.get("cards", [])]
        if len(cards) != self.players or len(set(cards)) != len(cards):
            raise Illegal("a cut needs one different card per seat")
        low = min(c.rank for c in cards)
        lowest = [seat for seat, c in enumerate(cards) if c.rank == low]
        if len(lowest) == 1:
            self.first_dealer = lowest[0]

    def _deal(self, event: Mapping[str, Any], awards: list[Award]) -> None:
        # A hand pegged by points may be left at any time; one whose cards were entered is
        # finished first (the crib counted: then there is no deal in progress).
        old = self.deal
        if old is not None and (old.any_play or old.play_over or self.need_crib):
            raise Illegal("the hand is not over: its cards are played and counted first")
        if self.deals == 0:
            named = event.get("dealer")
            if self.first_dealer is None:
                if named is None:
                    raise Illegal("no cut decided the dealer: name one")
                dealer = self._player({"player": named})
            else:
                dealer = self.first_dealer
                if named is not None and named != dealer:
                    raise Illegal("the cut decided another dealer")
        else:
            assert self.first_dealer is not None
            dealer = (self.first_dealer + self.deals) % self.players
            named = event.get("dealer")
            if named is not None and named != dealer:
                raise Illegal("the deal passes left")
        self.first_dealer = dealer if self.deals == 0 else self.first_dealer
        self.deals += 1
        self.deal = _Deal(dealer=dealer)
        self.need_crib = False
        self.deal.played = {p: [] for p in range(self.players)}
        self.deal.turn = (dealer + 1) % self.players
        self.deal.show_order = [(dealer + i) % self.players for i in range(1, self.players + 1)]
        self.before_go = {}
        self.deal_log = []
        if self.five_card and self.deals == 1:
            self._award(awards, (dealer + 1) % self.players, 3, "three for last")
            self._check_end()

    def _need_deal(self) -> _Deal:
        if self.deal is None:
            raise Illegal("no deal in progress")
        return self.deal

    def _starter(self, event: Mapping[str, Any], awards: list[Award]) -> None:
        deal = self._need_deal()
        if deal.starter is not None:
            raise Illegal("the starter is already turned")
        deal.starter = self._new_card(event.get("card"))
        deal.seen.add(deal.starter)
        if deal.starter.rank == 11:
            self._award(awards, deal.dealer, 2, "his heels")
            self._check_end()

    def _in_play(self) -> _Deal:
        deal = self._need_deal()
        if deal.starter is None:
            raise Illegal("turn the starter first")
        if deal.play_over or deal.show_index > 0:
            raise Illegal("the play is over")
        return deal

    def _next_turn(self, deal: _Deal, after: int) -> int | None:
        """The next seat clockwise from ``after`` (itself last) still in this count."""
        for step in range(1, self.players + 1):
            seat = (after + step) % self.players
            if seat not in deal.out and len(deal.played[seat]) < self.hand_size:
                return seat
        return None

    def _left_with_cards(self, deal: _Deal, of: int) -> int | None:
        for step in range(1, self.players + 1):
            seat = (of + step) % self.players
            if len(deal.played[seat]) < self.hand_size:
                return seat
        return None

    def _play(self, event: Mapping[str, Any], awards: list[Award]) -> None:
        deal = self._in_play()
        player = self._player(event)
        if player != deal.turn:
            raise Illegal(f"it is seat {deal.turn}'s turn, not seat {player}'s")
        if len(deal.played[player]) >= self.hand_size:
            raise Illegal("that player has played every card")
        c = self._new_card(event.get("card"))
        if deal.count + c.pips > 31:
            raise Illegal(f"count is {deal.count}: {c} passes 31")
        deal.any_play = True
        deal.seen.add(c)
        deal.played[player].append(c)
        deal.plays.append((self.line, player, c))
        deal.pile.append(c)
        deal.last = player
        items = play_points(deal.pile)
        all_played = all(len(v) == self.hand_size for v in deal.played.values())
        for reason, points in items:
            self._award(awards, player, points, reason)
        if deal.count == 31:
            self._end_count(deal, awards, scored_31=True)
            return
        # The go or last-card point a card earns is part of that card's call ("fifteen two
        # and one for last is three"): pegged with its combinations before the end is checked.
        if all_played:
            self._award(awards, player, 1, "last card")
            if not self._check_end():
                self._finish_play(deal, awards)
            return
        nxt = self._next_turn(deal, player)
        if nxt is None:
            self._end_count(deal, awards, scored_31=False)
            return
        if self._check_end():
            return
        deal.turn = nxt

    def _go(self, event: Mapping[str, Any], awards: list[Award]) -> None:
        deal = self._in_play()
        player = self._player(event)
        if player != deal.turn:
            raise Illegal(f"it is seat {deal.turn}'s turn, not seat {player}'s")
        if not deal.pile:
            raise Illegal("count is 0: every card fits, so a go is not possible")
        self.before_go[self.line] = copy.deepcopy(deal)
        deal.gos.append((self.line, player, deal.count))
        deal.out.add(player)
        nxt = self._next_turn(deal, player)
        if nxt is None:
            self._end_count(deal, awards, scored_31=False)
        else:
            deal.turn = nxt

    def _end_count(self, deal: _Deal, awards: list[Award], *, scored_31: bool) -> None:
        """Nobody can add to the count (or it hit 31): go point, reset, next lead."""
        last = deal.last
        all_played = all(len(v) == self.hand_size for v in deal.played.values())
        if not scored_31 and last is not None:
            self._award(awards, last, 1, "last card" if all_played else "go")
        if self._check_end():
            return
        deal.counts_done += 1
        deal.pile = []
        deal.out = set()
        if all_played or (self.five_card and deal.counts_done >= 1):
            self._finish_play(deal, awards)
            return
        lead = self._left_with_cards(deal, last if last is not None else deal.turn)
        assert lead is not None
        deal.turn = lead

    def _finish_play(self, deal: _Deal, awards: list[Award]) -> None:
        deal.play_over = True
        self._find_reneges(deal)
        if not self.over:
            self._advance_show(deal, awards)

    def _show_held(self, event: Mapping[str, Any]) -> None:
        """A renege claimed by the cards its offender still holds: with those laid, the
        hand is known, and its goes are checked; cards that show no renege are refused."""
        deal = self._need_deal()
        player = self._player(event)
        texts = event.get("held")
        if not isinstance(texts, list):
            raise Illegal("held needs a list of cards")
        held = [self._card(t) for t in texts]
        if player in deal.known or player in deal.shown:
            if set(deal.known.get(player, deal.shown.get(player, []))) == {
                    *deal.played[player], *held}:
                return  # already shown by this very line (the game-over check)
            raise Illegal("that hand is known already")
        if len(held) != self.hand_size - len(deal.played[player]) or len(set(held)) != len(held):
            raise Illegal("held names exactly the cards the player still holds")
        if any(c in deal.seen for c in held):
            raise Illegal("a card held was already seen this deal")
        before = len(self.reneges)
        deal.known[player] = [*deal.played[player], *held]
        self._check_goes(deal, player, deal.known[player])
        if not any(who == player for _, who, _ in self.reneges[before:]):
            raise Illegal("no card held fitted at any go: no renege")

    def _find_reneges(self, deal: _Deal) -> None:
        """Check the goes of every player whose whole hand was laid in the play."""
        for player, cards in deal.played.items():
            if player in deal.known:
                self._check_goes(deal, player, deal.known[player])
            elif len(cards) == self.hand_size:
                self._check_goes(deal, player, cards)

    def _check_goes(self, deal: _Deal, player: int, hand: list[RCard]) -> None:
        """A go said while holding a card that fitted (known once the hand is known).

        What a player held at a go is their hand less what they had laid before it. Nothing
        is awarded: a renege is only reported, for the opponent to claim.
        """
        for line, who, count in deal.gos:
            if who != player or any(found == line for found, _, _ in self.reneges):
                continue
            laid = {c for at, p, c in deal.plays if p == player and at < line}
            fitting = [c.text for c in hand if c not in laid and count + c.pips <= 31]
            if fitting:
                self.reneges.append((line, player, fitting))

    def _hand_known(self, deal: _Deal, player: int) -> bool:
        if player in deal.known:
            return True
        return deal.any_play and len(deal.played[player]) == self.hand_size

    def _advance_show(self, deal: _Deal, awards: list[Award]) -> None:
        """Score every hand already known, in show order, until one must be shown."""
        assert deal.starter is not None
        while deal.show_index < len(deal.show_order):
            player = deal.show_order[deal.show_index]
            if not self._hand_known(deal, player):
                return
            hand = deal.known.get(player, deal.played[player])
            points = show_points(hand, deal.starter)
            self._award(awards, player, points, "hand")
            deal.show_index += 1
            if self._check_end():
                return
        self.need_crib = True

    def _show(self, event: Mapping[str, Any], awards: list[Award]) -> None:
        deal = self._need_deal()
        if deal.starter is None:
            raise Illegal("turn the starter first")
        if self.need_crib:
            raise Illegal("every hand is counted: the crib is next")
        if not deal.play_over:
            if deal.any_play:
                raise Illegal("the play is not over")
            deal.play_over = True
        player = self._player(event)
        expected = deal.show_order[deal.show_index]
        if player != expected:
            raise Illegal(f"seat {expected} shows next")
        texts = event.get("cards")
        if not isinstance(texts, list):
            raise Illegal("show needs a list of cards")
        cards = [self._card(t) for t in texts]
        if len(cards) != self.hand_size or len(set(cards)) != len(cards):
            raise Illegal(f"a hand is {self.hand_size} different cards")
        mine = set(deal.played[player])
        for c in cards:
            if c in deal.seen and c not in mine:
                raise Illegal(f"{c} was already seen this deal")
        if not mine <= set(cards):
            raise Illegal("the hand must hold the cards that player played")
        deal.seen.update(cards)
        deal.shown[player] = cards
        assert deal.starter is not None
        if len(mine) < self.hand_size:  # a hand known only now: check its goes
            self._check_goes(deal, player, cards)
        self._award(awards, player, show_points(cards, deal.starter), "hand")
        deal.show_index += 1
        if self._check_end():
            return
        self._advance_show(deal, awards)

    def _crib(self, event: Mapping[str, Any], awards: list[Award]) -> None:
        deal = self._need_deal()
        if not self.need_crib:
            raise Illegal("the crib is counted after every hand")
        texts = event.get("cards")
        if not isinstance(texts, list):
            raise Illegal("crib needs a list of cards")
        cards = [self._new_card(t) for t in texts]
        if len(cards) != 4 or len(set(cards)) != 4:
            raise Illegal("a crib is 4 different cards")
        assert deal.starter is not None
        self._award(awards, deal.dealer, show_points(cards, deal.starter, crib=True), "crib")
        self._check_end()
        self.deal = None
        self.need_crib = False

    def _peg(self, event: Mapping[str, Any], awards: list[Award]) -> None:
        """Quick mode: points by hand, at any time of the game (also before a deal)."""
        player = self._player(event)
        points = event.get("points")
        if not isinstance(points, int) or isinstance(points, bool) or points == 0:
            raise Illegal("peg needs a whole number of points, not 0")
        # Negative pegs move back, never below 0.
        points = max(points, -self.scores[self.side(player)])
        self._award(awards, player, points, "peg")
        self._check_end()

    def _penalty(self, event: Mapping[str, Any], awards: list[Award]) -> None:
        """A renege claimed (only renege penalties are refereed).

        The go it is about is the player's first renege of this deal not yet settled, else
        their first one left from an earlier deal (then only the points are paid).
        """
        player = self._player(event)
        if event.get("infraction") != "renege":
            raise Illegal("the referee judges renege penalties only")
        if "held" in event:
            self._show_held(event)
        open_ = [(line, fitting) for line, who, fitting in self.reneges
                 if who == player and line not in self.settled]
        here = [r for r in open_ if r[0] in self.before_go]
        chosen = here[0] if here else (open_[0] if open_ else None)
        points = event.get("points")
        if points is None:
            points = 2 * len(chosen[1]) if chosen else 2
        if chosen is not None:
            self.settled.add(chosen[0])
            if chosen in here and self.deal is not None:
                self._take_back(chosen[0], player, awards)
                if self.winner is not None:
                    if any(score >= self.target for score in self.scores):
                        raise Illegal("the game was won on points the renege does not cancel")
                    self.winner = None  # the win came from points the renege cancelled
        to = event.get("to")
        if to is None:
            to = next(seat for step in range(1, self.players + 1)
                      if self.side(seat := (player + step) % self.players) != self.side(player))
        self._award(awards, to, points, "penalty")
        self._check_end()

    def _take_back(self, go_line: int, player: int, awards: list[Award]) -> None:
        """Cancel what the play and show scored from the go on; the deal as it was before it."""
        deal = self.deal
        assert deal is not None
        known: dict[int, list[RCard]] = dict(deal.known)
        for seat, cards in deal.played.items():
            if len(cards) == self.hand_size:
                known[seat] = list(cards)
        known.update(deal.shown)
        for line, kind, given in self.deal_log:
            if line < go_line or kind not in ("play", "go", "show"):
                continue
            for index, award in enumerate(given):
                if (line, index) in self.cancelled:
                    continue
                self.cancelled.add((line, index))
                side = self.side(award.player)
                lost = min(award.points, self.scores[side])
                if lost:
                    awards.append(Award(award.player, -lost, "renege take-back"))
                    self.scores[side] -= lost
        later = [line for line in self.before_go if line > go_line]
        self.settled.update(later)  # those goes are taken back as well
        restored = self.before_go[go_line]
        for line in [go_line, *later]:
            del self.before_go[line]
        self.deal = copy.deepcopy(restored)
        self.deal.known = known
        self.deal.turn = player
        self.need_crib = False

    # ----- the result ------------------------------------------------------------------------
    def result(self) -> Result:
        scores = list(self.scores)
        points = [0] * len(scores)
        if self.winner is None:
            return Result(scores, None, "none", points)
        losers = [s for side, s in enumerate(scores) if side != self.winner]
        measured = max(losers) if SKUNK_BY == "best_loser" else min(losers)
        if self.target == 61:
            skunk = "skunk" if measured <= 30 else "none"
        else:
            skunk = "double" if measured <= 60 else "skunk" if measured <= 90 else "none"
        if self.scheme == "classic":
            points[self.winner] = {"none": 1, "skunk": 2, "double": 4}[skunk]
        else:
            points[self.winner] = 2 if skunk == "none" else 3
        return Result(scores, self.winner, skunk, points)


class Session:
    """A referee that also takes ``undo`` lines: the entries in force are replayed afresh.

    An illegal entry leaves the session as it was (the referee is rebuilt).
    """

    def __init__(self) -> None:
        self.in_force: list[Mapping[str, Any]] = []
        self.referee = Referee()

    def _rebuild(self) -> None:
        self.referee = Referee()
        for event in self.in_force:
            self.referee.apply(event)

    def apply(self, event: Mapping[str, Any]) -> list[Award]:
        if isinstance(event, Mapping) and event.get("type") == "undo":
            if len(self.in_force) <= 1:
                raise Illegal("nothing to undo")
            self.in_force.pop()
            self._rebuild()
            return []
        try:
            awards = self.referee.apply(event)
        except Illegal:
            self._rebuild()
            raise
        self.in_force.append(event)
        return awards


def judge(events: Iterable[Mapping[str, Any]]) -> Verdict:
    """Run a whole record; stop at the first illegal line (1-based) like the replay must."""
    session = Session()
    lines: list[LineVerdict] = []
    for number, event in enumerate(events, start=1):
        try:
            awards = session.apply(event)
        except Illegal as error:
            referee = session.referee
            return Verdict(lines, referee.result(), number, str(error), referee.reneges)
        lines.append(LineVerdict(number, awards, list(session.referee.scores)))
    referee = session.referee
    return Verdict(lines, referee.result(), None, "", referee.reneges)
