"""The ``[voice]`` section: defaults, every key checked, the I2S amplifier's pins."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from pegboard.config import I2S_PINS, Config, InputConfig, parse_config, to_toml
from pegboard.errors import ConfigError


def test_voice_is_off_by_default_with_an_english_espeak_voice() -> None:
    voice = Config().voice
    assert (voice.enabled, voice.voice, voice.language, voice.rate, voice.volume,
            voice.device, voice.i2s_amp) == (False, "en-gb", "en", 160, 100, "", False)


def test_every_voice_key_is_read() -> None:
    config = parse_config(
        '[voice]\nenabled = true\nvoice = "en-us"\nlanguage = "en"\nrate = 200\n'
        'volume = 150\ndevice = "plughw:CARD=MAX98357A,DEV=0"\n'
        '[input]\nencoder_b = 25\n')
    voice = config.voice
    assert (voice.enabled, voice.voice, voice.rate, voice.volume, voice.device) == (
        True, "en-us", 200, 150, "plughw:CARD=MAX98357A,DEV=0")


def test_the_voice_section_round_trips_through_toml() -> None:
    config = parse_config('[voice]\nenabled = true\nrate = 120\ndevice = "hw:1,0"\n')
    assert parse_config(to_toml(config)) == config


@pytest.mark.parametrize(("line", "named", "allowed"), [
    ("rate = 1000", "voice.rate = 1000", "80-450"),
    ("rate = true", "voice.rate = true", "80-450"),
    ("volume = -1", "voice.volume = -1", "0-200"),
    ('voice = "en gb; rm -rf"', "voice.voice", "espeak-ng voice name"),
    ('language = "fr"', 'voice.language = "fr"', '"en"'),
    ('device = "/dev/snd/pcmC0D0p"', "voice.device", "ALSA device name"),
    ('enabled = "yes"', 'voice.enabled = "yes"', "true or false"),
])
def test_a_bad_voice_value_names_the_key_and_what_is_allowed(
        line: str, named: str, allowed: str) -> None:
    with pytest.raises(ConfigError) as error:
        parse_config(f"[voice]\n{line}\n")
    assert named in str(error.value)
    assert allowed in str(error.value)


def test_an_unknown_voice_key_suggests_the_right_one() -> None:
    with pytest.raises(ConfigError, match=r"did you mean voice\.volume"):
        parse_config("[voice]\nvolum = 3\n")


def _default_pins() -> dict[str, int]:
    """Every pin either kit uses by default, by config key."""
    pins: dict[str, int] = {}
    for kit in ("encoder", "keypad"):
        pins |= InputConfig(kit=kit).pins_in_use()
    return pins


def test_the_i2s_pins_are_exactly_the_ones_the_default_inputs_would_lose() -> None:
    # The Pi's PCM block puts BCLK, LRCLK and DIN on GPIO 18, 19 and 21 (no other choice on
    # the 40-pin header); the default encoder's B line and two keypad lines sit there, so an
    # I2S amplifier needs them moved (hardware/audio.md gives the moves).
    clashes = {name: pin for name, pin in _default_pins().items() if pin in I2S_PINS}
    assert I2S_PINS == (18, 19, 21)
    assert clashes == {"encoder_b": 18, "keypad_rows[3]": 19, "keypad_cols[3]": 21}
    # and the OLED's I2C pins and every other default input are clear of them
    assert not {2, 3} & set(I2S_PINS)


def test_the_amplifier_on_default_pins_is_refused_naming_the_clash() -> None:
    with pytest.raises(ConfigError) as error:
        parse_config("[voice]\ni2s_amp = true\n")
    message = str(error.value)
    assert "input.encoder_b = 18 is an I2S pin" in message
    assert "voice.i2s_amp = true" in message


AUDIO_MD = Path(__file__).resolve().parent.parent / "hardware" / "audio.md"


def documented_config() -> str:
    """The config block hardware/audio.md gives for the amplifier (the first with ``[voice]``)."""
    blocks = re.findall(r"```\n(.*?)```", AUDIO_MD.read_text(encoding="utf-8"), re.S)
    return next(block for block in blocks if "[voice]" in block)


@pytest.mark.parametrize("kit", ["encoder", "keypad"])
def test_the_documented_moves_clear_every_i2s_pin(kit: str) -> None:
    text = documented_config().replace("[input]\n", f'[input]\nkit = "{kit}"\n', 1)
    config = parse_config(text)
    assert config.voice.i2s_amp and config.voice.enabled
    used = config.input.pins_in_use()
    assert not set(used.values()) & set(I2S_PINS)
    assert set(used.values()).isdisjoint({2, 3})  # the OLED's I2C bus
    assert len(set(used.values())) == len(used)  # and no two inputs share a pin


def test_the_voice_section_is_a_frozen_dataclass() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Config().voice.enabled = True  # type: ignore[misc]
