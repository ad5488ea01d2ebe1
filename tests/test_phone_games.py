"""Phones in Chromium (mobile viewports, 360x740), against the board's own phone server.

Debian's Chromium driven by Playwright. The driver of a table of phones (:class:`Table`:
each seat's taps, the box's seats on its kit's mock pins, the referee's record) and whole
games (:func:`whole_game`) are here; the whole games themselves are in
tests/test_phone_whole_games.py. Here:

* a board restarted twice in the middle of a deal with the phones open: no acknowledged tap
  is lost, a reload keeps the cards tapped but not laid away, and the phones go on;
* the starter's suit asked on the counting seat's phone;
* in every state met, every control has an accessible name in the accessibility tree
  (Playwright's ARIA snapshot, what a screen reader reads) and axe-core finds nothing.
"""

from __future__ import annotations

import itertools
import random
import re
import time
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import Error as PlaywrightError

from pegboard.app import machine
from pegboard.app.inputs import Button, KnobTurn, Press
from pegboard.app.seat_entry import seat_seq
from pegboard.app.view import View
from pegboard.rules.cards import DECK, Card
from pegboard.rules.events import Deal, Dealt, Go, LaidAway, OptionsChanged, Play, Starter
from pegboard.rules.game import Game
from pegboard.rules.show import score_hand
from pegboard.rules.state import GameState, Phase
from pegboard.rules.variants import Rules
from pegboard.web.phone_app import LET_GO
from pegboard.web.phone_view import review_json
from tests.referee import build
from tests.referee.referee import judge
from tests.support.phones import WAIT_S, Board, BoxHands, box_keys, box_names, phone_board, until
from tests.support.web import chromium
from tests.test_phone_fall_back import on_the_wait

pytestmark = [pytest.mark.skipif(chromium() is None,
                                 reason="needs chromium (`make test` installs it)"),
              pytest.mark.timeout(600), pytest.mark.usefixtures("patient")]

PHONE: dict[str, Any] = {"viewport": {"width": 360, "height": 740}, "is_mobile": True,
                         "has_touch": True, "device_scale_factor": 2}
NAMES = ("Ann", "Ben", "Cat", "Dan")
CONTROL = re.compile(r"^\s*- (button|textbox|spinbutton|combobox|link|checkbox|radio)\b(.*)$")


def wait_for(board: Board, done: Callable[[], bool], what: str) -> None:
    """Until ``done()`` holds of the board (fails after WAIT_S naming ``what``): looked at
    again at each of the board's publications, and a few times a second besides."""
    condition = board.server.desk.published
    deadline = time.monotonic() + WAIT_S
    with condition:
        while not done():
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"waited {WAIT_S} s for {what}")
            condition.wait(min(left, 0.05))  # woken by a publication, or looked at again


def shows(page: Page, selector: str, text: str, *, whole: bool = False) -> None:
    """Until the page's ``selector`` shows ``text`` (``whole``: exactly that), looked at
    every 20 ms in the page itself: Playwright's ``expect`` looks again only after waits
    growing to a second, which a game of a few hundred taps pays for every tap. Fails after
    WAIT_S saying what it waited for and what was shown."""
    check = ("([s, t, whole]) => { const e = document.querySelector(s); "
             "return !!e && (whole ? e.textContent === t : e.textContent.includes(t)); }")
    try:
        page.wait_for_function(check, arg=[selector, text, whole], polling=20,
                               timeout=WAIT_S * 1000)
    except PlaywrightError as error:
        shown = page.locator(selector).text_content()
        raise AssertionError(f"waited {WAIT_S} s for {selector} to show {text!r}: it "
                             f"shows {shown!r}") from error


TARGETS = """() => {
  // Every control shown, smaller than 44 x 44 CSS pixels; and the page's width.
  const small = [];
  for (const node of document.querySelectorAll("button, input, select, textarea, a[href]")) {
    const box = node.getBoundingClientRect();
    if (!node.offsetParent || box.width === 0) continue;  // not shown
    if (box.width < 44 || box.height < 44) {
      small.push((node.id || node.textContent || node.tagName) + " " +
                 Math.round(box.width) + "x" + Math.round(box.height));
    }
  }
  return [small, document.documentElement.scrollWidth];
}"""


class Checks:
    """Accessibility findings kept by state: axe-core's violations, the controls the
    accessibility tree gives no name, the controls shown smaller than 44 x 44 px, and a page
    wider than the phone's 360 px."""

    def __init__(self, states: Collection[str] | None = None) -> None:
        self.states = states  # None: every state met; else only these
        self.axe: dict[str, list[str]] = {}
        self.unnamed: dict[str, list[str]] = {}
        self.trees: dict[str, str] = {}
        self.small: dict[str, list[str]] = {}

    def look(self, page: Page, state: str) -> None:
        if self.states is not None and state not in self.states:
            return
        small, width = page.evaluate(TARGETS)
        self.small[state] = [*small, *([f"page {width} px wide"] if width > 360 else [])]
        found = Axe().run(page).response["violations"]
        self.axe[state] = [f"{v['id']}: {v['help']} at {[n['target'] for n in v['nodes']]}: "
                           f"{[n.get('failureSummary', '') for n in v['nodes']][:2]}"
                           for v in found]
        tree = page.locator("body").aria_snapshot()
        self.trees[state] = tree
        self.unnamed[state] = [line.strip() for line in tree.splitlines()
                               if (m := CONTROL.match(line)) and not m.group(2).strip()
                               .startswith('"')]

    def look_once(self, page: Page, state: str) -> None:
        """:meth:`look`, the first time ``state`` is met."""
        if not self.looked(state):
            self.look(page, state)

    def looked(self, state: str) -> bool:
        """``state`` was looked at (or is not to be)."""
        return state in self.axe or (self.states is not None and state not in self.states)

    def assert_clean(self, states: set[str]) -> None:
        assert states <= self.axe.keys(), sorted(states - self.axe.keys())
        assert not any(self.axe.values()), self.axe
        assert not any(self.unnamed.values()), self.unnamed
        assert not any(self.small.values()), self.small


