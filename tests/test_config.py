"""The config file: defaults, validation messages, unknown keys, the shipped example."""

from __future__ import annotations

import re
import textwrap
import tomllib
from pathlib import Path

import pytest

from pegboard.config import (
    Config,
    ConfigError,
    DisplayConfig,
    load_config,
    parse_config,
    to_toml,
)
from pegboard.config import reading as config_reading
from pegboard.config.schema import SECTIONS, section_keys
from pegboard.errors import PegboardError
from pegboard.rules.value import FrozenInstanceError
from tests.support.configs import refusal
from tests.support.firmware import load_firmware

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "systemd" / "config.example.toml"


def test_defaults_match_the_team_conventions() -> None:
    config = Config()
    assert (config.input.encoder_a, config.input.encoder_b, config.input.encoder_push) == (
        17,
        25,
        27,
    )
    assert (config.input.button_go, config.input.button_undo, config.input.button_menu) == (
        22,
        23,
        24,
    )
    assert config.input.keypad_rows == (5, 6, 13, 26)
    assert config.input.keypad_cols == (12, 16, 4, 7)
    assert config.display == DisplayConfig(model="ssd1306", i2c_port=1, i2c_address=0x3C)
    assert (config.idle.dim_after_s, config.idle.blank_after_s) == (180, 900)
    assert config.leds.budget_ma == 500
    assert config.link.device == ""
    assert (config.rules.target, config.players) == (121, 2)


def test_example_config_is_every_default_and_names_every_key() -> None:
    assert load_config(EXAMPLE) == Config()
    data = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    assert list(data) == list(SECTIONS)
    for section in SECTIONS:
        assert set(data[section]) == set(section_keys(section)), section


