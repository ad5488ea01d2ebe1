"""A pretend table for the simulator: deals real cards and presses the keys players would.

:class:`AutoPlayer` looks only at what is on the screen (the :class:`~pegboard.app.view.View`)
and answers with key steps, like a person reading the OLED. Each deal it shuffles a deck
(seeded, so a game is repeatable), gives six cards to each of two players, puts two from each
into the crib and turns a starter; in the play each player lays a random card from their hand
that fits under 31, or says go. It enters the starter, every card of the play and the crib
through the card picker, and reads through the show.

:func:`record_game` runs it against the simulator and returns the keys it pressed as a key
script (what ``pegboard sim --script`` reads): the end-to-end test, the benchmark and the
guide's pictures all come from such scripts.
"""

from __future__ import annotations

import random
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image

from pegboard.app.view import Screen, View
from pegboard.config import Config
from pegboard.rules.cards import DECK, Card, Rank
from pegboard.sim.fakes import FakeClock, RecordingDisplay
from pegboard.sim.keys import KeyStep
from pegboard.sim.script import game_record
from pegboard.sim.session import Simulator
from pegboard.store import Store

RANK_LABELS = {rank: ("10" if rank is Rank.TEN else rank.symbol) for rank in Rank}


def _label_rank(label: str) -> Rank | None:
    head = label.split(" ", 1)[0].rstrip("♠♥♦♣")
    for rank, text in RANK_LABELS.items():
        if head == text:
            return rank
    return None


@dataclass
class _Deal:
    hands: list[list[Card]]
    crib: list[Card]
    starter: Card
    starter_entered: bool = False
    crib_entered: int = 0


@dataclass
class AutoPlayer:
    """Decides the next keys from the screen, with its own seeded dealer."""

    seed: int = 0
    kit: str = "encoder"
    rng: random.Random = field(init=False)
    deal: _Deal | None = None
    cuts: dict[str, Rank] = field(default_factory=dict)
    finished: bool = False
    pages: int = 0

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    # -- the pretend table ------------------------------------------------------------------

    def _new_deal(self) -> _Deal:
        deck = list(DECK)
        self.rng.shuffle(deck)
        hands = [deck[0:6], deck[6:12]]
        crib: list[Card] = []
        for hand in hands:
            for _ in range(2):
                crib.append(hand.pop(self.rng.randrange(len(hand))))
        return _Deal(hands=hands, crib=crib, starter=deck[12])

    # -- reading the screen -----------------------------------------------------------------

    def decide(self, view: View) -> list[KeyStep]:
        """The keys to press for what the screen shows (empty: nothing more to do)."""
        screen = view.screen
        if screen is Screen.GAME_OVER:
            self.finished = True
            return []
        if screen is Screen.HOME:
            return self._choose(view, ("New game", "Start a new game", "New"))
        if screen is Screen.SETUP:
            return self._choose(view, ("Start",))
        if screen is Screen.DEALER:
            return [KeyStep("ok")]
        if screen is Screen.CONFIRM:
            return self._choose(view, ("Yes",))
        if screen is Screen.MENU:
            return [KeyStep("undo")]
        if view.picker is not None and screen in (Screen.CUT, Screen.STARTER, Screen.PLAY,
                                                  Screen.CRIB, Screen.HAND):
            return self._card(view)
        # Text screens (a hand's count, a notice, the scores): read, then go on.
        self.pages += 1
        return [KeyStep("ok")]

    def _choose(self, view: View, wanted: tuple[str, ...]) -> list[KeyStep]:
        for word in wanted:
            for index, line in enumerate(view.lines):
                if line.startswith(word):
                    if self.kit == "keypad" and index < len(Rank):
                        return [KeyStep(RANK_LABELS[Rank(index + 1)])]  # row N: key N
                    return [*_turns((view.selected or 0), index), KeyStep("ok")]
        return [KeyStep("ok")]

    def _card(self, view: View) -> list[KeyStep]:
        picker = view.picker
        assert picker is not None
        rank: Rank | None
        if view.screen is Screen.CUT:
            rank = self._cut_rank(view)
        elif view.screen is Screen.STARTER:
            if self.deal is None or self.deal.starter_entered:
                self.deal = self._new_deal()
            self.deal.starter_entered = True
            rank = self.deal.starter.rank
        elif view.screen is Screen.PLAY:
            rank = self._play_rank(view)
            if rank is None:
                return [KeyStep("go")]
        else:  # the crib (or a hand, if the play was not recorded)
            rank = self._crib_rank()
        return self._pick(view, rank)

    def _cut_rank(self, view: View) -> Rank:
        taken = set(self.cuts.values())
        choices = [r for r in (_label_rank(o) for o in view.picker.options)  # type: ignore[union-attr]
                   if r is not None and r not in taken]
        rank = self.rng.choice(choices) if choices else Rank.ACE
        self.cuts[view.picker.prompt] = rank  # type: ignore[union-attr]
        return rank

    def _seat_to_act(self, view: View) -> int:
        for index, side in enumerate(view.sides):
            if side.to_act:
                return index
        names = [side.name for side in view.sides]
        return names.index(view.turn) if view.turn in names else 0

    def _play_rank(self, view: View) -> Rank | None:
        if self.deal is None:
            self.deal = self._new_deal()
        hand = self.deal.hands[self._seat_to_act(view) % 2]
        count = view.count or 0
        offered = {_label_rank(o) for o in view.picker.options}  # type: ignore[union-attr]
        fitting = [c for c in hand if count + c.rank.pips <= 31 and c.rank in offered]
        if not fitting:
            return None
        card = self.rng.choice(fitting)
        hand.remove(card)
        return card.rank

    def _crib_rank(self) -> Rank:
        if self.deal is None:
            self.deal = self._new_deal()
        card = self.deal.crib[self.deal.crib_entered % 4]
        self.deal.crib_entered += 1
        if self.deal.crib_entered >= 4:
            self.deal = None  # the next starter begins a new deal
        return card.rank

    def _pick(self, view: View, rank: Rank) -> list[KeyStep]:
        picker = view.picker
        assert picker is not None
        options = picker.options
        if self.kit == "keypad" and RANK_LABELS[rank] in options:
            return [KeyStep(RANK_LABELS[rank])]  # a rank key enters its rank at once
        target = next((i for i, o in enumerate(options) if o == RANK_LABELS[rank]), None)
        if target is None:
            target = next((i for i, o in enumerate(options) if _label_rank(o) is rank), None)
        if target is None:  # not offered: take what is highlighted
            target = picker.index
        if self.kit == "keypad":
            return [KeyStep("ok")]
        return [*_turns(picker.index, target, len(options)), KeyStep("ok")]


