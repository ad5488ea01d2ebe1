"""Building the device's parts from the configuration (shared by ``run`` and ``sim``)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pegboard import lazy
from pegboard.app import machine
from pegboard.config import Config, InputConfig
from pegboard.device.loop import App
from pegboard.device.observers import OnDemand, Voice
from pegboard.errors import PegboardError
from pegboard.rules.value import replace
from pegboard.store import CurrentGame, Recovery, Store
from pegboard.store.replay import EngineCheck

if TYPE_CHECKING:
    from pegboard.device import club_status, pairing
    from pegboard.device import leds as led_observer
    from pegboard.hw import factory, gestures, inputs
    from pegboard.link import board as link_board
    from pegboard.link import layout as link_layout
    from pegboard.link import led_board, serial_link, usb_port
    from pegboard.voice import setup as voice_setup
    from pegboard.web import passes as web_passes
else:
    factory = lazy.module("pegboard.hw.factory")
    gestures = lazy.module("pegboard.hw.gestures")
    inputs = lazy.module("pegboard.hw.inputs")
    club_status = lazy.module("pegboard.device.club_status")
    led_observer = lazy.module("pegboard.device.leds")
    pairing = lazy.module("pegboard.device.pairing")
    led_board = lazy.module("pegboard.link.led_board")
    link_board = lazy.module("pegboard.link.board")
    link_layout = lazy.module("pegboard.link.layout")
    serial_link = lazy.module("pegboard.link.serial_link")
    usb_port = lazy.module("pegboard.link.usb_port")
    web_passes = lazy.module("pegboard.web.passes")
    voice_setup = lazy.module("pegboard.voice.setup")

if TYPE_CHECKING:
    from gpiozero import Factory

    from pegboard.config import VoiceConfig
    from pegboard.device.club_status import ClubWatch
    from pegboard.device.observers import Observer, Speech
    from pegboard.device.pairing import PairingPort
    from pegboard.device.ports import LedBoard
    from pegboard.hw.clock import Clock
    from pegboard.hw.gestures import Timing
    from pegboard.hw.inputs import ButtonPins, EncoderPins, InputKit, KeypadPins, Sink
    from pegboard.link.led_board import SerialLedBoard
    from pegboard.link.usb_port import Opener, Port
    from pegboard.rules.game import Game
    from pegboard.voice.hook import VoiceHook

# The LED link (and its observer) is imported when the config names a board: without one it
# is not loaded. The voice is imported when it is on, or when a player turns audio mode on.
# The input kits (and gpiozero under them) are imported when a kit is made: the simulator
# makes its kit on the first key.

log = logging.getLogger(__name__)

APP: App[machine.AppState] = App(machine.step, machine.view, machine.scores)
"""The real app, as the loop runs it."""


def outputs(speech: Speech[machine.AppState] | None, leds: LedBoard | None,
            phones: Observer[machine.AppState] | None = None,
            club: Observer[machine.AppState] | None = None,
            ) -> list[Observer[machine.AppState]]:
    """The loop's observers after the OLED, in order: the voice, the LED board, the
    phones' pairing port, then the club publisher's status (each only when there is one)."""
    found: list[Observer[machine.AppState]] = []
    if speech is not None:
        found.append(Voice(speech))
    if leds is not None:
        found.append(led_observer.Leds(leds))
    if phones is not None:
        found.append(phones)
    if club is not None:
        found.append(club)
    return found


def voice_for(config: VoiceConfig, clock: Clock,
              notice: Callable[[str], None] | None = None,
              ) -> VoiceHook | OnDemand:
    """The device's voice: opened now when ``[voice]`` turns it (or audio mode) on (a voice
    that cannot work is said to ``notice``, then silence); else one that opens when a player
    turns audio mode on (:class:`~pegboard.device.observers.OnDemand`), nothing of the voice
    loaded before."""
    if config.enabled or config.audio:
        hook = voice_setup.open_voice(config, clock, notice)
        if hook is not None:
            return hook
        return OnDemand(lambda: None)
    return OnDemand(lambda: voice_setup.open_voice(replace(config, audio=True), clock, notice))


UNIT_STATUS = "/var/lib/pegboard-club/club-status.json"
"""Where pegboard-club.service's publisher writes its status (beside its ``--acked``): kept as
text, made a path only on a club board."""


def make_club_watch(config: Config) -> ClubWatch[machine.AppState] | None:
    """On a club board, the reader of its publisher's status file (``club.status_file``, by
    default :data:`UNIT_STATUS`); None on any other board."""
    club = config.club
    if not club.enabled:
        return None
    return club_status.ClubWatch(Path(club.status_file or UNIT_STATUS))


def with_phones(config: Config, served: bool) -> Config:
    """``config`` with pairing on exactly when the board serves phone seats (``--phones``,
    or ``[phones] enabled`` with its port to be had): no join code is shown that no server
    would answer."""
    if config.phones.enabled == served:
        return config
    return replace(config, phones=replace(config.phones, enabled=served))


def make_pairing(config: Config, store: Store) -> PairingPort | None:
    """The phones' pairing port (docs/pairing.md) over the passes in the store's ``phones/``
    folder, or None when ``[phones]`` is off. A passes file that cannot be opened is logged
    and the board plays on without phones."""
    phones = config.phones
    if not phones.enabled:
        return None
    try:
        passes = web_passes.Passes(web_passes.passes_folder(store.directory))
    except (PegboardError, OSError) as error:
        log.error("phones: cannot pair phones: %s", error)
        return None
    for notice in passes.notices:
        log.warning("phones: %s", notice)

    def game() -> str | None:
        current = store.current()
        return None if current is None else current.id

    def host() -> str:
        return phones.host or pairing.board_address()

    return pairing.PairingPort(passes, game, host=host, port=phones.port)


def timing(config: InputConfig) -> Timing:
    """Debounce, hold and repeat times from the ``[input]`` section."""
    return gestures.Timing(debounce_s=config.debounce_ms / 1000, hold_s=config.hold_s,
                           repeat_s=config.repeat_s)


def encoder_pins(config: InputConfig) -> EncoderPins:
    """The encoder kit's pins from the ``[input]`` section."""
    return inputs.EncoderPins(a=config.encoder_a, b=config.encoder_b, push=config.encoder_push,
                              go=config.button_go, undo=config.button_undo, menu=config.button_menu)


