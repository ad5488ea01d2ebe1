"""Audio mode's words and sounds (docs/accessibility.md): the cards laid named with the
count, the standing after each score, whose turn after a go or a reset, the wheel's words
replacing each other, the sounds as WAV, and "say again" answered within a second."""

from __future__ import annotations

import io
import shutil
import threading
import wave
from pathlib import Path

import pytest

from pegboard.app.inputs import Button, KnobTurn, Press
from pegboard.app.sounds import Sound
from pegboard.config import Config, VoiceConfig, parse_config
from pegboard.sim.fakes import FakeClock, RecordingDisplay
from pegboard.sim.keys import KeyStep, parse_script
from pegboard.sim.session import Simulator
from pegboard.store import Store
from pegboard.voice.acts import Announcement, Importance
from pegboard.voice.audio import earcon
from pegboard.voice.earcons import earcon_wav
from pegboard.voice.espeak import EspeakVoice
from pegboard.voice.hook import Transcript, VoiceHook
from pegboard.voice.speaker import Speaker, SpeechQueue
from tests.support.announcing import announcer_after, said_over_keys

AUDIO = parse_config("[voice]\naudio = true\n")
HOLD_GO = Press(Button.GO, long=True)
START = "ok ok right ok ok"
"""Keys from the home screen to the play: new game, start, P1 deals, the wheel's starter."""


def transcript_of(keys: str, tmp_path: Path, config: Config = AUDIO) -> Transcript:
    return said_over_keys(keys, config, tmp_path, Transcript())


def test_a_laid_card_a_score_a_go_and_the_turn_said_from_the_facts() -> None:
    announcer, state, entered = announcer_after(
        ("Ann", "Ben"), "deal 0; starter 2C; play 1 7D 0 8C 1 9S 0 6D; go 1; go 0")
    announcer.audio = True
    assert [said.text for said in announcer.heard(state, entered).said] == [
        "Deal 1: Ann deals",  # the deal and its dealer: an announcement of its own
        "The starter is two",  # by its rank: the suit may be the box's stand-in
        "Ben, seven: seven", "Ann, eight: fifteen for two; Ann 2, Ben 0",
        "Ben, nine: twenty-four for three, a run; Ann 2, Ben 3",
        "Ann, six: thirty for four, a run; Ann 6, Ben 3",
        "Ben: go", "Ann to play", "Ann: go", "Ann: one for the go; Ann 7, Ben 3",
        "Ben to play",
    ]


def test_a_thirty_one_says_who_plays_next() -> None:
    announcer, state, entered = announcer_after(
        ("Ann", "Ben"), "deal 0; starter 2C; play 1 KD 0 QD 1 AS 0 KS")
    announcer.audio = True
    assert [said.text for said in announcer.heard(state, entered).said][-2:] == [
        "Ann, king: thirty-one for two; Ann 2, Ben 0", "Ben to play"]


def test_without_audio_mode_the_facts_are_said_as_before() -> None:
    announcer, state, entered = announcer_after(
        ("Ann", "Ben"), "deal 0; starter 2C; play 1 7D 0 8C 1 9S")
    assert [said.text for said in announcer.heard(state, entered).said] == [
        "Ann: fifteen for two", "Ben: twenty-four for three, a run"]


def test_the_screen_is_said_as_it_is_reached_and_the_wheel_as_it_moves(
        tmp_path: Path) -> None:
    transcript = transcript_of("ok right ok left", tmp_path)
    assert transcript.texts() == [
        "Pegboard. New game", "[ok]", "New game. Start", "[click]", "Players: 2",
        "[ok]", "Players: 3", "[click]", "Start"]


def test_the_wheels_card_is_said_after_a_card_is_laid_and_the_table_after_an_undo(
        tmp_path: Path) -> None:
    """OK lays a card and the wheel passes to the next player: its card is said, so OK at
    once lays a card the player heard. UNDO says what it took back, then where the table is
    now: the screen whole, the count the play is at, and the card under the wheel."""
    said = transcript_of(START + " right ok ok undo undo", tmp_path).texts()
    at = said.index("P2, two: two")
    assert said[at:] == [
        "P2, two: two", "2",
        "[ok]", "P1, two: four for two, a pair; P1 2, P2 0", "2",
        "[ok]", "Taken back: P1's 2", "Deal 1. Count 2. P1 plays: 2",
        "[ok]", "Taken back: P2's 2", "Deal 1. Count 0. P2 plays: ace"]
    assert said[at - 3:at] == ["[click]", "2", "[ok]"]


