"""The pegging coach's line whole, from the players' side: on the 128x64 play screen a line
longer than the bottom line comes wrapped on a page before the turn (the play screen then shows
the card to lay), and in audio mode the voice says it whole."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from PIL import Image, ImageChops

from pegboard.app.inputs import InputEvent
from pegboard.rules.value import replace
from pegboard.ui.render import render
from pegboard.ui.text import CHAR_W, LINE_H, draw_text, fit, width, wrap
from pegboard.voice.hook import Transcript, VoiceHook
from pegboard.voice.phrases import coach_phrase
from tests.support.announcing import changes_of
from tests.support.app_driver import OK, App
from tests.test_app_pegging_coach import opened, to_p1s_turn
from tests.test_app_teaching import teaching_game

LINE = "Lay 8: a J back, your J makes thirty-one for 2 and a pair is 4"
"""The coach's line for P1 once P2 has led a 3 (an open hand: P1 kept 7 8 J 4, 7♥ K♠ laid
away; 2 turned)."""


def shows(frame: Image.Image, text: str) -> bool:
    """Whether ``text`` is drawn whole on one line of ``frame`` (at the left edge, or one
    column in, as list rows are)."""
    wide = width(text)
    for y in range(frame.height - LINE_H + 1):
        for x in (0, CHAR_W + 1):
            probe = Image.new("1", frame.size)
            draw_text(probe, x, y, text)
            box = (x, y, x + wide, y + LINE_H)
            if ImageChops.logical_xor(probe.crop(box), frame.crop(box)).getbbox() is None:
                return True
    return False


def test_a_long_coach_line_is_shown_whole_on_a_page_then_its_card_on_the_play_screen(
        monkeypatch: pytest.MonkeyPatch) -> None:
    opened(monkeypatch)
    app = to_p1s_turn(teaching_game())
    assert app.pages[-1].title == "Coach: P1's card"
    while len(app.pages) > 1:
        app.feed(OK)
    frame = render(app.view)
    rows = wrap(LINE, 20)
    assert len(rows) == 4 and all(shows(frame, row) for row in rows), rows
    app.feed(OK)
    assert app.view.coach == LINE and app.view.turn == "P1"
    play = render(app.view)
    assert shows(play, "Lay 8")  # the card to lay, whole; the why was on the page
    assert not shows(play, fit(LINE, 21))  # never the line cut short


@dataclass
class VoicedApp(App):
    """The app with the voice listening in audio mode, every announcement kept."""

    transcript: Transcript = field(default_factory=Transcript)
    hook: VoiceHook | None = None

    def feed(self, *events: InputEvent) -> VoicedApp:
        for event in events:
            super().feed(event)
            if self.hook is None:
                self.hook = VoiceHook(self.transcript)
                self.hook.heard(self.state, self.view, (), first=True)
                continue
            self.hook.heard(self.state, self.view, self.effects, changes_of(self.effects))
        return self


def test_in_audio_mode_the_coach_line_is_said_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    opened(monkeypatch)
    taught = teaching_game()
    audio = replace(taught.state, setup=replace(taught.state.setup, audio=True))
    app = VoicedApp(audio, now=taught.now, record=taught.record)
    to_p1s_turn(app)
    assert "Coach: P1's card" not in [page.title for page in app.pages]  # said, not shown
    app.read()
    coach = [said.text for said in app.transcript.said if said.kind == "coach"]
    assert coach.count(coach_phrase((LINE,))) == 1  # said once, as P1's turn comes
    assert coach_phrase((LINE,)).startswith("Lay 8: a jack back, your jack makes")
