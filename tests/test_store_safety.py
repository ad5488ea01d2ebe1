"""The store refuses what it cannot keep: a store deleted or replaced under a writer, links,
pipes and other users' files, crafted game ids, a failed sync that cannot be taken back, a full
disk at start. Real files, real flock, real processes; faults injected with monkeypatch.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pegboard.cli import main
from pegboard.errors import StoreError
from pegboard.store import Store, StoreReader, engine_check
from pegboard.store import logfile as logfile_module
from pegboard.store.logfile import encode_line
from tests.support.stores import fail_next_sync
from tests.support.waiting import line_from

HEADER = {"type": "game", "players": ["Ann", "Ben"], "rules": {"target": 121}}
DEAL = {"type": "deal", "dealer": 0}
ROOT_ONLY = pytest.mark.skipif(os.geteuid() != 0, reason="needs root to give files away")


def open_store(path: Path) -> Store:
    return Store(path, owner="pegboard test", check=engine_check)


# -- a store deleted or replaced under a running writer ---------------------------------------


def test_a_store_deleted_under_a_writer_refuses_to_acknowledge_and_a_new_one_can_start(
    tmp_path: Path,
) -> None:
    path = tmp_path / "store"
    with open_store(path) as first:
        first.new_game(HEADER)
        shutil.rmtree(path)
        with pytest.raises(StoreError, match=r"the store at .* was deleted while Pegboard"):
            first.append(DEAL)
        with open_store(path) as second:  # a fresh store at the same path
            second.new_game(HEADER)
            second.append(DEAL)
            with pytest.raises(StoreError, match="was replaced"):  # the first never writes
                first.new_game(HEADER)
            with pytest.raises(StoreError, match="was replaced"):
                first.finish({"winner": 0})
    game = StoreReader(path).current()
    assert game is not None and game.records == (HEADER, DEAL)


def test_a_store_directory_swapped_under_a_writer_is_noticed(tmp_path: Path) -> None:
    path = tmp_path / "store"
    with open_store(path) as store:
        store.new_game(HEADER)
        path.rename(tmp_path / "moved")
        path.mkdir()
        with pytest.raises(StoreError, match="was deleted"):  # its lock is no longer there
            store.append(DEAL)
    assert not (path / "current.log").exists()


def test_a_log_file_replaced_under_a_writer_is_not_acknowledged(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.new_game(HEADER)
        current = tmp_path / "current.log"
        copy = tmp_path / "copy"
        shutil.copyfile(current, copy)
        os.rename(copy, current)  # e.g. a backup put back while the device runs
        before = current.read_bytes()
        with pytest.raises(StoreError, match=r"current.log was replaced by another file"):
            store.append(DEAL)
        assert current.read_bytes() == before
        with pytest.raises(StoreError, match="was replaced"):  # and it stays refused
            store.append(DEAL)


def test_a_log_file_deleted_under_a_writer_is_not_acknowledged(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.new_game(HEADER)
        (tmp_path / "current.log").unlink()
        with pytest.raises(StoreError, match=r"current.log was deleted"):
            store.append(DEAL)


HOLDER = """
import json, sys
from pegboard.store import Store
store = Store(sys.argv[1], owner="pegboard run")
store.new_game({"type": "game", "players": ["Ann", "Ben"]})
print("ready", flush=True)
for line in sys.stdin:
    try:
        store.append(json.loads(line))
        print("saved", flush=True)
    except Exception as error:
        print(f"refused {type(error).__name__}: {error}", flush=True)
