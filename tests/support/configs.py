"""The config file's refusals, for the tests that each bad value is named by its key."""

from __future__ import annotations

import pytest

from pegboard.config import parse_config
from pegboard.errors import ConfigError


def refusal(text: str, source: str = "my.toml") -> str:
    """The message that refuses config ``text`` read from ``source``: one line, starting with
    the file's name."""
    with pytest.raises(ConfigError) as caught:
        parse_config(text, source)
    message = str(caught.value)
    assert message.startswith(f"{source}: ") and "\n" not in message, message
    return message