def test_go_held_first_turns_audio_mode_on_and_the_voice_says_so(tmp_path: Path) -> None:
    transcript = transcript_of("hold-go right", tmp_path, Config())
    assert transcript.texts() == ["Audio on", "Pegboard. New game", "[click]",
                                  "Learn to play"]
    assert transcript.causes == ["start", "start", "start", "start"]


def test_with_audio_mode_off_no_sound_or_screen_word_is_made(tmp_path: Path) -> None:
    voice = parse_config("[voice]\nenabled = true\n")
    assert transcript_of(START + " right ok", tmp_path, voice).texts() == []


TABLE_KEYS = Path(__file__).parent / "golden" / "scripts" / "table.keys"


def test_a_refusal_is_said_and_say_again_repeats_it(tmp_path: Path) -> None:
    """table.keys up to Ben's turn after the renege's take-back (his hand known): his go,
    holding a 7 that fits at 24, is refused."""
    script = TABLE_KEYS.read_text(encoding="utf-8")
    upto = script[:script.index("# Ben lays the 7 he held")]
    transcript = transcript_of(upto + " go hold-go", tmp_path)
    texts = transcript.texts()
    assert "[refused]" in texts
    refusal = texts[texts.index("[refused]") + 1]
    assert refusal.startswith("Not allowed")
    assert texts[-1] == refusal


def test_say_the_score_says_each_side_the_count_and_who_plays(tmp_path: Path) -> None:
    texts = transcript_of(START + " ok hold-menu", tmp_path).texts()
    assert texts[-1].startswith("P1 0, P2 0. Count "), texts[-1]
    assert texts[-1].endswith(" to play")


def test_a_newer_wheel_word_or_fact_replaces_an_unsaid_wheel_word_but_no_sound_or_fact(
        ) -> None:
    q = SpeechQueue(FakeClock())
    q.put(earcon(Sound.CLICK))
    q.put(Announcement("7", "wheel", Importance.WHEEL))
    q.put(earcon(Sound.CLICK))
    q.put(Announcement("8", "wheel", Importance.WHEEL))
    assert q.texts() == ["[click]", "[click]", "8"]
    q.put(earcon(Sound.OK))
    q.put(Announcement("Ann, eight: fifteen for two", "play", Importance.PLAY))
    assert q.texts() == ["[click]", "[click]", "[ok]", "Ann, eight: fifteen for two"]
    assert q.last is not None and q.last.text == "Ann, eight: fifteen for two"


def test_each_sound_is_a_short_wav_of_its_own() -> None:
    lengths = {}
    for sound in Sound:
        with wave.open(io.BytesIO(earcon_wav(sound))) as wav:
            assert (wav.getnchannels(), wav.getsampwidth(), wav.getframerate()) == (
                1, 2, 22_050)
            lengths[sound] = wav.getnframes() / wav.getframerate()
    assert lengths[Sound.CLICK] < lengths[Sound.OK] < lengths[Sound.REFUSED] <= 0.15
    assert len({earcon_wav(sound) for sound in Sound}) == 3


