"""The Pegboard configuration file: one TOML file read into frozen dataclasses.

The default file is ``/etc/pegboard/config.toml``; ``pegboard run --config PATH`` names
another. A missing default file means "all defaults"; a file named on purpose must exist.

Every key is checked. A bad value raises :class:`~pegboard.errors.ConfigError` with a message
that names the key (``display.model``), quotes the value and says what is allowed. Unknown
sections and keys are errors too, with the closest valid name suggested, because a typo must
never silently do nothing. Before the TOML is parsed, the text is checked for what would
break the parser itself (see :func:`parse_config`): a file of at most 64 KiB, arrays and
inline tables nested at most 4 deep, numbers of at most 24 digits.

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
    under ``/dev/`` such as
    ``/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_e6614c311b7e6f35-if00``;
    ``serial_number`` ``""`` (any) or the Pico's USB serial number; ``baudrate`` 115200 (set
    on the port when it is opened; the Pico's USB serial runs at USB speed whatever it is,
    it matters only for a board behind a USB-to-UART adapter).
``[leds]``
    ``count`` 242 (LEDs on the chain), ``sides`` 2 (tracks: 2 or 3), ``serpentine`` true (the
    chain snakes back and forth), ``hole1_end`` ``"start"`` (hole 1 is at the data-in end of
    the chain) or ``"end"``; ``order`` ``"street"`` (row after row) or ``"track"`` (track
    after track); ``skip`` 0 (unlit LEDs at the start of the chain, such as a sacrificial
    level-shifting LED); ``brightness`` 0.25 (cap, 0.0-1.0); ``budget_ma`` 500 (whole-frame
    current budget); ``colours`` ["#e02020", "#2050f0", "#20b040"] (one per track).
``[rules]`` (the defaults offered when a new game starts)
    ``players`` 2 (2, 3 or 4); ``target`` 121 or 61; ``five_card`` false; ``muggins`` false;
    ``game_points`` ``"acc"`` or ``"classic"``; ``match_games`` 1 (best of N, N odd).
``[voice]`` (spoken awards and counts, see docs/voice.md)
    ``enabled`` false (``pegboard sim --voice`` turns it on); ``voice`` ``"en-gb"`` (an
    espeak-ng voice); ``language`` ``"en"`` (the language of the phrases); ``rate`` 160 (words
    a minute, 80-450); ``volume`` 100 (0-200); ``device`` ``""`` (the system's default sound
    output) or an ALSA device such as ``"plughw:CARD=MAX98357A,DEV=0"``; ``i2s_amp`` false
    (true: a MAX98357A amplifier on GPIO 18, 19 and 21, which no input may then use).
``[store]``
    ``path`` ``""`` (the usual search: ``--store``, ``$PEGBOARD_STORE``,
    ``$STATE_DIRECTORY``, the user data directory) or an absolute directory for the game
    store (a relative one would depend on the working directory: under systemd that is
    ``/run/pegboard``, emptied when the service stops).

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
import json
import posixpath
import re
import reprlib
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pegboard.errors import ConfigError

DEFAULT_CONFIG_PATH = Path("/etc/pegboard/config.toml")

MAX_CONFIG_BYTES = 65_536
"""The largest config file read (the example, every key with its comment, is under 4 KiB)."""

MAX_NESTING = 4
"""The deepest nesting of arrays and inline tables (a config needs 2: ``input = {rows = [...]}``);
tomllib recurses once per level and would exhaust the stack."""

MAX_DIGITS = 24
"""The longest run of digits in a number (Python refuses to read an integer of 4,301 digits)."""

MAX_PATH = 4096
"""The longest path accepted (Linux's PATH_MAX)."""

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


def _path_text(value: Any) -> str:
    """A path as text: at most MAX_PATH characters, all printable (no NUL, no line breaks).

    A NUL makes every open() raise ValueError (not OSError), far from the config file.
    """
    if not isinstance(value, str) or len(value) > MAX_PATH or not value.isprintable():
        raise _Invalid
    return value


def _device(value: Any) -> str:
    """``""``, ``"auto"`` or a path that stays under /dev/ once ``..`` is resolved.

    The link opens it with pyserial's ``Serial(path)``, which takes paths only, not URLs.
    """
    if value in ("", "auto"):
        return str(value)
    path = _path_text(value)
    if not path.startswith("/dev/") or not posixpath.normpath(path).startswith("/dev/"):
        raise _Invalid
    return path


def _serial_number(value: Any) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"[0-9A-Za-z_-]{0,64}", value):
        raise _Invalid
    return value


