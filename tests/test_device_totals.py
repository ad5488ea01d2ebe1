"""No total the device shows exceeds the target (ACC: a side that pegs out is shown at 121),
live or restored after a restart through a real store: the OLED's board, the Scores menu,
the "Game restored" page, the voice's "say the score", the text panel and the LED pegs all
read the engine's board as shown (``GameState.shown``, as ``GameOver.shown``), while the
record keeps the full totals."""

from __future__ import annotations

from pathlib import Path

from pegboard.app import calls, machine
from pegboard.app.effects import UpdateLeds
from pegboard.app.state import AppState, Reading, Scores
from pegboard.commands.game import GameSession
from pegboard.config import Config
from pegboard.device.build import initial_state, open_store
from pegboard.rules.value import replace
from pegboard.sim.terminal import board_lines, words_below
from pegboard.store import Store
from pegboard.voice.audio import score_words

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
LINES = (EXAMPLES / "muggins.jsonl").read_text(encoding="utf-8").splitlines()
"""Ann's crib (claimed 10, the last line) takes her from 115 to 125: she wins 121 to 120."""


def _stored(path: Path, lines: list[str]) -> AppState:
    """The device started on a store holding ``lines`` as its game in progress."""
    with Store(path) as store:
        session = GameSession(store)
        session.new(lines[0])
        for text in lines[1:]:
            session.add(text)
    store = open_store(path, owner="pegboard test")
    try:
        return initial_state(Config(), store, lambda _: None)
    finally:
        store.close()


def _totals_shown(state: AppState) -> list[str]:
    """Every total the device shows now: the board header (OLED and text panel), the Scores
    menu, say the score, the LED pegs."""
    view = machine.view(state)
    scores = machine.view(replace(state, screen=Scores(state.screen)))
    leds = machine._leds(state)
    assert isinstance(leds, UpdateLeds)
    return [
        *(str(side.score) for side in view.sides),
        *board_lines(view, view.sides, 121), *words_below(view, view.sides, 121),
        *scores.lines, score_words(state), *(str(side.front) for side in leds.sides),
    ]


def test_a_restored_finished_game_shows_the_winner_at_the_target(tmp_path: Path) -> None:
    state = _stored(tmp_path, LINES)
    assert state.session is not None
    gs = state.session.state
    assert gs.scores == (125, 120) and gs.shown == (121, 120)
    assert isinstance(state.screen, Reading)
    restored = next(page for page in state.screen.pages if page.title == "Game restored")
    assert restored.lines[0] == "Ann 121  Ben 120"
    shown = _totals_shown(state)
    assert not any("125" in text for text in shown)
    scores = machine.view(replace(state, screen=Scores(state.screen)))
    assert scores.lines[:2] == ("Ann: 121", "Ben: 120")
    assert score_words(state) == "Ann 121, Ben 120"


def test_the_last_claim_live_shows_the_winner_at_the_target(tmp_path: Path) -> None:
    state = _stored(tmp_path, LINES[:-1])  # the crib counted, Ann's claim not yet made
    assert state.session is not None and state.session.state.scores[0] == 115
    state, _ = calls.claim(state, 0, 10)
    assert state.session is not None and state.session.state.scores == (125, 120)
    shown = _totals_shown(state)
    assert not any("125" in text for text in shown)
    pages = state.screen.pages if isinstance(state.screen, Reading) else ()
    for page in pages:
        assert all(side.score <= 121 for side in page.sides or ())
