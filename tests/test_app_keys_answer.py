"""Every key answers, and no stand-in suit is shown: a card laid by its rank and taken back
after a renege is offered again by its rank alone; a rank key whose rank has no place on
the wheel says why and enters nothing; a play wheel offering no card says so, and what GO
does. Each through the real app (the app driver, or the simulator's script runner with the
voice listening), on the screen's view, the 80x24 text panel and the voice's words."""

from __future__ import annotations

from pathlib import Path

import pytest

from pegboard.app.inputs import Button, KnobTurn, Press, RankKey
from pegboard.app.machine import initial_state
from pegboard.app.view import PageKind, Screen, View
from pegboard.cli import main
from pegboard.config import Config, InputConfig, parse_config
from pegboard.device.build import open_store
from pegboard.rules.cards import Rank
from pegboard.rules.state import Phase
from pegboard.sim.keys import parse_script
from pegboard.sim.script import run_script
from pegboard.sim.terminal import words_below
from pegboard.voice.audio import screen_words, wheel_words
from pegboard.voice.hook import Transcript, VoiceHook
from pegboard.web.phone_view import seat_json
from tests.support.app_driver import GO, MENU, OK, App, new_game
from tests.support.rulings_records import entry, header, play

SUITS = "♣♦♥♠"


def panel(view: View) -> str:
    """The text panel under the frame (80x24), its rows as one text."""
    return "\n".join(words_below(view, view.sides, 121))


def taken_back(kit: str = "encoder") -> App:
    """P1 deals, starter 5; P2 says go at 20 holding 2 4 6, then lays them: the renege is
    offered and applied, every card since the go taken back (P1 A A 3, P2 2 4 6), all of
    them entered by rank alone. P2 is to play at 20."""
    app = new_game(kit)
    app.pick("5")
    for label in ("K", "Q"):
        app.pick(label)
    app.feed(GO)
    app.pick("A")
    app.pick("A")
    app.feed(GO)
    for label in ("2", "3", "4", "6"):
        app.pick(label)
    while app.pages[0].title != "Renege":
        app.feed(OK)
    app.feed(OK)
    assert app.view.lines[1:3] == ("P1 takes back A A 3", "P2 takes back 2 4 6")
    app.read()
    assert app.game.phase is Phase.PLAY and app.game.count == 20 and app.game.to_act == 1
    return app


def refused(app: App) -> str:
    """The refusal on screen, as one sentence; checks it is the REFUSED page."""
    view = app.view
    assert view.page is PageKind.REFUSED and view.title == "Not allowed", view
    return " ".join(view.lines)


def unchanged_by(app: App, *keys: RankKey | Press) -> str:
    """The refusal each of ``keys`` brings (the last one's), after checking that nothing
    was entered, the game is exactly as it was, and OK goes back to the same screen."""
    record, game, before = list(app.record), app.game, app.view
    reason = ""
    for key in keys:
        app.feed(key)
        reason = refused(app)
        assert app.record == record and app.game == game
        app.feed(OK)
        assert app.view == before
    return reason


def test_a_card_taken_back_is_offered_by_its_rank_alone() -> None:
    app = taken_back()
    view = app.view
    assert view.picker is not None and view.picker.options == ("2", "4", "6")
    for words in (panel(view), screen_words(view), wheel_words(view.picker)):
        assert not set(words) & set(SUITS), words
    app.pick("4")
    # P1's two aces, both entered by rank: one place, the rank alone.
    assert app.view.picker is not None and app.view.picker.options == ("A", "3")


