"""Fuzz: every bad input is refused cleanly — exit 2 and one line, never a traceback or a hang.

Seeded mutations (byte flips, truncations, duplicated and dropped lines, deep nesting, huge
numbers, bytes that are not UTF-8, lone surrogates, control characters) of the records in
``examples/`` go through ``pegboard replay`` in-process (``pegboard.cli.main``, standard output
a strict UTF-8 stream as in a terminal); junk lines go through the record reader and through
``pegboard game add``; mutated config files go through the config loader. A traceback is any
exception escaping (``SystemExit`` other than 0 or 2 included); a hang is a case over its time
budget, measured in processor time (``time.process_time``, so a busy machine cannot make a case
look slow), or one still running after a wall-clock hard limit (a timer signal stops it, so the
run ends).

The normal suite runs 1,500 replays, 6,000 record lines, 300 ``game add`` lines and 2,000
configs (about 15 seconds on one free core); ``-m soak`` runs 10 to 17 times as many with other
seeds. Each test prints its counts (``pytest -s`` shows them).
"""

from __future__ import annotations

import contextlib
import io
import random
import re
import signal
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from types import FrameType

import pytest

from pegboard.cli import main
from pegboard.config import Config, load_config, parse_config, to_toml
from pegboard.errors import ConfigError, RecordError
from pegboard.record import parse_line

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.jsonl"))
CONFIG_EXAMPLE = ROOT / "systemd" / "config.example.toml"

BUDGET_S = 2.0
"""A case using more processor time than this is a hang (the slowest replay of a mutated example
takes ~0.1 s)."""

HARD_LIMIT_S = 60.0
"""A case still running after this is stopped, so a real hang cannot stall the suite."""


# -- the harness ------------------------------------------------------------------------------


class _Stopped(BaseException):
    """Raised by the timer signal in a case that ran past HARD_LIMIT_S (BaseException, so no
    ``except Exception`` in the code under test can swallow it)."""


@dataclass
class Tally:
    """What a fuzz run saw: cases, tracebacks and hangs (with a few examples), the slowest."""

    kind: str
    cases: int = 0
    tracebacks: list[str] = field(default_factory=list)
    hangs: list[str] = field(default_factory=list)
    unclear: list[str] = field(default_factory=list)  # refused, but not on one line
    slowest: float = 0.0
    slowest_case: str = ""

    def report(self) -> str:
        return (
            f"{self.kind}: {self.cases:,} cases, {len(self.tracebacks)} tracebacks, "
            f"{len(self.hangs)} hangs, {len(self.unclear)} unclear refusals, slowest "
            f"{self.slowest * 1000:.1f} ms ({self.slowest_case[:60]!r})"
        )

    def check(self) -> None:
        print(self.report())
        assert not self.tracebacks, "\n".join(self.tracebacks[:5])
        assert not self.hangs, "\n".join(self.hangs[:5])
        assert not self.unclear, "\n".join(self.unclear[:5])


@contextlib.contextmanager
def hard_limit(seconds: float) -> Iterator[None]:
    """Stop the case with _Stopped after ``seconds`` of real time (main thread only)."""

    def stop(signum: int, frame: FrameType | None) -> None:
        raise _Stopped

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_case(
    tally: Tally, label: str, case: Callable[[], object],
    clock: Callable[[], float] = time.process_time,
) -> object:
    """Run one case, counting a traceback, a hang or its time; returns what ``case`` did."""
    tally.cases += 1
    started = clock()
    result: object = None
    try:
        with hard_limit(HARD_LIMIT_S):
            result = case()
    except _Stopped:
        tally.hangs.append(f"{label}: still running after {HARD_LIMIT_S} s")
        return None
    except SystemExit as stop:
        if stop.code not in (0, 2):
            tally.tracebacks.append(f"{label}: SystemExit({stop.code!r})")
        result = stop.code
    except BaseException as error:  # the point: anything else escaping is a traceback
        tally.tracebacks.append(f"{label}: {type(error).__name__}: {str(error)[:200]}")
        return None
    spent = clock() - started
    if spent > BUDGET_S:
        tally.hangs.append(f"{label}: {spent:.2f} s (budget {BUDGET_S} s)")
    if spent > tally.slowest:
        tally.slowest, tally.slowest_case = spent, label
    return result


