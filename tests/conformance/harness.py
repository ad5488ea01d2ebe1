"""The pretend table: whole games played on the device by keys, checked at every screen.

A :class:`Harness` plays one :class:`~tests.conformance.deal.GameSpec`. It reads each
screen (the :class:`~pegboard.app.view.View`) like a player and answers with keys on the mock
pins: the setup by its rows, the dealer, every starter, card, go, hand and crib through the
card wheel (holding for a flush or his nobs), claims and muggins calls, and OK through every
page. What the device records is followed entry by entry against the truth (see
:mod:`~tests.conformance.follow`), so an UNDO, a resuited hand or a restart is followed
exactly.

Checks at every step (RULES.md; the screens of ``pegboard/app``): during the play the count,
the pile and the player to act are the truth's and the board is the ledger's; after every
entry the award line names exactly what was pegged; every hand and crib counted has a page
whose title gives its true count (a hand of nothing too, "nineteen"); claim screens
name the act waiting and muggins calls the points missed; the game-over screen names the
winner and the skunk. After the game the written record is replayed and compared (see
:mod:`~tests.conformance.record_check`).

Scripted mistakes (each decided from the seed, so a game is repeatable): a hand or crib
entered without its flush or nobs, put right on its page (or claim screen) with GO or never;
under- and over-claims, and muggins called or declined; a card that cannot be played (nothing
may change) or GO on a lead (the wheel jumps, nothing else changes); UNDO after an entry, then
the same entry again; the power pulled (or the box shut down) mid-deal and the game restored.

Known app bugs (:data:`~tests.conformance.follow.FINDINGS`) are noted, each with its first
example, instead of failing the game; the table goes round them as players would (a flush the
device cannot take is left at the nearest count it can take, and the truth is changed by
exactly that), so the rest of the game is still checked. Anything else is a mismatch.
"""

from __future__ import annotations

import dataclasses
import re
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from pegboard.app import show, table, wheels
from pegboard.app.state import Reading, WheelScreen
from pegboard.app.suit_facts import SuitFact
from pegboard.app.view import PickerView, Screen, View
from pegboard.config import Config, InputConfig
from pegboard.rules.cards import Card, Rank
from pegboard.rules.events import Go, Muggins, Play
from pegboard.rules.state import Phase
from pegboard.rules.value import replace
from pegboard.sim.fakes import FakeClock
from pegboard.sim.keys import KeyStep
from tests.conformance.deal import (
    GameSpec,
    Want,
    choose_play,
    cut_cards,
    facts_fit,
    label_rank,
    rank_label,
    rng_at,
    want_in_crib,
    want_in_hand,
)
from tests.conformance.device import Device, read_back
from tests.conformance.follow import (
    MAX_ILLEGAL,
    MAX_RESTARTS,
    MAX_SCREENS,
    NO_ROOM,
    RATES,
    SILENT,
    WHEEL_FACT,
    AwardWant,
    Follower,
    GameReport,
    Key,
    Mismatch,
    PageWant,
)
from tests.conformance.record_check import check_record
from tests.conformance.truth import Act, game_points, names_awards, skunk

LEAST_WORTH = {"go": 1, "last card": 1, "fifteen": 2, "pair": 2, "thirty-one": 2,
               "pair royal": 6, "double pair royal": 12, "run": 3}
"""What each kind of play score is worth at the least (RULES.md, "The play"): where the
claim dial starts."""
SHOW_CLAIM_START = 4
"""Where a hand's or crib's claim dial starts, whatever its cards (docs/rules.md)."""
COUNT_CLAIMED = re.compile(r".+'s (hand|crib): claimed \d+|.+ claimed \d+( \((hand|crib)\))?|"
                           r"(Hand|Crib): claimed \d+")
"""A hand's or crib's claim as the screen words it (a crib's heads the next starter's screen
while it can still be called)."""


def _group_start(picker: PickerView) -> bool:
    """The wheel's highlight is the first of its group of ranks (A-5, 6-9, 10-K) on it."""
    ranks = [option.split()[0] for option in picker.options]
    group = [_GROUP.get(rank, 2) for rank in ranks]
    here = picker.index
    return here == group.index(group[here])


_GROUP = {"A": 0, "2": 0, "3": 0, "4": 0, "5": 0, "6": 1, "7": 1, "8": 1, "9": 1}


