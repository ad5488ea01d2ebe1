"""A player who cannot see the screen: a whole 2-player game played through the app's real
step function in audio mode, every key decided from what was said (docs/accessibility.md).

The pretend table (:mod:`tests.conformance.deal`) deals each hand from the game's seed; the
true game is those cards played through the engine (:func:`true_game`), and its record in
real cards is what the referee judges. The listener knows only its cards and what to do
with them (the starter, the cards it lays or a go, the crib's four cards) and what each of
its hands is worth, as players do; where it is, it learns from the transcript alone: the
screen or page last reached, the card under the wheel as the voice named it, each count as
it was said, the game's end. The wheel enters ranks only, so a count said short of the
owner's own (a flush or his nobs) is put right on its page with GO, as a player would ask,
and heard again as recounted; a game won on a count said short is put right the same way,
on the pages after the result.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from pegboard.app.effects import Persist
from pegboard.app.inputs import Button, InputEvent, KnobTurn, Press, RankKey
from pegboard.app.machine import AppState, initial_state, step, view
from pegboard.app.picker import rank_label
from pegboard.app.session import Session
from pegboard.config import Config, InputConfig, VoiceConfig
from pegboard.record import dump
from pegboard.rules.cards import Card, Rank
from pegboard.rules.events import Crib, Deal, Event, GameHeader, Go, Play, Starter
from pegboard.rules.facts import Report, Scored, ShowStep
from pegboard.rules.speech import number
from pegboard.rules.state import Phase, Reason
from pegboard.rules.variants import Rules
from pegboard.voice.hook import Transcript, VoiceHook
from tests.conformance.deal import GameSpec, choose_play, deal_cards, fact_points, rng_at
from tests.referee.referee import judge
from tests.support.announcing import changes_of
from tests.support.pace import DURATIONS, Both, TablePace, patient

NAMES = ("P1", "P2")
"""The seats as the setup names them (the listener keeps them)."""

SPOKEN = {number(n): n for n in range(30)}
"""A count's last word back to its number ("twenty-nine")."""

RECOUNTED = "Recounted. "
"""How a count put right is said again (GO on its page): not a new count."""

WORD = {Rank.ACE: "ace", Rank.JACK: "jack", Rank.QUEEN: "queen", Rank.KING: "king"}


def rank_word(rank: Rank) -> str:
    """A rank as the wheel says it: "ace", "7", "10", "jack"."""
    return WORD.get(rank, str(int(rank)))


def true_game(seed: int, target: int = 121, *, suits: bool = True,
              ) -> tuple[list[Event], list[Event], list[int]] | None:
    """The seed's whole game in real cards: every entry in order, the listener's plan (the
    entries it makes itself: starters, plays, goes, cribs) and each hand's and crib's true
    count in show order. None when a penalty would come up (a game with no mistakes is
    wanted), or without ``suits`` when a hand or crib holds a flush or his nobs."""
    try:
        return _true_game(seed, Rules(target=target), suits)
    except LookupError:
        return None


def _true_game(seed: int, rules: Rules, suits: bool,
               ) -> tuple[list[Event], list[Event], list[int]] | None:
    spec = GameSpec(seed, players=2, short=rules.target == 61)
    session = Session.new(GameHeader(NAMES, rules))
    record: list[Event] = []
    plan: list[Event] = []
    counts: list[int] = []

    def apply(event: Event, mine: bool = True) -> None:
        nonlocal session
        session, report = session.apply(event)
        counts.extend(step.total for step in report.show_steps)
        if report.offers:
            raise LookupError("a penalty to settle")
        record.append(event)
        if mine:
            plan.append(event)

    apply(Deal(dealer=0), mine=False)
    number = 1
    while session.state.phase is not Phase.GAME_OVER:
        gs = session.state
        assert gs.dealer is not None
        deal = deal_cards(spec, number, gs.dealer)
        if not suits and (any(fact_points(deal.kept[p], deal.starter, crib=False)
                                  for p in range(2))
                              or fact_points(deal.crib, deal.starter, crib=True)):
            return None
        apply(Starter(deal.starter))
        held = [list(hand) for hand in deal.kept]
        decision = 0
        while session.state.phase is Phase.PLAY:
            gs = session.state
            assert gs.to_act is not None
            decision += 1
            card = choose_play(tuple(held[gs.to_act]), tuple(gs.pile), gs.count,
                               rng_at(seed, number, 3, decision))
            if card is None:
                apply(Go(gs.to_act))
            else:
                held[gs.to_act].remove(card)
                apply(Play(gs.to_act, card))
        if session.state.phase is Phase.CRIB:
            apply(Crib(deal.crib))
        if session.state.phase is Phase.DEAL:
            apply(Deal(), mine=False)
        number += 1
    return record, plan, counts


