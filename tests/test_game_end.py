"""Stopping at the target, match options, seat and table variants, and known dealt hands."""

from __future__ import annotations

import pytest

from pegboard.errors import RuleError
from pegboard.rules.cards import Card, parse_cards
from pegboard.rules.events import Crib, Cut, Deal, Dealt, Go, NewGame, Play, Show, Starter
from pegboard.rules.game import Game
from pegboard.rules.state import Phase
from pegboard.rules.variants import Rules
from tests.support.games import parse_script
from tests.support.games import scripted_game as new

C = Card.parse



def test_the_winning_card_scores_its_combinations_and_its_last_card_point_as_one_act() -> None:
    game, awards = new(script="""
        deal 0; peg 0 117; peg 1 50; starter 9H
        play 1 KC 0 QD 1 JC; go 0 1
        play 0 2H 1 5S 0 2D 1 3S 0 3D
    """)
    assert [(a.player, a.reason, a.points) for a in awards[-3:]] == [
        (0, "fifteen", 2), (0, "pair", 2), (0, "last card", 1),
    ]
    # "Fifteen two, a pair is four and one for last is five": one call, pegged whole.
    assert game.state.scores == (122, 54)
    assert game.state.winner == 0 and game.state.phase is Phase.GAME_OVER
    with pytest.raises(RuleError, match="the game is over: Ann won"):
        game.apply(Crib(tuple(parse_cards("4C 4D 6C 6D"))))


def test_winning_in_the_middle_of_the_play_stops_it() -> None:
    game, _ = new(script="deal 0; peg 1 119; starter 2C; play 1 5C 0 TH 1 5D 0 5H")
    assert game.state.winner is None
    game.apply(Play(1, C("6C")))  # thirty-one for 2: Ben reaches 121
    assert game.state.winner == 1 and game.state.to_act is None
    with pytest.raises(RuleError, match="the game is over"):
        game.apply(Play(0, C("KS")))


def test_back_pegs_trail_the_front_pegs() -> None:
    game, _ = new(script="deal 0; peg 0 10; peg 0 5; peg 1 7")
    assert game.state.scores == (15, 7) and game.state.back_pegs == (10, 0)


def test_four_players_without_partnerships_play_for_themselves() -> None:
    game, awards = new(4, "deal 3; starter 2C; play 0 5C 1 TD 2 TH", partnerships=False)
    assert game.state.sides == 4
    assert game.state.scores == (0, 2, 2, 0)
    assert [(a.player, a.side) for a in awards] == [(1, 1), (2, 2)]


def test_three_players_keep_four_cards_and_the_crib_has_four() -> None:
    game, _ = new(3, """
        deal 0; starter 2C
        play 1 AC 2 AD 0 AH 1 AS 2 2D 0 2H 1 3C 2 3D 0 3H 1 4C 2 4D 0 4H
    """)
    assert game.state.phase is Phase.CRIB and game.state.cards_left == (0, 0, 0)
    game.apply(Crib(tuple(parse_cards("KC KD KH 5S"))))
    assert game.state.phase is Phase.DEAL  # type: ignore[comparison-overlap]
    assert game.state.to_act == 1


def test_match_options_cut_and_alternate() -> None:
    game, _ = new(script="deal 1; peg 0 121", match_games=3, next_game_dealer="cut")
    game.apply(NewGame())
    assert game.state.phase is Phase.CUT
    game.apply(Cut(tuple(parse_cards("4C 9D"))))
    assert game.state.to_act == 0
    game, _ = new(script="deal 1; peg 0 121", match_games=3, next_game_dealer="alternate")
    game.apply(NewGame())
    assert game.state.to_act == 0  # Ben dealt first last game: Ann deals first now
    game, _ = new(script="deal 1; peg 0 121", match_games=3)
    game.apply(NewGame(dealer=0))
    game.apply(Deal())
    assert game.state.dealer == 0


