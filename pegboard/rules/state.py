"""Read-only values describing a game: awards, phases, reports and the state snapshot.

Everything here is immutable. :class:`GameState` is what the screens, the LED board and the
record tools read; it is rebuilt from the event log and never changed in place.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING

from pegboard.rules.cards import DECK, Card, EnteredCard, Rank, Suit
from pegboard.rules.scoring import ScoreItem
from pegboard.rules.speech import CountWords
from pegboard.rules.value import Value
from pegboard.rules.variants import Rules


class Reason(enum.StrEnum):
    """Why points were pegged: the reason every :class:`Award` carries.

    A ``StrEnum`` whose values are the words the record tools and older callers compare with
    (``award.reason == "go"`` still holds).
    """

    FIFTEEN = "fifteen"
    THIRTY_ONE = "thirty-one"
    PAIR = "pair"
    PAIR_ROYAL = "pair royal"
    DOUBLE_PAIR_ROYAL = "double pair royal"
    RUN = "run"
    GO = "go"
    """The go: 1 to the player who laid the last card of a count nobody could add to."""
    LAST_CARD = "last card"
    """1 for the very last card of the play (2 for 31 is ``THIRTY_ONE`` instead)."""
    HIS_HEELS = "his heels"
    HAND = "hand"
    CRIB = "crib"
    PENALTY = "penalty"
    MUGGINS = "muggins"
    THREE_FOR_LAST = "three for last"
    PEG = "peg"
    """Points pegged by hand (a ``peg`` entry)."""
    RENEGE_TAKE_BACK = "renege take-back"
    """The negative award that cancels an earlier award when a renege penalty takes the play
    back (ACC 7.3); ``Award.cancels`` names the reason it cancels."""


PLAY_REASONS = (
    Reason.FIFTEEN, Reason.THIRTY_ONE, Reason.PAIR, Reason.PAIR_ROYAL,
    Reason.DOUBLE_PAIR_ROYAL, Reason.RUN, Reason.GO, Reason.LAST_CARD,
)
"""The reasons of points scored in the play."""

RETRACTABLE = (*PLAY_REASONS, Reason.HAND, Reason.MUGGINS)
"""What a renege's take-back cancels when pegged after the renege: the play's points and the
hands counted after that play (they are counted again once the play is over), and muggins
taken on either. Penalties, pegs by hand, his heels and three for last stay."""


class Skunk(enum.StrEnum):
    """How badly the loser lost (ACC 2.1): the lowest score at or below a skunk line."""

    NONE = "none"
    SKUNK = "skunk"
    DOUBLE = "double"


class Phase(enum.Enum):
    """What the table is doing, i.e. which entry the engine expects next."""

    CUT = "cut"
    """Cutting for the first deal (or a new cut after a tie)."""
    DEAL = "deal"
    """Waiting for the next hand to be dealt."""
    STARTER = "starter"
    """Cards dealt and discarded; waiting for the starter to be turned."""
    PLAY = "play"
    """The play (pegging)."""
    SHOW = "show"
    """Counting the hands, pone first, dealer last."""
    CRIB = "crib"
    """Waiting for the crib's four cards."""
    GAME_OVER = "game over"
    """A side reached the target; only undo or a new game (in a match) is accepted."""


