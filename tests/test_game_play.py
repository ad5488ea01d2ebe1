"""The play (pegging): turns, gos, 31, resets, last card, and the messages for illegal cards."""

from __future__ import annotations

import pytest

from pegboard.errors import RuleError
from pegboard.rules.cards import Card
from pegboard.rules.events import Event, Go, Play
from pegboard.rules.game import Game
from pegboard.rules.state import Award, Phase
from tests.support.games import parse_script
from tests.support.games import scripted_game as new

C = Card.parse



def reasons(awards: list[Award] | tuple[Award, ...]) -> list[tuple[int, str, int]]:
    return [(a.player, a.reason, a.points) for a in awards]


def test_fifteen_pair_and_thirty_one_then_the_count_restarts_left_of_the_31() -> None:
    game, awards = new(script="deal 0; starter 2C; play 1 5C 0 TH 1 5D 0 5H 1 6C")
    assert reasons(awards) == [(0, "fifteen", 2), (0, "pair", 2), (1, "thirty-one", 2)]
    state = game.state
    assert state.count == 0 and state.pile == ()
    assert state.to_act == 0  # left of Ben, who made 31
    assert state.scores == (4, 2)


def test_go_gives_one_to_the_last_card_and_the_next_count_is_led_left_of_it() -> None:
    game, awards = new(script="deal 0; starter 2C; play 1 TS 0 JD 1 QC; go 0")
    assert reasons(awards) == [(1, "run", 3)]
    assert game.state.to_act == 1  # Ben laid the last card: he plays on alone
    awards2 = game.apply(Go(1))
    assert reasons(awards2) == [(1, "go", 1)]
    assert game.state.to_act == 0 and game.state.count == 0
    # A run never reaches across a reset: the king after T-J-Q is just "ten".
    assert game.apply(Play(0, C("KH"))) == ()
    assert game.state.scores == (0, 4)


def test_last_card_at_31_scores_two_never_three() -> None:
    game, awards = new(script="""
        deal 0; starter 2C
        play 1 9C 0 9D 1 9H; go 0 1
        play 0 7C 1 8C 0 6D 1 5H 0 5S
    """)
    assert reasons(awards)[:7] == [
        (0, "pair", 2), (1, "pair royal", 6), (1, "go", 1),
        (1, "fifteen", 2), (0, "run", 3), (1, "run", 4), (0, "thirty-one", 2),
    ]
    assert reasons(awards)[7] == (0, "pair", 2)
    assert all(a.reason not in ("last card", "go") for a in awards[3:])
    assert game.state.phase is Phase.CRIB  # both hands were laid: counted already


def test_last_card_not_at_31_scores_one_after_its_combinations() -> None:
    game, awards = new(script="deal 0; starter 2C; play 1 5C 0 TH 1 5D 0 5H 1 6C 0 KS 1 9D 0 8H")
    play_awards = [a for a in awards if a.reason not in ("hand", "crib")]
    assert reasons(play_awards)[-1] == (0, "last card", 1)
    # The hands follow at once, pone first: Ben, then Ann.
    assert [(a.player, a.reason) for a in awards[len(play_awards):]] == [(1, "hand"), (0, "hand")]
    assert game.state.phase is Phase.CRIB


def test_a_player_with_no_cards_left_is_skipped() -> None:
    # Ben plays his fourth card in the second count; Ann carries on alone.
    game, _ = new(script="deal 0; starter 2C; play 1 KS 0 QS 1 JS; go 0; play 1 AH 0 2S 1 AD")
    assert game.state.cards_left == (2, 0)
    assert game.state.to_act == 0
    game.apply(Play(0, C("2D")))
    assert game.state.to_act == 0


def test_go_chain_with_three_players() -> None:
    game, _awards = new(3, "deal 0; starter AC; play 1 KS 2 QH 0 9D")
    assert game.state.to_act == 1
    game.apply(Go(1))
    assert game.state.to_act == 2
    game.apply(Play(2, C("AH")))  # 30
    assert game.state.to_act == 0
    game.apply(Go(0))
    assert game.state.to_act == 2  # Ben and Ann said go: Cat plays on alone
    assert reasons(game.apply(Go(2))) == [(2, "go", 1)]
    assert game.state.to_act == 0  # left of Cat, who laid the last card
    assert game.state.said_go == frozenset()


