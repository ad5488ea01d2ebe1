"""Two phones play a deal in Chromium (mobile viewports, 360x740), mixed with the box's keys.

Debian's Chromium driven by Playwright, against the board's own phone server: each phone
joins by its seat's join address, enters its six cards on the grid and lays two away, the
dealer taps the starter, and the play is tapped card by card (a card that does not fit is
refused with the engine's reason), one seat saying go on the box's key instead; at the end
each phone shows its own count and the scores are the engine's. And a seat's own page names
the cards it holds by rank where no player entered their suits (the real seat view after a
renege's take-back of cards laid by rank on the box, sent to the real page).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, Route, expect

from pegboard.app.inputs import Button, Press
from pegboard.rules.cards import Card, EnteredCard
from pegboard.rules.state import Phase
from pegboard.web.phone_page import phone_page
from pegboard.web.phone_view import seat_json
from tests.support.phones import phone_board
from tests.support.waiting import LIVENESS_S
from tests.support.web import chromium, system_chromium
from tests.test_app_keys_answer import taken_back

pytestmark = pytest.mark.skipif(chromium() is None,
                                reason="needs chromium (`make test` installs it)")

ANN_SIX = ["5H", "5D", "JC", "4S", "KH", "2C"]
BEN_SIX = ["6H", "9D", "TC", "3S", "QH", "AC"]
PHONE: dict[str, Any] = {"viewport": {"width": 360, "height": 740}, "is_mobile": True,
                         "has_touch": True, "device_scale_factor": 2}


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Chromium, and every wait on a page bounded by :data:`LIVENESS_S` (Playwright's
    ``expect`` gives up after 5 s: a busy machine takes longer to show a tap's answer)."""
    expect.set_options(timeout=LIVENESS_S * 1000)
    try:
        with system_chromium() as launched:
            yield launched
    finally:
        expect.set_options(timeout=5000)


def phone(browser: Browser) -> Page:
    """A page on a phone of its own, its waits as long as ``expect``'s."""
    page = browser.new_context(**PHONE).new_page()
    page.set_default_timeout(LIVENESS_S * 1000)
    return page


def accessible(page: Page, state: str, found: dict[str, list[str]]) -> None:
    """axe-core's findings on the page in ``state`` (its copy shipped with
    axe-playwright-python: no network), kept by state."""
    found[state] = [f"{v['id']}: {v['help']}" for v in Axe().run(page).response["violations"]]


def tap(page: Page, selector: str, taps: list[int], seat: int) -> None:
    page.locator(selector).click()
    taps[seat] += 1