class Award(Value):
    """Points pegged for one reason: who, which side, how many (negative: pegged back).

    ``items`` itemise a hand, crib or play combination; ``cards`` are the cards involved;
    ``rule`` names the rule applied for penalties and take-backs (e.g. "ACC 7.3 (2020)").
    ``cancels``: for a ``"renege take-back"``, the reason of the award it cancels (``"go"``,
    ``"hand"`` ...), so a tally by reason can take it off where it was counted; ``None`` on
    every other award.
    """

    __slots__ = (
        "_sentence",
        "cancels",
        "cards",
        "items",
        "player",
        "points",
        "reason",
        "rule",
        "side",
    )
    __match_args__ = ("player", "side", "points", "reason", "sentence", "items", "cards", "rule",
                      "cancels")

    player: int
    side: int
    points: int
    reason: Reason
    sentence: str
    items: tuple[ScoreItem, ...]
    cards: tuple[Card, ...]
    rule: str
    cancels: Reason | None

    def __init__(
        self,
        player: int,
        side: int,
        points: int,
        reason: Reason,
        sentence: str,
        items: tuple[ScoreItem, ...] = (),
        cards: tuple[Card, ...] = (),
        rule: str = "",
        cancels: Reason | None = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "player", player)
        setter(self, "side", side)
        setter(self, "points", points)
        setter(self, "reason", reason)
        setter(self, "_sentence", sentence)
        setter(self, "items", items)
        setter(self, "cards", cards)
        setter(self, "rule", rule)
        setter(self, "cancels", cancels)

    @classmethod
    def counted(cls, player: int, side: int, points: int, reason: Reason, words: CountWords,
                items: tuple[ScoreItem, ...], cards: tuple[Card, ...]) -> Award:
        """The award of a hand or crib counted, its ``sentence`` the count's ``words``, made
        when first read (:class:`~pegboard.rules.speech.CountWords`): the same award, equal
        to one made with the words' text, by the same fields."""
        award = cls(player, side, points, reason, "", items, cards)
        object.__setattr__(award, "_sentence", words)
        return award

    if not TYPE_CHECKING:  # the type checker reads ``sentence`` as the field it is

        @property
        def sentence(self) -> str:
            said = self._sentence
            if not isinstance(said, str):
                said = said.text()
                object.__setattr__(self, "_sentence", said)  # made once, then kept
            return said

    def to_json(self) -> dict[str, object]:
        """The replay --json form: ``{"player": P, "points": K, "reason": "..."}``, with
        ``"cancels"`` added for a take-back."""
        data: dict[str, object] = {
            "player": self.player, "points": self.points, "reason": str(self.reason),
        }
        if self.cancels is not None:
            data["cancels"] = str(self.cancels)
        return data


class PenaltyOffer(Value):
    """A penalty the engine found but does not apply by itself: the table decides.

    A renege (ACC 7.3): a go said at ``count`` while holding ``cards`` that fitted, found
    once the hand was known; 2 points per card offered to ``to``. A false claim of game
    (ACC 8.4): a claim that would have pegged out on a wrong count (``count`` is -1). It
    becomes a ``penalty`` event only if the table applies it.

    ``resolved`` once a penalty settled it. ``withdrawn`` (resolved too) when the go it was
    about was itself taken back by the penalty for an earlier renege: that go no longer
    stands, so there is nothing to pay. ``passed`` once the table let it pass (a
    ``let_pass`` entry): it is no longer put to the table, but stays open to a penalty.
    """

    __slots__ = (
        "cards",
        "count",
        "infraction",
        "passed",
        "player",
        "points",
        "resolved",
        "rule",
        "to",
        "withdrawn",
    )
    __match_args__ = ("infraction", "player", "count", "cards", "points", "to", "rule", "resolved",
                      "withdrawn", "passed")

    infraction: str
    player: int
    count: int
    cards: tuple[Card, ...]
    points: int
    to: int
    rule: str
    resolved: bool
    withdrawn: bool
    passed: bool

    def __init__(
        self,
        infraction: str,
        player: int,
        count: int,
        cards: tuple[Card, ...],
        points: int,
        to: int,
        rule: str,
        resolved: bool = False,
        withdrawn: bool = False,
        passed: bool = False,
    ) -> None:
        setter = object.__setattr__
        setter(self, "infraction", infraction)
        setter(self, "player", player)
        setter(self, "count", count)
        setter(self, "cards", cards)
        setter(self, "points", points)
        setter(self, "to", to)
        setter(self, "rule", rule)
        setter(self, "resolved", resolved)
        setter(self, "withdrawn", withdrawn)
        setter(self, "passed", passed)

    @property
    def sentence(self) -> str:
        """What the screen says about it, each card named with its suit (:meth:`said`)."""
        return self.said()

    def said(self, entered: Callable[[Card], bool] | None = None) -> str:
        """The offer in a sentence; a card whose suit no player entered (``entered``, the
        engine's :meth:`GameState.suit_entered`) is named by its rank alone, never by the
        suit the card wheel chose for it."""
        if self.infraction == "renege":
            listed = " ".join(EnteredCard.of(card, suit_known=entered is None or entered(card))
                              .short for card in self.cards)
            return (
                f"renege: go at {self.count} while holding {listed}; "
                f"{self.points} to the opponent ({self.rule})"
            )
        return (
            f"false claim of game: {self.points} over-claimed to the opponent and 15 back "
            f"({self.rule})"
        )


