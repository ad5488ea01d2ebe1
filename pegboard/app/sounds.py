"""Audio mode's short sounds: the words for them, loaded with the first one asked for (only
in audio mode; :class:`~pegboard.app.effects.Earcon` asks for one)."""

from __future__ import annotations

import enum


class Sound(enum.Enum):
    """The short sounds of audio mode, where words would be too slow."""

    CLICK = "click"
    """The knob moved a detent, or a list or number moved (the word follows)."""
    OK = "ok"
    """A key was taken: an entry, a card chosen, a row changed."""
    REFUSED = "refused"
    """A key that does nothing here, or an entry the rules refuse."""
