"""Input cost: how many actions a whole deal takes to record, for each input kit.

Random two-player deals are played out with real cards (seeded). Every entry goes through the
app's real ``step`` function, made by a user who always takes the fewest actions: for each card
the user reads the picker on screen and takes the shortest way to it (one action per encoder
detent or GO's jump, found by feeding them to ``step``) and presses OK, or presses its rank
key; the crib's four cards are entered in whichever order costs least (every order is tried
through ``step``). In a muggins game each score is claimed in full: its digits on the keypad,
or the fewest detents of the claim dial, slow and quick ones, found through ``step`` too. A
fully recorded deal is the starter, the play card by card with every go, reading the counted
hands (or claiming them), and the crib, until the next deal's starter is asked for. Deals in
which the game ends are not counted.

The simulated players peg the way people do: they take the most points they can with each
card (ties broken at random); the figure for uniformly random legal play is printed too.
Alongside the action counts the benchmark checks that the scores the app recorded (with its
stand-in suits) equal the scores of the same deals entered with every real card.

The open-handed mode (printed first; ``PEGBOARD_BENCH_INPUT=open`` prints it alone) plays a
first game as it is taught, from "Learn to play": at each deal both players' six cards are
entered, the coach's advice is read and the cards are laid away as advised, the starter is
named with its suit where the wheel offers it, the play is entered from the known hands, and
every page (the coach's, rule help, the counts, the discard reviews) is read with OK; each
card laid is the one the coach's line names, as a learner follows it; the hands and the crib
need no entry.
"""

from __future__ import annotations

import itertools
import os
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from bench.input_plan import GO, OK, card_inputs, claim_path, entry_inputs, passes_through
from pegboard.app import flow
from pegboard.app.inputs import Button, InputEvent, KnobTurn, Press, RankKey
from pegboard.app.machine import AppState, initial_state, step, view
from pegboard.app.picker import rank_label
from pegboard.app.state import Calling, Claiming, Reading, WheelScreen
from pegboard.coach import knowledge, lookahead
from pegboard.config import Config, InputConfig
from pegboard.rules.cards import DECK, Card, Rank, Suit
from pegboard.rules.events import Crib, Deal, Dealt, Go, LaidAway, Play, Starter
from pegboard.rules.game import Game
from pegboard.rules.pegging import score_play
from pegboard.rules.show import score_hand
from pegboard.rules.state import Phase

UNDO = Press(Button.UNDO)


@dataclass
class Tally:
    """Actions by kind for one deal."""

    turns: int = 0
    presses: int = 0
    keys: int = 0

    @property
    def total(self) -> int:
        """Every physical action: detents, button presses, key presses."""
        return self.turns + self.presses + self.keys


@dataclass
class Driver:
    """Runs one app state through ``step`` and counts what it is fed."""

    state: AppState
    now: float = 0.0
    tally: Tally = field(default_factory=Tally)
    fixes: list[int] = field(default_factory=list)
    part: str = "starter"
    kinds: dict[str, int] = field(default_factory=dict)
    """Actions by the kind of entry they made (``part`` names the one being made)."""
    starter: Card | None = None
    """This deal's starter, whose suit the player names when the box asks it."""

    def feed(self, event: InputEvent, gap: float = 0.5) -> None:
        self.now += gap
        self.state, _ = step(self.state, event, self.now)
        actions = abs(event.steps) if isinstance(event, KnobTurn) else 1
        self.kinds[self.part] = self.kinds.get(self.part, 0) + actions
        if isinstance(event, KnobTurn):
            self.tally.turns += actions
        elif isinstance(event, RankKey):
            self.tally.keys += 1
        else:
            self.tally.presses += 1

    def doing(self, part: str) -> Driver:
        """Count the next actions as ``part``."""
        self.part = part
        return self


