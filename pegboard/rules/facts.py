"""The facts the engine reports for every accepted entry: what a screen, a voice or a page says.

Modelled on h11's events: each fact is a frozen value, each has a :class:`FactKind`, and the
:class:`Report` of one entry lists them in the order they happened. Outputs *render* these
facts; none of them works out a score, a show order, a phase or a winner beside the engine.

An entry's report, in order, may hold:

- :class:`PenaltyApplied` and :class:`TakenBack` first, for a ``penalty`` entry;
- :class:`MugginsClosed` and :class:`ClaimClosed` for the muggins and claim windows this
  entry closed (muggins games); a claim's :class:`Scored` act, then the
  :class:`MugginsOpened` window for what it missed;
- then, as the engine worked: :class:`Laid` (a card and the count it made) or
  :class:`SaidGo`; :class:`ShowStep` for each hand or crib counted, followed by the
  :class:`Scored` act that pegs it (or the :class:`ClaimOpened` window that waits for its
  claim); :class:`Scored` for the play's points, his heels, pegs, penalties, muggins;
- :class:`Offered` and :class:`Withdrawn` penalty offers (renege reports, false claims of
  game);
- :class:`DealEnded` for the deal this entry closed: first in a ``deal`` entry's report (the
  deal before it), or just before :class:`GameOver` when the game ended in it;
- :class:`GameOver` when a side reached the target; :class:`Undone` for an ``undo``;
  :class:`CountSaid` for an ``own_count`` (count it yourself).

``Report.next`` (a :class:`Turn`, :mod:`pegboard.rules.turn`) then says what the table does
next. ``Report.awards`` is every award pegged, in order (what ``Game.apply`` returns).
"""

from __future__ import annotations

import enum
from typing import ClassVar, TypeVar

from pegboard.rules.cards import Card, EnteredCard
from pegboard.rules.events import Event
from pegboard.rules.penalties import Infraction
from pegboard.rules.scoring import Breakdown, ScoreItem
from pegboard.rules.state import (
    Award,
    PenaltyOffer,
    PendingClaim,
    PendingMuggins,
    Reason,
    Skunk,
    TakeBack,
)
from pegboard.rules.turn import Turn as Turn  # a report's last word, read with its facts
from pegboard.rules.value import Value


class FactKind(enum.Enum):
    """What kind of fact a value is (each fact class has one)."""

    LAID = "laid"
    SAID_GO = "said go"
    SCORED = "scored"
    SHOW_STEP = "show step"
    CLAIM_OPENED = "claim opened"
    CLAIM_CLOSED = "claim closed"
    MUGGINS_OPENED = "muggins opened"
    MUGGINS_CLOSED = "muggins closed"
    OFFERED = "offered"
    WITHDRAWN = "withdrawn"
    PENALTY_APPLIED = "penalty applied"
    TAKEN_BACK = "taken back"
    GAME_OVER = "game over"
    CONFIRMED = "confirmed"
    DEAL_ENDED = "deal ended"
    COUNT_SAID = "count said"
    UNDONE = "undone"


class Counted(enum.Enum):
    """What a show step counts."""

    HAND = "hand"
    CRIB = "crib"


class ClaimOutcome(enum.Enum):
    """How a claim window closed (muggins games, ACC 10)."""

    EXACT = "exact"
    """The owner claimed the true score: all of it pegged."""
    UNDER = "under"
    """The owner claimed less (or an opponent called muggins before any claim, which is a
    claim of 0): what was claimed is pegged, the rest is open to muggins."""
    OVER = "over"
    """The owner claimed more: corrected to the true score, which is pegged."""
    PASSED = "passed"
    """Another entry came before the claim: it was passed over, nothing is pegged for it
    (from record version 3 its points are open to muggins: a :class:`MugginsOpened`
    follows)."""
    ENDED = "ended"
    """The game ended while it waited: nothing is scored after the target is reached."""


