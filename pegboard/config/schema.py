"""The whole configuration: :class:`Config`, its sections, and the keys each section takes.

Every section but ``[rules]`` is a value (:class:`~pegboard.rules.value.Value`) whose ``KEYS``
give each of its fields, in order, their check and the text saying what is allowed
(:func:`pegboard.config.values.meta`). ``[rules]`` holds what a new game
starts with: ``players`` and the rule variants the config offers, read by each variant's own
declaration (:data:`pegboard.rules.variants.VARIANTS`) into :attr:`Config.rules`, a
:class:`~pegboard.rules.variants.Rules` value.
"""

from __future__ import annotations

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
from pegboard.rules.value import Value
from pegboard.rules.variants import DEFAULT_RULES, VARIANTS, Rules, Variant


class Config(Value):
    """The whole configuration; ``Config()`` is every default.

    ``players`` and ``rules`` are the ``[rules]`` section: how many play a new game and the
    rules it starts with (both can still be changed when starting a game).
    """

    __slots__ = (
        "club",
        "display",
        "idle",
        "input",
        "leds",
        "link",
        "phones",
        "players",
        "rules",
        "store",
        "voice",
    )
    __match_args__ = ("input", "display", "idle", "link", "leds", "players", "rules", "store",
                      "voice", "club", "phones")

    input: InputConfig
    display: DisplayConfig
    idle: IdleConfig
    link: LinkConfig
    leds: LedsConfig
    players: int
    rules: Rules
    store: StoreConfig
    voice: VoiceConfig
    club: ClubConfig
    phones: PhonesConfig

    def __init__(
        self,
        input: InputConfig = InputConfig(),
        display: DisplayConfig = DisplayConfig(),
        idle: IdleConfig = IdleConfig(),
        link: LinkConfig = LinkConfig(),
        leds: LedsConfig = LedsConfig(),
        players: int = 2,
        rules: Rules = DEFAULT_RULES,
        store: StoreConfig = StoreConfig(),
        voice: VoiceConfig = VoiceConfig(),
        club: ClubConfig = ClubConfig(),
        phones: PhonesConfig = PhonesConfig(),
    ) -> None:
        setter = object.__setattr__
        setter(self, "input", input)
        setter(self, "display", display)
        setter(self, "idle", idle)
        setter(self, "link", link)
        setter(self, "leds", leds)
        setter(self, "players", players)
        setter(self, "rules", rules)
        setter(self, "store", store)
        setter(self, "voice", voice)
        setter(self, "club", club)
        setter(self, "phones", phones)


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
"""Every section in the order a written config has them (``rules`` has no section class)."""


class Key(Value):
    """One key of a section: its check (raising :class:`Invalid`) and what it allows."""

    __slots__ = ("allowed", "check", "name")
    __match_args__ = ("name", "check", "allowed")

    name: str
    check: Any
    allowed: str

    def __init__(self, name: str, check: Any, allowed: str) -> None:
        setter = object.__setattr__
        setter(self, "name", name)
        setter(self, "check", check)
        setter(self, "allowed", allowed)


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
    return {name: Key(name, cls.KEYS[name]["check"], cls.KEYS[name]["allowed"])
            for name in cls.__match_args__}


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
    return {name: getattr(table, name) for name in table.__match_args__}
