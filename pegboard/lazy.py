"""The lazy seams: every module Pegboard imports only when it is first used, declared here,
each with its reason. Nothing else in the package imports inside a function
(``tests/test_imports.py``), so this table is the whole list of what a start does not load.

Start-up is CPU on a Pi (Python runs about 15 times slower on a Zero 2 W than on one core of a
desktop), and a module costs its bytecode, its classes and its libraries. A module goes
behind a seam when the first screen that takes a key (``pegboard run``, ``pegboard sim``)
does not use it, or when a command would otherwise load a library it uses on one path only.

A module uses a seam at its top level, the real import kept for the type checker::

    if TYPE_CHECKING:
        from pegboard.coach import advice
    else:
        advice = lazy.module("pegboard.coach.advice")

``advice`` is then a stand-in whose first attribute asked imports the module (once; later
look-ups go to the module). A package's names can also be imported from its modules when
first asked for (:func:`exports`, PEP 562), for a package whose parts do not all load
together; such a package is declared here too.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

SEAMS: Mapping[str, str] = {
    # the packages whose names load with their modules (exports)
    "pegboard.record": "the store reads its log lines (record.bounded) before the rules "
                       "engine, which the record's parser needs, is loaded",
    "pegboard.store": "the device's first frame reads the store through store.peek before "
                      "the rules engine (which engine_check needs) is loaded",
    "pegboard.service": "pegboard run sets up its logging before its first screen, and asks "
                        "logind to power off only when told to",
    # teaching and help: asked for from a menu, by a lesson, or at the end of a game
    "pegboard.coach.teaching": "what a short count missed: only once a count falls short",
    "pegboard.coach.rulehelp": "rule help: when a player asks for it, or a dispute is likely",
    "pegboard.coach.advice": "discard advice: when a player asks for it",
    "pegboard.coach.hints": "the pegging hint: when a player asks for it, or with a lesson",
    "pegboard.coach.lookahead": "the pegging coach's card: at a teaching table's play only",
    "pegboard.coach.knowledge": "what is known at a turn in the play: for the pegging coach "
                                "or a hint only",
    "pegboard.coach.review": "a discard reviewed by expected value: teaching, or the review",
    "pegboard.app.review_pages": "the game reviewed: from the game-over menu only",
    # the app's screens: a screen's module when that screen is first shown or takes a key
    # (pegboard.app.transitions), or the event it answers first comes
    "pegboard.app.start": "the start's screens (home, setup, the dealer, the cut): not "
                          "before a restored game's first key",
    "pegboard.app.table": "the table's card wheel: when it is first shown or takes a key (a "
                          "restored game opens on a page, the wheel comes after its OK)",
    "pegboard.app.calls": "muggins calls and claims: when a claim is made or the calling "
                          "screen is first shown",
    "pegboard.app.resuit": "a forgotten flush or nobs, and what an entry moves out of its way: "
                           "with the first entry, or a count's page",
    "pegboard.app.private": "what phones' hands hold: with the first entry refused or the "
                            "table's wheel",
    "pegboard.app.teach": "teaching's lessons and the coach's pages: with the first entry, "
                          "or when teaching is on",
    "pegboard.app.open_hands": "an open-handed first game's entries and advice: with the "
                               "first entry, or at an open-handed table",
    "pegboard.app.held_counts": "the screen a count's pages ask for: with the first entry "
                                "that brings pages, or a count held for its owner",
    "pegboard.app.pages": "the pages an entry brings up, read off its report: with the "
                          "first step",
    "pegboard.app.picker": "the card wheel's choices (and how a rank is labelled on it): with "
                           "the wheel, or the first page that names a card's rank",
    "pegboard.app.sounds": "audio mode's short sounds: with the first key in audio mode",
    "pegboard.app.suit_facts": "what a suit does to a count (with nobs, a flush): with the "
                               "card wheel, or the first count whose suits matter",
    "pegboard.app.menus": "the menu, its questions and the scores page: when MENU is pressed",
    "pegboard.app.help": "rule help and the card entry it asks for: from the menu or a "
                         "lesson only",
    "pegboard.app.game_over": "the game-over screen: only at a game's end",
    "pegboard.app.own_count": "a count a player gives for their own hand: only at a "
                              "count-it-yourself show",
    "pegboard.app.pegging": "quick pegging and the penalty screen (with the penalties' "
                            "rules): only when one is used",
    "pegboard.app.pairing": "the pairing screen and the phones' seats: only where phones pair",
    "pegboard.app.seat_entry": "an entry sent by a phone: only where phones play",
    "pegboard.app.club_notice": "the club publisher's and the standings' word: only on a "
                                "club night's board",
    # drawing
    "pegboard.ui.large": "the large-print layouts: only where large print is on",
    "pegboard.ui.race": "the score-race picture: only at a game's end",
    "pegboard.ui.qr": "the pairing screen's QR code (and segno): only where phones pair",
    "pegboard.device.pairing": "the phones' pairing port: only with [phones] enabled",
    "pegboard.device.club_status": "the club publisher's status read on the board: only with "
                                   "[club] enabled",
    "pegboard.web.passes": "the phones' passes (and sqlite3): only with [phones] enabled",
    "pegboard.rules.fold": "the one account of a game's reports (the race): the app folds "
                           "them only when GO first shows a finished game's race",
    "pegboard.stats": "the statistics (the race's values): only at a game's end, or by a "
                      "command that reports them",
    "PIL.ImageDraw": "Pillow's drawing: only to make the glyph file again",
    "PIL.ImageFont": "Pillow's font (it loads the image-file plugins): only to make the glyph "
                     "file again",
    # the hardware's libraries: a desktop (the tests, the simulator) runs without them
    "gpiozero": "the buttons' library: only when the input kit is made (the simulator makes "
                "its mock pins on the first key)",
    "gpiozero.pins.mock": "gpiozero's mock pins: only the simulator's hands and the tests",
    "luma.core.device": "luma's dummy panel: only for --display dummy",
    "luma.core.interface.serial": "luma's I2C: only when the real panel is opened",
    "luma.oled.device": "luma's panel drivers: only when the real panel is opened",
    "luma.emulator.device": "an optional package (a pygame window): only when asked for, "
                            "and only if installed",
    "serial": "the LED board's one library: only when a port is really opened",
    "serial.tools.list_ports": "the USB ports' list: only when the LED board is looked for",
    "pegboard.hw.inputs": "the input kit on gpiozero: made when the device is built (the "
                          "simulator: on its first key)",
    "pegboard.hw.gestures": "the keys' timing: only with the input kit",
    "pegboard.hw.factory": "gpiozero's pin factory: only with the input kit",
    "pegboard.hw.oled": "the luma panel (the simulator's window mirror): only when asked for",
    # the LED board: not loaded without one in the config
    "pegboard.link.usb_port": "the LED board's USB port: only with an LED board configured",
    "pegboard.link.board": "the LED board's model: only with an LED board configured",
    "pegboard.link.layout": "the LED board's layout: only with an LED board configured",
    "pegboard.link.led_board": "the loop's LED port: only with an LED board configured",
    "pegboard.link.serial_link": "the serial link: only with an LED board configured",
    "pegboard.device.leds": "the LED board's observer: only with an LED board configured",
    # the voice: not loaded while it is off
    "pegboard.voice.setup": "the voice opened: only with the voice on, or when a player "
                            "turns audio mode on (the device's voice waits for it, "
                            "pegboard.device.observers.OnDemand)",
    "pegboard.voice.espeak": "espeak-ng: only with the voice on (or audio mode turned on)",
    "pegboard.voice.hook": "the voice's observer: only with the voice on",
    "pegboard.voice.speaker": "the speaker thread: only with the voice on",
    "pegboard.voice.earcons": "audio mode's sounds: only in audio mode",
    "pegboard.voice.phrases": "a command's words spoken: only with --say or --wav",
    # the device's start: the first frame (a splash with the game in the store) is shown
    # before the app, the engine and the input pins are loaded
    "pegboard.ui.splash": "the first frame on the panel: before the rest is loaded",
    "pegboard.sim.splash": "the simulator's first frame: drawn before anything else loads",
    "pegboard.store.peek": "the game in the store, read for the splash without the engine",
    "pegboard.store.location": "where the store is: read before the first frame, after the "
                               "config",
    "pegboard.device.writable": "whether the store's directory can keep games: after the "
                                "first frame",
    "pegboard.device.build": "the device (app, engine, store, kit): after the first frame",
    "pegboard.device.phones": "phone seats (the web stack on the board): only with --phones",
    "pegboard.commands.web": "the scoreboard's address checks and its listening socket, for "
                             "phones: only when --phones is given or [phones] enabled",
    "pegboard.device.bench": "the bring-up tests (probes, test pattern, LED walk): only when "
                             "the builder picks Test the box",
    "pegboard.device.ports": "a bring-up probe's report on the loop's queue: only once the "
                             "builder has picked Test the box",
    "pegboard.device.loop": "the device's loop: after the first frame",
    "pegboard.hw.clock": "the monotonic clock: after the first frame",
    "pegboard.service.notify": "systemd's readiness and watchdog: after the first frame",
    "pegboard.service.power": "logind's power-off: only when a player asks for it",
    "pegboard.app.view": "the fatal error's screen: only when the device cannot start",
    "pegboard.ui.render": "the fatal error's frame: only when the device cannot start",
    "pegboard.config": "the config: after the simulator's first frame (or only with --say "
                       "or --wav)",
    "tempfile": "a scratch store: only for a headless simulator run",
    "importlib.resources": "the built-in demo's file (it loads tempfile, shutil...): only "
                           "for the demo",
    "pegboard.sim.script": "a key script played: only headless",
    "pegboard.sim.keys": "key scripts: only when the simulator plays one",
    "pegboard.sim.session": "the interactive simulator: after its first frame",
    "pegboard.sim.terminal": "the simulator's terminal: after its first frame",
    "pegboard.sim.leds": "the simulated LED board: only with --leds",
    "pegboard.sim.fakes": "the simulator's stand-ins: with its mock pins, on the first key",
    "pegboard.sim.hands": "the simulator's hands on the mock pins: on the first key",
    "pegboard.ui.term": "the headless simulator's frames in text: only headless",
    # the config file
    "tomllib": "a config file is parsed only when there is one (the simulator's defaults "
               "need none)",
    "pegboard.config.toml_guard": "the config file's size and shape checks: with tomllib",
    "difflib": "the closest valid name: only when the config file has a mistake",
    # the store: its history's index, only when a game finishes or the index is read
    "pegboard.store.index": "the finished games' index: when a game is archived",
    "pegboard.store.index_rows": "the index's rows: when a game finishes",
    "pegboard.coach.lessons": "what a record teaches: only for the statistics that ask for it",
    # the command line
    "pegboard.commands.parsers": "argparse (with gettext) and the commands' parsers: for "
                                 "help, a mistake, or a command whose options are not read "
                                 "plainly (pegboard.commands.options)",
    "argparse": "argparse's usage error, for a file name refused (pegboard.commands.paths): "
                "the simulator checks its names without argparse",
    # the club command: each subcommand loads only its own parts
    "pegboard.club.heal": "club serve only (its results database checked, rebuilt if damaged)",
    "pegboard.club.outbox": "club publish only",
    "pegboard.club.publisher": "club publish only (MQTT)",
    "pegboard.club.results": "club serve and club roster only",
    "pegboard.club.standings": "club serve only (its table of season points)",
    "pegboard.club.server": "club serve only (the standings service, uvicorn)",
    "pegboard.club.seating": "club seat only",
    "pegboard.club.setup": "club setup only",
    "pegboard.web.server_hosts": "the names a server answers to: only to serve (web, club "
                                 "serve) or to check a name given for it",
    "pegboard.web.server": "the scoreboard's server (uvicorn, starlette): only to serve",
    "sqlite3": "club roster only",
    "json": "pegboard score prints JSON only when asked (--json)",
}
"""Each lazily imported module, and why it is not imported with the module that uses it."""


class Seam:
    """A module imported when its first attribute is asked for: :func:`module`."""

    __slots__ = ("_module", "_name")

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attribute: str) -> Any:
        loaded = self._module
        if loaded is None:
            if attribute.startswith("__") and attribute.endswith("__"):
                # Introspection (doctest's and inspect's look for __wrapped__, copy's for
                # __deepcopy__) asks the seam, not the module: asking must not load it, or an
                # optional library behind a seam (luma.emulator) would be needed to look.
                raise AttributeError(attribute)
            loaded = self._module = importlib.import_module(self._name)
        return getattr(loaded, attribute)

    def __repr__(self) -> str:
        state = "loaded" if self._module is not None else "not loaded yet"
        return f"<lazy module {self._name!r}, {state}>"


def module(name: str) -> Any:
    """The module ``name``, imported when first used; ``name`` must be declared in
    :data:`SEAMS` (LookupError otherwise, raised as the using module is imported)."""
    if name not in SEAMS:
        raise LookupError(f"{name!r} is not a lazy seam: declare it, with its reason, in "
                          f"pegboard.lazy.SEAMS")
    return Seam(name)


def exports(package: str, space: dict[str, Any],
            homes: Mapping[str, tuple[str, ...]]) -> Callable[[str], Any]:
    """The module ``__getattr__`` of ``package`` (its ``__name__``; ``space``, its globals),
    which must be declared in :data:`SEAMS`.

    ``homes`` maps each of the package's modules to the names it gives the package. The first
    name asked of a module imports that module once and puts every one of its names in
    ``space``, so later look-ups are plain globals. No module may be named after one of the
    names, or the submodule set on the package by its import would shadow the name.
    """
    if package not in SEAMS:
        raise LookupError(f"{package!r} is not a lazy seam: declare it, with its reason, in "
                          f"pegboard.lazy.SEAMS")
    home = {name: module for module, names in homes.items() for name in names}

    def __getattr__(name: str) -> Any:
        module = home.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        loaded = importlib.import_module(f"{package}.{module}")
        space.update({key: getattr(loaded, key) for key in homes[module]})
        return space[name]

    return __getattr__
