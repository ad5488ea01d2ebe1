"""The GPIO pins the input config gives by default, by their config names, for the tests
that check a document or a drawing names the same ones."""

from __future__ import annotations

from pegboard.config import InputConfig

BUTTONS = ("encoder_a", "encoder_b", "encoder_push", "button_go", "button_undo", "button_menu")
"""The single-pin inputs, as the config names them."""


def input_pins(inputs: InputConfig) -> dict[str, int]:
    """Every input pin of ``inputs`` (BCM numbers): the encoder, the buttons and each keypad
    row and column (``keypad_rows[0]``...)."""
    pins = {name: int(getattr(inputs, name)) for name in BUTTONS}
    pins |= {f"keypad_rows[{i}]": pin for i, pin in enumerate(inputs.keypad_rows)}
    pins |= {f"keypad_cols[{i}]": pin for i, pin in enumerate(inputs.keypad_cols)}
    return pins
