"""The show and the end of the game: order, automatic counting, the crib, winning, skunks."""

from __future__ import annotations

import pytest

from pegboard.errors import RuleError
from pegboard.rules.cards import Card, parse_cards
from pegboard.rules.events import Crib, Deal, NewGame, Peg, Show, Starter
from pegboard.rules.show import score_hand
from pegboard.rules.state import Phase
from tests.support.games import parse_script
from tests.support.games import scripted_game as new

C = Card.parse



def test_hands_laid_in_the_play_are_counted_pone_first_then_the_crib_is_awaited() -> None:
    game, awards = new(script="deal 0; starter 2C; play 1 5C 0 TH 1 5D 0 5H 1 6C 0 KS 1 9D 0 8H")
    hands = [a for a in awards if a.reason == "hand"]
    ben = score_hand(parse_cards("5C 5D 6C 9D"), C("2C")).total
    ann = score_hand(parse_cards("TH 5H KS 8H"), C("2C")).total
    assert [(a.player, a.points) for a in hands] == [(1, ben), (0, ann)]
    assert game.state.phase is Phase.CRIB and game.state.to_act == 0
    crib = game.apply(Crib(tuple(parse_cards("3D 4H 7S QC"))))
    expected = score_hand(parse_cards("3D 4H 7S QC"), C("2C"), crib=True).total
    assert [(a.player, a.reason, a.points) for a in crib] == [(0, "crib", expected)]
    assert game.state.phase is Phase.DEAL  # type: ignore[comparison-overlap]
    assert game.state.to_act == 1  # the deal passes left


def test_show_events_must_come_in_show_order() -> None:
    game, _ = new(3, "deal 0; starter 2C")
    with pytest.raises(RuleError) as error:
        game.apply(Show(2, tuple(parse_cards("5C 6D 7H 8S"))))
    assert str(error.value) == "Ben counts first: Ben sits left of the dealer"
    game.apply(Show(1, tuple(parse_cards("5C 6D 7H 8S"))))
    with pytest.raises(RuleError, match="dealer's hand is counted last"):
        game.apply(Show(0, tuple(parse_cards("AC AD AH AS"))))


def test_a_crib_card_already_seen_is_rejected() -> None:
    game, _ = new(script="deal 0; starter 2C; show 1 5C 6D 7H 8S; show 0 AC AD AH AS")
    with pytest.raises(RuleError, match=r"5C was already seen this deal .in Ben's hand"):
        game.apply(Crib(tuple(parse_cards("5C 3D 4H KS"))))
    with pytest.raises(RuleError, match="the crib has 4 cards"):
        game.apply(Crib(tuple(parse_cards("3D 4H KS"))))


def test_a_shown_hand_must_contain_the_cards_that_player_played() -> None:
    game, _ = new(
        2, "deal 0; starter 2C; play 1 KS 0 QS 1 5C; go 0 1", five_card=True
    )
    with pytest.raises(RuleError, match="Ben played 5C this deal"):
        game.apply(Show(1, tuple(parse_cards("KS 6D 7H"))))
    game.apply(Show(1, tuple(parse_cards("KS 5C 7H"))))
    assert game.state.to_act == 0


def test_pone_pegs_out_on_the_hand_before_the_dealers_bigger_hand() -> None:
    game, _awards = new(script="deal 0; peg 1 115; peg 0 115; starter 5S; show 1 4C 6D 7H 8S")
    assert game.state.phase is Phase.GAME_OVER
    assert game.state.winner == 1
    before = game.state
    with pytest.raises(RuleError, match="the game is over: Ben won"):
        game.apply(Show(0, tuple(parse_cards("5C 5D 5H JS"))))  # a 29 never counted
    assert game.state == before


def test_the_game_ends_in_the_middle_of_the_show_and_nothing_later_is_scored() -> None:
    # Ben (pone) needs 2 and pegs only 1 in the play; his hand is counted before Ann's.
    game, awards = new(script="""
        deal 0; peg 1 119; peg 0 100; starter 2C
        play 1 4C 0 KD 1 7S 0 KH
        play 1 9C 0 QS 1 8D; go 0
        play 0 JS
    """)
    assert game.state.winner == 1
    assert [(a.player, a.reason) for a in awards[2:]] == [
        (0, "thirty-one"), (1, "go"), (0, "last card"), (1, "hand"),
    ]
    assert game.state.scores == (103, 120 + awards[-1].points)


def test_heels_can_win_the_game() -> None:
    game, awards = new(script="deal 0; peg 0 119; starter JH")
    assert [(a.player, a.reason, a.points) for a in awards][-1] == (0, "his heels", 2)
    state = game.state
    assert state.winner == 0 and state.phase is Phase.GAME_OVER
    assert state.result is not None and state.result.skunk == "double"
    assert state.result.game_points == (3, 0)