STEPS = """async ([steps, ms]) => {
  // A phone's taps done in the page itself, in order: each step first waits (a mutation
  // observer, bounded by ms) until a node shows a text, then taps a button, the one a finger
  // would: shown, enabled, at least 44 x 44 px and the topmost element at its centre once
  // scrolled to. One round trip from the test for a whole hand of taps.
  const shows = (s, t, whole) => { const e = document.querySelector(s);
    return !!e && (whole ? e.textContent === t : e.textContent.includes(t)); };
  const until = (s, t, whole) => new Promise((resolve, reject) => {
    if (shows(s, t, whole)) { resolve(); return; }
    const watch = new MutationObserver(() => { if (shows(s, t, whole)) { done(); resolve(); } });
    const timer = setTimeout(() => {
      done();
      const e = document.querySelector(s);
      reject(new Error("waited " + ms + " ms for " + s + " to show " + JSON.stringify(t) +
        ": it shows " + JSON.stringify(e && e.textContent)));
    }, ms);
    const done = () => { clearTimeout(timer); watch.disconnect(); };
    watch.observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  for (const step of steps) {
    if (step.wait) await until(step.wait[0], step.wait[1], step.wait[2]);
    if (step.clear) document.getElementById("said").textContent = "";
    if (!step.css) continue;
    const found = [...document.querySelectorAll(step.css)].filter(
      (b) => step.text === null || b.textContent === step.text);
    const what = step.css + (step.text === null ? "" : " " + step.text);
    if (found.length !== 1) throw new Error(found.length + " buttons are " + what);
    const b = found[0];
    if (b.disabled) throw new Error(what + " is disabled");
    b.scrollIntoView({ block: "nearest" });
    const r = b.getBoundingClientRect();
    if (r.width < 44 || r.height < 44) throw new Error(what + " is " + r.width + "x" + r.height);
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (top !== b && !b.contains(top)) {
      throw new Error(what + " is covered by " + (top ? top.outerHTML.slice(0, 80) : "nothing"));
    }
    b.click();
  }
}"""


def wait(selector: str, text: str, *, whole: bool = False) -> dict[str, Any]:
    """A step: until the page's ``selector`` shows ``text`` (``whole``: exactly)."""
    return {"wait": [selector, text, whole], "clear": False, "css": None, "text": None}


def tap(css: str, text: str | None = None, *, clear: bool = False) -> dict[str, Any]:
    """A step: tap the one button ``css`` picks (with the text ``text``, when given),
    ``#said`` cleared first (``clear``) so that the answer's words are waited for anew."""
    return {"wait": None, "clear": clear, "css": css, "text": text}


