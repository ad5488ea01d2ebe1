"""A player who cannot see the screen: a whole 2-player game played through the app's real
step function in audio mode, every key decided from what was said (docs/accessibility.md).

The pretend table (:mod:`tests.conformance.deal`) deals each hand from the game's seed; the
true game is those cards played through the engine (:func:`true_game`), and its record in
real cards is what the referee judges. The listener knows only its cards and what to do
with them (the starter, the cards it lays or a go, the crib's four cards), as players do;
where it is, it learns from the transcript alone: the screen or page last reached, the card
under the wheel as the voice named it, the game's end.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field

from pegboard.app.effects import Persist
from pegboard.app.inputs import Button, InputEvent, Press, RankKey, Turn
from pegboard.app.machine import AppState, initial_state, step, view
from pegboard.app.session import Session
from pegboard.config import Config, InputConfig, VoiceConfig
from pegboard.rules.cards import Card, Rank
from pegboard.rules.events import Crib, Deal, Event, GameHeader, Go, Play, Starter
from pegboard.rules.state import Phase
from pegboard.rules.variants import Rules
from pegboard.voice.hook import Transcript, VoiceHook
from tests.conformance.deal import GameSpec, choose_play, deal_cards, fact_points, rng_at

NAMES = ("P1", "P2")
"""The seats as the setup names them (the listener keeps them)."""

WORD = {Rank.ACE: "ace", Rank.JACK: "jack", Rank.QUEEN: "queen", Rank.KING: "king"}


def rank_word(rank: Rank) -> str:
    """A rank as the wheel says it: "ace", "7", "10", "jack"."""
    return WORD.get(rank, str(int(rank)))


RULES = Rules(target=61)
"""A whole game to 61 holes (a few deals: a test of seconds)."""


def true_game(seed: int) -> tuple[list[Event], list[Event], list[int]] | None:
    """The seed's whole game in real cards: every entry in order, the listener's plan (the
    entries it makes itself: starters, plays, goes, cribs) and each hand's and crib's true
    count in show order. None when a hand or crib holds a flush or his nobs, which need
    suits the rank wheel does not enter."""
    try:
        return _true_game(seed)
    except LookupError:
        return None


def _true_game(seed: int) -> tuple[list[Event], list[Event], list[int]] | None:
    spec = GameSpec(seed, players=2, short=True)
    session = Session.new(GameHeader(NAMES, RULES))
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
        if any(fact_points(deal.kept[p], deal.starter, crib=False) for p in range(2)) or (
                fact_points(deal.crib, deal.starter, crib=True)):
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


def record_lines(events: list[Event]) -> list[dict[str, object]]:
    """The true game as the record's lines (the referee's input)."""
    session = Session.new(GameHeader(NAMES, RULES))
    lines: list[dict[str, object]] = [json.loads(session.header_line())]
    for event in events:
        session, _ = session.apply(event)
        lines.append(json.loads(session.line(event)))
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
    pending: list[str] = field(default_factory=list)
    short: int = 0
    """What the count last said is short of its owner's own (none: the game is chosen with
    no flush or his nobs, which the rank wheel cannot enter)."""

    def __post_init__(self) -> None:
        config = Config(input=InputConfig(kit=self.kit), voice=VoiceConfig(audio=True))
        self.state = initial_state(config)
        self.hook = VoiceHook(self.transcript)
        self.hook.heard(self.state, view(self.state), (), first=True)

    def press(self, event: InputEvent, name: str) -> None:
        """One key through the real step function, the voice told as the loop tells it."""
        self.keys += 1
        self.now += 1.0
        self.transcript.cause = f"{self.keys} {name}"
        self.state, effects = step(self.state, event, self.now)
        saved = any(isinstance(effect, Persist) for effect in effects)
        self.hook.heard(self.state, view(self.state), effects, saved=saved)

    def heard(self) -> Iterator[str]:
        """What was said since the last time (sounds left out)."""
        new = self.transcript.said[self.heard_to:]
        self.heard_to = len(self.transcript.said)
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
            if text.startswith(("Deal ", "The crib. Crib card", "Who deals", "New game")) or (
                    text.startswith(("P1's", "P2's", "End of the play", "The cut"))
                    and ":" not in text):
                self.screen = text
                self.wheel = text.rsplit(": ", 1)[-1] if ": " in text else ""
            elif " " not in text or text.startswith(("P1 deals", "P2 deals")):
                self.wheel = text  # a wheel word: the card or row now chosen
        return not over

    def play(self, limit: int = 5000) -> None:
        """Start the game by ear, then play the plan to the end."""
        self.listen()
        self.press(Press(Button.OK), "ok")  # "Pegboard. New game": choose it
        self.listen()
        self._row("Target: 121", 1)  # "New game. Start": a game to 61
        self.press(Press(Button.OK), "ok")
        self._row("Start", -1)
        self.press(Press(Button.OK), "ok")
        self.listen()
        self._row("P1 deals", 1)  # "Who deals first? Cut for deal"
        self.press(Press(Button.OK), "ok")
        while self.listen() and self.keys < limit:
            self._next()
        assert self.keys < limit, "the game did not end"

    def _row(self, row: str, way: int) -> None:
        """Turn until the row is said."""
        while True:
            if self.kit == "keypad":  # no knob: GO moves down a list, round to the top
                self.press(Press(Button.GO), "go")
            else:
                self.press(Turn(way), "right" if way > 0 else "left")
            if any(text.endswith(row) for text in self.heard()) or self.keys > 100:
                return

    def _next(self) -> None:
        screen = self.screen
        on_wheel = screen.startswith(("Deal ", "The crib."))
        if not on_wheel or not self.plan:
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
            self.press(RankKey(card.rank), rank_word(card.rank))
            return
        if self.wheel.split(" of ")[0] == want:
            self._entered(entry)
            self.wheel = ""  # the next wheel starts where it will: turn to hear it
            self.press(Press(Button.OK), "ok")
            return
        self.press(Turn(1), "right")

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

