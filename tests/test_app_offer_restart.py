"""A penalty offered on screen (a renege, a false claim of game) survives a power cut.

The offer is read off the record: it stands from the entry whose report made it until the
table answers it (OK applies it, GO skips it and the next entry goes on without it). Here the
box's record is kept in a real store, the store is closed as a power cut leaves it, and the
device starts again from it: the same offer page is back after the "Game restored" notice,
with the same lines and the same choice, and OK applies it.
"""

from __future__ import annotations

import json
from pathlib import Path

from pegboard.app import flow
from pegboard.app.effects import Persist
from pegboard.app.state import Page, Reading
from pegboard.app.view import Screen
from pegboard.commands.game import GameSession
from pegboard.config import Config
from pegboard.device.build import initial_state, open_store
from pegboard.record import dump_line
from pegboard.rules.cards import Card
from pegboard.rules.events import Claim, Event, Peg, Show, Starter
from pegboard.store import Store
from tests.support.app_driver import GO, OK, UNDO, App, muggins_game, new_game
from tests.support.rulings_records import entry, event
from tests.test_rulings_renege_game import WRONG_PLAY


def power_cut_and_start(tmp_path: Path, record: list[str]) -> App:
    """``record`` kept by a real store as the game in progress; the store closed as a power
    cut leaves it; the device started again from it."""
    path = tmp_path / "store"
    with Store(path, owner="pegboard test") as store:
        session = GameSession(store)
        session.new(record[0])
        for line in record[1:]:
            session.add(line)
    store = open_store(path, owner="pegboard test")
    try:
        return App(initial_state(Config(), store))
    finally:
        store.close()


def enter(app: App, *events: Event) -> App:
    """Entries made at the table, each kept in the record as the loop would keep it."""
    for each in events:
        app.state, effects = flow.enter(app.state, each)
        app.record += [dump_line(e.entry) for e in effects if isinstance(e, Persist)]
    return app


def renege_on_screen() -> tuple[App, Page]:
    """Ann reneges at 25 and the play ends: the renege page is offered (no win)."""
    app = new_game(dealer=1)  # Ben deals, Ann leads
    enter(app, Peg(0, 20), Peg(1, 20), Starter(Card.parse("AC")))
    app.read()
    for line in WRONG_PLAY:
        if app.pages:
            app.read()
        enter(app, event(line))
    offered = [page for page in app.pages if page.offer is not None]
    assert [page.title for page in offered] == ["Renege"]
    return app, offered[0]


def test_a_renege_offer_on_screen_is_back_after_a_power_cut(tmp_path: Path) -> None:
    app, offer = renege_on_screen()
    resumed = power_cut_and_start(tmp_path, app.record)
    assert isinstance(resumed.state.screen, Reading)
    assert [page.title for page in resumed.pages] == ["Game restored", "Renege"]
    again = resumed.pages[1]
    assert (again.lines, again.offer) == (offer.lines, offer.offer)
    resumed.feed(OK)  # the notice
    assert resumed.view.hint == "OK penalty  GO skip"
    assert resumed.view.lines == offer.lines
    resumed.feed(OK)  # OK applies it: the play goes back to Ann's go
    assert json.loads(resumed.record[-1]) == {
        "type": "penalty", "player": 0, "infraction": "renege", "points": 4, "to": 1}
    assert resumed.game.take_backs and resumed.game.scores == (20, 24)


def test_an_offer_the_table_went_past_is_not_put_again(tmp_path: Path) -> None:
    app, _ = renege_on_screen()
    while app.pages and app.pages[0].offer is None:
        app.feed(OK)
    app.feed(GO)  # skip the renege
    app.read()
    enter(app, event(entry("crib", cards=["2S", "4H", "9D", "9S"])))  # the game goes on
    resumed = power_cut_and_start(tmp_path, app.record)
    assert [page.title for page in resumed.pages] == ["Game restored"]


def test_a_false_claim_offer_on_screen_is_back_after_a_power_cut(tmp_path: Path) -> None:
    app = muggins_game()  # P1 deals; P2 counts first
    enter(app, Peg(1, 114), Starter(Card.parse("5S")))
    app.read()
    enter(app, Show(1, tuple(Card.parse(c) for c in ("2C", "3D", "8H", "KS"))))  # worth 6
    app.read()
    enter(app, Claim(1, 8))  # 122 claimed on a count of 120
    offered = [page for page in app.pages if page.offer is not None]
    assert [page.title for page in offered] == ["False claim"]
    resumed = power_cut_and_start(tmp_path, app.record)
    again = [page for page in resumed.pages if page.offer is not None]
    assert [(p.title, p.lines, p.offer) for p in again] == [
        (p.title, p.lines, p.offer) for p in offered]
    resumed.feed(OK, OK)
    assert json.loads(resumed.record[-1])["infraction"] == "false-claim-of-game"


