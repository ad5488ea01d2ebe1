"""The device rules of the rebuilt app, each pinned from what the screen says.

No entry is ever dropped; every count gets a page (a zero hand too); a forgotten flush or
nobs costs one press; turning never leaves a page; the game-over screen says everything at
once; table options survive resume; an ended game is kept as abandoned; the wheel keeps its
order and always offers the 10.
"""

from __future__ import annotations

import json
from pathlib import Path

from pegboard.app.inputs import Button, KnobTurn, Press, RankKey
from pegboard.app.machine import initial_state
from pegboard.app.state import Claiming, Reading
from pegboard.app.view import Screen
from pegboard.config import Config, InputConfig
from pegboard.rules.cards import Rank
from pegboard.rules.state import Phase
from pegboard.sim.keys import parse_script
from pegboard.sim.script import run_script
from pegboard.store import Store
from tests.support.app_driver import GO, MENU, OK, UNDO, App, new_game


def setup_game(app: App, *changes: str) -> App:
    """New game with the setup rows named in ``changes`` pressed once each, then Start."""
    app.feed(OK)
    for label in changes:
        rows = list(app.view.lines)
        names = [r.split(" ", 1)[1] if app.state.keypad else r for r in rows]
        row = next(i for i, r in enumerate(names) if r.startswith(label))
        app.feed(KnobTurn(row - (app.view.selected or 0)), OK)
    app.feed(KnobTurn(-(app.view.selected or 0)), OK)
    return app


def muggins_game() -> App:
    app = setup_game(App.start(), "Muggins")
    return app.feed(KnobTurn(1), OK)  # P1 deals


def play_out(app: App, labels: tuple[str, ...]) -> App:
    """Pick each card (or say go for "go"); in a muggins game every play score is claimed in
    full as it comes up."""
    for label in labels:
        claim_plays(app)
        if label == "go":
            app.feed(GO)
        else:
            app.pick(label)
    return app


def claim_plays(app: App) -> App:
    """Claim every waiting play score in full (stopping at a hand or crib claim)."""
    while isinstance(app.state.screen, Claiming) and not app.view.lines[0].startswith(
            ("hand", "crib")):
        shown = int(app.view.lines[0].rsplit(":", 1)[1])
        app.feed(KnobTurn(app.game.pending_claims[0].points - shown), OK)
        app.read()
    return app


# -- no entry is ever dropped --------------------------------------------------------------


def test_the_muggins_crib_is_claimed_before_the_next_deal(tmp_path: Path) -> None:
    """The script from the report: a muggins game's first deal through the real device."""
    keys = parse_script("ok right*6 ok left*6 ok right ok ok\nok*60\n")
    config = Config(input=InputConfig(kit="encoder"))
    result = run_script(keys, config, Store(tmp_path / "store"))
    titles = [v.title for v in result.views]
    crib_claim = [i for i, v in enumerate(result.views)
                  if v.screen is Screen.CLAIM and "crib" in v.lines[0]]
    assert crib_claim, titles
    deal_two = [i for i, t in enumerate(titles) if t.startswith("Deal 2")]
    assert not deal_two or deal_two[0] > crib_claim[0]
    record = [json.loads(line) for line in result.record.splitlines()]
    claims = [r for r in record if r["type"] == "claim"]
    crib = next(i for i, r in enumerate(record) if r["type"] == "crib")
    assert any(i > crib and r["type"] == "claim" for i, r in enumerate(record)), claims


def test_an_under_claimed_hand_is_offered_for_muggins_before_the_next_claim() -> None:
    app = muggins_game()
    claim_plays(play_out(app, ("5", "4", "4", "7", "8", "8", "K", "Q", "9")))
    assert app.view.title == "P2 claims" and app.view.lines[0] == "hand: 4"
    true = app.game.pending_claims[0].points
    assert true == 4
    app.feed(KnobTurn(-2), OK)  # P2 claims 2 of 4 (the dial starts at 4 for every hand)
    assert app.view.title == "P1 claims"  # nothing asked, nothing shown of the count
    before = app.game.scores
    app.feed(MENU)
    assert app.view.lines[1] == "Muggins: P1"
    app.feed(KnobTurn(1), OK)  # P1 calls muggins before claiming her own hand
    assert app.game.scores == (before[0] + 2, before[1])
    assert app.pages[0].lines == ("P1 takes 2", "P2 missed 2", "(hand)")
    app.read()
    assert app.view.title == "P1 claims"