@dataclass(frozen=True)
class Owed:
    """A score its owner claims in a muggins game, as the owner counts it: who, the points
    and, for a hand or crib, the suit fact its real cards make, in the words the box says
    suit facts in ("flush of four", "with nobs", "plain")."""

    player: int
    points: int
    suits: str | None = None
    label: str = "hand"
    """What the claim's page names it for ("pair", "thirty-one, run", "go", "hand")."""

    @property
    def alone(self) -> bool:
        """A go's or the last card's point alone (claimed by the entry that wins it when
        its owner makes that entry)."""
        return self.label in ("go", "last card")


ONE_FOR = ((Reason.GO,), (Reason.LAST_CARD,))
"""A go's or the last card's point alone: claimed by the entry that wins it, not asked."""

FLUSH_WORDS = {3: "flush of three", 4: "flush of four", 5: "flush of five"}


def owed(events: list[Event], target: int = 121) -> list[Owed]:
    """Every score of the true game its owner would claim in a muggins game, in the order
    the game makes them (a go's or the last card's point alone excepted)."""
    session = Session.new(GameHeader(NAMES, Rules(target=target)))
    out: list[Owed] = []
    for event in events:
        session, report = session.apply(event)
        for fact in report.facts:
            if isinstance(fact, ShowStep):  # a hand or crib, claimed whatever its count
                kinds = {item.kind: item.points for item in fact.items}
                words = [*(["with nobs"] if "nobs" in kinds else []),
                         *([FLUSH_WORDS[kinds["flush"]]] if "flush" in kinds else [])]
                out.append(Owed(fact.player, fact.total, ", ".join(words) or "plain",
                                fact.counted.value))
            elif (isinstance(fact, Scored) and fact.points > 0
                  and not set(fact.reasons) & {Reason.HAND, Reason.CRIB}):
                out.append(Owed(fact.player, fact.points, None,
                                ", ".join(str(reason) for reason in fact.reasons)))
    return out


def record_lines(events: list[Event], target: int = 121) -> list[dict[str, object]]:
    """The true game as the record's lines (the referee's input)."""
    session = Session.new(GameHeader(NAMES, Rules(target=target)))
    lines: list[dict[str, object]] = [dump(session.header)]
    for event in events:
        session, _ = session.apply(event)
        lines.append(dump(event))
    return lines


