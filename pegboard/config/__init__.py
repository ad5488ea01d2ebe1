"""The Pegboard configuration file: one TOML file read into frozen dataclasses.

The parts: :mod:`~pegboard.config.values` (checks of single values), :mod:`~pegboard.config.pins`
(``[input]`` and the rules pins keep), :mod:`~pegboard.config.devices` (the display, idle,
link, LED and store sections), :mod:`~pegboard.config.voice`, :mod:`~pegboard.config.schema`
(:class:`Config` and each section's keys), :mod:`~pegboard.config.toml_guard` (what would break
the TOML parser), :mod:`~pegboard.config.messages` and :mod:`~pegboard.config.reading` (the
file, its sections, the rules across them, and writing TOML back).

The default file is ``/etc/pegboard/config.toml``; ``pegboard run --config PATH`` names
another. A missing default file means "all defaults"; a file named on purpose must exist.

Every key is checked. A bad value raises :class:`~pegboard.errors.ConfigError` with a message
that names the key (``display.model``), quotes the value and says what is allowed. Unknown
sections and keys are errors too, with the closest valid name suggested, because a typo must
never silently do nothing. Before the TOML is parsed, the text is checked for what would
break the parser itself (see :func:`parse_config`): a file of at most 64 KiB, arrays and
inline tables nested at most 4 deep, numbers of at most 24 digits.

Sections and their defaults (pins are BCM GPIO numbers):

``[input]``
    ``kit`` ``"encoder"`` (rotary encoder + GO/UNDO/MENU buttons) or ``"keypad"`` (4x4 matrix
    keypad + the buttons); ``encoder_a`` 17 (CLK), ``encoder_b`` 25 (DT), ``encoder_push`` 27
    (SW); ``button_go`` 22, ``button_undo`` 23, ``button_menu`` 24; ``keypad_rows``
    [5, 6, 13, 26], ``keypad_cols`` [12, 16, 4, 7] (both kits leave GPIO 18-21 free for an
    I2S amplifier); ``hold_s`` 0.8 (a long press),
    ``repeat_s`` 0.15 (auto-repeat interval while held), ``debounce_ms`` 20.
``[display]``
    ``model`` ``"ssd1306"`` or ``"sh1106"``; ``i2c_port`` 1; ``i2c_address`` 0x3C;
    ``rotate`` 0 (0-3, quarter turns); ``contrast`` 255 (0-255); ``large_print`` false (true:
    the scores and the count in digits at least 24 pixels high, the card being chosen filling
    the screen; docs/accessibility.md).
``[idle]``
    ``dim_after_s`` 180, ``blank_after_s`` 900 (0 disables either).
``[link]``
    ``device`` ``""`` (no LED pegboard), ``"auto"`` (find the Pico by USB ids) or a device path
    under ``/dev/`` such as
    ``/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_e6614c311b7e6f35-if00``;
    ``serial_number`` ``""`` (any) or the Pico's USB serial number; ``baudrate`` 115200 (set
    on the port when it is opened; the Pico's USB serial runs at USB speed whatever it is,
    it matters only for a board behind a USB-to-UART adapter).
``[leds]``
    ``count`` 241 (LEDs on the chain: the skipped LEDs, 120 a track and the game hole), ``sides``
    2 (tracks: 2 or 3), ``serpentine`` true (the chain snakes back and forth), ``hole1_end``
    ``"start"`` (hole 1 is at the data-in end of the chain) or ``"end"``; ``order``
    ``"street"`` (row after row) or ``"track"`` (track after track); ``skip`` 0 (unlit LEDs
    at the start of the chain, such as a sacrificial level-shifting LED); ``brightness`` 0.25
    (cap, 0.0-1.0); ``budget_ma`` 500 (whole-frame current budget); ``colours`` ["#e02020",
    "#2050f0", "#20b040"] (one per track).
``[rules]`` (the defaults offered when a new game starts: :attr:`Config.players` and
    :attr:`Config.rules`)
    ``players`` 2 (2, 3 or 4); then the rule variants, as the game record names them
    (:data:`pegboard.rules.variants.VARIANTS`): ``target`` 121 or 61; ``five_card`` false;
    ``muggins`` false; ``game_points`` ``"acc"`` or ``"classic"``; ``match_games`` 1 (best of
    N, N odd).
``[voice]`` (spoken awards and counts, see docs/voice.md)
    ``enabled`` false (``pegboard sim --voice`` turns it on); ``voice`` ``"en-gb"`` (an
    espeak-ng voice); ``language`` ``"en"`` (the language of the phrases); ``rate`` 160 (words
    a minute, 80-450); ``volume`` 100 (0-200); ``device`` ``""`` (the system's default sound
    output) or an ALSA device such as ``"plughw:CARD=MAX98357A,DEV=0"``; ``i2s_amp`` false
    (true: a MAX98357A amplifier on I2S, GPIO 18-21, which no input may then use; the default
    pins never do); ``audio`` false (audio mode at power-on, for a player who cannot see the
    screen: docs/accessibility.md).
``[store]``
    ``path`` ``""`` (the usual search: ``--store``, ``$PEGBOARD_STORE``,
    ``$STATE_DIRECTORY``, the user data directory) or an absolute directory for the game
    store (a relative one would depend on the working directory: under systemd that is
    ``/run/pegboard``, emptied when the service stops).
``[club]`` (a club night, docs/club.md; :mod:`~pegboard.config.club`)
    ``enabled`` false; ``club`` ``"club"`` (the club's id); ``board`` ``""`` (this board's
    id); ``broker`` ``""`` (``HOST:PORT``); ``user`` ``""`` and ``password_file`` ``""`` (the
    board's MQTT credentials; none: a broker without authentication); ``serve_user`` ``""``
    and ``serve_password_file`` ``""`` (the standings service's, ``club serve`` on this host:
    never the board's); ``ca_file`` ``""`` (the club's certificate authority, club setup's
    ``ca.crt``: the broker is reached over TLS; a user needs it); ``night`` 1 and ``table`` 1;
    ``lock`` false (the night's tournament lock).
``[phones]`` (phones holding seats, docs/pairing.md; :mod:`~pegboard.config.phones`)
    ``enabled`` false; ``host`` ``""`` (the board's address on the local network, else a DNS
    name or IPv4 address for the join address); ``port`` 8121 (the scoreboard's).

>>> config = parse_config('[display]\\nmodel = "sh1106"\\n')
>>> config.display.model, config.display.i2c_address
('sh1106', 60)
>>> parse_config('[display]\\nmodle = "sh1106"\\n')
Traceback (most recent call last):
...
pegboard.errors.ConfigError: <string>: unknown key display.modle (did you mean display.model?)
"""

from __future__ import annotations

from pegboard.config.club import ClubConfig
from pegboard.config.devices import (
    DisplayConfig,
    IdleConfig,
    LedsConfig,
    LinkConfig,
    StoreConfig,
)
from pegboard.config.pins import I2S_PINS, InputConfig
from pegboard.config.reading import (
    DEFAULT_CONFIG_PATH,
    MAX_CONFIG_BYTES,
    config_from_dict,
    load_config,
    parse_config,
    to_toml,
)
from pegboard.config.schema import Config
from pegboard.config.values import MAX_PATH
from pegboard.config.voice import VoiceConfig
from pegboard.errors import ConfigError

__all__ = [
    "DEFAULT_CONFIG_PATH",
    "I2S_PINS",
    "MAX_CONFIG_BYTES",
    "MAX_PATH",
    "ClubConfig",
    "Config",
    "ConfigError",
    "DisplayConfig",
    "IdleConfig",
    "InputConfig",
    "LedsConfig",
    "LinkConfig",
    "StoreConfig",
    "VoiceConfig",
    "config_from_dict",
    "load_config",
    "parse_config",
    "to_toml",
]
