"""Following the device: its record matched to the real cards, the truth and the ledger
kept in step, and the count pages and award lines the table must see.

Every entry the device writes to its store is matched to the real card (or hand, crib,
claim, muggins call) it stands for and played through the truth; the table's state after
each entry is kept, so when an UNDO line takes entries back the table goes back exactly
there. Entries written again with other suits (a hand resuited for a flush or nobs) are the
same entries and change nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from pegboard.errors import PegboardError
from pegboard.rules.cards import Card, Rank
from pegboard.rules.events import (
    Claim,
    Crib,
    Cut,
    Deal,
    Event,
    GameHeader,
    Go,
    Muggins,
    OptionsChanged,
    Play,
    Show,
    Starter,
)
from pegboard.rules.show import score_hand
from pegboard.rules.state import Phase
from tests.conformance.deal import (
    GameSpec,
    RealDeal,
    cut_cards,
    deal_cards,
    fact_label,
    fact_points,
    rng_at,
)
from tests.conformance.device import Device, parse_record
from tests.conformance.truth import Act, DealTruth, Ledger, Part

RATES = {
    "forget": 0.5, "fix": 0.7, "under": 0.12, "over": 0.08, "call": 0.6, "undo": 0.04,
    "restart": 0.02, "illegal": 0.08,
}
"""How often each scripted mistake is made where it can be."""
MAX_RESTARTS = 2
MAX_ILLEGAL = 3
MAX_SCREENS = 6000
Key = tuple[int, bool]
"""A hand (seat, False) or a crib (dealer, True)."""
Spoken = tuple[tuple[str, Part], ...]
AwardWant = Spoken | str | None
"""What the award line must say: these awards (by name), this very text, or anything."""
Shape = tuple[object, ...]


def claimed_words(name: str, kind: str, points: int) -> str:
    """A hand's or crib's claim as the award line says it, the fullest wording that fits its
    21 characters: "Ann's crib: claimed 6", "Ann claimed 12 (crib)", "Margaret claimed 12",
    "Crib: claimed 12"."""
    for words in (f"{name}'s {kind}: claimed {points}", f"{name} claimed {points} ({kind})",
                  f"{name} claimed {points}"):
        if len(words) <= 21:
            return words
    return f"{kind.capitalize()}: claimed {points}"


class Mismatch(Exception):
    """The device showed or recorded something other than the truth."""


WHEEL_FACT = "app: a flush or nobs the wheel does not offer"
NO_ROOM = "app: a flush or nobs GO cannot add (other stand-ins hold its cards)"
SILENT = "app: a card that cannot be played ignored without a page (keypad)"
FINDINGS = (WHEEL_FACT, NO_ROOM, SILENT)
"""The app bugs the harness knows, noted (each with its first example) rather than failed:
the stand-in suits of other hands can hold the cards a real flush or nobs needs, so the play
wheel does not offer it (and, where GO cannot move them either, the show cannot add it);
the keypad ignores a card that cannot be played without saying why. (Three more it found
are fixed and now fail the game if they come back: an under-claimed run said as "Run of 0",
three for last pegged unsaid when the deal was cut for, and a "No muggins" that was not
recorded, so a restart asked again.)"""


@dataclass(frozen=True, slots=True)
class Place:
    """Where the table is after some entries (what UNDO returns to): the ledger, the deal
    and its real entries, who deals next, and the hands entered without a fact the wheel
    did not offer."""

    ledger: Ledger
    deal: RealDeal | None = None
    real: tuple[Event, ...] = ()
    dealer: int | None = None
    deal_no: int = 0
    cut_attempt: int = 0
    fallback: frozenset[Key] = frozenset()


@dataclass(slots=True)
class PageWant:
    """A count page the table must see: whose, its count first shown, its count once put
    right (``fix`` is the fact GO must add), what was claimed, and the page's award line."""

    player: int
    crib: bool
    first: int | None
    final: int
    said: int | None = None
    fix: str | None = None
    award: AwardWant = None


