"""Every table flow through the real ``step``: setup, dealer, cut, a whole deal, undo, quick
mode, penalties, renege offers, muggins, game over, matches, resume, menus and shut down."""

from __future__ import annotations

import json

from pegboard.app.effects import Persist, PersistNewGame, PersistUndo, PowerOff, UpdateLeds
from pegboard.app.inputs import Button, KnobTurn, Press, RankKey
from pegboard.app.state import Menu, WheelScreen
from pegboard.app.view import Screen
from pegboard.rules.cards import Rank
from pegboard.rules.events import Deal, GameHeader, Play
from pegboard.rules.state import Phase
from tests.support.app_driver import (
    GO,
    HOLD_OK,
    MENU,
    OK,
    UNDO,
    App,
    muggins_game,
    new_game,
    started,
)


def play_first_deal(app: App) -> App:
    """Starter 5; the play 4 4 7 8 8 | K Q 9 with P2 leading; crib A 2 3 6."""
    app.pick("5")
    for label in ("4", "4", "7", "8", "8", "K", "Q", "9"):
        app.pick(label)
    return app


def test_new_game_to_first_card_takes_four_presses() -> None:
    app = App.start()
    assert app.view.screen is Screen.HOME
    app.feed(OK)
    assert app.view.screen is Screen.SETUP  # type: ignore[comparison-overlap]
    assert app.view.lines[0] == "Start"
    app.feed(OK)
    assert isinstance(app.effects[0], PersistNewGame)
    assert app.effects[0].header.players == ("P1", "P2")
    assert app.view.screen is Screen.DEALER
    assert app.view.hint == "OK choose"  # a first-time player is told which key picks a row
    app.feed(KnobTurn(1), OK)  # "P1 deals"
    assert app.view.screen is Screen.STARTER
    assert app.game.dealer == 0 and app.game.phase is Phase.STARTER


def test_setup_options_change_the_header() -> None:
    app = App.start()
    app.feed(OK)  # setup
    app.feed(KnobTurn(1), OK)  # players 2 -> 3
    assert app.view.lines[1] == "Players: 3"
    app.feed(KnobTurn(1), OK)  # seat 1 name
    assert app.view.lines[2] == "Seat 1: Ann"
    rows = list(app.view.lines)
    app.feed(KnobTurn(rows.index("Muggins: off") - (app.view.selected or 0)), OK)
    assert "Muggins: on" in app.view.lines
    app.feed(KnobTurn(-(app.view.selected or 0)), OK)
    header = GameHeader  # the engine reads back exactly what was chosen
    del header
    first = json.loads(app.record[0])
    assert first["players"] == ["Ann", "P2", "P3"]
    assert first["rules"].get("muggins") is True


def test_a_whole_deal_is_recorded_and_counted() -> None:
    app = play_first_deal(new_game())
    gs = app.game
    assert gs.phase is Phase.CRIB
    assert gs.scores == app.replayed().scores
    # P1: pair 2, last card 1; P2: fifteen 2, thirty-one with a pair 4; then the hands.
    titles = [page.title for page in app.pages]
    assert titles[0] == "End of the play" and app.pages[0].lines == ("P1: Last card for 1",)
    titles = titles[1:]
    assert titles[0].startswith("P2's hand") and titles[1].startswith("P1's hand")
    hands = [a for a in gs.awards if a.reason == "hand"]
    assert [int(t.rsplit(" ", 1)[1]) for t in titles] == [a.points for a in hands]
    app.read()
    assert app.view.screen is Screen.CRIB
    for label in ("A", "2", "3", "6"):
        app.pick(label)
    assert app.pages and app.pages[0].title.startswith("P1's crib")
    app.read()
    gs = app.game
    assert gs.phase is Phase.STARTER and gs.dealer == 1 and gs.deal_no == 2
    assert app.view.screen is Screen.STARTER  # type: ignore[comparison-overlap]
    assert app.replayed().scores == gs.scores
    assert app.replayed().phase is Phase.STARTER


def test_play_screen_shows_count_turn_and_award() -> None:
    app = new_game()
    app.pick("5")
    app.pick("10")
    app.pick("5")
    v = app.view
    assert v.screen is Screen.PLAY
    assert v.count == 15 and v.pile == ("10", "5") and v.turn == "P2"
    assert v.award == "P1: Fifteen for 2"
    assert [s.score for s in v.sides] == [2, 0]
    assert v.sides[0].dealer and v.sides[1].to_act
    assert any(isinstance(e, UpdateLeds) for e in app.effects)


def test_go_and_the_go_point() -> None:
    app = new_game()
    app.pick("5")
    for label in ("K", "Q", "J"):
        app.pick(label)
    assert app.game.count == 30
    app.feed(GO)  # P1 cannot play
    assert app.game.to_act == 0 or app.game.to_act == 1
    app.feed(GO)
    assert app.game.count == 0
    assert app.view.award.endswith("Go for 1")