def read_pages(driver: Driver, card_follows: bool, truth: Game | None = None) -> None:
    """Read notices with OK, leaving the last one when the next card's key can go through
    it. With ``truth`` (players who never named a suit fact on the wheel), each count whose
    total is short of the true count is put right with GO first; the presses are counted
    in ``driver.fixes``."""
    resume = driver.part
    while isinstance(driver.state.screen, Reading | Claiming | Calling) or asked(driver):
        if asked(driver):
            answer_suit(driver.doing("suit"))
            continue
        if isinstance(driver.state.screen, Claiming):
            claim(driver.doing("claims"))
            continue
        if isinstance(driver.state.screen, Calling):
            # "No muggins": the claims are right, and the list starts there
            driver.doing("calls").feed(OK)
            continue
        driver.doing("pages")
        if truth is not None:
            _fix_count(driver, truth)
        session = driver.state.session
        if card_follows and passes_through(driver.state) and (
                session is None or session.state.asked is None):
            break  # (a question after the page is answered first, not skipped by a card key)
        driver.feed(OK)
    driver.doing(resume)


def asked(driver: Driver) -> bool:
    """The table asks the starter's suit (a count needs it)."""
    session = driver.state.session
    return (isinstance(driver.state.screen, WheelScreen) and session is not None
            and session.state.asked is not None)


def answer_suit(driver: Driver) -> None:
    """Name the starter's suit the fewest actions away: its key on the keypad; on the knob
    OK where the wheel starts, a detent either way or GO's jump across, then OK."""
    assert driver.starter is not None
    picker = view(driver.state).picker
    assert picker is not None
    at = picker.options.index(driver.starter.pretty)
    if driver.state.keypad:
        driver.feed(RankKey(Rank(SUIT_KEYS.index(driver.starter.suit) + 1)))
        return
    n = len(picker.options)
    away = (at - picker.index) % n
    if away == 1:
        driver.feed(KnobTurn(1))
    elif away == n - 1:
        driver.feed(KnobTurn(-1))
    elif away == 2:
        driver.feed(GO)
    driver.feed(OK)


SUIT_KEYS = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
"""The keypad's keys 1 to 4 when the starter's suit is asked."""


def claim(driver: Driver) -> None:
    """Claim the waiting score in full, the fewest actions from where the dial starts (the
    number on screen): its digits on the keypad; on the knob the fewest detents, slow and
    quick ones, found through ``step`` (:func:`bench.input_plan.claim_path`)."""
    session, screen = driver.state.session, driver.state.screen
    assert session is not None and isinstance(screen, Claiming)
    points = session.state.pending_claims[0].points
    if driver.state.keypad:
        if points != screen.number:
            for digit in str(points):
                driver.feed(RankKey(Rank.TEN if digit == "0" else Rank(int(digit))))
        driver.feed(OK)
        return
    for event, gap in claim_path(driver.state, points):
        driver.feed(event, gap)
    driver.feed(OK)


def _fix_count(driver: Driver, truth: Game) -> None:
    screen = driver.state.screen
    assert isinstance(screen, Reading)
    count = screen.pages[0].count
    if count is None:
        return
    ts = truth.state
    cards = ts.crib if count.crib else ts.hands[count.player]
    if cards is None or ts.starter is None:
        return
    want = score_hand(cards, ts.starter, crib=count.crib).total
    presses = 0
    while count is not None and count.points != want and presses < 6:
        driver.feed(GO)
        presses += 1
        page = driver.state.screen
        count = page.pages[0].count if isinstance(page, Reading) else None
    driver.fixes.append(presses)


@dataclass
class DealResult:
    """One recorded deal: actions by part and whether the app's scores matched."""

    tally: Tally
    parts: dict[str, int]
    complete: bool
    scores_match: bool


def _choose_play(
    rng: random.Random, hand: list[Card], pile: Sequence[Card], count: int, greedy: bool,
) -> Card | None:
    legal = [c for c in hand if count + c.pips <= 31]
    if not legal:
        return None
    if not greedy:
        return rng.choice(legal)
    best = max(score_play((*pile, c)).total for c in legal)
    return rng.choice([c for c in legal if score_play((*pile, c)).total == best])