def test_the_default_led_count_is_the_chain_a_two_track_board_uses() -> None:
    """The skipped LEDs, 120 a track and the game hole: 241 for the default board, and the
    config, the firmware, the example file and the build's docs all say so."""
    leds = Config().leds
    assert leds.count == leds.skip + leds.sides * 120 + 1 == 241
    assert leds.problem() is None
    with pytest.raises(ConfigError, match=r"leds\.count = 240 is too few"):
        parse_config("[leds]\ncount = 240")
    assert load_firmware("pb_layout").DEFAULT_CFG["n"] == leds.count
    # The builder's config block in hardware/README.md and its parts list.
    readme = (ROOT / "hardware" / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```toml\n(.*?)```", readme, flags=re.DOTALL)
    counts = [tomllib.loads(textwrap.dedent(block))["leds"] for block in blocks
              if "[leds]" in block]
    assert {(block.get("skip", 0), block["count"]) for block in counts} == {(0, 241), (1, 242)}
    assert "2 tracks need 241 LEDs" in readme


def test_the_led_count_has_the_firmwares_bound() -> None:
    """The firmware refuses a chain of more than 1000 LEDs; the config file does too, when it
    is read, not when the link starts."""
    assert parse_config("[leds]\ncount = 1000").leds.count == 1000
    with pytest.raises(ConfigError, match=r"leds\.count = 1001 is not accepted; allowed: a whole "
                       r"number 1-1000"):
        parse_config("[leds]\ncount = 1001")
    proto = load_firmware("pb_proto")
    fields = {"n": "1001", "tracks": "2", "order": "street", "serp": "1", "end": "left",
              "skip": "0", "cap": "128", "ma": "500", "hb": "1000"}
    with pytest.raises(proto.ProtocolError):
        proto.parse_cfg(list(fields.items()))
    assert proto.parse_cfg(list({**fields, "n": "1000"}.items()))["n"] == 1000


def test_to_toml_round_trips_a_non_default_config() -> None:
    config = parse_config(
        '[input]\nkit = "keypad"\nkeypad_rows = [9, 6, 13, 19]\n'
        '[display]\nmodel = "sh1106"\ni2c_address = 0x3D\nrotate = 2\n'
        '[link]\ndevice = "/dev/serial/by-id/usb-MicroPython_x-if00"\n'
        '[leds]\nsides = 3\ncount = 362\nserpentine = false\nbrightness = 1\n'
        'order = "track"\nskip = 1\n'
        '[store]\npath = "/srv/pegboard \\"games\\""\n'
    )
    assert config.display.i2c_address == 0x3D
    assert config.leds.brightness == 1.0
    assert (config.leds.order, config.leds.skip) == ("track", 1)
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
        ('[leds]\ncolours = ["red"]', 'leds.colours = ["red"] is not accepted; allowed: a list'),
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
    assert expected in refusal(text)


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
        parse_config('[leds]\nsides = 3\ncount = 361\ncolours = ["#ffffff", "#000000"]')
    with pytest.raises(ConfigError, match=r"leds\.count = 241 is too few for leds\.sides = 2 "
                       r"and leds\.skip = 1; allowed: at least 242"):
        parse_config("[leds]\ncount = 241\nskip = 1")


def test_bad_toml_is_a_config_error_with_the_position() -> None:
    with pytest.raises(ConfigError, match=r"not valid TOML: .*line 2"):
        parse_config('[display]\nmodel = "ssd1306\n')


def test_load_config_default_path_missing_means_defaults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(config_reading, "DEFAULT_CONFIG_PATH", tmp_path / "none.toml")
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
    with pytest.raises(FrozenInstanceError):
        Config().display.model = "sh1106"  # type: ignore[misc]


# -- what would break the parser, and values that are accepted but would fail later ------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[leds]\ncount = " + "[" * 100_000 + "]" * 100_000,
         "my.toml: line 2: leds.count nests arrays or inline tables more than 4 deep; allowed: "
         "at most 4 levels"),
        ("[input]\nkeypad_rows = [1,\n" + "{a = " * 50 + "1" + "}" * 50 + "]",
         "my.toml: line 3: input.keypad_rows nests arrays or inline tables more than 4 deep"),
        ("x = " + "{a = " * 3000 + "1" + "}" * 3000, "my.toml: line 1: x nests arrays"),
        ("[leds]\ncount = " + "9" * 5000,
         "my.toml: line 2: leds.count = a number of 5,000 digits (999999999999…); allowed: "
         "numbers of at most 24 digits"),
        ("[leds]\ncount = 1_000_000_000_000_000_000_000_000",
         "my.toml: line 2: leds.count = a number of 25 digits"),
        ("[leds]\ncount = 0x" + "f" * 5000,
         "my.toml: leds.count = <a number of about 6020 digits> is not accepted; allowed: a "
         "whole number 1-1000"),
        ("[idle]\ndim_after_s = 12345678901234567890",
         "my.toml: idle.dim_after_s = <a number of 20 digits> is not accepted"),
        ("[input]\nhold_s = nan", "my.toml: input.hold_s = nan is not accepted"),
        ("[leds]\nbrightness = inf", "my.toml: leds.brightness = inf is not accepted"),
        ('[store]\npath = "games"', 'my.toml: store.path = "games" is not accepted; allowed: "" '
         '(the usual place) or an absolute directory path such as "/var/lib/pegboard"'),
        ('[store]\npath = "~/games"', 'store.path = "~/games" is not accepted'),
        ('[store]\npath = "/var/lib/\\u0000x"', 'store.path = "/var/lib/\\u0000x" is not'),
        ('[store]\npath = "/' + "x" * 5000 + '"', 'store.path = "/xxxxxxxxxxxxx'),
        ('[link]\ndevice = "/dev/ttyACM0\\u0000"',
         'link.device = "/dev/ttyACM0\\u0000" is not accepted; allowed: "" (no LED pegboard), '
         '"auto", or a device path under /dev/'),
        ('[link]\ndevice = "/dev/../etc/passwd"', 'link.device = "/dev/../etc/passwd" is not'),
        ('[link]\ndevice = "/dev/tty\\nUSB0"', 'link.device = "/dev/tty\\nUSB0" is not'),
        ('[link]\ndevice = "loop://"', 'link.device = "loop://" is not accepted'),
        ('[display]\nmodel = "' + "s" * 500 + '"', 'display.model = "sssssssss'),
        ("[input]\n" + "a." * 3000 + "b = 1", "my.toml: unknown key input.a; valid:"),
        ('"a\\nb" = 1', 'my.toml: unknown key "a\\nb" outside any section'),
        ("[display]\nrotate = 1979-05-27T07:32:00Z",
         "display.rotate = 1979-05-27T07:32:00+00:00 is not accepted"),
    ],
)
def test_values_that_would_break_the_parser_or_the_device_are_errors(
    text: str, expected: str
) -> None:
    message = refusal(text)
    assert expected in message and len(message) < 400


