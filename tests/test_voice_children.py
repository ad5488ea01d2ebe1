"""The voice never leaves a process behind: real espeak-ng into small real scripts standing
in for a faulty player (one that cannot start, one that fails at once as aplay does without a
sound device, one that ignores SIGTERM, one that hangs), 100 announcements each, the child
processes counted from /proc before and after. A player reports when it has started through
a named pipe, so nothing here waits by sleeping.
"""

from __future__ import annotations

import ast
import logging
import os
import shutil
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pegboard.config import VoiceConfig
from pegboard.sim.fakes import FakeClock
from pegboard.voice.acts import Announcement, Importance
from pegboard.voice.espeak import EspeakVoice
from pegboard.voice.speaker import Speaker

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                reason="espeak-ng is installed by `make test-tools`")

VOICE = Path(__file__).resolve().parent.parent / "pegboard" / "voice"
TIMES = 100
LIVENESS_S = 60.0
"""A player that ignores SIGTERM sleeps 600 s: stopped in well under this it was killed, not
waited for. The bound is that, not a speed (a busy machine may take seconds to schedule it)."""
AUDIO_ERROR = "aplay: main:831: audio open error: No such file or directory"


def children() -> set[int]:
    """This process's child processes, zombies included (from /proc)."""
    me = os.getpid()
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # ended meanwhile
        if int(stat.rsplit(")", 1)[1].split()[1]) == me:
            found.add(int(entry.name))
    return found


@pytest.fixture
def no_children_left() -> Iterator[None]:
    before = children()
    yield
    left = children() - before
    for pid in left:  # leave the machine clean even when the test failed
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    assert not left, f"{len(left)} child processes left behind"


def script(folder: Path, name: str, body: str) -> list[str]:
    path = folder / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return [str(path)]


@pytest.fixture
def started(tmp_path: Path) -> Path:
    """A named pipe each player writes a line to once it is running."""
    fifo = tmp_path / "started"
    os.mkfifo(fifo)
    return fifo


def voice_with(player: list[str], **settings: float) -> EspeakVoice:
    """The speaking voice with ``player`` in place of aplay (set as attributes, the way the
    older tests set the player, so the same test runs against any release)."""
    voice = EspeakVoice(VoiceConfig())
    voice.player = player
    for name, value in settings.items():
        setattr(voice, name, value)
    return voice


def said(text: str, entry: int) -> Announcement:
    return Announcement(text, "play", Importance.SHOW, entry)


def test_a_player_that_cannot_start_leaves_no_espeak(tmp_path: Path,
                                                    no_children_left: None) -> None:
    player = script(tmp_path, "player", "")
    (tmp_path / "player").write_text("#!/nonexistent/interpreter\n")
    voice = voice_with(player)
    errors = []
    for _ in range(TIMES):
        with pytest.raises(OSError) as error:
            voice.speak("fifteen two")
        errors.append(str(error.value))
    assert set(errors) == {"the player player cannot start: No such file or directory"}


def test_a_failing_player_is_reported_with_its_status_and_words(
        tmp_path: Path, no_children_left: None) -> None:
    player = script(tmp_path, "aplay", f"echo '{AUDIO_ERROR}' >&2\nexit 1\n")
    voice = voice_with(player)
    for _ in range(TIMES):
        with pytest.raises(OSError) as error:
            voice.speak("fifteen two")
        assert str(error.value) == f"the player aplay failed (exit status 1): {AUDIO_ERROR}"


def test_a_player_ignoring_sigterm_is_killed_after_the_grace(
        tmp_path: Path, started: Path, no_children_left: None) -> None:
    player = script(tmp_path, "deaf", f"trap '' TERM\necho up > {started}\nexec sleep 600\n")
    voice = voice_with(player, grace_s=0.02)
    took = []
    for _ in range(TIMES):
        speaking = threading.Thread(target=voice.speak, args=("fifteen two",))
        speaking.start()
        with started.open() as up:
            assert up.readline() == "up\n"
        t0 = time.monotonic()
        voice.stop()
        speaking.join(timeout=LIVENESS_S)
        took.append(time.monotonic() - t0)
        assert not speaking.is_alive(), "the player that ignores SIGTERM was never killed"
    assert max(took) < LIVENESS_S, max(took)


def test_a_hanging_player_is_stopped_at_the_limit(tmp_path: Path,
                                                  no_children_left: None) -> None:
    player = script(tmp_path, "stuck", "trap '' TERM\nexec sleep 600\n")
    voice = voice_with(player, limit_s=0.05, grace_s=0.02)
    errors: list[str] = []

    def speak() -> None:
        for _ in range(10):
            try:
                voice.speak("fifteen two")
            except OSError as error:
                errors.append(str(error))

    speaking = threading.Thread(target=speak, daemon=True)
    speaking.start()
    speaking.join(timeout=LIVENESS_S)
    assert not speaking.is_alive(), "a hanging player was waited for without end"
    assert errors == ["the player stuck was still playing after 0.05 s and was stopped"] * 10