def test_undo_takes_back_one_entry_and_the_record_says_so() -> None:
    app = new_game()
    app.pick("5")
    app.pick("10")
    app.pick("5")
    assert app.game.scores == (2, 0)
    app.feed(UNDO)
    assert isinstance(app.effects[0], PersistUndo)
    assert app.game.scores == (0, 0) and app.game.count == 10
    assert app.view.award.startswith("Undone")
    assert app.replayed().count == 10
    app.feed(UNDO, UNDO)  # the 10, then the starter
    assert app.game.phase is Phase.STARTER
    app.feed(UNDO)  # the deal itself: back to choosing the dealer
    assert app.view.screen is Screen.DEALER


def test_undo_after_the_crib_takes_back_the_automatic_deal_too() -> None:
    app = play_first_deal(new_game()).read()
    for label in ("A", "2", "3", "6"):
        app.pick(label)
    app.read()
    assert app.game.deal_no == 2
    app.feed(UNDO)
    assert [type(e) for e in app.effects][:2] == [PersistUndo, PersistUndo]
    assert app.game.phase is Phase.CRIB and app.game.deal_no == 1
    assert app.view.screen is Screen.CRIB


def test_undo_inside_the_crib_drops_the_last_card_only() -> None:
    app = play_first_deal(new_game()).read()
    app.pick("A")
    app.pick("2")
    assert app.view.lines == ("A 2",)
    app.feed(UNDO)
    assert app.view.lines == ("A",)
    assert app.game.phase is Phase.CRIB


def test_cut_for_deal_with_a_tie() -> None:
    app = App.start()
    app.feed(OK, OK)  # new game, start
    app.feed(OK)  # cut for deal
    assert app.view.screen is Screen.CUT
    app.pick("3")
    app.pick("3")
    assert app.view.screen is Screen.MESSAGE  # type: ignore[comparison-overlap]
    assert app.view.title == "A tie"
    app.feed(OK)
    app.pick("9")
    app.pick("2")
    assert app.game.dealer == 1 and app.game.phase is Phase.STARTER
    assert app.view.title == "The cut"  # shown as it fell before the deal goes on
    # Without teaching (no coach's page on the deal) the page says how to deal in a line.
    assert app.view.lines == ("P1 cut 9", "P2 cut 2", "P2 deals: low card",
                              "Deal 6, lay 2 away")
    app.feed(OK)
    assert app.view.screen is Screen.STARTER
    assert app.replayed().dealer == 1


def test_heels_pegs_two_for_the_dealer() -> None:
    app = new_game()
    app.pick("J")
    assert app.game.scores == (2, 0)
    assert "His heels" in app.view.award


def test_keypad_rank_keys_enter_cards_and_pick_rows() -> None:
    app = App.start("keypad")
    app.feed(RankKey(Rank.ACE))  # row 1: new game
    assert app.view.screen is Screen.SETUP and app.view.lines[0] == "1 Start"
    app.feed(RankKey(Rank.ACE))  # start
    app.feed(RankKey(Rank.TWO))  # "P1 deals"
    app.rank(Rank.SEVEN)  # starter
    app.rank(Rank.EIGHT)
    app.rank(Rank.SEVEN)  # fifteen for P1
    assert app.game.scores == (2, 0)
    assert [c.rank for c in app.game.pile] == [Rank.EIGHT, Rank.SEVEN]
    app.rank(Rank.KING)  # 25
    app.rank(Rank.KING)  # 35 is not allowed: nothing happens
    assert app.game.count == 25


def test_suit_facts_by_holding_ok() -> None:
    app = new_game()
    app.pick("5")
    app.pick("J")  # P2
    app.pick("5")  # P1
    app.pick("7, in the flush")  # P2: same suit as the jack
    p2 = app.game.played[1]
    assert p2[0].suit is p2[1].suit
    assert app.game.starter is not None and p2[0].suit is not app.game.starter.suit


def test_nobs_counts_when_chosen() -> None:
    app = new_game()
    app.pick("5")
    for label in ("J, with nobs", "A", "2", "A", "3", "A", "4", "2"):
        app.pick(label)
    hand = next(a for a in app.game.awards if a.reason == "hand" and a.player == 1)
    assert any(item.kind == "nobs" for item in hand.items)


def test_keypad_hold_rank_key_for_a_fact() -> None:
    app = App.start("keypad")
    app.feed(RankKey(Rank.ACE), RankKey(Rank.ACE), RankKey(Rank.TWO))
    app.rank(Rank.FIVE)
    app.rank(Rank.JACK, long=True)  # the hold enters the jack with its only fact, nobs
    starter = app.game.starter
    assert starter is not None and app.game.played[1][0].suit is starter.suit