class UncheckedGo(Value):
    """A go not yet checked for a renege because its player's hand is unseen: said at
    ``count`` by ``player``, who still holds ``held`` cards nobody has seen (ACC 7.3).

    The engine checks a go once the hand is known (every card laid, or shown). When a game is
    won in the play, the hands still held are never laid or shown: a renege at such a go is
    claimed by showing the cards held (a ``penalty`` with ``held``), and the engine judges it
    from them.
    """

    __slots__ = ("count", "held", "player")
    __match_args__ = ("player", "count", "held")

    player: int
    count: int
    held: int

    def __init__(self, player: int, count: int, held: int) -> None:
        setter = object.__setattr__
        setter(self, "player", player)
        setter(self, "count", count)
        setter(self, "held", held)


RenegeReport = PenaltyOffer
"""The renege reports are the penalty offers whose infraction is ``"renege"``."""


class TakeBack(Value):
    """What an applied renege penalty took back (ACC 7.3; docs/rules.md, "Renege").

    ``offender`` said go at ``count`` while a card fitted. Every card laid after that go
    returned to its player's hand: ``cards`` holds them per seat, in the order each seat had
    laid them. ``points`` is what each side lost (the play's points pegged after the go, the
    hands counted after that play, muggins taken on them), as the ``"renege take-back"``
    awards list it. The play then goes on at ``count`` with ``offender`` to play.
    """

    __slots__ = ("cards", "count", "offender", "points")
    __match_args__ = ("offender", "count", "cards", "points")

    offender: int
    count: int
    cards: tuple[tuple[Card, ...], ...]
    points: tuple[int, ...]

    def __init__(
        self,
        offender: int,
        count: int,
        cards: tuple[tuple[Card, ...], ...],
        points: tuple[int, ...],
    ) -> None:
        setter = object.__setattr__
        setter(self, "offender", offender)
        setter(self, "count", count)
        setter(self, "cards", cards)
        setter(self, "points", points)

    def to_json(self) -> dict[str, object]:
        """The replay --json form: offender, count, cards per seat, points per side."""
        return {
            "player": self.offender, "count": self.count,
            "cards": [[str(card) for card in seat] for seat in self.cards],
            "points": list(self.points),
        }


class Owed(Value):
    """One reason within a score waiting for its claim, with its points (and, for a hand or
    the crib, its combinations)."""

    __slots__ = ("items", "points", "reason")
    __match_args__ = ("reason", "points", "items")

    reason: Reason
    points: int
    items: tuple[ScoreItem, ...]

    def __init__(self, reason: Reason, points: int, items: tuple[ScoreItem, ...] = ()) -> None:
        setter = object.__setattr__
        setter(self, "reason", reason)
        setter(self, "points", points)
        setter(self, "items", items)


class PendingClaim(Value):
    """Muggins games: a score waiting for its owner's claim (``points`` is the true score).

    ``owed`` lists every reason in it with its points, in the order they were scored: a card
    that makes a run and ends the count owes ``run 3`` and ``go 1``, one claim of 4.
    ``reason`` is the first of them and ``items`` every combination.
    """

    __slots__ = ("items", "owed", "player", "points", "reason")
    __match_args__ = ("player", "points", "reason", "items", "owed")

    player: int
    points: int
    reason: Reason
    items: tuple[ScoreItem, ...]
    owed: tuple[Owed, ...]

    def __init__(
        self,
        player: int,
        points: int,
        reason: Reason,
        items: tuple[ScoreItem, ...] = (),
        owed: tuple[Owed, ...] = (),
    ) -> None:
        setter = object.__setattr__
        setter(self, "player", player)
        setter(self, "points", points)
        setter(self, "reason", reason)
        setter(self, "items", items)
        setter(self, "owed", owed)

    @property
    def reasons(self) -> tuple[Reason, ...]:
        """Every reason owed, each once, in order."""
        return tuple(dict.fromkeys(part.reason for part in self.owed))


