"""A renege by a player who pegs out in the play still holding a card (ACC 7.3; docs/rules.md,
"Renege").

Ann (the pone) is on 118 and Ben on 9. At 25 Ann says go holding 5♠ and 3♥, both of which
fitted; she pegs the go, then makes fifteen with the 5♠ and reaches 121, a double skunk, with
the 3♥ still in her hand. The engine never saw that hand, so it cannot find the renege by
itself: it reports the go it could not check, and the table claims the renege by showing the
cards Ann still holds (a ``penalty`` with ``held``). The claim takes the play back to the go:
Ann is on 118 again, Ben takes 2 for each card that fitted (13), nobody has won, and Ann must
lay a card at 25.
"""

from __future__ import annotations

import json

import pytest

from pegboard.app import flow
from pegboard.app.inputs import KnobTurn
from pegboard.app.state import GameOverScreen
from pegboard.app.view import Screen
from pegboard.errors import RuleError
from pegboard.rules.cards import Card
from pegboard.rules.state import Phase, Skunk
from tests.referee import judge
from tests.referee.compare import differences
from tests.support.app_driver import GO, MENU, OK, UNDO, new_game
from tests.support.rulings_records import entry, event, game_of, go, header, play

BEFORE = [header(), entry("deal", dealer=0), entry("peg", player=0, points=118),
          entry("peg", player=1, points=9), entry("deal"), entry("starter", card="AC")]
WRONG_PLAY = [play(0, "KD"), play(1, "7C"), play(0, "8D"), go(1), go(0),  # Ann reneges at 25
              play(1, "TC"), play(0, "5S")]  # the go, then fifteen: Ann 121, 3♥ still held
CLAIM = entry("penalty", player=0, infraction="renege", held=["3H"])


def won() -> list[str]:
    return [*BEFORE, *WRONG_PLAY]


def test_the_win_in_the_play_reports_the_go_nobody_could_check() -> None:
    state = game_of(won()).state
    assert state.winner == 0 and state.scores == (121, 9)
    assert state.result is not None and state.result.skunk is Skunk.DOUBLE
    assert state.reneges == ()  # nobody has seen Ann's last card
    unchecked = [(g.player, g.count, g.held) for g in state.unchecked_gos]
    assert unchecked == [(1, 25, 2), (0, 25, 1)]  # Ben's go too: his hand is unseen as well


def test_showing_the_card_still_held_claims_the_renege_and_takes_the_win_back() -> None:
    game = game_of(won())
    game.apply(event(CLAIM))
    state = game.state
    assert state.winner is None and state.result is None and state.match.played == ()
    assert state.scores == (118, 9 + 4)  # the right position: 2 for each card that fitted
    assert (state.phase, state.to_act, state.count) == (Phase.PLAY, 0, 25)
    (report,) = state.reneges
    assert (report.player, report.count, report.cards, report.resolved) == (
        0, 25, (Card.parse("5S"), Card.parse("3H")), True)
    assert state.hands[0] == tuple(Card.parse(c) for c in ("KD", "8D", "5S", "3H"))
    assert state.unchecked_gos == ((state.unchecked_gos[0]),) and (
        state.unchecked_gos[0].player == 1)  # Ben's go stands: his hand is still unseen
    with pytest.raises(RuleError, match=r"Ann holds 5S 3H, which fits at 25"):
        game.apply(event(go(0)))
    game.apply(event(play(0, "5S")))  # played right: 30
    assert game.state.scores == (118, 13)


@pytest.mark.parametrize(("claim", "why"), [
    (entry("penalty", player=0, infraction="renege", held=["3H", "2H"]),
     r"Ann holds 1 card \(4 kept, 3 laid\): name it, not 2"),
    (entry("penalty", player=0, infraction="renege", held=["AC"]),
     r"AC was already seen this deal \(it is the starter\)"),
    (entry("penalty", player=0, infraction="looking", held=["3H"]),
     r"the game is over: Ann won"),
    (entry("penalty", player=1, infraction="renege", held=["QC", "KC"]),
     r"Ben holding QC KC: no card fitted at Ben's go at 25, so there was no renege"),
], ids=["too-many", "seen", "not-a-renege", "ben-did-not"])
def test_a_claim_the_cards_do_not_bear_out_is_refused_and_the_win_stands(
    claim: str, why: str,
) -> None:
    game = game_of(won())
    before, entries = game.state, game.events
    with pytest.raises(RuleError, match=why):
        game.apply(event(claim))
    assert game.state == before and game.events == entries


def test_cards_held_are_named_only_while_the_hand_is_unseen() -> None:
    # Ann lays all four cards: her hand is known, and its renege is reported by itself.
    lines = [*BEFORE, play(0, "KD"), play(1, "7C"), play(0, "8D"), go(1), go(0),
             play(1, "TC"), play(0, "2S"), play(1, "QC"), play(0, "3H")]
    game = game_of(lines)
    assert game.state.hands[0] is not None
    with pytest.raises(RuleError, match=r"Ann's hand is known \(KD 8D 2S 3H\): claim the "
                                        r"renege without naming cards"):
        game.apply(event(entry("penalty", player=0, infraction="renege", held=["5S"])))


