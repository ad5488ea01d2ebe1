"""Crash test: a writer is SIGKILLed at random moments, again and again.

The writer is a real process (forked from this already-imported one, so each start is cheap)
running the same code as ``pegboard game add``: it reopens the store (recovering whatever the
kill left), continues the planned games where the store says they stand, and writes an
acknowledgement to a pipe after each durable append. After every kill the store must hold
every acknowledged event, nothing twice and nothing out of order, and its exported record must
replay to the state ``status`` reports.
"""

from __future__ import annotations

import functools
import json
import os
import random
import shutil
import signal
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from pegboard.commands.game import GameSession, restore, status_of
from pegboard.record import dump_line, read
from pegboard.rules.game import Game
from pegboard.store import Store, StoreReader, engine_check, record_text
from pegboard.store.logfile import scan
from tests.support.games import random_game
from tests.support.stores import enter_game

UNDO = '{"type": "undo"}'


@dataclass(frozen=True)
class Plan:
    """The games the writer records: header and lines (with undos and re-entries) for each."""

    headers: list[str]
    lines: list[list[str]]


def make_plan(seed: int, games: int) -> Plan:
    rng = random.Random(seed)
    headers: list[str] = []
    lines: list[list[str]] = []
    for number in range(games):
        made = random_game(seed * 100 + number, players=rng.choice([2, 2, 3, 4]))
        players = len(made.header.players)
        headers.append(dump_line(made.header, players))
        planned: list[str] = []
        for event in made.events:
            line = dump_line(event, players)
            planned.append(line)
            if rng.random() < 0.08:  # a mistake taken back and entered again
                planned += [UNDO, line]
        lines.append(planned)
    return Plan(headers, lines)


def writer(store_path: Path, plan: Plan, ack_fd: int) -> None:
    """The child: record the plan from where the store stands, acknowledging each line."""
    with Store(store_path, owner="crash writer") as store:
        session = GameSession(store)
        number = finished_games(store_path)
        while number < len(plan.headers):
            current = store.current()
            if current is None:
                session.new(plan.headers[number])
                os.write(ack_fd, f"{number} new\n".encode())
                continue
            done = len(current.lines) - 1
            if done == len(plan.lines[number]):
                number += 1
                if number == len(plan.headers):
                    break
                session.new(plan.headers[number])
                os.write(ack_fd, f"{number} new\n".encode())
                continue
            session.add(plan.lines[number][done])
            os.write(ack_fd, f"{number} {done}\n".encode())
    os.write(ack_fd, b"finished\n")


def run_and_kill(store_path: Path, plan: Plan, acks_before_kill: int) -> tuple[list[str], bool]:
    """Start a writer, SIGKILL it after some acknowledgements; every ack it managed to send."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the writer
        code = 0
        try:
            os.close(read_fd)
            writer(store_path, plan, write_fd)
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    os.close(write_fd)
    acks: list[str] = []
    with os.fdopen(read_fd, "r") as pipe:
        while len(acks) < acks_before_kill:
            line = pipe.readline()
            if not line:
                break
            acks.append(line.strip())
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        acks += [line.strip() for line in pipe]  # sent before the kill landed
    finished = "finished" in acks
    assert os.WIFSIGNALED(status) or (os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0), (
        f"writer failed: {status}"
    )
    return [ack for ack in acks if ack != "finished"], finished


def finished_games(store_path: Path) -> int:
    """How many games the history holds (without reading them)."""
    return len(list((store_path / "history").glob("*.log")))


def check_store(
    store_path: Path, plan: Plan, acked: dict[int, int], checked: list[int] | None = None
) -> None:
    """Everything acknowledged is there, exactly as planned, and replays as status says.

    ``checked`` remembers how many history games were already compared, so a long run does
    not re-read the whole history after every kill.
    """
    reader = StoreReader(store_path)
    number = finished_games(store_path)
    if reader.current() is None and (store_path / "current.log").exists():
        number += 1  # killed between the finish line and the move into history/
        checked = None
    if checked is None or checked[0] != number:
        history = reader.history()
        assert reader.notices == []
        assert len(history) == number
        for index, finished in enumerate(history):
            assert finished.lines == (plan.headers[index], *plan.lines[index]), index
            assert not finished.result["abandoned"]
        if checked is not None:
            checked[0] = number
    current = reader.current()
    assert reader.notices == []
    if current is None:
        assert acked.get(number, -2) < 0  # nothing of this game was acknowledged yet
        return
    recorded = list(current.lines[1:])
    assert current.lines[0] == plan.headers[number]
    # A prefix of the plan: no duplicate, no gap, nothing reordered ...
    assert recorded == plan.lines[number][: len(recorded)]
    # ... holding every acknowledged line (the one in flight at the kill may be there too).
    assert len(recorded) >= acked.get(number, -1) + 1
    # The exported record replays to the state status reports.
    game = restore(current)
    status = status_of(game, current)
    header, events = read(current.record.splitlines())
    replayed = Game.from_header(header)
    for event in events:
        replayed.apply(event)
    assert replayed.state == game.state
    assert status["scores"] == list(replayed.state.scores)
    assert status["events"] == len(replayed.events)
    assert status["to_act"] == replayed.state.to_act


def crash_many_times(tmp_path: Path, kills: int, seed: int) -> None:
    rng = random.Random(seed)
    # Room to spare: how many lines slip in before a kill lands depends on the machine.
    plan = make_plan(seed, games=max(3, kills // 20))
    store_path = tmp_path / "store"
    acked: dict[int, int] = {}
    checked = [-1]
    kills_done = 0
    finished = False
    while kills_done < kills and not finished:
        acks, finished = run_and_kill(store_path, plan, rng.choice([0, 0, 1, 1, 2, 3, 5, 8]))
        kills_done += not finished
        for ack in acks:
            number, _, index = ack.partition(" ")
            acked[int(number)] = max(acked.get(int(number), -1), -1 if index == "new"
                                     else int(index))
        check_store(store_path, plan, acked, checked)
    check_store(store_path, plan, acked)  # the whole history once more at the end
    assert kills_done == kills, "the plan ran out before enough kills; make it longer"


def test_no_acknowledged_event_is_lost_over_100_kills(tmp_path: Path) -> None:
    crash_many_times(tmp_path, kills=100, seed=6)  # the soak takes 3,000


@pytest.mark.soak
def test_no_acknowledged_event_is_lost_over_3000_kills(tmp_path: Path) -> None:
    crash_many_times(tmp_path, kills=3000, seed=66)


def test_the_checks_would_see_a_lost_or_doubled_event(tmp_path: Path) -> None:
    plan = make_plan(1, games=1)
    store_path = tmp_path / "store"
    with Store(store_path) as store:
        session = GameSession(store)
        session.new(plan.headers[0])
        for line in plan.lines[0][:5]:
            session.add(line)
    check_store(store_path, plan, {0: 4})
    with pytest.raises(AssertionError):
        check_store(store_path, plan, {0: 5})  # an acknowledged sixth line is missing
    with Store(store_path) as store:
        store.append(json.loads(plan.lines[0][4]))  # the fifth line twice
    with pytest.raises(AssertionError):
        check_store(store_path, plan, {0: 4})


# -- SIGKILL in the middle of a recovery or a restore -----------------------------------------

FILE_CALLS = ("open", "write", "pwrite", "fsync", "fdatasync", "rename", "unlink", "ftruncate")


def killed_at(step: int, work: Callable[[], None]) -> bool:
    """Run ``work`` in a forked child that SIGKILLs itself just before its ``step``-th file
    system call; True if it was killed, False if it finished before that call."""
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            calls = [0]

            def counted(call: Callable[..., object]) -> Callable[..., object]:
                def run(*args: object, **kwargs: object) -> object:
                    calls[0] += 1
                    if calls[0] == step:
                        os.kill(os.getpid(), signal.SIGKILL)
                    return call(*args, **kwargs)

                return run

            for name in FILE_CALLS:
                setattr(os, name, counted(getattr(os, name)))
            work()
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return True
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
    return False


def each_kill(
    tmp_path: Path, template: Path, work: Callable[[Path], None]
) -> Iterator[tuple[int, Path, bool]]:
    """Run ``work`` on a fresh copy of the store ``template``, killed at its first file system
    call, then at its second, and so on until a run finishes: each step's number, its copy and
    whether it was killed."""
    step = 0
    while True:
        step += 1
        copy = tmp_path / f"step-{step}"
        shutil.copytree(template, copy)
        killed = killed_at(step, functools.partial(work, copy))
        yield step, copy, killed
        if not killed:
            return


def recorded(store_path: Path, lines: int, seed: int) -> list[str]:
    """Record a real game of ``lines`` lines as the store's game in progress."""
    with Store(store_path) as store:
        return enter_game(store, lines, seed)[1]