def _coached(state: AppState) -> Card | None:
    """The card the pegging coach's line names for the player to act in an open-handed
    first game (every card of it entered with its suit, so the box's cards are the true
    ones); None: no card fits, the player says go."""
    session = state.session
    assert session is not None
    known = knowledge.knowledge_for(session.state)
    return None if known is None else lookahead.coach_card(known, open_hand=True)


def play_deal(
    driver: Driver, truth: Game, rng: random.Random, *, greedy: bool, forget: bool = False,
    open_hands: bool = False,
) -> DealResult:
    """Deal, play and count one hand at the table, entering it all through the app. With
    ``open_hands`` both players' six cards are entered first (as a first game is played, to
    be taught; those entries are not counted here) and named cards need no suit facts: the
    starter is entered by its rank, and its suit is named when a count asks for it."""
    gs = truth.state
    assert gs.phase is Phase.STARTER and gs.dealer is not None
    deck = list(DECK)
    rng.shuffle(deck)
    dealt = [deck[0:6], deck[6:12]]
    crib: list[Card] = []
    hands: list[list[Card]] = []
    for cards in dealt:
        rng.shuffle(cards)
        hands.append(cards[:4])
        crib.extend(cards[4:])
    starter = deck[12]
    driver.kinds = {}
    driver.starter = starter
    complete = True
    if open_hands:
        while isinstance(driver.state.screen, Reading):  # the last page, left for a card key
            driver.doing("pages").feed(OK)
        for seat, cards in enumerate(dealt):
            driver.state, _ = flow.enter(driver.state, Dealt(seat, tuple(cards)))
            truth.apply(Dealt(seat, tuple(cards)))
        forget = True  # named cards: no suit fact is said on the wheel
    driver.doing("starter")
    for event in card_inputs(driver.state, starter, False, False):
        driver.feed(event)
    truth.apply(Starter(starter))
    played: list[list[Card]] = [[], []]
    while truth.state.phase is Phase.PLAY:
        read_pages(driver, False)
        ts = truth.state
        p = ts.to_act
        assert p is not None
        card = _choose_play(rng, hands[p], ts.pile, ts.count, greedy)
        if card is None:
            driver.doing("goes").feed(GO)
            truth.apply(Go(p))
            continue
        group = played[p]
        # The player knows their hand: a flush is only worth saying when the hand is one.
        whole = [*group, *hands[p]]
        flush = bool(group) and all(c.suit is card.suit for c in whole)
        nobs = card.rank is Rank.JACK and card.suit is starter.suit
        last = len(group) == 3
        five = card.suit is starter.suit
        if forget or open_hands:
            flush = nobs = False
        driver.doing("plays")
        for event in card_inputs(driver.state, card, flush, nobs, last=last, five=five):
            driver.feed(event)
        truth.apply(Play(p, card))
        hands[p].remove(card)
        played[p].append(card)
    checker = truth if forget and not open_hands else None
    if truth.state.phase is Phase.GAME_OVER:
        complete = False
        read_pages(driver, True, checker)  # the winning score's claim, in a muggins game
    if complete:
        read_pages(driver, True, checker)
        _enter_crib(driver, crib, starter, forget=forget or open_hands)
        truth.apply(Crib(tuple(crib)))
        read_pages(driver, True, checker)
        if truth.state.phase is Phase.GAME_OVER:
            complete = False  # the crib's winning claim, in a muggins game
        else:
            truth.apply(Deal())
    app = driver.state.session
    assert app is not None
    match = app.state.scores == truth.state.scores
    return DealResult(driver.tally, dict(driver.kinds), complete, match)


