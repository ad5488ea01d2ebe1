"""The ``[voice]`` section: defaults, every key checked, the I2S amplifier's pins."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pegboard.config import I2S_PINS, Config, InputConfig, parse_config, to_toml
from pegboard.errors import ConfigError
from pegboard.rules.value import FrozenInstanceError
from tests.support.configs import refusal


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
    message = refusal(f"[voice]\n{line}\n")
    assert named in message and allowed in message


def test_an_unknown_voice_key_suggests_the_right_one() -> None:
    with pytest.raises(ConfigError, match=r"did you mean voice\.volume"):
        parse_config("[voice]\nvolum = 3\n")


def _default_pins() -> dict[str, int]:
    """Every pin either kit uses by default, by config key."""
    pins: dict[str, int] = {}
    for kit in ("encoder", "keypad"):
        pins |= InputConfig(kit=kit).pins_in_use()
    return pins


def test_the_default_pins_of_every_kit_leave_the_i2s_pins_free() -> None:
    # The Pi's PCM block takes GPIO 18-21 when it is on (BCLK, LRCLK, DIN, DOUT; no other
    # choice on the 40-pin header): every kit takes the amplifier without rewiring.
    assert I2S_PINS == (18, 19, 20, 21)
    assert not set(_default_pins().values()) & set(I2S_PINS)
    assert not {2, 3} & set(I2S_PINS)  # nor does the OLED's I2C bus
    for kit in ("encoder", "keypad"):
        assert parse_config(f'[input]\nkit = "{kit}"\n[voice]\ni2s_amp = true\n').voice.i2s_amp


@pytest.mark.parametrize(("moved", "named", "default"), [
    ("encoder_b = 18", "input.encoder_b = 18", "its default 25"),
    ('kit = "keypad"\nkeypad_cols = [12, 16, 20, 7]', "input.keypad_cols[2] = 20",
     "its default 4"),
])
def test_an_input_moved_onto_an_i2s_pin_is_refused_naming_the_pin_and_the_fix(
        moved: str, named: str, default: str) -> None:
    message = refusal(f"[input]\n{moved}\n[voice]\ni2s_amp = true\n")
    assert f"{named} is an I2S pin" in message and "voice.i2s_amp = true" in message
    assert default in message and "voice.i2s_amp = false" in message
    assert parse_config(f"[input]\n{moved}\n")  # without the amplifier the pin is free


AUDIO_MD = Path(__file__).resolve().parent.parent / "hardware" / "audio.md"


def documented_config() -> str:
    """The config block hardware/audio.md gives for the amplifier (the first with ``[voice]``)."""
    blocks: list[str] = re.findall(r"```\n(.*?)```", AUDIO_MD.read_text(encoding="utf-8"), re.S)
    return next(block for block in blocks if "[voice]" in block)


@pytest.mark.parametrize("kit", ["encoder", "keypad"])
def test_the_documented_amplifier_config_takes_every_kit_as_it_is(kit: str) -> None:
    text = f'[input]\nkit = "{kit}"\n' + documented_config()
    config = parse_config(text)
    assert config.voice.i2s_amp and config.voice.enabled
    used = config.input.pins_in_use()
    assert not set(used.values()) & set(I2S_PINS)
    assert set(used.values()).isdisjoint({2, 3})  # the OLED's I2C bus
    assert len(set(used.values())) == len(used)  # and no two inputs share a pin


def test_the_voice_section_is_a_frozen_value() -> None:
    with pytest.raises(FrozenInstanceError):
        Config().voice.enabled = True  # type: ignore[misc]