def games_in(store_path: Path) -> list[tuple[str, ...]]:
    """The record lines of every game file in the store (current.log and aside/), read as
    they are on disk (readable prefix, no engine)."""
    found = []
    for path in [store_path / "current.log", *sorted((store_path / "aside").glob("*.log"))]:
        if path.exists():
            entries = scan(path.read_bytes()).entries
            found.append(tuple(record_text(entry["record"]) for entry in entries
                               if "record" in entry))
    return found


def test_a_recovery_killed_at_any_step_loses_nothing_and_completes_on_the_next_start(
    tmp_path: Path,
) -> None:
    template = tmp_path / "template"
    texts = recorded(template, 20, seed=4)
    data = bytearray((template / "current.log").read_bytes())
    fifth = data.index(b"\n", data.index(b"\n", data.index(b"\n", data.index(b"\n") + 1) + 1)
                       + 1) + 1
    data[fifth + 30] ^= 0x04  # line 5 damaged, intact lines after it
    (template / "current.log").write_bytes(bytes(data))

    def reopen(work: Path) -> None:
        Store(work, check=engine_check).close()

    step = 0
    for step, work, _ in each_kill(tmp_path, template, reopen):
        with Store(work, check=engine_check) as store:  # the next start
            current = store.current()
            assert current is not None and current.lines == tuple(texts[:4]), step
            assert [game.name for game in store.set_aside()] == [current.id], step
        [copy] = (work / "aside").iterdir()
        assert copy.read_bytes() == bytes(data), step
        assert not (work / "current.log.new").exists()
        shutil.rmtree(work)
    assert step > 8  # the kills really landed between the steps of the recovery


def test_a_restore_killed_at_any_step_loses_neither_game(tmp_path: Path) -> None:
    template = tmp_path / "template"
    first = recorded(template, 12, seed=5)
    with Store(template) as store:
        kept = store.current()
        assert kept is not None
        store.set_aside_current("kept for the test")
    second = recorded(template, 9, seed=6)

    def swap(work: Path) -> None:
        with Store(work, check=engine_check) as store:
            store.restore(kept.id, set_aside_current=True)

    step = 0
    for step, work, killed in each_kill(tmp_path, template, swap):
        with Store(work, check=engine_check):  # the next start recovers whatever was left
            pass
        games = games_in(work)
        assert tuple(first) in games and tuple(second) in games, step
        if not killed:
            assert StoreReader(work).current().lines == tuple(first)  # type: ignore[union-attr]
            break
        shutil.rmtree(work)
    assert step > 8