class Table:
    """The phones of a game on the board (and the seats played on the box itself, on its
    kit's mock pins), and the referee's record of what the table entered.

    ``real_deals``: the deals whose taps are Playwright's pointer clicks (each waiting for
    the button to be stable, enabled and hit); the taps of the later deals are made in the
    page (:data:`STEPS`: the same checks, one round trip for a hand of taps), so that a
    whole game fits the suite's time."""

    def __init__(self, board: Board, browser: Browser, players: int, dealer: int,
                 checks: Checks, *, on_box: tuple[int, ...] = (),
                 real_deals: int | None = None) -> None:
        self.board = board
        self.players = players
        self.checks = checks
        self.on_box = on_box
        self.real_deals = real_deals
        self.box = BoxHands(board)
        self.pages: dict[int, Page] = {}
        target = board.game.rules.target
        self.record: list[dict[str, Any]] = [
            build.game(players, **({} if target == 121 else {"target": target})),
            build.deal(dealer)]
        self.taps = [0] * players
        self.left: dict[int, list[Card]] = {}
        self.starter: Card | None = None
        for seat in range(players):  # the phones open their pages together, as at a table
            if seat in on_box:
                continue
            page = browser.new_context(**PHONE).new_page()
            page.goto(f"http://127.0.0.1:{board.port}/join?code={board.code(seat)}",
                      wait_until="commit")
            self.pages[seat] = page
        for page in self.pages.values():
            expect(page.locator("#asked")).to_contain_text("Tap the")

    @property
    def gs(self) -> GameState:
        return self.board.game

    @property
    def real(self) -> bool:
        """This deal's taps are pointer clicks."""
        return self.real_deals is None or self.gs.deal_no <= self.real_deals

    def do(self, seat: int, *steps: dict[str, Any]) -> None:
        """The steps (:func:`wait`, :func:`tap`) on the seat's phone, in order."""
        page = self.pages[seat]
        self.taps[seat] += sum(1 for step in steps if step["css"] is not None)
        if not self.real:
            page.evaluate(STEPS, [list(steps), WAIT_S * 1000])
            return
        for step in steps:
            if step["wait"] is not None:
                shows(page, *step["wait"][:2], whole=step["wait"][2])
            if step["clear"]:
                self.clear(seat)
            if step["css"] is not None:
                css = step["css"] + (f":text-is('{step['text']}')" if step["text"] else "")
                page.locator(css).click()

    def tap(self, seat: int, selector: str) -> None:
        self.do(seat, tap(selector))

    def said(self, seat: int, text: str) -> None:
        shows(self.pages[seat], "#said", text, whole=True)

    def clear(self, seat: int) -> None:
        self.pages[seat].evaluate("document.getElementById('said').textContent = ''")

    def hand(self, seat: int, dealt: tuple[Card, ...], away: tuple[Card, ...],
             *, tapped: int = 0) -> None:
        """The seat's phone enters its cards (the first ``tapped`` are on it already)."""
        self.do(seat, wait("#asked", f"Tap the {len(dealt)} cards"),
                *(tap(f'#grid button[data-card="{card}"]') for card in dealt[tapped:]),
                wait("#asked", "you lay away"),
                *(tap(f'#hand button[data-card="{card}"]') for card in away),
                tap("#actions button", "Lay away", clear=True),
                wait("#said", "Your cards are in.", whole=True))
        assert self.gs.dealt[seat] == dealt and self.gs.laid_away[seat] == away

    def deal(self, rng: random.Random) -> dict[int, tuple[tuple[Card, ...], tuple[Card, ...]]]:
        """Every phone enters a shuffled deal (the dealer last), the dealer's phone the
        starter; the cards each seat was dealt and laid away."""
        gs = self.gs
        assert gs.phase is Phase.STARTER and gs.dealer is not None
        deck = list(DECK)
        rng.shuffle(deck)
        size = gs.rules.dealt_size(gs.players)
        away = size - gs.rules.hand_size()
        hands = {}
        for k in range(1, self.players + 1):
            seat = (gs.dealer + k) % self.players
            dealt = tuple(deck[size * seat: size * seat + size])
            hands[seat] = (dealt, dealt[:away])
            self.left[seat] = list(dealt[away:])
            if seat not in self.on_box:
                self.hand(seat, *hands[seat])
        dealer = gs.dealer
        starter = self.starter = deck[size * self.players]
        if dealer in self.on_box:
            self.box.read()
            self.box.enter(starter)  # its rank alone, on the wheel
        else:
            shows(self.pages[dealer], "#asked", "You deal: tap the starter")
            self.checks.look_once(self.pages[dealer], "the starter")
            self.do(dealer, tap(f'#grid button[data-card="{starter}"]', clear=True),
                    wait("#said", "The starter is in.", whole=True))
        self.record.append(build.starter(str(starter)))
        return hands

    def play(self, box_go: int | None = None, fall_back: int | None = None) -> None:
        """The play: each seat lays its lowest card that fits, else says go, on its phone or
        on the box (``box_go``: that phone's seat says its gos on the box's GO key instead;
        ``fall_back``: that phone's seat lays its first card on the box)."""
        while self.gs.phase is Phase.PLAY and self.gs.winner is None:
            gs = self.gs
            seat = gs.to_act
            assert seat is not None
            if gs.asked is not None:  # a count waits for the starter's suit: the box says it
                self.box.read()
                self.box.suit(self.starter_card())
                continue
            fits = sorted((c for c in self.left[seat] if gs.count + c.pips <= 31),
                          key=lambda c: c.pips)
            before = len(self.board.state.session.events)  # type: ignore[union-attr]
            if seat in self.on_box or (seat == fall_back and not gs.played[seat]):
                self.box.read()
                if fits:
                    self.box.enter(fits[0])
                else:
                    self.box.go()
            else:
                turn = wait("#asked", f"Your turn, count {gs.count}: tap a card, or Go.",
                            whole=True)
                if not self.checks.looked("the play"):
                    self.do(seat, turn)
                    self.checks.look(self.pages[seat], "the play")
                if fits:
                    self.do(seat, turn, tap(f'#hand button[data-card="{fits[0]}"]', clear=True),
                            wait("#said", f"You played {fits[0].pretty}.", whole=True))
                elif seat == box_go:
                    self.do(seat, turn)
                    self.box_go(before)
                else:
                    self.do(seat, turn, tap("#actions button", "Go", clear=True),
                            wait("#said", "You said go.", whole=True))
            if fits:
                self.left[seat].remove(fits[0])
                self.record.append(build.play(seat, str(fits[0])))
            else:
                self.record.append(build.go(seat))

    def starter_card(self) -> Card:
        assert self.starter is not None
        return self.starter

    def show(self, hands: dict[int, tuple[tuple[Card, ...], tuple[Card, ...]]]) -> None:
        """The show on the box, for the seats it plays: each page read (a count its
        stand-in suits made short put right with GO, as a player would), the starter's suit
        said when a count asks it, and the box's seats' cards laid away entered for the crib
        (the phones' are known): until the next deal, or the game's end."""
        deal_no = self.gs.deal_no
        starter = self.starter_card()
        crib = tuple(c for seat in sorted(hands) for c in hands[seat][1])
        names = self.gs.names

        def points(view: View) -> int | None:
            for seat, (dealt, away) in hands.items():
                if view.title.startswith(f"{names[seat]}'s hand"):
                    return score_hand(tuple(c for c in dealt if c not in away), starter).total
                if view.title.startswith(f"{names[seat]}'s crib"):
                    return score_hand(crib, starter, crib=True).total
            return None

        while self.gs.deal_no == deal_no and self.gs.winner is None:
            if self.gs.asked is not None:
                self.box.read()
                self.box.suit(starter)
                continue
            self.box.read(points)
            if self.gs.phase is Phase.CRIB and self.gs.asked is None:
                for seat in self.on_box:
                    for card in hands[seat][1]:
                        self.box.enter(card)

    def box_go(self, before: int) -> None:
        """GO on the box's pins for the player to act, once the pages on its screen are
        read."""
        self.box.read()
        self.box.go()
        assert isinstance(self.board.state.session.events[before], Go)  # type: ignore[union-attr]

    def counted(self, hands: dict[int, tuple[tuple[Card, ...], tuple[Card, ...]]],
                dealer: int) -> None:
        """The referee's record of the show: the hands are known from the play (counted
        with no entry), the crib is entered; then the next deal."""
        crib = " ".join(str(c) for seat in sorted(hands) for c in hands[seat][1])
        self.record.append(build.crib(crib))
        self.record.append(build.deal((dealer + 1) % self.players))

    def referee_scores(self) -> list[int]:
        """The referee's scores for the record (every line of it legal)."""
        verdict = judge(self.record)
        assert verdict.rejected_line is None or self.gs.winner is not None, (
            verdict.rejected_line, verdict.rejected_reason, self.record)
        return verdict.result.scores


def whole_game(table: Table, rng: random.Random, *, box_go: int | None = None,
               last_count: int = 0, fall_back: int | None = None,
               deals_at_most: int | None = None) -> int:
    """Deal after deal until the game is won (or ``deals_at_most`` deals are played); the
    number of deals (``fall_back``: that phone's seat lays its first card of the second deal
    on the box; ``last_count``: every phone shows the counts of each of the first so many
    deals through the next)."""
    deals = 0
    while table.gs.winner is None and deals != deals_at_most:
        dealer = table.gs.dealer
        assert dealer is not None
        deal_no = table.gs.deal_no
        hands = table.deal(rng)
        table.play(box_go, fall_back if deals == 1 else None)
        deals += 1
        if table.gs.winner is not None:
            # Won at the show, where the phones' hands are counted with no entry: the
            # referee counts it at the crib's line (a line it refuses, the game being over,
            # when the game was won in the play).
            table.counted(hands, dealer)
            break
        if table.on_box:
            table.show(hands)

        def next_deal_or_won(past: int = deal_no) -> bool:
            return table.gs.deal_no == past + 1 or table.gs.winner is not None

        wait_for(table.board, next_deal_or_won, "the next deal")
        table.counted(hands, dealer)
        if table.gs.winner is None:
            assert table.referee_scores() == list(table.gs.scores), table.record
            if deals <= last_count:
                expect_last_count(table, deal_no)
        if deals == 1:
            table.checks.look(next(iter(table.pages.values())), "last count")
    return deals