def shown_scores(scores: Sequence[int], target: int) -> tuple[int, ...]:
    """The board as shown: no side past the target. The side that pegged out is shown at the
    target (a pegged-out 122 reads 121, ACC); only the winner reaches it, and the record keeps
    the full totals."""
    return tuple(min(score, target) for score in scores)


class OpenCall(Value):
    """Muggins games: the score an opponent may still call muggins on (ACC 10), whether or
    not its owner missed points, so that the chance to call gives nothing away.

    The window opens at each claim (``claimed``: what the owner claimed) and at a play score
    passed over unclaimed whose points are open to muggins (``claimed`` ``None``). It shuts
    when the next score is pegged (an act that moves a peg), at the next claim, a muggins
    call or "no muggins", and at the end of the game (so before a new game); records before
    version 5 shut it when the next hand is dealt, records before version 3 at the next
    entry of any kind. A renege's take-back leaves the window that stood at the go as it was
    when nothing was opened since. ``GameState.pending_muggins`` says whether points were
    missed in it; only the engine and the caller's answer may tell.
    """

    __slots__ = ("claim", "claimed")
    __match_args__ = ("claim", "claimed")

    claim: PendingClaim
    claimed: int | None

    def __init__(self, claim: PendingClaim, claimed: int | None) -> None:
        setter = object.__setattr__
        setter(self, "claim", claim)
        setter(self, "claimed", claimed)

    @property
    def owner(self) -> int:
        """The seat whose score may be called on."""
        return self.claim.player


class HeldCount(Value):
    """Count it yourself (teaching): a hand or crib the engine has pegged whose owner has not
    yet said their own count (an ``own_count`` entry). Until then nothing shows it: the
    board stands at ``scores`` and ``back_pegs``, where it was before this count was pegged.
    ``points`` is the true count, ``reason`` HAND or CRIB, ``items`` every combination."""

    __slots__ = ("back_pegs", "items", "player", "points", "reason", "scores")
    __match_args__ = ("player", "reason", "points", "scores", "back_pegs", "items")

    player: int
    reason: Reason
    points: int
    scores: tuple[int, ...]
    back_pegs: tuple[int, ...]
    items: tuple[ScoreItem, ...]

    def __init__(
        self,
        player: int,
        reason: Reason,
        points: int,
        scores: tuple[int, ...],
        back_pegs: tuple[int, ...],
        items: tuple[ScoreItem, ...] = (),
    ) -> None:
        setter = object.__setattr__
        setter(self, "player", player)
        setter(self, "reason", reason)
        setter(self, "points", points)
        setter(self, "scores", scores)
        setter(self, "back_pegs", back_pegs)
        setter(self, "items", items)


class PendingMuggins(Value):
    """Muggins games: points ``owner`` under-claimed, open to an opponent's muggins call."""

    __slots__ = ("owner", "points", "reason")
    __match_args__ = ("owner", "points", "reason")

    owner: int
    points: int
    reason: Reason

    def __init__(self, owner: int, points: int, reason: Reason) -> None:
        setter = object.__setattr__
        setter(self, "owner", owner)
        setter(self, "points", points)
        setter(self, "reason", reason)


class GameResult(Value):
    """How a finished game ended: the winning side, final scores, skunk and game points."""

    __slots__ = ("game_points", "scores", "skunk", "winner")
    __match_args__ = ("winner", "scores", "skunk", "game_points")

    winner: int
    scores: tuple[int, ...]
    skunk: Skunk
    game_points: tuple[int, ...]

    def __init__(
        self,
        winner: int,
        scores: tuple[int, ...],
        skunk: Skunk,
        game_points: tuple[int, ...],
    ) -> None:
        setter = object.__setattr__
        setter(self, "winner", winner)
        setter(self, "scores", scores)
        setter(self, "skunk", skunk)
        setter(self, "game_points", game_points)

    def to_json(self) -> dict[str, object]:
        """The replay --json result line (without the ``type`` key)."""
        return {
            "scores": list(self.scores), "winner": self.winner, "skunk": str(self.skunk),
            "game_points": list(self.game_points),
        }