def test_go_chain_with_four_players_in_partnerships() -> None:
    game, awards = new(4, """
        deal 3; starter 2C
        play 0 8C 1 7D 2 9H 3 7H
        play 0 KD 1 KH 2 KC
        go 3 0 1 2
    """)
    assert reasons(awards) == [
        (1, "fifteen", 2), (2, "run", 3), (3, "thirty-one", 2), (1, "pair", 2),
        (2, "pair royal", 6), (2, "go", 1),
    ]
    assert game.state.scores == (10, 6)  # Ann & Cat, Ben & Dan
    assert game.state.to_act == 3  # left of Cat


def test_wrong_player_is_rejected_with_whose_turn_it_is() -> None:
    game, _ = new(script="deal 0; starter 2C")
    before = game.state
    with pytest.raises(RuleError, match="it is Ben's turn, not Ann's"):
        game.apply(Play(0, C("5H")))
    assert game.state == before
    assert game.events == tuple(parse_script("deal 0; starter 2C"))


def test_a_card_passing_31_is_rejected_with_what_would_fit() -> None:
    game, _ = new(script="deal 0; starter 2C; play 1 KS 0 QS 1 5C")
    before = game.state
    with pytest.raises(RuleError) as error:
        game.apply(Play(0, C("7D")))
    assert str(error.value) == (
        "count is 25: 7D would make 32 — play a card of six or less, or say go"
    )
    assert game.state == before


def test_a_card_already_seen_is_rejected() -> None:
    game, _ = new(script="deal 0; starter 2C; play 1 KS")
    with pytest.raises(RuleError, match="KS was already seen this deal"):
        game.apply(Play(0, C("KS")))
    with pytest.raises(RuleError, match=r"2C was already seen this deal .it is the starter"):
        game.apply(Play(0, C("2C")))


@pytest.mark.parametrize("script, event, message", [
    # Ann has one card left, Ben none: it is Ann's turn; Ben may not play a fifth card.
    ("deal 0; starter 2C; play 1 AC 0 AD 1 2H 0 2D 1 3H 0 3D 1 4H", Play(1, C("5H")),
     "Ben has played all 4 cards"),
    ("deal 0; starter 2C", Go(1), "must lead"),  # a go at count 0
    ("deal 0", Play(1, C("5H")), "turn the starter first"),
], ids=["a fifth card from one player", "go at count 0", "play before the starter"])
def test_an_entry_out_of_turn_is_rejected(script: str, event: Event, message: str) -> None:
    game, _ = new(script=script)
    with pytest.raises(RuleError, match=message):
        game.apply(event)


def test_legal_cards_for_the_picker() -> None:
    game, _ = new(script="deal 0; starter 2C; play 1 KS 0 QS 1 5C")
    state = game.state
    assert state.max_playable_pips() == 6
    legal = state.legal_cards()
    assert all(card.pips <= 6 for card in legal)
    assert C("5C") not in legal and C("2C") not in legal
    assert C("6H") in legal and state.can_play(0, C("6H"))
    assert not state.can_play(1, C("6H"))
    assert len(legal) == 6 * 4 - 2  # aces to sixes, less the starter and the 5C played


def test_five_card_has_one_count_only() -> None:
    game, awards = new(2, "deal 0; starter 2C; play 1 KS 0 QS 1 5C; go 0 1", five_card=True)
    assert reasons(awards) == [(1, "three for last", 3), (1, "go", 1)]
    assert game.state.phase is Phase.SHOW
    assert game.state.to_act == 1  # Ben's hand was not all played: he shows it


def test_a_textbook_play_sequence() -> None:
    # Alice (pone) 4, Bob 7, Alice 4 "fifteen for two", Bob jack 25, Alice go, Bob 5 "thirty",
    # and one for the go; Alice leads 7, Bob 8 "fifteen for two", Alice 9 "twenty-four for
    # three" (7-8-9), and one for the last card.
    game = Game(["Bob", "Alice"])
    awards: list[Award] = []
    for event in parse_script("""
        deal 0; starter KC
        play 1 4H 0 7C 1 4S 0 JD; go 1; play 0 5C; go 0
        play 1 7H 0 8D 1 9S
    """):
        awards.extend(game.apply(event))
    play = [a for a in awards if a.reason not in ("hand", "crib")]
    assert reasons(play) == [
        (1, "fifteen", 2), (0, "go", 1), (0, "fifteen", 2), (1, "run", 3), (1, "last card", 1),
    ]
    assert play[-2].sentence == "Alice: Run of 3 for 3"