def expect_last_count(table: Table, deal_no: int) -> None:
    """Every phone shows the deal's counts (each hand and the crib) while the next deal's
    cards are asked for."""
    for page in table.pages.values():
        expect(page.locator("#asked")).to_contain_text("Tap the")
        expect(page.locator("#counts-h")).to_have_text(f"Last count (deal {deal_no})")
        for name in NAMES[:table.players]:
            expect(page.locator("#counts")).to_contain_text(f"{name}'s hand")
        expect(page.locator("#counts")).to_contain_text("crib")
        expect(page.locator("#counts")).to_contain_text("(yours)")
        counts_where_seen(page)


def counts_where_seen(page: Page) -> None:
    """At 360x740, with the next deal's cards asked on the 52-card grid, the last count
    stands above the grid, its heading on the first screen without scrolling."""
    counts = page.locator("#counts").bounding_box()
    heading = page.locator("#counts-h").bounding_box()
    grid = page.locator("#grid").bounding_box()
    assert counts is not None and heading is not None and grid is not None
    assert page.viewport_size == {"width": 360, "height": 740}
    assert counts["y"] + counts["height"] <= grid["y"], (counts, grid)
    assert heading["y"] + heading["height"] <= 740, heading
    assert counts["x"] >= 0 and counts["x"] + counts["width"] <= 360, counts


def test_a_board_restarted_mid_deal_loses_no_acknowledged_tap(
        browser: Browser, tmp_path: Path) -> None:
    checks = Checks()
    rng = random.Random(8)
    deck = list(DECK)
    rng.shuffle(deck)
    ann, ben = tuple(deck[:6]), tuple(deck[6:12])
    with phone_board(tmp_path, dealer=0) as board:
        table = Table(board, browser, 2, 0, checks)
        table.hand(1, ben, ben[:2])  # acknowledged: on disk before the phone was told
        for card in ann[:3]:  # three of Ann's cards tapped, not yet sent
            table.tap(0, f'#grid button[data-card="{card}"]')
        board.restart()
        assert board.recorded().dealt[1] == ben and board.recorded().laid_away[1] == ben[:2]
        # Ann reloads her page: her seat, and the three cards she had tapped, are kept.
        ann_page = table.pages[0]
        ann_page.reload()
        expect(ann_page.locator("#asked")).to_contain_text("(3 so far)")
        for card in ann[:3]:
            expect(ann_page.locator(f'#grid button[data-card="{card}"]')).to_have_attribute(
                "aria-pressed", "true")
        checks.look(ann_page, "kept after a reload")
        table.hand(0, ann, ann[:2], tapped=3)
        # Ben's page, never reloaded, picked the board up again: it waits for the starter.
        expect(table.pages[1].locator("#asked")).to_have_text(
            "Waiting for Ann to turn the starter (on their phone).")
        expect(ann_page.locator("#asked")).to_contain_text("You deal: tap the starter")
        table.tap(0, f'#grid button[data-card="{deck[12]}"]')
        table.said(0, "The starter is in.")
        table.record.append(build.starter(str(deck[12])))
        # Two cards laid, then the board restarts again in the middle of the play.
        gs = table.gs
        table.left = {0: list(ann[2:]), 1: list(ben[2:])}
        for _ in range(2):
            seat = table.gs.to_act
            assert seat is not None
            hand = table.gs.hands[seat] or ()
            fits = sorted((c for c in hand if table.gs.can_play(seat, c)
                           and c not in table.gs.played[seat]), key=lambda c: c.pips)
            table.clear(seat)
            table.tap(seat, f'#hand button[data-card="{fits[0]}"]')
            table.said(seat, f"You played {fits[0].pretty}.")
            table.left[seat].remove(fits[0])
            table.record.append(build.play(seat, str(fits[0])))
        played = table.gs.played
        board.restart()
        assert board.recorded().played == played
        assert board.game.played == played and gs.dealt == board.game.dealt
        table.play()
        hands = {0: (ann, ann[:2]), 1: (ben, ben[:2])}
        wait_for(board, lambda: table.gs.deal_no == 2, "the next deal")
        table.counted(hands, 0)
        assert board.recorded().scores == table.gs.scores
        assert table.referee_scores() == list(table.gs.scores), table.record
        for page in table.pages.values():
            expect(page.locator("#asked")).to_contain_text("Tap the 6 cards")
    checks.assert_clean({"kept after a reload"})


def test_the_starters_suit_is_asked_on_the_counting_seats_phone(
        browser: Browser, tmp_path: Path) -> None:
    """Ben (dealing) turned the starter on the box by its rank alone; Ann kept a jack: her
    count waits for the starter's suit, asked on her phone (and on the box)."""
    ann = tuple(map(Card.parse, ["9C", "KD", "JH", "2C", "3D", "4S"]))
    ben = tuple(map(Card.parse, ["AH", "5S", "7C", "8D", "TH", "QS"]))
    first = (Dealt(0, ann), LaidAway(0, ann[:2]), Dealt(1, ben), LaidAway(1, ben[:2]),
             Starter(Card.parse("6C"), suit_known=False))
    checks = Checks()
    with phone_board(tmp_path, dealer=1, first=first) as board:
        page = board_phone(browser, board, 0)
        # The play, each seat's lowest card that fits (else go), sent as its phone sends it;
        # then Ann's count asks for the starter's suit.
        play_lowest(board, until=lambda: False)
        assert board.game.asked is not None and board.game.asked.player == 0
        expect(page.locator("#asked")).to_contain_text("needs the starter's suit")
        expect(page.locator('#hand button[aria-label="six of hearts"]')).to_be_visible()
        checks.look(page, "the starter's suit")
        page.locator('#hand button[aria-label="six of hearts"]').click()
        expect(page.locator("#said")).to_have_text("The starter's suit is in.")
        assert board.game.asked is None
        recorded = board.recorded()
        assert recorded.scores == board.game.scores and board.game.scores[0] >= 1
    checks.assert_clean({"the starter's suit"})
    assert '- button "six of hearts"' in checks.trees["the starter's suit"]


