"""A rule variant is declared once: the record, the config file and the setup screen read it.

Each field of :class:`Rules` carries its :class:`Variant`; these tests hold every place that
names variants to that one declaration, and check every value each place offers round-trips.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pegboard import config as config_package
from pegboard.app.inputs import KnobTurn
from pegboard.app.machine import initial_state
from pegboard.app.start import setup_rows
from pegboard.app.state import Setup
from pegboard.config import Config, ConfigError, parse_config, to_toml
from pegboard.config.schema import section_keys
from pegboard.errors import RuleError
from pegboard.record import dump_line, parse_line
from pegboard.rules.events import GameHeader
from pegboard.rules.value import replace
from pegboard.rules.variants import (
    VARIANT_BY_KEY,
    VARIANTS,
    GamePoints,
    NextDealer,
    Rules,
    Variant,
)
from tests.support.app_driver import OK, App

ROOT = Path(__file__).resolve().parent.parent
OFFERED = [v for v in VARIANTS if v.choices]
"""The variants the setup screen has a row for."""


def test_every_rules_field_is_one_declared_variant() -> None:
    assert [v.key for v in VARIANTS] == list(Rules.__match_args__)
    for variant in VARIANTS:
        assert variant.label and variant.help and variant.allowed, variant.key
        default = getattr(Rules(), variant.key)
        if variant.choices:
            assert default in variant.choices, variant.key


def test_the_word_values_are_enums_that_write_the_same_text() -> None:
    rules = Rules(game_points=GamePoints.CLASSIC, next_game_dealer=NextDealer.CUT)
    assert rules.to_json() == {"game_points": "classic", "next_game_dealer": "cut"}
    read = Rules.from_json({"game_points": "classic", "next_game_dealer": "cut"})
    assert read == rules and read.game_points is GamePoints.CLASSIC


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.key)
def test_a_record_header_round_trips_every_choice_byte_for_byte(variant: Variant) -> None:
    players = 2 if variant.key != "partnerships" else 4
    for value in variant.choices or (getattr(Rules(), variant.key),):
        rules = replace(Rules(), **{variant.key: value})
        header = GameHeader(tuple("ABCD"[:players]), rules)
        line = dump_line(header, players)
        again = parse_line(line, 1)
        assert again == header and dump_line(again, players) == line


def test_an_old_record_header_reads_and_writes_the_same() -> None:
    line = ('{"type": "game", "version": 2, "players": ["Ann", "Ben"], "rules": {"target": 61, '
            '"muggins": true, "game_points": "classic", "match_games": 3, '
            '"next_game_dealer": "alternate", "no_heels_last": 5}}')
    header = parse_line(line, 1)
    assert isinstance(header, GameHeader)
    assert header.rules == Rules(target=61, muggins=True, game_points=GamePoints.CLASSIC,
                                 match_games=3, next_game_dealer=NextDealer.ALTERNATE,
                                 no_heels_last=5)
    assert json.loads(dump_line(header, 2))["rules"] == json.loads(line)["rules"]


def test_record_messages_name_the_key_and_what_is_allowed() -> None:
    cases: list[tuple[dict[str, object], str]] = [
        ({"game_points": "ACC"}, 'game_points must be "acc" or "classic", not \'ACC\''),
        ({"next_game_dealer": 1}, "rules 'next_game_dealer' must be text, got 1"),
        ({"no_heels_last": 11}, "no_heels_last must be 0 to 10 holes, not 11"),
        ({"match_games": 4}, "match_games must be an odd number of games from 1 to 99, not 4"),
        ({"muggins": "yes"}, "rules 'muggins' must be true or false, got 'yes'"),
    ]
    for data, message in cases:
        with pytest.raises(RuleError) as caught:
            Rules.from_json(data)
        assert str(caught.value) == message


def test_a_huge_or_long_value_is_refused_in_one_short_line() -> None:
    # repr() of an int of over 4,300 digits raises ValueError: the refusal must not.
    huge = 7 ** 6000
    cases: list[tuple[dict[str, object], str]] = [
        ({"next_game_dealer": huge}, "got a number of about 5071 digits"),
        ({"no_heels_last": huge}, "not a number of about 5071 digits"),
        ({"muggins": [huge]}, "got a list"),
        ({"muggins": "y" * 500}, "got '" + "y" * 38 + "\u2026"),
    ]
    for data, shown in cases:
        with pytest.raises(RuleError) as caught:
            Rules.from_json(data)
        assert str(caught.value).endswith(shown) and len(str(caught.value)) < 120
    with pytest.raises(ConfigError, match="next_game_dealer"):
        parse_config(f"[rules]\nnext_game_dealer = 0x{huge:x}\n")


def test_the_config_rules_section_is_players_and_the_offered_variants() -> None:
    keys = section_keys("rules")
    assert list(keys) == ["players", *(v.key for v in VARIANTS if v.config)]
    for variant in VARIANTS:
        if variant.config:
            assert keys[variant.key].allowed == variant.allowed


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v.config], ids=lambda v: v.key)
def test_the_config_holds_each_choice_as_the_rules_value(variant: Variant) -> None:
    for value in variant.choices:
        config = Config(rules=replace(Rules(), **{variant.key: value}))
        assert parse_config(to_toml(config)) == config
        state = initial_state(config)
        assert getattr(state.setup.rules, variant.key) == value


def test_a_config_names_a_bad_variant_value_with_the_variants_words() -> None:
    with pytest.raises(ConfigError, match=re.escape(
            'rules.game_points = "ACC" is not accepted; allowed: "acc" or "classic"')):
        parse_config('[rules]\ngame_points = "ACC"\n')


def test_the_setup_rows_are_the_offered_variants_in_declared_order() -> None:
    for players in (2, 3, 4):
        keys = [key for key, _ in setup_rows(Setup(players=players))]
        shown = [key for key in keys if key in VARIANT_BY_KEY]
        assert shown == [v.key for v in OFFERED if players in v.seats]
    labels = [label for _, label in setup_rows(Setup())]
    assert labels[4:9] == ["Target: 121", "Five-card: off", "Muggins: off",
                           "Game points: ACC", "Match: 1 game"]


@pytest.mark.parametrize("variant", OFFERED, ids=lambda v: v.key)
def test_ok_on_a_setup_row_cycles_the_variants_choices(variant: Variant) -> None:
    app = App.start()
    app.feed(OK)  # New game
    keys = [key for key, _ in setup_rows(app.state.setup)]
    app.feed(*[KnobTurn(1)] * keys.index(variant.key))
    seen = []
    for _ in variant.choices:
        seen.append(getattr(app.state.setup.rules, variant.key))
        assert app.view.selected is not None
        label = app.view.lines[app.view.selected]
        assert label.endswith(f"{variant.label}: {variant.words(seen[-1])}")
        app.feed(OK)
    assert seen == list(variant.choices)
    assert getattr(app.state.setup.rules, variant.key) == variant.choices[0]


def test_five_card_sets_its_target_and_is_kept_only_for_two_players() -> None:
    setup = Setup(rules=VARIANT_BY_KEY["five_card"].next(Rules()))
    assert (setup.rules.five_card, setup.rules.target) == (True, 61)
    assert setup.game_rules().five_card
    assert not replace(setup, players=3).game_rules().five_card


def test_the_record_docs_list_every_variant() -> None:
    text = (ROOT / "docs" / "record.md").read_text(encoding="utf-8")
    listed = re.findall(r"^\| `(\w+)` \|", text.split("Rules keys:")[1].split("\n\n")[1], re.M)
    assert listed == [v.key for v in VARIANTS]


def test_the_config_docs_name_every_variant_the_config_takes() -> None:
    doc = config_package.__doc__ or ""
    rules = doc.split("``[rules]``")[1].split("``[voice]``")[0]
    named = re.findall(r"``(\w+)``", rules)
    assert [key for key in named if key in section_keys("rules")] == list(section_keys("rules"))