def test_accepted_paths_and_devices() -> None:
    config = parse_config(
        '[store]\npath = "/var/lib/pegboard"\n[link]\ndevice = "/dev/serial/by-id/usb-x-if00"\n'
    )
    assert (config.store.path, config.link.device) == (
        "/var/lib/pegboard", "/dev/serial/by-id/usb-x-if00"
    )
    assert parse_config('[link]\ndevice = "auto"').link.device == "auto"
    # Brackets and digits inside strings and comments are not nesting or numbers.
    text = (
        '[display]  # [[[[[[[[ 12345678901234567890123456789\n'
        'model = """sh1106"""\n'
        "[leds]\ncolours = ['#ffffff', \"#000000\", '''#123456''']  # [[[[[[[[\n"
    )
    config = parse_config(text)
    assert config.display.model == "sh1106"
    assert config.leds.colours == ("#ffffff", "#000000", "#123456")
    # An inline table is a section too, and its list is nested 2 deep.
    assert parse_config('input = {kit = "keypad", keypad_rows = [5, 6, 13, 19]}').input.kit == (
        "keypad"
    )


def test_the_file_is_bounded_and_a_byte_that_is_not_utf8_is_named(tmp_path: Path) -> None:
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b'[store]\npath = "/home/Ren\xe9"\n')
    with pytest.raises(ConfigError, match=r"latin\.toml: line 2, byte 18 is not UTF-8 \(e9: "
                       r"invalid continuation byte\); the config file is UTF-8 text$"):
        load_config(latin)
    huge = tmp_path / "huge.toml"
    huge.write_bytes(b"# " + b"x" * 70_000 + b"\n")
    with pytest.raises(ConfigError, match=r"huge\.toml: the config file is larger than 64 KiB"):
        load_config(huge)
    for name in ("con\nfig.toml", "config\0.toml", "Ren\udce9.toml"):
        with pytest.raises(ConfigError, match=r"not a config file name"):
            load_config(name)


@pytest.mark.parametrize(
    "text",
    ["[leds]\ncount = " + "[" * 5000 + "]" * 5000, "[leds]\ncount = " + "9" * 5000,
     '[link]\ndevice = "/dev/x\\u0000"', '[store]\npath = "games"'],
)
def test_run_and_sim_refuse_the_config_with_exit_2_and_one_line(
    text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from pegboard.cli import main

    config = tmp_path / "config.toml"
    config.write_text(text, encoding="utf-8")
    script = tmp_path / "keys.txt"
    script.write_text("ok\n", encoding="utf-8")
    for argv in (["run", "--config", str(config), "--store", str(tmp_path / "s"),
                  "--display", "dummy"],
                 ["sim", "--config", str(config), "--script", str(script)]):
        assert main(argv) == 2
        captured = capsys.readouterr()
        assert captured.err.startswith(f"pegboard {argv[0]}: {config}: ")
        assert captured.err.count("\n") == 1 and captured.out == ""
    assert not (tmp_path / "s").exists()