def test_five_card_flush_re_suits_the_hand() -> None:
    app = new_game()
    app.pick("5")
    app.pick("2")  # P2
    app.pick("A")
    app.pick("3, in the flush")
    app.pick("A")
    app.pick("4, in the flush")
    app.pick("A")
    app.pick("6, flush of five")  # P2's last card: a flush that matches the starter too
    app.pick("9")
    hand = next(a for a in app.game.awards if a.reason == "hand" and a.player == 1)
    flush = [i for i in hand.items if i.kind == "flush"]
    assert flush and flush[0].points == 5
    assert app.replayed().scores == app.game.scores


def test_quick_mode_pegs_points() -> None:
    app = started("Enter: cards")
    assert app.view.screen is Screen.PEG
    app.feed(KnobTurn(5), OK)
    assert app.game.scores == (5, 0)
    app.feed(GO, KnobTurn(12), OK)
    assert app.game.scores == (5, 12)
    app.feed(UNDO)
    assert app.game.scores == (5, 0)
    assert app.view.screen is Screen.PEG


def test_penalty_from_the_menu() -> None:
    app = new_game()
    app.feed(MENU)
    assert app.view.screen is Screen.MENU
    rows = [r for r in app.view.lines]
    app.feed(KnobTurn(rows.index("Penalty")), OK)
    assert app.view.screen is Screen.PENALTIES  # type: ignore[comparison-overlap]
    names = list(app.view.lines)
    app.feed(KnobTurn(names.index("Moving a peg")), OK)
    app.feed(OK)  # offender P1
    assert app.view.title == "Apply penalty?"
    app.feed(OK)
    assert app.game.scores == (0, 2)
    assert app.view.screen is Screen.STARTER
    last = json.loads(app.record[-1])
    assert last == {"type": "penalty", "player": 0, "infraction": "moving-peg", "points": 2}


def test_a_renege_is_shown_and_offered() -> None:
    app = new_game()
    app.pick("5")
    app.pick("K")  # P2 10
    app.pick("Q")  # P1 20
    app.feed(GO)  # P2 says go at 20 ...
    app.pick("A")  # P1 21
    app.pick("A")  # 22
    app.feed(GO)
    # ... but P2 later plays a 2, which fitted: a renege once P2's hand is known.
    for label in ("2", "3", "4", "6", "7"):
        if app.game.phase is not Phase.PLAY:
            break
        app.pick(label)
    while app.game.phase is Phase.PLAY:
        app.feed(GO) if not app.view.picker or not app.view.picker.options else app.pick(
            app.view.picker.options[0]
        )
    renege = [p for p in app.pages if p.title == "Renege"]
    assert renege, app.pages
    while app.pages[0].title != "Renege":
        app.feed(OK)
    assert app.game.scores == (9, 13)
    app.feed(OK)  # apply the offered penalty: the play is taken back to P2's go (ACC 7.3)
    assert json.loads(app.record[-1])["infraction"] == "renege"
    assert app.game.scores == (6, 0)  # everything pegged since the go is gone; 6 to P1
    assert app.view.title == "Taken back"
    assert app.view.lines == ("Back to P2's go, 20", "P1 takes back A A 3",
                              "P2 takes back 2 4 6", "P1 loses 9", "P2 loses 13")
    app.read()
    assert app.view.screen is Screen.PLAY and app.view.count == 20 and app.view.turn == "P2"
    assert app.view.award == "P1: Penalty for 6"


def test_muggins_claim_and_call() -> None:
    app = muggins_game()
    app.pick("5")
    app.pick("10")
    app.pick("5")  # P1 makes fifteen: claim it
    assert app.view.title == "P1 claims" and app.view.lines[0] == "fifteen: 2"
    app.feed(KnobTurn(-1), OK)  # claims 1 of 2
    assert app.game.scores == (1, 0)
    assert app.view.screen is Screen.PLAY  # the miss is P2's to spot
    app.feed(MENU, KnobTurn(1), OK)  # P2 calls muggins from the menu
    assert app.game.scores == (1, 1)


def test_game_over_and_finish() -> None:
    app = started("Enter: cards")
    app.feed(KnobTurn(100), OK, KnobTurn(21), OK)
    assert app.game.winner == 0
    app.read()
    assert app.view.screen is Screen.GAME_OVER
    assert app.view.title == "P1 wins"
    assert app.view.lines == ("Double skunk: 3 game pts", "Spread 121 (from 121)")
    assert app.view.race == ()  # the race is folded only when it is shown
    app.feed(Press(Button.GO))  # the score race of the game, as a small chart
    assert app.view.screen is Screen.RACE  # type: ignore[comparison-overlap]
    assert app.view.race[0] == (0, 0) and app.view.race[-1] == (121, 0)
    assert not app.finished
    app.feed(Press(Button.GO))  # and back to the result
    assert app.view.screen is Screen.GAME_OVER
    app.feed(Press(Button.GO), OK)  # OK moves on from either
    assert app.finished and app.finished[0]["winner"] == 0
    assert app.view.screen is Screen.HOME