class Laid(Value):
    """A card laid in the play and the count it made (up to 31; the count after the entry,
    ``Turn.count``, is 0 once the count ends). ``pile`` is every card of this count, oldest
    first, this one last. ``answer_left`` is how many cards the next player still in this
    count held as it was laid (0: nobody could answer it; the player themselves aside), and
    ``answer_held`` the very cards they held when every player saw them (an open-handed game,
    :attr:`~pegboard.rules.state.GameState.hands_open`, their hand known; else None).
    ``entered`` is the card as the table entered it: its suit only when a player named it
    (the card was dealt by name, or every card of the deal was entered whole), else its rank
    alone (``card``'s suit is then the card wheel's, never to be shown)."""

    __slots__ = ("answer_held", "answer_left", "card", "count", "entered", "pile", "player")
    __match_args__ = ("player", "card", "count", "pile", "answer_left", "entered",
                      "answer_held")

    kind: ClassVar[FactKind] = FactKind.LAID
    player: int
    card: Card
    count: int
    pile: tuple[Card, ...]
    answer_left: int
    entered: EnteredCard
    answer_held: tuple[Card, ...] | None

    def __init__(
        self,
        player: int,
        card: Card,
        count: int,
        pile: tuple[Card, ...],
        answer_left: int,
        entered: EnteredCard,
        answer_held: tuple[Card, ...] | None = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "player", player)
        setter(self, "card", card)
        setter(self, "count", count)
        setter(self, "pile", pile)
        setter(self, "answer_left", answer_left)
        setter(self, "entered", entered)
        setter(self, "answer_held", answer_held)

    @property
    def before(self) -> tuple[Card, ...]:
        """The cards of the count this card was laid on (empty: it led a new count)."""
        return self.pile[:-1]


class SaidGo(Value):
    """A player said go at ``count``: they are out of this count."""

    __slots__ = ("count", "player")
    __match_args__ = ("player", "count")

    kind: ClassVar[FactKind] = FactKind.SAID_GO
    player: int
    count: int

    def __init__(self, player: int, count: int) -> None:
        setter = object.__setattr__
        setter(self, "player", player)
        setter(self, "count", count)


class Scored(Value):
    """One scoring act pegged whole (RULES.md, "Scoring acts"): ``awards`` lists every reason
    with its points, in order.

    One card's combinations and the go or last-card point it earns are one act (``fifteen 2,
    pair 2, last card 1``); a hand, a crib, his heels, a peg, a penalty, a muggins call or a
    renege's take-back of one award are each an act of one award.

    ``scores`` and ``back_pegs`` are the board once the act was pegged (every side's front
    and back peg), what a screen or the LEDs show for this moment; empty for a take-back's
    retractions, which :class:`TakenBack` shows as one.
    """

    __slots__ = ("awards", "back_pegs", "player", "scores", "side")
    __match_args__ = ("player", "side", "awards", "scores", "back_pegs")

    kind: ClassVar[FactKind] = FactKind.SCORED
    player: int
    side: int
    awards: tuple[Award, ...]
    scores: tuple[int, ...]
    back_pegs: tuple[int, ...]

    def __init__(
        self,
        player: int,
        side: int,
        awards: tuple[Award, ...],
        scores: tuple[int, ...] = (),
        back_pegs: tuple[int, ...] = (),
    ) -> None:
        setter = object.__setattr__
        setter(self, "player", player)
        setter(self, "side", side)
        setter(self, "awards", awards)
        setter(self, "scores", scores)
        setter(self, "back_pegs", back_pegs)

    @property
    def points(self) -> int:
        """The act's points (negative when pegged back)."""
        return sum(award.points for award in self.awards)

    @property
    def reasons(self) -> tuple[Reason, ...]:
        """Every reason in the act, each once, in order."""
        return tuple(dict.fromkeys(award.reason for award in self.awards))


class ShowStep(Value):
    """A hand or the crib counted (RULES.md, "The show": pone first, clockwise, dealer last,
    then the crib).

    ``player`` owns the hand (the dealer for the crib); ``cards`` are its four (five-card: its
    own) cards, ``starter`` the cut card counted with, ``breakdown`` every combination with its
    points.
    ``laid`` when the engine counted a hand whose cards were all laid in the play (no ``show``
    entry). The points are pegged by the :class:`Scored` fact that follows, or wait for the
    owner's claim in a muggins game (a :class:`ClaimOpened` follows instead).
    """

    __slots__ = ("breakdown", "cards", "counted", "entered", "laid", "player", "starter", "turned")
    __match_args__ = (
        "player", "counted", "cards", "starter", "breakdown", "laid", "turned", "entered",
    )

    kind: ClassVar[FactKind] = FactKind.SHOW_STEP
    player: int
    counted: Counted
    cards: tuple[Card, ...]
    starter: Card
    breakdown: Breakdown
    laid: bool
    turned: EnteredCard | None
    """The starter as the table entered it (its suit ``None`` when not entered: ``starter``
    then holds a suit the engine chose, which an output never shows)."""
    entered: frozenset[Card]

    def __init__(
        self,
        player: int,
        counted: Counted,
        cards: tuple[Card, ...],
        starter: Card,
        breakdown: Breakdown,
        laid: bool = False,
        turned: EnteredCard | None = None,
        entered: frozenset[Card] = frozenset(),
    ) -> None:
        setter = object.__setattr__
        setter(self, "player", player)
        setter(self, "counted", counted)
        setter(self, "cards", cards)
        setter(self, "starter", starter)
        setter(self, "breakdown", breakdown)
        setter(self, "laid", laid)
        setter(self, "turned", turned)
        setter(self, "entered", entered)
    """The cards of the count whose suits a player entered (dealt hands named, a starter
    named or asked); any other card's suit is one the card wheel chose, never shown."""

    @property
    def total(self) -> int:
        """The count."""
        return self.breakdown.total

    @property
    def items(self) -> tuple[ScoreItem, ...]:
        """Every combination counted."""
        return self.breakdown.items