@dataclass
class Listener:
    """Plays by ear: presses keys on the app and hears the transcript (see the module)."""

    kit: str
    plan: list[Event]
    counts: list[int]
    """Each hand's and crib's true count, in show order: its owner's own count."""
    transcript: Transcript = field(default_factory=Transcript)
    state: AppState = field(init=False)
    hook: VoiceHook = field(init=False)
    now: float = 0.0
    keys: int = 0
    heard_to: int = 0
    wheel: str = ""
    screen: str = ""
    target: int = 121
    """The game's target (setup is changed to 61 by ear when it is that)."""
    pending: list[str] = field(default_factory=list)
    own: dict[str, int] = field(default_factory=dict)
    """Each count of this deal by its page's title ("P2's hand"): its owner's own count."""
    said: dict[str, int] = field(default_factory=dict)
    """... and as the box last said it."""
    asked: int = 0
    """GO pressed on the page now read (a fact the box did not count)."""
    reports: list[Report] = field(default_factory=list)
    """Every report the engine made, as the app passed it on to the outputs (in ``Persist``),
    entries taken back and entered again included: for the tests, never heard."""
    plain: Transcript = field(default_factory=Transcript)
    """What a voice without audio mode says of the same steps: for the tests, never heard."""
    plain_hook: VoiceHook = field(init=False)
    style: str = "full"
    """The voice's style (``[voice] style``): "terse" says a count by its total."""
    table: TablePace | None = None
    """With a table, the listener hears only what its speech queue said, at the table's
    pace: it waits for the voice to end before each key (a patient player); without, every
    announcement made is heard at once."""
    owed: list[Owed] | None = None
    """A muggins game (set up by ear): each score its owner claims, in order; the owner sets
    a hand's suit fact with GO until it is said, turns or types the points until they are
    said, and claims. Every ``short``-th hand or crib is claimed two short, and the other
    player calls muggins by ear from the menu."""
    short: int = 3
    cut: bool = False
    """Cut for deal by ear (P1 cuts an ace, P2 a two: P1 deals, as in the true game), where
    the listener otherwise names P1 the dealer."""
    suits_by_ear: bool = True
    """Set a hand's suit fact by ear (GO until it is said) before claiming; without, the
    owner claims the count of the real cards with the suits the wheel entered (the box
    then corrects every flush or nobs claimed: what the words are for)."""
    claim: Owed | None = None
    """The claim on screen, as its owner counts it."""
    claim_suits: str = ""
    """The suit fact the claim's page last said ("plain"; empty: none said)."""
    claim_number: int | None = None
    """The number the claim's page last said."""
    call: int | None = None
    """The player who is to call muggins on the claim just made short."""
    over_claims: int = 0
    """Claims the box corrected (an over-claim): the proof's count, 0 by ear."""
    calls_missed: int = 0
    """Muggins called where nothing was missed: 0 by ear."""
    muggins_taken: int = 0
    """Muggins calls that took points."""
    shorted: int = 0
    """Claims made short on purpose (each then called)."""
    counted: str = ""
    """The title of the page of the count said last ("P1's crib")."""
    claim_keys: list[int] = field(default_factory=list)
    """Keys each claim took, from its page to its OK."""
    _keys_at_claim: int = 0
    _hands: int = 0

    def __post_init__(self) -> None:
        config = Config(input=InputConfig(kit=self.kit),
                        voice=VoiceConfig(audio=True, style=self.style))
        self.state = initial_state(config)
        self.hook = VoiceHook(self.transcript if self.table is None
                              else Both(self.transcript, self.table))
        self.hook.heard(self.state, view(self.state), (), first=True)
        self.plain_hook = VoiceHook(self.plain)
        self.plain_hook.begin(self.state)

    def press(self, event: InputEvent, name: str) -> None:
        """One key through the real step function, the voice told as the loop tells it."""
        self.keys += 1
        self.now += 1.0
        if self.table is not None:
            patient(self.table, name)
            self.table.key(name)
        self.transcript.cause = f"{self.keys} {name}"
        self.state, effects = step(self.state, event, self.now)
        reports = [effect.report for effect in effects
                   if isinstance(effect, Persist) and effect.report is not None]
        self.reports.extend(reports)
        changes = changes_of(effects)
        self.hook.heard(self.state, view(self.state), effects, changes)
        self.plain_hook.stepped(self.state, changes)

    def heard(self) -> Iterator[str]:
        """What was said since the last time (sounds left out)."""
        if self.table is not None:
            self.table.until_quiet()  # a patient player hears the voice out
        spoken = self.transcript.said if self.table is None else self.table.said
        new = spoken[self.heard_to:]
        self.heard_to = len(spoken)
        for said in new:
            if not said.text.startswith("["):
                yield said.text

    def listen(self) -> bool:
        """Take in what was said; False once the game is over."""
        over = False
        for text in self.heard():
            if " wins, " in text:
                over = True
            if text.startswith(("Entered. ", "Taken back")):
                text = text.split(". ", 1)[1] if ". " in text else ""
            if self.owed is not None and self._muggins_words(text):
                continue
            again = text.startswith(RECOUNTED)
            counted = _count(text.removeprefix(RECOUNTED))
            if counted is not None:
                title, total = counted
                if not again:  # the engine's count, as it counts: the owner's comes next
                    # (past the true game's end, where the game is won on a count put right,
                    # the count said stands)
                    self.own[title] = self.counts.pop(0) if self.counts else total
                self.said[title] = total
                # the count's page is where the table is, unless another screen is said
                if title != self.screen and not again:
                    self.asked = 0
                self.counted = self.screen = title
                continue
            if text.startswith("suits: ") and self.counted:
                # the page of the count just said: its suits line alone
                text = f"{self.counted}. {text}"
            if ". Crib card " in text:  # the crib's screen headed by a claim still open
                text = "The crib. Crib card " + text.split(". Crib card ", 1)[1]
            if text.startswith(("P1's", "P2's")) and ". suits: " in text:
                text = text.split(". suits: ")[0]  # a count page and its suit facts in words
            if text.startswith(("Deal ", "The crib. Crib card", "Who deals", "New game",
                                "Starter: ", "P1 plays: ", "P2 plays: ", "Crib card ")) or (
                    text.startswith(("P1's", "P2's", "End of the play", "The cut"))
                    and ":" not in text):
                if text != self.screen:
                    self.asked = 0
                self.screen = text
                self.wheel = text.rsplit(": ", 1)[-1] if ": " in text else ""
            elif text.startswith("The cut. "):  # the cut's page: who deals, read, go on
                self.screen = "The cut"
            elif " " not in text or text.endswith(("P1 deals", "P2 deals")):
                self.wheel = text  # a wheel word: the card or row now chosen
        return not over

    def play(self, limit: int = 5000) -> None:
        """Start the game by ear, then play the plan to the end."""
        self.listen()
        self.press(Press(Button.OK), "ok")  # "Pegboard. New game": choose it
        self.listen()
        if self.target != 121:
            self._row("Target: 121", 1)  # "New game. Start": a game to 61
            self.press(Press(Button.OK), "ok")
            self._row("Start", -1)
        if self.owed is not None:
            self._row("Muggins: off", 1)  # a muggins game
            self.press(Press(Button.OK), "ok")
            self._row("Start", -1)
        self.press(Press(Button.OK), "ok")
        self.listen()
        if self.cut:  # "Who deals first? Cut for deal": chosen
            self.press(Press(Button.OK), "ok")
            self.listen()
            for rank in (Rank.ACE, Rank.TWO):  # "Cut for deal. P1 cuts: 6"
                self._cut(rank)
        else:
            self._row("P1 deals", 1)  # "Who deals first? Cut for deal"
            self.press(Press(Button.OK), "ok")
        over = 0  # keys pressed since the game was won
        while self.keys < limit:
            if not self.listen() or over:
                over += 1
            owed = any(self.said.get(title, 0) < own for title, own in self.own.items())
            if over and (not owed or over > 8):  # the count that won put right, if need be
                break
            self._next()
        assert self.keys < limit, "the game did not end"

    def _row(self, row: str, way: int) -> None:
        """Turn until the row is said."""
        while True:
            if self.kit == "keypad":  # no knob: GO moves down a list, round to the top
                self.press(Press(Button.GO), "go")
            else:
                self.press(KnobTurn(way), "right" if way > 0 else "left")
            if any(text.endswith(row) for text in self.heard()) or self.keys > 100:
                return

    def _cut(self, rank: Rank) -> None:
        """Cut ``rank`` for deal: typed on the keypad, turned to on the encoder."""
        if self.kit == "keypad":
            self.press(RankKey(rank), rank_label(rank))
            return
        want = rank_word(rank)
        while self.wheel.split(" of ")[0] != want and self.keys < 100:
            self.press(KnobTurn(1), "right")
            for text in self.heard():
                self.wheel = text.rsplit(": ", 1)[-1]
        self.wheel = ""
        self.press(Press(Button.OK), "ok")
        for text in self.heard():
            self.wheel = text.rsplit(": ", 1)[-1]

    def _short(self) -> bool:
        """Whether the count on the page now read was said short of its owner's own (and GO
        has not yet gone round every fact it can add)."""
        short = self.own.get(self.screen, 0) - self.said.get(self.screen, 0)
        return short > 0 and self.asked < 6

    def _muggins_words(self, text: str) -> bool:
        """Muggins games: a claim's page, what GO set on it, the number said back, a claim
        pegged or corrected, a muggins call; True when ``text`` was one of them."""
        if text.startswith(("P1 claims. ", "P2 claims. ")):
            if self.screen != text[:9]:
                self.claim = self._owed_now(text)
                self._keys_at_claim = self.keys
            self.screen = text[:9]
            parts = text.split(". ")
            self.claim_number = int(parts[1].rsplit(": ", 1)[1])
            for part in parts[2:]:
                if part.startswith("suits: "):
                    self.claim_suits = part.removeprefix("suits: ")
            return True
        if self.screen.endswith(" claims") and text.startswith("suits: "):
            self.claim_suits = text.split(". ")[0].removeprefix("suits: ")
            return True
        if self.screen.endswith(" claims") and ": " in text and text.split(": ")[1].isdigit():
            self.claim_number = int(text.rsplit(": ", 1)[1])  # the number said back
            return True
        if " claimed, corrected to " in text:
            self.over_claims += 1
        if "missed nothing" in text:
            self.calls_missed += 1
        if text.startswith("Muggins! "):
            self.muggins_taken += 1
            return True
        if text.startswith("Menu. "):
            self.screen = "Menu"
            self.wheel = text.split(". ", 1)[1]
            return True
        if self.screen == "Menu" and ". " not in text:
            self.wheel = text  # the menu's row now chosen
            return True
        return False

    def _owed_now(self, page: str) -> Owed:
        """The score a claim's page asks for, as its owner counts it: their next hand or
        crib, or their next score of the play (one the box took as claimed with the card
        that won it, a go's or the last card's point, is passed over)."""
        assert self.owed is not None
        player = NAMES.index(page[:2])
        label = page.split(". ")[1].rsplit(": ", 1)[0]
        at = next((i for i, o in enumerate(self.owed)
                   if o.player == player and o.label == label), None)
        assert at is not None, f"a claim the true game does not make: {page}"
        claim = self.owed[at]
        self.owed[:at + 1] = [o for o in self.owed[:at] if o.player != player or not o.alone]
        return claim

    def _claiming(self) -> None:
        """On a claim's page: the suit fact first (GO), then the points (turn or type), then
        OK; a claim made short on purpose is called next."""
        claim = self.claim
        assert claim is not None
        if (self.suits_by_ear and claim.suits is not None and self.claim_suits
                and self.claim_suits != claim.suits):
            self.press(Press(Button.GO), "go")  # "suits: with nobs. GO: flush of four"
            return
        points = claim.points
        if claim.suits is not None:
            self._hands += 1
            if self._hands % self.short == 0 and points >= 2:
                points -= 2
        if self.claim_number != points:
            if self.kit == "keypad":
                for digit in str(points):
                    rank = Rank.ACE if digit == "1" else Rank.TEN if digit == "0" else Rank(
                        int(digit))
                    self.press(RankKey(rank), digit)
            else:
                assert self.claim_number is not None
                way = 1 if points > self.claim_number else -1
                self.press(KnobTurn(way), "right" if way > 0 else "left")
            if claim.suits is not None:
                self._hands -= 1  # counted once, when it is claimed
            return
        if points < claim.points:
            self.call = 1 - claim.player
            self.shorted += 1
        self.claim_keys.append(self.keys - self._keys_at_claim + 1)
        self.claim = None
        self.claim_suits = ""
        self.screen = ""
        self.press(Press(Button.OK), "ok")

    def _call_muggins(self) -> None:
        """The claim just made was short: its opponent opens the menu (MENU; on the keypad
        D held twice: the first says the score), turns to "Muggins: P1" and calls."""
        caller = f"Muggins: {NAMES[self.call or 0]}"
        if self.screen != "Menu":
            if self.kit == "keypad":
                self.press(Press(Button.MENU), "hold-D")  # the score
            self.press(Press(Button.MENU), "menu")
            return
        if re.sub(r"^\d+ ", "", self.wheel) != caller:  # a keypad's row: with its number
            if self.kit == "keypad":
                self.press(Press(Button.GO), "go")
            else:
                self.press(KnobTurn(1), "right")
            return
        self.call = None
        self.screen = ""
        self.press(Press(Button.OK), "ok")

    def _next(self) -> None:
        if self.call is not None and not self.screen.endswith(" claims"):
            self._call_muggins()
            return
        if self.claim is not None and self.screen.endswith(" claims"):
            self._claiming()
            return
        screen = self.screen
        on_wheel = screen.startswith(("Deal ", "The crib.", "Starter", "P1 plays", "P2 plays",
                                      "Crib card "))
        if not on_wheel or not self.plan:
            if self._short():  # "you missed my flush": GO adds the next fact
                self.asked += 1
                self.press(Press(Button.GO), "go")
                return
            self.press(Press(Button.OK), "ok")  # a page: read, go on
            return
        entry = self.plan[0]
        if isinstance(entry, Go):
            self.plan.pop(0)
            self.press(Press(Button.GO), "go")
            return
        card = _card_of(entry, len(self.pending))
        want = rank_word(card.rank)
        if self.kit == "keypad":
            self._entered(entry)
            self.press(RankKey(card.rank), rank_label(card.rank))  # named as scripts do
            return
        if self.wheel.split(" of ")[0] == want:
            self._entered(entry)
            self.wheel = ""  # the next wheel starts where it will: turn to hear it
            self.press(Press(Button.OK), "ok")
            return
        self.press(KnobTurn(1), "right")

    def _entered(self, entry: Event) -> None:
        if isinstance(entry, Crib):
            self.pending.append("x")
            if len(self.pending) < 4:
                return
            self.pending.clear()
        self.plan.pop(0)