def test_a_renege_offered_at_the_win_is_back_and_still_takes_the_win_back(
    tmp_path: Path,
) -> None:
    app = new_game(dealer=1)  # Ann at 115 pegs out in the play on points after her renege
    enter(app, Peg(0, 115), Peg(1, 80), Starter(Card.parse("AC")))
    app.read()
    for line in WRONG_PLAY:
        if app.pages:
            app.read()
        enter(app, event(line))
    assert app.game.winner == 0
    offered = [page for page in app.pages if page.offer is not None]
    resumed = power_cut_and_start(tmp_path, app.record)
    assert resumed.game.winner == 0
    assert [page.title for page in resumed.pages] == ["Game restored", "Renege"]
    assert resumed.pages[1].offer == offered[0].offer
    resumed.feed(OK, OK)  # the notice, then the claim
    resumed.read()
    assert resumed.game.winner is None
    assert resumed.view.screen is not Screen.GAME_OVER


def on_the_offer(app: App) -> App:
    while app.pages and app.pages[0].offer is None:
        app.feed(OK)
    assert app.pages and app.pages[0].offer is not None
    return app


def offers_on_screen(app: App) -> list[tuple[str, tuple[str, ...], object]]:
    return [(p.title, p.lines, p.offer) for p in app.pages if p.offer is not None]


def test_an_offer_let_pass_is_not_put_again_after_a_power_cut(tmp_path: Path) -> None:
    """GO lets the offer pass, an entry of its own: a power cut right after it, before any
    other entry, does not bring the offer back; the offer stays open to the Penalty menu."""
    app = on_the_offer(renege_on_screen()[0])
    app.feed(GO)
    assert json.loads(app.record[-1]) == {
        "type": "let_pass", "player": 0, "infraction": "renege"}
    assert app.view.screen is Screen.CRIB and not app.pages
    (offer,) = app.game.reneges
    assert offer.passed and not offer.resolved  # still payable
    resumed = power_cut_and_start(tmp_path, app.record)
    assert [page.title for page in resumed.pages] == ["Game restored"]
    resumed.feed(OK)
    assert resumed.view.screen is Screen.CRIB


def test_undo_of_the_pass_puts_the_offer_back_as_a_restart_would(tmp_path: Path) -> None:
    app, offer = renege_on_screen()
    on_the_offer(app).feed(GO)
    app.feed(UNDO)  # the pass taken back: the offer stands again
    assert json.loads(app.record[-1]) == {"type": "undo"}
    assert offers_on_screen(app) == [("Renege", offer.lines, offer.offer)]
    resumed = power_cut_and_start(tmp_path / "a", app.record)
    assert offers_on_screen(resumed) == offers_on_screen(app)
    app.feed(OK)  # and OK applies it
    assert json.loads(app.record[-1])["type"] == "penalty"


def test_undo_of_the_penalty_applied_puts_the_offer_back_as_a_restart_would(
        tmp_path: Path) -> None:
    app, offer = renege_on_screen()
    on_the_offer(app).feed(OK)  # applied: the play goes back to Ann's go
    assert app.game.take_backs
    app.read()
    app.feed(UNDO)
    assert not app.game.take_backs and not app.game.reneges[0].resolved
    assert offers_on_screen(app) == [("Renege", offer.lines, offer.offer)]
    resumed = power_cut_and_start(tmp_path, app.record)
    assert offers_on_screen(resumed) == offers_on_screen(app)
    app.feed(GO)  # let pass this time
    assert app.view.screen is Screen.CRIB
    assert [p.title for p in power_cut_and_start(tmp_path / "b", app.record).pages] == [
        "Game restored"]


def test_undo_on_the_offer_takes_back_the_entry_that_made_it(tmp_path: Path) -> None:
    """UNDO right on the offer's page takes back the entry whose report made the offer:
    the offer is gone with it, live and after a power cut alike."""
    app = on_the_offer(renege_on_screen()[0])
    app.feed(UNDO)
    assert not app.game.reneges and not offers_on_screen(app)
    resumed = power_cut_and_start(tmp_path, app.record)
    assert not offers_on_screen(resumed) and not resumed.game.reneges
