"""Each thing said once, nothing lost: a teaching page said once in audio mode (by the
teaching voice, then its title as it is reached), a count held across a power cut said as its
owner's count comes in, the pegging coach's short line said with the voice on, and the
tournament lock said when a locked game is resumed or audio mode comes on in one."""

from __future__ import annotations

from pathlib import Path

import pytest

from pegboard.app.inputs import KnobTurn
from pegboard.app.machine import initial_state
from pegboard.app.state import OwnCount
from pegboard.config import Config, InputConfig, VoiceConfig
from pegboard.record import dump, read_game
from pegboard.rules.events import ClubSeat, GameHeader
from pegboard.rules.facts import Counted, ShowStep
from pegboard.sim.keys import parse_script
from pegboard.sim.script import run_script
from pegboard.store import Store
from pegboard.voice.audio import LOCKED
from pegboard.voice.hook import Transcript, VoiceHook
from pegboard.voice.phrases import coach_phrase, phrases_for, step_phrase
from tests.support.announcing import said_over_keys
from tests.support.app_driver import OK
from tests.test_app_own_count import HeardApp, own_count_game
from tests.test_app_pegging_coach import opened, to_p1s_turn
from tests.test_app_teaching import play_to_the_last_card, teaching_game
from tests.test_club_lock_screens import NIGHT, PLAYED
from tests.test_first_game_coach import COACH_STEPS, SCRIPT
from tests.test_pegging_coach_whole import LINE, VoicedApp

KEYPAD = InputConfig(kit="keypad")


def test_in_audio_mode_each_coach_page_is_said_once_and_its_title_as_it_is_reached(
        tmp_path: Path) -> None:
    config = Config(input=KEYPAD, voice=VoiceConfig(audio=True))
    said = said_over_keys(SCRIPT.read_text(encoding="utf-8"), config, tmp_path,
                          Transcript()).texts()
    for step in COACH_STEPS:
        assert sum(step in text for text in said) == 1, step
    # Each page's title is said as it is reached, after the words the coach said for it.
    deal = next(i for i, text in enumerate(said) if text.startswith(COACH_STEPS[0]))
    assert said.index("Coach: the deal") > deal
    # No card of P2's is known, so nothing says another would have done better: no note.
    assert "Coach: points given" not in said
    crib = next(i for i, text in enumerate(said) if text.startswith(COACH_STEPS[-1]))
    assert said.index("Coach: the crib") > crib
    # Rule help, which no teaching voice says, is still read whole as it is reached.
    assert any(text.startswith("Go and 31 1/4. Nobody can play?") for text in said)


@pytest.mark.parametrize("audio", [False, True], ids=["voice", "audio mode"])
def test_a_count_held_across_a_power_cut_is_said_once_its_owners_count_is_in(
        audio: bool) -> None:
    """Resumed at the owner's count screen, the voice says each count as the table that was
    not cut says it (in audio mode with the standing its act gives)."""
    begun = own_count_game()
    whole = HeardApp(begun.state, now=begun.now, record=begun.record)
    whole.announcer.audio = audio
    whole.announcer.begin(whole.state)
    play_to_the_last_card(whole)
    while not isinstance(whole.state.screen, OwnCount):
        whole.feed(OK)
    ended = list(whole.record)
    whole.feed(KnobTurn(3), OK)  # P2 says 3
    while not isinstance(whole.state.screen, OwnCount):
        whole.feed(OK)
    whole.feed(OK)  # P1 says 0
    assert [count.split(":")[0] for count in whole.counts] == ["P2", "P1"]

    held = read_game(ended)
    p = phrases_for("en")
    steps = [step for report in held.reports() for step in report.of(ShowStep)
             if step.counted is Counted.HAND]
    assert [step_phrase(step, held.state.names, p) for step in steps] == [
        count.split(";")[0] for count in whole.counts]
    assert all((";" in count) is audio for count in whole.counts)

    resumed = HeardApp(initial_state(Config(), resume=ended))
    resumed.announcer.audio = audio
    resumed.announcer.begin(resumed.state)
    while not isinstance(resumed.state.screen, OwnCount):
        resumed.feed(OK)
    assert resumed.counts == []  # nothing said before the owner's count
    resumed.feed(KnobTurn(3), OK)
    assert resumed.counts == whole.counts[:1]
    while not isinstance(resumed.state.screen, OwnCount):
        resumed.feed(OK)
    assert resumed.counts == whole.counts[:1]  # P1's count not yet
    resumed.feed(OK)
    assert resumed.counts == whole.counts  # each once, in the engine's words


def test_with_the_voice_on_a_short_pegging_coach_line_is_said_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    opened(monkeypatch)
    taught = teaching_game()
    app = VoicedApp(taught.state, now=taught.now, record=taught.record)
    to_p1s_turn(app)
    while app.pages:
        app.read()
    app.pick("8")  # P1 lays the 8; P2's 9 brings P1's next line, short enough for the screen
    app.pick("9")
    while app.pages:
        app.read()
    short = app.view.coach
    assert 0 < len(short) <= 21
    coach = [said.text for said in app.transcript.said if said.kind == "coach"]
    assert coach.count(coach_phrase((short,))) == 1
    assert coach.count(coach_phrase((LINE,))) == 1  # the long one from its page, once
    app.feed(KnobTurn(1), KnobTurn(-1))  # the wheel moves: the line is not said again
    assert [said.text for said in app.transcript.said if said.kind == "coach"] == coach


def _club_store(folder: Path, *, lock: bool) -> Store:
    """A store holding a club game (under the tournament lock or not), part played."""
    header = GameHeader(("Ann", "Ben"), PLAYED.header.rules,
                        club=ClubSeat(12, 1, 7, ("101", "102"), lock=lock))
    store = Store(folder, owner="test")
    store.new_game(dump(header))
    for event in PLAYED.events[:12]:
        store.append(dump(event))
    return store


@pytest.mark.parametrize("lock", [True, False], ids=["locked", "casual"])
@pytest.mark.parametrize("how", ["resumed in audio mode", "audio mode turned on"])
def test_a_locked_game_resumed_or_heard_mid_game_says_the_lock_once(
        tmp_path: Path, how: str, lock: bool) -> None:
    audio = how == "resumed in audio mode"
    config = Config(input=KEYPAD, voice=VoiceConfig(audio=audio), club=NIGHT)
    keys = "ok ok" if audio else "hold-go ok ok"
    store = _club_store(tmp_path, lock=lock)
    transcript = Transcript()
    try:
        run_script(parse_script(keys), config, store, speech=VoiceHook(transcript))
    finally:
        store.close()
    said = transcript.texts()
    told = [text for text in said if LOCKED in text]
    if not lock:
        assert told == [], said
        return
    assert len(told) == 1, said
    assert told[0].startswith(f"{LOCKED}. Game restored"), said
    assert said.index(told[0]) == (0 if audio else 1)  # ("Audio on" first)
