"""How long a renege and missed points can be claimed: docs/rules.md ("Claim windows") and
``pegboard rules`` state both windows against the ACC text and say where Pegboard differs and
why; each statement is held to what the engine does."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pegboard.cli import main
from pegboard.coach.rulehelp import topic
from pegboard.errors import RuleError
from tests.support.rulings_records import claim, entry, event, game_of, go, header, play

RULES_PAGE = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


def windows_section() -> str:
    text = RULES_PAGE.read_text(encoding="utf-8")
    found = re.search(r"^## Claim windows\n(.*?)^## ", text, flags=re.MULTILINE | re.DOTALL)
    assert found, "docs/rules.md has a Claim windows section"
    return found.group(1)


def test_the_rules_page_sets_each_window_against_its_acc_rule() -> None:
    section = " ".join(windows_section().split())
    assert "**Renege (ACC 7.3).**" in section and "**Muggins (ACC 10).**" in section
    assert "until that deal's crib is counted" in section
    assert "pays the 2 points a card and takes nothing back, until the game ends" in section
    assert "before the next score is pegged" in section
    assert "Here Pegboard differs from a table of cards" in section


@pytest.mark.parametrize(("ident", "says"), [
    ("renege", ["until that deal's crib is counted, even after a win",
                "Later in the game the claim only pays the 2 points a card",
                "sets no moment after which the claim is lost"]),
    ("muggins", ["counted in scores pegged", "the next deal too",
                 "Pegboard differs from a table of cards"]),
])
def test_pegboard_rules_states_the_window_and_where_pegboard_differs(
    ident: str, says: list[str], capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rules", ident]) == 0
    printed = " ".join(capsys.readouterr().out.split())
    for words in says:
        assert words in printed
    assert 'docs/rules.md, "Claim windows"' in topic(ident).text
    screen = " ".join(line for page in topic(ident).pages for line in page)
    assert ("until the crib is counted, even after a win" in screen if ident == "renege"
            else "Only a score pegged shuts it; the next deal does not." in screen)


RENEGE_DEAL = [header(), entry("deal", dealer=1), entry("starter", card="AC"),
               play(0, "KD"), play(1, "7C"), play(0, "8D"), go(1), go(0),
               play(1, "TC"), play(0, "5S"), play(1, "QC"), play(0, "3H"), go(1),
               play(1, "KC")]  # Ann reneged at 25; both hands counted at the end of the play
PENALTY = entry("penalty", player=0, infraction="renege")


def test_the_renege_window_the_help_states_holds_in_the_engine() -> None:
    in_deal = game_of([*RENEGE_DEAL, PENALTY])
    assert in_deal.state.take_backs  # in its deal, before the crib: taken back
    later = game_of([*RENEGE_DEAL, entry("crib", cards=["2S", "4H", "9D", "9S"]),
                     entry("deal"), PENALTY])
    assert not later.state.take_backs  # after the crib: only paid
    assert later.state.awards[-1].points == 4


def test_the_muggins_window_the_help_states_holds_in_the_engine() -> None:
    lines = [header(muggins=True), entry("deal", dealer=1), entry("starter", card="5S"),
             entry("show", player=0, cards=["5C", "5D", "JS", "4H"]), claim(0, 12),
             entry("show", player=1, cards=["2C", "3D", "8H", "KS"]),
             entry("penalty", player=0, infraction="looking", points=0)]
    game = game_of(lines)  # nothing pegged since Ann's claim: the call is still open
    assert game.state.pending_muggins is not None and game.state.pending_muggins.points == 3
    game.apply(event(claim(1, 6)))  # the next score pegged shuts it
    with pytest.raises(RuleError, match="can no longer be taken: Ben has claimed since"):
        game.apply(event(entry("muggins", player=1, points=3)))