def test_an_open_handed_deal_shows_the_dealer_whom_the_starter_waits_for(
        browser: Browser, tmp_path: Path) -> None:
    """An open-handed game, Ben dealing, his cards in: his phone says whom the starter waits
    for, with no card to tap, until Ann's hand is in; then it asks the starter."""
    ben = tuple(map(Card.parse, ["AH", "5S", "7C", "8D", "TH", "QS"]))
    ann = tuple(map(Card.parse, ["9C", "KD", "JH", "2C", "3D", "4S"]))
    first = (OptionsChanged(teaching=True, open_hands=True), Dealt(1, ben),
             LaidAway(1, ben[:2]))
    checks = Checks()
    with phone_board(tmp_path, dealer=1, first=first) as board:
        page = board_phone(browser, board, 1)
        expect(page.locator("#asked")).to_have_text(  # Ann's hand is asked on the box
            "Waiting for Ann's hand (on the box): the starter comes after every hand.")
        expect(page.locator("#grid button")).to_have_count(0)
        checks.look(page, "the starter waits")
        assert board.server.desk.submit(0, (Dealt(0, ann), LaidAway(0, ann[:2])),
                                        seat_seq(board.state.session, 0)).result(WAIT_S).taken
        expect(page.locator("#asked")).to_have_text("You deal: tap the starter you turned.")
        expect(page.locator("#grid button")).to_have_count(52)
    checks.assert_clean({"the starter waits"})


def play_lowest(board: Board, *, until: Callable[[], bool]) -> None:
    """Play on, as each seat's phone sends it, each seat's lowest card that fits (else go),
    while the play lasts and ``until`` is not yet true."""
    while board.game.phase is Phase.PLAY and not until():
        gs = board.game
        seat = gs.to_act
        assert seat is not None
        fits = sorted((c for c in gs.hands[seat] or () if gs.can_play(seat, c)
                       and c not in gs.played[seat]), key=lambda c: c.pips)
        event = Play(seat, fits[0]) if fits else Go(seat)
        assert board.server.desk.submit(seat, (event,), seat_seq(board.state.session, seat)
                                        ).result(WAIT_S).taken


def board_phone(browser: Browser, board: Board, seat: int) -> Page:
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"http://127.0.0.1:{board.port}/join?code={board.code(seat)}")
    expect(page).to_have_url(f"http://127.0.0.1:{board.port}/phone")
    return page


def test_every_control_is_named_in_the_accessibility_tree(browser: Browser,
                                                           tmp_path: Path) -> None:
    """The join page and a seat's pages as a screen reader reads them: every button and
    field has a name, the cards by their spoken names."""
    checks = Checks()
    with phone_board(tmp_path, dealer=0) as board:
        stranger = browser.new_context(**PHONE).new_page()
        stranger.goto(f"http://127.0.0.1:{board.port}/phone")
        expect(stranger.locator("#join")).to_be_visible()
        checks.look(stranger, "join")
        page = board_phone(browser, board, 1)
        expect(page.locator("#asked")).to_contain_text("Tap the 6 cards")
        checks.look(page, "six cards")
        for card in ("5H", "5D", "JC", "4S", "KH", "2C"):
            page.locator(f'#grid button[data-card="{card}"]').click()
        expect(page.locator("#asked")).to_contain_text("you lay away")
        page.locator("button:text-is('Advice')").click()
        # Ben's advice, Ann dealing: what his hand makes, and what goes to her crib.
        expect(page.locator("#advice li").first).to_contain_text(
            ": your hand makes at least ")
        expect(page.locator("#advice li").first).to_contain_text(" on average; Ann's crib gets ")
        checks.look(page, "lay away, with advice")
        # The advice stays while its six cards stand (a card laid away tapped, a stream's
        # event redrawing the page), and goes once the six change.
        page.locator('#hand button[data-card="KH"]').click()
        expect(page.locator('#hand button[data-card="KH"]')).to_have_attribute(
            "aria-pressed", "true")
        board.server.desk.notice(1, "A word for Ben alone.", board.game_id)  # a redraw
        expect(page.locator("#said")).to_have_text("A word for Ben alone.")
        expect(page.locator("#advice li")).to_have_count(3)
        page.locator("button:text-is('Undo')").click()  # KH no longer laid away
        expect(page.locator("#advice li")).to_have_count(3)
        page.locator("button:text-is('Undo')").click()  # the six are five
        expect(page.locator("#advice li")).to_have_count(0)
    checks.assert_clean({"join", "six cards", "lay away, with advice"})
    join = checks.trees["join"]
    assert 'textbox "The code the board shows"' in join and 'button "Join"' in join
    tree = checks.trees["lay away, with advice"]
    for name in ("five of hearts", "jack of clubs", "Lay away", "Advice", "Undo"):
        assert f'button "{name}"' in tree, tree
    assert 'button "seven of spades"' not in tree  # the grid is gone once six are tapped
    six = checks.trees["six cards"]
    assert six.count("- button") >= 52 and 'button "king of diamonds"' in six


