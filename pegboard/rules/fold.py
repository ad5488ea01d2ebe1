"""A record's story, folded from the engine's reports one entry at a time: the one account every
output reads.

:class:`Fold` is a frozen value. ``Fold.start(header)`` is a record before its first entry, and
``fold.add(report)`` the record one entry on; :func:`fold_reports` folds a whole stream (a
game's :meth:`~pegboard.rules.game.Game.reports`, the entries in force: an undone entry is no
longer in that stream, so a record with undos is replayed once and folded once). For each game
of the record (:class:`GameFold`; a match has several) it keeps:

- the **race**: each side's score at the end of every deal (:class:`~pegboard.rules.facts.
  DealEnded`), from all zeros to the last, never above the target (:class:`Race`);
- the **points by reason** each side pegged (:class:`~pegboard.rules.state.Reason`; a renege's
  take-back is taken off the reason it cancels, ``Award.cancels``);
- the **show order** as the engine counted it: every deal's hands counted (pone first, dealer
  last), whether its crib was counted and its play entered card by card;
- the **best hand** each side pegged, with its cards and the starter;
- what the **lessons** read (:mod:`pegboard.coach.lessons`): each card laid with the pile it
  was laid on and the cards laid before it in the deal, each hand counted with the cards its
  owner was dealt (when entered) and the dealer, each claim closed and each own count said.

Nothing here works a score, an order or a result out again: every figure is a fact the engine
reported, added up.
"""

from __future__ import annotations

from collections.abc import Iterable

from pegboard.rules.cards import Card, EnteredCard
from pegboard.rules.events import Dealt, GameHeader
from pegboard.rules.facts import (
    ClaimClosed,
    Counted,
    CountSaid,
    DealEnded,
    GameOver,
    Laid,
    Report,
    Scored,
    ShowStep,
    TakenBack,
)
from pegboard.rules.state import Phase, Reason, Skunk
from pegboard.rules.value import Value

REASON_ORDER: tuple[Reason, ...] = tuple(Reason)
"""Every reason, in the order :attr:`GameFold.points` keeps them."""

_AT = {reason: index for index, reason in enumerate(REASON_ORDER)}


class Race(Value):
    """The score race of one game: each side's score after every deal.

    ``scores[0]`` is the start (every side on 0) and ``scores[k]`` the scores at the end of
    deal ``k``; a deal still being played adds its scores so far, and points pegged outside
    any deal add the score they left. No score is above the target: a game that ended shows
    the winner at the target (:attr:`~pegboard.rules.facts.GameOver.shown`). ``names`` has one
    entry per side (partners joined with " & ").
    """

    __slots__ = ("names", "scores", "skunk", "target", "winner")
    __match_args__ = ("names", "target", "scores", "winner", "skunk")

    names: tuple[str, ...]
    target: int
    scores: tuple[tuple[int, ...], ...]
    winner: int | None
    skunk: Skunk

    def __init__(
        self,
        names: tuple[str, ...],
        target: int,
        scores: tuple[tuple[int, ...], ...],
        winner: int | None = None,
        skunk: Skunk = Skunk.NONE,
    ) -> None:
        setter = object.__setattr__
        setter(self, "names", names)
        setter(self, "target", target)
        setter(self, "scores", scores)
        setter(self, "winner", winner)
        setter(self, "skunk", skunk)

    @property
    def deals(self) -> int:
        """Number of deals shown."""
        return len(self.scores) - 1

    @property
    def final(self) -> tuple[int, ...]:
        """Each side's last score."""
        return self.scores[-1] if self.scores else tuple(0 for _ in self.names)

    def series(self, side: int) -> tuple[int, ...]:
        """One side's score after each deal, starting from 0."""
        return tuple(row[side] for row in self.scores)

    def to_json(self) -> dict[str, object]:
        """``{"names": [...], "target": 121, "scores": [[0, 0], ...], "winner": 0, ...}``."""
        return {
            "names": list(self.names),
            "target": self.target,
            "scores": [list(row) for row in self.scores],
            "winner": self.winner,
            "skunk": str(self.skunk),
        }