def run_cli(argv: list[str], stdin: bytes | None = None) -> tuple[object, str]:
    """``main(argv)`` with a strict UTF-8 standard output (as a terminal's) and a captured
    standard error; returns the exit status and what was written to standard error."""
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")
    err = io.StringIO()
    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status: object = main(argv)
            except SystemExit as stop:
                status = stop.code
            out.flush()
    finally:
        sys.stdin = saved
    return status, err.getvalue()


def clear_refusal(tally: Tally, label: str, status: object, err: str, prefix: str) -> None:
    """Exit 2 must come with exactly one line on standard error, naming the command."""
    if status == 2 and (err.count("\n") != 1 or not err.startswith(prefix)):
        tally.unclear.append(f"{label}: {err[:300]!r}")
    elif status not in (0, 2):
        tally.tracebacks.append(f"{label}: exit status {status!r}")


# -- mutations --------------------------------------------------------------------------------

NUMBERS = [b"9" * 5000, b"9" * 4301, b"1" + b"0" * 13, b"2100", b"-2100", b"-1", b"4", b"30",
           b"122", b"1e400", b"-1e400", b"1.5", b"NaN", b"Infinity", b"true", b"null", b"-0",
           b"0x10", b"00"]
STRINGS = [rb'"\ud800"', rb'"\udfff\ud800"', rb'"\u0000"', b'"a\x01b"', rb'"A\u0007"', b'""',
           b'" "', b'"' + b"x" * 30 + b'"', b'"' + b"y" * 20_000 + b'"', rb'"\n"', b"[]",
           b"{}", b"1", b'"\xe9"', rb'"\u202e"', b'"5H"', b'"10C"', b'"game"', b'"peg"']
BAD_BYTES = [b"\xe9", b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xc0\xaf", b"\xf4\x90\x80\x80",
             b"\x00", b"\r", b"\x1b[2J"]
JUNK_LINES = [b"[1]", b"1", b"null", b'"x"', b'{"type": 1}', b"{", b"}", b"\xef\xbb\xbf{}",
              b'{"type":"peg","player":5,"points":3}',
              b'{"type":"claim","player":0,"points":2100}',
              b'{"type":"muggins","player":1,"points":2100}',
              b'{"type":"penalty","player":0,"infraction":"looking","points":99999,"to":7}',
              b'{"type":"penalty","player":0,"infraction":"\\ud800"}',
              b'{"type":"penalty","player":1,"infraction":"renege","points":' + b"9" * 30 + b"}",
              b'{"type":"deal","dealer":-1}', b'{"type":"new_game","dealer":9}',
              b'{"type":"game","players":["A","B"]}', b'{"type":"undo"}' * 3,
              b'{"type":"option","teaching":true}', b'{"type":"dealt","player":0,"cards":[]}',
              b'{"type":"cut","cards":' + b'["AC",' * 200 + b"]" * 200 + b"}"]


