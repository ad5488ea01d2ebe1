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

from collections.abc import Iterator
from dataclasses import dataclass, field

from pegboard.app.effects import Persist
from pegboard.app.inputs import Button, InputEvent, KnobTurn, Press, RankKey
from pegboard.app.machine import AppState, initial_state, step, view
from pegboard.app.picker import rank_label
from pegboard.app.session import Session
from pegboard.config import Config, InputConfig, VoiceConfig
from pegboard.record import dump
from pegboard.rules.awards import number
from pegboard.rules.cards import Card, Rank
from pegboard.rules.events import Crib, Deal, Event, GameHeader, Go, Play, Starter
from pegboard.rules.facts import Report
from pegboard.rules.state import Phase
from pegboard.rules.variants import Rules
from pegboard.voice.hook import Transcript, VoiceHook
from tests.conformance.deal import GameSpec, choose_play, deal_cards, fact_points, rng_at
from tests.support.announcing import changes_of
from tests.support.pace import Both, TablePace, patient

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
            again = text.startswith(RECOUNTED)
            counted = _count(text.removeprefix(RECOUNTED))
            if counted is not None:
                title, total = counted
                if not again:  # the engine's count, as it counts: the owner's comes next
                    # (past the true game's end, where the game is won on a count put right,
                    # the count said stands)
                    self.own[title] = self.counts.pop(0) if self.counts else total
                self.said[title] = total
                continue
            if text.startswith(("P1's", "P2's")) and ". suits: " in text:
                text = text.split(". suits: ")[0]  # a count page and its suit facts in words
            if text.startswith(("Deal ", "The crib. Crib card", "Who deals", "New game")) or (
                    text.startswith(("P1's", "P2's", "End of the play", "The cut"))
                    and ":" not in text):
                if text != self.screen:
                    self.asked = 0
                self.screen = text
                self.wheel = text.rsplit(": ", 1)[-1] if ": " in text else ""
            elif text.startswith("Starter: "):  # the starter's wheel, after the deal said
                self.wheel = text.split(": ", 1)[1]
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
        self.press(Press(Button.OK), "ok")
        self.listen()
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

    def _short(self) -> bool:
        """Whether the count on the page now read was said short of its owner's own (and GO
        has not yet gone round every fact it can add)."""
        short = self.own.get(self.screen, 0) - self.said.get(self.screen, 0)
        return short > 0 and self.asked < 6

    def _next(self) -> None:
        screen = self.screen
        on_wheel = screen.startswith(("Deal ", "The crib."))
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
