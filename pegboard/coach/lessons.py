"""What a finished game teaches: the biggest mistakes by expected points lost, and how well each
player counted.

Read off the record's fold (:mod:`pegboard.rules.fold`, the engine's facts for every entry):

* **Discards**: each hand counted in the show (a ``ShowStep`` of a hand) whose owner's dealt
  cards are in the record is reviewed by :func:`pegboard.coach.review.review_discard`: the
  points given up on average against the advice engine's best discard.
* **Pegging**: each card laid (``Laid``) by a player whose hand becomes known in that deal's
  show is judged by the pegging coach's look-ahead (:func:`pegboard.coach.lookahead.given_up`)
  with what the player knew as they laid it (:func:`known_when_laid`: the cards they held,
  the pile, the cards seen and their own discards, the next player's cards left, and in an
  open-handed game the very cards the next player held); the loss
  is the best card's value less the laid card's, so the coach's card is never a mistake.
* **Counting**: each claim closed in a muggins game (``ClaimClosed``), and each owner's own
  count at count it yourself (``CountSaid``), is exact, under (the points not said are
  missed) or over.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction

from pegboard.coach.knowledge import Knowledge
from pegboard.coach.lookahead import given_up, judge
from pegboard.coach.review import points_text, review_discard
from pegboard.errors import PegboardError
from pegboard.rules.cards import Card, EnteredCard
from pegboard.rules.events import GameHeader
from pegboard.rules.facts import ClaimClosed, ClaimOutcome, CountSaid
from pegboard.rules.fold import Fold, GameFold, HandCounted, LaidCard, fold_reports
from pegboard.rules.game import Game
from pegboard.rules.value import Value

__all__ = ["Counting", "GameLessons", "Mistake", "MistakeKind", "PlayerLessons", "lessons",
           "player_parts", "worth_showing"]


class MistakeKind(enum.StrEnum):
    """What the mistake was made with."""

    DISCARD = "discard"
    PEGGING = "pegging"


class Mistake(Value):
    """One choice that gave points away on average: ``did`` what was done, ``better`` the
    choice worth most, ``lost`` the expected points between them."""

    __slots__ = ("better", "deal_no", "did", "game_no", "kind", "lost", "player")
    __match_args__ = ("kind", "game_no", "deal_no", "player", "lost", "did", "better")

    kind: MistakeKind
    game_no: int
    deal_no: int
    player: int
    lost: Fraction
    did: str
    better: str

    def __init__(
        self,
        kind: MistakeKind,
        game_no: int,
        deal_no: int,
        player: int,
        lost: Fraction,
        did: str,
        better: str,
    ) -> None:
        setter = object.__setattr__
        setter(self, "kind", kind)
        setter(self, "game_no", game_no)
        setter(self, "deal_no", deal_no)
        setter(self, "player", player)
        setter(self, "lost", lost)
        setter(self, "did", did)
        setter(self, "better", better)

    def line(self, names: tuple[str, ...]) -> str:
        """``-3.6  game 1 deal 2  Ann  discard: kept ...; best ...``."""
        return (f"-{points_text(self.lost):>4}  game {self.game_no} deal {self.deal_no}  "
                f"{names[self.player]}  {self.kind}: {self.did}; {self.better}")


@dataclass(slots=True)
class Counting:
    """A player's claims in muggins games and own counts (count it yourself): how many each
    way (exact, under or over; a claim passed over was never made), the points missed (left
    unsaid) and over-claimed."""

    closed: Counter[ClaimOutcome] = field(default_factory=Counter)
    missed: int = 0
    over_points: int = 0

    @property
    def claims(self) -> int:
        """Claims made."""
        return self.closed.total()

    def count(self, closed: ClaimClosed) -> None:
        """Count one claim window closed (one passed over, or left when the game ended, is
        no claim)."""
        if closed.outcome in (ClaimOutcome.PASSED, ClaimOutcome.ENDED):
            return
        self.closed[closed.outcome] += 1
        if closed.outcome is ClaimOutcome.UNDER:
            self.missed += closed.claim.points - closed.claimed
        elif closed.outcome is ClaimOutcome.OVER:
            self.over_points += closed.claimed - closed.claim.points

    def said(self, fact: CountSaid) -> None:
        """Count one owner's own count (count it yourself): what was said against the count
        the engine pegged."""
        if fact.said == fact.points:
            self.closed[ClaimOutcome.EXACT] += 1
        elif fact.said < fact.points:
            self.closed[ClaimOutcome.UNDER] += 1
            self.missed += fact.points - fact.said
        else:
            self.closed[ClaimOutcome.OVER] += 1
            self.over_points += fact.said - fact.points

    def add(self, other: Counting) -> None:
        """Count ``other``'s claims in too."""
        self.closed.update(other.closed)
        self.missed += other.missed
        self.over_points += other.over_points


