"""Bad input on the command line: one line on standard error and exit 2, before any work.

Each case is one the issue measured as a traceback, or an output that failed only after the
work was done (``sim --record`` into a missing folder after the whole script played).
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from pegboard.cli import main

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
MUGGINS_START = [
    '{"type": "game", "players": ["Ann", "Ben"], "rules": {"muggins": true}}',
    '{"type": "cut", "cards": ["4S", "5S"]}',
    '{"type": "deal", "dealer": 0}',
    '{"type": "starter", "card": "7D"}',
    '{"type": "play", "player": 1, "card": "8C"}',
]


def refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """Run ``argv``; it must exit 2 with one line on standard error. Returns that line."""
    try:
        status = main(argv)
    except SystemExit as stop:  # argparse's own usage errors
        status = stop.code  # type: ignore[assignment]
    err = capsys.readouterr().err
    assert status == 2, err
    assert err.count("\n") == 1 and err.endswith("\n"), err
    return err.rstrip("\n")


# -- replay -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ([b'{"type": "game", "players": ["Ren\xe9", "Ben"]}'],
         "rec.jsonl: line 1, byte 34 is not UTF-8 (e9: invalid continuation byte); a record is "
         "UTF-8 text"),
        ([MUGGINS_START[0].encode(), b'{"type": "deal", "x": ' + b"[" * 987 + b"]" * 987 + b"}"],
         "line 2: arrays and objects nested more than 8 deep"),
        ([MUGGINS_START[0].encode(), b'{"type": "deal", "dealer": ' + b"1" * 4301 + b"}"],
         "line 2: a number of 4,301 digits"),
        ([line.encode() for line in MUGGINS_START] + [b'{"type": "claim", "player": 1, '
                                                      b'"points": 2100}'],
         "line 6: 'points' must be a whole number from 0 to 29"),
        ([b'{"type": "game", "players": ["\\ud800", "Ben"]}'],
         "line 1: the text '\\ud800' is not valid Unicode (a lone surrogate)"),
        ([b'{"type": "game", "players": ["A\\u0000", "Ben"]}'],
         "line 1: the name of seat 0 has the character '\\x00' at 2"),
    ],
)
def test_replay_refuses_bad_records_on_one_line(
    lines: list[bytes], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "rec.jsonl"
    record.write_bytes(b"\n".join(lines) + b"\n")
    err = refused(capsys, ["replay", str(record)])
    assert err.startswith("pegboard replay: ")
    assert message in err


def test_replay_decodes_standard_input_itself(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    stdin = io.TextIOWrapper(io.BytesIO(b'{"type": "game", "players": ["Ann", "B\xff"]}\n'),
                             encoding="utf-8")
    monkeypatch.setattr("sys.stdin", stdin)
    assert refused(capsys, ["replay", "-"]) == (
        "pegboard replay: <stdin>: line 1, byte 39 is not UTF-8 (ff: invalid start byte); a "
        "record is UTF-8 text"
    )


@pytest.mark.parametrize(
    ("name", "message"),
    [("a\0b", "'a\\x00b' has a NUL byte"), ("Ren\udce9.jsonl", "is not UTF-8 text"),
     ("x" * 300, "has a name of 300 bytes; each name in a path is at most 255"),
     ("", "an empty file name")],
)
def test_replay_refuses_names_no_file_can_have(
    name: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert message in refused(capsys, ["replay", name])


def test_replay_of_a_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert refused(capsys, ["replay", str(tmp_path)]).endswith(": Is a directory")


# -- sim --------------------------------------------------------------------------------------


@pytest.fixture
def script(tmp_path: Path) -> Path:
    path = tmp_path / "keys.txt"
    path.write_text("ok go\n", encoding="utf-8")
    return path


def test_sim_refuses_outputs_it_could_not_write_before_playing(
    tmp_path: Path, script: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing" / "game.jsonl"
    err = refused(capsys, ["sim", "--script", str(script), "--record", str(missing),
                           "--frames", str(tmp_path / "frames")])
    assert err == (f"pegboard sim: cannot write {str(missing)!r}: the folder "
                   f"{str(missing.parent)!r} does not exist")
    assert not (tmp_path / "frames").exists()  # refused before anything was made
    a_file = tmp_path / "taken"
    a_file.write_text("", encoding="utf-8")
    assert "is a file; give a folder" in refused(
        capsys, ["sim", "--script", str(script), "--frames", str(a_file)])
    assert "is a folder; give a file name" in refused(
        capsys, ["sim", "--script", str(script), "--record", str(tmp_path)])
    assert "is a file; give a folder" in refused(
        capsys, ["sim", "--script", str(script), "--store", str(a_file)])
    # --frames DIR puts the record in DIR/game.jsonl: a folder there is refused up front too.
    (tmp_path / "frames2" / "game.jsonl").mkdir(parents=True)
    assert "game.jsonl' is a folder" in refused(
        capsys, ["sim", "--script", str(script), "--frames", str(tmp_path / "frames2")])
    assert not list((tmp_path / "frames2").glob("*.png"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (b"ok\n# caf\xe9\n", "line 2, byte 6 is not UTF-8 (e9: invalid continuation byte); a "
                             "key script is UTF-8 text"),
        (b"ok*99999999999999999999\n", "line 1: the number 999999999999… is too large; allowed: "
                                       "at most 50,000 presses and 3,600 seconds per wait"),
        (b"ok*" + b"9" * 5000, "the number 999999999999… is too large"),
        (b"right*30000 left*30000", "60,000 key steps; allowed: at most 50,000 in one script"),
        (b"ok wait:100000", "a wait of 100,000 seconds; allowed: at most 3,600 (an hour)"),
        (b"wait*30:3600", "108,000 seconds of waiting in all; allowed: at most 86,400 (a day)"),
        (b"ok " + b"x" * 100_000, "cannot read 'xxxxxxxx"),
    ],
)
def test_sim_refuses_scripts_it_cannot_read_or_would_never_finish(
    text: bytes, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "keys.txt"
    path.write_bytes(text)
    err = refused(capsys, ["sim", "--script", str(path)])
    assert err.startswith("pegboard sim: ") and message in err
    assert len(err) < 400


def test_sim_reads_a_script_from_standard_input_as_bytes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"ok \xff\n"), encoding="utf-8"))
    assert refused(capsys, ["sim", "--script", "-"]) == (
        "pegboard sim: <stdin>: line 1, byte 4 is not UTF-8 (ff: invalid start byte); a key "
        "script is UTF-8 text"
    )


# -- stats, leds, usage errors ----------------------------------------------------------------


def test_stats_checks_the_plot_file_before_replaying(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = EXAMPLES / "two-player.jsonl"
    err = refused(capsys, ["stats", "--record", str(record), "--plot",
                           str(tmp_path / "nowhere" / "race.png")])
    assert "the folder" in err and "does not exist" in err
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes(record.read_bytes().replace(b'"Ann"', b'"Ren\xe9"'))
    assert refused(capsys, ["stats", "--record", str(latin)]).endswith(
        "latin.jsonl: line 1, byte 48 is not UTF-8 (e9: invalid continuation byte); a record is "
        "UTF-8 text"
    )


def test_leds_refuse_bad_folders_and_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a_file = tmp_path / "taken"
    a_file.write_text("", encoding="utf-8")
    assert "is a file; give a folder" in refused(capsys, ["leds", "svg", "--out", str(a_file)])
    assert "is a file; give a folder" in refused(capsys, ["leds", "sim", "--dir", str(a_file)])
    assert "'nan' is not a number of seconds from 0 to 86400" in refused(
        capsys, ["leds", "sim", "--seconds", "nan"])
    assert "'inf' is not a number of seconds from 0 to 60" in refused(
        capsys, ["leds", "demo", "--device", "auto", "--pause", "inf"])
    assert "has a NUL byte" in refused(capsys, ["leds", "flash", "--device", "/dev/x\0",
                                                "--dry-run"])


@pytest.mark.parametrize(
    "argv",
    [["score", "5H"], ["advise", "5H", "--players", "7", "--dealer"], ["nonsense"],
     ["stats", "--game", "9" * 5000], ["replay"], ["leds"]],
)
def test_usage_errors_are_one_line_too(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    err = refused(capsys, argv)
    assert err.startswith("pegboard") and err.endswith("--help)")
    assert len(err) < 300
