"""Many games: the mix of tables, kits and options, played in sessions, and the figures.

:func:`mix_of_games` deals the games round the mix: both kits; two players (six-card and
five-card), three players, four in partnerships; muggins off and on; teaching on in every
third game; short (61-hole) games among the long ones; cutting for the deal now and then.
:func:`play_games` plays them, one device per kit and session of games (a store directory
each), and adds every game's report into :class:`Figures`.
"""

from __future__ import annotations

import multiprocessing
import time
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from itertools import product
from pathlib import Path

from pegboard.config import Config, InputConfig
from pegboard.sim.fakes import FakeClock
from tests.conformance.deal import KITS, GameSpec
from tests.conformance.device import Device
from tests.conformance.follow import GameReport
from tests.conformance.harness import Harness
from tests.conformance.truth import Act

TABLES = ((2, False), (2, True), (3, False), (4, False))
"""(players, five-card) of each table size."""
SESSION = 12
"""Games one device plays before it is shut down (its store keeps them all)."""


def mix_of_games(count: int, *, first_seed: int = 1, short_share: int = 2,
                 mistakes: bool = True) -> list[GameSpec]:
    """``count`` games round the mix (see the module docstring); ``short_share`` of every 3
    are 61-hole games (five-card games always are)."""
    shapes = list(product(KITS, TABLES, (False, True)))
    specs = []
    for n in range(count):
        seed = first_seed + n
        kit, (players, five), muggins = shapes[n % len(shapes)]
        specs.append(GameSpec(
            seed, kit=kit, players=players, five_card=five, muggins=muggins,
            teaching=n % 3 == 2, short=(n // len(shapes)) % 3 < short_share,
            mistakes=mistakes, cut=seed % 5 == 0,
        ))
    return specs


@dataclass
class Figures:
    """What a run of games did, added up."""

    games: Counter[tuple[str, str, str, int]] = field(default_factory=Counter)
    mistakes: Counter[str] = field(default_factory=Counter)
    notes: Counter[str] = field(default_factory=Counter)
    examples: dict[str, str] = field(default_factory=dict)
    mismatches: list[str] = field(default_factory=list)
    checks: int = 0
    deals: int = 0
    keys: int = 0
    entries: int = 0
    seconds: float = 0.0

    def add(self, report: GameReport) -> None:
        """Count one game in."""
        spec = report.spec
        self.games[(spec.kit, spec.table, spec.mode, spec.target)] += 1
        self._add_counts(report)

    def merge(self, other: Figures) -> None:
        """Add another run's figures (run alongside: the longer time counts)."""
        self.games.update(other.games)
        self._add_counts(other)
        self.seconds = max(self.seconds, other.seconds)

    def _add_counts(self, other: GameReport | Figures) -> None:
        """Add what a game's report and a run's figures both count (the first example of
        each kind is kept)."""
        self.mistakes.update(other.mistakes)
        self.notes.update(other.notes)
        for kind, example in other.examples.items():
            self.examples.setdefault(kind, example)
        self.mismatches.extend(other.mismatches)
        self.checks += other.checks
        self.deals += other.deals
        self.keys += other.keys
        self.entries += other.entries

    @property
    def played(self) -> int:
        """Games played."""
        return sum(self.games.values())

    def text(self) -> str:
        """The figures as a short report."""
        lines = [f"{self.played} games, {self.deals} deals, {self.entries} entries, "
                 f"{self.keys} keys, {self.checks} checks, {len(self.mismatches)} mismatches, "
                 f"{self.seconds:.1f} s"]
        by_kit: Counter[str] = Counter()
        by_table: Counter[str] = Counter()
        by_mode: Counter[str] = Counter()
        for (kit, table, mode, target), n in self.games.items():
            by_kit[kit] += n
            by_table[f"{table} to {target}"] += n
            by_mode[mode] += n
        for title, counter in (("kit", by_kit), ("table", by_table), ("mode", by_mode),
                               ("mistakes", self.mistakes), ("notes", self.notes)):
            listed = ", ".join(f"{k} {v}" for k, v in sorted(counter.items()))
            lines.append(f"  {title}: {listed or 'none'}")
        for kind, example in sorted(self.examples.items()):
            lines.append(f"  e.g. {kind}: {example}")
        lines.extend(f"  MISMATCH {m}" for m in self.mismatches)
        return "\n".join(lines)


def play_games(specs: Iterable[GameSpec], directory: Path, *, workers: int = 1,
               distort: Callable[[Act], Act] | None = None) -> Figures:
    """Play every game and add up the figures: one device per kit, each playing up to
    :data:`SESSION` games in a row on its store (a fresh one after a mismatch).

    ``workers`` above 1 shares the games out to that many processes, each playing its share
    the same way on stores of its own (``distort`` must then be a module-level function).
    Every game is played the same either way; only the keys that set up the next game of a
    session differ, as the setup screen remembers the game before."""
    games = list(specs)
    started = time.perf_counter()
    if workers > 1 and len(games) > 1:
        shares = [games[k::workers] for k in range(workers)]
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            parts = list(pool.map(partial(play_games, distort=distort), shares,
                                  [directory / f"worker-{k}" for k in range(workers)]))
        figures = Figures()
        for part in parts:
            figures.merge(part)
        figures.seconds = time.perf_counter() - started
        return figures
    figures = Figures()
    devices: dict[str, tuple[Device, int]] = {}
    made = 0
    try:
        for spec in games:
            device, played = devices.get(spec.kit, (None, 0))
            if device is None or played >= SESSION:
                if device is not None:
                    device.close()
                made += 1
                device = Device(Config(input=InputConfig(kit=spec.kit)),
                                directory / f"{spec.kit}-{made}", FakeClock())
                played = 0
            report = Harness(spec, device, distort=distort).play()
            figures.add(report)
            # After a mismatch the device may be anywhere: the next game gets a fresh one.
            devices[spec.kit] = (device, SESSION if report.mismatches else played + 1)
    finally:
        for device, _ in devices.values():
            device.close()
    figures.seconds = time.perf_counter() - started
    return figures