def keypad_pins(config: InputConfig) -> KeypadPins:
    """The keypad's row and column pins from the ``[input]`` section."""
    rows, cols = tuple(config.keypad_rows), tuple(config.keypad_cols)
    assert len(rows) == 4 and len(cols) == 4  # the config checks this
    return inputs.KeypadPins(rows=(rows[0], rows[1], rows[2], rows[3]),
                             cols=(cols[0], cols[1], cols[2], cols[3]))


def button_pins(config: InputConfig) -> ButtonPins:
    """The GO, UNDO and MENU buttons' pins from the ``[input]`` section (both kits)."""
    return inputs.ButtonPins(go=config.button_go, undo=config.button_undo, menu=config.button_menu)


def make_kit(config: InputConfig, sink: Sink, clock: Clock, *,
             pin_factory: Factory | None = None) -> InputKit:
    """The input kit the config names, on gpiozero (``pin_factory`` None: the default,
    made as :func:`~pegboard.hw.factory.ensure_pin_factory` makes it)."""
    if pin_factory is None:
        factory.ensure_pin_factory()
    if config.kit == "keypad":
        return inputs.KeypadKit(clock, pins=keypad_pins(config), timing=timing(config),
                                buttons=button_pins(config), sink=sink, pin_factory=pin_factory)
    return inputs.EncoderKit(sink, clock, pins=encoder_pins(config), timing=timing(config),
                             pin_factory=pin_factory)


def serial_opener(baudrate: int) -> Opener:
    """Open the LED board's port as the link needs it (exclusive, never blocking) at the
    ``[link] baudrate`` (the Pico's USB serial ignores the rate; a UART adapter does not)."""

    def open_port(path: str) -> Port:
        return usb_port.open_serial(path, baudrate)

    return open_port


