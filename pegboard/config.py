"""The Pegboard configuration file: one TOML file read into frozen dataclasses.

The default file is ``/etc/pegboard/config.toml``; ``pegboard run --config PATH`` names
another. A missing default file means "all defaults"; a file named on purpose must exist.

Every key is checked. A bad value raises :class:`~pegboard.errors.ConfigError` with a message
that names the key (``display.model``), quotes the value and says what is allowed. Unknown
sections and keys are errors too, with the closest valid name suggested, because a typo must
never silently do nothing.

Sections and their defaults (pins are BCM GPIO numbers):

``[input]``
    ``kit`` ``"encoder"`` (rotary encoder + GO/UNDO/MENU buttons) or ``"keypad"`` (4x4 matrix
    keypad + the buttons); ``encoder_a`` 17 (CLK), ``encoder_b`` 18 (DT), ``encoder_push`` 27
    (SW); ``button_go`` 22, ``button_undo`` 23, ``button_menu`` 24; ``keypad_rows``
    [5, 6, 13, 19], ``keypad_cols`` [12, 16, 20, 21]; ``hold_s`` 0.8 (a long press),
    ``repeat_s`` 0.15 (auto-repeat interval while held), ``debounce_ms`` 20.
``[display]``
    ``model`` ``"ssd1306"`` or ``"sh1106"``; ``i2c_port`` 1; ``i2c_address`` 0x3C;
    ``rotate`` 0 (0-3, quarter turns); ``contrast`` 255 (0-255).
``[idle]``
    ``dim_after_s`` 180, ``blank_after_s`` 900 (0 disables either).
``[link]``
    ``device`` ``""`` (no LED pegboard), ``"auto"`` (find the Pico by USB ids) or a device path
    such as ``/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_e6614c311b7e6f35-if00``;
    ``serial_number`` ``""`` (any) or the Pico's USB serial number; ``baudrate`` 115200.
``[leds]``
    ``count`` 242 (LEDs on the chain), ``sides`` 2 (tracks: 2 or 3), ``serpentine`` true (the
    chain snakes back and forth), ``hole1_end`` ``"start"`` (hole 1 is at the data-in end of
    the chain) or ``"end"``; ``brightness`` 0.25 (cap, 0.0-1.0); ``budget_ma`` 500 (whole-frame
    current budget); ``colours`` ["#e02020", "#2050f0", "#20b040"] (one per track).
``[rules]`` (the defaults offered when a new game starts)
    ``players`` 2 (2, 3 or 4); ``target`` 121 or 61; ``five_card`` false; ``muggins`` false;
    ``game_points`` ``"acc"`` or ``"classic"``; ``match_games`` 1 (best of N, N odd).
``[store]``
    ``path`` ``""`` (the usual search: ``--store``, ``$PEGBOARD_STORE``,
    ``$STATE_DIRECTORY``, the user data directory) or a directory for the game store.

>>> config = parse_config('[display]\\nmodel = "sh1106"\\n')
>>> config.display.model, config.display.i2c_address
('sh1106', 60)
>>> parse_config('[display]\\nmodle = "sh1106"\\n')
Traceback (most recent call last):
...
pegboard.errors.ConfigError: <string>: unknown key display.modle (did you mean display.model?)
"""

from __future__ import annotations

import dataclasses
import difflib
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pegboard.errors import ConfigError

DEFAULT_CONFIG_PATH = Path("/etc/pegboard/config.toml")

# BCM GPIO numbers on the 40-pin header. GPIO 2 and 3 carry I2C-1 (the OLED), so they are
# never accepted as input pins.
_HEADER_GPIOS = range(0, 28)
_I2C1_PINS = (2, 3)


class _Invalid(Exception):
    """Raised by a checker with the text saying what is allowed."""


def _meta(check: Callable[[Any], Any], allowed: str) -> dict[str, Any]:
    return {"check": check, "allowed": allowed}


def _int_in(low: int, high: int) -> Callable[[Any], int]:
    def check(value: Any) -> int:
        # bool is an int in Python; `true` is never a number in a config file.
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise _Invalid
        return value

    return check


def _int_of(*choices: int) -> Callable[[Any], int]:
    def check(value: Any) -> int:
        if isinstance(value, bool) or value not in choices:
            raise _Invalid
        return int(value)

    return check