def test_two_phones_and_the_box_play_a_deal(browser: Browser, tmp_path: Path) -> None:
    with phone_board(tmp_path, dealer=0) as board:
        pages: list[Page] = []
        for seat in (0, 1):
            page = phone(browser)
            page.goto(f"http://127.0.0.1:{board.port}/join?code={board.code(seat)}")
            expect(page.locator("#asked")).to_contain_text("Tap the 6 cards")
            expect(page).to_have_url(f"http://127.0.0.1:{board.port}/phone")
            pages.append(page)
        taps = [0, 0]
        found: dict[str, list[str]] = {}
        stranger = phone(browser)
        stranger.goto(f"http://127.0.0.1:{board.port}/phone")
        expect(stranger.locator("#join")).to_be_visible()
        accessible(stranger, "join", found)
        accessible(pages[1], "six cards", found)
        for seat, six in ((1, BEN_SIX), (0, ANN_SIX)):
            page = pages[seat]
            tap(page, f'#grid button[data-card="{six[0]}"]', taps, seat)
            tap(page, "text=Undo", taps, seat)  # a wrong tap taken back
            for card in six:
                tap(page, f'#grid button[data-card="{card}"]', taps, seat)
            expect(page.locator("#asked")).to_contain_text("Tap the 2 cards you lay away")
            if seat == 1:
                accessible(page, "lay away", found)
            for card in six[4:]:
                tap(page, f'#hand button[data-card="{card}"]', taps, seat)
            tap(page, "button:text-is('Lay away')", taps, seat)
            expect(page.locator("#said")).to_have_text("Your cards are in.")
        gs = board.game
        assert gs.dealt == (tuple(map(Card.parse, ANN_SIX)), tuple(map(Card.parse, BEN_SIX)))
        # Ann deals: her phone asks for the starter.
        expect(pages[0].locator("#asked")).to_contain_text("You deal: tap the starter")
        tap(pages[0], '#grid button[data-card="7S"]', taps, 0)
        expect(pages[1].locator("#asked")).to_have_text("Your turn, count 0: tap a card, or Go.")
        accessible(pages[1], "the play", found)
        on_the_box = 0
        refused = 0
        while board.game.phase is Phase.PLAY:
            gs = board.game
            assert gs.to_act is not None
            seat = gs.to_act
            page = pages[seat]
            expect(page.locator("#asked")).to_have_text(
                f"Your turn, count {gs.count}: tap a card, or Go.")
            held = [c for c in gs.hands[seat] or () if c not in gs.played[seat]]
            fits = sorted((c for c in held if gs.can_play(seat, c)), key=lambda c: c.pips)
            too_big = [c for c in held if c not in fits]
            if too_big and not refused:
                page.locator(f'#hand button[data-card="{too_big[0]}"]').click()
                # The engine's reason, its card in words as a screen reader says it.
                expect(page.locator("#said")).to_contain_text(
                    f"Not taken: count is {gs.count}: {EnteredCard.of(too_big[0]).spoken} "
                    f"would make {gs.count + too_big[0].pips} — play a card of ")
                refused += 1
            page.evaluate("document.getElementById('said').textContent = ''")
            if fits:
                tap(page, f'#hand button[data-card="{fits[0]}"]', taps, seat)
                expect(page.locator("#said")).to_have_text(f"You played {fits[0].pretty}.")
            elif seat == 0 and not on_the_box:
                # Ann falls back to the box for her go: OK reads the "Game restored" page
                # still on its screen, GO says go for the player to act.
                board.sim.inbox.put(Press(Button.OK))
                board.sim.inbox.put(Press(Button.GO))
                expect(page.locator("#asked")).not_to_contain_text("Your turn")
                on_the_box += 1
            else:
                tap(page, "button:text-is('Go')", taps, seat)
                expect(page.locator("#said")).to_have_text("You said go.")
        assert refused == 1 and on_the_box == 1
        # Counted by the engine from the cards the phones entered; each phone shows its own.
        gs = board.game
        assert gs.deal_no == 2 and board.recorded().scores == gs.scores
        expect(pages[1].locator("#counts")).to_contain_text("Ben's hand")
        expect(pages[0].locator("#counts")).to_contain_text("Ann's crib")
        for page in pages:
            expect(page.locator("#scores")).to_contain_text(
                f"Ann {gs.scores[0]}Ben {gs.scores[1]}")
            expect(page.locator("#asked")).to_contain_text("Tap the 6 cards")  # deal 2
            box = page.locator("#grid button").first.bounding_box()
            assert box is not None and box["width"] >= 44 and box["height"] >= 44
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 360
        accessible(pages[0], "the count", found)
        # Taps a player needed for the deal, the undone one included: at most 16.
        assert max(taps) <= 16, taps
        assert found.keys() == {"join", "six cards", "lay away", "the play", "the count"}
        assert not any(found.values()), found


STATIC = Path(__file__).resolve().parent.parent / "pegboard" / "web" / "static"


def test_the_cards_taken_back_read_by_rank_on_the_phone(browser: Browser) -> None:
    app = taken_back()
    assert app.state.session is not None
    mine = seat_json(app.state.session.game, 1, game_id="g", phones=frozenset({1}))
    assert mine["asks"] == "play" and mine["by_rank"] == mine["held"] == ["2", "4", "6"]
    posted: list[dict[str, object]] = []

    def answer(route: Route) -> None:
        """The page, its script and look, the seat's stream with that view once; nothing
        for the scoreboard's stream."""
        path = route.request.url.split("phone.test", 1)[1].split("?")[0]
        if path == "/phone":
            route.fulfill(body=phone_page(), content_type="text/html")
        elif path.startswith("/static/"):
            kind = "text/javascript" if path.endswith(".js") else "text/css"
            route.fulfill(body=(STATIC / path.rsplit("/", 1)[1]).read_text(encoding="utf-8"),
                          content_type=kind)
        elif path == "/phone/stream":
            route.fulfill(body=f"event: me\ndata: {json.dumps(mine)}\n\n",
                          content_type="text/event-stream")
        elif path == "/phone/act":
            posted.append(json.loads(route.request.post_data or "{}"))
            route.fulfill(body=json.dumps({"taken": True, "me": mine}),
                          content_type="application/json")
        else:
            route.fulfill(status=204, body="")

    page = phone(browser)
    page.route("http://phone.test/**", answer)
    page.add_init_script("sessionStorage.setItem('pegboard-seat', 'token')")
    page.goto("http://phone.test/phone")
    cards = page.locator("#hand button")
    expect(cards).to_have_count(3)
    assert cards.all_text_contents() == ["2", "4", "6"]
    assert [cards.nth(i).get_attribute("aria-label") for i in range(3)] == [
        "two, suit not entered", "four, suit not entered", "six, suit not entered"]
    assert not [c for c in cards.all() if "red" in (c.get_attribute("class") or "")]
    # A tap lays the card by the name it was sent, its rank alone.
    cards.nth(1).click()
    expect(page.locator("#said")).to_have_text("You played 4.")
    assert [body["card"] for body in posted] == ["4"], posted
    page.context.close()