class ClaimOpened(Value):
    """Muggins games: a score now waits for its owner's claim. ``claim.owed`` lists every
    reason owed with its points (a run and the go of one card: ``run 3``, ``go 1``)."""

    __slots__ = ("claim",)
    __match_args__ = ("claim",)

    kind: ClassVar[FactKind] = FactKind.CLAIM_OPENED
    claim: PendingClaim

    def __init__(self, claim: PendingClaim) -> None:
        object.__setattr__(self, "claim", claim)


class ClaimClosed(Value):
    """Muggins games: a claim window closed: how (``outcome``), what the owner ``claimed``
    and what was ``pegged`` for it (the true score on an over-claim)."""

    __slots__ = ("claim", "claimed", "outcome", "pegged")
    __match_args__ = ("claim", "outcome", "claimed", "pegged")

    kind: ClassVar[FactKind] = FactKind.CLAIM_CLOSED
    claim: PendingClaim
    outcome: ClaimOutcome
    claimed: int
    pegged: int

    def __init__(
        self,
        claim: PendingClaim,
        outcome: ClaimOutcome,
        claimed: int,
        pegged: int,
    ) -> None:
        setter = object.__setattr__
        setter(self, "claim", claim)
        setter(self, "outcome", outcome)
        setter(self, "claimed", claimed)
        setter(self, "pegged", pegged)


class MugginsOpened(Value):
    """Muggins games: points the owner under-claimed are open to an opponent's call until the
    next entry (ACC 10)."""

    __slots__ = ("missed",)
    __match_args__ = ("missed",)

    kind: ClassVar[FactKind] = FactKind.MUGGINS_OPENED
    missed: PendingMuggins

    def __init__(self, missed: PendingMuggins) -> None:
        object.__setattr__(self, "missed", missed)


class MugginsClosed(Value):
    """Muggins games: the muggins window closed, by ``caller`` taking ``taken`` points (the
    :class:`Scored` muggins act follows) or, with ``caller`` ``None``, untaken: ``why`` says
    what shut it (the next score pegged, the next deal)."""

    __slots__ = ("caller", "missed", "taken", "why")
    __match_args__ = ("missed", "caller", "taken", "why")

    kind: ClassVar[FactKind] = FactKind.MUGGINS_CLOSED
    missed: PendingMuggins
    caller: int | None
    taken: int
    why: str

    def __init__(
        self,
        missed: PendingMuggins,
        caller: int | None,
        taken: int,
        why: str = "",
    ) -> None:
        setter = object.__setattr__
        setter(self, "missed", missed)
        setter(self, "caller", caller)
        setter(self, "taken", taken)
        setter(self, "why", why)


class Offered(Value):
    """A penalty the engine found and offers to the table (it applies only as a ``penalty``
    entry): a renege report once the hand is known (ACC 7.3), or a false claim of game
    (ACC 8.4)."""

    __slots__ = ("offer",)
    __match_args__ = ("offer",)

    kind: ClassVar[FactKind] = FactKind.OFFERED
    offer: PenaltyOffer

    def __init__(self, offer: PenaltyOffer) -> None:
        object.__setattr__(self, "offer", offer)


class Withdrawn(Value):
    """An offer that no longer stands: its go was itself taken back by the penalty for an
    earlier renege, so there is nothing to pay."""

    __slots__ = ("offer",)
    __match_args__ = ("offer",)

    kind: ClassVar[FactKind] = FactKind.WITHDRAWN
    offer: PenaltyOffer

    def __init__(self, offer: PenaltyOffer) -> None:
        object.__setattr__(self, "offer", offer)