def past_the_play(app: App) -> App:
    """Read the end-of-the-play page, when the last card brought one up."""
    if app.pages and app.pages[0].title == "End of the play":
        app.feed(OK)
    return app


def test_the_last_cards_point_has_its_own_page_before_the_show() -> None:
    app = play_out(new_game(), ("5", "4", "4", "7", "8", "8", "K", "Q", "9"))
    first = app.pages[0]
    assert app.view.title == "End of the play" and app.view.screen is Screen.SHOW
    assert first.lines == ("P1: Last card for 1",)
    # The board moved for the last card alone: P1 2 -> 3, P2 still at 6.
    assert [(s.score, s.back) for s in app.view.sides] == [(3, 2), (6, 2)]
    app.feed(OK)
    assert app.view.title == "P2's hand: 4" and not app.view.award


def test_the_dealers_hand_is_not_on_the_board_while_the_pones_count_is_read() -> None:
    app = past_the_play(play_out(new_game(), ("5", "4", "4", "7", "8", "8", "K", "Q", "9")))
    pone, dealer = app.pages[0], app.pages[1]
    assert pone.title == "P2's hand: 4" and dealer.title == "P1's hand: 2"
    assert [s.score for s in app.view.sides] == [3, 10]  # P1 has not counted yet
    app.feed(OK)
    assert [s.score for s in app.view.sides] == [5, 10]
    assert app.game.scores == (5, 10)


def test_a_hand_of_nothing_gets_its_page() -> None:
    app = new_game()
    # P2 holds A 3 7 9 and the starter is a king: nothing at all.
    past_the_play(play_out(app, ("K", "A", "4", "3", "6", "7", "8", "go", "2", "9")))
    titles = [p.title for p in app.pages]
    assert titles == ["P2's hand: 0", "P1's hand: 0"], titles
    zero = app.pages[0]
    assert zero.lines == ("nineteen", "cards: A 3 7 9")
    assert zero.screen is Screen.SHOW
    assert app.view.screen is Screen.SHOW and app.view.title == "P2's hand: 0"


# -- a forgotten flush or nobs costs one press ------------------------------------------------


def forgotten_flush(kit: str) -> App:
    """P2 lays 2 4 6 8 (four of one suit on the table) without saying flush."""
    app = new_game(kit) if kit == "encoder" else keypad_game()
    play_out(app, ("K",))
    play_out(app, ("2", "A", "4", "A", "6", "A", "8", "3"))
    return past_the_play(app)


def keypad_game() -> App:
    app = App.start("keypad")
    app.feed(RankKey(Rank.ACE), RankKey(Rank.ACE), RankKey(Rank.TWO))  # new, start, P1 deals
    return app


def test_a_forgotten_flush_is_one_go_at_the_show() -> None:
    for kit in ("encoder", "keypad"):
        app = forgotten_flush(kit)
        page = app.pages[0]
        assert page.title.startswith("P2's hand: ")
        without = int(page.title.rsplit(" ", 1)[1])
        assert app.view.hint == "OK next  GO +flush 4"
        app.feed(GO)
        after = app.pages[0]
        assert after.title == f"P2's hand: {without + 4}", kit
        assert any(line.startswith("flush of 4") for line in after.lines)
        assert app.replayed().scores == app.game.scores
        hand = next(a for a in app.game.awards if a.reason == "hand" and a.player == 1)
        assert hand.points == without + 4


def test_go_cycles_back_to_the_plain_hand() -> None:
    app = forgotten_flush("encoder")
    plain = app.pages[0].title
    seen = [plain]
    for _ in range(4):
        app.feed(GO)
        seen.append(app.pages[0].title)
        if app.pages[0].title == plain:
            break
    assert seen[-1] == plain and len(seen) > 2, seen