def make_leds(config: Config) -> SerialLedBoard | None:
    """The LED board the config describes, or None when ``[link]`` names no board: the
    ``[leds]`` layout (order, skip, serpentine, ...) goes to the firmware in the link's
    handshake, and the port is opened at ``[link] baudrate``."""
    link_config = config.link
    if not link_config.device and not link_config.serial_number:
        return None
    link = serial_link.SerialLink(link_config.device or "auto",
                                  serial_number=link_config.serial_number or None,
                                  config=link_layout.led_config_from(config.leds),
                                  opener=serial_opener(link_config.baudrate))
    return led_board.SerialLedBoard(link, [link_board.parse_colour(c) for c in config.leds.colours])


def resume_game(store: Store) -> Game | tuple[Mapping[str, Any], ...] | None:
    """The unfinished game to continue where the players left off: the game the store's
    :class:`~pegboard.store.replay.EngineCheck` replayed while opening (so start-up replays
    the record once), else its record lines to replay; None when there is none."""
    current = store.current()
    if current is None:
        return None
    check = store.check
    done = check.take(current.records) if isinstance(check, EngineCheck) else None
    return done.game if done is not None and done.game is not None else current.records


def initial_state(config: Config, store: Store,
                  notice: Callable[[str], None] | None = None) -> machine.AppState:
    """The app's first state, resuming the store's unfinished game if there is one.

    The device always starts: a game the engine cannot replay was already restored in part
    or set aside by the store (opened with :func:`open_store`'s engine check), and the first
    screen says what happened, as the journal and ``pegboard game status`` do. A game the
    check passed but the app still cannot resume is set aside here, never deleted.
    """
    for text in store.notices:
        if notice is not None:
            notice(text)
    lines = resume_game(store)
    names = store.last_players() if lines is None else ()
    try:
        return machine.initial_state(config, resume=lines, names=names,
                                     notice=_screen(getattr(store, "recoveries", [])),
                                     phone_made=phone_made(store.current()))
    except Exception as error:  # whatever the cause, the device must start
        if lines is None:
            raise
        reason = str(error) if isinstance(error, PegboardError) else (
            f"{type(error).__name__}: {error}")
        log.error("the unfinished game could not be resumed: %s", reason)
        store.set_aside_current(f"it could not be resumed: {reason}")
        if notice is not None:
            notice(store.notices[-1])
        return machine.initial_state(config, notice=_screen(store.recoveries[-1:]),
                                     names=store.last_players())


def phone_made(current: CurrentGame | None) -> frozenset[int]:
    """Which of the unfinished game's entries in force (by place, the first 0) a phone
    made, from the seats its log keeps beside the record: each line an entry, each ``undo``
    line taking back the last (as the engine reads them)."""
    if current is None or len(current.seats) != len(current.records):
        return frozenset()
    made: list[bool] = []
    for record, seat in zip(current.records[1:], current.seats[1:], strict=True):
        if record.get("type") == "undo":
            if made:
                made.pop()
        else:
            made.append(seat is not None)
    return frozenset(at for at, by_phone in enumerate(made) if by_phone)


def _screen(recoveries: list[Recovery]) -> tuple[str, ...]:
    """One page for what the store did at start (a title, then lines); () for nothing."""
    if not recoveries:
        return ()
    pages = [recovery.screen() for recovery in recoveries]
    return (pages[0][0], *(line for page in pages for line in page[1:]))


def open_store(path: Path, owner: str) -> Store:
    """Open (and lock) the durable store at ``path``, with the engine judging what of the
    unfinished game can be replayed."""
    return Store(path, owner=owner, check=EngineCheck())


def describe_kit(config: InputConfig) -> str:
    """One line naming the kit and its pins (for the log)."""
    if config.kit == "keypad":
        return (f"keypad rows {list(config.keypad_rows)} cols {list(config.keypad_cols)}, "
                f"GO {config.button_go}, UNDO {config.button_undo}, MENU {config.button_menu}")
    return (f"encoder A{config.encoder_a} B{config.encoder_b} push {config.encoder_push}, "
            f"GO {config.button_go}, UNDO {config.button_undo}, MENU {config.button_menu}")