def _nest(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


def mutate(rng: random.Random, data: bytes) -> bytes:
    """One random change to a record (or any JSON Lines text)."""
    if not data:
        return rng.choice(JUNK_LINES)
    lines = data.split(b"\n")
    kind = rng.randrange(13)
    at = rng.randrange(len(data))
    line = rng.randrange(len(lines))
    if kind == 0:  # flip a byte
        return data[:at] + bytes([rng.randrange(256)]) + data[at + 1:]
    if kind == 1:  # truncate
        return data[:at]
    if kind == 2:  # duplicate a line
        lines.insert(line, lines[line])
    elif kind == 3:  # drop a line
        del lines[line]
    elif kind == 4:  # swap two lines
        other = rng.randrange(len(lines))
        lines[line], lines[other] = lines[other], lines[line]
    elif kind == 5:  # nest deeply, inside an object or as the whole line
        depth = rng.choice([9, 10, 100, 987, 5000, 100_000])
        text = lines[line].rstrip()
        if text.endswith(b"}") and rng.random() < 0.7:
            lines[line] = text[:-1] + b', "x": ' + _nest(depth) + b"}"
        else:
            lines[line] = rng.choice([_nest(depth), b'{"a":' * depth + b"1" + b"}" * depth])
    elif kind == 6:  # a number replaced
        numbers = list(re.finditer(rb"-?\d+", data))
        if numbers:
            found = rng.choice(numbers)
            return data[:found.start()] + rng.choice(NUMBERS) + data[found.end():]
    elif kind == 7:  # bytes that are not UTF-8 (or are control characters)
        return data[:at] + rng.choice(BAD_BYTES) + data[at:]
    elif kind == 8:  # a string replaced (surrogates, control characters, other types)
        strings = list(re.finditer(rb'"[^"\n]*"', data))
        if strings:
            found = rng.choice(strings)
            return data[:found.start()] + rng.choice(STRINGS) + data[found.end():]
    elif kind == 9:  # a byte dropped
        return data[:at] + data[at + 1:]
    elif kind == 10:  # a stretch repeated
        end = min(len(data), at + rng.randrange(1, 40))
        return data[:at] + data[at:end] * rng.randrange(2, 6) + data[end:]
    elif kind == 11:  # a junk line inserted
        lines.insert(line, rng.choice(JUNK_LINES))
    else:  # a field added or changed to a random value
        text = lines[line].rstrip()
        if text.endswith(b"}"):
            key = rng.choice([b"player", b"points", b"dealer", b"to", b"back", b"card",
                              b"cards", b"players", b"rules", b"version", b"table", b"type"])
            value = rng.choice(NUMBERS + STRINGS)
            lines[line] = text[:-1] + b', "' + key + b'": ' + value + b"}"
    return b"\n".join(lines)


def mutated(rng: random.Random, seeds: list[bytes]) -> bytes:
    data = rng.choice(seeds)
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        data = mutate(rng, data)
    return data


# -- replay -----------------------------------------------------------------------------------


def fuzz_replay(cases: int, seed: int, folder: Path) -> Tally:
    rng = random.Random(seed)
    seeds = [path.read_bytes() for path in EXAMPLES]
    tally = Tally("replay")
    record = folder / "case.jsonl"
    for number in range(cases):
        data = mutated(rng, seeds)
        as_json = ["--json"] if rng.random() < 0.3 else []
        from_stdin = rng.random() < 0.1
        if not from_stdin:
            record.write_bytes(data)
        argv = ["replay", *as_json, "-" if from_stdin else str(record)]
        label = f"replay #{number} (seed {seed}) {data[:120]!r}"
        stdin = data if from_stdin else None
        outcome = run_case(tally, label, partial(run_cli, argv, stdin))
        if isinstance(outcome, tuple):
            clear_refusal(tally, label, outcome[0], outcome[1], "pegboard replay: ")
    return tally


def test_the_examples_replay_cleanly_before_mutation(tmp_path: Path) -> None:
    tally = Tally("examples")
    for path in EXAMPLES:
        outcome = run_case(tally, path.name, partial(run_cli, ["replay", str(path)]))
        assert outcome == (0, "")
    tally.check()


def test_mutated_records_through_replay(tmp_path: Path) -> None:
    fuzz_replay(600, seed=20261123, folder=tmp_path).check()  # the soak takes 20,000


@pytest.mark.soak
def test_mutated_records_through_replay_soak(tmp_path: Path) -> None:
    fuzz_replay(20_000, seed=7, folder=tmp_path).check()


# -- junk lines -------------------------------------------------------------------------------


def junk_line(rng: random.Random, example_lines: list[bytes]) -> bytes:
    roll = rng.random()
    if roll < 0.5:
        return mutated(rng, [rng.choice(example_lines)])
    if roll < 0.7:
        return rng.choice(JUNK_LINES)
    if roll < 0.85:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80)))
    # Random JSON-looking text: brackets, quotes, escapes, digits.
    alphabet = b'{}[]":,0123456789-.eE \\utrfalsnpye'
    return bytes(rng.choice(alphabet) for _ in range(rng.randrange(1, 120)))