def _number_in(low: float, high: float) -> Callable[[Any], float]:
    def check(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise _Invalid
        if not low <= value <= high:
            raise _Invalid
        return float(value)

    return check


def _one_of(*choices: str) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if value not in choices or not isinstance(value, str):
            raise _Invalid
        return value

    return check


def _boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _Invalid
    return value


def _pin(value: Any) -> int:
    pin = _int_in(_HEADER_GPIOS.start, _HEADER_GPIOS.stop - 1)(value)
    if pin in _I2C1_PINS:
        raise _Invalid
    return pin


def _pins(count: int) -> Callable[[Any], tuple[int, ...]]:
    def check(value: Any) -> tuple[int, ...]:
        if not isinstance(value, list) or len(value) != count:
            raise _Invalid
        return tuple(_pin(item) for item in value)

    return check


_PIN_ALLOWED = "a BCM GPIO number 0-27 other than 2 and 3 (I2C-1, used by the OLED)"


def _device(value: Any) -> str:
    if not isinstance(value, str):
        raise _Invalid
    if value in ("", "auto") or (value.startswith("/dev/") and len(value) > len("/dev/")):
        return value
    raise _Invalid


def _serial_number(value: Any) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"[0-9A-Za-z_-]{0,64}", value):
        raise _Invalid
    return value


def _store_path(value: Any) -> str:
    if not isinstance(value, str) or "\0" in value:
        raise _Invalid
    return value


_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


