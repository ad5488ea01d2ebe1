"""When a new hand may be dealt (docs/rules.md, "The deal"): once the crib is counted, or at
any time when the hand was pegged by points (no card of a hand or the crib entered). A ``deal``
anywhere else would drop the hands and crib still to count, so it is refused and changes
nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pegboard.cli import main
from pegboard.errors import RuleError
from pegboard.rules.events import Deal
from pegboard.rules.state import Phase
from tests.support.games import scripted_game as new

REFUSED = {
    "in the play": (
        "deal 0; starter 2C; play 1 5C 0 TH",
        "cannot deal the next hand now: the play is not finished: Ben plays a card or says go",
    ),
    "after a go": ("deal 0; starter 2C; play 1 5C 0 TH 1 KD; go 0", "Ben plays a card"),
    "in the show": (
        "deal 0; starter 2C; show 1 AC 3D 4H 5S",
        "the hands are being counted: Ann shows next",
    ),
    "before the crib": (
        "deal 0; starter 2C; show 1 AC 3D 4H 5S; show 0 6C 7D 8H 9S",
        "the crib is counted next",
    ),
    "before the starter, with dealt cards entered": (
        "deal 0; dealt 0 AC 2C 3C 4C 5C 6C",
        "cards were dealt to the players, so turn the starter and play this hand",
    ),
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_a_deal_before_the_hand_is_over_is_refused(name: str) -> None:
    script, why = REFUSED[name]
    game, _ = new(script=script)
    state, events = game.state, game.events
    with pytest.raises(RuleError, match=why) as raised:
        game.apply(Deal())
    assert "a new hand is dealt after the crib is counted" in str(raised.value)
    assert game.state == state and game.events == events


@pytest.mark.parametrize(
    "script",
    [
        "deal 0; peg 1 7; peg 0 12",  # quick mode: points only
        "deal 0; starter JC; peg 1 7",  # the starter turned for the heels, then points
        "deal 0",  # nothing entered at all: nothing to drop
        "deal 0; starter 2C; show 1 AC 3D 4H 5S; show 0 6C 7D 8H 9S; crib TC JD QH KS",
        "deal 0; penalty 0 misdeal",  # a misdeal while dealing: the same dealer again
    ],
)
def test_a_deal_is_accepted_after_the_crib_or_in_quick_mode(script: str) -> None:
    game, _ = new(script=script)
    dealer = 0 if "misdeal" in script else 1
    game.apply(Deal())
    assert game.state.dealer == dealer and game.state.phase is Phase.STARTER


def test_five_card_three_for_last_is_no_card_entered() -> None:
    game, _ = new(script="deal 0; peg 0 5", five_card=True)
    game.apply(Deal())
    assert game.state.deal_no == 2


def test_replay_stops_at_a_deal_in_the_middle_of_the_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [
        {"type": "game", "players": ["Ann", "Ben"]},
        {"type": "deal", "dealer": 0},
        {"type": "starter", "card": "2C"},
        {"type": "play", "player": 1, "card": "5C"},
        {"type": "deal"},
        {"type": "starter", "card": "3C"},
    ]
    path = tmp_path / "game.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    assert main(["replay", "--json", str(path)]) == 2
    captured = capsys.readouterr()
    assert "line 5: cannot deal the next hand now: the play is not finished" in captured.err
    assert [json.loads(o)["line"] for o in captured.out.splitlines()] == [2, 3, 4]
