"""A once-a-game lesson brought up by a phone's entry is that phone's: the box shows none of
them (:mod:`pegboard.app.seat_entry`). A game resumed after a power cut rebuilds the lessons
the box gave from its record; the store keeps beside each line the seat whose phone made it,
so the replay counts exactly what the box showed, and the box still gives a lesson that only
a phone's entry had brought up.

Played through a real store (its files closed as a power cut leaves them, the device started
again from them by ``pegboard.device.build``), as the loop keeps each entry."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pegboard.app.effects import Persist, PersistNewGame, PersistUndo, SeatAnswer
from pegboard.app.inputs import InputEvent, SeatEntry
from pegboard.app.seat_entry import seat_seq
from pegboard.config import Config
from pegboard.device.build import initial_state, open_store, phone_made
from pegboard.rules.cards import Card
from pegboard.rules.events import Dealt, Event, LaidAway, Play
from pegboard.store import CurrentGame, Store
from tests.support.app_driver import UNDO, App, new_game
from tests.test_app_lessons_restart import lay
from tests.test_app_teaching import menu

SIX = tuple(Card.parse(card) for card in ("KS", "JS", "AS", "2H", "9D", "8C"))
"""P2's six cards, sent from P2's phone (the last two laid away)."""


@dataclass
class Kept(App):
    """An app whose entries a real store keeps as the loop keeps them (with the seat whose
    phone made each); with no store, the game never cut, played on in memory."""

    store: Store | None = None

    def feed(self, *events: InputEvent) -> Kept:
        for event in events:
            super().feed(event)
            if self.store is None:  # the store was left by a power cut: the game goes on
                continue
            for effect in self.effects:
                if isinstance(effect, PersistNewGame):
                    self.store.new_game(effect.header)
                elif isinstance(effect, Persist):
                    self.store.append(effect.entry, seat=effect.seat)
                elif isinstance(effect, PersistUndo):
                    self.store.undo()
        return self

    def send(self, seat: int, *entries: Event) -> None:
        """``seat``'s phone sends ``entries``; the box shows no page for them."""
        self.feed(SeatEntry(seat, entries, seat_seq(self.state.session, seat), 1))
        answer = [e for e in self.effects if isinstance(e, SeatAnswer)]
        assert answer and answer[0].taken, answer
        assert not self.pages  # its lessons were the phone's


def teaching_with_a_phone(path: Path) -> Kept:
    """A teaching game kept at ``path``, P1 dealing on the box, P2's hand from P2's phone;
    the starter 5, then P2 K (phone), P1 Q, P2 J (phone), P1 go, P2 A for 31 (phone)."""
    plain = new_game()
    app = Kept(plain.state, store=Store(path, owner="pegboard test"))
    assert app.store is not None
    app.store.new_game(plain.record[0])
    for line in plain.record[1:]:  # the deal, P1 dealing
        app.store.append(line)
    menu(app, "Teaching").feed(UNDO, UNDO)  # teaching on; the basics skipped
    app.send(1, Dealt(1, SIX), LaidAway(1, SIX[4:]))
    lay(app, "5")
    app.send(1, Play(1, SIX[0]))
    lay(app, "Q")
    app.send(1, Play(1, SIX[1]))
    lay(app, "GO")
    app.send(1, Play(1, SIX[2]))
    return app


def power_cut_and_start(path: Path, app: Kept) -> App:
    """The store left as a power cut leaves it; the device started again from its files."""
    assert app.store is not None
    app.store.close()
    app.store = None
    store = open_store(path, owner="pegboard test")
    try:
        return App(initial_state(Config(), store))
    finally:
        store.close()


def test_lessons_a_phones_entries_brought_up_are_not_counted_as_the_boxs(tmp_path: Path) -> None:
    app = teaching_with_a_phone(tmp_path / "store")
    given = app.state.helped
    assert not {"coach the go", "go-and-31"} & given  # the go and 31 came from the phone
    resumed = power_cut_and_start(tmp_path / "store", app)
    assert resumed.state.phone_made  # the store kept which entries the phone made
    resumed.read()
    # The box goes on: P1 leads 10, P2 (phone) 2, P1 K for 22, and P1 says go. The pages the
    # box brings up are those the game never cut brings up: the go is taught on the box now,
    # as the phone's go and 31 taught it only on the phone.
    shown = {name: go_on(each) for name, each in (("resumed", resumed), ("never cut", app))}
    assert shown["resumed"] == shown["never cut"]
    assert "Coach: the go" in shown["resumed"]
    # The lessons read off the record are the very ones the box gave.
    assert not resumed.state.helped_unread
    assert resumed.state.helped == app.state.helped


def go_on(app: App) -> list[str]:
    """P1 10, P2 2 (P2's phone), P1 K, P1's go: the titles of the pages on the box."""
    titles = lay(app, "10")
    app.feed(SeatEntry(1, (Play(1, SIX[3]),), seat_seq(app.state.session, 1), 1))
    assert not app.pages
    return [*titles, *lay(app, "K", "GO")]


def test_an_undo_line_takes_back_the_phones_entry_it_undoes() -> None:
    """The entries in force, by place: each undo line takes back the last one."""
    records = ({"type": "game"}, {"type": "deal"}, {"type": "play"}, {"type": "undo"},
               {"type": "play"}, {"type": "play"}, {"type": "go"})
    seats = (None, None, 1, None, None, 1, 1)
    game = CurrentGame("g", Path("current.log"), records, (0.0,) * len(records), seats=seats)
    assert phone_made(game) == frozenset({2, 3})  # deal 0, the box's play 1, the phone's 2, 3
    # A log that keeps no seats (a game restored from a damaged file): none known.
    assert phone_made(CurrentGame("g", Path("current.log"), records, (0.0,) * 7)) == frozenset()
