"""The config file: defaults, validation messages, unknown keys, the shipped example."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

import pytest

from pegboard import config as config_module
from pegboard.config import (
    Config,
    ConfigError,
    DisplayConfig,
    load_config,
    parse_config,
    to_toml,
)
from pegboard.errors import PegboardError

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "systemd" / "config.example.toml"


def test_defaults_match_the_team_conventions() -> None:
    config = Config()
    assert (config.input.encoder_a, config.input.encoder_b, config.input.encoder_push) == (
        17,
        18,
        27,
    )
    assert (config.input.button_go, config.input.button_undo, config.input.button_menu) == (
        22,
        23,
        24,
    )
    assert config.input.keypad_rows == (5, 6, 13, 19)
    assert config.input.keypad_cols == (12, 16, 20, 21)
    assert config.display == DisplayConfig(model="ssd1306", i2c_port=1, i2c_address=0x3C)
    assert (config.idle.dim_after_s, config.idle.blank_after_s) == (180, 900)
    assert config.leds.budget_ma == 500
    assert config.link.device == ""
    assert (config.rules.target, config.rules.players) == (121, 2)


def test_example_config_is_every_default_and_names_every_key() -> None:
    assert load_config(EXAMPLE) == Config()
    data = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    for section in dataclasses.fields(Config):
        table = getattr(Config(), section.name)
        keys = {spec.name for spec in dataclasses.fields(table)}
        assert set(data[section.name]) == keys, section.name


def test_to_toml_round_trips_a_non_default_config() -> None:
    config = parse_config(
        '[input]\nkit = "keypad"\nkeypad_rows = [4, 6, 13, 19]\n'
        '[display]\nmodel = "sh1106"\ni2c_address = 0x3D\nrotate = 2\n'
        '[link]\ndevice = "/dev/serial/by-id/usb-MicroPython_x-if00"\n'
        '[leds]\nsides = 3\nserpentine = false\nbrightness = 1\n'
        '[store]\npath = "/srv/pegboard \\"games\\""\n'
    )
    assert config.display.i2c_address == 0x3D
    assert config.leds.brightness == 1.0
    assert config.store.path == '/srv/pegboard "games"'
    assert parse_config(to_toml(config)) == config


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('[display]\nmodel = "ssd1309"', 'display.model = "ssd1309" is not accepted; allowed: '
         '"ssd1306" or "sh1106"'),
        ("[display]\ni2c_address = 0x80", "display.i2c_address = 128 is not accepted"),
        ("[display]\nrotate = 90", "display.rotate = 90 is not accepted; allowed: 0, 1, 2 or 3"),
        ("[display]\ncontrast = true", "display.contrast = true is not accepted"),
        ("[input]\nencoder_a = 3", "input.encoder_a = 3 is not accepted; allowed: a BCM GPIO"),
        ("[input]\nbutton_go = 40", "input.button_go = 40 is not accepted"),
        ('[input]\nbutton_go = "22"', 'input.button_go = "22" is not accepted'),
        ("[input]\nkeypad_rows = [5, 6, 13]", "input.keypad_rows = [5, 6, 13] is not accepted;"
         " allowed: a list of 4 pins"),
        ("[input]\nhold_s = 0", "input.hold_s = 0 is not accepted; allowed: seconds from 0.2"),
        ('[input]\nkit = "joystick"', 'input.kit = "joystick" is not accepted'),
        ("[idle]\ndim_after_s = -1", "idle.dim_after_s = -1 is not accepted"),
        ('[link]\ndevice = "COM3"', 'link.device = "COM3" is not accepted; allowed: ""'),
        ("[link]\nbaudrate = 12345", "link.baudrate = 12345 is not accepted"),
        ('[link]\nserial_number = "a b"', 'link.serial_number = "a b" is not accepted'),
        ("[leds]\nbrightness = 1.5", "leds.brightness = 1.5 is not accepted; allowed: a number"),
        ('[leds]\ncolours = ["red"]', "leds.colours = ['red'] is not accepted; allowed: a list"),
        ("[leds]\nsides = 4", "leds.sides = 4 is not accepted; allowed: 2 or 3"),
        ('[leds]\nhole1_end = "left"', 'leds.hole1_end = "left" is not accepted'),
        ("[leds]\nserpentine = 1", "leds.serpentine = 1 is not accepted; allowed: true or false"),
        ("[rules]\ntarget = 100", "rules.target = 100 is not accepted; allowed: 121 or 61"),
        ("[rules]\nmatch_games = 2", "rules.match_games = 2 is not accepted; allowed: an odd"),
        ('[rules]\ngame_points = "ACC"', 'rules.game_points = "ACC" is not accepted'),
        ("[rules]\nplayers = 5", "rules.players = 5 is not accepted; allowed: 2, 3 or 4"),
        ("[store]\npath = 3", "store.path = 3 is not accepted"),
    ],
)
def test_bad_values_name_the_key_the_value_and_what_is_allowed(text: str, expected: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(text, "my.toml")
    assert str(caught.value).startswith("my.toml: ")
    assert expected in str(caught.value)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('[display]\nmodle = "sh1106"', "unknown key display.modle (did you mean display.model?)"),
        ("[idel]\ndim_after_s = 1", "unknown section [idel] (did you mean [idle]?)"),
        ("[leds]\nbrightnes = 0.5", "(did you mean leds.brightness?)"),
        ("[display]\nzzz = 1", "unknown key display.zzz; valid: display.contrast"),
        ("contrast = 3", "unknown key contrast outside any section"),
        ("display = 3", "[display] must be a table of keys"),
    ],
)
def test_unknown_names_are_errors_with_a_suggestion(text: str, expected: str) -> None:
    with pytest.raises(ConfigError, match=r".") as caught:
        parse_config(text)
    assert expected in str(caught.value)


def test_keys_that_must_agree() -> None:
    with pytest.raises(ConfigError, match=r"input\.encoder_a = 22 is the same pin as "
                       r"input\.button_go"):
        parse_config("[input]\nencoder_a = 22")
    # The keypad's pins are not checked against the encoder's when the encoder is not fitted.
    keypad = parse_config('[input]\nkit = "keypad"\nkeypad_rows = [17, 18, 27, 19]')
    assert keypad.input.keypad_rows == (17, 18, 27, 19)
    with pytest.raises(ConfigError, match=r"keypad_cols\[0\] = 22 is the same pin"):
        parse_config('[input]\nkit = "keypad"\nkeypad_cols = [22, 16, 20, 21]')
    with pytest.raises(ConfigError, match=r"idle\.blank_after_s = 60 is sooner than"):
        parse_config("[idle]\nblank_after_s = 60")
    assert parse_config("[idle]\nblank_after_s = 0").idle.blank_after_s == 0
    with pytest.raises(ConfigError, match=r"leds\.colours has 2 colour"):
        parse_config('[leds]\nsides = 3\ncolours = ["#ffffff", "#000000"]')


def test_bad_toml_is_a_config_error_with_the_position() -> None:
    with pytest.raises(ConfigError, match=r"not valid TOML: .*line 2"):
        parse_config('[display]\nmodel = "ssd1306\n')


def test_load_config_default_path_missing_means_defaults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(config_module, "DEFAULT_CONFIG_PATH", tmp_path / "none.toml")
    assert load_config(None) == Config()
    (tmp_path / "none.toml").write_text("[idle]\ndim_after_s = 5\n", encoding="utf-8")
    assert load_config(None).idle.dim_after_s == 5


def test_load_config_named_file_must_exist_and_be_text(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(tmp_path / "missing.toml")
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe[display]")
    with pytest.raises(ConfigError, match="not UTF-8"):
        load_config(binary)
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path)


def test_config_error_is_a_value_error_and_config_is_frozen() -> None:
    assert issubclass(ConfigError, PegboardError)
    assert issubclass(ConfigError, ValueError)
    with pytest.raises(dataclasses.FrozenInstanceError):
        Config().display.model = "sh1106"  # type: ignore[misc]