def _store_path(value: Any) -> str:
    """``""`` or an absolute path: a relative one would be resolved from the service's working
    directory (``/run/pegboard`` under systemd), which is emptied when the service stops."""
    if value == "":
        return ""
    path = _path_text(value)
    if not path.startswith("/"):
        raise _Invalid
    return path


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
        _device, '"" (no LED pegboard), "auto", or a device path under /dev/ such as '
        '/dev/serial/by-id/...'))
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
    order: str = field(default="street", metadata=_meta(
        _one_of("street", "track"), '"street" (the chain goes row after row down the board) or '
        '"track" (all of side 1\'s track, then side 2\'s)'))
    skip: int = field(default=0, metadata=_meta(
        _int_in(0, 100), "whole LEDs 0-100 at the start of the chain that are never lit"))
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
        _store_path, '"" (the usual place) or an absolute directory path such as '
        '"/var/lib/pegboard"'))


_VOICE_NAME = re.compile(r"[A-Za-z0-9_+-]{1,40}")
_ALSA_NAME = re.compile(r"[A-Za-z0-9_:,=.-]{1,64}")

I2S_PINS = (18, 19, 21)
"""The I2S pins an I2S amplifier takes (BCLK, LRCLK, DIN): fixed by the Pi's PCM block."""


def _voice_name(value: Any) -> str:
    if not isinstance(value, str) or not _VOICE_NAME.fullmatch(value):
        raise _Invalid
    return value


def _alsa_device(value: Any) -> str:
    if value == "":
        return ""
    if not isinstance(value, str) or not _ALSA_NAME.fullmatch(value):
        raise _Invalid
    return value


@dataclass(frozen=True)
class VoiceConfig:
    """Speech: whether the device says awards and counts aloud, and how (espeak-ng)."""

    enabled: bool = field(default=False, metadata=_meta(_boolean, "true or false"))
    voice: str = field(default="en-gb", metadata=_meta(
        _voice_name, 'an espeak-ng voice name such as "en-gb" or "en-us" (espeak-ng --voices '
        "lists them)"))
    language: str = field(default="en", metadata=_meta(
        _one_of("en"), '"en" (the languages whose phrases are written)'))
    rate: int = field(default=160, metadata=_meta(_int_in(80, 450),
                                                   "words a minute, a whole number 80-450"))
    volume: int = field(default=100, metadata=_meta(_int_in(0, 200), "a whole number 0-200"))
    device: str = field(default="", metadata=_meta(
        _alsa_device, '"" (the default sound output) or an ALSA device name such as '
        '"plughw:CARD=MAX98357A,DEV=0" or "hw:1,0"'))
    i2s_amp: bool = field(default=False, metadata=_meta(_boolean, "true or false"))


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
    voice: VoiceConfig = field(default_factory=VoiceConfig)


_SECTIONS: dict[str, type[Any]] = {
    "input": InputConfig,
    "display": DisplayConfig,
    "idle": IdleConfig,
    "link": LinkConfig,
    "leds": LedsConfig,
    "rules": RulesConfig,
    "store": StoreConfig,
    "voice": VoiceConfig,
}


def _name(name: str) -> str:
    """A section or key name for a message: as written when it is a plain word, else quoted
    with escapes and shortened (a quoted TOML key can hold anything)."""
    if re.fullmatch(r"[A-Za-z0-9_-]{1,40}", name):
        return name
    return _quote(name)


def _unknown(kind: str, prefix: str, name: str, valid: list[str], source: str) -> ConfigError:
    """An unknown section or key, with the closest valid name (compared without the prefix)."""
    shape = "[{}]" if kind == "section" else prefix + "{}"
    # difflib is quadratic in the name's length; no valid name is longer than 15.
    close = difflib.get_close_matches(name[:40], valid, n=1, cutoff=0.6)
    name = _name(name)
    if close:
        hint = f" (did you mean {shape.format(close[0])}?)"
    else:
        hint = "; valid: " + ", ".join(shape.format(n) for n in sorted(valid))
    return ConfigError(f"{source}: unknown {kind} {shape.format(name)}{hint}")