def test_a_muggins_games_claims_and_calls_on_the_phones(browser: Browser,
                                                        tmp_path: Path) -> None:
    """A muggins game: each count waits for its owner's claim, made on the owner's phone
    (which shows the cards counted and the starter, the points field labelled on screen),
    and the opponent's phone offers the call (or no call) on every claim alike, its question
    first, the cards counted and the starter shown to count by, and its field labelled; the
    crib's claim, open to a call while the next deal's cards are asked, is called on from
    the phone tapping those cards."""
    checks = Checks()
    ann, ben = tuple(DECK[0:6]), tuple(DECK[13:19])
    first = (Dealt(0, ann), LaidAway(0, ann[:2]), Dealt(1, ben), LaidAway(1, ben[:2]),
             Starter(DECK[30]))
    with phone_board(tmp_path, dealer=1, first=first, rules=Rules(muggins=True)) as board:
        pages = [board_phone(browser, board, seat) for seat in (0, 1)]
        play_lowest(board, until=lambda: bool(board.game.pending_claims))
        pending = board.game.pending_claims[0]
        assert pending.player == 0  # Ann's hand, counted first
        asked = pages[0].locator("#asked")
        expect(asked).to_contain_text("Your score waits for your claim")
        expect(pages[0].locator("#call-q")).to_contain_text("Muggins on Ben's")
        kept = " ".join(card.pretty for card in board.game.hands[0] or ())
        assert kept == "A♥ A♠ 2♣ 2♦"
        expect(pages[0].locator("#counted")).to_have_text(f"Your hand: {kept} starter 8♥")
        expect(pages[0].locator("#starter")).to_have_text("Starter 8♥")
        # The table's own line ("Waiting for Ann's claim") is not said again under it.
        expect(pages[0].locator("#doing")).to_have_text("")
        expect(pages[1].locator("#asked")).to_have_text("Waiting for Ann's claim (on their phone).")
        checks.look(pages[0], "a claim, and a call")
        pages[0].get_by_label("Points you claim", exact=True).fill(str(pending.points))
        pages[0].locator("button:text-is('Claim')").click()
        expect(pages[0].locator("#said")).to_have_text("Your claim is in.")
        expect(pages[1].locator("#asked")).to_contain_text("Your score waits for your claim")
        checks.look(pages[1], "a claim")
        points = board.game.pending_claims[0].points
        pages[1].locator("#points").fill(str(points))
        pages[1].locator("button:text-is('Claim')").click()
        expect(pages[1].locator("#said")).to_have_text("Your claim is in.")
        expect(pages[0].locator("#call-q")).to_contain_text(f"Muggins on Ben's hand (claimed "
                                                            f"{points})")
        # The cards Ben counted, turned up at the table for his count, to count them by.
        his = " ".join(card.pretty for card in board.game.hands[1] or ())
        expect(pages[0].locator("#call-cards")).to_have_text(f"Ben's hand: {his} starter 8♥")
        checks.look(pages[0], "a call")
        before = board.state.session.events  # type: ignore[union-attr]
        pages[0].locator("button:text-is('No muggins')").click()
        # Ben claimed his count right: nothing is entered, and Ann is answered as she would
        # be had he missed points; the question is not put to her again.
        expect(pages[0].locator("#said")).to_have_text("No muggins.")
        expect(pages[0].locator("#call")).to_be_hidden()
        assert board.state.session.events == before  # type: ignore[union-attr]
        # Ben's crib (A♣ A♦ 4♦ 4♥, the 8♥: two pairs, 4) claimed 3: the next deal is
        # entered, and Ann's phone, asking her next six cards, offers the call on it.
        crib = " ".join(card.pretty for card in board.game.crib or ())
        assert sorted(crib.split()) == sorted(["A♣", "A♦", "4♦", "4♥"]), crib
        expect(pages[1].locator("#counted")).to_have_text(f"Your crib: {crib} starter 8♥")
        owed = board.game.pending_claims[0]
        assert owed.player == 1 and owed.points == 4, owed
        pages[1].get_by_label("Points you claim", exact=True).fill("3")
        pages[1].locator("button:text-is('Claim')").click()
        expect(pages[1].locator("#said")).to_have_text("Your claim is in.")
        expect(pages[0].locator("#asked")).to_contain_text("Tap the 6 cards")
        expect(pages[0].locator("#call-q")).to_contain_text("Muggins on Ben's crib (claimed 3)")
        expect(pages[0].locator("#call-cards")).to_have_text(f"Ben's crib: {crib} starter 8♥")
        checks.look(pages[0], "a call at the next deal")
        scores = board.game.scores
        pages[0].get_by_label("Points Ben missed", exact=True).fill("1")
        pages[0].locator("button:text-is('Call muggins')").click()
        expect(pages[0].locator("#said")).to_have_text("Your call is in.")
        assert board.game.scores == (scores[0] + 1, scores[1]), (scores, board.game.scores)
        assert board.recorded().scores == board.game.scores
    checks.assert_clean({"a claim, and a call", "a claim", "a call",
                         "a call at the next deal"})
    for state in ("a claim, and a call", "a claim"):
        assert 'spinbutton "Points you claim"' in checks.trees[state], checks.trees[state]
        assert 'img "eight of hearts"' in checks.trees[state], checks.trees[state]
    for state in ("a call", "a call at the next deal"):
        assert 'button "Call muggins"' in checks.trees[state]
        assert 'img "eight of hearts"' in checks.trees[state], checks.trees[state]
        assert 'spinbutton "Points Ben missed"' in checks.trees[state], checks.trees[state]
    # The call is read first, before what the seat is asked (the next deal's cards).
    tree = checks.trees["a call at the next deal"]
    assert tree.index("Muggins on Ben's crib") < tree.index("Tap the 6 cards"), tree


def test_a_starter_her_hand_holds_is_told_on_her_phone_alone(browser: Browser,
                                                           tmp_path: Path) -> None:
    """Ben, dealing on the box, names as the starter a card Ann's phone entered: Ann's phone
    says, in its live region, which card and what to do; the box only that it clashes."""
    ann = cards_of("5H 5D JC 4S KH 2C")
    checks = Checks()
    with phone_board(tmp_path, dealer=1, first=(Dealt(0, ann), LaidAway(0, ann[4:]))) as board:
        page = board_phone(browser, board, 0)
        shows(page, "#asked", "Waiting for Ben to turn the starter (on the box).", whole=True)
        box_names(board, ann[0])
        assert board.game.starter is None
        shows(page, "#said", "The starter entered on the box, the five of hearts, is in your "
              "hand")
        expect(page.locator("#said")).to_contain_text("Undo on the box")
        expect(page.locator("#said")).to_have_attribute("aria-live", "polite")
        checks.look(page, "a starter her hand holds")
        assert ann[0].pretty not in repr(machine.view(board.state))
    checks.assert_clean({"a starter her hand holds"})


def cards_of(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(word) for word in text.split())


HEAR = """() => {
  // What a screen reader is told: Chromium raises a live-region event at each change of a
  // live region's text, so each change is kept here, region by region, in order.
  window.heard = [];
  for (const node of document.querySelectorAll("[aria-live]")) {
    new MutationObserver(() => window.heard.push([node.id, node.textContent]))
      .observe(node, { childList: true, characterData: true, subtree: true });
  }
}"""

SPOKEN_WHOLE = ("button", "spinbutton", "textbox", "img", "heading", "link", "checkbox")
"""The roles a screen reader says by their name alone (not their content)."""

CARD_WORDS = re.compile(r"^(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) "
                        r"of (clubs|diamonds|hearts|spades)$")