def fuzz_lines(cases: int, seed: int) -> Tally:
    """Junk lines through parse_line: a header or event, or RecordError; nothing else."""
    rng = random.Random(seed)
    lines = [line for path in EXAMPLES for line in path.read_bytes().splitlines() if line]
    tally = Tally("record lines")
    for number in range(cases):
        data = junk_line(rng, lines)
        # What a reader gets from bytes it could not decode, and what it gets from a
        # terminal or pipe that decoded them with surrogateescape.
        text = data.decode("utf-8", "surrogateescape" if rng.random() < 0.5 else "replace")

        def case(text: str = text, line: int = number + 1) -> object:
            try:
                return parse_line(text, line)
            except RecordError as error:
                if "\n" in str(error) or not str(error).startswith(f"line {line}"):
                    tally.unclear.append(f"{text[:80]!r}: {str(error)[:200]!r}")
                return error

        run_case(tally, f"line #{number} {text[:120]!r}", case)
    return tally


def test_junk_lines_through_the_record_reader() -> None:
    fuzz_lines(6_000, seed=1123).check()


@pytest.mark.soak
def test_junk_lines_through_the_record_reader_soak() -> None:
    fuzz_lines(100_000, seed=99).check()


HEADER = b'{"type": "game", "players": ["Ann", "Ben"], "rules": {"target": 121}}'


def fuzz_game_add(cases: int, seed: int, store: Path) -> Tally:
    """Junk lines through ``pegboard game add``; the store must stay usable after each."""
    rng = random.Random(seed)
    lines = [line for path in EXAMPLES for line in path.read_bytes().splitlines()[1:] if line]
    tally = Tally("game add")
    created = run_cli(["game", "new", HEADER.decode(), "--store", str(store)])
    assert created[0] == 0, created
    for number in range(cases):
        data = junk_line(rng, lines)
        label = f"game add #{number} {data[:120]!r}"
        # As an argument: Python decodes argv with surrogateescape, and no argument can
        # hold a NUL.
        line = data.replace(b"\0", b"").decode("utf-8", "surrogateescape")
        argv = ["game", "add", "--store", str(store), "--", line]
        outcome = run_case(tally, label, partial(run_cli, argv))
        if isinstance(outcome, tuple):
            clear_refusal(tally, label, outcome[0], outcome[1], "pegboard game")
    # The crash: one accepted line broke every later command. Still readable?
    for argv in (["status"], ["export"], ["list"]):
        outcome = run_case(tally, f"game {argv[0]} after the junk",
                           partial(run_cli, ["game", *argv, "--store", str(store)]))
        assert isinstance(outcome, tuple) and outcome[0] == 0, outcome
    return tally


def test_junk_lines_through_game_add(tmp_path: Path) -> None:
    fuzz_game_add(300, seed=31, store=tmp_path / "store").check()


@pytest.mark.soak
def test_junk_lines_through_game_add_soak(tmp_path: Path) -> None:
    fuzz_game_add(5_000, seed=32, store=tmp_path / "store").check()


# -- config -----------------------------------------------------------------------------------

CONFIG_VALUES = [b"9" * 5000, b"9" * 30, b"0x" + b"f" * 5000, b"1_000_000_000_000_000_000_000_000",
                 b"-1", b"1e400", b"nan", b"inf", b"true", b'""', b'"games"', b'"~/games"',
                 b'"/dev/tty\\u0000x"', b'"/dev/../etc/passwd"', b'"/var/lib/pegboard\\n"',
                 b'"' + b"x" * 5000 + b'"', b"[" * 100 + b"]" * 100, b"[" * 5 + b"]" * 5,
                 b"{a = " * 50 + b"1" + b"}" * 50, b"[[1]]", b'["#fff"]', b"1979-05-27T07:32:00Z",
                 b"07:32:00", b'"\\ud800"', b"'auto'", b'"""\n[[[[[[\n"""', b"{}", b"0.3"]
CONFIG_KEYS = [b"count", b"device", b"path", b"colours", b"keypad_rows", b"hold_s", b"model",
               b"a.b.c.d.e.f.g", b'"a\\nb"', b"x" * 300, b"rotate", b"match_games"]