def _enter_crib(driver: Driver, crib: list[Card], starter: Card, *, forget: bool = False,
                ) -> None:
    # Orders that differ only between cards entered alike cost the same: try one of each.
    def alike(card: Card) -> tuple[Rank, bool]:
        return card.rank, card.rank is Rank.JACK and card.suit is starter.suit

    by_shape: dict[tuple[tuple[Rank, bool], ...], tuple[Card, ...]] = {}
    for order in itertools.permutations(crib):
        by_shape.setdefault(tuple(alike(c) for c in order), tuple(order))
    orders = set(by_shape.values())
    if driver.state.keypad:
        orders = {tuple(crib)}
    best: tuple[int, Driver] | None = None
    for order in sorted(orders, key=lambda o: [c.index for c in o]):
        trial = Driver(driver.state, driver.now, Tally(), part="crib")
        entered: list[Card] = []
        # The crib is turned over before it is entered: a flush is said only when it is one.
        crib_flush = all(c.suit is starter.suit for c in crib) and not forget
        for card in order:
            flush = crib_flush
            nobs = card.rank is Rank.JACK and card.suit is starter.suit and not forget
            for event in card_inputs(trial.state, card, flush and not nobs, nobs):
                trial.feed(event)
            entered.append(card)
        if best is None or trial.tally.total < best[0]:
            best = (trial.tally.total, trial)
    assert best is not None
    chosen = best[1]
    driver.state, driver.now = chosen.state, chosen.now
    driver.fixes.extend(chosen.fixes)
    driver.tally.turns += chosen.tally.turns
    driver.tally.presses += chosen.tally.presses
    driver.tally.keys += chosen.tally.keys
    for kind, actions in chosen.kinds.items():
        driver.kinds[kind] = driver.kinds.get(kind, 0) + actions


def new_game(kit: str, dealer: int, *, muggins: bool = False) -> tuple[Driver, Game]:
    """A fresh 2-player game in the app (setup actions are not counted) and its true twin
    (the claims are made in full, so a muggins game scores as one without)."""
    driver = Driver(initial_state(Config(input=InputConfig(kit=kit))))
    driver.feed(OK)  # New game
    if muggins:
        rows = list(view(driver.state).lines)
        row = next(i for i, line in enumerate(rows) if line.endswith("Muggins: off"))
        driver.feed(KnobTurn(row))
        driver.feed(OK)
        driver.feed(KnobTurn(-row))
    driver.feed(OK)  # Start
    if kit == "keypad":
        driver.feed(RankKey(Rank(dealer + 2)))
    else:
        for _ in range(dealer + 1):
            driver.feed(KnobTurn(1))
        driver.feed(OK)
    truth = Game(["P1", "P2"])
    truth.apply(Deal(dealer=dealer))
    driver.tally = Tally()
    assert isinstance(driver.state.screen, WheelScreen), view(driver.state)
    return driver, truth


def new_open_game(kit: str, dealer: int) -> tuple[Driver, Game]:
    """A fresh 2-player game from "Learn to play" (teaching, open hands; the basics skipped;
    setup actions not counted) and its true twin."""
    driver = Driver(initial_state(Config(input=InputConfig(kit=kit))))
    driver.feed(KnobTurn(1))
    driver.feed(OK)  # Learn to play
    driver.feed(OK)  # Start
    driver.feed(UNDO)  # the basics offered: skipped
    if kit == "keypad":
        driver.feed(RankKey(Rank(dealer + 2)))
    else:
        for _ in range(dealer + 1):
            driver.feed(KnobTurn(1))
        driver.feed(OK)
    truth = Game(["P1", "P2"])
    truth.apply(Deal(dealer=dealer))
    driver.tally = Tally()
    return driver, truth


