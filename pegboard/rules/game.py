"""The referee: a game (or match) as an append-only event log, with undo.

``Game.apply(event)`` checks one entry against the rules (docs/rules.md), pegs whatever it
scores and returns the awards; an illegal entry raises a :class:`~pegboard.errors.RuleError`
saying what is wrong and what would be right, and leaves the game exactly as it was.
``Game.undo()`` takes the last entry back. ``Game.state`` is an immutable snapshot of the table.

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
- A renege (a go while a card fitted, ACC 7.3) is reported once the hand is known; a renege
  penalty takes the play back to that go (:mod:`pegboard.rules.renege`).
- A new hand is dealt once the crib is counted, or at any time when the hand was pegged by
  points (no card of a hand or the crib entered).
- The game ends the instant a side reaches the target; nothing after that is scored. One card's
  combinations with its go or last-card point, one hand and one crib are each a single
  scoring act, pegged whole.
"""

from __future__ import annotations

from collections.abc import Sequence

from pegboard.errors import RuleError
from pegboard.rules.cards import Rank
from pegboard.rules.claims import (
    apply_claim,
    apply_muggins,
    apply_peg,
    apply_penalty,
    settle_claims,
)
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
    Option,
    Peg,
    Penalty,
    Play,
    Show,
    Starter,
    Undo,
)
from pegboard.rules.play import apply_go, apply_play
from pegboard.rules.show_order import apply_crib, apply_show
from pegboard.rules.state import Award, GameResult, GameState, Phase
from pegboard.rules.table import Act, Part, Table, distinct, phase_message, side_name
from pegboard.rules.variants import Rules


class Game:
    """A cribbage game (or match) for 2, 3 or 4 players, built from its event log.

    >>> from pegboard.rules.cards import Card
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
        self._tables: list[Table] = [Table(self._header)]
        self._state: GameState | None = None

    @classmethod
    def from_header(cls, header: GameHeader) -> Game:
        """A new game from a record's first line (its version and table options kept)."""
        game = cls(header.players, header.rules)
        game._header = header
        game._tables = [Table(header)]
        return game

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


def _apply(t: Table, event: Event, out: list[Award]) -> None:
    if isinstance(event, Option):
        return  # a table option: nothing at the table changes
    if t.phase is Phase.GAME_OVER and not isinstance(event, NewGame):
        raise RuleError(_game_over_message(t))
    settle_claims(t, event, out)
    if isinstance(event, Play):
        apply_play(t, event, out)
    elif isinstance(event, Go):
        apply_go(t, event, out)
    elif isinstance(event, Starter):
        _starter(t, event, out)
    elif isinstance(event, Deal):
        _deal(t, event, out)
    elif isinstance(event, Show):
        apply_show(t, event, out)
    elif isinstance(event, Crib):
        apply_crib(t, event, out)
    elif isinstance(event, Peg):
        apply_peg(t, event, out)
    elif isinstance(event, Cut):
        _cut(t, event)
    elif isinstance(event, Dealt):
        _dealt(t, event)
    elif isinstance(event, Penalty):
        apply_penalty(t, event, out)
    elif isinstance(event, Claim):
        apply_claim(t, event, out)
    elif isinstance(event, Muggins):
        apply_muggins(t, event, out)
    elif isinstance(event, NewGame):
        _new_game(t, event)
    else:  # pragma: no cover - every Event type is handled above
        raise RuleError(f"unknown entry {event!r}")


def _game_over_message(t: Table) -> str:
    assert t.winner is not None
    who = side_name(t, t.winner)
    more = (
        "a new game can start (new_game) or the last entry can be undone"
        if t.match_winner is None else "only undo is possible"
    )
    return f"the game is over: {who} won; {more}"


def _cut(t: Table, event: Cut) -> None:
    if t.phase is not Phase.CUT:
        raise RuleError("no cut is needed now: the dealer is already decided")
    cards = tuple(event.cards)
    if len(cards) != t.n:
        raise RuleError(f"a cut needs one card per player ({t.n}), got {len(cards)}")
    distinct(cards, "the cut")
    low = min(int(card.rank) for card in cards)
    lowest = [p for p, card in enumerate(cards) if int(card.rank) == low]
    if len(lowest) > 1:
        return  # a tie for lowest: cut again (still in the CUT phase)
    t.next_dealer = lowest[0]
    t.phase = Phase.DEAL
    t.to_act = lowest[0]


def _deal(t: Table, event: Deal, out: list[Award]) -> None:
    _require_hand_over(t)
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
        t.peg(Act(pone, (Part("three for last", 3, "Three for last"),)), out, claimable=False)


def _require_hand_over(t: Table) -> None:
    """A new hand is dealt once the last one is over: its crib counted (docs/rules.md, "The
    deal"). A hand pegged by points, with no card of a hand or the crib entered, may end at any
    time: the next ``deal`` drops nothing (the starter may have been turned, for the heels)."""
    if t.phase in (Phase.CUT, Phase.DEAL):
        return
    entered = (
        t.play_started or any(t.dealt) or any(t.shown) or t.phase in (Phase.SHOW, Phase.CRIB)
    )
    if not entered:
        return  # quick mode: this hand was pegged by points
    if t.phase is Phase.STARTER:
        need = "cards were dealt to the players, so turn the starter and play this hand"
        message = f"cannot deal the next hand now: {need}"
    else:
        message = phase_message(t, "deal the next hand")
    raise RuleError(
        f"{message} (a new hand is dealt after the crib is counted; only a hand pegged by "
        "points, with no cards entered, may end early)"
    )


def _dealt(t: Table, event: Dealt) -> None:
    t.check_player(event.player)
    if t.phase is not Phase.STARTER:
        raise RuleError("the dealt cards are entered after the deal, before the starter")
    cards = tuple(event.cards)
    size = t.rules.dealt_size(t.n)
    if len(cards) != size:
        raise RuleError(f"each player is dealt {size} cards, got {len(cards)}")
    distinct(cards, "the dealt cards")
    for other, known in enumerate(t.dealt):
        if other != event.player and known is not None:
            clash = set(cards) & set(known)
            if clash:
                card = min(clash)
                raise RuleError(f"{card} was dealt to {t.name(other)} already")
    t.dealt[event.player] = cards


def _starter(t: Table, event: Starter, out: list[Award]) -> None:
    if t.phase is not Phase.STARTER:
        raise RuleError(phase_message(t, "turn the starter"))
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
            part = Part("his heels", 2, f"Two for his heels ({card.pretty})", cards=(card,))
            t.peg(Act(t.dealer, (part,)), out, claimable=False)


def _new_game(t: Table, event: NewGame) -> None:
    if t.phase is not Phase.GAME_OVER:
        raise RuleError("a new game starts only when this one is over")
    if t.match_winner is not None:
        raise RuleError(
            f"the match is over: {side_name(t, t.match_winner)} won it; start a new match"
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
    t.take_backs = ()
    t.retracted = frozenset()
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


def _loser_seat(t: Table, result: GameResult, last_first: int | None) -> int:
    """Who deals first after a game: the loser (lowest score; first clockwise on a tie)."""
    start = last_first if last_first is not None else 0
    low = min(s for i, s in enumerate(result.scores) if i != result.winner)
    for k in range(t.n):
        seat = (start + k) % t.n
        side = t.side(seat)
        if side != result.winner and result.scores[side] == low:
            return seat
    return t.left_of(start)  # pragma: no cover - some seat always lost
