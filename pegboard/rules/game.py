"""The referee: a game (or match) as an append-only event log, with undo.

``Game.apply(event)`` checks one entry against the rules (RULES.md), pegs whatever it scores and
returns the awards; an illegal entry raises a :class:`~pegboard.errors.RuleError` saying what is
wrong and what would be right, and leaves the game exactly as it was. ``Game.undo()`` takes the
last entry back. ``Game.state`` is an immutable snapshot of the table.

The rules applied, in brief:

- The deal passes left every hand; the first dealer is named or cut for (lowest card deals).
- A jack turned as starter pegs 2 for the dealer at once ("his heels", ACC 6.3).
- The play: the player left of the dealer leads, play goes clockwise, the count never passes
  31. A player who says go is out of that count; a player with no cards left is out. When
  everybody is out the player who laid the last card pegs 1 for the go; a card making 31 pegs
  2 and restarts the count (never 3). The next count is led by the player left of the last
  card's player (skipping empty hands). The very last card pegs 1 ("last card"), or 2 for 31.
  Five-card cribbage has one count only: the play ends when that count does.
- The show: pone first, clockwise, the dealer's hand last, then the crib. Hands whose cards
  were all laid in the play are counted by the engine itself as soon as the play ends.
- The game ends the instant a side reaches the target; nothing after that is scored. One card's
  combinations, one hand and one crib are each a single scoring act, pegged whole.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from pegboard.errors import InvalidCardError, RuleError
from pegboard.rules.awards import number
from pegboard.rules.cards import Card, Rank, require_distinct
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
    NewGame,
    Peg,
    Penalty,
    Play,
    Show,
    Starter,
    Undo,
)
from pegboard.rules.pegging import score_play
from pegboard.rules.penalties import infraction
from pegboard.rules.scoring import Breakdown, ScoreItem
from pegboard.rules.show import score_hand
from pegboard.rules.speech import cards_text, say_breakdown, say_play
from pegboard.rules.state import (
    Award,
    GameResult,
    GameState,
    MatchState,
    PenaltyOffer,
    PendingClaim,
    PendingMuggins,
    Phase,
)
from pegboard.rules.variants import Rules

MUGGINS_RULE = "ACC 10 (2020)"


@dataclass(frozen=True, slots=True)
class _Part:
    """One piece of a scoring act before it is pegged."""

    reason: str
    points: int
    sentence: str
    items: tuple[ScoreItem, ...] = ()
    cards: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class _Act:
    """A single scoring act (one card's combinations, one hand, one go...): pegged whole."""

    player: int
    parts: tuple[_Part, ...]

    @property
    def points(self) -> int:
        return sum(part.points for part in self.parts)


@dataclass(frozen=True, slots=True)
class _GoMark:
    """A go, remembered so it can be checked for a renege once the hand is known."""

    player: int
    count: int
    played_before: int


class _Table:
    """The mutable working state. Only :class:`Game` touches it, always on a fresh copy."""

    def __init__(self, header: GameHeader) -> None:
        self.names = header.players
        self.rules = header.rules
        self.n = len(self.names)
        self.sides = self.rules.sides(self.n)
        self.hand_size = self.rules.hand_size()
        self.phase = Phase.CUT
        self.game_no = 1
        self.deal_no = 0
        self.dealer: int | None = None
        self.next_dealer: int | None = None
        self.first_dealer: int | None = None
        self.scores = [0] * self.sides
        self.back_pegs = [0] * self.sides
        self.awards: tuple[Award, ...] = ()
        self.winner: int | None = None
        self.result: GameResult | None = None
        self.results: tuple[GameResult, ...] = ()
        self.match_winner: int | None = None
        self.offers: tuple[PenaltyOffer, ...] = ()
        self.pending_claims: tuple[PendingClaim, ...] = ()
        self.claim_acts: tuple[_Act, ...] = ()
        self.pending_muggins: PendingMuggins | None = None
        self._new_deal_state()

    def _new_deal_state(self) -> None:
        self.starter: Card | None = None
        self.count = 0
        self.pile: tuple[Card, ...] = ()
        self.played: list[tuple[Card, ...]] = [()] * self.n
        self.said_go: frozenset[int] = frozenset()
        self.last_player: int | None = None
        self.to_act: int | None = None
        self.seen: frozenset[Card] = frozenset()
        self.shown: list[tuple[Card, ...] | None] = [None] * self.n
        self.dealt: list[tuple[Card, ...] | None] = [None] * self.n
        self.crib: tuple[Card, ...] | None = None
        self.gos: tuple[_GoMark, ...] = ()
        self.play_started = False
        self.show_index = 0

    def copy(self) -> _Table:
        new = object.__new__(_Table)
        new.__dict__.update(self.__dict__)
        new.scores = list(self.scores)
        new.back_pegs = list(self.back_pegs)
        new.played = list(self.played)
        new.shown = list(self.shown)
        new.dealt = list(self.dealt)
        return new

    # Helpers -------------------------------------------------------------------------------

    def side(self, player: int) -> int:
        return self.rules.side_of(player, self.n)

    def name(self, player: int) -> str:
        return self.names[player]

    def left_of(self, player: int) -> int:
        return (player + 1) % self.n

    def cards_left(self, player: int) -> int:
        return self.hand_size - len(self.played[player])

    def hand(self, player: int) -> tuple[Card, ...] | None:
        """The player's kept hand, when known: all laid in the play, or shown."""
        if self.shown[player] is not None:
            return self.shown[player]
        if len(self.played[player]) == self.hand_size:
            return self.played[player]
        return None

    def show_order(self) -> list[int]:
        assert self.dealer is not None
        return [(self.dealer + k) % self.n for k in range(1, self.n + 1)]

    def opponent_of(self, player: int) -> int:
        """The opponent who receives a penalty by default: the next seat of another side."""
        seat = self.left_of(player)
        while self.side(seat) == self.side(player):
            seat = self.left_of(seat)
        return seat

    def check_player(self, player: int) -> None:
        if isinstance(player, bool) or not isinstance(player, int) or not (
            0 <= player < self.n
        ):
            seats = ", ".join(f"{i} {name}" for i, name in enumerate(self.names))
            raise RuleError(f"player {player!r} is not at this table: the seats are {seats}")

    # Pegging -------------------------------------------------------------------------------

    def peg(self, act: _Act, out: list[Award], *, claimable: bool = True) -> None:
        """Peg one scoring act whole (or queue it for a claim in a muggins game)."""
        if self.winner is not None or not act.parts:
            return
        if claimable and self.rules.muggins:
            self.claim_acts = (*self.claim_acts, act)
            first = act.parts[0]
            items = tuple(item for part in act.parts for item in part.items)
            self.pending_claims = (
                *self.pending_claims,
                PendingClaim(act.player, act.points, first.reason, items),
            )
            return
        side = self.side(act.player)
        before = self.scores[side]
        for part in act.parts:
            points = part.points
            if points < 0:
                points = -min(-points, self.scores[side])
            self.scores[side] += points
            award = Award(
                player=act.player, side=side, points=points, reason=part.reason,
                sentence=f"{self.name(act.player)}: {part.sentence}",
                items=part.items, cards=part.cards,
            )
            self.awards = (*self.awards, award)
            out.append(award)
        if self.scores[side] != before:
            self.back_pegs[side] = before
        if self.scores[side] >= self.rules.target:
            self.end_game(side)

    def end_game(self, side: int) -> None:
        self.winner = side
        self.phase = Phase.GAME_OVER
        self.to_act = None
        self.pending_claims = ()
        self.claim_acts = ()
        self.pending_muggins = None
        others = [score for s, score in enumerate(self.scores) if s != side]
        best_loser = max(others)
        skunk_line, double_line = self.rules.skunk_lines()
        if double_line is not None and best_loser <= double_line:
            skunk = "double"
        elif best_loser <= skunk_line:
            skunk = "skunk"
        else:
            skunk = "none"
        if self.rules.game_points == "acc":
            won = 2 if skunk == "none" else 3
        else:
            won = {"none": 1, "skunk": 2, "double": 4}[skunk]
        points = tuple(won if s == side else 0 for s in range(self.sides))
        self.result = GameResult(side, tuple(self.scores), skunk, points)
        self.results = (*self.results, self.result)
        wins = [sum(1 for r in self.results if r.winner == s) for s in range(self.sides)]
        if wins[side] * 2 > self.rules.match_games:
            self.match_winner = side

    # Snapshot ------------------------------------------------------------------------------

    def snapshot(self) -> GameState:
        wins = tuple(sum(1 for r in self.results if r.winner == s) for s in range(self.sides))
        totals = tuple(
            sum(r.game_points[s] for r in self.results) for s in range(self.sides)
        )
        return GameState(
            names=self.names,
            rules=self.rules,
            phase=self.phase,
            game_no=self.game_no,
            deal_no=self.deal_no,
            dealer=self.dealer,
            to_act=self.to_act,
            count=self.count,
            pile=self.pile,
            starter=self.starter,
            seen=self.seen,
            played=tuple(self.played),
            cards_left=tuple(self.cards_left(p) for p in range(self.n)),
            said_go=self.said_go,
            hands=tuple(self.hand(p) for p in range(self.n)),
            crib=self.crib,
            scores=tuple(self.scores),
            back_pegs=tuple(self.back_pegs),
            winner=self.winner,
            result=self.result,
            match=MatchState(
                self.rules.match_games, self.results, wins, totals, self.match_winner
            ),
            awards=self.awards,
            pending_claims=self.pending_claims,
            pending_muggins=self.pending_muggins,
            offers=self.offers,
            dealt=tuple(self.dealt),
        )


class Game:
    """A cribbage game (or match) for 2, 3 or 4 players, built from its event log.

    >>> from pegboard.rules.events import Deal, Starter
    >>> game = Game(["Ann", "Ben"])
    >>> game.apply(Deal(dealer=0))
    ()
    >>> [a.reason for a in game.apply(Starter(Card.parse("JH")))]
    ['his heels']
    >>> game.state.scores
    (2, 0)
    """

    def __init__(self, players: Sequence[str], rules: Rules | None = None) -> None:
        names = tuple(players)
        if rules is None:
            rules = Rules()
        rules.check(len(names))
        for name in names:
            if not isinstance(name, str) or not name.strip():
                raise RuleError(f"player names must be non-empty text, got {name!r}")
        self._header = GameHeader(names, rules)
        self._events: list[Event] = []
        self._tables: list[_Table] = [_Table(self._header)]
        self._state: GameState | None = None

    @classmethod
    def from_header(cls, header: GameHeader) -> Game:
        """A new game from a record's first line."""
        return cls(header.players, header.rules)

    # Read-only views -----------------------------------------------------------------------

    @property
    def header(self) -> GameHeader:
        """The game line: players and rules."""
        return self._header

    @property
    def events(self) -> tuple[Event, ...]:
        """The entries in force (undone entries are gone)."""
        return tuple(self._events)

    @property
    def names(self) -> tuple[str, ...]:
        """Player names in seat order."""
        return self._header.players

    @property
    def rules(self) -> Rules:
        """The rules this table plays."""
        return self._header.rules

    def side_of(self, player: int) -> int:
        """The side (score) seat ``player`` pegs for."""
        return self.rules.side_of(player, len(self.names))

    @property
    def state(self) -> GameState:
        """An immutable snapshot of the table now."""
        if self._state is None:
            self._state = self._tables[-1].snapshot()
        return self._state

    # Changing the game ---------------------------------------------------------------------

    def apply(self, event: Event) -> tuple[Award, ...]:
        """Apply one entry; returns the awards it pegged. Illegal entries raise RuleError."""
        if isinstance(event, Undo):
            self.undo()
            return ()
        table = self._tables[-1].copy()
        out: list[Award] = []
        _apply(table, event, out)
        self._tables.append(table)
        self._events.append(event)
        self._state = None
        return tuple(out)

    def undo(self) -> Event:
        """Take back the last entry and return it (RuleError when there is nothing to undo)."""
        if not self._events:
            raise RuleError("nothing to undo: no entries yet")
        self._tables.pop()
        self._state = None
        return self._events.pop()


# ---------------------------------------------------------------------------------------------
# Applying one event to a (copied) table.


def _apply(t: _Table, event: Event, out: list[Award]) -> None:
    if t.phase is Phase.GAME_OVER and not isinstance(event, NewGame):
        raise RuleError(_game_over_message(t))
    _settle_claims(t, event, out)
    if isinstance(event, Play):
        _play(t, event, out)
    elif isinstance(event, Go):
        _go(t, event, out)
    elif isinstance(event, Starter):
        _starter(t, event, out)
    elif isinstance(event, Deal):
        _deal(t, event, out)
    elif isinstance(event, Show):
        _show(t, event, out)
    elif isinstance(event, Crib):
        _crib(t, event, out)
    elif isinstance(event, Peg):
        _peg(t, event, out)
    elif isinstance(event, Cut):
        _cut(t, event)
    elif isinstance(event, Dealt):
        _dealt(t, event)
    elif isinstance(event, Penalty):
        _penalty(t, event, out)
    elif isinstance(event, Claim):
        _claim(t, event, out)
    elif isinstance(event, Muggins):
        _muggins(t, event, out)
    elif isinstance(event, NewGame):
        _new_game(t, event)
    else:  # pragma: no cover - every Event type is handled above
        raise RuleError(f"unknown entry {event!r}")


def _game_over_message(t: _Table) -> str:
    assert t.winner is not None
    who = _side_name(t, t.winner)
    more = (
        "a new game can start (new_game) or the last entry can be undone"
        if t.match_winner is None else "only undo is possible"
    )
    return f"the game is over: {who} won; {more}"


def _side_name(t: _Table, side: int) -> str:
    members = [t.names[p] for p in range(t.n) if t.side(p) == side]
    return " & ".join(members)


# The cut and the deal ------------------------------------------------------------------------


def _cut(t: _Table, event: Cut) -> None:
    if t.phase is not Phase.CUT:
        raise RuleError("no cut is needed now: the dealer is already decided")
    cards = tuple(event.cards)
    if len(cards) != t.n:
        raise RuleError(f"a cut needs one card per player ({t.n}), got {len(cards)}")
    _distinct(cards, "the cut")
    low = min(int(card.rank) for card in cards)
    lowest = [p for p, card in enumerate(cards) if int(card.rank) == low]
    if len(lowest) > 1:
        return  # a tie for lowest: cut again (still in the CUT phase)
    t.next_dealer = lowest[0]
    t.phase = Phase.DEAL
    t.to_act = lowest[0]


def _deal(t: _Table, event: Deal, out: list[Award]) -> None:
    expected = t.next_dealer
    if event.dealer is not None:
        t.check_player(event.dealer)
        if expected is not None and event.dealer != expected:
            raise RuleError(
                f"{t.name(expected)} deals this hand, not {t.name(event.dealer)}: "
                + (
                    "the deal passes to the left every hand"
                    if t.deal_no > 0 else "that was decided by the cut or the last game"
                )
            )
        dealer = event.dealer
    elif expected is None:
        raise RuleError(
            "who deals? cut for the deal first (lowest card deals) or name the dealer"
        )
    else:
        dealer = expected
    t.pending_muggins = None
    t.deal_no += 1
    t.dealer = dealer
    if t.first_dealer is None:
        t.first_dealer = dealer
    t.next_dealer = t.left_of(dealer)
    t._new_deal_state()
    t.phase = Phase.STARTER
    t.to_act = dealer
    if t.rules.five_card and not any(a.reason == "three for last" for a in t.awards):
        pone = t.left_of(dealer)
        t.peg(_Act(pone, (_Part("three for last", 3, "Three for last"),)), out, claimable=False)


def _dealt(t: _Table, event: Dealt) -> None:
    t.check_player(event.player)
    if t.phase is not Phase.STARTER:
        raise RuleError("the dealt cards are entered after the deal, before the starter")
    cards = tuple(event.cards)
    size = t.rules.dealt_size(t.n)
    if len(cards) != size:
        raise RuleError(f"each player is dealt {size} cards, got {len(cards)}")
    _distinct(cards, "the dealt cards")
    for other, known in enumerate(t.dealt):
        if other != event.player and known is not None:
            clash = set(cards) & set(known)
            if clash:
                card = min(clash)
                raise RuleError(f"{card} was dealt to {t.name(other)} already")
    t.dealt[event.player] = cards


def _starter(t: _Table, event: Starter, out: list[Award]) -> None:
    if t.phase is not Phase.STARTER:
        raise RuleError(_phase_message(t, "turn the starter"))
    card = event.card
    for p, known in enumerate(t.dealt):
        if known is not None and card in known:
            raise RuleError(f"{card} was dealt to {t.name(p)}: it cannot be the starter")
    t.starter = card
    t.seen = frozenset({card})
    t.phase = Phase.PLAY
    assert t.dealer is not None
    t.to_act = t.left_of(t.dealer)
    if card.rank is Rank.JACK:
        dealer_side = t.side(t.dealer)
        blocked = t.rules.no_heels_last and (
            t.scores[dealer_side] > t.rules.target - t.rules.no_heels_last
        )
        if not blocked:
            part = _Part("his heels", 2, f"Two for his heels ({card.pretty})", cards=(card,))
            t.peg(_Act(t.dealer, (part,)), out, claimable=False)


# The play ------------------------------------------------------------------------------------


def _require_turn(t: _Table, player: int, doing: str) -> None:
    t.check_player(player)
    if t.phase is not Phase.PLAY:
        raise RuleError(_phase_message(t, doing))
    if player != t.to_act:
        assert t.to_act is not None
        why = ""
        if player in t.said_go:
            why = f": {t.name(player)} said go and is out of this count"
        elif t.cards_left(player) == 0:
            why = f": {t.name(player)} has played all {t.hand_size} cards"
        raise RuleError(f"it is {t.name(t.to_act)}'s turn, not {t.name(player)}'s{why}")


def _play(t: _Table, event: Play, out: list[Award]) -> None:
    player, card = event.player, event.card
    _require_turn(t, player, f"play {card}")
    if card in t.seen:
        raise RuleError(f"{card} was already seen this deal ({_where_seen(t, card)})")
    known = t.dealt[player]
    if known is not None and card not in known:
        listed = " ".join(str(c) for c in known)
        raise RuleError(f"{card} was not dealt to {t.name(player)} (dealt {listed})")
    if t.count + card.pips > 31:
        room = 31 - t.count
        raise RuleError(
            f"count is {t.count}: {card} would make {t.count + card.pips} — play a card of "
            f"{number(room) if room > 1 else 'ace'}{' or less' if room > 1 else ''}, "
            "or say go"
        )
    t.play_started = True
    t.pile = (*t.pile, card)
    t.count += card.pips
    t.played[player] = (*t.played[player], card)
    t.seen = t.seen | {card}
    t.last_player = player
    breakdown = score_play(t.pile)
    # Each item is its own award; the last one's sentence is the whole call for the card.
    items = breakdown.items
    acts = [_Act(player, tuple(
        _Part(item.kind, item.points, say_play(Breakdown(items[: i + 1]), t.count), (item,),
              item.cards)
        for i, item in enumerate(items)
    ))]
    all_played = all(t.cards_left(p) == 0 for p in range(t.n))
    if t.count == 31:
        _end_count(t, acts, go_point=False, all_played=all_played)
    elif all_played:
        _end_count(t, acts, go_point=True, all_played=True)
    else:
        nxt = _next_in(t, player, include_self=True)
        if nxt is None:
            _end_count(t, acts, go_point=True, all_played=False)
        else:
            t.to_act = nxt
    _peg_acts(t, acts, out)


def _go(t: _Table, event: Go, out: list[Award]) -> None:
    player = event.player
    _require_turn(t, player, "say go")
    if t.count == 0:
        raise RuleError(
            f"the count is 0: every card fits, so {t.name(player)} must lead a card"
        )
    t.play_started = True
    t.gos = (*t.gos, _GoMark(player, t.count, len(t.played[player])))
    t.said_go = t.said_go | {player}
    nxt = _next_in(t, player, include_self=False)
    acts: list[_Act] = []
    if nxt is None:
        _end_count(t, acts, go_point=True, all_played=False)
    else:
        t.to_act = nxt
    _peg_acts(t, acts, out)


def _next_in(t: _Table, player: int, *, include_self: bool) -> int | None:
    """The next seat clockwise still in this count (not said go, cards left)."""
    for k in range(1, t.n + 1):
        seat = (player + k) % t.n
        if seat == player and not include_self:
            continue
        if seat not in t.said_go and t.cards_left(seat) > 0:
            return seat
    return None


def _end_count(t: _Table, acts: list[_Act], *, go_point: bool, all_played: bool) -> None:
    """Close the count: the go (or last card) point, then reset or finish the play."""
    last = t.last_player
    assert last is not None
    if go_point:
        reason = "last card" if all_played else "go"
        words = "One for last card" if all_played else "Go for one"
        acts.append(_Act(last, (_Part(reason, 1, words),)))
    t.count = 0
    t.pile = ()
    t.said_go = frozenset()
    t.last_player = None
    if all_played or t.rules.five_card:
        t.to_act = None
        t.phase = Phase.SHOW
        return
    leader = _next_with_cards(t, last)
    t.to_act = leader


def _next_with_cards(t: _Table, player: int) -> int | None:
    for k in range(1, t.n + 1):
        seat = (player + k) % t.n
        if t.cards_left(seat) > 0:
            return seat
    return None


def _peg_acts(t: _Table, acts: list[_Act], out: list[Award]) -> None:
    if t.rules.muggins:
        # One entry's points are claimed together by their owner.
        merged: list[_Act] = []
        for act in acts:
            if merged and merged[-1].player == act.player:
                merged[-1] = _Act(act.player, merged[-1].parts + act.parts)
            else:
                merged.append(act)
        acts = merged
    for act in acts:
        t.peg(act, out)
    if t.phase is Phase.SHOW and t.winner is None:
        _check_reneges(t)
        _advance_show(t, out)


def _where_seen(t: _Table, card: Card) -> str:
    if card == t.starter:
        return "it is the starter"
    for p in range(t.n):
        if card in t.played[p]:
            return f"played by {t.name(p)}"
        shown = t.shown[p]
        if shown is not None and card in shown:
            return f"in {t.name(p)}'s hand"
    if t.crib is not None and card in t.crib:
        return "in the crib"
    return "already used"


# The show ------------------------------------------------------------------------------------


def _advance_show(t: _Table, out: list[Award]) -> None:
    """Count every hand that is known, in show order, until one must be shown or all are."""
    order = t.show_order()
    while t.show_index < len(order) and t.winner is None:
        player = order[t.show_index]
        hand = t.hand(player)
        if hand is None:
            t.to_act = player
            return
        t.show_index += 1
        _count_hand(t, player, hand, out)
    if t.winner is None:
        t.phase = Phase.CRIB
        t.to_act = t.dealer


def _count_hand(t: _Table, player: int, hand: tuple[Card, ...], out: list[Award]) -> None:
    assert t.starter is not None
    breakdown = score_hand(hand, t.starter)
    part = _Part(
        "hand", breakdown.total,
        f"hand {cards_text(hand)}: {say_breakdown(breakdown)}", breakdown.items, hand,
    )
    act = _Act(player, (part,))
    if t.rules.muggins or breakdown.total:
        t.peg(act, out)


def _show(t: _Table, event: Show, out: list[Award]) -> None:
    player = event.player
    t.check_player(player)
    if t.phase is Phase.PLAY and not t.play_started:
        t.phase = Phase.SHOW  # the play was pegged by points, not entered card by card
        t.to_act = None
    if t.phase is not Phase.SHOW:
        raise RuleError(_phase_message(t, f"show {t.name(player)}'s hand"))
    order = t.show_order()
    expected = order[t.show_index]
    if player != expected:
        if t.hand(player) is not None and order.index(player) < t.show_index:
            raise RuleError(f"{t.name(player)}'s hand was already counted")
        raise RuleError(_show_turn_message(t, expected, player))
    cards = tuple(event.cards)
    if len(cards) != t.hand_size:
        raise RuleError(
            f"a hand has {t.hand_size} cards, got {len(cards)} for {t.name(player)}"
        )
    _distinct(cards, f"{t.name(player)}'s hand")
    missing = [card for card in t.played[player] if card not in cards]
    if missing:
        raise RuleError(
            f"{t.name(player)} played {missing[0]} this deal, so it must be in the hand shown"
        )
    for card in cards:
        if card in t.seen and card not in t.played[player]:
            raise RuleError(f"{card} was already seen this deal ({_where_seen(t, card)})")
    known = t.dealt[player]
    if known is not None:
        for card in cards:
            if card not in known:
                raise RuleError(f"{card} was not dealt to {t.name(player)}")
    t.shown[player] = cards
    t.seen = t.seen | set(cards)
    t.show_index += 1
    _check_reneges(t)
    _count_hand(t, player, cards, out)
    if t.winner is None:
        _advance_show(t, out)


def _show_turn_message(t: _Table, expected: int, player: int) -> str:
    name = t.name(expected)
    if t.show_index == 0:
        return f"{name} counts first: {name} sits left of the dealer"
    if player == t.dealer:
        return f"{name} counts next: the dealer's hand is counted last, after everyone else's"
    return f"{name} counts next, before {t.name(player)}: hands are counted clockwise"


def _crib(t: _Table, event: Crib, out: list[Award]) -> None:
    if t.phase is not Phase.CRIB:
        raise RuleError(_phase_message(t, "count the crib"))
    cards = tuple(event.cards)
    if len(cards) != 4:
        raise RuleError(f"the crib has 4 cards, got {len(cards)}")
    _distinct(cards, "the crib")
    for card in cards:
        if card in t.seen:
            raise RuleError(f"{card} was already seen this deal ({_where_seen(t, card)})")
    assert t.starter is not None and t.dealer is not None
    t.crib = cards
    t.seen = t.seen | set(cards)
    breakdown = score_hand(cards, t.starter, crib=True)
    part = _Part(
        "crib", breakdown.total,
        f"crib {cards_text(cards)}: {say_breakdown(breakdown)}", breakdown.items, cards,
    )
    dealer = t.dealer
    if t.rules.muggins or breakdown.total:
        t.peg(_Act(dealer, (part,)), out)
    if t.winner is None:
        t.phase = Phase.DEAL
        t.to_act = t.next_dealer


def _check_reneges(t: _Table) -> None:
    """Report every go said while holding a card that fitted, once the hand is known."""
    reported = {(r.player, r.count) for r in t.offers if r.infraction == "renege"}
    for mark in t.gos:
        hand = t.hand(mark.player)
        if hand is None or (mark.player, mark.count) in reported:
            continue
        before = t.played[mark.player][: mark.played_before]
        held = tuple(card for card in hand if card not in before)
        fitted = tuple(card for card in held if mark.count + card.pips <= 31)
        if fitted:
            report = PenaltyOffer(
                infraction="renege", player=mark.player, count=mark.count, cards=fitted,
                points=2 * len(fitted), to=t.opponent_of(mark.player), rule="ACC 7.3 (2020)",
            )
            t.offers = (*t.offers, report)
            reported.add((mark.player, mark.count))


# Quick mode, penalties, claims and muggins ---------------------------------------------------


def _peg(t: _Table, event: Peg, out: list[Award]) -> None:
    t.check_player(event.player)
    points = event.points
    if isinstance(points, bool) or not isinstance(points, int) or points == 0:
        raise RuleError(f"a peg moves 1 or more points (or back, below 0), not {points!r}")
    side = t.side(event.player)
    if points < 0 and -points > t.scores[side]:
        raise RuleError(
            f"{_side_name(t, side)} has {t.scores[side]}: cannot peg back {-points}"
        )
    if abs(points) > t.rules.target:
        raise RuleError(f"a peg of {points} is more than the whole board ({t.rules.target})")
    words = f"pegs {number(points)}" if points > 0 else f"pegs back {number(-points)}"
    t.peg(_Act(event.player, (_Part("peg", points, words),)), out, claimable=False)


def _penalty(t: _Table, event: Penalty, out: list[Award]) -> None:
    offender = event.player
    t.check_player(offender)
    rule = infraction(event.infraction)
    to = event.to if event.to is not None else None
    if to is not None:
        t.check_player(to)
        if t.side(to) == t.side(offender):
            raise RuleError(
                f"penalty points go to an opponent of {t.name(offender)}, not {t.name(to)}"
            )
    points = event.points
    if rule.id in ("renege", "false-claim-of-game"):
        open_reports = [
            r for r in t.offers
            if r.player == offender and not r.resolved and r.infraction == rule.id
        ]
        if open_reports:
            report = open_reports[0]
            if points is None:
                points = report.points
            if to is None:
                to = report.to
            t.offers = tuple(
                replace(r, resolved=True) if r is report else r for r in t.offers
            )
    if points is None:
        points = rule.points
    if isinstance(points, bool) or not isinstance(points, int) or points < 0:
        raise RuleError(f"penalty points must be 0 or more, not {points!r}")
    back = rule.extra_back if event.back is None else event.back
    if isinstance(back, bool) or not isinstance(back, int) or back < 0:
        raise RuleError(f"penalty back points must be 0 or more, not {back!r}")
    if to is None:
        to = t.opponent_of(offender)
    label = f"{rule.name} ({rule.rule})"
    if rule.back:
        act = _Act(offender, (_Part("penalty", -points, f"{label}: {number(points)} back"),))
        t.peg(act, out, claimable=False)
    else:
        if points:
            words = f"{label}: {number(points)} from {t.name(offender)}"
            t.peg(_Act(to, (_Part("penalty", points, words),)), out, claimable=False)
        if back and t.winner is None:
            act = _Act(offender, (_Part("penalty", -back, f"{label}: {number(back)} back"),))
            t.peg(act, out, claimable=False)
    if out:
        out[:] = [replace(a, rule=rule.rule) for a in out]
        t.awards = t.awards[: len(t.awards) - len(out)] + tuple(out)
    if rule.redeal and t.winner is None and t.dealer is not None:
        t.deal_no -= 1
        t.next_dealer = t.dealer
        t._new_deal_state()
        t.phase = Phase.DEAL
        t.to_act = t.dealer


def _settle_claims(t: _Table, event: Event, out: list[Award]) -> None:
    """Before any entry other than a claim or muggins, unclaimed scores are lost."""
    if isinstance(event, Muggins):
        return
    if isinstance(event, Claim):
        # Scores queued before the claimant's own were not claimed: they are lost.
        owners = [c.player for c in t.pending_claims]
        if event.player in owners:
            skip = owners.index(event.player)
            t.pending_claims = t.pending_claims[skip:]
            t.claim_acts = t.claim_acts[skip:]
            t.pending_muggins = None
        return
    t.pending_claims = ()
    t.claim_acts = ()
    t.pending_muggins = None


def _claim(t: _Table, event: Claim, out: list[Award]) -> None:
    t.check_player(event.player)
    if not t.rules.muggins:
        raise RuleError("claims are used only when muggins is on: scores are pegged for you")
    if not t.pending_claims or t.pending_claims[0].player != event.player:
        owners = ", ".join(t.name(c.player) for c in t.pending_claims) or "nobody"
        raise RuleError(
            f"{t.name(event.player)} has no score to claim now (waiting for: {owners})"
        )
    points = event.points
    if isinstance(points, bool) or not isinstance(points, int) or points < 0:
        raise RuleError(f"a claim is 0 or more points, not {points!r}")
    pending = t.pending_claims[0]
    act = t.claim_acts[0]
    t.pending_claims = t.pending_claims[1:]
    t.claim_acts = t.claim_acts[1:]
    true = act.points
    if points >= true:
        t.peg(act, out, claimable=False)
        if points > true:
            side = t.side(event.player)
            if t.scores[side] - true + points >= t.rules.target and t.winner is None:
                offer = PenaltyOffer(
                    infraction="false-claim-of-game", player=event.player, count=-1,
                    cards=(), points=points - true, to=t.opponent_of(event.player),
                    rule="ACC 8.4 (2020)",
                )
                t.offers = (*t.offers, offer)
    else:
        if points:
            part = _Part(pending.reason, points, f"claims {number(points)}")
            t.peg(_Act(event.player, (part,)), out, claimable=False)
        t.pending_muggins = PendingMuggins(event.player, true - points, pending.reason)
    if t.phase is Phase.SHOW and t.winner is None:
        _advance_show(t, out)


def _muggins(t: _Table, event: Muggins, out: list[Award]) -> None:
    caller = event.player
    t.check_player(caller)
    if not t.rules.muggins:
        raise RuleError("muggins is off at this table (it is an option: rules muggins)")
    points = event.points
    if isinstance(points, bool) or not isinstance(points, int) or points <= 0:
        raise RuleError(f"muggins takes 1 or more points, not {points!r}")
    if t.pending_muggins is None and t.pending_claims:
        # The owner has not claimed yet: calling muggins means they claimed nothing.
        act = t.claim_acts[0]
        t.pending_muggins = PendingMuggins(act.player, act.points, act.parts[0].reason)
        t.pending_claims = t.pending_claims[1:]
        t.claim_acts = t.claim_acts[1:]
    missed = t.pending_muggins
    if missed is None or missed.points == 0:
        raise RuleError("no points were missed: muggins can be called only on an under-count")
    if t.side(caller) == t.side(missed.owner):
        raise RuleError(
            f"{t.name(caller)} cannot call muggins on their own side's score "
            f"({t.name(missed.owner)})"
        )
    taken = min(points, missed.points)
    t.pending_muggins = None
    words = f"muggins: {number(taken)} missed by {t.name(missed.owner)} ({MUGGINS_RULE})"
    t.peg(_Act(caller, (_Part("muggins", taken, words),)), out, claimable=False)
    if t.phase is Phase.SHOW and t.winner is None:
        _advance_show(t, out)


def _new_game(t: _Table, event: NewGame) -> None:
    if t.phase is not Phase.GAME_OVER:
        raise RuleError("a new game starts only when this one is over")
    if t.match_winner is not None:
        raise RuleError(
            f"the match is over: {_side_name(t, t.match_winner)} won it; start a new match"
        )
    assert t.result is not None
    last_first = t.first_dealer
    t.game_no += 1
    t.deal_no = 0
    t.scores = [0] * t.sides
    t.back_pegs = [0] * t.sides
    t.awards = ()
    t.winner = None
    t.result = None
    t.offers = ()
    t.first_dealer = None
    t.dealer = None
    t._new_deal_state()
    if event.dealer is not None:
        t.check_player(event.dealer)
        t.next_dealer = event.dealer
    elif t.rules.next_game_dealer == "cut":
        t.next_dealer = None
    elif t.rules.next_game_dealer == "alternate":
        assert last_first is not None
        t.next_dealer = t.left_of(last_first)
    else:
        t.next_dealer = _loser_seat(t, t.results[-1], last_first)
    t.phase = Phase.CUT if t.next_dealer is None else Phase.DEAL
    t.to_act = t.next_dealer


def _loser_seat(t: _Table, result: GameResult, last_first: int | None) -> int:
    """Who deals first after a game: the loser (lowest score; first clockwise on a tie)."""
    start = last_first if last_first is not None else 0
    low = min(s for i, s in enumerate(result.scores) if i != result.winner)
    for k in range(t.n):
        seat = (start + k) % t.n
        side = t.side(seat)
        if side != result.winner and result.scores[side] == low:
            return seat
    return t.left_of(start)  # pragma: no cover - some seat always lost


# Messages ------------------------------------------------------------------------------------


def _phase_message(t: _Table, doing: str) -> str:
    phase = t.phase
    if phase is Phase.CUT:
        need = "cut for the deal (or name the dealer in the deal entry)"
    elif phase is Phase.DEAL:
        who = t.name(t.next_dealer) if t.next_dealer is not None else "the dealer"
        need = f"{who} deals the next hand first"
    elif phase is Phase.STARTER:
        need = "turn the starter first"
    elif phase is Phase.PLAY:
        who = t.name(t.to_act) if t.to_act is not None else "the next player"
        need = f"the play is not finished: {who} plays a card or says go"
    elif phase is Phase.SHOW:
        who = t.name(t.to_act) if t.to_act is not None else "the next player"
        need = f"the hands are being counted: {who} shows next"
    elif phase is Phase.CRIB:
        need = "the crib is counted next"
    else:
        need = "the game is over"
    return f"cannot {doing} now: {need}"


def _distinct(cards: tuple[Card, ...], what: str) -> None:
    try:
        require_distinct(cards, what)
    except InvalidCardError as error:
        raise RuleError(str(error)) from None
