"""Audio mode in the app: the setting, the first key's toggle, its keys and its sounds
(docs/accessibility.md). With audio mode off every key does what it always did."""

from __future__ import annotations

from pathlib import Path

from pegboard.app.effects import AudioMode, Earcon, SayAgain, SayScore
from pegboard.app.inputs import Button, KnobTurn, Press, Tick
from pegboard.app.machine import initial_state, step
from pegboard.app.sounds import Sound
from pegboard.app.start import setup_rows
from pegboard.app.state import Confirm, Home, Menu, SetupScreen
from pegboard.config import Config, parse_config
from pegboard.voice.hook import Transcript
from tests.support.announcing import said_over_keys
from tests.support.app_driver import GO, MENU, OK, UNDO, App

HOLD_GO = Press(Button.GO, long=True)
HOLD_MENU = Press(Button.MENU, long=True)


def audio_app(kit: str = "encoder") -> App:
    app = App.start(kit)
    app.feed(HOLD_GO)
    assert app.state.audio
    return app


def test_the_config_sets_audio_mode_at_power_on() -> None:
    assert not Config().voice.audio
    config = parse_config("[voice]\naudio = true\n")
    state = initial_state(config)
    assert state.audio and state.speaking and not config.voice.enabled


def test_holding_go_as_the_first_key_turns_audio_mode_on_never_off() -> None:
    app = App.start()
    app.feed(HOLD_GO)
    assert app.state.audio and app.effects == [AudioMode(True)]
    assert isinstance(app.state.screen, Home)
    on = App(initial_state(parse_config("[voice]\naudio = true\n")))
    on.feed(HOLD_GO)  # already on: "say again", as everywhere
    assert on.state.audio and on.effects == [SayAgain()]


def test_go_held_after_another_key_does_not_toggle() -> None:
    app = App.start()
    app.feed(KnobTurn(1), HOLD_GO)
    assert not app.state.audio and app.effects == []


def test_the_setup_row_turns_audio_mode_on_and_off() -> None:
    app = App.start()
    app.feed(OK)  # New game
    rows = [label for _, label in setup_rows(app.state.setup)]
    assert rows[-1] == "Audio: off"
    app.feed(KnobTurn(len(rows) - 1))
    assert app.view.hint == "says every card and row"
    app.feed(OK)
    assert app.state.audio and AudioMode(True) in app.effects
    # audio mode on offers the speech style, last
    assert app.view.lines[-2].endswith("Audio: on")
    assert app.view.lines[-1].endswith("Speech: full")
    app.feed(OK)
    assert not app.state.audio and app.effects == [AudioMode(False)]
    assert app.view.lines[-1].endswith("Audio: off")


def test_the_setup_row_speech_turns_the_terse_style_on_in_audio_mode() -> None:
    app = App.start()
    app.feed(OK)  # New game
    rows = [label for _, label in setup_rows(app.state.setup)]
    app.feed(KnobTurn(len(rows) - 1), OK)  # audio mode on
    app.feed(KnobTurn(1))
    assert app.view.hint == "terse: counts by total"
    assert not app.state.terse
    app.feed(OK)
    assert app.state.terse and app.view.lines[-1].endswith("Speech: terse")
    app.feed(OK)
    assert not app.state.terse


def test_the_terse_style_comes_from_the_config() -> None:
    config = parse_config("[voice]\naudio = true\nstyle = \"terse\"\n")
    assert initial_state(config).terse
    assert not initial_state(parse_config("[voice]\naudio = true\n")).terse


def test_in_audio_mode_go_held_says_again_and_menu_held_says_the_score() -> None:
    for kit in ("encoder", "keypad"):
        app = audio_app(kit)
        app.feed(HOLD_GO)
        assert app.effects == [SayAgain()]
        app.feed(HOLD_MENU)
        assert app.effects == [SayScore()]
        assert isinstance(app.state.screen, Home)  # not "Shut down?"


def test_without_audio_mode_menu_held_still_asks_to_shut_down() -> None:
    app = App.start()
    app.feed(KnobTurn(1), HOLD_MENU)
    assert isinstance(app.state.screen, Confirm)


def test_each_key_brings_its_sound_in_audio_mode_only() -> None:
    app = audio_app()
    app.feed(KnobTurn(1))
    assert app.effects == [Earcon(Sound.CLICK)]
    app.feed(KnobTurn(-1), OK)
    assert isinstance(app.state.screen, SetupScreen)
    assert app.effects == [Earcon(Sound.OK)]
    app.feed(UNDO, UNDO)  # back home, then UNDO does nothing there
    assert app.effects == [Earcon(Sound.REFUSED)]
    plain = App.start()
    plain.feed(KnobTurn(1), OK, UNDO, UNDO, GO, MENU)
    assert not any(isinstance(effect, Earcon) for effect in plain.effects)


def test_in_audio_mode_a_key_on_a_dark_screen_still_acts() -> None:
    config = Config()
    state = initial_state(config)
    state, _ = step(state, HOLD_GO, 0.0)
    state, _ = step(state, KnobTurn(1), 1.0)
    dark = config.idle.blank_after_s + 10.0
    state, _ = step(state, Tick(), dark)
    state, effects = step(state, KnobTurn(1), dark + 1)
    assert isinstance(state.screen, Home) and state.screen.index == 2
    assert Earcon(Sound.CLICK) in effects


def test_a_fast_spin_clicks_once_a_detent() -> None:
    app = audio_app()
    app.feed(KnobTurn(2))  # three rows on the home screen: two detents on
    assert app.effects == [Earcon(Sound.CLICK)] * 2
    app.feed(KnobTurn(-40))
    assert app.effects == [Earcon(Sound.CLICK)] * 12


def test_go_down_a_list_clicks_on_the_keypad_kit() -> None:
    app = audio_app("keypad")
    app.feed(GO)
    assert app.effects == [Earcon(Sound.CLICK)]


def test_on_the_keypad_one_hold_says_the_score_and_a_second_opens_the_menu() -> None:
    """The keypad's MENU is OK held, so it has no MENU held: in audio mode one hold says the
    score and leaves the table as it was; held again at once, it opens the menu (any other
    key between, the next hold says the score again). On the encoder MENU held says it, and
    a MENU tap opens the menu as before."""
    app = audio_app("keypad")
    screen = app.state.screen
    app.feed(MENU)  # what the keypad's held OK reports
    assert app.state.screen is screen and app.effects == [SayScore()]
    app.feed(MENU)
    assert isinstance(app.state.screen, Menu) and SayScore() not in app.effects
    app.feed(UNDO)  # out of the menu; then another key between two holds
    app.feed(MENU)
    app.feed(GO)
    app.feed(MENU)
    assert not isinstance(app.state.screen, Menu) and app.effects == [SayScore()]
    app = audio_app("encoder")
    app.feed(MENU)
    assert isinstance(app.state.screen, Menu) and SayScore() not in app.effects
    plain = App.start("keypad")
    plain.feed(MENU)
    assert isinstance(plain.state.screen, Menu) and plain.effects == []


def test_the_keypad_score_hold_is_said(tmp_path: Path) -> None:
    config = parse_config('[input]\nkit = "keypad"\n[voice]\naudio = true\n')
    said = said_over_keys("ok ok ok hold-ok", config, tmp_path, Transcript()).texts()
    assert said[-1] == "P1 0, P2 0" and not [text for text in said if "Menu" in text]
    said = said_over_keys("ok ok ok hold-ok hold-ok", config, tmp_path, Transcript()).texts()
    assert said[-3:] == ["P1 0, P2 0", "[ok]", "Menu. 1 Back"]
