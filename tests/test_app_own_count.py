"""Count it yourself from the players' side: offered at setup with a line saying what it does,
and no count shown or said (the board's pegs included) before its owner has turned one in."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from pegboard.app.effects import UpdateLeds
from pegboard.app.inputs import InputEvent, KnobTurn
from pegboard.app.start import OWN_COUNT_HINT
from pegboard.app.state import OwnCount
from pegboard.voice.announce import Announcer
from tests.support.app_driver import OK, App, started
from tests.test_app_teaching import play_to_the_last_card


def own_count_game() -> App:
    """A teaching game with count it yourself chosen at setup, P1 dealing."""
    return started("Teaching: off", "Count it yourself: off").feed(KnobTurn(1), OK).read()


def test_setup_offers_count_it_yourself_with_a_line_on_what_it_does() -> None:
    app = App.start().feed(OK)  # New game
    rows = list(app.view.lines)
    assert not [row for row in rows if row.startswith("Count it yourself")]  # teaching's own
    app.feed(KnobTurn(rows.index("Teaching: off") - (app.view.selected or 0)), OK)
    rows = list(app.view.lines)
    at = rows.index("Count it yourself: off")
    app.feed(KnobTurn(at - (app.view.selected or 0)))
    assert app.view.hint == OWN_COUNT_HINT
    app.feed(OK)
    assert app.view.lines[at] == "Count it yourself: on"
    app.feed(KnobTurn(-at), OK)  # Start
    header = json.loads(app.record[0])
    assert header["table"] == {"teaching": True, "count_yourself": True}


def pegs(app: App) -> tuple[int, ...] | None:
    """The front pegs the last step asked the LED board to show (None: no change asked)."""
    asked = [effect for effect in app.effects if isinstance(effect, UpdateLeds)]
    return tuple(side.front for side in asked[-1].sides) if asked else None


def test_the_screen_shows_no_count_before_the_owner_has_said_theirs() -> None:
    """The pages before the first count and the owner's count screen show the board as it
    stood before the count was pegged, and so do the LED board's pegs; the count's own page
    shows it pegged."""
    app = own_count_game()
    play_to_the_last_card(app)
    scores = app.game.scores  # the engine has pegged every count already
    before = None
    while app.pages:
        if before is None:
            before = tuple(side.score for side in app.view.sides)
        assert tuple(side.score for side in app.view.sides) == before, app.view.title
        assert pegs(app) in (None, before)
        app.feed(OK)
    assert isinstance(app.state.screen, OwnCount)
    assert pegs(app) in (None, before)
    assert app.view.title == "P2, count your hand"
    assert tuple(side.score for side in app.view.sides) == before != scores
    assert not [line for line in app.view.lines if "4" in line.split(": ")[0]]
    app.feed(KnobTurn(4), OK)
    assert app.view.title == "P2's hand: 4"
    shown = tuple(side.score for side in app.view.sides)
    assert before is not None and shown[1] == before[1] + 4 and shown[0] == before[0]
    app.read()
    assert app.view.title == "P1, count your hand"
    assert tuple(side.score for side in app.view.sides) == shown  # P1's 7 not pegged yet


@dataclass
class HeardApp(App):
    """The app with an announcer beside it, as the voice hears every step."""

    announcer: Announcer = field(default_factory=Announcer)
    counts: list[str] = field(default_factory=list)
    """Each hand and crib said, in order."""

    def feed(self, *events: InputEvent) -> HeardApp:
        for event in events:
            super().feed(event)
            heard = self.announcer.heard(self.state, self.take_changes()).said
            self.counts.extend(a.text for a in heard if a.kind in ("hand", "crib"))
        return self


def test_the_voice_says_a_count_only_once_its_owner_has_said_theirs() -> None:
    app = HeardApp(own_count_game().state)
    app.announcer.begin(app.state)
    app.take_changes()
    play_to_the_last_card(app)
    while app.pages:
        app.feed(OK)
    assert app.view.title == "P2, count your hand"
    assert app.counts == []
    app.feed(KnobTurn(2), OK)  # P2 says 2: the whole count now shows, and is said
    assert [count.split(":")[0] for count in app.counts] == ["P2"]
    app.read()
    assert app.view.title == "P1, count your hand"
    assert len(app.counts) == 1
    app.feed(KnobTurn(7), OK)
    assert [count.split(":")[0] for count in app.counts] == ["P2", "P1"]