def test_a_new_game_only_when_the_game_is_over() -> None:
    game, _ = new(script="deal 0", match_games=3)
    with pytest.raises(RuleError, match="only when this one is over"):
        game.apply(NewGame())


def test_known_dealt_hands_check_plays_and_show_a_renege_at_once() -> None:
    game, _ = new(script="deal 0; dealt 0 TH 4S 9C 8D QH QD")
    with pytest.raises(RuleError, match="TH was dealt to Ann already"):
        game.apply(Dealt(1, tuple(parse_cards("TH AC AD AH AS 2D"))))
    for event in parse_script("dealt 1 5C KD QS JH 2S 3S; starter 2C"):
        game.apply(event)
    with pytest.raises(RuleError, match="AC was not dealt to Ben"):
        game.apply(Play(1, C("AC")))
    assert C("AC") not in game.state.legal_cards()
    assert set(game.state.legal_cards()) == set(parse_cards("5C KD QS JH 2S 3S"))
    for event in parse_script("play 1 5C 0 TH 1 KD; go 0"):
        game.apply(event)
    assert game.state.reneges == ()  # not known yet: Ann's hand is not known until laid
    with pytest.raises(RuleError, match="it is Ben's turn, not Ann's"):
        game.apply(Play(0, C("QS")))


def test_starter_cannot_be_a_dealt_card() -> None:
    game, _ = new(script="deal 0; dealt 1 5C KD QS JH 2S 3S")
    with pytest.raises(RuleError, match="5C was dealt to Ben"):
        game.apply(Starter(C("5C")))


def test_five_card_show_after_the_single_count() -> None:
    game, awards = new(2, """
        deal 0; starter 2C
        play 1 KS 0 QS 1 5C; go 0 1
        show 1 KS 5C 7H
    """, five_card=True)
    assert [(a.player, a.reason) for a in awards][-1] == (1, "hand")
    assert game.state.to_act == 0
    with pytest.raises(RuleError, match="a hand has 3 cards"):
        game.apply(Show(0, tuple(parse_cards("QS 4D 6D 8D"))))
    game.apply(Show(0, tuple(parse_cards("QS 4D 6D"))))
    assert game.state.phase is Phase.CRIB


def test_go_from_a_player_who_already_said_go_is_refused() -> None:
    game, _ = new(3, "deal 0; starter AC; play 1 KS 2 QH 0 9D; go 1")
    with pytest.raises(RuleError, match="Ben said go and is out of this count"):
        game.apply(Go(1))


def test_rules_are_checked_for_the_table() -> None:
    with pytest.raises(RuleError, match="partnerships need 4 players"):
        Game(["A", "B"], Rules(partnerships=True))
    with pytest.raises(RuleError, match="2, 3 or 4 players"):
        Game(["A", "B", "C", "D", "E"])
    with pytest.raises(RuleError, match="odd number"):
        Rules.from_json({"match_games": 2})
    assert Rules.from_json({"five_card": True}).to_json(2) == {"five_card": True}
    assert Rules.from_json({}, 4).to_json(4) == {}
    assert Rules.from_json({"partnerships": False}, 4).to_json(4) == {"partnerships": False}


def test_an_under_claim_that_wins_leaves_nothing_open_to_muggins() -> None:
    """Ben on 116 claims 6 of his 15-point hand: 122 ends the game, and the points he missed
    are not open to muggins (nothing is scored after the game is won)."""
    game, _ = new(script="deal 0; peg 1 116; starter 5S; show 1 5C 5D JS 4H; claim 1 6",
                  muggins=True)
    assert game.state.winner == 1 and game.state.scores == (0, 122)
    assert game.state.pending_muggins is None
    game, _ = new(script="deal 0; peg 1 114; starter 5S; show 1 5C 5D JS 4H; claim 1 6",
                  muggins=True)
    missed = game.state.pending_muggins
    assert game.state.winner is None and missed is not None and missed.points == 9