class PenaltyApplied(Value):
    """A ``penalty`` entry applied (RULES.md, "Penalties").

    ``offender`` committed ``infraction``; ``points`` went to ``to`` (``None`` when no points
    went to an opponent) and ``back`` were taken from the offender, as pegged (a score never
    goes below 0). ``settles`` is the offer it settled, if any; ``redeal`` when the hand is
    dealt again. The :class:`Scored` acts that peg it follow (after any take-back).
    """

    __slots__ = ("back", "infraction", "offender", "points", "redeal", "settles", "to")
    __match_args__ = ("offender", "infraction", "to", "points", "back", "settles", "redeal")

    kind: ClassVar[FactKind] = FactKind.PENALTY_APPLIED
    offender: int
    infraction: Infraction
    to: int | None
    points: int
    back: int
    settles: PenaltyOffer | None
    redeal: bool

    def __init__(
        self,
        offender: int,
        infraction: Infraction,
        to: int | None,
        points: int,
        back: int,
        settles: PenaltyOffer | None = None,
        redeal: bool = False,
    ) -> None:
        setter = object.__setattr__
        setter(self, "offender", offender)
        setter(self, "infraction", infraction)
        setter(self, "to", to)
        setter(self, "points", points)
        setter(self, "back", back)
        setter(self, "settles", settles)
        setter(self, "redeal", redeal)


class TakenBack(Value):
    """A renege penalty took the play back to the go (ACC 7.3): the cards returned to each
    seat and the points each side lost; the retractions follow as :class:`Scored` acts with
    reason ``RENEGE_TAKE_BACK``."""

    __slots__ = ("take_back",)
    __match_args__ = ("take_back",)

    kind: ClassVar[FactKind] = FactKind.TAKEN_BACK
    take_back: TakeBack

    def __init__(self, take_back: TakeBack) -> None:
        object.__setattr__(self, "take_back", take_back)


class GameOver(Value):
    """A side reached the target: the game is over (RULES.md, "Winning").

    ``scores`` are the full totals the record keeps; ``shown`` is what the board shows: the
    winner at the target (a pegged-out finish stops at 121), the others as they are.
    ``spread`` is the ACC spread: the winner's shown score minus the lowest other score.
    ``game_points`` per side, ``skunk``; ``match_winner`` when this game won the match.
    """

    __slots__ = (
        "game_no",
        "game_points",
        "match_winner",
        "scores",
        "shown",
        "skunk",
        "spread",
        "winner",
    )
    __match_args__ = (
        "game_no", "winner", "scores", "shown", "spread", "skunk", "game_points", "match_winner",
    )

    kind: ClassVar[FactKind] = FactKind.GAME_OVER
    game_no: int
    winner: int
    scores: tuple[int, ...]
    shown: tuple[int, ...]
    spread: int
    skunk: Skunk
    game_points: tuple[int, ...]
    match_winner: int | None

    def __init__(
        self,
        game_no: int,
        winner: int,
        scores: tuple[int, ...],
        shown: tuple[int, ...],
        spread: int,
        skunk: Skunk,
        game_points: tuple[int, ...],
        match_winner: int | None = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "game_no", game_no)
        setter(self, "winner", winner)
        setter(self, "scores", scores)
        setter(self, "shown", shown)
        setter(self, "spread", spread)
        setter(self, "skunk", skunk)
        setter(self, "game_points", game_points)
        setter(self, "match_winner", match_winner)


class DealEnded(Value):
    """A deal is over: the next one was dealt, or the game ended in it (RULES.md, "The
    deal"). A deal dealt again after a misdeal (a ``redeal`` penalty) did not end: its
    redeal is the same deal.

    A deal that went to the show ends only when the next one is dealt: in a muggins game the
    crib's claim, and a muggins call on it, still peg for it after the crib is counted.

    ``scores`` are the board at its end as shown (the winner at the target, as
    :attr:`GameOver.shown`); ``counted`` the seats whose hands were counted, in show order
    (pone first, dealer last; hands counted before a renege's take-back are not, they were
    counted again after it); ``crib`` whether the crib was counted; ``played`` whether its
    play was entered card by card (else it was pegged by points).
    """

    __slots__ = ("counted", "crib", "deal_no", "dealer", "game_no", "played", "scores")
    __match_args__ = ("game_no", "deal_no", "dealer", "scores", "counted", "crib", "played")

    kind: ClassVar[FactKind] = FactKind.DEAL_ENDED
    game_no: int
    deal_no: int
    dealer: int
    scores: tuple[int, ...]
    counted: tuple[int, ...]
    crib: bool
    played: bool

    def __init__(
        self,
        game_no: int,
        deal_no: int,
        dealer: int,
        scores: tuple[int, ...],
        counted: tuple[int, ...],
        crib: bool,
        played: bool,
    ) -> None:
        setter = object.__setattr__
        setter(self, "game_no", game_no)
        setter(self, "deal_no", deal_no)
        setter(self, "dealer", dealer)
        setter(self, "scores", scores)
        setter(self, "counted", counted)
        setter(self, "crib", crib)
        setter(self, "played", played)