def play_open_deal(driver: Driver, truth: Game, rng: random.Random) -> DealResult:
    """One open-handed deal of a first game: each player's six cards entered (sorted by rank,
    as a player holds them; the rank, then the suit), the advice read, the discard laid away
    as advised (OK on the wheel's start, twice), the starter, the play from the known hands
    (each card the one the coach's line names, as a learner follows it: :func:`_coached`),
    and the pages read until the next deal's first entry; the hands and the crib are counted
    with no entry."""
    gs = truth.state
    assert gs.phase is Phase.STARTER and gs.dealer is not None
    deck = list(DECK)
    rng.shuffle(deck)
    dealt = [sorted(deck[0:6], key=lambda c: c.index),
             sorted(deck[6:12], key=lambda c: c.index)]
    starter = deck[12]
    driver.kinds = {}
    read_pages(driver, False)
    for k in (1, 2):
        seat = (gs.dealer + k) % 2
        driver.doing("dealt cards")
        for card in dealt[seat]:
            for label in (rank_label(card.rank), card.pretty):
                for event in entry_inputs(driver.state, label):
                    driver.feed(event)
        truth.apply(Dealt(seat, tuple(dealt[seat])))
        read_pages(driver, False)
        driver.doing("laid away")
        driver.feed(OK)
        driver.feed(OK)
        session = driver.state.session
        assert session is not None
        away = session.state.laid_away[seat]
        assert away is not None, view(driver.state)
        truth.apply(LaidAway(seat, away))
        read_pages(driver, False)
    hands = [[c for c in dealt[p] if c not in (truth.state.laid_away[p] or ())] for p in (0, 1)]
    driver.doing("starter")
    # Every card is named here, so the starter's suit is named too wherever the wheel offers
    # it (where it could make a flush or nobs with them).
    for event in card_inputs(driver.state, starter, False, False, label=starter.pretty):
        driver.feed(event)
    truth.apply(Starter(starter))
    while truth.state.phase is Phase.PLAY:
        read_pages(driver, False)
        ts = truth.state
        p = ts.to_act
        assert p is not None
        chosen = _coached(driver.state)
        if chosen is None:
            driver.doing("goes").feed(GO)
            truth.apply(Go(p))
            continue
        driver.doing("plays")
        for event in card_inputs(driver.state, chosen, False, False):
            driver.feed(event)
        truth.apply(Play(p, chosen))
        hands[p].remove(chosen)
    complete = truth.state.phase is not Phase.GAME_OVER
    read_pages(driver, False)
    if truth.state.phase is Phase.GAME_OVER:
        complete = False
    elif complete:
        truth.apply(Deal())
    app = driver.state.session
    assert app is not None
    match = app.state.scores == truth.state.scores
    return DealResult(driver.tally, dict(driver.kinds), complete, match)


def run_open(kit: str, deals: int, seed: int) -> Summary:
    """Record ``deals`` complete open-handed deals of a first game (see
    :func:`play_open_deal`); return the figures."""
    rng = random.Random(seed)
    totals: list[int] = []
    parts: dict[str, list[int]] = {}
    mismatches = 0
    started = time.perf_counter()
    driver, truth = new_open_game(kit, rng.randrange(2))
    while len(totals) < deals:
        if truth.state.phase is not Phase.STARTER:
            driver, truth = new_open_game(kit, rng.randrange(2))
        driver.tally = Tally()
        result = play_open_deal(driver, truth, rng)
        if not result.scores_match:
            mismatches += 1
        if result.complete:
            totals.append(result.tally.total)
            for part, value in result.parts.items():
                parts.setdefault(part, []).append(value)
    return Summary(kit, True, totals, parts, mismatches, time.perf_counter() - started)


@dataclass
class Summary:
    """Figures over many deals."""

    kit: str
    greedy: bool
    totals: list[int]
    parts: dict[str, list[int]]
    mismatches: int
    seconds: float
    fixes: list[int] = field(default_factory=list)


def run(kit: str, deals: int, seed: int, *, greedy: bool = True, forget: bool = False,
        muggins: bool = False, open_hands: bool = False) -> Summary:
    """Record ``deals`` complete deals with the fewest actions; return the figures. With
    ``forget`` the players never name a flush or nobs on the wheel and put each count right
    at the show with GO instead (``Summary.fixes``: the presses each count took)."""
    rng = random.Random(seed)
    totals: list[int] = []
    parts: dict[str, list[int]] = {}
    mismatches = 0
    fixes: list[int] = []
    started = time.perf_counter()
    driver, truth = new_game(kit, rng.randrange(2), muggins=muggins)
    while len(totals) < deals:
        if truth.state.phase is not Phase.STARTER:
            fixes.extend(driver.fixes)
            driver, truth = new_game(kit, rng.randrange(2), muggins=muggins)
        driver.tally = Tally()
        result = play_deal(driver, truth, rng, greedy=greedy, forget=forget,
                           open_hands=open_hands)
        if not result.scores_match:
            mismatches += 1
        if result.complete:
            totals.append(result.tally.total)
            for part, value in result.parts.items():
                parts.setdefault(part, []).append(value)
    fixes.extend(driver.fixes)
    return Summary(kit, greedy, totals, parts, mismatches, time.perf_counter() - started,
                   fixes)