def test_the_device_takes_the_claim_by_the_cards_still_held_and_the_game_goes_on() -> None:
    app = new_game(dealer=1)  # Ben deals, Ann leads
    for line in [entry("peg", player=0, points=118), entry("peg", player=1, points=9),
                 entry("starter", card="AC"), *WRONG_PLAY]:
        app.state, _ = flow.enter(app.state, event(line))
        app.read()
    assert app.game.winner == 0 and isinstance(app.state.screen, GameOverScreen)
    app.feed(MENU)
    rows = list(app.view.lines)
    app.feed(KnobTurn(rows.index("Penalty")), OK)
    app.feed(OK)  # Renege, the first infraction
    names = list(app.view.lines)
    app.feed(KnobTurn(names.index("P1")), OK)  # Ann, the first seat
    assert app.view.title == "P1 still holds"  # no report to pay: the cards are asked for
    app.pick("3")
    app.pick("3♥")
    assert json.loads(app.record[-1]) == {
        "type": "penalty", "player": 0, "infraction": "renege", "held": ["3H"]}
    titles = [page.title for page in app.pages]
    assert titles[-1] == "Taken back"
    app.read()
    assert app.game.winner is None and app.game.scores == (118, 13)
    assert app.view.screen is not Screen.GAME_OVER
    # UNDO takes the claim back: the win stands again, and GO shows its race (folded again,
    # from the game as it now stands, to Ann's win at the target).
    app.feed(UNDO)
    assert app.view.screen is Screen.GAME_OVER and app.view.hint == "OK next  GO race"
    app.feed(GO)
    assert app.view.screen is Screen.RACE
    assert app.view.race[0] == (0, 0) and app.view.race[-1] == (121, 9)


def test_the_device_refuses_cards_that_show_no_renege_and_the_win_stands() -> None:
    app = new_game(dealer=1)
    for line in [entry("peg", player=0, points=118), entry("peg", player=1, points=9),
                 entry("starter", card="AC"), *WRONG_PLAY]:
        app.state, _ = flow.enter(app.state, event(line))
        app.read()
    app.feed(MENU)
    rows = list(app.view.lines)
    app.feed(KnobTurn(rows.index("Penalty")), OK, OK)
    names = list(app.view.lines)
    app.feed(KnobTurn(names.index("P2")), OK)  # Ben
    app.pick("Q")
    app.pick("Q♣")
    app.pick("K")
    app.pick("K♣")
    assert app.pages[0].title == "Not allowed"
    assert "no renege" in " ".join(app.pages[0].lines)
    assert app.game.winner == 0 and '"held"' not in app.record[-1]


def test_the_independent_referee_agrees_on_the_claim_by_the_cards_held() -> None:
    lines = [*won(), CLAIM, play(0, "5S"), go(0),  # Ben said go at 25 before Ann did
             play(1, "TC"), play(0, "3H"), play(1, "QC"), go(1), play(1, "KC")]
    record = [json.loads(line) for line in lines]
    assert differences(record) == []
    verdict = judge(record)
    state = game_of(lines).state  # played right, Ann counts out on her hand in the show
    assert verdict.rejected_line is None and verdict.reneges == [(11, 0, ["5S", "3H"])]
    assert (verdict.result.winner, verdict.result.scores) == (0, [121, 13 + 2])
    assert (state.winner, list(state.scores)) == (0, [121, 15])


def test_the_cards_held_also_claim_a_renege_in_the_middle_of_the_play() -> None:
    # Ann on 20 reneges at 25 and Ben leads again: Ben sees it and claims at once, Ann shows
    # 5♠ 3♥; the play goes back to her go, and she must lay one of them.
    lines = [header(), entry("deal", dealer=1), entry("starter", card="AC"), play(0, "KD"),
             play(1, "7C"), play(0, "8D"), go(1), go(0), play(1, "TC")]
    game = game_of(lines)
    assert [g.player for g in game.state.unchecked_gos] == [1, 0]
    game.apply(event(entry("penalty", player=0, infraction="renege", held=["5S", "3H"])))
    state = game.state
    assert (state.phase, state.to_act, state.count, state.scores) == (Phase.PLAY, 0, 25, (0, 4))
    assert state.take_backs[-1].cards == ((), (Card.parse("TC"),))
    with pytest.raises(RuleError, match="a card that fits must be played"):
        game.apply(event(go(0)))


def test_only_a_renege_names_the_cards_held() -> None:
    game = game_of([header(), entry("deal", dealer=1), entry("starter", card="AC"),
                    play(0, "KD"), play(1, "7C"), play(0, "8D"), go(1), go(0)])
    before = game.state
    with pytest.raises(RuleError, match="only a renege claim names the cards held, not a "
                                        "moving an opponent's peg penalty"):
        game.apply(event(entry("penalty", player=0, infraction="moving-peg", held=["3H"])))
    assert game.state == before
