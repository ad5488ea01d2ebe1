"""The tournament lock on the board's screens: a game whose header says it is under the lock
shows a padlock on the play, the show and the game's end (small and large print), taken from
the frames the simulator draws, and audio mode says so once as the game begins."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from pegboard.app.view import Screen
from pegboard.config import ClubConfig, Config, DisplayConfig, InputConfig, VoiceConfig
from pegboard.record import dump
from pegboard.rules.events import ClubSeat, Event, GameHeader, Play
from pegboard.rules.game import Game
from pegboard.rules.state import GameState, Phase
from pegboard.rules.value import replace
from pegboard.sim.keys import parse_script
from pegboard.sim.script import run_script
from pegboard.store import Store
from pegboard.ui.marks import lock_mark
from pegboard.voice.audio import LOCKED
from pegboard.voice.hook import Transcript
from tests.support.announcing import said_over_keys
from tests.support.games import random_game

NIGHT = ClubConfig(enabled=True, club="c1", board="b7", broker="h:1883", night=12, table=7,
                   lock=True)
PLAYED = random_game(5)

Box = tuple[int, int, int]  # the padlock's corner and its scale
SMALL: Box = (123, 32, 1)  # the right end of the line under the board header
LARGE_PLAY: Box = (51, 12, 2)  # under the count's label
LARGE_TABLE: Box = (118, 31, 2)  # right of the words under the big scores


def _upto(done: Callable[[GameState], bool]) -> int:
    """How many of the seeded game's entries lead to the first state ``done`` holds for."""
    game = Game.from_header(PLAYED.header)
    for index, event in enumerate(PLAYED.events):
        game.push(event)
        if done(game.state):
            return index + 1
    return len(PLAYED.events)


def _rank_key(event: Event) -> str:
    """The keypad key that enters ``event``'s card."""
    assert isinstance(event, Play)
    return {"T": "10"}.get(str(event.card)[0], str(event.card)[0])


def _moment(name: str) -> tuple[int, str]:
    """The entries the store holds and the keys pressed after switching on (OK goes on from
    "Game restored") to reach the screen ``name``."""
    if name == "play":
        return _upto(lambda gs: gs.phase is Phase.PLAY and len(gs.pile) == 2), "ok"
    if name == "show":  # the last card of the first play laid: its end is shown
        entries = _upto(lambda gs: gs.phase is Phase.PLAY and sum(gs.cards_left) == 1)
        return entries, f"ok {_rank_key(PLAYED.events[entries])}"
    return len(PLAYED.events), "ok"


def frame(tmp_path: Path, name: str, *, lock: bool, large: bool) -> tuple[Screen, Image.Image]:
    """The frame on the simulated board at ``name`` of a club game (locked or not): its record
    left in the store, the board switched on and the keys pressed on the mock pins."""
    entries, keys = _moment(name)
    header = GameHeader(("Ann", "Ben"), PLAYED.header.rules,
                        club=ClubSeat(12, 1, 7, ("101", "102"), lock=lock))
    config = Config(input=InputConfig(kit="keypad"), display=DisplayConfig(large_print=large),
                    club=NIGHT)
    folder = tmp_path / f"{name}-{lock}-{large}"
    store = Store(folder, owner="test")
    try:
        store.new_game(dump(header))
        for event in PLAYED.events[:entries]:
            store.append(dump(event))
        result = run_script(parse_script(keys), config, store)
    finally:
        store.close()
    return result.views[-1].screen, result.frames[-1].convert("1")


def padlock(box: Box) -> Image.Image:
    """The padlock alone, as the screen draws it at ``box``."""
    image = Image.new("1", (128, 64), 0)
    lock_mark(image, box[0], box[1], scale=box[2])
    return image


def area(box: Box) -> tuple[int, int, int, int]:
    x, y, scale = box
    return x, y, x + 5 * scale, y + 7 * scale


@pytest.mark.parametrize(("name", "screen"), [
    ("play", Screen.PLAY), ("show", Screen.SHOW), ("over", Screen.GAME_OVER)])
@pytest.mark.parametrize("large", [False, True], ids=["small", "large"])
def test_a_locked_games_screens_show_the_padlock_beside_unchanged_scores(
        tmp_path: Path, name: str, screen: Screen, large: bool) -> None:
    shown, locked = frame(tmp_path, name, lock=True, large=large)
    same, casual = frame(tmp_path, name, lock=False, large=large)
    assert shown is same is screen
    box = SMALL if not large else LARGE_PLAY if screen is Screen.PLAY else LARGE_TABLE
    where = area(box)
    assert locked.crop(where).tobytes() == padlock(box).crop(where).tobytes()
    assert casual.crop(where).getbbox() is None  # no padlock, nothing else there either
    # The scores are drawn as they were: outside the padlock, the frames are the same (in
    # large print the words under the scores make room for it, so the scores' band).
    band = (0, 0, 128, 30) if large and screen is not Screen.PLAY else (0, 0, 128, 64)
    blank = Image.new("1", (128, 64), 0)
    outside_locked, outside_casual = locked.copy(), casual.copy()
    outside_locked.paste(blank.crop(where), where)
    outside_casual.paste(blank.crop(where), where)
    assert ImageChops.difference(outside_locked.crop(band), outside_casual.crop(band)
                                 ).getbbox() is None


@pytest.mark.parametrize("lock", [True, False])
def test_audio_mode_says_the_lock_once_as_a_locked_game_begins(
        tmp_path: Path, lock: bool) -> None:
    config = Config(input=InputConfig(kit="keypad"), voice=VoiceConfig(audio=True),
                    club=replace(NIGHT, lock=lock))
    # New game, Start: each seat's member number typed and set, Start; P1 deals, a starter.
    keys = "ok ok A 10 7 ok ok A 10 8 ok ok 2 ok"
    said = [a.text for a in said_over_keys(keys, config, tmp_path, Transcript()).said]
    told = [text for text in said if LOCKED in text]
    if not lock:
        assert told == []
        return
    assert len(told) == 1 and told[0].startswith(f"{LOCKED}. Who deals first?")