def _strip(line: str) -> str:
    return re.sub(r"^\d+ ", "", line)


def _worth(fact: str) -> tuple[int, bool]:
    """A fact label's flush length and nobs: "+flush 4 nobs" (4, True), "plain" (0, False)."""
    return sum(int(word) for word in fact.split() if word.isdigit()), "nobs" in fact


def _within(fact: str, real: str) -> bool:
    """Does ``fact`` claim no more than the real facts: his nobs only if it is there, and
    a flush no longer than the real one?"""
    (flush, nobs), (real_flush, real_nobs) = _worth(fact), _worth(real)
    return flush <= real_flush and (real_nobs or not nobs)


def play_game(spec: GameSpec, directory: Path, *,
              distort: Callable[[Act], Act] | None = None) -> GameReport:
    """One game on a device of its own, its store at ``directory``."""
    device = Device(Config(input=InputConfig(kit=spec.kit)), directory, FakeClock())
    try:
        return Harness(spec, device, distort=distort).play()
    finally:
        device.close()


class Harness(Follower):
    """One game of the pretend table on the device (see the module docstring).

    ``distort`` changes every act of the truth before it is pegged: the harness's own test
    gives it a wrong truth and expects mismatches."""

    def __init__(self, spec: GameSpec, device: Device, *,
                 distort: Callable[[Act], Act] | None = None) -> None:
        super().__init__(spec, device, distort=distort)
        self.restarts = 0
        self.illegal = 0
        self.started = False
        self.finished = False
        self.keylog: list[str] = []

    # -- running -------------------------------------------------------------------------

    def play(self) -> GameReport:
        """Play the game from the home screen to its end (the device is back home) and
        check it; the report lists what did not agree."""
        started = time.perf_counter()
        keys = self.device.keys
        try:
            self._loop()
        except Mismatch as error:
            self._fail(str(error))
        except Exception as error:  # a crash of the harness (or of the device) is a failure
            self._fail(f"{type(error).__name__}: {error}")
        if not self.report.mismatches:
            record, result = read_back(self.device.directory)
            for problem in check_record(record, result, self.place.ledger, self.names):
                self._fail(problem)
        report = self.report
        report.keys = self.device.keys - keys
        report.entries = len(self.shapes)
        report.deals = self.place.deal_no
        report.scores = self.place.ledger.scores
        report.winner = self.place.ledger.winner
        report.seconds = time.perf_counter() - started
        return report

    def _fail(self, problem: str) -> None:
        keys = " ".join(self.keylog[-30:])
        self.report.mismatches.append(
            f"{self.spec.label()}, deal {self.place.deal_no}, entry {len(self.shapes)}: "
            f"{problem}\n    last keys: {keys}")

    def _loop(self) -> None:
        handlers: dict[Screen, Callable[[View], None]] = {
            Screen.HOME: self._home, Screen.SETUP: self._setup, Screen.DEALER: self._dealer,
            Screen.CUT: self._cut, Screen.STARTER: self._starter, Screen.PLAY: self._play,
            Screen.CRIB: self._crib, Screen.HAND: self._hand, Screen.CLAIM: self._claim,
            Screen.CONFIRM: self._confirm, Screen.SHOW: self._show,
            Screen.MESSAGE: self._message, Screen.HELP: self._ok,
            Screen.GAME_OVER: self._game_over,
        }
        for _ in range(MAX_SCREENS):
            if self.finished:
                return
            if self.undo_next is not None:
                self._undo()
                continue
            view = self.device.view
            handler = handlers.get(view.screen)
            if handler is None:
                raise Mismatch(f"unexpected screen {view.screen.value} {view.title!r}")
            handler(view)
        raise Mismatch(f"no end after {MAX_SCREENS} screens")

    # -- keys ----------------------------------------------------------------------------

    @property
    def keypad(self) -> bool:
        return self.spec.kit == "keypad"

    def press(self, key: str, *, hold: bool = False) -> None:
        """One key (or a held key) on the pins."""
        self.keylog.append(("hold-" if hold else "") + key)
        self.device.press(KeyStep(key, hold=hold))

    def spin(self, detents: int) -> None:
        """Turn the knob (encoder kit)."""
        if detents:
            self.keylog.append(f"spin{detents:+d}")
            self.device.spin(detents)

    def choose(self, view: View, wanted: str) -> None:
        """Choose the list row that starts with ``wanted``: its number key on the keypad,
        else turn to it and OK."""
        rows = [_strip(line) for line in view.lines]
        index = next((i for i, row in enumerate(rows) if row.startswith(wanted)), None)
        if index is None:
            raise Mismatch(f"no row {wanted!r} on {view.title!r}: {rows}")
        if self.keypad and index < len(Rank):
            self.press(rank_label(Rank(index + 1)))
        else:
            self.spin(index - (view.selected or 0))
            self.press("ok")
        self.sync()

    def type_number(self, number: int, start: int = 0) -> None:
        """Set a number screen (starting at ``start``) to ``number``: turns, or digit keys
        (A = 1, 10 = 0; none when the number is already there)."""
        if not self.keypad:
            self.spin(number - start)
            self.sync()
            for _ in range(30):
                # A quick spin may move the claim dial by fives: read it, then put it right
                # a slow click at a time, as a player does.
                shown = int(self.device.view.lines[0].rsplit(":", 1)[1])
                if shown == number:
                    return
                self.device.sim.hands.wait(0.5)
                self.spin(1 if shown < number else -1)
                self.sync()
            raise Mismatch(f"the dial would not come to {number}: {self.device.view.lines}")
        digits = str(number) if number != start else ""
        for digit in digits:
            self.press({"1": "A", "0": "10"}.get(digit, digit))

    def enter(self, view: View, card: Card, want: Want, key: Key, *, crib: bool) -> None:
        """Enter ``card`` on the wheel with the fact ``want`` (plain: the rank alone).

        A fact the wheel does not offer is entered plain and put right at the show."""
        picker = view.picker
        assert picker is not None
        places = [i for i, label in enumerate(picker.options) if label_rank(label) is card.rank]
        if not places:
            raise Mismatch(f"{rank_label(card.rank)} is not on the wheel "
                           f"({picker.prompt}: {' '.join(picker.options)})")
        rank = rank_label(card.rank)
        if not self.keypad:
            size = len(picker.options)
            delta = (places[0] - picker.index) % size
            self.spin(delta if delta <= size // 2 else delta - size)
        if want.plain:
            self.press(rank if self.keypad else "ok")
            self.sync()
            return
        facts = self._facts(card.rank) if self.keypad else None
        size = self._hand_size()
        if facts is not None and len(facts) == 1 and facts_fit(facts[0], want, crib=crib,
                                                               size=size):
            self.press(rank, hold=True)  # the rank's one fact: the hold enters it
            self.sync()
            return
        for _ in range(4 if facts is None or len(facts) != 1 else 0):
            self.press(rank if self.keypad else "ok", hold=True)
            if facts_fit(self._picker().facts, want, crib=crib, size=size):
                self.press("ok")
                self.sync()
                return
        self._note(WHEEL_FACT, f"{picker.prompt}: {rank} {want} not among the facts offered "
                               f"({self._deal_text()})")
        self.pending_fallback = key
        if self.keypad:
            self.press(rank)
        else:
            for _ in range(4):
                if self._picker().facts in ((), (SuitFact.PLAIN,)):
                    break
                self.press("ok", hold=True)
            self.press("ok")
        self.sync()

    def _hand_size(self) -> int:
        """How many cards a hand holds in the game on the device."""
        session = self.device.sim.loop.state.session
        return 4 if session is None else session.state.rules.hand_size()

    def _facts(self, rank: Rank) -> list[tuple[SuitFact, ...]] | None:
        """The suit facts the card wheel holds for ``rank`` (None where it has no one place
        for it): what a held rank key will enter or show."""
        state = self.device.sim.loop.state
        if isinstance(state.screen, Reading):
            state = show.close(state, state.screen)[0]
        screen, session = state.screen, state.session
        if not isinstance(screen, WheelScreen) or session is None:
            return None
        found = wheels.table_wheel(session.state, table.goes_this_deal(session),
                                   screen.pending, screen.anchor)
        places = [slot for slot in found[1] if slot[0].rank is rank] if found else []
        return [option.facts for option in places[0][1:]] if len(places) == 1 else None

    def _picker(self) -> PickerView:
        picker = self.device.view.picker
        if picker is None:
            raise Mismatch(f"the wheel went away: {self.device.view.title!r}")
        return picker

    def _ok(self, view: View) -> None:
        self.press("ok")
        self.sync()

    def _undo(self) -> None:
        """UNDO right after an entry: that entry (with an automatic deal after it) is taken
        back, and the table enters the same thing again."""
        at, self.undo_next = self.undo_next, None
        assert at is not None
        view = self.device.view
        if len(self.shapes) != at or not self._undo_takes_back(view):
            return
        if isinstance(self.events[-1], Muggins):
            return  # a call is made from the menu, not entered again on this screen
        self._mistake("undo, then the same again", at)
        before = list(self.shapes)
        last = self.events[-1]
        self.press("undo")
        self.sync()
        back = len(self.shapes)
        if back >= at:
            raise Mismatch(f"UNDO on {view.screen.value} {view.title!r} took nothing back")
        self.redo = (back, before[back])
        self.award = None
        if isinstance(last, Play):
            self.award = f"Undone: {self.names[last.player]}'s {rank_label(last.card.rank)}"
        elif isinstance(last, Go):
            self.award = f"Undone: {self.names[last.player]}'s go"

    def _undo_takes_back(self, view: View) -> bool:
        screen = view.screen
        if screen is Screen.MESSAGE:
            return view.title not in ("Not allowed", "A tie", "Game restored")
        if screen is Screen.CRIB:
            return view.lines == ("",)
        return screen in (Screen.PLAY, Screen.STARTER, Screen.SHOW, Screen.HELP,
                          Screen.CLAIM, Screen.CONFIRM, Screen.GAME_OVER)

    def _maybe_restart(self, view: View) -> bool:
        """Pull the plug (or shut down) here, power up, and check the game comes back
        exactly: a "Game restored" page with the scores, then this very screen."""
        at = len(self.shapes)
        if self.restarts >= MAX_RESTARTS or ("restart", at) in self.done or \
                not self._chance("restart", 13, sum(map(ord, view.screen.value))):
            return False
        self.done.add(("restart", at))
        self.restarts += 1
        # Mostly the plug pulled; a clean shutdown now and then (it costs the encoder kit a
        # fifth of a second: gpiozero's button threads wake every 0.1 s to notice).
        power_cut = rng_at(self.spec.seed, at, 14).random() < 0.75
        self._mistake("restart: power cut" if power_cut else "restart: shut down", at)
        records = self.device.records()
        self.keylog.append("<power cut>" if power_cut else "<shut down>")
        self.device.restart(power_cut=power_cut)
        restored = self.device.view
        self._expect(restored.screen is Screen.MESSAGE and restored.title == "Game restored",
                     f"after a restart the screen is {restored.title!r}")
        self._expect(restored.lines[:1] == (self._score_line(),),
                     f"restored with {restored.lines[:1]}, the scores are {self._score_line()}")
        self._expect(self.device.records() == records, "the record changed on a restart")
        self.press("ok")
        self.sync()
        self.award = ()
        again = self.device.view
        # "No muggins" is an entry of the record: the question never comes back.
        same = again.screen is view.screen and again.sides == view.sides
        if view.screen is Screen.PLAY:
            same = same and (again.count, again.turn, again.pile) == (
                view.count, view.turn, view.pile)
        if view.screen in (Screen.STARTER, Screen.CLAIM):
            same = same and again.title == view.title
        self._expect(same, f"restored to {again.screen.value} {again.title!r}, was on "
                           f"{view.screen.value} {view.title!r}")
        return True

    def _maybe_illegal(self, view: View) -> bool:
        """GO on a lead, where nobody can say go: the wheel jumps ahead a group and nothing
        else changes. Or (keypad) a card that would pass 31 or was already seen: refused with
        a "Not allowed" page, and nothing changes."""
        assert self.truth is not None
        gs = self.truth.state
        at = len(self.shapes)
        if self.illegal >= MAX_ILLEGAL or ("illegal", at) in self.done or \
                not self._chance("illegal", 15):
            return False
        self.done.add(("illegal", at))
        seen = Counter(c.rank for c in gs.seen)
        if gs.count == 0:
            kind, key = "GO on a lead", "go"
        elif self.keypad:
            over = [r for r in Rank if r.pips > 31 - gs.count]
            gone = [r for r in Rank if seen[r] == 4]
            if gone and rng_at(self.spec.seed, len(self.shapes), 16).random() < 0.5:
                kind, key = "card already seen (keypad)", rank_label(gone[0])
            elif over:
                kind, key = "card passing 31 (keypad)", rank_label(over[-1])
            else:
                return False
        else:
            return False
        self.illegal += 1
        self._mistake(kind, len(self.shapes))
        records = len(self.device.records())
        self.press(key)
        after = self.device.view
        if key == "go":
            self._expect(after.picker is not None and view.picker is not None
                         and replace(after, picker=view.picker) == view
                         and _group_start(after.picker), f"after {kind} the screen is "
                         f"{after.title!r}, the wheel {after.picker}")
            self._expect(len(self.device.records()) == records, f"{kind} was recorded")
            return True
        if after.screen is Screen.MESSAGE and after.title == "Not allowed":
            self.press("ok")
            after = self.device.view
        elif after == view:
            self._note(SILENT, f"{key} at count {gs.count}: the screen stays as it was")
        self._expect(after == view, f"after {kind} the screen is {after.title!r}")
        self._expect(len(self.device.records()) == records, f"{kind} was recorded")
        return True

    # -- checks --------------------------------------------------------------------------

    def _expect(self, ok: bool, problem: str) -> None:
        self.report.checks += 1
        if not ok:
            raise Mismatch(problem)

    def _board(self, view: View) -> None:
        scores = tuple(side.score for side in view.sides)
        self._expect(scores == self.place.ledger.scores,
                     f"the board says {scores}, the truth {self.place.ledger.scores}")
        self._expect(not self.pages, f"no page came for {self._page_name(self.pages)}")
        self._expect(self.ended is None, "no page came for the end of the play")
        winner = self.place.ledger.winner
        self._expect(winner is None, f"{view.screen.value} screen after "
                                     f"{self._side_name(winner or 0)} won")

    def _page_name(self, pages: list[PageWant]) -> str:
        if not pages:
            return ""
        page = pages[0]
        return f"{self.names[page.player]}'s {'crib' if page.crib else 'hand'}"

    def _award(self, view: View, want: AwardWant) -> None:
        """The award line says exactly ``want`` (a text), or names those awards."""
        if want is None:
            return
        said = view.award
        ok = said == want if isinstance(want, str) else names_awards(said, list(want))
        self._expect(ok, f"award line {view.award!r}, expected {self._said(want)}")

    @staticmethod
    def _said(want: AwardWant) -> str:
        if isinstance(want, tuple):
            return "; ".join(f"{name} {part.reason} {part.points}" for name, part in want) \
                or "nothing"
        return repr(want)

    # -- screens -------------------------------------------------------------------------

    def _home(self, view: View) -> None:
        if self.started:
            self.finished = True
            return
        self.started = True
        self.choose(view, "New game")

    def _setup(self, view: View) -> None:
        spec = self.spec
        wanted = [("Players:", str(spec.players))]
        wanted += [(f"Seat {k + 1}:", name) for k, name in enumerate(self.names)]
        if spec.players == 2:
            wanted.append(("Five-card:", "on" if spec.five_card else "off"))
        wanted += [("Target:", str(spec.target)),
                   ("Muggins:", "on" if spec.muggins else "off"),
                   ("Teaching:", "on" if spec.teaching else "off")]
        rows = [_strip(line) for line in view.lines]
        for head, value in wanted:
            row = next((r for r in rows if r.startswith(head)), None)
            if row is None:
                raise Mismatch(f"no {head!r} row on the setup screen: {rows}")
            if row[len(head):].strip() != value:
                self.choose(view, head)
                return
        self.choose(view, "Start")

    def _dealer(self, view: View) -> None:
        if self.spec.cut:
            self.choose(view, "Cut for deal")
            return
        dealer = rng_at(self.spec.seed, 5).randrange(self.spec.players)
        self.choose(view, f"{self.names[dealer]} deals")

    def _cut(self, view: View) -> None:
        cards = cut_cards(self.spec, self.place.cut_attempt)
        done = len(view.lines)
        assert view.picker is not None
        self._expect(view.picker.prompt == f"{self.names[done]} cuts",
                     f"cut prompt {view.picker.prompt!r}")
        self.enter(view, cards[done], Want(), (done, False), crib=False)

    def _starter(self, view: View) -> None:
        deal = self.place.deal
        if deal is None:
            raise Mismatch("a starter is asked before any deal")
        self._board(view)
        # (a muggins game: the crib's claim, still open to a call, may head the screen)
        claim_open = self.spec.muggins and COUNT_CLAIMED.fullmatch(view.title) is not None
        self._expect(view.title == f"Deal {deal.number}: {self.names[deal.dealer]} deals"
                     or claim_open,
                     f"starter title {view.title!r}, deal {deal.number} by "
                     f"{self.names[deal.dealer]}")
        self._award(view, self.award)
        if self._maybe_restart(view):
            return
        self.enter(view, deal.starter, Want(), (deal.dealer, False), crib=False)

    def _play(self, view: View) -> None:
        truth, deal = self.truth, self.place.deal
        if truth is None or deal is None:
            raise Mismatch("the play screen before any deal")
        gs = truth.state
        if gs.phase is not Phase.PLAY or gs.to_act is None:
            raise Mismatch(f"the play screen, but the truth is at {gs.phase.value}")
        self._board(view)
        p = gs.to_act
        name = self.names[p]
        self._expect(view.count == gs.count, f"count {view.count}, truly {gs.count}")
        self._expect(view.turn == name, f"turn {view.turn!r}, truly {name}")
        pile = tuple(rank_label(c.rank) for c in gs.pile)
        self._expect(view.pile == pile, f"pile {view.pile}, truly {pile}")
        self._expect(view.picker is not None and view.picker.prompt == f"{name} plays",
                     f"prompt {view.picker.prompt if view.picker else None!r}")
        self._award(view, self.award)
        if self._maybe_restart(view) or self._maybe_illegal(view):
            return
        held = tuple(c for c in deal.kept[p] if c not in gs.played[p])
        card = choose_play(held, gs.pile, gs.count,
                           rng_at(self.spec.seed, deal.number, len(truth.events), 4))
        self.intent = card
        if card is None:
            self.press("go")
            self.sync()
            return
        forgot = (p, False) in self._forgotten()
        want = Want() if forgot else want_in_hand(card, gs.played[p], deal.kept[p],
                                                  deal.starter)
        self.enter(view, card, want, (p, False), crib=False)

    def _crib(self, view: View) -> None:
        truth, deal = self.truth, self.place.deal
        assert view.picker is not None
        if truth is None or deal is None or truth.state.phase is not Phase.CRIB:
            raise Mismatch("the crib is asked out of turn")
        self._board(view)
        match = re.fullmatch(r"Crib card (\d)/4", view.picker.prompt)
        if match is None:
            raise Mismatch(f"crib prompt {view.picker.prompt!r}")
        k = int(match.group(1))
        if k > 1 and self._maybe_restart(view):
            return
        card = sorted(deal.crib)[k - 1]
        forgot = (deal.dealer, True) in self._forgotten()
        want = Want() if forgot else want_in_crib(card, deal.crib, deal.starter)
        self.enter(view, card, want, (deal.dealer, True), crib=True)

    def _hand(self, view: View) -> None:
        truth, deal = self.truth, self.place.deal
        assert view.picker is not None
        match = re.fullmatch(r"(\w+)'s hand (\d)/(\d)", view.picker.prompt)
        if truth is None or deal is None or match is None:
            raise Mismatch(f"hand prompt {view.picker.prompt!r}")
        gs = truth.state
        p = self.names.index(match.group(1))
        self._expect(gs.phase is Phase.SHOW and gs.to_act == p,
                     f"{match.group(1)}'s hand asked, the truth is at {gs.phase.value}")
        self._board(view)
        played = gs.played[p]
        rest = sorted(c for c in deal.kept[p] if c not in played)
        j = int(match.group(2)) - 1 - len(played)
        card = rest[j]
        forgot = (p, False) in self._forgotten()
        want = Want() if forgot else want_in_hand(card, (*played, *rest[:j]), deal.kept[p],
                                                  deal.starter)
        self.enter(view, card, want, (p, False), crib=False)

    def _claim(self, view: View) -> None:
        ledger = self.place.ledger
        act = ledger.next_act
        if act is None:
            raise Mismatch(f"a claim screen {view.title!r} with nothing waiting")
        name = self.names[act.player]
        self._expect(view.title == f"{name} claims", f"claim title {view.title!r}, "
                                                      f"{name}'s {act.reason} waits")
        # The claim line names every kind of score the act owes, the dial at the least
        # those kinds are worth ("run, last card: 4"; a hand or crib at 4, whatever it holds).
        reasons = list(dict.fromkeys(part.reason for part in act.parts)) or [act.reason]
        kinds = ", ".join(reasons)
        start = sum(LEAST_WORTH.get(reason.split(" of ")[0], 0) for reason in reasons)
        if act.counted:
            start = SHOW_CLAIM_START
        self._expect(bool(view.lines) and view.lines[0] == f"{kinds}: {start}",
                     f"claim line {view.lines[:1]}, {name}'s {kinds} waits")
        self._expect(not self.pages, f"no page came for {self._page_name(self.pages)}")
        if self._maybe_restart(view):
            return
        if act.counted:
            _, _, fix = self._plan(act.player, act.kind == "crib", act.points)
            if fix is not None:
                self._fix(act.player, act.kind == "crib", fix)
                act = self.place.ledger.next_act
                assert act is not None
        points = act.points
        rng = rng_at(self.spec.seed, len(self.shapes), 9)
        roll = rng.random() if self.spec.mistakes else 1.0
        side = self.rules.side_of(act.player, self.spec.players)
        if roll < RATES["under"] and points > 0:
            points = rng.randrange(points)
        elif roll < RATES["under"] + RATES["over"] and \
                ledger.scores[side] + points + 3 < ledger.target:
            points = min(29, points + rng.randint(1, 3))
        self.type_number(points, start)
        self.press("ok")
        self.sync()
        if not self.spec.teaching and self.place.ledger.missed is not None:
            self._call_from_menu()

    def _call_from_menu(self) -> None:
        """Without teaching nobody is asked: an opponent who spots the miss calls from the
        menu ("Muggins: Ben", there after every claim), else the points are lost."""
        missed = self.place.ledger.missed
        assert missed is not None
        owner, points = missed
        rng = rng_at(self.spec.seed, len(self.shapes), 10)
        if rng.random() >= RATES["call"]:
            self._mistake("muggins declined", len(self.shapes))
            self.place = dataclasses.replace(self.place, ledger=self.place.ledger.decline())
            return
        caller = rng.choice([p for p in range(self.spec.players)
                             if self.rules.side_of(p, self.spec.players)
                             != self.rules.side_of(owner, self.spec.players)])
        self.press("menu")
        self.choose(self.device.view, f"Muggins: {self.names[caller]}")
        view = self.device.view
        self._expect(view.title == "Muggins" and f"missed {points}" in " ".join(view.lines),
                     f"after the call {view.title!r} {view.lines}, {points} were missed")
        self.press("ok")
        self.sync()

    def _confirm(self, view: View) -> None:
        if not self.spec.teaching:
            raise Mismatch(f"a muggins question without teaching: {view.title!r}")
        match = re.fullmatch(r"(\w+) missed (\d+)", view.title)
        missed = self.place.ledger.missed
        if match is None or missed is None:
            raise Mismatch(f"unexpected question {view.title!r} (missed: {missed})")
        owner, points = missed
        self._expect(not self.pages, f"no page came for {self._page_name(self.pages)}")
        self._expect((match.group(1), int(match.group(2))) == (self.names[owner], points),
                     f"{view.title!r}, but {self.names[owner]} missed {points}")
        self._call_or_decline(view, owner, points)

    def _call_or_decline(self, view: View, owner: int, points: int) -> None:
        rng = rng_at(self.spec.seed, len(self.shapes), 10)
        if rng.random() < RATES["call"]:
            caller = rng.choice([p for p in range(self.spec.players)
                                 if self.rules.side_of(p, self.spec.players)
                                 != self.rules.side_of(owner, self.spec.players)])
            self.choose(view, f"Muggins {points}: {self.names[caller]}")
            return
        self._mistake("muggins declined", len(self.shapes))
        self.choose(view, "No muggins")
        self.place = dataclasses.replace(self.place, ledger=self.place.ledger.decline())

    def _show(self, view: View) -> None:
        if self.ended is not None:
            self._expect(view.title == "End of the play" and names_awards(
                "; ".join(view.lines), list(self.ended)),
                f"page {view.title!r} {view.lines}, expected the end of the play: "
                f"{self._said(self.ended)}")
            self.ended = None
            self.press("ok")
            self.sync()
            return
        if not self.pages:
            raise Mismatch(f"a count page nobody expected: {view.title!r}")
        page = self.pages[0]
        what = "crib" if page.crib else "hand"
        match = re.fullmatch(r"(\w+)'s (hand|crib): (\d+)", view.title)
        self._expect(match is not None and (match.group(1), match.group(2)) == (
            self.names[page.player], what),
            f"page {view.title!r}, expected {self.names[page.player]}'s {what}")
        assert match is not None
        if page.first is not None:
            self._expect(int(match.group(3)) == page.first,
                         f"page {view.title!r}, the count is {page.first}")
        self._award(view, page.award)
        if page.fix is not None:
            self._fix(page.player, page.crib, page.fix)
            view = self.device.view
            match = re.fullmatch(r"(\w+)'s (hand|crib): (\d+)", view.title)
            assert match is not None
        self._expect(int(match.group(3)) == page.final,
                     f"page {view.title!r}, the count is {page.final}")
        # What was said, when it was not the count, has a line of its own under the title.
        said = (f"said {page.said}",) if page.said not in (None, page.final) else ()
        self._expect(view.lines[:len(said)] == said,
                     f"page {view.title!r} {view.lines[:1]}, claimed {page.said}")
        if page.final == 0:
            self._expect(view.lines[len(said):len(said) + 1] == ("nineteen",),
                         f"a hand of nothing reads {view.lines[:2]}")
        self.pages.pop(0)
        self.press("ok")
        self.sync()

    def _fix(self, player: int, crib: bool, label: str) -> None:
        """GO until it has added the count's real facts (``label``, e.g. "+flush 4").

        When GO has gone round every fact it offers without that one (or offers none), the
        real count cannot be entered: a known app bug (:data:`NO_ROOM`). The player then
        takes the fact worth most of those that claim nothing the hand has not got, and the
        table goes on with the count the device makes of it (see :meth:`settle`)."""
        offered: list[str] = []
        while True:
            match = re.search(r"GO (\S.*)$", self.device.view.hint)
            fact = match.group(1).strip() if match is not None else None
            if fact is None or fact in offered:
                break
            offered.append(fact)
            self.press("go")
            self.sync()
            if fact == label:
                return
        best = max((f for f in offered if _within(f, label)),
                   key=lambda f: sum(_worth(f)), default=None)
        for _ in offered if best is not None else ():
            fact = self.device.view.hint.split("GO ", 1)[1].strip()
            self.press("go")
            self.sync()
            if fact == best:
                break
        points = self.app_count(player, crib)
        self._note(NO_ROOM, f"{self.names[player]}'s {'crib' if crib else 'hand'} needs "
                            f"{label}; GO offers {', '.join(offered) or 'nothing'} "
                            f"({self._deal_text()})")
        self.settle(player, crib, points)

    def _message(self, view: View) -> None:
        title = view.title
        if title in ("Not allowed", "Game restored", "Renege", "False claim"):
            raise Mismatch(f"unexpected page {title!r}: {' '.join(view.lines)}")
        if title.startswith("Missed "):
            self._expect(title == f"Missed {self.missed_now}",
                         f"lesson {title!r}, {self.missed_now} missed")
        self.press("ok")
        self.sync()

    def _game_over(self, view: View) -> None:
        ledger = self.place.ledger
        self._expect(not self.pages, f"no page came for {self._page_name(self.pages)}")
        if ledger.winner is None:
            raise Mismatch(f"the game ended ({view.title!r}), the truth is {ledger.scores}")
        scores = tuple(side.score for side in view.sides)
        # The winner is shown pegged out at the target, as on a board; the record keeps the
        # full total (checked with the record).
        pegged_out = tuple(min(score, ledger.target) if side == ledger.winner else score
                           for side, score in enumerate(ledger.scores))
        self._expect(scores == pegged_out, f"final board {scores}, truth {pegged_out}")
        self._expect(view.title == f"{self._side_name(ledger.winner)} wins",
                     f"game over {view.title!r}, {self._side_name(ledger.winner)} won")
        loser = min(s for i, s in enumerate(ledger.scores) if i != ledger.winner)
        kind = skunk(ledger.target, loser)
        points = game_points(kind)
        words = {"none": "No skunk", "skunk": "Skunk", "double": "Double skunk"}[kind]
        line = f"{words}: {points} game pt{'s' if points != 1 else ''}"
        self._expect(view.lines[:1] == (line,), f"game over says {view.lines[:1]}, not {line}")
        self.press("ok")
        self.sync()
        self.finished = True