def test_match_plays_the_next_game() -> None:
    app = started("Enter: cards", "Match: 1 game")
    app.feed(KnobTurn(121), OK)
    app.read()
    assert app.view.screen is Screen.GAME_OVER
    app.feed(OK)  # next game of the match
    assert app.game.game_no == 2 and app.game.scores == (0, 0)
    assert not app.finished


def test_resume_continues_exactly() -> None:
    app = new_game()
    app.pick("5")
    app.pick("10")
    app.pick("5")
    resumed = App(App.start().state)
    from pegboard.app.machine import initial_state
    from pegboard.config import Config

    resumed.state = initial_state(Config(), resume=app.record)
    assert resumed.game.scores == app.game.scores and resumed.game.count == 15
    assert resumed.view.title == "Game restored"
    resumed.feed(OK)
    assert resumed.view.screen is Screen.PLAY and resumed.view.turn == "P2"
    resumed.record = list(app.record)
    resumed.pick("5")
    assert resumed.game.scores == (2, 2)


def test_hold_menu_shuts_down_after_confirming() -> None:
    app = new_game()
    app.feed(Press(Button.MENU, long=True))
    assert app.view.screen is Screen.CONFIRM and app.view.title == "Shut down?"
    app.feed(OK)  # "No" is first
    assert app.view.screen is Screen.STARTER  # type: ignore[comparison-overlap]
    app.feed(Press(Button.MENU, long=True), KnobTurn(1), OK)
    assert app.effects == [PowerOff()]
    assert app.view.screen is Screen.SAVED and app.view.title == "Game saved"
    assert [side.score for side in app.view.sides] == [0, 0]


def test_end_game_from_the_menu_finishes_it() -> None:
    app = new_game()
    app.feed(MENU)
    rows = list(app.view.lines)
    app.feed(KnobTurn(rows.index("End game")), OK, KnobTurn(1), OK)
    assert app.finished and app.finished[0]["winner"] is None
    assert app.view.screen is Screen.HOME


def test_every_accepted_entry_is_persisted_before_anything_else() -> None:
    app = new_game()
    app.pick("5")
    app.pick("10")
    app.pick("5")
    assert isinstance(app.effects[0], Persist)
    assert app.effects[0].entry == Play(0, app.game.pile[-1])
    assert isinstance(app.effects[-1], UpdateLeds)


def test_holding_ok_on_the_keypad_opens_the_menu() -> None:
    app = App.start("keypad")
    app.feed(RankKey(Rank.ACE), RankKey(Rank.ACE), RankKey(Rank.TWO))
    app.feed(HOLD_OK)
    assert isinstance(app.state.screen, Menu)


def test_session_is_a_value() -> None:
    app = new_game()
    app.pick("5")
    base = app.state
    a = App(base)
    a.pick("10")
    b = App(base)
    b.pick("K")
    assert a.game.pile != b.game.pile
    again = App(base)
    again.pick("10")
    assert again.game.pile == a.game.pile
    assert isinstance(again.state.session.events[-1], Play)  # type: ignore[union-attr]
    assert isinstance(again.state.session.events[0], Deal)  # type: ignore[union-attr]


def test_go_jumps_the_starter_and_crib_wheels_by_group() -> None:
    app = new_game()
    pv = app.view.picker
    assert pv is not None and pv.options[pv.index] == "6"
    assert app.view.hint == "OK starter  GO jump"
    seen = []
    for _ in range(4):
        app.feed(GO)
        pv = app.view.picker
        assert pv is not None
        seen.append(pv.options[pv.index])
    assert seen == ["10", "A", "6", "10"]  # 6-9 -> 10-K -> A-5 -> 6-9 -> ...
    assert app.game.phase is Phase.STARTER  # GO entered nothing
    app.feed(OK)
    assert app.game.starter is not None and app.game.starter.rank is Rank.TEN
    for label in ("4", "4", "7", "8", "8", "K", "Q", "9"):
        app.pick(label)
    app.read()
    assert app.view.screen is Screen.CRIB
    pv = app.view.picker
    assert pv is not None and pv.options[pv.index] == "4"  # the crib's first card: the 4
    app.feed(GO, GO)  # in the crib too (4 -> 6 -> 10); still no card entered
    pv = app.view.picker
    assert pv is not None and pv.options[pv.index] == "10"
    assert isinstance(app.state.screen, WheelScreen) and not app.state.screen.pending
    app.feed(GO, OK)
    assert isinstance(app.state.screen, WheelScreen)
    assert [c.rank for c in app.state.screen.pending] == [Rank.ACE]