def read_aloud(page: Page) -> list[str]:
    """The page as a screen reader reads it, swiping from the top: Chromium's own
    accessibility tree (the one TalkBack reads through Chrome, over the DevTools protocol),
    in document order: each control, image and heading as "role: name" (its name is what is
    said of it), each run of other text as "text: ..."; nodes the tree ignores are not
    read, their children are."""
    session = page.context.new_cdp_session(page)
    try:
        nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        session.detach()
    by_id = {node["nodeId"]: node for node in nodes}
    said: list[str] = []

    def walk(node: dict[str, Any]) -> None:
        role = node.get("role", {}).get("value", "")
        name = str(node.get("name", {}).get("value", "")).strip()
        if not node.get("ignored") and role in SPOKEN_WHOLE:
            said.append(f"{role}: {name}")
            return
        if not node.get("ignored") and role == "StaticText":
            said.append(f"text: {name}")
            return
        for child in node.get("childIds", []):
            if child in by_id:
                walk(by_id[child])

    walk(nodes[0])
    return said


def test_a_screen_reader_reads_each_state_in_order_and_hears_each_change_once(
        browser: Browser, tmp_path: Path) -> None:
    """No phone screen reader runs here: what one is given is checked instead, in Chromium.
    Ann's whole deal on her phone (Ben's entries sent as his phone would): in every state,
    read from the top through Chromium's accessibility tree, every control has a spoken
    name, every card button its name in words ("five of hearts"), and what the seat is asked
    comes before the cards it acts on; the live regions (what her taps did, what she is
    asked, the last award) change once for each new thing to say, never again for a redraw
    of the same words, so each is said once."""
    ann, ben = cards_of("5H 5D JC 4S KH 2C"), cards_of("6H 9D TC 3S QH AC")
    with phone_board(tmp_path, dealer=1) as board:
        page = board_phone(browser, board, 0)
        shows(page, "#asked", "Tap the 6 cards you were dealt (0 so far).", whole=True)
        page.evaluate(HEAR)
        readings: dict[str, list[str]] = {"six cards": read_aloud(page)}
        for card in ann:
            page.get_by_role("button", name=CARD_NAMES[card], exact=True).click()
        readings["lay away"] = read_aloud(page)
        for card in ann[4:]:
            page.get_by_role("button", name=CARD_NAMES[card], exact=True).click()
        page.get_by_role("button", name="Lay away", exact=True).click()
        shows(page, "#said", "Your cards are in.", whole=True)
        submit = board.server.desk.submit
        assert submit(1, (Dealt(1, ben), LaidAway(1, ben[4:])), seat_seq(
            board.state.session, 1)).result(WAIT_S).taken
        assert submit(1, (Starter(Card.parse("7S")),), seat_seq(
            board.state.session, 1)).result(WAIT_S).taken
        turns = 0
        while board.game.phase is Phase.PLAY:
            gs = board.game
            seat = gs.to_act
            held = [c for c in gs.hands[seat] or () if c not in gs.played[seat]]  # type: ignore[index]
            fits = sorted((c for c in held if gs.can_play(seat, c)), key=lambda c: c.pips)  # type: ignore[arg-type]
            if seat == 1:
                event = Play(1, fits[0]) if fits else Go(1)
                assert submit(1, (event,), seat_seq(board.state.session, 1)).result(
                    WAIT_S).taken
                continue
            shows(page, "#asked", f"Your turn, count {gs.count}: tap a card, or Go.", whole=True)
            turns += 1
            readings.setdefault("the play", read_aloud(page))
            if fits:
                page.get_by_role("button", name=CARD_NAMES[fits[0]], exact=True).click()
                shows(page, "#said", f"You played {fits[0].pretty}.", whole=True)
            else:
                page.get_by_role("button", name="Go", exact=True).click()
                shows(page, "#said", "You said go.", whole=True)
        wait_for(board, lambda: board.game.deal_no == 2, "the next deal")
        shows(page, "#asked", "Tap the 6 cards you were dealt (0 so far).", whole=True)
        readings["last count"] = read_aloud(page)
        heard: list[list[str]] = page.evaluate("window.heard")
    for state, said in readings.items():
        controls = [line for line in said if line.startswith(("button", "spinbutton"))]
        assert controls, (state, said)
        cards = [line.removeprefix("button: ") for line in controls
                 if line.removeprefix("button: ") not in ("Undo", "Lay away", "Advice", "Go")]
        assert all(CARD_WORDS.match(name) for name in cards), (state, cards)
        asked = next(n for n, line in enumerate(said)
                     if line.startswith(("text: Tap the", "text: Your turn")))
        first_card = next(n for n, line in enumerate(said) if CARD_WORDS.match(
            line.removeprefix("button: ")))
        assert said[0] == "heading: Pegboard: Ann's hand" and asked < first_card, (state, said)
    assert "heading: Last count (deal 1)" in readings["last count"], readings["last count"]
    # Each change said once: never the same words twice running in one region.
    for region in ("said", "asked", "award"):
        texts = [text for node, text in heard if node == region]
        assert texts, (region, heard)
        assert all(a != b for a, b in itertools.pairwise(texts)), (region, texts)
    asks = [text for node, text in heard if node == "asked"]
    assert sum(text.startswith("Your turn") for text in asks) == turns, asks
    assert [f"Tap the 6 cards you were dealt ({n} so far)." for n in range(1, 6)] == [
        text for text in asks if text.startswith("Tap the 6")][:5], asks


RANK_WORDS = {"A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six",
              "7": "seven", "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen",
              "K": "king"}
CARD_NAMES = {card: f"{RANK_WORDS[card.rank.symbol]} of {card.suit.name.lower()}"
              for card in DECK}


def test_a_released_phone_keeps_nothing_of_the_hand_in_view(browser: Browser,
                                                            tmp_path: Path) -> None:
    """The board releases Ann's seat (a lost phone): her page says so in its live region,
    offers the join field, and leaves none of her hand in view or in the accessibility
    tree; it is told at once (the release is the board's news), not at the next entry."""
    ann = cards_of("5H 5D JC 4S KH 2C")
    checks = Checks()
    with phone_board(tmp_path, dealer=1, first=(Dealt(0, ann), LaidAway(0, ann[4:]))) as board:
        page = board_phone(browser, board, 0)
        shows(page, "#asked", "Waiting for Ben to turn the starter (on the box).", whole=True)
        records = len(board.store.current().records)  # type: ignore[union-attr]
        assert board.server.passes.release(board.game_id, 0)
        board.server.desk.held(board.server.passes.held(board.game_id))  # as the port does
        # Within 10 s: well inside the stream's 15 s keep-alive, which alone would tell it
        # had the board published nothing on the release.
        expect(page.locator("#said")).to_have_text(
            LET_GO, timeout=10_000)
        expect(page.locator("#mine")).to_be_hidden()
        expect(page.locator("#join")).to_be_visible()
        expect(page.locator("#title")).to_have_text("Pegboard: your hand")
        checks.look(page, "released")
        assert len(board.store.current().records) == records  # type: ignore[union-attr]
    checks.assert_clean({"released"})
    tree = checks.trees["released"]
    assert "Waiting for Ben" not in tree and "Your cards" not in tree, tree
    assert 'textbox "The code the board shows"' in tree, tree