def test_house_rule_no_heels_in_the_last_holes() -> None:
    _, awards = new(script="deal 0; peg 0 119; starter JH", no_heels_last=3)
    assert not any(a.reason == "his heels" for a in awards)
    _, awards = new(script="deal 0; peg 0 118; starter JH", no_heels_last=3)
    assert awards[-1].reason == "his heels"


@pytest.mark.parametrize(
    ("loser", "skunk", "acc", "classic"),
    [(91, "none", 2, 1), (90, "skunk", 3, 2), (61, "skunk", 3, 2), (60, "double", 3, 4)],
)
def test_skunk_lines_at_90_91_and_60_61(loser: int, skunk: str, acc: int, classic: int) -> None:
    for scheme, points in (("acc", acc), ("classic", classic)):
        game, _ = new(script=f"deal 0; peg 1 {loser}; peg 0 121", game_points=scheme)
        result = game.state.result
        assert result is not None
        assert (result.winner, result.skunk, result.game_points) == (0, skunk, (points, 0))


@pytest.mark.parametrize(("loser", "skunk"), [(31, "none"), (30, "skunk"), (0, "skunk")])
def test_skunk_line_in_a_61_hole_game(loser: int, skunk: str) -> None:
    script = "deal 0" + (f"; peg 1 {loser}" if loser else "") + "; peg 0 61"
    game, _ = new(script=script, target=61)
    assert game.state.result is not None and game.state.result.skunk == skunk


def test_partnership_scores_are_shared() -> None:
    game, awards = new(4, "deal 3; starter 2C; play 0 5C 1 TD 2 TH")
    assert game.state.scores == (2, 2)  # Ben's fifteen for Ben & Dan, Cat's pair for Ann & Cat
    assert [(a.player, a.side) for a in awards] == [(1, 1), (2, 0)]


def test_five_card_three_for_last_goes_to_the_pone_on_the_first_deal_only() -> None:
    game, awards = new(2, "deal 0", five_card=True)
    assert [(a.player, a.reason, a.points) for a in awards] == [(1, "three for last", 3)]
    assert game.state.rules.target == 61
    game.apply(Deal())
    assert game.state.dealer == 1 and game.state.scores == (0, 3)


def test_quick_mode_pegs_mix_with_cards() -> None:
    game, awards = new(script="deal 0; starter 2C; peg 1 5; peg 0 7; show 1 5C 6D 7H 8S")
    assert game.state.phase is Phase.SHOW and game.state.to_act == 0
    assert [a.reason for a in awards] == ["peg", "peg", "hand"]


def test_the_first_dealer_comes_from_the_cut_and_a_tie_cuts_again() -> None:
    game, _ = new(3, "cut 7H 7D KD")
    assert game.state.phase is Phase.CUT
    game.apply(parse_script("cut 9H 2D KS")[0])
    assert game.state.phase is Phase.DEAL  # type: ignore[comparison-overlap]
    assert game.state.to_act == 1
    with pytest.raises(RuleError, match="Ben deals this hand, not Ann"):
        game.apply(Deal(0))
    game.apply(Deal())
    assert game.state.dealer == 1


def test_a_deal_without_a_dealer_needs_a_cut() -> None:
    game, _ = new()
    with pytest.raises(RuleError, match="cut for the deal first"):
        game.apply(Deal())


def test_a_match_loser_deals_first_next_game_and_points_run_on() -> None:
    game, _ = new(script="deal 0; peg 1 121", match_games=3)
    assert game.state.match.wins == (0, 1) and game.state.match.winner is None
    with pytest.raises(RuleError, match="the game is over"):
        game.apply(Peg(0, 2))
    game.apply(NewGame())
    state = game.state
    assert state.game_no == 2 and state.scores == (0, 0) and state.phase is Phase.DEAL
    assert state.to_act == 0  # Ann lost: she deals
    game.apply(Deal())
    game.apply(Peg(1, 121))
    assert game.state.match.winner == 1
    assert game.state.match.game_points == (0, 6)
    with pytest.raises(RuleError, match="the match is over"):
        game.apply(NewGame())


def test_the_game_is_over_only_once_a_side_reaches_the_target() -> None:
    game, _ = new(script="deal 0; peg 0 120")
    assert game.state.winner is None
    game.apply(Starter(C("2C")))
    assert game.state.phase is Phase.PLAY


def test_with_three_players_the_skunk_goes_by_the_lowest_loser() -> None:
    game, _ = new(3, "deal 0; peg 1 100; peg 2 85; peg 0 121")
    result = game.state.result
    assert result is not None
    assert (result.winner, result.skunk, result.game_points) == (0, "skunk", (3, 0, 0))