"""


@pytest.fixture
def holder(tmp_path: Path) -> Iterator[subprocess.Popen[str]]:
    """A real writer process holding the store at tmp_path/store; it reports each append."""
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(tmp_path / "store")],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert line_from(proc.stdout, "the writer's ready", process=proc) == "ready\n"
    yield proc
    proc.kill()
    proc.wait()


def ask(proc: subprocess.Popen[str], line: dict[str, object]) -> str:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(line) + "\n")
    proc.stdin.flush()
    return line_from(proc.stdout, f"the writer's answer to {line}", process=proc)


def test_after_the_directory_is_deleted_only_the_new_writer_writes(
    tmp_path: Path, holder: subprocess.Popen[str]
) -> None:
    path = tmp_path / "store"
    assert ask(holder, DEAL) == "saved\n"
    shutil.rmtree(path)
    with open_store(path) as second:  # gets a new lock while the first process still runs
        second.new_game(HEADER)
        answer = ask(holder, {"type": "starter", "card": "JH"})
        assert answer.startswith("refused StoreError: the store at ")
        assert "was replaced while Pegboard was using it" in answer
        second.append(DEAL)
    game = StoreReader(path).current()
    assert game is not None and game.records == (HEADER, DEAL)


# -- links, pipes and files of other users -----------------------------------------------------


def linked_to_victim(tmp_path: Path, name: str) -> tuple[Path, Path]:
    """A store folder whose file ``name`` is a symbolic link to a file of precious bytes
    outside it: the folder and the file."""
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious\n")
    store = tmp_path / "store"
    store.mkdir()
    (store / name).symlink_to(victim)
    return store, victim


def test_the_lock_file_is_never_followed_through_a_link(tmp_path: Path) -> None:
    store, victim = linked_to_victim(tmp_path, "lock")
    with pytest.raises(StoreError, match=r"the lock file .* is a symbolic link: if no Pegboard"):
        open_store(store)
    assert victim.read_bytes() == b"precious\n"


def test_a_current_log_that_is_a_link_is_set_aside_unfollowed(tmp_path: Path) -> None:
    store, victim = linked_to_victim(tmp_path, "current.log")
    with open_store(store) as opened:
        assert opened.current() is None
        assert "current.log is a symbolic link" in opened.notices[0]
        opened.new_game(HEADER)
        [aside] = opened.set_aside()
        assert aside.error is not None and "symbolic link" in aside.error
    assert victim.read_bytes() == b"precious\n"
    assert os.path.islink(aside.path)  # the link itself was moved, never what it points to


@pytest.mark.parametrize("folder", ["aside", "history"])
def test_a_link_in_place_of_a_store_folder_is_refused(tmp_path: Path, folder: str) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    store = tmp_path / "store"
    store.mkdir()
    (store / folder).symlink_to(elsewhere)
    with pytest.raises(StoreError, match=f"{folder} is not a directory of this user"):
        open_store(store)
    assert list(elsewhere.iterdir()) == []


def test_pipes_under_the_store_names_do_not_hang_the_start(tmp_path: Path) -> None:
    store = tmp_path / "store"
    store.mkdir()
    os.mkfifo(store / "current.log")
    with open_store(store) as opened:
        assert "current.log is not a regular file" in opened.notices[0]
    os.mkfifo(store / "lock.fifo")
    os.replace(store / "lock.fifo", store / "lock")
    with pytest.raises(StoreError, match=r"the lock file .* is not a regular file"):
        open_store(store)


@ROOT_ONLY
def test_a_store_of_another_user_is_refused_with_the_user_to_run_as(tmp_path: Path) -> None:
    store = tmp_path / "store"
    store.mkdir()
    os.chown(store, 12345, 12345)
    with pytest.raises(StoreError, match=r"belongs to user id 12345, not to this user .*sudo -u"):
        open_store(store)
    assert list(store.iterdir()) == []  # not even the lock file was made


@ROOT_ONLY
def test_files_of_another_user_are_never_written(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.new_game(HEADER)
    os.chown(tmp_path / "current.log", 12345, 12345)
    with open_store(tmp_path) as store:
        assert store.current() is None
        assert "current.log belongs to user id 12345" in store.notices[0]
    os.chown(tmp_path / "lock", 12345, 12345)
    with pytest.raises(StoreError, match=r"the lock file .* belongs to user id 12345"):
        open_store(tmp_path)


def test_files_writable_by_everyone_are_tightened(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.new_game(HEADER)
    for name in ("lock", "current.log"):
        os.chmod(tmp_path / name, 0o666)
    with open_store(tmp_path) as store:
        store.append(DEAL)
    for name in ("lock", "current.log"):
        assert stat.S_IMODE(os.stat(tmp_path / name).st_mode) & 0o022 == 0


# -- game ids -----------------------------------------------------------------------------------


CRAFTED = ["../../escaped", "a/b", "x\0y", "", "x" * 65, 17, "ok.log", "..", "café"]


@pytest.mark.parametrize("game_id", CRAFTED)
@pytest.mark.parametrize("finished", [False, True])
def test_a_crafted_game_id_never_reaches_a_path(
    tmp_path: Path, game_id: object, finished: bool
) -> None:
    store = tmp_path / "deep" / "store"
    store.mkdir(parents=True)
    lines = [encode_line({"seq": 0, "at": 1.0, "id": game_id, "record": HEADER}),
             encode_line({"seq": 1, "at": 2.0, "record": DEAL})]
    if finished:  # a finished game is moved to history/<id>.log on open
        lines.append(encode_line({"seq": 2, "at": 3.0, "finish": {"winner": 0}}))
    (store / "current.log").write_bytes(b"".join(lines))
    with open_store(store) as opened:
        assert opened.current() is None and opened.history() == []
        assert "is not valid" in opened.notices[0]
        opened.new_game(HEADER)
    [aside] = (store / "aside").iterdir()
    assert aside.name.startswith("unreadable-")
    assert sorted(path.name for path in tmp_path.rglob("*") if path.parent != store
                  and path.parent.parent != store) == ["deep", "store"]


def test_file_names_outside_the_id_alphabet_are_left_alone(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.new_game(HEADER)
        finished = store.finish({"winner": 0})
    shutil.copyfile(finished.path, tmp_path / "history" / "a game.log")
    shutil.copyfile(finished.path, tmp_path / "aside" / "x.y.log")
    reader = StoreReader(tmp_path)
    assert [game.id for game in reader.history()] == [finished.id]
    assert reader.set_aside() == []
    assert sum("is not a game id" in notice for notice in reader.notices) == 2


@pytest.mark.parametrize(
    "argv",
    [["export", "--id", "../x"], ["export", "--id", "a\0b"], ["restore", "a/b"],
     ["restore", "x" * 65]],
)
def test_ids_on_the_command_line_are_checked(
    tmp_path: Path, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["game", *argv, "--store", str(tmp_path)])
    assert caught.value.code == 2
    assert "ids are 1 to 64 letters, digits, '-' or '_'" in capsys.readouterr().err


# -- a failed sync never leaves an entry behind to be doubled ----------------------------------


def game(capsys: pytest.CaptureFixture[str], store: Path, *args: str) -> tuple[int, str]:
    code = main(["game", *args, "--store", str(store)])
    return code, capsys.readouterr().err


class LogOs:
    """``os`` as the log writer sees it, with some calls made to fail (the lock and the rest
    of the process keep the real ones)."""

    def __init__(self, **failing: object) -> None:
        self.failing = failing

    def __getattr__(self, name: str) -> object:
        return self.failing.get(name, getattr(os, name))


def failing(monkeypatch: pytest.MonkeyPatch, *, spoil_fails: bool = False) -> None:
    """Syncs fail, then so does cutting the file back (and with ``spoil_fails`` any write)."""

    def sync(fd: int) -> None:
        raise OSError(errno.EIO, "Input/output error")

    def refuse(*args: object) -> None:
        raise OSError(errno.EROFS, "Read-only file system")

    calls: dict[str, object] = {"ftruncate": refuse}
    if spoil_fails:
        calls["pwrite"] = refuse
    monkeypatch.setattr(logfile_module, "_sync", sync)
    monkeypatch.setattr(logfile_module, "os", LogOs(**calls))


PEG = '{"type": "peg", "player": 0, "points": 12}'


def scores(store: Path) -> list[int]:
    current = StoreReader(store, check=engine_check).current()
    assert current is not None
    from pegboard.commands.game import restore

    return list(restore(current).state.scores)


def test_a_peg_that_failed_to_sync_and_to_be_cut_back_is_not_doubled_when_entered_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert game(capsys, tmp_path, "new", json.dumps(HEADER))[0] == 0
    failing(monkeypatch)
    code, err = game(capsys, tmp_path, "add", PEG)
    monkeypatch.undo()
    assert code == 2
    assert "Input/output error" in err and "marked so that it is dropped" in err
    assert game(capsys, tmp_path, "add", PEG)[0] == 0  # the player enters it again
    assert scores(tmp_path) == [12, 0]  # not 24


def test_when_nothing_can_be_written_the_message_says_to_check_the_last_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert game(capsys, tmp_path, "new", json.dumps(HEADER))[0] == 0
    failing(monkeypatch, spoil_fails=True)
    code, err = game(capsys, tmp_path, "add", PEG)
    monkeypatch.undo()
    assert code == 2
    assert "if the last entry is there after the restart, undo it" in err


def test_a_failed_sync_with_a_working_cut_back_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with open_store(tmp_path) as store:
        store.new_game(HEADER)
        before = (tmp_path / "current.log").read_bytes()
        fail_next_sync(monkeypatch)
        with pytest.raises(StoreError, match="the entry was not saved"):
            store.append(DEAL)
        assert (tmp_path / "current.log").read_bytes() == before


# -- a full disk at start --------------------------------------------------------------------


def test_a_full_disk_when_writing_the_holder_is_a_clear_error_and_no_lock_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(*args: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "pwrite", full)
    with pytest.raises(StoreError, match=r"cannot write to the lock file .*No space left on "
                       r"device; the disk holding the store is full .*free some space"):
        open_store(tmp_path)
    monkeypatch.undo()
    with open_store(tmp_path) as store:  # the failed start kept no lock
        assert store.current() is None


FULL_DISK_RUN = """
import errno, os, sys
def full(*args):
    raise OSError(errno.ENOSPC, "No space left on device")
os.pwrite = full
from pegboard.cli import main
sys.exit(main(["run", "--display", "dummy", "--store", sys.argv[1]]))
"""


def test_pegboard_run_on_a_full_disk_exits_2_with_one_line_and_no_traceback(
    tmp_path: Path,
) -> None:
    done = subprocess.run(
        [sys.executable, "-c", FULL_DISK_RUN, str(tmp_path / "store")],
        capture_output=True, text=True, check=False,
        env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock"},
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1].startswith(
        f"pegboard run: cannot write to the lock file {tmp_path / 'store' / 'lock'}: "
        "No space left on device")
    assert "cannot start" in done.stderr  # and the journal has it
