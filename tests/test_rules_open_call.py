"""The claim an opponent may still call muggins on (``OpenCall``: ``GameState.open_call``,
``Turn.call``), right or short alike, is the engine's fact (docs/rules.md, "Muggins"; ACC 10).

The window opens at every claim (and at a play score passed over unclaimed with points open to
muggins) and shuts at the next score pegged, the next claim, a muggins call or "no muggins", a
new game or the end of the game; records before version 5 shut it at the next deal, before
version 3 at any entry. The seeded games below check the fact against that rule, written out
here over the record's entries and reports, at every entry.
"""

from __future__ import annotations

import pytest

from pegboard.errors import RuleError
from pegboard.rules.events import Claim, Deal, Event, Muggins, NewGame
from pegboard.rules.facts import ClaimClosed, Report
from pegboard.rules.game import Game
from pegboard.rules.state import GameState, Phase
from pegboard.rules.value import replace
from tests.support.games import random_game
from tests.support.rulings_records import claim, entry, event, game_of, header, play


def _by_the_rule(version: int, events: list[Event], reports: list[Report],
                 state: GameState) -> int | None:
    """The owner of the claim open to a call, by the rule as docs/rules.md words it."""
    if state.phase is Phase.GAME_OVER:
        return None
    if state.pending_muggins is not None:  # points missed, whatever entry opened them
        return state.pending_muggins.owner
    shut_by: tuple[type, ...] = (Claim, Muggins, NewGame) if version >= 5 else (
        Claim, Muggins, NewGame, Deal)
    at = next((i for i in range(len(events) - 1, -1, -1)
               if isinstance(events[i], shut_by)), None)
    if at is None or not isinstance(events[at], Claim):
        return None
    if version < 3 and at != len(events) - 1:
        return None
    if any(act.points for report in reports[at + 1:] for act in report.scored):
        return None
    last = events[at]
    assert isinstance(last, Claim)
    return last.player


def _check(game: Game, events: list[Event]) -> tuple[int, int]:
    """Apply ``events`` to ``game`` and compare the fact with the rule at every entry: how
    many entries had a window open, and how many of those were right claims."""
    version = game.header.version
    applied: list[Event] = []
    reports: list[Report] = []
    opened = right = 0
    for entry_event in events:
        report = game.push(entry_event)
        applied.append(entry_event)
        reports.append(report)
        state = game.state
        call = state.open_call
        assert report.next.call == call
        owner = None if call is None else call.owner
        assert owner == _by_the_rule(version, applied, reports, state), (
            f"entry {len(applied)}: {entry_event}")
        if call is None:
            continue
        opened += 1
        missed = state.pending_muggins
        if missed is not None:
            assert missed.owner == call.owner
        if isinstance(entry_event, Claim):
            closed = [fact for fact in report.of(ClaimClosed)
                      if fact.claim.player == entry_event.player]
            assert closed and closed[-1].claim == call.claim
            assert call.claimed == entry_event.points == closed[-1].claimed
            if missed is None:
                right += 1
    return opened, right


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_window_matches_the_rule_over_seeded_muggins_games(players: int) -> None:
    opened = right = 0
    for seed in range(12):
        played = random_game(seed * 7 + players, players, muggins=True,
                             mode=("cards", "show")[seed % 2])
        game = Game.from_header(played.header)
        got = _check(game, list(played.events))
        assert game.state.phase is Phase.GAME_OVER and game.state.open_call is None
        opened, right = opened + got[0], right + got[1]
    assert right > 50 and opened > right  # right claims open it too, short ones as well


@pytest.mark.parametrize("version", [2, 4])
def test_older_records_keep_their_shorter_window(version: int) -> None:
    checked = 0
    for seed in range(12):
        played = random_game(seed, 2, muggins=True, mode=("cards", "show")[seed % 2])
        game = Game.from_header(replace(played.header, version=version))
        try:
            opened, _ = _check(game, list(played.events))
        except RuleError:  # an entry its version refuses: the game is not one of that era
            continue
        checked += opened
    assert checked > 20


def test_a_right_claim_and_a_short_one_open_the_same_window() -> None:
    lines = [header(muggins=True), entry("deal", dealer=1), entry("starter", card="5S"),
             entry("show", player=0, cards=["5C", "5D", "JS", "4H"])]  # worth 15
    for said in (15, 12):
        game = game_of([*lines, claim(0, said)])
        call = game.state.open_call
        assert call is not None and (call.owner, call.claimed) == (0, said)
        assert (game.state.pending_muggins is None) == (said == 15)
        game.apply(event(entry("show", player=1, cards=["2C", "3D", "8H", "KS"])))
        assert game.state.open_call == call  # nothing pegged: still open
        game.apply(event(claim(1, 6)))
        after = game.state.open_call
        assert after is not None and after.owner == 1  # the next claim shut Ann's


def test_a_score_pegged_shuts_the_window() -> None:
    lines = [header(muggins=True), entry("deal", dealer=0), entry("starter", card="KD"),
             play(1, "5C"), play(0, "TH"), claim(0, 2)]
    game = game_of(lines)
    assert game.state.open_call is not None
    game.apply(event(entry("peg", player=1, points=3)))
    assert game.state.open_call is None


RENEGE_DEAL = [header(muggins=True), entry("deal", dealer=1), entry("starter", card="AC"),
               play(0, "5C"), play(1, "TD")]
"""Ben's fifteen waits for his claim; then Ann lays 8♦ to 23, Ben says go and Ann says go
holding 3♥ (a renege)."""
TO_THE_GOS = [play(0, "8D"), entry("go", player=1), entry("go", player=0)]
RENEGE = entry("penalty", player=0, infraction="renege", points=0, held=["3H", "9C"])


@pytest.mark.parametrize("said", [2, 1])
def test_a_take_back_that_pegs_nothing_since_leaves_the_claims_window(said: int) -> None:
    game = game_of([*RENEGE_DEAL, claim(1, said), *TO_THE_GOS])
    before = game.state.open_call
    assert before is not None and (before.owner, before.claimed) == (1, said)
    game.apply(event(RENEGE))
    assert game.state.take_backs and game.state.open_call == before


@pytest.mark.parametrize("said", [2, 1])
def test_a_take_back_after_a_later_claim_leaves_no_window(said: int) -> None:
    # Ann claims her go point after the renege: that claim, taken back with the play, had
    # shut Ben's window; nothing is left to call on.
    game = game_of([*RENEGE_DEAL, claim(1, said), *TO_THE_GOS, claim(0, 1)])
    call = game.state.open_call
    assert call is not None and call.owner == 0
    game.apply(event(RENEGE))
    assert game.state.take_backs and game.state.open_call is None
