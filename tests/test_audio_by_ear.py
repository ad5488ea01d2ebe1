"""What a player who cannot see the screen would trip on, found by playing deals by ear in
the simulator's audio mode (docs/accessibility.md), each put right and held here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pegboard.app.inputs import KnobTurn
from pegboard.app.menus import QUESTIONS, menu_rows
from pegboard.app.state import Home
from pegboard.config import parse_config
from pegboard.voice.audio import screen_words
from pegboard.voice.hook import Transcript
from pegboard.voice.phrases import read_view
from tests.support.announcing import said_over_keys
from tests.support.app_driver import OK, App, started
from tests.test_app_starter_suit import asked, resumed


@pytest.mark.parametrize(("kit", "said"), [
    ("encoder", "Ann's hand. Starter ace: suit for nobs? ace of clubs"),
    ("keypad", "Ann's hand. Starter ace: suit for nobs? 1 clubs, 2 diamonds, 3 hearts, "
               "4 spades. ace of clubs"),
])
def test_the_starters_suit_question_is_said_whole_with_the_keypads_keys_in_words(
        kit: str, said: str) -> None:
    """The screen's line shortens the question to fit ("A? 1♣ 2♦ 3♥ 4♠ nobs"), which the
    voice read as cards ("ace? 1 of clubs 2 of diamonds ... nobs"); it says the question
    whole, what the suit decides and which key is which suit, then the wheel's card."""
    view = asked(resumed(kit))
    assert screen_words(view) == said
    assert " of clubs 2" not in read_view(view) and "suit for nobs?" in read_view(view)


DOCS = Path(__file__).resolve().parent.parent / "docs" / "accessibility.md"


def test_the_accessibility_guide_names_every_question_and_every_menu_row() -> None:
    """docs/accessibility.md, checked against the code: every question a screen asks and
    every row the menu offers (with no game, and over the table in a game with teaching
    on), by the words the box says (a row's value after its colon aside)."""
    text = " ".join(DOCS.read_text(encoding="utf-8").split())
    questions = [*QUESTIONS.values(), "Who deals first?", "Who offended?", "Apply penalty?",
                 "Whose cards?", "of which suit?", "Suit (hold 7: next)", "Release Ann's phone?",
                 "Starter ace: suit for nobs?", "1 clubs, 2 diamonds, 3 hearts, 4 spades",
                 "Ann missed 2", "Cut for deal"]
    game = started("Teaching: off").feed(KnobTurn(1), OK, OK)  # past the coach: the starter
    rows = {label.split(":")[0] for label in [
        *(label for _, label in menu_rows(App.start().state, Home())),
        *(label for _, label in menu_rows(game.state, game.state.screen))]}
    missing = [words for words in [*questions, *sorted(rows)] if words not in text]
    assert missing == []
    assert "Discard advice" in rows and "Count it yourself" in rows  # the rows were found


@pytest.mark.parametrize(("kit", "keys"), [
    ("encoder", "ok ok right ok left*3 ok"), ("keypad", "ok ok 2 3")])
def test_the_starter_is_said_by_its_rank(kit: str, keys: str, tmp_path: Path) -> None:
    """A player who cannot see the pack needs the starter to count their hand: audio mode
    says it as it is entered, by its rank alone (its suit may be the box's stand-in), where
    "Entered" said nothing of it."""
    config = parse_config(f'[input]\nkit = "{kit}"\n[voice]\naudio = true\n')
    said = said_over_keys(keys, config, tmp_path, Transcript()).texts()
    at = said.index("The starter is three")
    assert said[at + 1:] == ["P2 plays: 10"]


def test_a_jack_turned_up_is_said_by_his_heels_alone(tmp_path: Path) -> None:
    config = parse_config('[input]\nkit = "keypad"\n[voice]\naudio = true\n')
    said = said_over_keys("ok ok 2 J", config, tmp_path, Transcript()).texts()
    assert said[-3:] == ["[ok]", "P1: his heels for two; P1 2, P2 0", "P2 plays: 6"]
    assert not [text for text in said if text.startswith("The starter")]