def test_a_teaching_games_coach_is_on_the_phone(browser: Browser, tmp_path: Path) -> None:
    """A teaching game, hands closed, Ben on his phone and Ann dealing on the box: at his
    turn his phone shows the pegging coach's card (naming his cards); after his card that
    gave points away, the coach's note on it; the box shows neither."""
    ben = cards_of("5H 5D JC 4S KH 2C")
    first = (OptionsChanged(teaching=True), Dealt(1, ben), LaidAway(1, ben[4:]),
             Starter(Card.parse("9S")))
    checks = Checks()
    with phone_board(tmp_path, dealer=0, first=first) as board:
        page = board_phone(browser, board, 1)
        shows(page, "#coach", "Coach: Lay 4: a 6 back, your 5 makes fifteen for 2", whole=False)
        checks.look(page, "the coach")
        assert machine.view(board.state).coach == ""
        page.get_by_role("button", name="four of spades", exact=True).click()
        shows(page, "#said", "You played 4♠.", whole=True)
        submit = board.server.desk.submit
        assert submit(0, (Play(0, Card.parse("7D")),), seat_seq(
            board.state.session, 0)).result(WAIT_S).taken
        page.get_by_role("button", name="jack of clubs", exact=True).click()
        shows(page, "#coach", "Coach, on your last card: Gave away: a J back made thirty-one",
              whole=False)
        checks.look(page, "the coach's note")
        assert "Gave away" not in repr(machine.view(board.state))
    checks.assert_clean({"the coach", "the coach's note"})


def test_a_teaching_games_discard_review_is_on_its_own_phone(browser: Browser,
                                                             tmp_path: Path) -> None:
    """A teaching game whose first deal both phones played: each phone shows, under the last
    count, the review of its own discard (the coach's words), read as part of the page; the
    other seat's review is on neither the page nor its accessibility tree."""
    ann, ben = cards_of("5H 5D JC 4S KH 2C"), cards_of("6H 9D TC 3S QH AC")
    first = (OptionsChanged(teaching=True), *played_deal(0, ann, ben)[1:])
    checks = Checks()
    with phone_board(tmp_path, dealer=0, first=first) as board:
        assert board.game.deal_no == 1 and board.game.phase is Phase.DEAL
        pages = [board_phone(browser, board, seat) for seat in (0, 1)]
        reviews = [review_json(board.state.session.game, seat)  # type: ignore[union-attr]
                   for seat in (0, 1)]
        assert all(reviews) and reviews[0] != reviews[1], reviews
        for seat, page in enumerate(pages):
            review = reviews[seat]
            assert review is not None
            shows(page, "#review-lines", review["lines"][0])
            expect(page.locator("#review")).to_be_visible()
            expect(page.locator("#review-h")).to_have_text("Your discard, reviewed")
            expect(page.locator("#review-lines p")).to_have_count(len(review["lines"]))
            other = reviews[1 - seat]
            assert other is not None
            assert other["lines"][0] not in (page.locator("body").text_content() or "")
        checks.look(pages[0], "a discard reviewed")
    checks.assert_clean({"a discard reviewed"})
    tree = checks.trees["a discard reviewed"]
    assert tree.index("Last count (deal 1)") < tree.index("Your discard, reviewed"), tree


def played_deal(dealer: int, first: tuple[Card, ...], second: tuple[Card, ...],
                starter: str = "7S") -> list[Any]:
    """A 2-player deal's entries, both hands entered (``first``: seat 0's, each laying its
    last two away), played out lowest card first, else go."""
    events: list[Any] = [Deal(dealer), Dealt(0, first), LaidAway(0, first[4:]),
                         Dealt(1, second), LaidAway(1, second[4:]), Starter(Card.parse(starter))]
    game = Game(["Ann", "Ben"])
    for event in events:
        game.push(event)
    while game.state.phase is Phase.PLAY:
        gs = game.state
        seat = gs.to_act
        assert seat is not None
        held = [c for c in gs.hands[seat] or () if c not in gs.played[seat]]
        fits = sorted((c for c in held if gs.can_play(seat, c)), key=lambda c: c.pips)
        event = Play(seat, fits[0]) if fits else Go(seat)
        game.push(event)
        events.append(event)
    return events


def test_a_phone_asked_for_its_cards_says_how_and_is_let_go_at_once(
        browser: Browser, tmp_path: Path) -> None:
    """Ben's phone at 360x740, asked for his cards, says how to enter them on the box
    instead; the box's OK, then Ben's hand: his phone is told at once it holds no seat and
    shows nothing of a hand, and the box asks for the starter."""
    with phone_board(tmp_path, dealer=0, pairing=True) as board:
        page = browser.new_context(**PHONE).new_page()
        page.goto(f"http://127.0.0.1:{board.port}/join?code={board.code(1)}")
        expect(page.locator("#asked")).to_contain_text("Tap the 6 cards")
        expect(page.locator("#fallback")).to_have_text(
            "Entering this hand on the box instead? On the box press OK, then choose "
            "\u201cBen's hand\u201d: this phone then lets go of your seat. To carry on here "
            "afterwards, join again with the code the box shows under Phones on its menu.")
        until(board, lambda: board.state.phones == {1}, "Ben's phone held")
        on_the_wait(board)
        box_keys(board, Press(Button.OK), KnobTurn(1), Press(Button.OK))
        until(board, lambda: not board.state.phones, "Ben's seat freed")
        expect(page.locator("#said")).to_have_text(
            LET_GO,
            timeout=10_000)
        expect(page.locator("#mine")).to_be_hidden()
        assert machine.view(board.state).title == "Ben's hand: on the box"
        box_keys(board, Press(Button.OK))  # the box's notice of the seat it took, read
        picker = machine.view(board.state).picker
        assert picker is not None and picker.prompt == "Starter"