@dataclass(slots=True)
class PlayerLessons:
    """One player's totals over the record."""

    player: int
    discards: int = 0
    discard_loss: Fraction = Fraction(0)
    plays: int = 0
    pegging_loss: Fraction = Fraction(0)
    counting: Counting = field(default_factory=Counting)

    @property
    def average_discard_loss(self) -> Fraction | None:
        """Points given up per discard reviewed (None when no dealt cards were entered)."""
        return self.discard_loss / self.discards if self.discards else None

    def add(self, other: PlayerLessons) -> None:
        """Count ``other``'s figures in too (the same player in another game)."""
        self.discards += other.discards
        self.discard_loss += other.discard_loss
        self.plays += other.plays
        self.pegging_loss += other.pegging_loss
        self.counting.add(other.counting)


class GameLessons(Value):
    """Everything a record teaches: ``mistakes`` biggest first, ``players`` by seat over the
    whole record and ``per_game`` each game's own (game 1 first), which add up to them."""

    __slots__ = ("games", "mistakes", "names", "per_game", "players")
    __match_args__ = ("names", "games", "mistakes", "players", "per_game")

    names: tuple[str, ...]
    games: int
    mistakes: tuple[Mistake, ...]
    players: tuple[PlayerLessons, ...]
    per_game: tuple[tuple[PlayerLessons, ...], ...]

    def __init__(
        self,
        names: tuple[str, ...],
        games: int,
        mistakes: tuple[Mistake, ...],
        players: tuple[PlayerLessons, ...],
        per_game: tuple[tuple[PlayerLessons, ...], ...] = (),
    ) -> None:
        setter = object.__setattr__
        setter(self, "names", names)
        setter(self, "games", games)
        setter(self, "mistakes", mistakes)
        setter(self, "players", players)
        setter(self, "per_game", per_game)
def worth_showing(found: GameLessons, top: int) -> list[Mistake]:
    """The mistakes worth showing (at least a tenth of a point given up on average), biggest
    first, at most ``top``: what every review lists (``pegboard review``, the device's review
    pages, the scoreboard's review)."""
    return [m for m in found.mistakes if points_text(m.lost) != "0.0"][:top]


def player_parts(who: PlayerLessons) -> tuple[str, ...]:
    """One player's totals in words, each review's same: discards, pegging, counting."""
    average = who.average_discard_loss
    parts = ["no dealt cards entered" if average is None else
             f"{who.discards} discard(s), {points_text(average)} given up on average",
             f"{who.plays} play(s) judged, {points_text(who.pegging_loss)} given up"]
    c = who.counting
    if c.claims:
        closed = c.closed
        parts.append(f"counting: {closed[ClaimOutcome.EXACT]} of {c.claims} claims right, "
                     f"{closed[ClaimOutcome.UNDER]} under ({c.missed} missed), "
                     f"{closed[ClaimOutcome.OVER]} over")
    return tuple(parts)


