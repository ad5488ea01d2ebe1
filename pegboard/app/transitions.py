"""What every key does on every screen, in one table.

Read a row as "on this screen, this key runs this handler". A key a screen does not list
falls back to the keys every screen shares (:data:`EVERYWHERE`): MENU opens the menu, holding
MENU asks to shut down, holding OK opens the menu where OK has no hold of its own (always on
the keypad kit, whose held rank keys choose suit facts instead); with the voice on, holding
GO reads the screen aloud on every screen; in audio mode (docs/accessibility.md) holding GO
says the last thing said again and holding MENU says the score, on every screen. Anything
else does nothing.
Handlers live in the screen modules; each takes the state, the screen's own state and the
input event, and returns the new state with the effects to run.

A screen's row is made when that screen first takes a key or is first shown, so a screen's
module is imported then, through its lazy seam, and not when this table is: the first screen
of a restored game (a page) needs neither the table's card wheel, muggins calls, the menus,
the game's end, help nor the start's screens, and every module is start-up CPU on a Pi.

Turning the knob never leaves a screen (it moves, scrolls or counts), so detents still
coming from a spin can never act on the screen that follows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pegboard import lazy
from pegboard.app import flow, show
from pegboard.app.inputs import InputEvent
from pegboard.app.keys import Key, key_of
from pegboard.app.state import (
    AppState,
    Calling,
    CardEntry,
    Claiming,
    Confirm,
    Cutting,
    Dealer,
    FallBack,
    GameOverScreen,
    HelpScreen,
    Home,
    Menu,
    OwnCount,
    PairingScreen,
    PenaltyScreen,
    QuickPeg,
    Reading,
    Result,
    Saved,
    Scores,
    ScreenState,
    SetupScreen,
    WheelScreen,
)
from pegboard.app.view import View

if TYPE_CHECKING:
    from pegboard.app import (
        calls,
        game_over,
        help,
        menus,
        own_count,
        pairing,
        pegging,
        start,
        table,
    )
else:
    calls = lazy.module("pegboard.app.calls")
    game_over = lazy.module("pegboard.app.game_over")
    help = lazy.module("pegboard.app.help")
    menus = lazy.module("pegboard.app.menus")
    own_count = lazy.module("pegboard.app.own_count")
    pairing = lazy.module("pegboard.app.pairing")
    pegging = lazy.module("pegboard.app.pegging")
    start = lazy.module("pegboard.app.start")
    table = lazy.module("pegboard.app.table")

Handler = Callable[[AppState, Any, InputEvent], Result]
Viewer = Callable[[AppState, Any], View]

K = Key
LIST = (K.TURN, K.GO, K.OK, K.RANK)
"""The keys of a list: turn or GO move, OK or a rank key (row N) choose."""
WHEEL = (K.TURN, K.OK, K.HOLD_OK, K.RANK, K.HOLD_RANK)
"""The keys of a card wheel (GO is the screen's own)."""


def _undo(state: AppState, screen: ScreenState, event: InputEvent) -> Result:
    """UNDO takes back the last entry."""
    return flow.undo(state)


def _page_rank(state: AppState, screen: Reading, event: InputEvent) -> Result:
    """Keypad: a rank key on the last plain page closes it and is the next screen's key."""
    if len(screen.pages) > 1 or screen.pages[0].offer is not None:
        return state, ()
    closed, effects = show.close(state, screen)
    new, more = dispatch(closed, event)
    return new, effects + more


def _keys(keys: tuple[Key, ...], handler: Handler) -> dict[Key, Handler]:
    return dict.fromkeys(keys, handler)


TRANSITIONS: dict[type, Callable[[], dict[Key, Handler]]] = {
    Home: lambda: _keys(LIST, start.home_move),
    SetupScreen: lambda: {**_keys(LIST, start.setup_move), K.UNDO: start.setup_back},
    Dealer: lambda: {**_keys(LIST, start.dealer_move), K.UNDO: _undo},
    Cutting: lambda: {**_keys((*WHEEL, K.GO), start.cut_key), K.UNDO: start.cut_back},
    WheelScreen: lambda: {**_keys(WHEEL, table.wheel_key), K.GO: table.go,
                          K.HOLD_GO: table.hold_go, K.UNDO: table.back},
    Reading: lambda: {K.TURN: show.page_turn, K.OK: show.page_ok, K.GO: show.page_go,
                      K.UNDO: show.page_undo, K.RANK: _page_rank, K.HOLD_RANK: _page_rank},
    Claiming: lambda: {K.TURN: show.claim_number, K.RANK: show.claim_number,
                       K.OK: show.claim_ok, K.GO: show.claim_go, K.UNDO: show.claim_undo},
    OwnCount: lambda: {K.TURN: own_count.own_number, K.RANK: own_count.own_number,
                       K.OK: own_count.own_ok, K.UNDO: own_count.own_undo},
    Calling: lambda: {**_keys(LIST, calls.call_move), K.UNDO: _undo},
    QuickPeg: lambda: {K.TURN: pegging.peg_number, K.RANK: pegging.peg_number,
                       K.GO: pegging.peg_side, K.OK: pegging.peg_ok, K.UNDO: pegging.peg_back},
    GameOverScreen: lambda: {K.OK: game_over.next_game, K.GO: game_over.race_or_result,
                             K.UNDO: game_over.take_back, K.TURN: game_over.scroll},
    Menu: lambda: {**_keys(LIST, menus.menu_move), K.UNDO: menus.menu_back},
    Confirm: lambda: {**_keys(LIST, menus.confirm_move), K.UNDO: menus.confirm_back},
    Scores: lambda: _keys((K.OK, K.GO, K.UNDO), menus.scores_back),
    PenaltyScreen: lambda: {K.TURN: pegging.penalty_key, K.GO: pegging.penalty_key,
                            K.RANK: pegging.penalty_key, K.OK: pegging.penalty_ok,
                            K.UNDO: pegging.penalty_back},
    HelpScreen: lambda: {**_keys(LIST, help.help_forward), K.UNDO: help.help_back},
    CardEntry: lambda: {**_keys((*WHEEL, K.GO), help.entry_key), K.UNDO: help.entry_back},
    Saved: lambda: {K.MENU: menus.nothing, K.HOLD_MENU: menus.nothing,
                    K.HOLD_OK: menus.nothing},
    PairingScreen: lambda: _keys((K.TURN, K.GO, K.OK, K.UNDO, K.RANK), pairing.pairing_key),
    FallBack: lambda: {**_keys(LIST, pairing.fall_back_key), K.UNDO: pairing.fall_back_back},
}
"""Each screen's keys: the row that makes them (see the module's documentation)."""

EVERYWHERE: dict[Key, Callable[[], Handler]] = {
    K.MENU: lambda: menus.open_menu,
    K.HOLD_MENU: lambda: menus.ask_shutdown,
    K.HOLD_OK: lambda: menus.open_menu,
}
"""The keys every screen shares unless its own row says otherwise."""

AUDIO_KEYS: dict[Key, Callable[[], Handler]] = {
    K.HOLD_GO: lambda: menus.say_again,
    K.HOLD_MENU: lambda: menus.say_score,
}
"""Audio mode's keys of their own, on every screen (shutting down stays on the menu)."""

VIEWS: dict[type, Callable[[], Viewer]] = {
    Home: lambda: start.home_view,
    SetupScreen: lambda: start.setup_view,
    Dealer: lambda: start.dealer_view,
    Cutting: lambda: start.cut_view,
    WheelScreen: lambda: table.view,
    Reading: lambda: show.reading_view,
    Claiming: lambda: show.claiming_view,
    OwnCount: lambda: own_count.own_view,
    Calling: lambda: calls.calling_view,
    QuickPeg: lambda: pegging.peg_view,
    GameOverScreen: lambda: game_over.view,
    Menu: lambda: menus.menu_view,
    Confirm: lambda: menus.confirm_view,
    Scores: lambda: menus.scores_view,
    PenaltyScreen: lambda: pegging.penalty_view,
    HelpScreen: lambda: help.help_view,
    CardEntry: lambda: help.entry_view,
    Saved: lambda: menus.saved_view,
    PairingScreen: lambda: pairing.pairing_view,
    FallBack: lambda: pairing.fall_back_view,
}
"""What each screen shows: the view it names (looked up when the screen is first shown)."""


_ROWS: dict[type, dict[Key, Handler]] = {}
_VIEWERS: dict[type, Viewer] = {}


def keys_of(screen: type) -> dict[Key, Handler]:
    """The keys of the screen of type ``screen``: its row, made once, when first asked for."""
    row = _ROWS.get(screen)
    if row is None:
        row = _ROWS[screen] = TRANSITIONS[screen]()
    return row


def viewer_of(screen: type) -> Viewer:
    """The view of the screen of type ``screen``, looked up once, when first asked for."""
    viewer = _VIEWERS.get(screen)
    if viewer is None:
        viewer = _VIEWERS[screen] = VIEWS[screen]()
    return viewer


def handler_for(state: AppState, key: Key) -> Handler | None:
    """The handler of ``key`` on the current screen (the keypad's held OK is always MENU;
    with the voice on, a held GO always reads the screen aloud; in audio mode held GO and
    MENU are "say again" and "say the score" everywhere)."""
    if key is Key.HOLD_OK and state.keypad and not isinstance(state.screen, Saved):
        return EVERYWHERE[key]()
    if state.audio and key in AUDIO_KEYS and not isinstance(state.screen, Saved):
        return AUDIO_KEYS[key]()
    if key is Key.HOLD_GO and state.config.voice.enabled:
        return menus.read_aloud
    own = keys_of(type(state.screen)).get(key)
    if own is not None:
        return own
    shared = EVERYWHERE.get(key)
    return shared() if shared is not None else None


def dispatch(state: AppState, event: InputEvent) -> Result:
    """Run the current screen's handler for ``event``."""
    key = key_of(event)
    if key is None:
        return state, ()
    handler = handler_for(state, key)
    if handler is None:
        return state, ()
    return handler(state, state.screen, event)


def view_of(state: AppState) -> View:
    """The current screen's view."""
    return viewer_of(type(state.screen))(state, state.screen)