def test_each_card_cut_for_deal_is_said_back(tmp_path: Path) -> None:
    """The first seat's cut card is said as the next seat is asked (it used to be heard only
    on the cut's page, after every seat had cut); the screen's title, said as the cut began,
    is not said again."""
    config = parse_config('[input]\nkit = "keypad"\n[voice]\naudio = true\n')
    said = said_over_keys("ok ok ok A 2", config, tmp_path, Transcript()).texts()
    assert "Cut for deal. P1 cuts: 6" in said and "P1: ace. P2 cuts: 6" in said
    assert said[-1].startswith("Deal 1. The cut. P1 cut ace. P2 cut 2. P1 deals: low card")


def test_the_first_deal_and_its_dealer_are_said_once_after_the_cut(tmp_path: Path) -> None:
    """The cut's page says who deals and why as the deal's own announcement, with the deal's
    number ("Deal 1. The cut. ... P1 deals: low card"): the deal and its dealer said once,
    the number no longer left out, the dealer not said twice; the starter's wheel after it
    without the deal again."""
    config = parse_config('[input]\nkit = "keypad"\n[voice]\naudio = true\n')
    said = said_over_keys("ok ok ok A 2 ok", config, tmp_path, Transcript()).texts()
    words = " ".join(said)
    assert words.count("Deal 1") == 1 and words.count("P1 deals") == 1, said
    cut = next(text for text in said if "The cut" in text)
    assert cut.startswith("Deal 1. The cut. ") and "P1 deals: low card" in cut
    assert said[-1] == "Starter: 6"


@pytest.mark.parametrize("name", ["audio_encoder", "audio_keypad", "audio_muggins_encoder"])
def test_a_counts_page_after_the_result_says_whose_count_it_is(name: str) -> None:
    """A count's page reached as its count is said needs no name (the count named it), but
    one reached after the result, which the game's last count won, says what it is: its
    suits line alone would follow "P1 wins" with no count to belong to. Read off the whole
    games' transcripts (tests/test_audio_game.py makes them)."""
    lines = (Path(__file__).parent / "golden_text" / f"{name}.txt").read_text(
        encoding="utf-8").splitlines()
    said = [line.split("\t", 1)[1] for line in lines if "\t[" not in line]
    won = next(at for at, text in enumerate(said) if " wins, " in text)
    assert re.match(r"P\d's (hand|crib)\. suits: ", said[won + 1]), said[won:]
    pages = [text for text in said if text.startswith("suits: ")]
    assert pages  # elsewhere the page reached with its count says only its suits


def test_the_terse_style_says_the_starter_in_two_words(tmp_path: Path) -> None:
    config = parse_config('[input]\nkit = "keypad"\n[voice]\naudio = true\nstyle = "terse"\n')
    said = said_over_keys("ok ok 2 3", config, tmp_path, Transcript()).texts()
    assert said[-2:] == ["Starter three", "P2 plays: 10"]


def test_the_next_crib_card_asked_says_its_question_alone(tmp_path: Path) -> None:
    """The crib's cards one by one: the screen's title once as it is reached ("The crib"),
    then each next card's question alone ("Crib card 2/4: 5"), where every card repeated
    the title (in a muggins game, the open claim heading it: "P1's hand: claimed 8")."""
    lines = (Path(__file__).parent / "golden_text" / "audio_keypad.txt").read_text(
        encoding="utf-8").splitlines()
    said = [line.split("\t", 1)[1] for line in lines if "\t[" not in line]
    first = said.index("The crib. Crib card 1/4: 4")
    assert said[first + 1].startswith("Crib card 2/4: ")
    assert not [text for text in said if re.match(r".+\. Crib card [234]/4", text)]
