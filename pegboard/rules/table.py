"""The engine's working table: mutable state behind :class:`pegboard.rules.game.Game`.

Only the engine touches a :class:`Table`, and always on a fresh copy, so an entry that turns out
to be illegal half-way leaves the game exactly as it was. Scoring happens here in one place
(:meth:`Table.peg`): each scoring act is pegged whole, and the game ends the instant a side
reaches the target.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from pegboard.errors import InvalidCardError, RuleError
from pegboard.rules.cards import Card, EnteredCard, Suit, require_distinct
from pegboard.rules.events import GameHeader, TableOptions
from pegboard.rules.facts import ClaimOpened, Fact
from pegboard.rules.result import game_result
from pegboard.rules.scoring import ScoreItem
from pegboard.rules.speech import CountWords, number
from pegboard.rules.state import (
    Award,
    GameResult,
    GameState,
    HeldCount,
    MatchState,
    OpenCall,
    Owed,
    PenaltyOffer,
    PendingClaim,
    PendingMuggins,
    Phase,
    Reason,
    SuitQuestion,
    TakeBack,
    UncheckedGo,
)
from pegboard.rules.value import Value


class Part(Value):
    """One piece of a scoring act before it is pegged. ``sentence`` says it (without the
    seat's name, which the award puts before it); a hand's or the crib's count says it in
    words made when first read (:class:`~pegboard.rules.speech.CountWords`), which name the
    seat already when it is the one the act pegs for."""

    __slots__ = ("cards", "items", "points", "reason", "sentence")
    __match_args__ = ("reason", "points", "sentence", "items", "cards")

    reason: Reason
    points: int
    sentence: str | CountWords
    items: tuple[ScoreItem, ...]
    cards: tuple[Card, ...]

    def __init__(
        self,
        reason: Reason,
        points: int,
        sentence: str | CountWords,
        items: tuple[ScoreItem, ...] = (),
        cards: tuple[Card, ...] = (),
    ) -> None:
        setter = object.__setattr__
        setter(self, "reason", reason)
        setter(self, "points", points)
        setter(self, "sentence", sentence)
        setter(self, "items", items)
        setter(self, "cards", cards)


class Act(Value):
    """A single scoring act (one card's combinations, one hand, one go...): pegged whole."""

    __slots__ = ("parts", "player")
    __match_args__ = ("player", "parts")

    player: int
    parts: tuple[Part, ...]

    def __init__(self, player: int, parts: tuple[Part, ...]) -> None:
        setter = object.__setattr__
        setter(self, "player", player)
        setter(self, "parts", parts)

    @property
    def points(self) -> int:
        return sum(part.points for part in self.parts)


class Pegged(Value):
    """A note that ``out[start:end]`` are the awards of one scoring act (see ``Table.notes``)."""

    __slots__ = ("back_pegs", "end", "player", "scores", "start")
    __match_args__ = ("player", "start", "end", "scores", "back_pegs")

    player: int
    start: int
    end: int
    scores: tuple[int, ...]
    back_pegs: tuple[int, ...]

    def __init__(
        self,
        player: int,
        start: int,
        end: int,
        scores: tuple[int, ...],
        back_pegs: tuple[int, ...],
    ) -> None:
        setter = object.__setattr__
        setter(self, "player", player)
        setter(self, "start", start)
        setter(self, "end", end)
        setter(self, "scores", scores)
        setter(self, "back_pegs", back_pegs)
    """The board once the act was pegged: every side's front and back peg."""


Note = Fact | Pegged | partial[Fact] | partial[Pegged]
"""What the engine notes while it applies one entry, in order (:mod:`pegboard.rules.report`
turns the notes into the entry's report): a fact, or what makes it (a fact only the report
reads, and the board after each scoring act, are made when the report is first read)."""


class Rewind(Value):
    """The play as it stood just before a go: where a renege's take-back returns to.

    ``moves`` counts the plays and goes of the deal before this one (it orders the goes);
    ``awards`` is how many awards the game had then; ``scores`` and ``back_pegs`` where the
    pegs stood.
    """

    __slots__ = (
        "awards",
        "back_pegs",
        "call",
        "count",
        "last_player",
        "moves",
        "muggins",
        "pile",
        "played",
        "said_go",
        "scores",
        "seen",
    )
    __match_args__ = (
        "count", "pile", "last_player", "said_go", "played", "seen", "moves", "awards", "scores",
        "back_pegs", "muggins", "call",
    )

    count: int
    pile: tuple[Card, ...]
    last_player: int | None
    said_go: frozenset[int]
    played: tuple[tuple[Card, ...], ...]
    seen: frozenset[Card]
    moves: int
    awards: int
    scores: tuple[int, ...]
    back_pegs: tuple[int, ...]
    muggins: PendingMuggins | None
    """The muggins window open at the go (points missed before it)."""
    call: OpenCall | None

    def __init__(
        self,
        count: int,
        pile: tuple[Card, ...],
        last_player: int | None,
        said_go: frozenset[int],
        played: tuple[tuple[Card, ...], ...],
        seen: frozenset[Card],
        moves: int,
        awards: int,
        scores: tuple[int, ...],
        back_pegs: tuple[int, ...],
        muggins: PendingMuggins | None = None,
        call: OpenCall | None = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "count", count)
        setter(self, "pile", pile)
        setter(self, "last_player", last_player)
        setter(self, "said_go", said_go)
        setter(self, "played", played)
        setter(self, "seen", seen)
        setter(self, "moves", moves)
        setter(self, "awards", awards)
        setter(self, "scores", scores)
        setter(self, "back_pegs", back_pegs)
        setter(self, "muggins", muggins)
        setter(self, "call", call)
    """The claim open to a call at the go, right or short."""


class GoMark(Value):
    """A go, remembered so it can be checked for a renege once the hand is known, with the
    play as it stood before it (a renege penalty takes the play back there)."""

    __slots__ = ("count", "played_before", "player", "rewind")
    __match_args__ = ("player", "count", "played_before", "rewind")

    player: int
    count: int
    played_before: int
    rewind: Rewind

    def __init__(self, player: int, count: int, played_before: int, rewind: Rewind) -> None:
        setter = object.__setattr__
        setter(self, "player", player)
        setter(self, "count", count)
        setter(self, "played_before", played_before)
        setter(self, "rewind", rewind)


class Table:
    """The mutable working state. Only :class:`Game` touches it, always on a fresh copy."""

    def __init__(self, header: GameHeader) -> None:
        self.names = header.players
        self.rules = header.rules
        self.version = header.version
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
        # Seats that confirmed the result, and the director who confirmed it for the table.
        self.confirmed: frozenset[int] = frozenset()
        self.locked = header.club is not None and header.club.lock  # the tournament lock
        self.override: str | None = None
        self.offers: tuple[PenaltyOffer, ...] = ()
        self.take_backs: tuple[TakeBack, ...] = ()
        self.retracted: frozenset[int] = frozenset()  # indices into awards taken back
        self.pending_claims: tuple[PendingClaim, ...] = ()
        self.claim_acts: tuple[Act, ...] = ()
        self.pending_muggins: PendingMuggins | None = None
        # The claim an opponent may call muggins on now, right or short (its window).
        self.call: OpenCall | None = None
        self.notes: list[Note] = []  # this entry's facts, in order; fresh on every copy
        # The last muggins window that shut untaken, and what shut it (for a true refusal).
        self.lapsed_muggins: tuple[PendingMuggins, str] | None = None
        self.options: TableOptions = header.table  # changed by option entries
        self._new_deal_state()

    def _new_deal_state(self) -> None:
        # A deal dealt and not yet reported over (:class:`~pegboard.rules.facts.DealEnded`):
        # set by the deal itself, so a misdeal's redeal leaves no deal to end.
        self.deal_open = False
        self.starter: Card | None = None
        self.starter_suit_known = True  # False: a stand-in suit (only the rank was entered)
        # Every card of the deal entered whole (its suit the player's): a named starter
        # entered without ``by_rank``, as the command line enters cards.
        self.cards_whole = True
        self.starter_suit: Suit | None = None  # the suit entered, at the cut or when asked
        self.asked: SuitQuestion | None = None  # a count waiting for the starter's suit
        self.count = 0
        self.pile: tuple[Card, ...] = ()
        self.played: list[tuple[Card, ...]] = [()] * self.n
        self.said_go: frozenset[int] = frozenset()
        self.last_player: int | None = None
        self.to_act: int | None = None
        self.seen: frozenset[Card] = frozenset()
        self.shown: list[tuple[Card, ...] | None] = [None] * self.n
        self.dealt: list[tuple[Card, ...] | None] = [None] * self.n
        self.laid_away: list[tuple[Card, ...] | None] = [None] * self.n
        # Cards laid with their suits named in a deal entered by rank (``Play.named``): kept
        # through a renege's take-back, as what was entered of a card is.
        self.named_laid: frozenset[Card] = frozenset()
        self.crib: tuple[Card, ...] | None = None
        self.held_counts: tuple[HeldCount, ...] = ()  # count it yourself (rules/own_count)
        self.gos: tuple[GoMark, ...] = ()
        self.play_started = False
        self.show_index = 0
        self.moves = 0  # plays and goes this deal
        # Renege reports of this deal, by their index in offers, with the go they are about.
        self.renege_marks: tuple[tuple[int, GoMark], ...] = ()
        # Hands known when a renege was taken back: their cards are laid again from them.
        self.known: list[tuple[Card, ...] | None] = [None] * self.n
        # Offers found from here on are this deal's (a false claim's offer lapses with it).
        self.deal_offers = len(self.offers)
        self.deal_awards = len(self.awards)  # awards from here on were pegged in this deal

    def copy(self) -> Table:
        new = object.__new__(Table)
        new.__dict__.update(self.__dict__)
        new.scores = list(self.scores)
        new.back_pegs = list(self.back_pegs)
        new.played = list(self.played)
        new.shown = list(self.shown)
        new.dealt = list(self.dealt)
        new.laid_away = list(self.laid_away)
        new.known = list(self.known)
        new.notes = []
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
        """The player's kept hand, when known: all laid in the play, shown, or known before a
        renege's take-back."""
        if self.known[player] is not None:
            return self.known[player]
        if self.shown[player] is not None:
            return self.shown[player]
        if len(self.played[player]) == self.hand_size:
            return self.played[player]
        return self.kept(player)

    def suit_named(self, card: Card) -> bool:
        """Whether a player entered ``card``'s suit this deal (:meth:`GameState.suit_entered`):
        every card of a deal entered whole, else a dealt hand's card, a card laid with its
        suit named, or the starter when its suit was named."""
        if self.starter_suit_known and self.cards_whole:
            return True
        if card in self.named_laid or any(card in dealt for dealt in self.dealt if dealt):
            return True
        return card == self.starter and self.starter_suit is card.suit

    def said(self, card: Card) -> str:
        """``card`` as a refusal names it: by its rank alone when its suit was not entered
        (its suit is the card wheel's stand-in, no fact), else whole ("5", "5H")."""
        if self.suit_named(card):
            return str(card)
        return EnteredCard(card.rank, None).short

    def said_all(self, cards: Iterable[Card]) -> str:
        """Cards as a refusal lists them (:meth:`said`), separated by spaces."""
        return " ".join(self.said(card) for card in cards)

    def said_in_words(self, cards: Iterable[Card]) -> str:
        """Cards as a refusal's words list them (:class:`RuleError`'s ``words``): one entered
        by its rank alone by its rank in words ("four"), one whose suit was entered as
        :meth:`said` names it ("5H"), listed "5H, four and six"."""
        said = [str(card) if self.suit_named(card) else card.rank.spoken for card in cards]
        return said[0] if len(said) < 2 else f"{', '.join(said[:-1])} and {said[-1]}"

    def held_refusal(self, holder: int, before: str, cards: Iterable[Card],
                     after: str = "") -> RuleError:
        """A refusal naming cards ``holder`` holds, between ``before`` and ``after``: the
        box's message lists them as :meth:`said_all` does, its words (for a phone) as
        :meth:`said_in_words` does."""
        held = tuple(cards)
        return RuleError(f"{before}{self.said_all(held)}{after}",
                         words=f"{before}{self.said_in_words(held)}{after}", holder=holder)

    def seen_refusal(self, card: Card) -> RuleError:
        """Why a card already seen this deal cannot be entered again, worded from what is
        known: a card whose suit was entered by name, and a card entered by its rank alone
        (its suit the card wheel's stand-in, no fact) by its rank."""
        if self.suit_named(card):
            return RuleError(f"{card} was already seen this deal ({where_seen(self, card)})")
        place = "the starter" if card == self.starter else where_seen(self, card)
        return self.stand_in_refusal(card, place)

    def stand_in_refusal(self, card: Card, place: str, holder: int | None = None,
                         ) -> RuleError:
        """A card named with its suit where a card entered by its rank alone stands (at
        ``place``; in ``holder``'s hand, when a seat holds it): the refusal says what is
        known, the rank, and names no suit as held (its words name the rank in words: "the
        eight entered by its rank alone")."""
        free = [other for other in (Card(card.rank, suit) for suit in Suit)
                if other not in self.seen and not self.suit_named(other)
                and not any(other in (known or ()) for known in self.known)]
        if not free:
            message = ("{card} cannot be entered: every {label} of the deal is entered "
                       "already (one {place}, by its rank alone)")
        else:
            message = ("{card} cannot be entered as it stands: the {label} entered by its "
                       "rank alone ({place}) was given that suit, and moves to another first")
        return RuleError(
            message.format(card=card, label=EnteredCard(card.rank, None).short, place=place),
            words=message.format(card=card, label=card.rank.spoken, place=place),
            holder=holder)

    def kept(self, player: int) -> tuple[Card, ...] | None:
        """The hand the player kept, when their dealt cards and the cards they laid away
        were both entered: the dealt cards less those laid away."""
        dealt, away = self.dealt[player], self.laid_away[player]
        if dealt is None or away is None:
            return None
        return tuple(card for card in dealt if card not in away)

    def crib_known(self) -> tuple[Card, ...] | None:
        """The crib, when every card of it is known from the cards laid away (each player's
        entered; never with three players, whose crib takes a card from the pack)."""
        away = [card for cards in self.laid_away if cards is not None for card in cards]
        if len(away) != 4 or any(cards is None for cards in self.laid_away):
            return None
        return tuple(away)

    def show_order(self) -> list[int]:
        assert self.dealer is not None
        return [(self.dealer + k) % self.n for k in range(1, self.n + 1)]

    def rewind_point(self) -> Rewind:
        """The play as it stands now, for a go about to be said."""
        return Rewind(
            count=self.count, pile=self.pile, last_player=self.last_player,
            said_go=self.said_go, played=tuple(self.played), seen=self.seen,
            moves=self.moves, awards=len(self.awards), scores=tuple(self.scores),
            back_pegs=tuple(self.back_pegs), muggins=self.pending_muggins,
            call=self.call,
        )

    def note(self, fact: Fact) -> None:
        """Report ``fact`` for the entry being applied (in the order things happen)."""
        self.notes.append(fact)

    def note_later(self, make: partial[Fact]) -> None:
        """Report the fact ``make`` makes, in its place among the entry's facts, made when the
        entry's report is first read: what it is made of is taken now, and only the values
        the report alone reads are made later (a restored game reads the last few reports)."""
        self.notes.append(make)

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

    # Muggins window ------------------------------------------------------------------------

    def open_muggins(self, missed: PendingMuggins) -> None:
        """Points were missed: open to an opponent's muggins until the next score is pegged."""
        self.pending_muggins = missed
        self.lapsed_muggins = None

    def open_call(self, call: OpenCall) -> None:
        """A claim was made (or a score passed over with points open to muggins): an opponent
        may call on it until its window shuts, whether or not points were missed."""
        if self.winner is None:
            self.call = call

    def close_muggins(self, why: str) -> None:
        """The muggins window shuts untaken (``why`` says what shut it), and with it the
        chance to call on the last claim."""
        self.call = None
        if self.pending_muggins is not None:
            self.lapsed_muggins = (self.pending_muggins, why)
            self.pending_muggins = None

    # Pegging -------------------------------------------------------------------------------

    def peg(self, act: Act, out: list[Award], *, claimable: bool = True) -> None:
        """Peg one scoring act whole (or queue it for a claim in a muggins game)."""
        if self.winner is not None or not act.parts:
            return
        if claimable and self.rules.muggins:
            self.claim_acts = (*self.claim_acts, act)
            first = act.parts[0]
            items = tuple(item for part in act.parts for item in part.items)
            owed = tuple(Owed(part.reason, part.points, part.items) for part in act.parts)
            claim = PendingClaim(act.player, act.points, first.reason, items, owed)
            self.pending_claims = (*self.pending_claims, claim)
            self.note(ClaimOpened(claim))
            return
        side = self.side(act.player)
        before = self.scores[side]
        moved: list[int] = []
        left = before
        for part in act.parts:
            points = part.points
            if points < 0:
                points = -min(-points, left)  # never below 0
            left += points
            moved.append(points)
        if any(moved):
            # A score pegged: points missed before it can no longer be taken (ACC 10). An act
            # that moves no peg (points back from a side on 0) pegs nothing, so the window
            # stays as it was. What shut it is worded only when points were open to lapse.
            self.close_muggins("" if self.pending_muggins is None else (
                f"{self.name(act.player)} has pegged {number(abs(sum(moved)))} since"))
        start = len(out)
        for part, points in zip(act.parts, moved, strict=True):
            self.scores[side] += points
            said = part.sentence
            if isinstance(said, str):
                award = Award(
                    player=act.player, side=side, points=points, reason=part.reason,
                    sentence=f"{self.name(act.player)}: {said}",
                    items=part.items, cards=part.cards,
                )
            else:  # a count: its words are made when first read, naming the seat
                name = self.name(act.player)
                words = said if said.owner == name else CountWords(
                    name, said.crib, said.cards, said.breakdown, said.entered)
                award = Award.counted(act.player, side, points, part.reason, words,
                                      part.items, part.cards)
            self.awards = (*self.awards, award)
            out.append(award)
        if self.scores[side] != before:
            self.back_pegs[side] = before
        self.notes.append(partial(Pegged, act.player, start, len(out), tuple(self.scores),
                                  tuple(self.back_pegs)))
        if self.scores[side] >= self.rules.target:
            self.end_game(side)

    def end_game(self, side: int) -> None:
        self.winner = side
        self.phase = Phase.GAME_OVER
        self.to_act = None
        self.pending_claims = ()
        self.claim_acts = ()
        self.pending_muggins = None
        self.call = None
        self.result = game_result(self.rules, tuple(self.scores), side)
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
            last_player=self.last_player,
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
            open_call=self.call,
            offers=self.offers,
            dealt=tuple(self.dealt),
            laid_away=tuple(self.laid_away),
            named_laid=self.named_laid,
            unchecked_gos=tuple(
                UncheckedGo(mark.player, mark.count, self.cards_left(mark.player))
                for mark in self.gos if self.hand(mark.player) is None
            ),
            take_backs=self.take_backs,
            starter_suit_known=self.starter_suit_known, held_counts=self.held_counts,
            cards_whole=self.cards_whole,
            turned=None if self.starter is None else EnteredCard(self.starter.rank,
                                                                  self.starter_suit),
            asked=self.asked, asks_suit=self.version >= 7,
            deal_reneges=frozenset(i for i, _ in self.renege_marks),
            hands_open=self.options.hands_open,
        )


def side_name(t: Table, side: int) -> str:
    """The names of the players of one side, joined ("Ann & Cat")."""
    members = [t.names[p] for p in range(t.n) if t.side(p) == side]
    return " & ".join(members)


def phase_message(t: Table, doing: str) -> str:
    """Why ``doing`` is not possible in the current phase, and what comes next."""
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


def distinct(cards: tuple[Card, ...], what: str) -> None:
    """Reject a card named twice, as a rule error."""
    try:
        require_distinct(cards, what)
    except InvalidCardError as error:
        raise RuleError(str(error)) from None


def where_seen(t: Table, card: Card) -> str:
    """Where a card already seen this deal was seen, for error messages."""
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
