"""A wrong pin map stops ``pegboard run`` before it touches anything: one line naming the pin,
the amplifier's pins and the fix, exit status 2, and the store left as it was."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_an_input_on_an_i2s_pin_with_the_amplifier_is_one_clear_line(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    store = tmp_path / "store"
    config.write_text(f'[input]\nencoder_b = 19\n[voice]\ni2s_amp = true\n'
                      f'[store]\npath = "{store}"\n')
    done = subprocess.run([sys.executable, "-m", "pegboard", "run", "--config", str(config)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "input.encoder_b = 19 is an I2S pin" in lines[0]
    assert "such as its default 25" in lines[0] and "voice.i2s_amp = false" in lines[0]
    assert not store.exists()  # nothing was created or changed