def _quote(text: str, limit: int = 60) -> str:
    """A string as TOML writes it, control characters escaped, cut to ``limit`` characters."""
    shown = json.dumps(text[:limit], ensure_ascii=False)
    return shown if len(text) <= limit else shown[:-1] + '…"'


class _Short(reprlib.Repr):
    """repr() for values in messages: a few levels and items, long ints by their size."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel, self.maxlist, self.maxdict, self.maxstring, self.maxother = 3, 6, 4, 40, 40

    def repr_int(self, x: int, level: int) -> str:
        if abs(x) < 10**15:
            return repr(x)
        if x.bit_length() < 14_000:  # under 4,215 digits: str() can spell it out
            return f"<a number of {len(str(abs(x)))} digits>"
        # str() of an int of 4,301 digits or more raises ValueError (0x... reads any size).
        return f"<a number of about {int(x.bit_length() * 0.30103)} digits>"

    def repr_str(self, x: str, level: int) -> str:
        return _quote(x, self.maxstring)

    def repr_datetime(self, x: Any, level: int) -> str:
        return str(x.isoformat())

    repr_date = repr_time = repr_datetime


_SHORT = _Short()


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return _quote(value)
    return _SHORT.repr(value)


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
    if config.voice.i2s_amp:
        for name, pin in config.input.pins_in_use().items():
            if pin in I2S_PINS:
                raise ConfigError(
                    f"{source}: input.{name} = {pin} is an I2S pin, and voice.i2s_amp = true "
                    f"puts the amplifier on GPIO {', '.join(map(str, I2S_PINS))}; allowed: "
                    "another pin for the input (hardware/audio.md lists free ones), or "
                    "voice.i2s_amp = false with a USB speaker or the Pi's audio out"
                )
    idle = config.idle
    if idle.dim_after_s and idle.blank_after_s and idle.blank_after_s < idle.dim_after_s:
        raise ConfigError(
            f"{source}: idle.blank_after_s = {idle.blank_after_s} is sooner than "
            f"idle.dim_after_s = {idle.dim_after_s}; allowed: 0 (never) or at least "
            f"{idle.dim_after_s}"
        )
    leds = config.leds
    needed = leds.skip + leds.sides * 120 + 1
    if leds.count < needed:
        raise ConfigError(
            f"{source}: leds.count = {leds.count} is too few for leds.sides = {leds.sides} and "
            f"leds.skip = {leds.skip}; allowed: at least {needed} (the skipped LEDs, 120 per "
            "track and the game hole)"
        )
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
                f"{source}: unknown key {_name(name)} outside any section; keys belong in one of "
                f"{', '.join(f'[{n}]' for n in sections)}"
            )
        if cls is None:
            raise _unknown("section", "", name, list(sections), source)
        built[name] = _build_section(cls, name, table, source)
    config = Config(**built)
    _check_whole(config, source)
    return config


def parse_config(text: str, source: str = "<string>") -> Config:
    """Parse TOML text into a checked :class:`Config`.

    Before tomllib sees the text, :func:`_check_shape` refuses what would break tomllib
    itself: arrays or inline tables nested more than :data:`MAX_NESTING` deep (it recurses
    once per level) and a run of more than :data:`MAX_DIGITS` digits (Python will not read an
    integer of 4,301). The message names the line and the key being set.

    >>> parse_config("[leds]\\ncount = " + "9" * 30)
    Traceback (most recent call last):
    ...
    pegboard.errors.ConfigError: <string>: line 2: leds.count = a number of 30 digits
    (999999999999…); allowed: numbers of at most 24 digits
    """
    _check_shape(text, source)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{source}: not valid TOML: {error}") from None
    return config_from_dict(data, source)


_DIGIT_RUN = re.compile(rf"[0-9_]{{{MAX_DIGITS + 1},}}")


def _check_shape(text: str, source: str) -> None:
    """Refuse nesting deeper than MAX_NESTING and digit runs longer than MAX_DIGITS.

    A small TOML lexer: it skips comments and the four kinds of strings (so brackets and
    digits inside them do not count) and remembers the section and the key being set, to
    name them. Text that is not valid TOML is left for tomllib to describe.
    """
    depth = 0
    line = 1
    section = ""
    pending = ""  # what stands before "=" at depth 0 on this line: the key being set
    key = ""
    i = 0
    n = len(text)

    def where() -> str:
        name = key or pending.strip() or "the text"
        return f"{section}.{name}" if section and (key or pending.strip()) else name

    while i < n:
        char = text[i]
        if char == "\n":
            line += 1
            if depth == 0:
                pending = key = ""
            i += 1
        elif char == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text.startswith(('"""', "'''"), i):
            quote = text[i:i + 3]
            end = _string_end(text, i + 3, quote)
            line += text.count("\n", i, end)
            if depth == 0 and not key:
                pending += text[i:end]
            i = end
        elif char in "\"'":
            end = _string_end(text, i + 1, char)
            if depth == 0 and not key:
                pending += text[i:end]
            i = end
        elif char in "[{":
            depth += 1
            if depth > MAX_NESTING:
                raise ConfigError(
                    f"{source}: line {line}: {where()} nests arrays or inline tables more "
                    f"than {MAX_NESTING} deep; allowed: at most {MAX_NESTING} levels (a list of "
                    "pins or colours is one)"
                )
            if depth == 1 and not key and not pending.strip():
                # A [section] or [[array]] header: the section is the text up to "]".
                end = text.find("]", i)
                header = text[i + 1:end if end >= 0 else n].strip("[ \t")
                section = header if re.fullmatch(r"[A-Za-z0-9_.-]{1,40}", header) else ""
            i += 1
        elif char in "]}":
            depth = max(0, depth - 1)
            i += 1
        elif char == "=" and depth == 0 and not key:
            key = pending.strip()
            i += 1
        else:
            # A bare word: a key, a number, a date, true or false (anything up to a character
            # that means something else).
            special = _SPECIAL.search(text, i + 1)
            end = n if special is None else special.start()
            run = _DIGIT_RUN.search(text, i, end)
            if run is not None:
                digits = run.group().replace("_", "")
                raise ConfigError(
                    f"{source}: line {line}: {where()} = a number of {len(digits):,} digits "
                    f"({digits[:12]}…); allowed: numbers of at most {MAX_DIGITS} digits"
                )
            if depth == 0 and not key:
                pending += text[i:end]
            i = end


