"""Key scripts: the words ``pegboard sim --script`` reads, one scripted action a step.

A script is what a player's hands do, written down: encoder detents, button and keypad
presses, long presses and pauses, so that a game can be played again exactly (the guide's
pictures, the golden frames, the voice samples and the benchmarks are all key scripts).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from pegboard.rules.value import Value

ENCODER_WORDS = ("right", "left", "ok", "go", "undo", "menu")
KEYPAD_WORDS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


class KeyStep(Value):
    """One scripted action: press ``key`` (held ``hold`` seconds), or wait, or turn.

    ``key`` is a button or keypad key name, ``"right"``/``"left"`` for encoder detents, or
    ``"wait"``; ``count`` repeats the step."""

    __slots__ = ("count", "hold", "key", "seconds")
    __match_args__ = ("key", "count", "hold", "seconds")

    key: str
    count: int
    hold: bool
    seconds: float

    def __init__(self, key: str, count: int = 1, hold: bool = False,
                 seconds: float = 0.0) -> None:
        setter = object.__setattr__
        setter(self, "key", key)
        setter(self, "count", count)
        setter(self, "hold", hold)
        setter(self, "seconds", seconds)


_TOKEN = re.compile(
    r"^(?P<hold>hold-)?(?P<key>[A-Za-z0-9]+)(?:\*(?P<count>\d+))?(?::(?P<secs>\d+(?:\.\d+)?))?$"
)


def parse_script(text: str, *, source: str = "<script>") -> list[KeyStep]:
    """Read a key script: whitespace-separated words, ``#`` starts a comment.

    Words: ``right`` ``left`` (encoder detents), ``ok`` ``go`` ``undo`` ``menu`` (buttons),
    ``A 2 .. 10 J Q K`` (keypad rank keys), ``hold-ok`` etc. (a long press), ``WORD*N`` (N
    times), ``wait:SECONDS`` (nothing pressed for that long).

    >>> parse_script("right*3 ok  # pick\\nhold-menu wait:2.5")
    [KeyStep(key='right', count=3, hold=False, seconds=0.0), KeyStep(key='ok', count=1, \
hold=False, seconds=0.0), KeyStep(key='menu', count=1, hold=True, seconds=0.0), \
KeyStep(key='wait', count=1, hold=False, seconds=2.5)]
    """
    steps: list[KeyStep] = []
    for number, line in enumerate(text.splitlines(), start=1):
        for word in line.split("#", 1)[0].split():
            match = _TOKEN.match(word)
            key = match["key"] if match else ""
            if key.lower() in ENCODER_WORDS or key.lower() == "wait":
                key = key.lower()
            elif key.upper() in KEYPAD_WORDS:
                key = key.upper()
            else:
                match = None
            if match is None or (key == "wait") != (match["secs"] is not None):
                raise ValueError(
                    f"{source} line {number}: cannot read {word!r}; expected one of "
                    f"{', '.join(ENCODER_WORDS)}, a keypad key ({' '.join(KEYPAD_WORDS)}), "
                    "hold-KEY, KEY*N or wait:SECONDS"
                )
            steps.append(KeyStep(
                key=key,
                count=int(match["count"] or 1),
                hold=bool(match["hold"]),
                seconds=float(match["secs"] or 0.0),
            ))
    return steps


def expand(steps: Iterable[KeyStep]) -> Iterator[KeyStep]:
    """Each step once (``count`` unrolled), so a runner can act between repetitions."""
    for step in steps:
        for _ in range(step.count):
            yield KeyStep(step.key, 1, step.hold, step.seconds)