def test_a_forgotten_flush_can_be_added_before_claiming() -> None:
    app = muggins_game()
    play_out(app, ("K",))
    claim_plays(play_out(app, ("2", "A", "4", "A", "6", "A", "8", "3")))
    assert app.view.title == "P2 claims"
    worth = app.game.pending_claims[0].points
    assert "GO +flush 4" in app.view.hint
    app.feed(GO)
    assert app.game.pending_claims[0].points == worth + 4
    assert isinstance(app.state.screen, Claiming)


# -- the knob never crosses a screen change ---------------------------------------------------


def test_turning_past_the_end_of_a_page_stays_on_the_page() -> None:
    app = past_the_play(play_out(new_game(), ("5", "4", "4", "7", "8", "8", "K", "Q", "9")))
    app.feed(OK)  # the dealer's count: the last page before the crib
    assert app.pages and app.pages[0].title.startswith("P1's hand")
    app.feed(KnobTurn(5), KnobTurn(5), KnobTurn(-1))
    assert app.pages and app.pages[0].title.startswith("P1's hand")
    app.feed(OK)
    pv = app.view.picker
    assert app.view.screen is Screen.CRIB and pv is not None
    assert pv.options[pv.index] == "4"  # the wheel did not move from its start


def test_a_claim_is_not_changed_by_turns_on_the_page_before_it() -> None:
    app = muggins_game()
    play_out(app, ("5", "10"))
    app.feed(KnobTurn(3))  # P1 makes nothing yet; turning the wheel only
    app.pick("5")  # fifteen: a claim
    assert isinstance(app.state.screen, Claiming) and app.view.lines[0] == "fifteen: 2"


# -- the end of a game -----------------------------------------------------------------------


def test_game_over_says_winner_skunk_and_game_points_at_once() -> None:
    app = setup_game(App.start(), "Enter")
    app.feed(KnobTurn(121), OK)
    app.read()
    v = app.view
    assert v.screen is Screen.GAME_OVER
    assert v.title == "P1 wins" and v.lines == ("Double skunk: 3 game pts", "Spread 121 (from 121)")
    assert v.sides[0].winner and v.sides[0].score == 121


def test_an_ended_game_is_kept_as_abandoned() -> None:
    app = new_game()
    app.pick("5")
    app.feed(MENU)
    rows = list(app.view.lines)
    app.feed(KnobTurn(rows.index("End game")), OK, KnobTurn(1), OK)
    assert app.finished[0]["abandoned"] is True and app.finished[0]["winner"] is None


# -- table options live in the record ----------------------------------------------------------


def test_teaching_chosen_at_setup_is_in_the_header_and_survives_resume() -> None:
    app = setup_game(App.start(), "Teaching")
    assert json.loads(app.record[0])["table"] == {"teaching": True}
    resumed = App(initial_state(Config(), resume=app.record))
    assert resumed.state.teaching


def test_teaching_turned_on_from_the_menu_survives_resume_and_undo() -> None:
    app = new_game()
    app.pick("5")
    app.feed(MENU)
    rows = list(app.view.lines)
    app.feed(KnobTurn(rows.index("Teaching: off")), OK, UNDO)
    assert json.loads(app.record[-1]) == {"type": "option", "teaching": True}
    app.feed(UNDO)  # takes back the starter, keeps the option
    assert app.game.phase is Phase.STARTER and app.state.teaching
    resumed = App(initial_state(Config(), resume=app.record))
    assert resumed.state.teaching and resumed.game.phase is Phase.STARTER


def test_pegging_by_points_survives_resume() -> None:
    app = setup_game(App.start(), "Enter")
    app.feed(KnobTurn(7), OK)
    resumed = App(initial_state(Config(), resume=app.record))
    resumed.feed(OK)  # "Game restored"
    assert resumed.view.screen is Screen.PEG and resumed.game.scores == (7, 0)


# -- the wheel ----------------------------------------------------------------------------------


def test_the_play_wheel_keeps_its_order_and_always_offers_the_ten() -> None:
    app = new_game()
    app.pick("5")
    orders = []
    for label in ("4", "10", "6", "5"):
        pv = app.view.picker
        assert pv is not None
        orders.append(pv.options)
        app.pick(label)
    for options in orders:
        assert list(options) == sorted(options, key=["A", "2", "3", "4", "5", "6", "7", "8",
                                                     "9", "10", "J", "Q", "K"].index)
        assert "10" in options