class PeggedHand(Value):
    """A hand as it was pegged: the points pegged for it (in a muggins game, what its owner
    claimed), its cards and the starter as the table entered them (a card entered by its
    rank alone has no suit: the one the engine counted with was the card wheel's) and its
    owner's seat."""

    __slots__ = ("cards", "player", "points", "starter")
    __match_args__ = ("points", "cards", "starter", "player")

    points: int
    cards: tuple[EnteredCard, ...]
    starter: EnteredCard | None
    player: int

    def __init__(
        self,
        points: int,
        cards: tuple[EnteredCard, ...],
        starter: EnteredCard | None,
        player: int,
    ) -> None:
        setter = object.__setattr__
        setter(self, "points", points)
        setter(self, "cards", cards)
        setter(self, "starter", starter)
        setter(self, "player", player)


class LaidCard(Value):
    """A card laid (the engine's :class:`~pegboard.rules.facts.Laid`) with every card laid
    earlier in its deal (``played``, all seats, a renege's take-back's returned cards gone) and
    the deal it was laid in (``game_no``, ``deal_no``)."""

    __slots__ = ("deal", "laid", "played")
    __match_args__ = ("laid", "played", "deal")

    laid: Laid
    played: tuple[Card, ...]
    deal: tuple[int, int]

    def __init__(self, laid: Laid, played: tuple[Card, ...], deal: tuple[int, int]) -> None:
        setter = object.__setattr__
        setter(self, "laid", laid)
        setter(self, "played", played)
        setter(self, "deal", deal)


class HandCounted(Value):
    """A hand counted in the show (the engine's :class:`~pegboard.rules.facts.ShowStep`) with
    the cards its owner was dealt when they were entered (``dealt`` entries), the deal's dealer
    and the deal (``game_no``, ``deal_no``)."""

    __slots__ = ("deal", "dealer", "dealt", "step")
    __match_args__ = ("step", "dealt", "dealer", "deal")

    step: ShowStep
    dealt: tuple[Card, ...] | None
    dealer: int | None
    deal: tuple[int, int]

    def __init__(
        self,
        step: ShowStep,
        dealt: tuple[Card, ...] | None,
        dealer: int | None,
        deal: tuple[int, int],
    ) -> None:
        setter = object.__setattr__
        setter(self, "step", step)
        setter(self, "dealt", dealt)
        setter(self, "dealer", dealer)
        setter(self, "deal", deal)