# The rest of a string after its opening quote(s), up to and including the closing ones (or
# to the end of the line, or of the text, when it is not closed: tomllib will say so). The
# basic forms are written as unrolled loops, linear on any input.
_STRING_REST = {
    '"': re.compile(r'[^"\\\n]*(?:\\.[^"\\\n]*)*"?'),
    "'": re.compile(r"[^'\n]*'?"),
    '"""': re.compile(r'[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*(?:"""|\Z)', re.S),
    "'''": re.compile(r"[^']*(?:'(?!'')[^']*)*(?:'''|\Z)"),
}
_SPECIAL = re.compile(r"[\n#\"'\[\]{}=]")


def _string_end(text: str, start: int, quote: str) -> int:
    """The index just past the string whose opening ``quote`` ends before ``start``."""
    rest = _STRING_REST[quote].match(text, start)
    return len(text) if rest is None else rest.end()


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
    if not str(path).isprintable():
        # Every message starts with the name, so it must print on one line; a NUL or a byte
        # that is not UTF-8 (a lone surrogate) cannot even be opened.
        raise ConfigError(f"{str(path)!r}: not a config file name; give a path without "
                          "control characters, in UTF-8")
    try:
        with path.open("rb") as stream:
            # Read one byte more than allowed: enough to know the file is too large, and
            # `--config /dev/zero` cannot fill the memory.
            raw = stream.read(MAX_CONFIG_BYTES + 1)
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except OSError as error:
        raise ConfigError(
            f"{path}: cannot read the config file: {error.strerror or error}"
        ) from None
    if len(raw) > MAX_CONFIG_BYTES:
        raise ConfigError(
            f"{path}: the config file is larger than {MAX_CONFIG_BYTES // 1024} KiB; allowed: "
            "a TOML file like systemd/config.example.toml (under 4 KiB)"
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        column = error.start - (raw.rfind(b"\n", 0, error.start) + 1) + 1
        raise ConfigError(
            f"{path}: line {line}, byte {column} is not UTF-8 "
            f"({raw[error.start:error.end].hex(' ')}: {error.reason}); the config file is "
            "UTF-8 text"
        ) from None
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
