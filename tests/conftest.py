"""Fixtures and scheduling shared by the test modules.

``make test`` runs the suite on every core (pytest-xdist, ``--dist loadfile``): a module's tests
run on one worker, so a module-scoped fixture (a browser, eighty conformance games, a recorded
game) is made once, and the slowest modules start first, so no worker is left alone with a
long module at the end.

The tests' temporary directories are made in RAM (``/dev/shm``) when the machine has it: the
store syncs every entry to disk (``fdatasync``), which costs milliseconds on a disk and nothing
in RAM, and is not what the tests check (a process killed mid-write is, and that is the same
on either).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from hypothesis import settings

if TYPE_CHECKING:
    from playwright.sync_api import Browser

# Hypothesis fails an example that runs over 200 ms by default: a wall-clock limit, which a
# machine busy with other work trips on correct code. Speed is the benchmarks' business.
settings.register_profile("pegboard", deadline=None)
settings.load_profile("pegboard")

SLOWEST_FIRST = (
    "test_phone_games.py",
    "test_table_conformance.py",
    "test_game_random.py",
    "test_app_fuzz.py",
    "test_hostile_servers.py",
    "test_referee_diff.py",
    "test_app_input_cost.py",
    "test_pegging_judgement.py",
    "test_fold.py",
    "test_web_browser.py",
    "test_fuzz_inputs.py",
    "test_hostile_web.py",
    "test_e2e_game.py",
    "test_crash.py",
    "test_web_browser_fair.py",
    "test_stats.py",
    "test_render_golden.py",
    "test_store_index.py",
    "test_club_league.py",
    "test_club_hostile.py",
    "test_club_reseat.py",
    "test_pegging_lookahead.py",
    "test_advice.py",
    "test_stats_learning.py",
    "test_imports.py",
    "test_club_night.py",
    "test_review.py",
    "test_phone_server.py",
    "test_club_browser.py",
    "test_web_a11y.py",
    "test_club_big_screen.py",
    "test_audio_game.py",
    "test_phone_browser.py",
    "test_web.py",
    "test_club_points.py",
    "test_club_identity.py",
    "test_hostile_web_load.py",
    "test_firmware_soak.py",
    "test_club_budget.py",
    "test_first_game_coach.py",
)
"""The modules that take longest in a whole run, longest first: each one's share of the run,
its tests' times added up from ``pytest --durations=0`` (about five seconds and more on two
idle cores). xdist hands a worker the next module when the one it runs has two tests left, so
with the long ones first and the many short ones last, the two workers end within a short
module of each other."""

RAM = Path("/dev/shm")
RAM_NEEDED = 2 * 1024**3
"""The free space ``/dev/shm`` must have before the tests use it. A run writes about 65 MB
there, and Chromium uses it too; a container's default ``/dev/shm`` is 64 MB, where a full
folder would fail tests that have nothing to do with it, so a small one is left alone."""


def _free_bytes(folder: Path) -> int:
    """The bytes an unprivileged writer may still use in ``folder``."""
    stats = os.statvfs(folder)
    return stats.f_bavail * stats.f_frsize


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """Temporary directories in RAM, unless a ``--basetemp`` was given (the controller picks
    the folder; xdist hands each worker a folder inside it)."""
    if config.option.basetemp or hasattr(config, "workerinput"):
        return
    if RAM.is_dir() and os.access(RAM, os.W_OK) and _free_bytes(RAM) >= RAM_NEEDED:
        folder = tempfile.mkdtemp(prefix="pegboard-tests-", dir=RAM)
        config.option.basetemp = folder
        config.stash[_RAM_FOLDER] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    """RAM is given back: the folder made in :func:`pytest_configure` goes."""
    folder = config.stash.get(_RAM_FOLDER, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


_RAM_FOLDER = pytest.StashKey[str]()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slowest modules first; the order inside a module stays as written."""

    def rank(item: pytest.Item) -> int:
        name = item.path.name
        return SLOWEST_FIRST.index(name) if name in SLOWEST_FIRST else len(SLOWEST_FIRST)

    items.sort(key=rank)


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    """gpiozero's mock pins as the default pin factory for one test, reset afterwards."""
    saved = Device.pin_factory
    Device.pin_factory = factory = MockFactory()
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = saved


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """The system's Chromium, launched once for a module's tests (those modules are skipped
    where it is not installed)."""
    # Loaded here, not with the conftest: most modules never start a browser.
    from tests.support.web import system_chromium

    with system_chromium() as launched:
        yield launched


@pytest.fixture(scope="module")
def patient() -> Iterator[None]:
    """A module's pages waited for as long as the board's answers (``WAIT_S``: a busy machine
    is slow, not wrong), then Playwright's 5 s again for the modules after it."""
    from playwright.sync_api import expect  # a development tool, loaded where a page is

    from tests.support.phones import WAIT_S

    expect.set_options(timeout=WAIT_S * 1000)
    yield
    expect.set_options(timeout=5000)