class Confirmed(Value):
    """The result was confirmed: by ``player`` (a press on the board) or, with ``director``
    set, by the club's director for the table. ``confirmed`` is every seat that has confirmed
    so far; ``complete`` when every seat has, or the director has (the result may go out)."""

    __slots__ = ("complete", "confirmed", "director", "player")
    __match_args__ = ("player", "director", "confirmed", "complete")

    kind: ClassVar[FactKind] = FactKind.CONFIRMED
    player: int | None
    director: str | None
    confirmed: tuple[int, ...]
    complete: bool

    def __init__(
        self,
        player: int | None,
        director: str | None,
        confirmed: tuple[int, ...],
        complete: bool,
    ) -> None:
        setter = object.__setattr__
        setter(self, "player", player)
        setter(self, "director", director)
        setter(self, "confirmed", confirmed)
        setter(self, "complete", complete)


class CountSaid(Value):
    """Count it yourself: ``player`` said ``said`` for their hand or crib (``counted``),
    whose true count, already pegged, is ``points``; the count may be shown from now on."""

    __slots__ = ("counted", "player", "points", "said")
    __match_args__ = ("player", "counted", "said", "points")

    kind: ClassVar[FactKind] = FactKind.COUNT_SAID
    player: int
    counted: Counted
    said: int
    points: int

    def __init__(self, player: int, counted: Counted, said: int, points: int) -> None:
        setter = object.__setattr__
        setter(self, "player", player)
        setter(self, "counted", counted)
        setter(self, "said", said)
        setter(self, "points", points)


class Undone(Value):
    """An ``undo`` entry took ``event`` back."""

    __slots__ = ("event",)
    __match_args__ = ("event",)

    kind: ClassVar[FactKind] = FactKind.UNDONE
    event: Event

    def __init__(self, event: Event) -> None:
        object.__setattr__(self, "event", event)


Fact = (
    Laid | SaidGo | Scored | ShowStep | ClaimOpened | ClaimClosed | MugginsOpened
    | MugginsClosed | Offered | Withdrawn | PenaltyApplied | TakenBack | DealEnded | GameOver
    | Confirmed | CountSaid | Undone
)
"""Every fact an entry can report."""


F = TypeVar("F", bound=Fact)


class Report(Value):
    """Everything one accepted entry did, as facts in order, and what comes next."""

    __slots__ = ("event", "facts", "next")
    __match_args__ = ("event", "facts", "next")

    event: Event
    facts: tuple[Fact, ...]
    next: Turn

    def __init__(self, event: Event, facts: tuple[Fact, ...], next: Turn) -> None:
        setter = object.__setattr__
        setter(self, "event", event)
        setter(self, "facts", facts)
        setter(self, "next", next)

    def of(self, kind: type[F]) -> tuple[F, ...]:
        """The facts of one class, in order: ``report.of(ShowStep)``."""
        return tuple(fact for fact in self.facts if isinstance(fact, kind))

    def first(self, kind: type[F]) -> F | None:
        """The first fact of one class, or ``None`` when the entry reported none."""
        return next((fact for fact in self.facts if isinstance(fact, kind)), None)

    @property
    def awards(self) -> tuple[Award, ...]:
        """Every award pegged by this entry, in order."""
        awards: tuple[Award, ...] = ()
        for fact in self.facts:
            if isinstance(fact, Scored):
                awards += fact.awards
        return awards

    @property
    def scored(self) -> tuple[Scored, ...]:
        """The scoring acts pegged."""
        return self.of(Scored)

    @property
    def show_steps(self) -> tuple[ShowStep, ...]:
        """The hands and crib counted."""
        return self.of(ShowStep)

    @property
    def offers(self) -> tuple[PenaltyOffer, ...]:
        """The penalties newly offered (renege reports, false claims of game)."""
        return tuple(fact.offer for fact in self.of(Offered))

    @property
    def penalty(self) -> PenaltyApplied | None:
        """The penalty applied, for a ``penalty`` entry."""
        return self.first(PenaltyApplied)

    @property
    def confirmed(self) -> Confirmed | None:
        """The confirmation of the result, for a ``confirm`` or ``override`` entry."""
        return self.first(Confirmed)

    @property
    def deal_ended(self) -> DealEnded | None:
        """The end of the deal this entry closed, if it closed one."""
        return self.first(DealEnded)

    @property
    def game_over(self) -> GameOver | None:
        """The end of the game, when this entry reached the target."""
        return self.first(GameOver)
