"""Reading a config: the file, its TOML, each section's keys, then the rules across sections;
and writing a :class:`~pegboard.config.schema.Config` back as TOML."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pegboard import lazy
from pegboard.config import messages
from pegboard.config.schema import SECTIONS, Config, build, section_keys, section_values
from pegboard.config.values import Invalid
from pegboard.errors import ConfigError, not_utf8

if TYPE_CHECKING:
    import tomllib

    from pegboard.config import toml_guard
else:
    toml_guard = lazy.module("pegboard.config.toml_guard")
    tomllib = lazy.module("tomllib")

DEFAULT_CONFIG_PATH = Path("/etc/pegboard/config.toml")

MAX_CONFIG_BYTES = 65_536
"""The largest config file read (the example, every key with its comment, is under 4 KiB)."""


def _section(section: str, table: Any, source: str) -> dict[str, Any]:
    """``[section]``'s keys, each checked."""
    if not isinstance(table, dict):
        raise ConfigError(
            f"{source}: [{section}] must be a table of keys, not {messages.show(table)}"
        )
    keys = section_keys(section)
    values: dict[str, Any] = {}
    for name, value in table.items():
        key = keys.get(name)
        if key is None:
            raise messages.unknown("key", f"{section}.", name, list(keys), source)
        try:
            values[name] = key.check(value)
        except Invalid:
            raise ConfigError(
                f"{source}: {section}.{name} = {messages.show(value)} is not accepted; "
                f"allowed: {key.allowed}"
            ) from None
    return values


def _check_whole(config: Config, source: str) -> None:
    """Rules that involve more than one key."""
    for problem in (config.input.problem(i2s_amp=config.voice.i2s_amp),
                    config.idle.problem(), config.leds.problem(), config.club.problem()):
        if problem is not None:
            raise ConfigError(f"{source}: {problem}")


def config_from_dict(data: Mapping[str, Any], source: str = "<config>") -> Config:
    """Build a checked :class:`Config` from parsed TOML data (sections of keys)."""
    built: dict[str, Any] = {}
    for name, table in data.items():
        if name not in SECTIONS and not isinstance(table, dict):
            raise ConfigError(
                f"{source}: unknown key {messages.name(name)} outside any section; keys belong "
                f"in one of {', '.join(f'[{n}]' for n in SECTIONS)}"
            )
        if name not in SECTIONS:
            raise messages.unknown("section", "", name, list(SECTIONS), source)
        build(built, name, _section(name, table, source))
    config = Config(**built)
    _check_whole(config, source)
    return config


def parse_config(text: str, source: str = "<string>") -> Config:
    """Parse TOML text into a checked :class:`Config`.

    Before tomllib sees the text, :func:`~pegboard.config.toml_guard.check_shape` refuses what
    would break tomllib itself: arrays or inline tables nested too deep and numbers too long
    to read. The message names the line and the key being set.

    >>> parse_config("[leds]\\ncount = " + "9" * 30)
    Traceback (most recent call last):
    ...
    pegboard.errors.ConfigError: <string>: line 2: leds.count = a number of 30 digits
    (999999999999…); allowed: numbers of at most 24 digits
    """
    toml_guard.check_shape(text, source)
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
    if not str(path).isprintable():
        # Every message starts with the name, so it must print on one line; a NUL or a byte
        # that is not UTF-8 (a lone surrogate) cannot even be opened.
        raise ConfigError(f"{str(path)!r}: not a config file name; give a path without "
                          "control characters, in UTF-8")
    return parse_config(_text(_read(path), path), str(path))


def _read(path: Path) -> bytes:
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
    return raw


def _text(raw: bytes, path: Path) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ConfigError(f"{path}: {not_utf8(raw, error)}; the config file is UTF-8 text"
                          ) from None


def to_toml(config: Config) -> str:
    """Write ``config`` as TOML text that :func:`parse_config` reads back to the same value."""
    lines: list[str] = []
    for section in SECTIONS:
        lines.append(f"[{section}]")
        for name, value in section_values(config, section).items():
            lines.append(f"{name} = {_toml_value(value)}")
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