class GameFold(Value):
    """One game of a record, folded (see the module)."""

    __slots__ = (
        "best",
        "claims",
        "deal",
        "deals",
        "dealt",
        "first_dealer",
        "game_no",
        "hands",
        "laid",
        "names",
        "open_deal",
        "over",
        "played",
        "points",
        "said",
        "scores",
        "sides_of",
        "target",
    )
    __match_args__ = (
        "game_no", "names", "target", "sides_of", "deals", "scores", "open_deal", "over", "points",
        "best", "first_dealer", "laid", "hands", "claims", "said", "deal", "played", "dealt",
    )

    game_no: int
    names: tuple[str, ...]
    """The sides' names (partners joined with " & ")."""
    target: int
    sides_of: tuple[int, ...]
    """The side each seat pegs for."""
    deals: tuple[DealEnded, ...]
    scores: tuple[int, ...]
    """The board after the last entry of this game."""
    open_deal: bool
    """A deal was dealt and has not ended (the game is not over)."""
    over: GameOver | None
    points: tuple[tuple[int, ...], ...]
    """Per side, the points pegged for each reason of :data:`REASON_ORDER`."""
    best: tuple[PeggedHand | None, ...]
    """Per side, the hand pegged for the most points (the first, on a tie)."""
    first_dealer: int | None
    """The seat that dealt the game's first deal."""
    laid: tuple[LaidCard, ...]
    hands: tuple[HandCounted, ...]
    claims: tuple[ClaimClosed, ...]
    said: tuple[CountSaid, ...]
    deal: tuple[int, int]
    """This deal (``game_no``, ``deal_no``): what the three below are about."""
    played: tuple[Card, ...]
    """The cards laid this deal, in order (a take-back's returned cards gone)."""
    dealt: tuple[tuple[Card, ...] | None, ...]
    """The cards each seat was dealt this deal, when entered."""

    def __init__(
        self,
        game_no: int,
        names: tuple[str, ...],
        target: int,
        sides_of: tuple[int, ...],
        deals: tuple[DealEnded, ...] = (),
        scores: tuple[int, ...] = (),
        open_deal: bool = False,
        over: GameOver | None = None,
        points: tuple[tuple[int, ...], ...] = (),
        best: tuple[PeggedHand | None, ...] = (),
        first_dealer: int | None = None,
        laid: tuple[LaidCard, ...] = (),
        hands: tuple[HandCounted, ...] = (),
        claims: tuple[ClaimClosed, ...] = (),
        said: tuple[CountSaid, ...] = (),
        deal: tuple[int, int] = (0, 0),
        played: tuple[Card, ...] = (),
        dealt: tuple[tuple[Card, ...] | None, ...] = (),
    ) -> None:
        setter = object.__setattr__
        setter(self, "game_no", game_no)
        setter(self, "names", names)
        setter(self, "target", target)
        setter(self, "sides_of", sides_of)
        setter(self, "deals", deals)
        setter(self, "scores", scores)
        setter(self, "open_deal", open_deal)
        setter(self, "over", over)
        setter(self, "points", points)
        setter(self, "best", best)
        setter(self, "first_dealer", first_dealer)
        setter(self, "laid", laid)
        setter(self, "hands", hands)
        setter(self, "claims", claims)
        setter(self, "said", said)
        setter(self, "deal", deal)
        setter(self, "played", played)
        setter(self, "dealt", dealt)

    @property
    def race(self) -> Race:
        """The score race (see :class:`Race`)."""
        rows = [tuple(0 for _ in self.names), *(deal.scores for deal in self.deals)]
        final = self.over.shown if self.over is not None else self.scores
        if final and (self.open_deal or rows[-1] != final):
            rows.append(final)
        over = self.over
        return Race(self.names, self.target, tuple(rows),
                    over.winner if over else None, over.skunk if over else Skunk.NONE)

    def pegged(self, side: int, *reasons: Reason) -> int:
        """The points ``side`` pegged for ``reasons`` (a take-back taken off)."""
        row = self.points[side]
        return sum(row[_AT[reason]] for reason in reasons)

    def hands_counted(self, side: int) -> int:
        """Hands of ``side``'s seats counted in the show, over the deals that ended."""
        return sum(self.sides_of[seat] == side for deal in self.deals for seat in deal.counted)

    def cribs_counted(self, side: int) -> int:
        """Cribs ``side`` owned and counted, over the deals that ended."""
        return sum(deal.crib and self.sides_of[deal.dealer] == side for deal in self.deals)

    @property
    def deals_played(self) -> int:
        """Deals that ended whose play was entered card by card."""
        return sum(deal.played for deal in self.deals)

    def _add(self, report: Report) -> GameFold:
        """This game with one more entry's facts."""
        turn = report.next
        same = turn.game_no == self.game_no
        key = (turn.game_no, turn.deal_no)
        deals, over, best = self.deals, self.over, self.best
        laid, hands, claims, said = self.laid, self.hands, self.claims, self.said
        points = self.points
        played, dealt = self.played, self.dealt
        if key != self.deal:
            played, dealt = (), tuple(None for _ in dealt)
        event = report.event
        if isinstance(event, Dealt):
            dealt = tuple(event.cards if seat == event.player else cards
                          for seat, cards in enumerate(dealt))
        for fact in report.facts:
            if isinstance(fact, Laid):
                laid = (*laid, LaidCard(fact, played, key))
                played = (*played, fact.card)
            elif isinstance(fact, ShowStep):
                if fact.counted is Counted.HAND:
                    hands = (*hands, HandCounted(fact, dealt[fact.player], turn.dealer, key))
            elif isinstance(fact, Scored):
                points, best = _scored(fact, points, best, hands, key)
            elif isinstance(fact, TakenBack):
                returned = {card for cards in fact.take_back.cards for card in cards}
                played = tuple(card for card in played if card not in returned)
            elif isinstance(fact, DealEnded):
                # A win taken back ends its deal again later: the later end stands.
                kept = deals[:-1] if deals and deals[-1].deal_no == fact.deal_no else deals
                deals = (*kept, fact)
            elif isinstance(fact, GameOver):
                over = fact
            elif isinstance(fact, ClaimClosed):
                claims = (*claims, fact)
            elif isinstance(fact, CountSaid):
                said = (*said, fact)
        scores, open_deal, first = self.scores, self.open_deal, self.first_dealer
        if same:
            scores = turn.scores
            open_deal = turn.deal_no > 0 and turn.phase is not Phase.GAME_OVER and not (
                deals and deals[-1].deal_no == turn.deal_no)
            if first is None and turn.dealer is not None:
                first = turn.dealer
            if over is not None and turn.phase is not Phase.GAME_OVER:
                over = None  # the win was taken back
        return GameFold(
            self.game_no, self.names, self.target, self.sides_of, deals, scores, open_deal,
            over, points, best, first, laid, hands, claims, said, key, played, dealt,
        )