def _cards(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(c.pretty for c in cards)


def _entered(cards: Iterable[Card], entered: Collection[Card]) -> str:
    """``cards`` as the table entered them: with its suit a card in ``entered``, any other
    by its rank alone (a suit the card wheel chose is never shown)."""
    return " ".join(EnteredCard.of(c, suit_known=c in entered).short for c in cards)


def _pegging(laid: Iterable[LaidCard], player: int, hand: tuple[Card, ...],
             starter: Card | None, away: tuple[Card, ...],
             ) -> Iterator[tuple[LaidCard, Fraction, Card]]:
    """Each card ``player`` laid this deal with the expected points it gave up, judged with
    what they knew as they laid it (:func:`known_when_laid`)."""
    for play in laid:
        if play.laid.player != player:
            continue
        known = known_when_laid(play, hand, starter, away)
        if known is None:
            continue  # a hand that does not match the play (a take-back): nothing to judge
        lost = given_up(known, play.laid.card)
        if lost is None:
            continue
        yield play, lost, judge(known)[0].card


def known_when_laid(play: LaidCard, hand: tuple[Card, ...], starter: Card | None,
                    away: tuple[Card, ...]) -> Knowledge | None:
    """What the player knew as they laid ``play``, their ``hand`` shown later: the cards of it
    not yet laid, the pile, every card seen that deal (the starter, the cards laid before) and
    their own discards (``away``), and how many cards the next player still in the count then
    held (the engine's :attr:`~pegboard.rules.facts.Laid.answer_left`), and which, when every
    player saw them (:attr:`~pegboard.rules.facts.Laid.answer_held`, an open-handed game). The
    same knowledge the coach had, its hand known, at that turn
    (:func:`pegboard.coach.knowledge.knowledge_for`). None when the hand does not hold the
    card."""
    card, pile = play.laid.card, play.laid.before
    own = set(c for c in play.played if c in hand)
    holding = tuple(c for c in hand if c not in own)
    if card not in holding:
        return None
    seen = [c for c in (*play.played, *away) if c not in pile and c not in holding]
    if starter is not None and starter not in holding and starter not in pile:
        seen.append(starter)
    return Knowledge.kept(pile, holding, seen, next_left=play.laid.answer_left,
                          theirs=play.laid.answer_held)


def lessons(record: Game | Fold) -> GameLessons:
    """What a record teaches, read off its fold (:mod:`pegboard.rules.fold`; a game is folded
    from its reports, the entries in force): each hand counted with the cards laid in its deal
    and the cards its owner was dealt, each claim closed, each own count said."""
    fold = record if isinstance(record, Fold) else fold_reports(record.header,
                                                                record.reports())
    header = fold.header
    seats = range(len(header.players))
    per_game: list[tuple[PlayerLessons, ...]] = []
    mistakes: list[Mistake] = []
    for game in fold.games:
        players = tuple(PlayerLessons(seat) for seat in seats)
        per_game.append(players)
        # The cards of each deal whose suits were entered (the counts' own, the cards dealt
        # by name, and each card laid as the engine says it was entered): a card laid from
        # another hand, counted or not, is named as it was entered too.
        entered: dict[tuple[int, int], set[Card]] = {}
        for hand in game.hands:
            entered.setdefault(hand.deal, set()).update((*hand.step.entered, *(hand.dealt or ())))
        for play in game.laid:
            if play.laid.entered.suit is not None:
                entered.setdefault(play.deal, set()).add(play.laid.card)
        for hand in game.hands:
            mistakes.extend(_show(header, game, players, hand, entered[hand.deal]))
        for closed in game.claims:
            players[closed.claim.player].counting.count(closed)
        for said in game.said:
            players[said.player].counting.said(said)
    mistakes.sort(key=lambda m: (-m.lost, m.game_no, m.deal_no, m.player))
    whole = tuple(PlayerLessons(seat) for seat in seats)
    for game_players in per_game:
        for total, one in zip(whole, game_players, strict=True):
            total.add(one)
    return GameLessons(header.players, len(per_game), tuple(mistakes), whole, tuple(per_game))


def _show(header: GameHeader, game: GameFold, players: tuple[PlayerLessons, ...],
          hand: HandCounted, entered: Collection[Card]) -> Iterator[Mistake]:
    step = hand.step
    who = players[step.player]
    dealt = hand.dealt
    away = tuple(c for c in dealt or () if c not in step.cards)
    laid = (play for play in game.laid if play.deal == hand.deal)
    for play, lost, better in _pegging(laid, step.player, step.cards, step.starter, away):
        who.plays += 1
        who.pegging_loss += lost
        if lost > 0:
            # A card entered by its rank is named by its rank: its suit is the wheel's.
            pile = _entered(play.laid.before, entered) or "a new count"
            yield Mistake(MistakeKind.PEGGING, *hand.deal, step.player, lost,
                          f"laid {_entered((play.laid.card,), entered)} on {pile}",
                          f"best {_entered((better,), entered)}")
    if dealt is None or hand.dealer is None:
        return
    sides_of = game.sides_of
    own = sides_of[step.player] == sides_of[hand.dealer]
    try:
        found = review_discard(dealt, step.cards, dealer=own, starter=step.turned or step.starter,
                               players=len(header.players),
                               five_card=header.rules.five_card)
    except PegboardError:
        return
    who.discards += 1
    who.discard_loss += found.loss
    if found.loss > 0:
        yield Mistake(MistakeKind.DISCARD, *hand.deal, step.player, found.loss,
                      f"laid away {_cards(away)}",
                      f"best lay away {_cards(found.best.discard)}")
