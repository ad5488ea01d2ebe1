"""``pegboard <command>`` imports only that command: a Pi does not pay for the others."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from pegboard.cli import main
from pegboard.commands import COMMANDS
from pegboard.commands.parsers import build_parser, command_parser
from tests.support.fresh import printed_json

HEAVY = ("PIL", "gpiozero", "luma", "serial", "sqlite3")
"""Libraries a scoring command has no use for (each costs tens of milliseconds on a Pi)."""


def _loaded_after(argv: list[str]) -> set[str]:
    code = (
        "import sys, json, contextlib, io\n"
        "from pegboard.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    status = main({argv!r})\n"
        "print(json.dumps([status, sorted(sys.modules)]))\n"
    )
    (status, modules), stderr = printed_json(code)
    assert status == 0, stderr
    return set(modules)


def _commands(modules: set[str]) -> set[str]:
    return {name for name in COMMANDS if f"pegboard.commands.{name}" in modules}


@pytest.mark.parametrize("argv, command", [
    (["score", "5H", "5S", "5C", "JD", "--starter", "5D"], "score"),
    (["peg", "7H", "8S"], "peg"),
    (["rules"], "rules"),
])
def test_a_scoring_command_loads_only_itself(argv: list[str], command: str) -> None:
    modules = _loaded_after(argv)
    assert _commands(modules) == {command}
    assert not [name for name in modules if name.split(".")[0] in HEAVY]
    assert not [name for name in modules
                if name.startswith(("pegboard.app", "pegboard.device", "pegboard.store",
                                    "pegboard.sim", "pegboard.link", "pegboard.ui"))]


def test_the_command_list_loads_no_command() -> None:
    done = subprocess.run(
        [sys.executable, "-c",
         "import sys, contextlib, io\nfrom pegboard.cli import main\n"
         "out = io.StringIO()\n"
         "with contextlib.redirect_stdout(out):\n"
         "    try:\n        main(['--help'])\n    except SystemExit:\n        pass\n"
         "print(out.getvalue())\n"
         "from pegboard.commands import COMMANDS\n"
         "print(sorted(m for m in sys.modules if m.startswith('pegboard.commands.')\n"
         "             and m.rpartition('.')[2] in COMMANDS))\n"],
        capture_output=True, text=True, check=True)
    *help_lines, loaded = done.stdout.strip().splitlines()
    assert loaded == "[]"
    text = "\n".join(help_lines)
    for name, words in COMMANDS.items():
        assert f"{name}" in text and words.summary[:30] in text.replace("\n", " ")


def _summaries(parser: argparse.ArgumentParser) -> dict[str, str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return {choice.dest: str(choice.help) for choice in action._choices_actions}
    raise AssertionError("no subcommands")


def test_each_commands_own_help_is_the_summary_listed() -> None:
    assert _summaries(build_parser()) == {name: words.summary for name, words in COMMANDS.items()}


def test_a_commands_parser_makes_no_parser_for_the_others() -> None:
    """Each parser argparse makes costs start-up time; the words before the command name it,
    so ``pegboard run`` has no use for the other commands' parsers."""
    subparsers = [action for action in command_parser("run")._actions
                  if isinstance(action, argparse._SubParsersAction)]
    assert [list(action.choices) for action in subparsers] == [["run"]]


def test_help_before_a_command_still_lists_every_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["-h", "run"])
    listed = capsys.readouterr().out.replace("\n", " ")
    assert all(words.summary[:30] in listed for words in COMMANDS.values())


@pytest.mark.parametrize("json_asked", [False, True])
def test_score_loads_json_only_to_print_it(json_asked: bool) -> None:
    argv = ["score", "5H", "5S", "5C", "JD", "--starter", "5D", *(["--json"] if json_asked else [])]
    code = (
        "import sys, contextlib, io\n"
        "from pegboard.cli import main\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        f"    status = main({argv!r})\n"
        "print(status, 'json' in sys.modules, out.getvalue().startswith('{'))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["0", str(json_asked), str(json_asked)], done.stderr