def mutate_config(rng: random.Random, data: bytes) -> bytes:
    """One random change to a config file."""
    if not data:  # truncated to nothing by an earlier change
        return rng.choice(CONFIG_KEYS) + b" = " + rng.choice(CONFIG_VALUES)
    lines = data.split(b"\n")
    line = rng.randrange(len(lines))
    at = rng.randrange(len(data))
    kind = rng.randrange(8)
    if kind == 0:
        return data[:at] + bytes([rng.randrange(256)]) + data[at + 1:]
    if kind == 1:
        return data[:at]
    if kind == 2:  # a value replaced
        text = lines[line]
        if b"=" in text:
            lines[line] = text.split(b"=", 1)[0] + b"= " + rng.choice(CONFIG_VALUES)
    elif kind == 3:  # a key set (or set again) in some section
        lines.insert(line, rng.choice(CONFIG_KEYS) + b" = " + rng.choice(CONFIG_VALUES))
    elif kind == 4:
        return data[:at] + rng.choice(BAD_BYTES) + data[at:]
    elif kind == 5:
        lines.insert(line, lines[line])
    elif kind == 6:
        lines.insert(line, rng.choice([b"[" * 3000, b"[" + b"a." * 3000 + b"b]", b"[[leds]]",
                                       b"[store]", b"[link]", b"x = [" + b"[" * 200]))
    else:
        end = min(len(data), at + rng.randrange(1, 40))
        return data[:at] + data[at:end] * rng.randrange(2, 6) + data[end:]
    return b"\n".join(lines)


def fuzz_config(cases: int, seed: int, folder: Path) -> Tally:
    """Mutated config files through the loader: a Config, or one line of ConfigError.

    One case in five is written to a file and read by load_config (the bytes, so UTF-8 is
    checked there); the rest go to parse_config as the text a file would give, any byte that
    is not UTF-8 kept as a lone surrogate (opening a file costs more than parsing one).
    """
    rng = random.Random(seed)
    seeds = [CONFIG_EXAMPLE.read_bytes(), to_toml(Config()).encode()]
    tally = Tally("config")
    path = folder / "config.toml"
    for number in range(cases):
        data = rng.choice(seeds)
        for _ in range(rng.choice((1, 1, 2, 3))):
            data = mutate_config(rng, data)
        from_file = rng.random() < 0.2
        if from_file:
            path.write_bytes(data)
        source = str(path) if from_file else "fuzz.toml"

        def case(data: bytes = data, from_file: bool = from_file, source: str = source) -> object:
            try:
                if from_file:
                    return load_config(path)
                return parse_config(data.decode("utf-8", "surrogateescape"), source)
            except ConfigError as error:
                if "\n" in str(error) or not str(error).startswith(source):
                    tally.unclear.append(str(error)[:300])
                return error

        run_case(tally, f"config #{number} {data[:120]!r}", case)
    return tally


def test_mutated_configs_through_the_loader(tmp_path: Path) -> None:
    fuzz_config(800, seed=2026, folder=tmp_path).check()  # the soak takes 30,000


@pytest.mark.soak
def test_mutated_configs_through_the_loader_soak(tmp_path: Path) -> None:
    fuzz_config(30_000, seed=11, folder=tmp_path).check()


# -- the harness itself can fail --------------------------------------------------------------


def test_the_harness_counts_tracebacks_hangs_and_unclear_refusals() -> None:
    tally = Tally("self-test")
    run_case(tally, "raises", lambda: parse_config("[leds]\ncount = 0", "x"))  # ConfigError
    run_case(tally, "exits 1", lambda: sys.exit(1))
    run_case(tally, "exits 2", lambda: sys.exit(2))
    ticks = iter([0.0, BUDGET_S + 1.0])
    run_case(tally, "slow", lambda: None, clock=lambda: next(ticks))
    clear_refusal(tally, "two lines", 2, "pegboard replay: a\nb\n", "pegboard replay: ")
    assert [entry.split(":")[0] for entry in tally.tracebacks] == ["raises", "exits 1"]
    assert tally.hangs == [f"slow: {BUDGET_S + 1.0:.2f} s (budget {BUDGET_S} s)"]
    assert len(tally.unclear) == 1 and tally.cases == 4
    with pytest.raises(AssertionError):
        tally.check()


def test_a_real_hang_is_stopped_by_the_hard_limit() -> None:
    # The timer signal, not the case, ends this loop; perf_counter only bounds the test.
    with pytest.raises(_Stopped), hard_limit(0.05):
        deadline = time.perf_counter() + 5.0
        while time.perf_counter() < deadline:
            pass
