"""``pegboard run`` and ``pegboard sim`` read their plain options without argparse, and give
exactly what argparse gives; anything else is left to argparse (its messages, its help)."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pegboard.cli import main
from pegboard.commands.options import Options
from pegboard.commands.parsers import command_parser

ROOT = Path(__file__).resolve().parent.parent

WORDS = (
    "--config", "--config=c.toml", "--config=", "--store", "--store=s", "--display",
    "--display=dummy", "--display=lcd", "dummy", "oled", "emulator", "lcd", "keypad", "x",
    "", "-", "-x", "-1", "--", "-h", "--help", "--disp", "--phones", "--phones=0", "8121",
    "70000", "abc", "--phones-host", "0.0.0.0", "::", "not an address", "--allow-host",
    "board.local", "bad name!", "--kit", "--kit=encoder", "--demo", "--demo=1", "--print",
    "--leds", "--voice", "--window", "--script", "--frames", "--record", "--speech",
    "--version",
)
"""Words of every kind: each option (whole, with ``=``, abbreviated), good and bad values,
help, positional words and ``--``."""


def _options(name: str) -> Options:
    options = importlib.import_module(f"pegboard.commands.{name}").OPTIONS
    assert isinstance(options, Options)
    return options


@settings(max_examples=200, deadline=None)
@given(name=st.sampled_from(("run", "sim")), words=st.lists(st.sampled_from(WORDS), max_size=6))
def test_what_is_read_plainly_is_what_argparse_reads(name: str, words: list[str]) -> None:
    plain = _options(name).read(name, words)
    if plain is not None:
        assert vars(plain) == vars(command_parser(name).parse_args([name, *words]))


@pytest.mark.parametrize("name, words", [
    ("run", []),
    ("run", ["--config", "/etc/pegboard/config.toml"]),  # the service's (pegboard.service)
    ("run", ["--display", "dummy", "--store", "/tmp/s"]),
    ("run", ["--phones", "8121", "--phones-host", "0.0.0.0", "--allow-host", "a.local",
             "--allow-host", "b.local"]),
    ("sim", ["--store", "s", "--kit=keypad", "--print", "--demo"]),
])
def test_the_usual_starts_are_read_plainly_as_argparse_reads_them(
        name: str, words: list[str]) -> None:
    plain = _options(name).read(name, words)
    assert plain is not None
    assert vars(plain) == vars(command_parser(name).parse_args([name, *words]))


@pytest.mark.parametrize("words", [
    ["--display", "lcd"], ["--disp", "dummy"], ["--config"], ["--config", "-x"], ["-h"],
    ["--phones", "70000"], ["extra"], ["--", "x"],
])
def test_anything_else_is_left_to_argparse(words: list[str]) -> None:
    assert _options("run").read("run", words) is None


def test_argparse_still_says_what_is_wrong(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["run", "--display", "lcd"])
    assert stopped.value.code == 2
    assert re.search(r"argument --display: invalid choice: 'lcd'", capsys.readouterr().err)


def test_the_services_start_is_read_plainly() -> None:
    """The unit's own command line (systemd/pegboard.service) never needs argparse."""
    unit = (ROOT / "systemd" / "pegboard.service").read_text(encoding="utf-8")
    line = next(line for line in unit.splitlines() if line.startswith("ExecStart="))
    command, *words = line.split()[1:]
    assert command == "run"
    assert _options("run").read("run", words) is not None
