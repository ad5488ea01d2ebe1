"""A whole game spoken: the guide's key script through the simulator with ``--speech``, and the
voice's hooks in the loop (say it again, the screen read aloud, undo)."""

from __future__ import annotations

import shutil
import wave
from collections.abc import Sequence
from pathlib import Path

import pytest

from pegboard.app.effects import Changes, Persist, PersistUndo
from pegboard.app.session import Session
from pegboard.app.state import AppState
from pegboard.cli import main
from pegboard.config import Config
from pegboard.record import parse_line
from pegboard.rules.events import Event, GameHeader, Undo
from pegboard.rules.facts import Counted, GameOver, Scored, ShowStep
from pegboard.rules.game import Game
from pegboard.rules.speech import number
from pegboard.rules.state import PLAY_REASONS, Reason
from pegboard.rules.value import replace
from pegboard.voice.acts import Announcement, Importance
from pegboard.voice.announce import Announcer
from tests.support.announcing import said_over_keys

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "guide.keys"


def expected_from_record(record: str) -> list[tuple[str, int, str]]:
    """(who, points, what) for each announcement the engine's facts call for, in order: each
    hand and crib counted (a hand of nothing too), each other scoring act (a card's play
    points and its go or last card together), then the winner as the board shows it."""
    game: Game | None = None
    out: list[tuple[str, int, str]] = []
    for number_, text in enumerate(record.splitlines(), start=1):
        item = parse_line(text, number_)
        if isinstance(item, GameHeader):
            game = Game.from_header(item)
            continue
        assert game is not None and isinstance(item, Event)
        names = game.names
        counted: list[tuple[int, Reason]] = []
        for fact in game.push(item).facts:
            if isinstance(fact, ShowStep):
                reason = Reason.CRIB if fact.counted is Counted.CRIB else Reason.HAND
                counted.append((fact.player, reason))
                out.append((names[fact.player], fact.total, reason))
            elif isinstance(fact, Scored) and (fact.player, fact.reasons[0]) not in counted:
                play = all(reason in PLAY_REASONS for reason in fact.reasons)
                out.append((names[fact.player], fact.points,
                            "play" if play else fact.reasons[0]))
            elif isinstance(fact, GameOver):
                out.append((names[fact.winner], fact.shown[fact.winner], "result"))
    return out


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="needs espeak-ng")
def test_the_guide_game_spoken_has_one_announcement_per_award_in_order(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    speech, record = tmp_path / "speech", tmp_path / "game.jsonl"
    assert main(["sim", "--script", str(GUIDE), "--speech", str(speech),
                 "--record", str(record)]) == 0
    assert "announcements in" in capsys.readouterr().out
    expected = expected_from_record(record.read_text(encoding="utf-8"))
    texts = [path.read_text(encoding="utf-8").strip()
             for path in sorted(speech.glob("[0-9]*.txt"))]
    wavs = sorted(speech.glob("*.wav"))
    assert [p.stem for p in wavs] == [f"{n:04d}" for n in range(1, len(texts) + 1)]
    # transcript.txt: each announcement after the key step that brought it
    lines = (speech / "transcript.txt").read_text(encoding="utf-8").splitlines()
    assert [line.split("\t", 1)[1] for line in lines] == texts
    steps = [int(line.split(" ", 1)[0]) for line in lines]
    assert steps == sorted(steps) and steps[0] > 1
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
    return said_over_keys(keys, config, tmp_path, Sink())


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


# --- the words of whole games, from the engine's facts ------------------------------------

GOLDEN = ROOT / "tests" / "golden_text"
EXAMPLES = ROOT / "examples"


def spoken(name: str, *, together: tuple[int, ...] = ()) -> list[str]:
    """Every announcement of an example record entered a line a step (the lines in
    ``together`` entered in the same step as the line before them), as ``line N: words``."""
    lines = (EXAMPLES / name).read_text(encoding="utf-8").splitlines()
    header = parse_line(lines[0], 1)
    assert isinstance(header, GameHeader)
    session = Session.new(header)
    state = AppState(Config(), session=session)
    announcer = Announcer()
    announcer.begin(state)
    out: list[str] = []
    changes = Changes()
    for number_, text in enumerate(lines[1:], start=2):
        item = parse_line(text, number_)
        assert isinstance(item, Event)
        if isinstance(item, Undo):
            changes = changes.after(PersistUndo(session.report))
            session = session.undo()
        else:
            session, report = session.apply(item)
            changes = changes.after(Persist(item, report))
        if number_ + 1 in together:
            continue
        heard = announcer.heard(replace(state, session=session), changes)
        changes = Changes()
        out.extend(f"line {number_}: {said.text}" for said in heard.said)
    return out


@pytest.mark.parametrize("name", ["two-player", "muggins", "renege-and-undo"])
def test_a_whole_game_is_said_from_the_engines_facts(name: str) -> None:
    golden = GOLDEN / f"voice_{name}.txt"
    assert spoken(f"{name}.jsonl") == golden.read_text(encoding="utf-8").splitlines()


def test_the_last_card_is_said_before_the_first_hand_and_a_hand_of_nothing_is_said() -> None:
    said = spoken("two-player.jsonl")
    # line 60: Ann's last card makes fifteen; then Ben's hand (nothing), then Ann's
    assert [text for text in said if text.startswith("line 60: ")] == [
        "line 60: Ann: fifteen for two, and one for last card",
        "line 60: Ben: nineteen",
        "line 60: Ann: fifteen two, fifteen four, fifteen six, fifteen eight, and a pair is "
        "ten",
    ]


def test_a_muggins_count_is_said_only_when_claimed() -> None:
    said = spoken("muggins.jsonl")
    # line 18: the last card laid; the last card and both hands wait for their claims
    assert [text for text in said if text.startswith("line 18: ")] == []
    assert [text for text in said if text.startswith(("line 19: ", "line 20: "))] == [
        "line 19: Ann claims one",
        "line 20: Ben: fifteen two, a pair is four, and a run of three is seven",
    ]


def test_two_entries_in_one_step_are_both_said() -> None:
    # the crib (line 13) and the next deal (line 14) come in one step of the app
    together = spoken("two-player.jsonl", together=(14,))
    alone = spoken("two-player.jsonl")
    assert len(together) == len(alone)
    assert [text.split(": ", 1)[1] for text in together] == [
        text.split(": ", 1)[1] for text in alone]
    assert "line 13: Ann's crib: a pair is two" not in together
    assert "line 14: Ann's crib: a pair is two" in together


def test_the_game_gives_the_reports_an_output_has_not_told_yet() -> None:
    lines = (EXAMPLES / "two-player.jsonl").read_text(encoding="utf-8").splitlines()[:30]
    header = parse_line(lines[0], 1)
    assert isinstance(header, GameHeader)
    game = Game.from_header(header)
    pushed = []
    for number_, text in enumerate(lines[1:], start=2):
        item = parse_line(text, number_)
        assert isinstance(item, Event)
        pushed.append(game.push(item))
    for start in (0, 1, 12, 28, 29):
        assert game.reports(start) == tuple(pushed[start:])
    game.pop()
    assert game.reports(27) == (pushed[27],)
