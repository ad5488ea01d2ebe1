"""Headless runs: a key script through the simulator, every frame kept, the record written.

Time is a :class:`~pegboard.sim.fakes.FakeClock`, so a whole game plays in a moment and the
same script always gives the same frames.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image

from pegboard.app.state import AppState
from pegboard.app.view import View
from pegboard.config import Config
from pegboard.sim.fakes import FakeClock, RecordingDisplay
from pegboard.sim.keys import KeyStep, expand
from pegboard.sim.session import Simulator
from pegboard.store import Store

if TYPE_CHECKING:
    from pegboard.device.observers import Speech


@dataclass
class ScriptResult:
    """What a scripted run produced."""

    frames: list[Image.Image] = field(default_factory=list)
    views: list[View] = field(default_factory=list)
    record: str = ""
    steps_done: int = 0
    final_frame: Image.Image | None = None


def game_record(store: Store) -> str:
    """The record of the game in play, else of the last finished game ("" if none)."""
    current = store.current()
    if current is not None:
        return current.record
    history = store.history()
    return history[-1].record if history else ""


def run_script(
    steps: Iterable[KeyStep],
    config: Config,
    store: Store,
    *,
    frames_dir: Path | None = None,
    record_path: Path | None = None,
    on_frame: Callable[[View, Image.Image], None] | None = None,
    clock: FakeClock | None = None,
    speech: Speech[AppState] | None = None,
    before_step: Callable[[int, KeyStep], None] | None = None,
) -> ScriptResult:
    """Press every step on the mock pins; keep each new frame (and write it as PNG).
    ``before_step`` is told each step (numbered from 1) before it is pressed."""
    result = ScriptResult()
    if frames_dir is not None:
        frames_dir.mkdir(parents=True, exist_ok=True)

    def keep(view: View, image: Image.Image) -> None:
        result.frames.append(image)
        result.views.append(view)
        if frames_dir is not None:
            image.save(frames_dir / f"frame-{len(result.frames):04d}.png")
        if on_frame is not None:
            on_frame(view, image)

    display = RecordingDisplay()
    sim = Simulator(config, store, display, clock=clock or FakeClock(), on_frame=keep,
                    speech=speech)
    try:
        sim.start()
        for step in expand(steps):
            if not sim.loop.running:
                break
            if before_step is not None:
                before_step(result.steps_done + 1, step)
            sim.press(step)
            result.steps_done += 1
    finally:
        sim.close()
    result.final_frame = sim.loop.frame
    if frames_dir is not None and result.final_frame is not None:
        result.final_frame.save(frames_dir / "saved.png")
    result.record = game_record(store)
    if record_path is not None:
        record_path.write_text(result.record, encoding="utf-8")
    return result