class MatchState(Value):
    """Running totals over the games of a match (best of ``games``)."""

    __slots__ = ("game_points", "games", "played", "winner", "wins")
    __match_args__ = ("games", "played", "wins", "game_points", "winner")

    games: int
    played: tuple[GameResult, ...]
    wins: tuple[int, ...]
    game_points: tuple[int, ...]
    winner: int | None

    def __init__(
        self,
        games: int,
        played: tuple[GameResult, ...],
        wins: tuple[int, ...],
        game_points: tuple[int, ...],
        winner: int | None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "games", games)
        setter(self, "played", played)
        setter(self, "wins", wins)
        setter(self, "game_points", game_points)
        setter(self, "winner", winner)


def settled_renege(offers: Sequence[PenaltyOffer], this_deal: Collection[int],
                   offender: int) -> int | None:
    """Which open renege report a penalty for ``offender`` settles (its index in
    ``offers``; ``this_deal``: the indexes of this deal's reports).

    The earliest of this deal first: taking it back takes back any later one too. A report
    the table let pass (``passed``) comes after those it did not: the table chose to apply
    another. Failing this deal's, the earliest left open from an earlier deal (paid, nothing
    to take back), again one not let pass first.
    """
    open_ = [i for i, offer in enumerate(offers)
             if offer.infraction == "renege" and offer.player == offender and not offer.resolved]
    current = [i for i in open_ if i in this_deal]
    earlier = [i for i in open_ if i not in this_deal]
    for pool in (current, earlier):
        if pool:
            return next((i for i in pool if not offers[i].passed), pool[0])
    return None


class SuitQuestion(Value):
    """The starter's suit, asked before a count that needs it (record version 7).

    The starter was entered by its rank alone, and the hand of ``player`` (``crib``: the
    dealer's crib) holds a card named with its suit that makes his nobs or a flush with some
    of the starter's possible suits, ``suits`` (those whose card no player was dealt). The
    count waits for a ``starter_suit`` entry; every later count in the deal uses it.
    ``makes``: what the suit decides, in order ("nobs", "flush": the kinds of score some of
    those suits give the count and others do not)."""

    __slots__ = ("crib", "makes", "player", "rank", "suits")
    __match_args__ = ("player", "crib", "suits", "rank", "makes")

    player: int
    crib: bool
    suits: tuple[Suit, ...]
    rank: Rank
    makes: tuple[str, ...]

    def __init__(
        self,
        player: int,
        crib: bool,
        suits: tuple[Suit, ...],
        rank: Rank,
        makes: tuple[str, ...] = (),
    ) -> None:
        setter = object.__setattr__
        setter(self, "player", player)
        setter(self, "crib", crib)
        setter(self, "suits", suits)
        setter(self, "rank", rank)
        setter(self, "makes", makes)


def still_held(hand: tuple[Card, ...] | None, played: tuple[Card, ...],
               ) -> tuple[Card, ...] | None:
    """The cards of a kept ``hand`` not yet laid this deal (None: the hand is not known)."""
    return None if hand is None else tuple(card for card in hand if card not in played)