def breakdown(s: Summary) -> str:
    """The mean actions a deal by the kind of entry they made ("plays 23.4, ...")."""
    return ", ".join(f"{part} {sum(values) / len(s.totals):.1f}"
                     for part, values in sorted(s.parts.items()))


def main() -> None:
    """Print the mean actions per deal for each kit (targets: encoder 40 and keypad 18, with
    muggins encoder 45 and keypad 25)."""
    deals = int(os.environ.get("PEGBOARD_BENCH_DEALS", "300"))
    mode = os.environ.get("PEGBOARD_BENCH_INPUT", "")
    print(f"input actions per fully recorded 2-player deal ({deals} seeded deals each, "
          f"{os.cpu_count()} cores)")
    open_deals = max(1, deals // 3)
    for kit in ("encoder", "keypad"):
        s = run_open(kit, open_deals, seed=2026)
        print(f"  {kit:8} open-handed first game (teaching; both hands entered, laid away as "
              f"advised, every page read; {open_deals} deals): mean "
              f"{statistics.fmean(s.totals):5.1f}; median {statistics.median(s.totals):.0f}, "
              f"max {max(s.totals)}; {breakdown(s)}; score mismatches {s.mismatches}; "
              f"{s.seconds:.1f} s")
    if mode == "open":
        return
    for kit, target in (("encoder", 45), ("keypad", 25)):
        s = run(kit, deals, seed=2026, muggins=True)
        mean = statistics.fmean(s.totals)
        verdict = "ok" if mean <= target else "OVER TARGET"
        print(f"  {kit:8} muggins, every claim right and nobody calling: mean {mean:5.1f} "
              f"(target <= {target}: {verdict}); median {statistics.median(s.totals):.0f}, "
              f"max {max(s.totals)}; {breakdown(s)}; score mismatches {s.mismatches}; "
              f"{s.seconds:.1f} s")
    for kit, target in (("encoder", 40), ("keypad", 18)):
        for greedy in (True, False):
            s = run(kit, deals, seed=2026, greedy=greedy)
            mean = statistics.fmean(s.totals)
            detail = breakdown(s)
            play = "greedy pegging" if greedy else "random play"
            verdict = "ok" if mean <= target else "OVER TARGET"
            print(f"  {kit:8} {play:15} mean {mean:5.1f} (target <= {target}: {verdict}); "
                  f"median {statistics.median(s.totals):.0f}, max {max(s.totals)}; "
                  f"{detail}; score mismatches {s.mismatches}; {s.seconds:.1f} s")
        s = run(kit, deals, seed=2026, open_hands=True)
        asks = s.parts.get("suit", [])
        print(f"  {kit:8} open hands (six cards each entered, not counted here), the starter by "
              f"its rank: mean {statistics.fmean(s.totals):5.1f}; the starter's suit asked in "
              f"{len(asks)} of {len(s.totals)} deals, {statistics.fmean(asks or [0]):.2f} "
              f"actions each; {breakdown(s)}; score mismatches {s.mismatches}")
        s = run(kit, deals, seed=2026, forget=True)
        fixed = [n for n in s.fixes if n]
        print(f"  {kit:8} forgetting every flush and nobs on the wheel: {len(fixed)} counts put "
              f"right at the show with GO, {statistics.fmean(fixed or [0]):.2f} presses each "
              f"(max {max(fixed or [0])}); mean {statistics.fmean(s.totals):.1f} actions a "
              f"deal; score mismatches {s.mismatches}")


if __name__ == "__main__":
    main()