def test_the_replay_names_a_renege_by_what_was_entered(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    app = taken_back()
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(app.record) + "\n", encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    offers = [line for line in out.splitlines() if "renege: go at" in line]
    assert offers and "P2: renege: go at 20 while holding 2 4 6;" in offers[0], offers
    assert not [line for line in offers if set(line) & set(SUITS)], offers


def test_a_fifth_five_says_all_four_are_in() -> None:
    app = new_game("keypad")
    app.rank(Rank.TWO)  # the starter
    for _ in range(4):
        app.rank(Rank.FIVE)
    assert app.game.count == 20
    assert unchanged_by(app, RankKey(Rank.FIVE), RankKey(Rank.FIVE, long=True)) == (
        "all four 5s are already in")


def test_a_card_over_31_says_why_on_screen_panel_and_voice(tmp_path: Path) -> None:
    config = parse_config('[input]\nkit = "keypad"\n[voice]\naudio = true\n')
    store = open_store(tmp_path / "store", owner="test")
    heard = Transcript()
    try:
        # New game, Start, P1 deals; starter 2; K Q 8: the count is 28; then a 6.
        result = run_script(parse_script("ok ok 2 2 K Q 8 6"), config, store,
                            speech=VoiceHook(heard))
    finally:
        store.close()
    why = "6 does not fit: 28 and 6 make 34, over 31"
    view = result.views[-1]
    assert " ".join(view.lines) == why and view.page is PageKind.REFUSED
    assert why in panel(view)
    assert heard.texts()[-2:] == ["[refused]", f"Not allowed. {why}"]
    app = new_game("keypad")
    for rank in (Rank.TWO, Rank.KING, Rank.QUEEN, Rank.EIGHT):
        app.rank(rank)
    assert unchanged_by(app, RankKey(Rank.SIX), RankKey(Rank.KING, long=True)) == (
        "K does not fit: 28 and 10 make 38, over 31")


def test_a_rank_the_known_hand_lacks_says_whose() -> None:
    app = taken_back("keypad")
    assert unchanged_by(app, RankKey(Rank.EIGHT), RankKey(Rank.EIGHT, long=True)) == (
        "P2 holds no 8: their cards are known")


def test_a_crib_card_whose_rank_is_all_in_says_so() -> None:
    app = new_game("keypad")
    app.rank(Rank.FIVE)  # the starter
    # P2 5, P1 5, P2 5: all four 5s in; then K 6 (31), Q 4 9: every card laid.
    for rank in (Rank.FIVE, Rank.FIVE, Rank.FIVE, Rank.KING, Rank.SIX, Rank.QUEEN, Rank.FOUR,
                 Rank.NINE):
        app.rank(rank)
    app.read()
    assert app.game.phase is Phase.CRIB and app.view.screen is Screen.CRIB
    assert unchanged_by(app, RankKey(Rank.FIVE)) == "all four 5s are already in"


def suit_asked(kit: str) -> App:
    """The starter's suit asked (tests/test_app_starter_suit.py's deal, Ben's A♦ laid
    away): Ann's J♥ is his nobs if the ace turned is a heart."""
    plays = ((1, "5C"), (0, "JH"), (1, "5D"), (0, "2H"), (1, "6H"), (0, "3C"), (1, "7S"))
    record = [header(), entry("deal", dealer=0),
              entry("dealt", player=0, cards=["JH", "2H", "3C", "9S", "KD", "QD"]),
              entry("dealt", player=1, cards=["5C", "5D", "6H", "7S", "8C", "AD"]),
              entry("starter", card="AH", suit_known=False),
              *(play(p, card) for p, card in plays)]
    app = App(initial_state(Config(input=InputConfig(kit=kit)), resume=record))
    app.read()
    app.pick("9")
    app.read()
    assert app.game.asked is not None
    return app


def test_a_key_that_names_no_suit_says_which_keys_do() -> None:
    app = suit_asked("keypad")
    reason = unchanged_by(app, RankKey(Rank.SEVEN), RankKey(Rank.KING, long=True))
    assert reason == "The starter's suit is asked: keys 1♣ 3♥ 4♠. K names no suit"
    # The ace of diamonds was dealt to Ben: its key says so, from the engine.
    assert unchanged_by(app, RankKey(Rank.TWO)) == (
        "the starter cannot be A♦: that card was dealt to Ben")


def test_no_card_fits_says_so_and_what_go_does() -> None:
    app = taken_back()
    for label in ("4", "3", "2", "A"):  # 24, 27, 29, 30: P2 holds the 6
        app.pick(label)
    view = app.view
    assert app.game.count == 30 and app.game.to_act == 1
    assert view.picker is not None and view.picker.options == ()
    assert view.picker.empty == ("No card fits", "GO says go")
    assert "P2 plays: No card fits, GO says go" in panel(view)
    assert screen_words(view) == "Deal 1. P2 plays: No card fits, GO says go"
    assert wheel_words(view.picker) == "No card fits, GO says go"
    assert view.hint == "GO go"
    assert unchanged_by(app, Press(Button.OK), Press(Button.OK, long=True),
                        Press(Button.GO, long=True)) == "No card of P2's fits at 30: GO says go"
    app.feed(GO)
    assert '"type": "go"' in app.record[-1]


def test_a_rank_key_on_the_advice_cards_says_why_it_chooses_nothing() -> None:
    app = new_game("keypad")
    app.feed(MENU)
    rows = [row.split(" ", 1)[1] for row in app.view.lines]
    app.feed(KnobTurn(rows.index("Discard advice")), OK)
    assert app.view.title == "Whose cards?"
    app.feed(OK)  # P1's
    app.rank(Rank.FIVE)  # the rank, then its suit
    assert unchanged_by(app, RankKey(Rank.SEVEN)) == (
        "The suit of the 5 is asked: turn to it and press OK, or UNDO for another rank")
    app.rank(Rank.FIVE)  # the first suit offered
    for _ in range(3):
        app.rank(Rank.FIVE)
        app.rank(Rank.FIVE)
    assert unchanged_by(app, RankKey(Rank.FIVE)) == "all four 5s are already in"


def test_no_card_left_fits_is_said_on_the_keypad(tmp_path: Path) -> None:
    """Every ace is in and the count is 30: P2's wheel offers nothing, and says so as P1's
    7 is laid; OK says why and enters nothing; GO says go."""
    config = parse_config('[input]\nkit = "keypad"\n[voice]\naudio = true\n')
    store = open_store(tmp_path / "store", owner="test")
    heard = Transcript()
    try:
        # New game, Start, P1 deals; starter A; A A A (every ace in), K Q 7: 30; OK, then GO.
        result = run_script(parse_script("ok ok 2 A A A A K Q 7 ok ok go"), config, store,
                            speech=VoiceHook(heard))
    finally:
        store.close()
    empty = next(view for view in result.views if view.picker is not None
                 and view.picker.empty and not view.picker.options)
    assert empty.count == 30 and empty.turn == "P2"
    assert "P2 plays: No card fits, GO says go" in panel(empty)
    said = heard.texts()
    at = said.index("P1, seven: thirty")
    assert said[at + 1:at + 4] == ["No card fits, GO says go", "[refused]",
                                   "Not allowed. No card left fits at 30: GO says go"]
    assert any("go" in text.lower() for text in said[at + 4:])
    final = result.views[-1]
    assert final.count == 30 and final.turn == "P1"  # P2's go entered: P1 to play


def test_a_hand_card_whose_rank_is_all_in_says_so() -> None:
    """Five-card cribbage: the cards not played are entered as the hand is counted. The
    starter 5, P2's 5 and P1's 5 laid, P2's last 5 entered on the hand's wheel: a fifth 5
    says why."""
    app = App.start("keypad")
    app.feed(OK, RankKey(Rank.SIX), RankKey(Rank.ACE))  # setup: Five-card on, Start
    app.rank(Rank.TWO)  # P1 deals
    for _ in range(3):
        app.rank(Rank.FIVE)  # the starter, P2's 5, P1's 5
    app.feed(GO, GO)  # the play stops at the first go
    app.read()
    assert app.view.screen is Screen.HAND
    app.rank(Rank.FIVE)
    assert app.view.lines == ("5 5",)
    assert unchanged_by(app, RankKey(Rank.FIVE), RankKey(Rank.FIVE, long=True)) == (
        "all four 5s are already in")


def test_a_starter_rank_dealt_whole_to_the_hands_says_so() -> None:
    """Both hands entered with their suits (the open-handed first game), every 5 among them:
    the starter's wheel has no 5, and its key says why."""
    record = [header(), entry("deal", dealer=0),
              entry("dealt", player=0, cards=["5C", "5D", "3C", "9S", "KD", "QD"]),
              entry("dealt", player=1, cards=["5H", "5S", "6H", "7S", "8C", "AD"])]
    app = App(initial_state(Config(input=InputConfig(kit="keypad")), resume=record))
    app.read()
    assert app.view.screen is Screen.STARTER
    assert unchanged_by(app, RankKey(Rank.FIVE)) == (
        "no 5 can be the starter: every 5 was dealt to a hand")


def test_a_phone_names_the_cards_taken_back_by_rank() -> None:
    """The seat's own page: the cards it holds again after the take-back were laid by rank
    on the box, so the page is told to name them by rank (their codes carry the wheel's
    stand-in suits, which the page never shows)."""
    app = taken_back()
    assert app.state.session is not None
    mine = seat_json(app.state.session.game, 1, game_id=None, phones=frozenset({1}))
    assert len(mine["held"]) == 3 and mine["by_rank"] == mine["held"]
    assert [code[0] for code in mine["held"]] == ["2", "4", "6"]
