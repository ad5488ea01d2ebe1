"""Which LED lights which hole: the layout table shared by the firmware, the drawings and tests.

The board has one *track* of 120 holes per side (2 or 3 tracks; a four-player partnership game
uses two) and one shared game hole (121). A track runs in four *streets* of 30 holes, grouped in
fives, going away from the hole-1 end in streets 1 and 3 and back in streets 2 and 4, like a
long wooden board. Hole 0 is the start: it has no LED (a peg at 0 is simply not shown).

Physically the board is a stack of rows of 30 LEDs: street 1 of every track, then street 2 of
every track, and so on (row = street × tracks + side, top to bottom). The LED chain visits those
rows either row by row (``order="street"``) or track by track (``order="track"``); a
``serpentine`` chain reverses direction in every other row it visits (the short way to wire
it), otherwise every row runs left to right. ``hole1_end`` says on which side of the board hole
1 is. ``skip`` LEDs come first in the chain and are never lit (for example a sacrificial first
pixel run at a lower voltage as a level shifter). The game hole is the last board LED.

>>> cfg = LedConfig()
>>> [led_index(cfg, 0, h) for h in (0, 1, 30, 31, 121)]
[None, 0, 29, 89, 240]
>>> led_index(cfg, 1, 1)
59
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from pegboard.errors import ConfigError

HOLES = 120
STREET = 30
STREETS = HOLES // STREET
GAME_HOLE = HOLES + 1
#: Estimated current of one LED channel at full brightness, in mA.
MA_PER_CHANNEL = 20

Order = Literal["street", "track"]
End = Literal["left", "right"]


@dataclass(frozen=True, slots=True)
class LedConfig:
    """The LED board's build and power settings (the ``[leds]`` config section).

    ``count`` is the number of LEDs on the strip (None: exactly what the layout needs; it is
    then filled in, so equal boards compare equal),
    ``brightness`` the cap applied to every channel (1..255), ``budget_ma`` the current the
    strip may draw for its colours (500 mA suits a USB-powered Pico), ``heartbeat_ms`` how often
    the host speaks when idle (the firmware shows "link lost" after three silent periods).
    """

    tracks: int = 2
    count: int | None = None
    order: Order = "street"
    serpentine: bool = True
    hole1_end: End = "left"
    skip: int = 0
    brightness: int = 128
    budget_ma: int = 500
    heartbeat_ms: int = 1000

    def __post_init__(self) -> None:
        if self.tracks not in (2, 3):
            raise ConfigError(f"leds.tracks = {self.tracks!r}: the board has 2 or 3 tracks")
        if self.order not in ("street", "track"):
            raise ConfigError(f"leds.order = {self.order!r}: use 'street' or 'track'")
        if self.hole1_end not in ("left", "right"):
            raise ConfigError(f"leds.hole1_end = {self.hole1_end!r}: use 'left' or 'right'")
        if not 0 <= self.skip <= 100:
            raise ConfigError(f"leds.skip = {self.skip!r}: use 0..100")
        if self.count is None:
            object.__setattr__(self, "count", self.needed)
        if self.count is not None and not self.needed <= self.count <= 1000:
            raise ConfigError(
                f"leds.count = {self.count!r}: this layout needs {self.needed} LEDs "
                f"(skip {self.skip} + {self.tracks} tracks × {HOLES} + 1 game hole), at most 1000"
            )
        if not 1 <= self.brightness <= 255:
            raise ConfigError(f"leds.brightness = {self.brightness!r}: use 1..255")
        if not 50 <= self.budget_ma <= 20000:
            raise ConfigError(f"leds.budget_ma = {self.budget_ma!r}: use 50..20000 (mA)")
        if not 100 <= self.heartbeat_ms <= 60000:
            raise ConfigError(f"leds.heartbeat_ms = {self.heartbeat_ms!r}: use 100..60000")

    @property
    def needed(self) -> int:
        """LEDs the layout uses, counting the skipped ones."""
        return self.skip + self.tracks * HOLES + 1

    @property
    def led_count(self) -> int:
        """LEDs on the strip."""
        assert self.count is not None  # filled in by __post_init__
        return self.count

    @property
    def rows(self) -> int:
        """Rows of 30 holes on the board."""
        return self.tracks * STREETS


class LedsSection(Protocol):
    """The ``[leds]`` keys of the config file that describe the strip (pegboard.config)."""

    @property
    def count(self) -> int: ...
    @property
    def sides(self) -> int: ...
    @property
    def serpentine(self) -> bool: ...
    @property
    def hole1_end(self) -> str: ...
    @property
    def order(self) -> str: ...
    @property
    def skip(self) -> int: ...
    @property
    def brightness(self) -> float: ...
    @property
    def budget_ma(self) -> int: ...
    @property
    def colours(self) -> Sequence[str]: ...


def led_config_from(leds: LedsSection, *, heartbeat_ms: int = 1000) -> LedConfig:
    """The link's settings from the config file's ``[leds]`` section.

    ``hole1_end = "start"`` puts hole 1 at the data-in end of the chain (the left of the
    board drawing), ``"end"`` at the far end of the first row; ``brightness`` 0.0..1.0 becomes
    a channel cap of 1..255. ``order`` and ``skip`` are passed on as they are.

    >>> from types import SimpleNamespace
    >>> leds = SimpleNamespace(count=242, sides=3, serpentine=True, hole1_end="end",
    ...                        order="street", skip=0, brightness=0.25, budget_ma=500,
    ...                        colours=())
    >>> led_config_from(leds)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pegboard.errors.ConfigError: leds.count = 242: this layout needs 361 LEDs ...
    >>> led_config_from(SimpleNamespace(**{**vars(leds), "count": 361})).brightness
    64
    """
    end: End = "left" if leds.hole1_end in ("start", "left") else "right"
    order: Order = "track" if leds.order == "track" else "street"
    return LedConfig(
        tracks=leds.sides,
        count=leds.count,
        order=order,
        serpentine=leds.serpentine,
        hole1_end=end,
        skip=leds.skip,
        brightness=max(1, min(255, round(leds.brightness * 255))),
        budget_ma=leds.budget_ma,
        heartbeat_ms=heartbeat_ms,
    )


def hole_position(cfg: LedConfig, side: int, hole: int) -> tuple[int, int]:
    """Where hole 1..120 of a track sits on the board: (row from the top, column from the left).

    >>> hole_position(LedConfig(), 1, 31)
    (3, 29)
    """
    if not 1 <= hole <= HOLES:
        raise ValueError(f"hole {hole!r} has no position: track holes are 1..{HOLES}")
    street, pos = divmod(hole - 1, STREET)
    from_end = pos if street % 2 == 0 else STREET - 1 - pos
    col = from_end if cfg.hole1_end == "left" else STREET - 1 - from_end
    return street * cfg.tracks + side, col


def chain_segment(cfg: LedConfig, row: int) -> int:
    """Which run of 30 LEDs along the chain (0 = first) lies in board row ``row``."""
    if cfg.order == "street":
        return row
    street, side = divmod(row, cfg.tracks)
    return side * STREETS + street


def led_at(cfg: LedConfig, row: int, col: int) -> int:
    """The LED index of the hole at (row, column)."""
    segment = chain_segment(cfg, row)
    reverse = cfg.serpentine and segment % 2 == 1
    return cfg.skip + segment * STREET + (STREET - 1 - col if reverse else col)


def led_index(cfg: LedConfig, side: int, hole: int) -> int | None:
    """The LED index of ``hole`` (0..121) on ``side``'s track; None for the start hole."""
    if not 0 <= side < cfg.tracks:
        raise ValueError(f"side {side!r} has no track: this board has {cfg.tracks}")
    if hole == 0:
        return None
    if hole == GAME_HOLE:
        return cfg.skip + cfg.tracks * HOLES
    row, col = hole_position(cfg, side, hole)
    return led_at(cfg, row, col)


def layout_table(cfg: LedConfig) -> list[list[int | None]]:
    """``table[side][hole]`` = LED index for every hole 0..121 of every track."""
    return [[led_index(cfg, side, hole) for hole in range(GAME_HOLE + 1)]
            for side in range(cfg.tracks)]