class Heard:
    """A speech engine that notes the fake time each thing is said or played."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.said: list[tuple[float, str]] = []
        self.done = threading.Event()

    def speak(self, text: str) -> None:
        self.said.append((self.clock.now(), text))

    def play(self, sound: Sound) -> None:
        self.said.append((self.clock.now(), f"[{sound.value}]"))

    def stop(self) -> None:
        pass


def _answer_time(step: KeyStep, tmp_path: Path, expect: str) -> float:
    clock = FakeClock()
    heard = Heard(clock)
    speaker = Speaker(heard, clock)
    store = Store(tmp_path / "store", owner="test")
    sim = Simulator(AUDIO, store, RecordingDisplay(), clock=clock, speech=VoiceHook(speaker))
    try:
        sim.start()
        for word in parse_script(START):
            for _ in range(word.count):
                sim.press(KeyStep(word.key, 1, word.hold))
        assert speaker.idle(60)
        pressed = clock.now()
        sim.press(step)
        assert speaker.idle(60)
    finally:
        sim.close()
        store.close()
        speaker.close()
    answers = [(at, text) for at, text in heard.said if at >= pressed and expect in text]
    assert answers, heard.said[-3:]
    return answers[0][0] - pressed


def test_say_again_and_say_the_score_are_answered_within_a_second(tmp_path: Path) -> None:
    again = _answer_time(KeyStep("go", hold=True), tmp_path / "again", "P2 plays")
    score = _answer_time(KeyStep("menu", hold=True), tmp_path / "score", "P1 0, P2 0")
    assert again <= 1.0 and score <= 1.0, (again, score)


def test_a_device_with_the_voice_off_opens_it_when_audio_mode_is_turned_on() -> None:
    from pegboard.app.machine import initial_state, step, view
    from pegboard.device.build import voice_for
    from pegboard.device.observers import OnDemand, Seen, Voice

    assert isinstance(voice_for(Config().voice, FakeClock()), OnDemand)
    transcript = Transcript()
    opened: list[VoiceHook] = []

    def opener() -> VoiceHook:
        opened.append(VoiceHook(transcript))
        return opened[-1]

    voice = Voice(OnDemand(opener))
    state = initial_state(Config())
    voice.saw(Seen(state, view(state), first=True))
    state, effects = step(state, KnobTurn(1), 1.0)
    voice.saw(Seen(state, view(state), asked=effects, stepped=True))
    assert not opened and transcript.texts() == []
    state, effects = step(state, HOLD_GO, 2.0)
    assert not state.audio  # not the first key: nothing changes
    state = initial_state(Config())
    voice = Voice(OnDemand(opener))
    voice.saw(Seen(state, view(state), first=True))
    state, effects = step(state, HOLD_GO, 1.0)
    voice.saw(Seen(state, view(state), asked=effects, stepped=True))
    assert len(opened) == 1
    assert transcript.texts() == ["Audio on", "Pegboard. New game"]
    state, effects = step(state, KnobTurn(1), 2.0)
    voice.saw(Seen(state, view(state), asked=effects, stepped=True))
    assert transcript.texts()[-2:] == ["[click]", "Learn to play"]


class Blocking:
    """A speech engine whose words last until stopped (a long word the next detent cuts)."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.stopped = threading.Event()
        self.said: list[str] = []

    def speak(self, text: str) -> None:
        self.said.append(text)
        if text == "jack nobs":
            self.started.set()
            self.stopped.wait(60)

    def play(self, sound: Sound) -> None:
        self.said.append(f"[{sound.value}]")

    def stop(self) -> None:
        self.stopped.set()


def test_the_next_wheel_word_cuts_the_one_being_said_short() -> None:
    voice = Blocking()
    speaker = Speaker(voice, FakeClock())
    try:
        speaker.say((Announcement("jack nobs", "wheel", Importance.WHEEL),))
        assert voice.started.wait(60)
        speaker.say((earcon(Sound.CLICK), Announcement("queen", "wheel", Importance.WHEEL)))
        assert voice.stopped.wait(60) and speaker.idle(60)
    finally:
        speaker.close()
    assert voice.said == ["jack nobs", "[click]", "queen"]


def test_a_fact_does_not_cut_a_wheel_word_short() -> None:
    voice = Blocking()
    speaker = Speaker(voice, FakeClock())
    try:
        speaker.say((Announcement("jack nobs", "wheel", Importance.WHEEL),))
        assert voice.started.wait(60)
        speaker.say((Announcement("Ann: his heels for two", "his heels", Importance.SHOW),))
        assert not voice.stopped.is_set()
        voice.stopped.set()  # the word ends by itself
        assert speaker.idle(60)
    finally:
        speaker.close()
    assert voice.said == ["jack nobs", "Ann: his heels for two"]