def test_hold_go_jumps_the_play_wheel_and_enters_nothing() -> None:
    app = new_game()
    app.pick("5")
    pv = app.view.picker
    assert pv is not None
    start = pv.options[pv.index]
    app.feed(Press(Button.GO, long=True))
    pv = app.view.picker
    assert pv is not None and pv.options[pv.index] != start
    assert app.game.count == 0 and app.game.phase is Phase.PLAY


def test_an_illegal_card_is_refused_and_the_game_is_unchanged() -> None:
    app = new_game("keypad") if False else keypad_game()
    app.rank(Rank.FIVE)
    for rank in (Rank.KING, Rank.QUEEN, Rank.JACK):
        app.rank(rank)
    before = (app.game, list(app.record))
    app.rank(Rank.TWO)  # 32: not on the wheel: nothing entered, and the screen says why
    assert (app.game, app.record) == before
    assert isinstance(app.state.screen, Reading)
    assert " ".join(app.view.lines) == "2 does not fit: 30 and 2 make 32, over 31"


def test_the_wheel_shows_a_run_of_neighbours_and_never_skips_the_ten() -> None:
    from pegboard.app.view import PickerView
    from pegboard.ui.render import wheel_layout

    labels = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
    for chars in (21, 13):  # the bottom line, and the play screen beside the count
        for index in range(len(labels)):
            placed = wheel_layout(PickerView("", labels, index), 0, chars)
            shown = {i for i, _ in placed}
            offsets = sorted(((i - index + 6) % 13) - 6 for i in shown)
            assert offsets == list(range(offsets[0], offsets[-1] + 1)), (chars, index, offsets)
            if abs(9 - index) <= 2:
                assert 9 in shown, (chars, index, [labels[i] for i in shown])


def test_the_led_board_follows_the_count_being_read() -> None:
    from pegboard.app.effects import UpdateLeds

    app = play_out(new_game(), ("5", "4", "4", "7", "8", "8", "K", "Q"))
    app.pick("9")  # the last card: both hands are counted
    leds = [e for e in app.effects if isinstance(e, UpdateLeds)]
    assert [side.front for side in leds[-1].sides] == [3, 6]  # the last card's point alone
    app.feed(OK)
    leds = [e for e in app.effects if isinstance(e, UpdateLeds)]
    assert [side.front for side in leds[-1].sides] == [3, 10]  # P1's hand not yet read
    app.feed(OK)
    leds = [e for e in app.effects if isinstance(e, UpdateLeds)]
    assert [side.front for side in leds[-1].sides] == [5, 10]


def test_turning_never_leaves_a_rule_help_topic() -> None:
    app = new_game()
    app.feed(MENU)
    rows = list(app.view.lines)
    app.feed(KnobTurn(rows.index("Rule help")), OK, OK)  # the first topic
    title = app.view.title.rsplit(" ", 1)[0]
    app.feed(KnobTurn(20))
    assert app.view.screen is Screen.HELP and app.view.title.startswith(title)


def test_three_for_last_is_said_when_the_deal_follows_a_cut() -> None:
    app = setup_game(App.start(), "Five-card")
    app.feed(OK)  # cut for deal
    app.pick("A")
    app.pick("9")  # P1 cuts low and deals: P2, the pone, pegs three for last
    assert app.game.scores == (0, 3)
    assert app.view.title == "The cut" and "P1 deals: low card" in app.view.lines
    app.feed(OK)  # the cut seen: the deal's first screen says the pone's three
    assert app.view.screen is Screen.STARTER and app.view.award == "P2: Three for last"


def test_a_claimed_part_of_a_run_is_not_a_run_of_nothing() -> None:
    from pegboard.app.words import award_text
    from pegboard.rules.state import Award, Reason

    claimed = Award(0, 0, 2, Reason.RUN, "Ann: run, as claimed: two")
    assert award_text(claimed, ("Ann", "Ben")) == "Ann: Run for 2"