def test_an_espeak_that_hangs_writing_a_file_is_stopped_and_said(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_children_left: None) -> None:
    from pegboard.voice import espeak

    script(tmp_path, "espeak-ng", "exec sleep 600\n")
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    monkeypatch.setattr(espeak, "ESPEAK_LIMIT_S", 0.1, raising=False)
    with pytest.raises(OSError, match=r"espeak-ng took more than 0.1 s and was stopped"):
        espeak.write_wav("fifteen two", tmp_path / "said.wav", VoiceConfig())


def test_shutdown_with_a_player_ignoring_sigterm_is_quick_and_clean(
        tmp_path: Path, started: Path, no_children_left: None) -> None:
    player = script(tmp_path, "deaf", f"trap '' TERM\necho up > {started}\nexec sleep 600\n")
    speaker = Speaker(voice_with(player), FakeClock())
    speaker.say([said("thirty-one for two", 1), said("and a go", 2)])
    with started.open() as up:
        assert up.readline() == "up\n"
    t0 = time.monotonic()
    speaker.close()
    took = time.monotonic() - t0
    assert took < LIVENESS_S, took


def test_a_failing_player_is_told_once_and_the_game_goes_on(
        tmp_path: Path, no_children_left: None, caplog: pytest.LogCaptureFixture) -> None:
    player = script(tmp_path, "aplay", f"echo '{AUDIO_ERROR}' >&2\nexit 1\n")
    told: list[str] = []
    speaker = Speaker(voice_with(player), FakeClock(),
                      notice=told.append)
    try:
        for entry in range(1, TIMES + 1):
            speaker.say([said("fifteen two", entry)])
            assert speaker.idle(timeout=LIVENESS_S)
    finally:
        speaker.close()
    assert speaker.failed == TIMES and speaker.spoken == 0
    assert told == [f"voice: the player aplay failed (exit status 1): {AUDIO_ERROR}; "
                    "the game goes on"]
    assert speaker.problem == told[0]

    quiet = Speaker(voice_with(player), FakeClock())
    with caplog.at_level(logging.WARNING, logger="pegboard.voice"):
        for entry in range(1, 11):
            quiet.say([said("fifteen two", entry)])
            assert quiet.idle(timeout=LIVENESS_S)
        quiet.close()
    assert [r.getMessage() for r in caplog.records] == told


def test_the_device_shows_a_failing_voice_once_and_plays_on(
        tmp_path: Path, no_children_left: None) -> None:
    import queue

    from gpiozero.pins.mock import MockFactory

    from pegboard.app.inputs import Button, Press, Tick
    from pegboard.config import Config
    from pegboard.device.build import APP, initial_state, open_store
    from pegboard.device.loop import DeviceLoop
    from pegboard.device.observers import Voice
    from pegboard.hw.inputs import EncoderKit
    from pegboard.sim.fakes import RecordingDisplay
    from pegboard.voice.hook import VoiceHook

    player = script(tmp_path, "aplay", f"echo '{AUDIO_ERROR}' >&2\nexit 1\n")
    told: list[str] = []
    clock = FakeClock()
    speaker = Speaker(voice_with(player), clock, notice=told.append)
    hook = VoiceHook(speaker)
    factory = MockFactory()
    inbox: queue.Queue[object] = queue.Queue()
    try:
        with open_store(tmp_path / "store", owner="pegboard test") as store:
            loop = DeviceLoop(APP, initial_state(Config(), store),
                              kit=EncoderKit(inbox.put, clock, pin_factory=factory),
                              inbox=inbox, display=RecordingDisplay(), store=store,
                              clock=clock, observers=[Voice(hook)])
            loop.start()
            for time_ in range(3):  # the screen read aloud, three times: the player fails each
                hook.read(loop.app.view(loop.state))
                assert speaker.idle(timeout=LIVENESS_S)
                loop.feed([Tick()])
                if time_ == 0:
                    assert loop.shown is not None and loop.shown.title == "No sound"
                    assert loop.shown.lines == (
                        f"the player aplay failed (exit status 1): {AUDIO_ERROR}",
                        "The game goes on without the voice.")
                    loop.feed([Press(Button.UNDO)])  # any key: back to the game
                assert loop.shown == loop.app.view(loop.state)  # the game, not the notice
            loop.close()
    finally:
        factory.reset()
    assert speaker.failed == 3 and len(told) == 1


@pytest.mark.parametrize("path", sorted(VOICE.glob("*.py")), ids=lambda p: p.name)
def test_the_voice_never_imports_the_command_layer(path: Path) -> None:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = ([alias.name for alias in node.names] if isinstance(node, ast.Import) else
                 [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
        for name in names:
            assert name.split(".")[:2] not in (["pegboard", "commands"], ["pegboard", "cli"]), (
                f"{path.name} imports {name}")