@pytest.mark.skipif(shutil.which("sox") is None, reason="needs sox")
def test_the_speaking_voice_plays_each_sound_through_its_player(tmp_path: Path) -> None:
    # sox stands in for the sound device, as for the words: the same pipe, into a file
    out = tmp_path / "played.wav"
    voice = EspeakVoice(VoiceConfig(), player=["sox", "-q", "-t", "wav", "-", str(out)])
    voice.play(Sound.REFUSED)
    with wave.open(str(out)) as played, wave.open(io.BytesIO(earcon_wav(Sound.REFUSED))) as made:
        assert played.getnframes() == made.getnframes() > 3000
        assert played.readframes(made.getnframes()) == made.readframes(made.getnframes())


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="needs espeak-ng")
def test_sim_speech_writes_the_sounds_and_the_transcript(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pegboard.cli import main

    script = tmp_path / "keys.txt"
    script.write_text("hold-go right*2 wait:1 ok\n", encoding="utf-8")
    speech = tmp_path / "speech"
    assert main(["sim", "--script", str(script), "--speech", str(speech)]) == 0
    assert "announcements in" in capsys.readouterr().out
    lines = (speech / "transcript.txt").read_text(encoding="utf-8").splitlines()
    assert lines == [
        "1 hold-go\tAudio on", "1 hold-go\tPegboard. New game",
        "2 right\t[click]", "2 right\tLearn to play",
        "3 right\t[click]", "3 right\tShut down",
        "5 ok\t[ok]", "5 ok\tShut down? No"]
    assert (speech / "0003.txt").read_text(encoding="utf-8") == "[click]\n"
    assert (speech / "0003.wav").read_bytes() == earcon_wav(Sound.CLICK)
    with wave.open(str(speech / "0004.wav")) as word:
        assert word.getnframes() > word.getframerate() // 4  # "Learn to play", spoken


def test_keypad_claim_digits_are_read_back(tmp_path: Path) -> None:
    """A muggins game on the keypad: each digit key on a claim says the number as it now
    stands, so a claim is heard before OK pegs it."""
    config = parse_config('[input]\nkit = "keypad"\n[voice]\naudio = true\n')
    said = said_over_keys("ok 7 A 2 5 5 10 5 A 2 ok", config, tmp_path, Transcript()).texts()
    at = said.index("P1 claims. fifteen: 2")
    assert said[at:] == [
        "P1 claims. fifteen: 2", "[ok]", "fifteen: 5", "[ok]", "fifteen: 1", "[ok]",
        "fifteen: 12", "[ok]", "P1: twelve claimed, corrected to two; P1 2, P2 0",
        "P2 plays: ace"]


def test_a_tie_for_the_cut_is_said_as_one_sentence(tmp_path: Path) -> None:
    """A page line after a colon goes on the same sentence: "tie: cut again"."""
    tie = transcript_of("ok ok ok ok ok", tmp_path).texts()
    assert tie[-1] == "Entered. A tie. Lowest cards tie: cut again."


def test_an_undo_names_a_court_card_in_words(tmp_path: Path) -> None:
    """What UNDO took back is said with its card in words, as the wheel says it ("P2's
    queen"), never the screen's letter ("Q", which a speech engine reads as "cue")."""
    said = transcript_of(START + " left*2 ok undo", tmp_path).texts()
    assert said[-2:] == ["Taken back: P2's queen", "Deal 1. Count 0. P2 plays: ace"]


def test_a_player_who_lays_again_hears_it_is_still_their_turn() -> None:
    """Ben is out of cards: Ann lays her nine and then her last card. The turn does not pass, so
    it is said ("Ann to play"), as after a go; it is not said where the turn passes on."""
    announcer, state, entered = announcer_after(
        ("Ann", "Ben"), "deal 0; starter 2C; play 1 KD 0 QD 1 JS; go 0; "
        "play 1 AS 0 5H 1 6S 0 9H")
    announcer.audio = True
    said = [said.text for said in announcer.heard(state, entered).said]
    assert said[-4:] == ["Ann, five: five", "Ben, six: eleven", "Ann, nine: twenty",
                         "Ann to play"]