def _scored(fact: Scored, points: tuple[tuple[int, ...], ...],
            best: tuple[PeggedHand | None, ...], hands: tuple[HandCounted, ...],
            deal: tuple[int, int],
            ) -> tuple[tuple[tuple[int, ...], ...], tuple[PeggedHand | None, ...]]:
    rows = [list(row) for row in points]
    best_list = list(best)
    for award in fact.awards:
        reason = award.reason
        if reason is Reason.RENEGE_TAKE_BACK and award.cancels is not None:
            reason = award.cancels  # taken off where it was counted
        rows[award.side][_AT[reason]] += award.points
        if award.reason is Reason.HAND:
            was = best_list[award.side]
            if was is None or award.points > was.points:
                best_list[award.side] = _pegged_hand(award.points, award.cards, award.player,
                                                     hands, deal)
    return tuple(tuple(row) for row in rows), tuple(best_list)


def _pegged_hand(points: int, cards: tuple[Card, ...], player: int,
                 hands: tuple[HandCounted, ...], deal: tuple[int, int]) -> PeggedHand:
    """A hand pegged, its cards and starter as entered: by what the engine's count of it
    said was entered (:attr:`ShowStep.entered`, :attr:`ShowStep.turned`)."""
    step = next((hand.step for hand in reversed(hands)
                 if hand.deal == deal and hand.step.player == player), None)
    if step is None:  # not counted in the show (never so for a hand's points): say no suit
        return PeggedHand(points, tuple(EnteredCard.of(c, suit_known=False) for c in cards),
                          None, player)
    entered = step.entered
    return PeggedHand(points, tuple(EnteredCard.of(c, suit_known=c in entered) for c in cards),
                      step.turned, player)


def _new_game(header: GameHeader, game_no: int) -> GameFold:
    players, rules = len(header.players), header.rules
    sides = rules.sides(players)
    sides_of = tuple(rules.side_of(seat, players) for seat in range(players))
    names = tuple(" & ".join(name for seat, name in enumerate(header.players)
                             if sides_of[seat] == side) for side in range(sides))
    return GameFold(
        game_no, names, rules.target, sides_of, scores=(0,) * sides,
        points=tuple((0,) * len(REASON_ORDER) for _ in range(sides)), best=(None,) * sides,
        dealt=(None,) * players,
    )


class Fold(Value):
    """A record folded (see the module): its header and each of its games so far."""

    __slots__ = ("games", "header")
    __match_args__ = ("header", "games")

    header: GameHeader
    games: tuple[GameFold, ...]

    def __init__(self, header: GameHeader, games: tuple[GameFold, ...]) -> None:
        setter = object.__setattr__
        setter(self, "header", header)
        setter(self, "games", games)

    @classmethod
    def start(cls, header: GameHeader) -> Fold:
        """A record before its first entry."""
        return cls(header, (_new_game(header, 1),))

    @property
    def game(self) -> GameFold:
        """The game being played (the last of a match)."""
        return self.games[-1]

    def add(self, report: Report) -> Fold:
        """The record one entry on (this value is unchanged)."""
        games = (*self.games[:-1], self.game._add(report))
        if report.next.game_no > self.game.game_no:
            games = (*games, _new_game(self.header, report.next.game_no))
        return Fold(self.header, games)


def fold_reports(header: GameHeader, reports: Iterable[Report]) -> Fold:
    """The record ``header`` begins, folded over ``reports`` (the entries in force, oldest
    first)."""
    fold = Fold.start(header)
    for report in reports:
        fold = fold.add(report)
    return fold