def _card_of(entry: Event, index: int) -> Card:
    if isinstance(entry, Starter):
        return entry.card
    if isinstance(entry, Play):
        return entry.card
    assert isinstance(entry, Crib)
    return entry.cards[index]



_OWNERS = ("P1: ", "P2: ", "P1's crib: ", "P2's crib: ", "P1's hand: ", "P2's hand: ")


def _count(text: str) -> tuple[str, int] | None:
    """A hand or crib counted, as said (``"P2: fifteen two, and a pair is four; P1 6, P2
    3"``): its page's title and its total; None for anything else."""
    head = text.split("; ", 1)[0]
    if not head.startswith(_OWNERS):
        return None
    who, words = head.split(": ", 1)
    title = who if "'s " in who else f"{who}'s hand"
    if " for " in words or words in ("go",):
        return None  # a card or an award of the play, his heels
    last = words.rsplit(" ", 1)[-1]
    if words == "nineteen":
        return title, 0
    return (title, SPOKEN[last]) if last in SPOKEN else None


def at_table_pace(seed: int, kit: str, style: str = "full",
                  ) -> tuple[Listener, TablePace, list[int]]:
    """The seed's 2-player game to 121 played by ear by a patient player, from what the real
    queue said on a simulated clock (:mod:`tests.support.pace`): the listener, its table and
    the scores the referee gives the same cards."""
    game = true_game(seed, 121, suits=True)
    assert game is not None
    record, plan, counts = game
    table = TablePace()
    listener = Listener(kit, list(plan), counts, table=table, style=style)
    listener.play()
    DURATIONS.save()
    return listener, table, judge(record_lines(record)).result.scores


def deals_of(listener: Listener) -> int:
    """How many deals the listener's game had."""
    session = listener.state.session
    assert session is not None
    return sum(isinstance(event, Deal) for event in session.events)