class GameState(Value):
    """A snapshot of the whole table after the entries applied so far.

    Scores are per side (a partnership is one side; with 2 or 3 players side = seat); every
    other per-player tuple is per seat.

    - ``phase``: what the engine expects next; ``to_act``: the seat that must act (leads or
      plays in the play, shows in the show; the dealer while dealing, turning the starter or
      counting the crib; ``None`` while cutting and when the game is over).
    - ``game_no`` (1-based, a match), ``deal_no`` (deals this game), ``dealer``.
    - The play: ``count``, ``pile`` (cards of this count, oldest first), ``last_player`` (who
      laid the last card of this count), ``said_go`` (seats out of this count), ``played``
      (cards each seat laid this deal), ``cards_left`` (per seat), ``seen`` (every card known
      this deal: starter, played, shown, crib), ``starter``.
    - ``hands``: each seat's kept hand once known (all laid, shown, or its dealt cards and
      the cards laid away entered); ``crib`` once given; ``dealt``: the cards each seat was
      dealt, when entered; ``laid_away``: the cards each seat laid away, when entered.
    - ``scores``, ``back_pegs`` (where each side's back peg is: the score before its last
      move), ``awards`` (every award this game, in order), ``winner`` (a side), ``result``.
    - ``match``: games played, wins and game points per side, match winner.
    - Muggins games: ``pending_claims`` (scores waiting for their owners' claims, first one
      next), ``pending_muggins`` (under-claimed points open to an opponent's call) and
      ``open_call`` (the claim an opponent may call on now, right or short: :class:`OpenCall`).
    - ``offers``: penalties found but not applied (renege reports; false claims of game);
      ``reneges`` is the renege part. ``take_backs``: what each renege penalty applied this
      game took back, oldest first.
    - After a take-back, ``hands`` keeps every hand that was known: those players must lay
      their cards again from it (``can_play`` and ``legal_cards`` say so).
    """

    __slots__ = (
        "asked",
        "asks_suit",
        "awards",
        "back_pegs",
        "cards_left",
        "cards_whole",
        "count",
        "crib",
        "deal_no",
        "deal_reneges",
        "dealer",
        "dealt",
        "game_no",
        "hands",
        "hands_open",
        "held_counts",
        "laid_away",
        "last_player",
        "match",
        "named_laid",
        "names",
        "offers",
        "open_call",
        "pending_claims",
        "pending_muggins",
        "phase",
        "pile",
        "played",
        "result",
        "rules",
        "said_go",
        "scores",
        "seen",
        "starter",
        "starter_suit_known",
        "take_backs",
        "to_act",
        "turned",
        "unchecked_gos",
        "winner",
    )
    __match_args__ = ("names", "rules", "phase", "game_no", "deal_no", "dealer", "to_act", "count",
                      "pile", "last_player", "starter", "seen", "played", "cards_left", "said_go",
                      "hands", "crib", "scores", "back_pegs", "winner", "result", "match", "awards",
                      "pending_claims", "pending_muggins", "offers", "dealt", "take_backs",
                      "open_call", "starter_suit_known", "turned", "asked", "asks_suit",
                      "unchecked_gos", "held_counts", "laid_away", "deal_reneges", "cards_whole",
                      "hands_open", "named_laid")

    names: tuple[str, ...]
    rules: Rules
    phase: Phase
    game_no: int
    deal_no: int
    dealer: int | None
    to_act: int | None
    count: int
    pile: tuple[Card, ...]
    last_player: int | None
    starter: Card | None
    seen: frozenset[Card]
    played: tuple[tuple[Card, ...], ...]
    cards_left: tuple[int, ...]
    said_go: frozenset[int]
    hands: tuple[tuple[Card, ...] | None, ...]
    crib: tuple[Card, ...] | None
    scores: tuple[int, ...]
    back_pegs: tuple[int, ...]
    winner: int | None
    result: GameResult | None
    match: MatchState
    awards: tuple[Award, ...]
    pending_claims: tuple[PendingClaim, ...]
    pending_muggins: PendingMuggins | None
    offers: tuple[PenaltyOffer, ...]
    dealt: tuple[tuple[Card, ...] | None, ...]
    take_backs: tuple[TakeBack, ...]
    open_call: OpenCall | None
    """Muggins games: the claim an opponent may still call muggins on (:class:`OpenCall`)."""
    starter_suit_known: bool
    """False when only the starter's rank was entered: ``starter`` then holds a suit the
    engine chose to count with, which never makes a flush or nobs with cards named with
    their suits and is never to be shown (``turned`` is what was entered)."""
    turned: EnteredCard | None
    """The starter as the table entered it: its rank, and its suit when named at the cut or
    later when a count asked for it (``None`` before the starter)."""
    asked: SuitQuestion | None
    """The starter's suit a count is waiting for, when one is (record version 7)."""
    asks_suit: bool
    """Whether a count that needs the starter's suit asks it (record version 7 on); in an
    older record a starter entered by rank counts with a stand-in that never scores with
    cards named with their suits."""
    unchecked_gos: tuple[UncheckedGo, ...]
    """The gos of this deal not yet checked for a renege (their players' hands unseen), in
    the order they were said."""
    held_counts: tuple[HeldCount, ...]
    """Count it yourself: the counts pegged whose owners have not yet said theirs, in show
    order (the first owner says theirs next)."""
    laid_away: tuple[tuple[Card, ...] | None, ...]
    """The cards each seat laid away to the crib, when entered (after their dealt cards): a
    seat's kept hand is then known (``hands``) from the start of the play. Private: never
    for a shared output."""
    deal_reneges: frozenset[int]
    """The indexes in ``offers`` of this deal's renege reports."""
    cards_whole: bool
    """Every card of this deal was entered whole, its suit the player's: the starter named
    with its suit and not ``by_rank`` (the command line). False when the cards are entered
    by rank (the device's wheel): only the dealt hands and a named starter have their suits
    entered."""
    hands_open: bool
    """Every hand is open to the table (an open-handed teaching game, the table option
    ``open_hands``): each hand the box knows (``hands``) every player knows too. False: a
    hand is its player's own, whatever the box knows of it."""
    named_laid: frozenset[Card]
    """The cards laid this deal whose suits their players named, in a deal entered by rank
    (``Play.named``: a phone's tap on its real card). Their suits are facts, as a dealt
    hand's are."""

    def __init__(
        self,
        names: tuple[str, ...],
        rules: Rules,
        phase: Phase,
        game_no: int,
        deal_no: int,
        dealer: int | None,
        to_act: int | None,
        count: int,
        pile: tuple[Card, ...],
        last_player: int | None,
        starter: Card | None,
        seen: frozenset[Card],
        played: tuple[tuple[Card, ...], ...],
        cards_left: tuple[int, ...],
        said_go: frozenset[int],
        hands: tuple[tuple[Card, ...] | None, ...],
        crib: tuple[Card, ...] | None,
        scores: tuple[int, ...],
        back_pegs: tuple[int, ...],
        winner: int | None,
        result: GameResult | None,
        match: MatchState,
        awards: tuple[Award, ...],
        pending_claims: tuple[PendingClaim, ...],
        pending_muggins: PendingMuggins | None,
        offers: tuple[PenaltyOffer, ...],
        dealt: tuple[tuple[Card, ...] | None, ...],
        take_backs: tuple[TakeBack, ...] = (),
        open_call: OpenCall | None = None,
        starter_suit_known: bool = True,
        turned: EnteredCard | None = None,
        asked: SuitQuestion | None = None,
        asks_suit: bool = True,
        unchecked_gos: tuple[UncheckedGo, ...] = (),
        held_counts: tuple[HeldCount, ...] = (),
        laid_away: tuple[tuple[Card, ...] | None, ...] = (),
        deal_reneges: frozenset[int] = frozenset(),
        cards_whole: bool = True,
        hands_open: bool = False,
        named_laid: frozenset[Card] = frozenset(),
    ) -> None:
        setter = object.__setattr__
        setter(self, "names", names)
        setter(self, "rules", rules)
        setter(self, "phase", phase)
        setter(self, "game_no", game_no)
        setter(self, "deal_no", deal_no)
        setter(self, "dealer", dealer)
        setter(self, "to_act", to_act)
        setter(self, "count", count)
        setter(self, "pile", pile)
        setter(self, "last_player", last_player)
        setter(self, "starter", starter)
        setter(self, "seen", seen)
        setter(self, "played", played)
        setter(self, "cards_left", cards_left)
        setter(self, "said_go", said_go)
        setter(self, "hands", hands)
        setter(self, "crib", crib)
        setter(self, "scores", scores)
        setter(self, "back_pegs", back_pegs)
        setter(self, "winner", winner)
        setter(self, "result", result)
        setter(self, "match", match)
        setter(self, "awards", awards)
        setter(self, "pending_claims", pending_claims)
        setter(self, "pending_muggins", pending_muggins)
        setter(self, "offers", offers)
        setter(self, "dealt", dealt)
        setter(self, "take_backs", take_backs)
        setter(self, "open_call", open_call)
        setter(self, "starter_suit_known", starter_suit_known)
        setter(self, "turned", turned)
        setter(self, "asked", asked)
        setter(self, "asks_suit", asks_suit)
        setter(self, "unchecked_gos", unchecked_gos)
        setter(self, "held_counts", held_counts)
        setter(self, "laid_away", laid_away)
        setter(self, "deal_reneges", deal_reneges)
        setter(self, "cards_whole", cards_whole)
        setter(self, "hands_open", hands_open)
        setter(self, "named_laid", named_laid)

    @property
    def suits_entered(self) -> frozenset[Card]:
        """The cards of this deal whose suits a player entered: the dealt hands named, the
        cards laid with their suits named (:attr:`named_laid`), and the starter when its
        suit was named or asked; every card seen when the starter was
        named with its suit (cards entered whole). Every other card was entered by its rank,
        its suit chosen by the card wheel, and is shown by its rank alone."""
        named = self.named
        if self.starter_suit_known and self.cards_whole:
            named |= self.seen
        starter = self.turned.card if self.turned is not None else None
        return frozenset(named | ({starter} if starter is not None else set()))

    @property
    def named(self) -> frozenset[Card]:
        """The cards of this deal named with their suits, in a deal entered by rank: the
        dealt hands entered and the cards laid with their suits named (:attr:`named_laid`).
        A card entered by rank alone never holds one of them."""
        return self.named_laid.union(card for dealt in self.dealt if dealt is not None
                                     for card in dealt)

    def suit_entered(self, card: Card) -> bool:
        """Whether ``card``'s suit was entered by a player this deal: always when the cards
        were entered whole (the starter named, not ``by_rank``), else only for
        :attr:`suits_entered`. A card laid and taken back after a renege keeps what was
        entered of it."""
        return (self.starter_suit_known and self.cards_whole) or card in self.suits_entered

    def open_hand(self, seat: int) -> tuple[Card, ...] | None:
        """The cards ``seat`` still holds when every player sees them: the hands are open to
        the table (:attr:`hands_open`) and the seat's hand is known. None otherwise: the
        hand is the player's own, or not known."""
        return still_held(self.hands[seat], self.played[seat]) if self.hands_open else None

    @property
    def players(self) -> int:
        """Number of seats."""
        return len(self.names)

    @property
    def sides(self) -> int:
        """Number of scores on the board."""
        return len(self.scores)

    @property
    def shown(self) -> tuple[int, ...]:
        """The scores as the board shows them: the winner at the target once the game is over
        (:func:`shown_scores`; ``GameOver.shown``); ``scores`` keeps the full totals."""
        return shown_scores(self.scores, self.rules.target)

    @property
    def reneges(self) -> tuple[PenaltyOffer, ...]:
        """Renege reports of this game (resolved ones too, marked ``resolved``)."""
        return tuple(offer for offer in self.offers if offer.infraction == "renege")

    def renege_settled(self, offender: int) -> PenaltyOffer | None:
        """The open renege report a ``penalty`` for ``offender`` settles
        (:func:`settled_renege`), if any."""
        at = settled_renege(self.offers, self.deal_reneges, offender)
        return None if at is None else self.offers[at]

    def side_of(self, player: int) -> int:
        """The side seat ``player`` scores for."""
        return self.rules.side_of(player, len(self.names))

    def max_playable_pips(self) -> int:
        """The largest card value that still fits under 31 (0 outside the play)."""
        if self.phase is not Phase.PLAY:
            return 0
        return min(10, 31 - self.count)

    def can_play(self, player: int, card: Card) -> bool:
        """True when ``player`` may lay ``card`` now: their turn, unseen, fits under 31, and
        from their hand when it is known (dealt cards entered, or a hand known before a
        renege's take-back)."""
        if self.phase is not Phase.PLAY or player != self.to_act:
            return False
        if card in self.seen or self.cards_left[player] == 0:
            return False
        known = self.dealt[player]
        if known is not None and card not in known:
            return False
        for seat, hand in enumerate(self.hands):
            if hand is not None and (card in hand) != (seat == player):
                return False
        return self.count + card.pips <= 31

    def legal_cards(self) -> tuple[Card, ...]:
        """Every card the player to act could lay now (for the card picker)."""
        if self.phase is not Phase.PLAY or self.to_act is None:
            return ()
        return tuple(card for card in DECK if self.can_play(self.to_act, card))