def _colours(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= 4:
        raise _Invalid
    for item in value:
        if not isinstance(item, str) or not _COLOUR.fullmatch(item):
            raise _Invalid
    return tuple(item.lower() for item in value)


def _odd_games(value: Any) -> int:
    games = _int_in(1, 99)(value)
    if games % 2 == 0:
        raise _Invalid
    return games


@dataclass(frozen=True)
class InputConfig:
    """How players enter things: the input kit and its pins (BCM numbers)."""

    kit: str = field(default="encoder", metadata=_meta(_one_of("encoder", "keypad"),
                                                        '"encoder" or "keypad"'))
    encoder_a: int = field(default=17, metadata=_meta(_pin, _PIN_ALLOWED))
    encoder_b: int = field(default=18, metadata=_meta(_pin, _PIN_ALLOWED))
    encoder_push: int = field(default=27, metadata=_meta(_pin, _PIN_ALLOWED))
    button_go: int = field(default=22, metadata=_meta(_pin, _PIN_ALLOWED))
    button_undo: int = field(default=23, metadata=_meta(_pin, _PIN_ALLOWED))
    button_menu: int = field(default=24, metadata=_meta(_pin, _PIN_ALLOWED))
    keypad_rows: tuple[int, ...] = field(
        default=(5, 6, 13, 19), metadata=_meta(_pins(4), f"a list of 4 pins, each {_PIN_ALLOWED}")
    )
    keypad_cols: tuple[int, ...] = field(
        default=(12, 16, 20, 21),
        metadata=_meta(_pins(4), f"a list of 4 pins, each {_PIN_ALLOWED}"),
    )
    hold_s: float = field(default=0.8, metadata=_meta(_number_in(0.2, 5.0),
                                                       "seconds from 0.2 to 5.0"))
    repeat_s: float = field(default=0.15, metadata=_meta(_number_in(0.03, 2.0),
                                                          "seconds from 0.03 to 2.0"))
    debounce_ms: int = field(default=20, metadata=_meta(_int_in(0, 200),
                                                         "whole milliseconds from 0 to 200"))

    def pins_in_use(self) -> dict[str, int]:
        """The pins the selected kit uses, by key name (the buttons belong to both kits)."""
        pins = {
            "button_go": self.button_go,
            "button_undo": self.button_undo,
            "button_menu": self.button_menu,
        }
        if self.kit == "encoder":
            pins |= {
                "encoder_a": self.encoder_a,
                "encoder_b": self.encoder_b,
                "encoder_push": self.encoder_push,
            }
        else:
            pins |= {f"keypad_rows[{i}]": pin for i, pin in enumerate(self.keypad_rows)}
            pins |= {f"keypad_cols[{i}]": pin for i, pin in enumerate(self.keypad_cols)}
        return pins


@dataclass(frozen=True)
class DisplayConfig:
    """The OLED: controller model and where it sits on the I2C bus."""

    model: str = field(default="ssd1306", metadata=_meta(_one_of("ssd1306", "sh1106"),
                                                          '"ssd1306" or "sh1106"'))
    i2c_port: int = field(default=1, metadata=_meta(_int_in(0, 22), "an I2C bus number 0-22"))
    i2c_address: int = field(default=0x3C, metadata=_meta(
        _int_in(0x03, 0x77), "a 7-bit I2C address 0x03-0x77 (usually 0x3C or 0x3D)"))
    rotate: int = field(default=0, metadata=_meta(_int_of(0, 1, 2, 3),
                                                   "0, 1, 2 or 3 (quarter turns)"))
    contrast: int = field(default=255, metadata=_meta(_int_in(0, 255), "a whole number 0-255"))


@dataclass(frozen=True)
class IdleConfig:
    """Screen saving: dim, then blank, after this long without input (0 = never)."""

    dim_after_s: int = field(default=180, metadata=_meta(_int_in(0, 86400),
                                                          "whole seconds 0-86400 (0 = never)"))
    blank_after_s: int = field(default=900, metadata=_meta(_int_in(0, 86400),
                                                            "whole seconds 0-86400 (0 = never)"))


@dataclass(frozen=True)
class LinkConfig:
    """The USB serial link to the Pico that drives the LED pegboard."""

    device: str = field(default="", metadata=_meta(
        _device, '"" (no LED pegboard), "auto", or a device path such as /dev/serial/by-id/...'))
    serial_number: str = field(default="", metadata=_meta(
        _serial_number, '"" (any) or a USB serial number (letters, digits, - and _)'))
    baudrate: int = field(default=115200, metadata=_meta(
        _int_of(9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600),
        "one of 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600"))


@dataclass(frozen=True)
class LedsConfig:
    """The LED strip: its length, layout, brightness cap, current budget and colours."""

    count: int = field(default=242, metadata=_meta(_int_in(1, 1024), "a whole number 1-1024"))
    sides: int = field(default=2, metadata=_meta(_int_of(2, 3), "2 or 3 (tracks on the board)"))
    serpentine: bool = field(default=True, metadata=_meta(_boolean, "true or false"))
    hole1_end: str = field(default="start", metadata=_meta(
        _one_of("start", "end"), '"start" (hole 1 at the data-in end) or "end"'))
    brightness: float = field(default=0.25, metadata=_meta(_number_in(0.0, 1.0),
                                                            "a number from 0.0 to 1.0"))
    budget_ma: int = field(default=500, metadata=_meta(_int_in(50, 10000),
                                                        "whole milliamps 50-10000"))
    colours: tuple[str, ...] = field(default=("#e02020", "#2050f0", "#20b040"), metadata=_meta(
        _colours, 'a list of 1-4 colours written "#rrggbb"'))


@dataclass(frozen=True)
class RulesConfig:
    """The rules a new game starts with (each can still be changed when starting a game)."""

    players: int = field(default=2, metadata=_meta(_int_of(2, 3, 4), "2, 3 or 4"))
    target: int = field(default=121, metadata=_meta(_int_of(121, 61), "121 or 61"))
    five_card: bool = field(default=False, metadata=_meta(_boolean, "true or false"))
    muggins: bool = field(default=False, metadata=_meta(_boolean, "true or false"))
    game_points: str = field(default="acc", metadata=_meta(_one_of("acc", "classic"),
                                                            '"acc" or "classic"'))
    match_games: int = field(default=1, metadata=_meta(_odd_games,
                                                        "an odd number of games 1-99"))


@dataclass(frozen=True)
class StoreConfig:
    """Where games are kept (see :mod:`pegboard.store` for the search order)."""

    path: str = field(default="", metadata=_meta(
        _store_path, '"" (the usual place) or a directory path'))


@dataclass(frozen=True)
class Config:
    """The whole configuration; ``Config()`` is every default."""

    input: InputConfig = field(default_factory=InputConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    idle: IdleConfig = field(default_factory=IdleConfig)
    link: LinkConfig = field(default_factory=LinkConfig)
    leds: LedsConfig = field(default_factory=LedsConfig)
    rules: RulesConfig = field(default_factory=RulesConfig)
    store: StoreConfig = field(default_factory=StoreConfig)


_SECTIONS: dict[str, type[Any]] = {
    "input": InputConfig,
    "display": DisplayConfig,
    "idle": IdleConfig,
    "link": LinkConfig,
    "leds": LedsConfig,
    "rules": RulesConfig,
    "store": StoreConfig,
}


def _unknown(kind: str, prefix: str, name: str, valid: list[str], source: str) -> ConfigError:
    """An unknown section or key, with the closest valid name (compared without the prefix)."""
    shape = "[{}]" if kind == "section" else prefix + "{}"
    close = difflib.get_close_matches(name, valid, n=1, cutoff=0.6)
    if close:
        hint = f" (did you mean {shape.format(close[0])}?)"
    else:
        hint = "; valid: " + ", ".join(shape.format(n) for n in sorted(valid))
    return ConfigError(f"{source}: unknown {kind} {shape.format(name)}{hint}")


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


def _build_section(cls: type[Any], section: str, table: Any, source: str) -> Any:
    if not isinstance(table, dict):
        raise ConfigError(f"{source}: [{section}] must be a table of keys, not {_show(table)}")
    specs = {f.name: f for f in dataclasses.fields(cls)}
    values: dict[str, Any] = {}
    for key, value in table.items():
        spec = specs.get(key)
        if spec is None:
            raise _unknown("key", f"{section}.", key, list(specs), source)
        try:
            values[key] = spec.metadata["check"](value)
        except _Invalid:
            raise ConfigError(
                f"{source}: {section}.{key} = {_show(value)} is not accepted; "
                f"allowed: {spec.metadata['allowed']}"
            ) from None
    return cls(**values)


def _check_whole(config: Config, source: str) -> None:
    """Rules that involve more than one key."""
    seen: dict[int, str] = {}
    for name, pin in config.input.pins_in_use().items():
        if pin in seen:
            raise ConfigError(
                f"{source}: input.{name} = {pin} is the same pin as input.{seen[pin]}; "
                f"allowed: a pin that no other input of the {config.input.kit} kit uses"
            )
        seen[pin] = name
    idle = config.idle
    if idle.dim_after_s and idle.blank_after_s and idle.blank_after_s < idle.dim_after_s:
        raise ConfigError(
            f"{source}: idle.blank_after_s = {idle.blank_after_s} is sooner than "
            f"idle.dim_after_s = {idle.dim_after_s}; allowed: 0 (never) or at least "
            f"{idle.dim_after_s}"
        )
    leds = config.leds
    if len(leds.colours) < leds.sides:
        raise ConfigError(
            f"{source}: leds.colours has {len(leds.colours)} colour(s) but leds.sides = "
            f"{leds.sides}; allowed: at least one colour per side"
        )


def config_from_dict(data: Mapping[str, Any], source: str = "<config>") -> Config:
    """Build a checked :class:`Config` from parsed TOML data (sections of keys)."""
    sections = _SECTIONS
    built: dict[str, Any] = {}
    for name, table in data.items():
        cls = sections.get(name)
        if cls is None and not isinstance(table, dict):
            raise ConfigError(
                f"{source}: unknown key {name} outside any section; keys belong in one of "
                f"{', '.join(f'[{n}]' for n in sections)}"
            )
        if cls is None:
            raise _unknown("section", "", name, list(sections), source)
        built[name] = _build_section(cls, name, table, source)
    config = Config(**built)
    _check_whole(config, source)
    return config


def parse_config(text: str, source: str = "<string>") -> Config:
    """Parse TOML text into a checked :class:`Config`."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{source}: not valid TOML: {error}") from None
    return config_from_dict(data, source)


def load_config(path: str | Path | None = None) -> Config:
    """Read the config file at ``path``; ``None`` means the default file, if it exists.

    A missing default file gives every default. A file named on purpose that does not exist
    or cannot be read is an error.
    """
    if path is None:
        if not DEFAULT_CONFIG_PATH.exists():
            return Config()
        path = DEFAULT_CONFIG_PATH
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except OSError as error:
        raise ConfigError(f"{path}: cannot read the config file: {error.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: the config file is not UTF-8 text") from None
    return parse_config(text, str(path))


def to_toml(config: Config) -> str:
    """Write ``config`` as TOML text that :func:`parse_config` reads back to the same value."""
    lines: list[str] = []
    for section in dataclasses.fields(config):
        lines.append(f"[{section.name}]")
        table = getattr(config, section.name)
        for spec in dataclasses.fields(table):
            lines.append(f"{spec.name} = {_toml_value(getattr(table, spec.name))}")
        lines.append("")
    return "\n".join(lines)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, tuple):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    return repr(value)
