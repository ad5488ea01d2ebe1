"""A whole game spoken: the guide's key script through the simulator with ``--speech``, and the
voice's hooks in the loop (say it again, the screen read aloud, undo)."""

from __future__ import annotations

import shutil
import wave
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from pegboard.cli import main
from pegboard.config import Config
from pegboard.device.build import open_store
from pegboard.record import parse_line
from pegboard.rules.awards import number
from pegboard.rules.events import GameHeader
from pegboard.rules.game import Game
from pegboard.rules.state import PLAY_REASONS, Award
from pegboard.sim.keys import parse_script
from pegboard.sim.script import run_script
from pegboard.voice.announce import Announcement, Importance
from pegboard.voice.hook import VoiceHook

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "guide.keys"


def expected_from_record(record: str) -> list[tuple[str, int, str]]:
    """(who, points, reason) for each announcement the record's awards call for, in order:
    a card's play points together, each other award alone, then the winner."""
    game: Game | None = None
    out: list[tuple[str, int, str]] = []
    for number_, text in enumerate(record.splitlines(), start=1):
        item = parse_line(text, number_)
        if isinstance(item, GameHeader):
            game = Game.from_header(item)
            continue
        assert game is not None
        awards: Sequence[Award] = game.apply(item)  # type: ignore[arg-type]
        group: list[Award] = []
        for award in [*awards, None]:
            if award is not None and award.reason in PLAY_REASONS and (
                    not group or group[0].player == award.player):
                group.append(award)
                continue
            if group:
                out.append((game.state.names[group[0].player], sum(a.points for a in group),
                            "play"))
                group = []
            if award is not None and award.reason in PLAY_REASONS:
                group.append(award)
            elif award is not None:
                out.append((game.state.names[award.player], award.points, award.reason))
    assert game is not None and game.state.result is not None
    result = game.state.result
    out.append((game.state.names[result.winner], result.scores[result.winner], "result"))
    return out


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="needs espeak-ng")
def test_the_guide_game_spoken_has_one_announcement_per_award_in_order(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    speech, record = tmp_path / "speech", tmp_path / "game.jsonl"
    assert main(["sim", "--script", str(GUIDE), "--speech", str(speech),
                 "--record", str(record)]) == 0
    assert "announcements in" in capsys.readouterr().out
    expected = expected_from_record(record.read_text(encoding="utf-8"))
    texts = [path.read_text(encoding="utf-8").strip() for path in sorted(speech.glob("*.txt"))]
    wavs = sorted(speech.glob("*.wav"))
    assert [p.stem for p in wavs] == [f"{n:04d}" for n in range(1, len(texts) + 1)]
    assert len(texts) == len(expected) > 50
    for text, (who, points, reason) in zip(texts, expected, strict=True):
        assert text.startswith(who), (text, who)
        words = number(points)
        if reason in ("hand", "crib"):
            assert text.endswith(f" {words}") or text.endswith(": nineteen"), text
        elif reason == "play":
            assert f"for {words}" in text or text.endswith(
                ("one for the go", "one for last card")), text
        elif reason == "result":
            assert text.startswith(f"{who} wins, {words}"), text
    # each WAV is the speech of its text
    for path in (wavs[0], wavs[-1]):
        with wave.open(str(path), "rb") as wav:
            assert wav.getnframes() / wav.getframerate() > 1.0


class Sink:
    """Records what the loop's voice hook hands on."""

    def __init__(self) -> None:
        self.said: list[Announcement] = []
        self.cancelled: list[int] = []
        self.repeats = 0

    def say(self, announcements: Sequence[Announcement]) -> None:
        self.said.extend(announcements)

    def cancel(self, entries: int) -> None:
        self.cancelled.append(entries)

    def again(self) -> None:
        self.repeats += 1

    def close(self) -> None:
        pass


def _play_keys() -> str:
    """The guide's keys up to the end of its first play (where thirty-one is scored)."""
    lines = GUIDE.read_text(encoding="utf-8").splitlines()
    end = lines.index("# picture: crib")
    return "\n".join(lines[:end])


def _run(keys: str, config: Config, tmp_path: Path) -> Sink:
    sink = Sink()
    store = open_store(tmp_path / "store", owner="test")
    try:
        run_script(parse_script(keys), config, store, speech=VoiceHook(sink))
    finally:
        store.close()
    return sink


VOICE_ON = replace(Config(), voice=replace(Config().voice, enabled=True))


def test_say_it_again_held_go_and_undo_reach_the_voice(tmp_path: Path) -> None:
    sink = _run(_play_keys() + "\nmenu right ok hold-go undo*3", VOICE_ON, tmp_path)
    made = [a.text for a in sink.said]
    assert "Ann: thirty-one for two" in made
    assert sink.repeats == 1  # MENU, row 2 "Say it again"
    screen = sink.said[-1]
    assert screen.importance is Importance.ASKED and screen.kind == "screen"
    # the play ended with the last card: the crib is being entered, and that is read
    assert screen.text.startswith("The crib. Ann 6, Ben 5. Crib card 3/4"), screen.text
    # two UNDOs take back the crib cards being entered, the third the last card laid
    assert len(sink.cancelled) == 1


def test_with_the_voice_off_the_menu_has_no_say_again_and_go_held_reads_nothing(
        tmp_path: Path) -> None:
    sink = _run(_play_keys() + "\nhold-go", Config(), tmp_path)
    assert sink.repeats == 0
    assert all(a.kind != "screen" for a in sink.said)
