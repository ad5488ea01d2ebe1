"""The whole configuration: :class:`Config`, its sections, and the keys each section takes.

Every section but ``[rules]`` is a frozen dataclass whose fields carry their check and the text
saying what is allowed (:func:`pegboard.config.values.meta`). ``[rules]`` holds what a new game
starts with: ``players`` and the rule variants the config offers, read by each variant's own
declaration (:data:`pegboard.rules.variants.VARIANTS`) into :attr:`Config.rules`, a
:class:`~pegboard.rules.variants.Rules` value.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from pegboard.config.club import ClubConfig
from pegboard.config.devices import (
    DisplayConfig,
    IdleConfig,
    LedsConfig,
    LinkConfig,
    StoreConfig,
)
from pegboard.config.phones import PhonesConfig
from pegboard.config.pins import InputConfig
from pegboard.config.values import Invalid, int_of
from pegboard.config.voice import VoiceConfig
from pegboard.errors import RuleError
from pegboard.rules.variants import VARIANTS, Rules, Variant


@dataclass(frozen=True)
class Config:
    """The whole configuration; ``Config()`` is every default.

    ``players`` and ``rules`` are the ``[rules]`` section: how many play a new game and the
    rules it starts with (both can still be changed when starting a game).
    """

    input: InputConfig = field(default_factory=InputConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    idle: IdleConfig = field(default_factory=IdleConfig)
    link: LinkConfig = field(default_factory=LinkConfig)
    leds: LedsConfig = field(default_factory=LedsConfig)
    players: int = 2
    rules: Rules = field(default_factory=Rules)
    store: StoreConfig = field(default_factory=StoreConfig)
    voice: VoiceConfig = field(default_factory=VoiceConfig)
    club: ClubConfig = field(default_factory=ClubConfig)
    phones: PhonesConfig = field(default_factory=PhonesConfig)


SECTIONS: dict[str, type[Any] | None] = {
    "input": InputConfig,
    "display": DisplayConfig,
    "idle": IdleConfig,
    "link": LinkConfig,
    "leds": LedsConfig,
    "rules": None,
    "store": StoreConfig,
    "voice": VoiceConfig,
    "club": ClubConfig,
    "phones": PhonesConfig,
}
"""Every section in the order a written config has them (``rules`` is not a dataclass)."""


@dataclass(frozen=True)
class Key:
    """One key of a section: its check (raising :class:`Invalid`) and what it allows."""

    name: str
    check: Any
    allowed: str


def _variant_check(variant: Variant) -> Any:
    def check(value: Any) -> Any:
        try:
            return variant.read(value)
        except RuleError:
            raise Invalid from None

    return check


RULES_KEYS: dict[str, Key] = {
    "players": Key("players", int_of(2, 3, 4), "2, 3 or 4"),
    **{v.key: Key(v.key, _variant_check(v), v.allowed) for v in VARIANTS if v.config},
}
"""The ``[rules]`` keys: ``players``, then each variant the config file offers."""


def section_keys(section: str) -> dict[str, Key]:
    """The keys ``[section]`` takes, by name, in their written order."""
    cls = SECTIONS[section]
    if cls is None:
        return RULES_KEYS
    return {f.name: Key(f.name, f.metadata["check"], f.metadata["allowed"])
            for f in dataclasses.fields(cls)}


def build(config: dict[str, Any], section: str, values: dict[str, Any]) -> None:
    """Put ``[section]``'s checked ``values`` into ``config``, the keyword arguments of
    :class:`Config` being made."""
    cls = SECTIONS[section]
    if cls is not None:
        config[section] = cls(**values)
        return
    if "players" in values:
        config["players"] = values.pop("players")
    config["rules"] = Rules(**values)


def section_values(config: Config, section: str) -> dict[str, Any]:
    """``[section]``'s values in ``config``, by key, as :func:`section_keys` orders them."""
    if SECTIONS[section] is None:
        return {name: config.players if name == "players" else getattr(config.rules, name)
                for name in RULES_KEYS}
    table = getattr(config, section)
    return {f.name: getattr(table, f.name) for f in dataclasses.fields(table)}