def _turns(start: int, target: int, wheel: int = 0) -> list[KeyStep]:
    """Encoder detents from ``start`` to ``target`` (the short way round a wheel)."""
    delta = target - start
    if wheel:
        delta %= wheel
        if delta > wheel // 2:
            delta -= wheel
    if delta == 0:
        return []
    return [KeyStep("right" if delta > 0 else "left", count=abs(delta))]


@dataclass
class PlayedGame:
    """A game the pretend table played through the simulator."""

    script: str
    final: View | None
    record: str
    frames: int
    keys: int
    views: list[View] = field(default_factory=list)


def step_text(step: KeyStep) -> str:
    """A key step in script notation."""
    word = ("hold-" if step.hold else "") + step.key
    if step.key == "wait":
        word = f"wait:{step.seconds:g}"
    return word + (f"*{step.count}" if step.count > 1 else "")


def record_game(
    seed: int = 1,
    *,
    config: Config | None = None,
    max_keys: int = 20000,
    until: Callable[[View], bool] | None = None,
    on_frame: Callable[[View, Image.Image], None] | None = None,
) -> PlayedGame:
    """Let the pretend table play through the simulator until the game is over (or ``until``
    says stop); returns the keys as a script, the final view and the record."""
    config = config or Config()
    player = AutoPlayer(seed, kit=config.input.kit)
    views: list[View] = []
    lines: list[str] = []
    frames = 0

    def seen(view: View, image: Image.Image) -> None:
        nonlocal frames
        frames += 1
        views.append(view)
        if on_frame is not None:
            on_frame(view, image)

    with tempfile.TemporaryDirectory(prefix="pegboard-autoplay-") as scratch:
        store = Store(Path(scratch), owner="autoplay")
        sim = Simulator(config, store, RecordingDisplay(), clock=FakeClock(),
                        on_frame=seen)
        keys = 0
        try:
            sim.start()
            while keys < max_keys and sim.loop.running:
                view = sim.loop.shown
                assert view is not None
                if until is not None and until(view):
                    break
                steps = player.decide(view)
                if not steps:
                    break
                for step in steps:
                    sim.press(step)
                    lines.append(step_text(step))
                    keys += step.count
        finally:
            sim.close()
            record = game_record(store)
            store.close()
    return PlayedGame(script=_wrap_script(lines), final=views[-1] if views else None,
                      record=record, frames=frames, keys=keys, views=views)


def full_game_script(seed: int = 1) -> tuple[str, View | None]:
    """The key script of a whole two-player game to 121, and its final screen."""
    game = record_game(seed)
    return game.script, game.final


def _wrap_script(words: list[str], width: int = 78) -> str:
    lines: list[str] = []
    current = ""
    for word in words:
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}".strip()
    if current:
        lines.append(current)
    return "\n".join(lines) + "\n"