@dataclass
class GameReport:
    """What one game did: mismatches, mistakes injected, notes, and its figures."""

    spec: GameSpec
    mismatches: list[str] = field(default_factory=list)
    mistakes: Counter[str] = field(default_factory=Counter)
    notes: Counter[str] = field(default_factory=Counter)
    examples: dict[str, str] = field(default_factory=dict)
    checks: int = 0
    deals: int = 0
    keys: int = 0
    entries: int = 0
    scores: tuple[int, ...] = ()
    winner: int | None = None
    seconds: float = 0.0


def shape(event: Event) -> Shape:
    """An entry without its suits (a resuited hand is the same entry)."""
    values: list[object] = [type(event).__name__]
    for name in event.__slots__:
        value = getattr(event, name)
        if isinstance(value, Card):
            value = value.rank
        elif isinstance(value, tuple):
            value = tuple(sorted(v.rank for v in value)) if value and isinstance(
                value[0], Card) else value
        values.append(value)
    return tuple(values)


class Follower:
    """The table's memory of one game: what the device recorded, matched to the truth."""

    def __init__(self, spec: GameSpec, device: Device, *,
                 distort: Callable[[Act], Act] | None = None) -> None:
        if device.config.input.kit != spec.kit:
            raise ValueError(f"a {spec.kit} game needs a {spec.kit} device")
        self.spec = spec
        self.names = spec.names
        self.rules = spec.rules()
        self.distort = distort
        self.report = GameReport(spec)
        self.device = device
        self.place = Place(Ledger.start(self.rules, spec.players))
        self.places: list[Place] = [self.place]
        self.shapes: list[Shape] = []
        self.events: list[Event] = []
        self.raw = 0
        self.truth: DealTruth | None = None
        self.pages: list[PageWant] = []
        self.withheld: list[PageWant] = []
        """Muggins: the page of the hand's or crib's claim an opponent may still call on,
        kept back until that window closes (the next claim, a call or "no muggins", the
        next score pegged, the end of the game)."""
        self.across = False
        """The page kept back is a crib's whose window stayed open across the next deal: it
        comes if the window shuts before that deal begins, and never once it has."""
        self.in_view = False
        """The crib's claim stays on the award line across the next deal while its muggins
        window is open (the starter does not shut it); the line clears when it shuts."""
        self.window = False
        """A hand's or crib's claim is open to a muggins call (its page, when it has one, is
        kept back meanwhile; a right claim's has none but with teaching)."""
        self.helds: list[tuple[tuple[PageWant, ...], bool, bool, bool]] = [
            ((), False, False, False)]
        """What was kept back after each entry (an undo or a restart goes back to it: the
        device reads it off the record)."""
        self.ended: Spoken | None = None
        """The awards the end-of-the-play page must name (a card or go that ended the play
        and pegged), before any count page."""
        self.award: AwardWant = ()
        self.intent: Card | None = None
        self.pending_fallback: Key | None = None
        self.missed_now = 0
        self.count_claimed: str | None = None
        """What the award line says after a hand's or crib's claim (muggins games)."""
        self.undo_next: int | None = None
        self.redo: tuple[int, Shape] | None = None
        self.done: set[tuple[str, int]] = set()
        self.settled: dict[tuple[int, Key], int] = {}
        self.entry_before = self.place.ledger
        self.entry_acts: list[tuple[Act, PageWant | None]] = []
        self._forgot: dict[int, dict[Key, bool]] = {}

    # -- following the record ------------------------------------------------------------

    def sync(self) -> None:
        """Follow what the device wrote: undo lines take entries back (the table goes back
        to where it was), new entries are matched to the real cards and played through the
        truth. A resuited hand (the same entries with other suits) is no new entry."""
        records = self.device.records()
        if len(records) < self.raw:
            return  # the game went into the history
        low = len(self.events)
        for record in records[self.raw:]:
            kind = record.get("type")
            if kind == "game":
                self._header(parse_record(record))
            elif kind == "undo":
                self.events.pop()
                low = min(low, len(self.events))
            else:
                event = parse_record(record)
                assert not isinstance(event, GameHeader)
                self.events.append(event)
        self.raw = len(records)
        same = min(low, len(self.shapes))
        while same < len(self.shapes) and same < len(self.events) and \
                shape(self.events[same]) == self.shapes[same]:
            same += 1
        if same < len(self.shapes):
            self._go_back(same)
        for event in self.events[len(self.shapes):]:
            at = len(self.shapes)
            if self.redo is not None and self.redo[0] == at:
                if shape(event) != self.redo[1]:
                    raise Mismatch(f"after UNDO {self.redo[1]} was entered as {shape(event)}")
                self.redo = None
            self._process(event)
            self.shapes.append(shape(event))
            self.places.append(self.place)
            self.helds.append((tuple(self.withheld), self.across, self.in_view, self.window))

    def _header(self, header: Event | GameHeader) -> None:
        assert isinstance(header, GameHeader)
        if header.players != self.names or header.rules != self.rules or \
                header.table.teaching != self.spec.teaching:
            raise Mismatch(f"the game was set up as {header}, not {self.spec.label()}")

    def _go_back(self, count: int) -> None:
        self.place = self.places[count]
        del self.places[count + 1:]
        del self.shapes[count:]
        self.pages.clear()
        held, self.across, self.in_view, self.window = self.helds[count]
        del self.helds[count + 1:]
        self.withheld = list(held)  # kept back as it was then: the device reads the record
        self.ended = None
        deal = self.place.deal
        self.truth = None
        if deal is not None:
            self.truth = DealTruth(self.names, self.rules, deal.dealer)
            self.truth.restore(list(self.place.real))

    def _process(self, event: Event) -> None:
        place = self.place
        ledger = replace(place.ledger, pegged=())
        if isinstance(event, OptionsChanged):
            return
        in_view = self.in_view
        if self.across and not isinstance(event, Deal | Muggins):
            self.withheld.clear()  # the next deal has begun: the crib's page never comes
            self.across = False
        if isinstance(event, Cut):
            self.place = self._cut_made(event, place)
            return
        if isinstance(event, Deal):
            self.across = self.window
            self.place = self._new_deal(event, replace(place, ledger=ledger))
            self.in_view = self.across
            self._say(self.place.ledger, event)
            return
        truth, deal = self.truth, place.deal
        if truth is None or deal is None:
            raise Mismatch(f"{type(event).__name__} entered before any deal")
        gs = truth.state
        real: Event | None = None
        if isinstance(event, Starter):
            if event.card.rank is not deal.starter.rank:
                raise Mismatch(f"starter {event.card.rank.symbol}, dealt {deal.starter}")
            real = Starter(deal.starter)
        elif isinstance(event, Play | Go | Show):
            real = self._real_card(event, deal)
        elif isinstance(event, Crib):
            if sorted(c.rank for c in event.cards) != sorted(c.rank for c in deal.crib):
                raise Mismatch(f"crib entered {event.cards}, really {deal.crib}")
            real = Crib(deal.crib)
        elif isinstance(event, Claim):
            ledger = self._claimed(event, ledger)
        elif isinstance(event, Muggins):
            ledger = self._called(event, ledger)
        else:
            raise Mismatch(f"unexpected entry {event}")
        if real is not None:
            if gs.phase is Phase.GAME_OVER:
                raise Mismatch(f"{event} entered after the game ended")
            try:
                acts = truth.apply(real)
            except PegboardError as error:  # the truth refuses: the device let it through
                raise Mismatch(f"the device took {event}, the truth refuses: {error}") from None
            fallback = place.fallback
            if self.pending_fallback is not None:
                fallback |= {self.pending_fallback}
                self.pending_fallback = None
            place = replace(place, real=(*place.real, real), fallback=fallback)
            self.place = place
            ledger = self._score(acts, ledger, event)
            if ledger.winner is not None or any(part.points for _, part in ledger.pegged):
                self.release()  # the next score pegged (his heels), or the game over
        self.place = replace(self.place, ledger=ledger)
        self._say(ledger, event, left=in_view and not self.in_view)
        if isinstance(event, Starter | Play | Go | Show | Crib | Claim | Muggins):
            self._maybe_undo()

    def _say(self, ledger: Ledger, event: Event, *, left: bool = False) -> None:
        """What the award line says after an entry: what it pegged in the play, else ""
        after a card or a go, and at a new deal (the last deal's last award is not this
        deal's), unless the crib's claim is still open to a muggins call across it, until
        that window shuts (``left``); else what it said before."""
        spoken = self._spoken(ledger)
        claimed, self.count_claimed = self.count_claimed, None
        if spoken:
            self.award = spoken
        elif claimed is not None and isinstance(event, Claim):
            self.award = claimed
        elif isinstance(event, Play | Go) or left or (
                isinstance(event, Deal) and not self.across):
            self.award = ()

    def _spoken(self, ledger: Ledger) -> Spoken:
        return tuple((self.names[p], part) for p, part in ledger.pegged
                     if part.reason not in ("hand", "crib"))

    def _cut_made(self, event: Cut, place: Place) -> Place:
        cards = cut_cards(self.spec, place.cut_attempt)
        if [c.rank for c in event.cards] != [c.rank for c in cards]:
            raise Mismatch(f"cut entered {event.cards}, really {cards}")
        low = min(int(c.rank) for c in cards)
        lowest = [p for p, c in enumerate(cards) if int(c.rank) == low]
        if len(lowest) > 1:
            return replace(place, cut_attempt=place.cut_attempt + 1)
        return replace(place, dealer=lowest[0])

    def _new_deal(self, event: Deal, place: Place) -> Place:
        dealer = event.dealer if event.dealer is not None else place.dealer
        if dealer is None or (place.dealer is not None and dealer != place.dealer):
            raise Mismatch(f"deal by {dealer}, expected {place.dealer}")
        number = place.deal_no + 1
        deal = deal_cards(self.spec, number, dealer)
        self.truth = DealTruth(self.names, self.rules, dealer)
        ledger = place.ledger.new_deal()
        if number == 1:
            for act in self.truth.opening:
                ledger = ledger.score(act)
        self.pages.clear()
        return Place(ledger, deal, (), (dealer + 1) % self.spec.players, number,
                     place.cut_attempt)

    def _real_card(self, event: Play | Go | Show, deal: RealDeal) -> Event:
        assert self.truth is not None
        gs = self.truth.state
        p = event.player
        who = self.names[p]
        if isinstance(event, Show):
            if gs.phase is not Phase.SHOW or gs.to_act != p:
                raise Mismatch(f"{who}'s hand shown, the truth is at {gs.phase.value}")
            if sorted(c.rank for c in event.cards) != sorted(c.rank for c in deal.kept[p]):
                raise Mismatch(f"{who}'s hand entered {event.cards}, really {deal.kept[p]}")
            return Show(p, deal.kept[p])
        if gs.phase is not Phase.PLAY or gs.to_act != p:
            turn = self.names[gs.to_act] if gs.to_act is not None else gs.phase.value
            raise Mismatch(f"{who} entered {event}, but it is {turn}'s turn")
        held = [c for c in deal.kept[p] if c not in gs.played[p]]
        if isinstance(event, Go):
            if any(gs.count + c.pips <= 31 for c in held):
                raise Mismatch(f"a go recorded for {who}, who can play")
            return Go(p)
        same = [c for c in held if c.rank is event.card.rank]
        if not same:
            raise Mismatch(f"{who} played {event.card.rank.symbol}, holding {held}")
        return Play(p, self.intent if self.intent in same else same[0])

    def _score(self, acts: list[Act], ledger: Ledger, event: Event) -> Ledger:
        first_page = len(self.pages)
        self.entry_before, self.entry_acts = ledger, []
        for act in acts:
            if self.distort is not None:
                act = self.distort(act)
            page = None
            if act.counted:
                act, page = self._counted(act)
            self.entry_acts.append((act, page))
            before = ledger
            ledger = ledger.score(act)
            if page is not None and not self.rules.muggins and before.winner is None:
                self.pages.append(page)
        spoken = self._spoken(ledger)
        truth = self.truth
        if isinstance(event, Play | Go) and spoken and ledger.winner is None and (
                truth is not None and truth.state.phase is not Phase.PLAY):
            self.ended = spoken  # its own page says it; the first count has no award line
            spoken = ()
        if len(self.pages) > first_page:
            self.pages[first_page].award = spoken
        return ledger

    def _plan(self, player: int, crib: bool, real: int) -> tuple[int | None, int, str | None]:
        """A count's page as the table should see it: first shown, once put right, and the
        fact GO must add (None: nothing)."""
        deal = self.place.deal
        assert deal is not None
        cards = deal.crib if crib else deal.kept[player]
        key = (player, crib)
        label = fact_label(cards, deal.starter, crib=crib)
        final = self.settled.get((deal.number, key), real)
        if key in self.place.fallback:
            return None, final, label
        fixed = self._forgotten().get(key)
        if fixed is None:
            return real, real, None
        plain = real - fact_points(cards, deal.starter, crib=crib)
        return plain, final if fixed else plain, label if fixed else None

    def _counted(self, act: Act) -> tuple[Act, PageWant]:
        crib = act.kind == "crib"
        first, final, fix = self._plan(act.player, crib, act.points)
        forgotten = self._forgotten().get((act.player, crib))
        if forgotten is not None:
            self._mistake("flush or nobs forgotten, put right with GO" if forgotten
                          else "flush or nobs forgotten, never put right", len(self.shapes))
        return replace(act, points=final), PageWant(act.player, crib, first, final, fix=fix)

    def settle(self, player: int, crib: bool, points: int) -> None:
        """A count whose real flush or nobs cannot be entered (a known app bug): the table
        goes on with the count the device could be given, ``points``, in place of the real
        one; the acts of its entry are pegged again (the game may end elsewhere)."""
        deal = self.place.deal
        assert deal is not None
        cards = deal.crib if crib else deal.kept[player]
        real = score_hand(cards, deal.starter, crib=crib).total
        if not real - fact_points(cards, deal.starter, crib=crib) <= points <= real:
            raise Mismatch(f"the device counts {points} for {self.names[player]}'s "
                           f"{'crib' if crib else 'hand'}, really {real}")
        self.settled[(deal.number, (player, crib))] = points
        kind = "crib" if crib else "hand"
        ledger = self.place.ledger
        if self.rules.muggins:
            act = ledger.next_act
            assert act is not None and (act.player, act.kind) == (player, kind)
            ledger = replace(ledger, waiting=(replace(act, points=points), *ledger.waiting[1:]))
        else:
            ledger, later, seen = self.entry_before, [], False
            for at, (act, page) in enumerate(self.entry_acts):
                if act.counted and (act.player, act.kind) == (player, kind):
                    act, seen = replace(act, points=points), True
                    self.entry_acts[at] = (act, page)
                    if page is not None:
                        page.final = points
                elif seen and page is not None and ledger.winner is None:
                    later.append(page)
                ledger = ledger.score(act)
            self.pages[1:] = later
        self.place = replace(self.place, ledger=ledger)
        self.places[-1] = self.place

    def app_count(self, player: int, crib: bool) -> int:
        """What the device counts for a hand or crib: its recorded cards (stand-in suits and
        all) with its recorded starter."""
        start = max(i for i, e in enumerate(self.events) if isinstance(e, Deal))
        deal = self.events[start:]
        starter = next(e.card for e in deal if isinstance(e, Starter))
        cards: tuple[Card, ...]
        if crib:
            cards = next(e.cards for e in deal if isinstance(e, Crib))
        else:
            shown = [e.cards for e in deal if isinstance(e, Show) and e.player == player]
            cards = shown[0] if shown else tuple(
                e.card for e in deal if isinstance(e, Play) and e.player == player)
        return score_hand(cards, starter, crib=crib).total

    def _forgotten(self) -> dict[Key, bool]:
        """The hands and cribs of this deal entered without their flush or nobs, each with
        whether the player puts it right at the show.

        His nobs is never forgotten when all four jacks are in play: the last jack entered
        must then be the starter's suit, so a stand-in makes the nobs after all (and gives it
        to whoever entered that jack: a known app bug, reported, not played here)."""
        deal = self.place.deal
        if deal is None or not self.spec.mistakes:
            return {}
        if deal.number not in self._forgot:
            chosen: dict[Key, bool] = {}
            keys = [(p, False) for p in range(self.spec.players)] + [(deal.dealer, True)]
            in_play = [c for hand in deal.kept for c in hand] + [*deal.crib, deal.starter]
            jacks = sum(1 for c in in_play if c.rank is Rank.JACK)
            for player, crib in keys:
                cards = deal.crib if crib else deal.kept[player]
                rng = rng_at(self.spec.seed, deal.number, player, int(crib), 3)
                nobs = any(c.rank is Rank.JACK and c.suit is deal.starter.suit for c in cards)
                if nobs and jacks == 4:
                    continue
                if fact_points(cards, deal.starter, crib=crib) and rng.random() < RATES["forget"]:
                    chosen[(player, crib)] = rng.random() < RATES["fix"]
            self._forgot = {deal.number: chosen}
        return self._forgot[deal.number]

    def release(self) -> None:
        """The muggins window on the claim kept back closed: its page comes now."""
        self.pages.extend(self.withheld)
        self.withheld.clear()
        self.window = False
        self.across = False
        self.in_view = False

    def _claimed(self, event: Claim, ledger: Ledger) -> Ledger:
        self.release()  # the next claim closes the window on the last
        act = ledger.next_act
        if act is None or act.player != event.player:
            raise Mismatch(f"{self.names[event.player]} claimed with nothing waiting")
        at = len(self.shapes)
        self.missed_now = max(0, act.points - event.points)
        if event.points < act.points:
            self._mistake("under-claim", at)
        elif event.points > act.points:
            self._mistake("over-claim", at)
        ledger = ledger.claim(event.points)
        if act.counted:
            # The claim stays on the award line, where the other side judges it.
            self.count_claimed = claimed_words(self.names[act.player], act.kind, event.points)
        if act.counted:
            # The page comes once no muggins can be called on the claim (ACC 10); a right
            # claim's then only with teaching (nothing is left to call on it).
            page = PageWant(act.player, act.kind == "crib", act.points, act.points,
                            said=event.points, award=())
            if ledger.winner is not None:
                self.pages.append(page)
            else:
                self.window = True
                if event.points != act.points or self.spec.teaching:
                    self.withheld.append(page)
        return ledger

    def _called(self, event: Muggins, ledger: Ledger) -> Ledger:
        self.release()  # a call, or "no muggins", closes the window
        missed = ledger.missed
        if event.points == 0:
            return ledger.decline()  # "No muggins", recorded
        if missed is None or event.points != missed[1]:
            raise Mismatch(f"muggins {event.points} called, missed {missed}")
        if self.rules.side_of(event.player, self.spec.players) == \
                self.rules.side_of(missed[0], self.spec.players):
            raise Mismatch(f"{self.names[event.player]} called muggins on their own side")
        self._mistake("muggins called", len(self.shapes))
        return ledger.call(event.player)

    # -- mistakes ------------------------------------------------------------------------

    def _mistake(self, kind: str, at: int) -> None:
        if (kind, at) not in self.done:
            self.done.add((kind, at))
            self.report.mistakes[kind] += 1

    def _note(self, kind: str, example: str) -> None:
        self.report.notes[kind] += 1
        self.report.examples.setdefault(
            kind, f"{self.spec.label()}, deal {self.place.deal_no}: {example}")

    def _chance(self, kind: str, *where: int) -> bool:
        if not self.spec.mistakes:
            return False
        return rng_at(self.spec.seed, len(self.shapes), *where,
                      sum(map(ord, kind))).random() < RATES[kind]

    def _maybe_undo(self) -> None:
        at = len(self.shapes) + 1
        if ("undo", at) not in self.done and self._chance("undo", 12):
            self.done.add(("undo", at))
            self.undo_next = at

    def _side_name(self, side: int) -> str:
        return " & ".join(n for p, n in enumerate(self.names)
                          if self.rules.side_of(p, self.spec.players) == side)

    def _score_line(self) -> str:
        scores = self.place.ledger.scores
        return "  ".join(f"{self._side_name(s)} {score}" for s, score in enumerate(scores))

    def _deal_text(self) -> str:
        deal = self.place.deal
        if deal is None:
            return "no deal"
        hands = "; ".join(f"{self.names[p]} {' '.join(map(str, deal.kept[p]))}"
                          for p in range(self.spec.players))
        return f"starter {deal.starter}; {hands}; crib {' '.join(map(str, deal.crib))}"
