"""Muggins games by ear: a claim is said as the engine settled it. A claim of the true score
is said as claimed; an over-claim, which the engine corrects to the true score, is said as
corrected, with what was claimed (never "as claimed")."""

from __future__ import annotations

from pegboard.app.inputs import KnobTurn
from pegboard.config import VoiceConfig
from pegboard.rules.variants import Rules
from pegboard.voice.acts import Importance
from pegboard.voice.audio import EARCON
from pegboard.voice.hook import VoiceHook
from tests.support.announcing import added, announcer_after
from tests.support.app_driver import MENU, OK, App
from tests.support.pace import TablePace

DEAL = ("deal 0; starter AC; play 1 KD 0 QH 1 9S; go 0; go 1; claim 1 1; "
        "play 0 4D 1 7C 0 3H 1 QS 0 6H; claim 0 1")
"""Ben's hand is KD 9S 7C QS with the A♣ turned: nothing; Ann's QH 4D 3H 6H: fifteen two."""


def heard(script: str) -> list[str]:
    announcer, state, entered = announcer_after(("Ann", "Ben"), script, Rules(muggins=True))
    announcer.heard(state, added(*entered.added[:-1]))
    return [said.text for said in announcer.heard(state, added(entered.added[-1])).said]


def test_an_over_claim_corrected_to_nothing_is_said_as_corrected() -> None:
    assert heard(f"{DEAL}; claim 1 6") == ["Ben: six claimed, corrected to zero"]


def test_an_over_claim_of_a_count_is_said_corrected_with_the_count() -> None:
    assert heard(f"{DEAL}; claim 1 0; claim 0 5") == [
        "Ann: five claimed, corrected to two: fifteen two"]


def test_a_play_point_over_claimed_is_said_corrected() -> None:
    assert heard("deal 0; starter AC; play 1 KD 0 QH 1 9S; go 0; go 1; claim 1 3") == [
        "Ben: three claimed, corrected to one"]


def test_a_right_claim_is_said_as_claimed() -> None:
    assert heard(f"{DEAL}; claim 1 0") == ["Ben: zero, as claimed"]
    assert heard(f"{DEAL}; claim 1 0; claim 0 2") == ["Ann: fifteen two"]


def test_a_muggins_call_is_heard_once_with_what_its_page_shows() -> None:
    """Audio mode, through the real queue: the call's fact says who took what from whose
    score ("Muggins! P2 takes one from P1's fifteen") with the board after it; the page
    showing the same ("P2 takes 1 / P1 missed 1 / (fifteen)") is shown, not said again."""
    app = App.start(voice=VoiceConfig(audio=True))
    app.feed(OK)
    app.feed(KnobTurn(list(app.view.lines).index("Muggins: off")), OK)
    app.feed(KnobTurn(-(app.view.selected or 0)), OK, KnobTurn(1), OK)
    for label in ("5", "10", "5"):  # starter 5; P2 leads 10, P1's 5 makes fifteen
        app.pick(label)
    shown = int(app.view.lines[0].rsplit(":", 1)[1])
    app.feed(KnobTurn(1 - shown), OK)  # P1 claims 1 of her 2
    app.feed(MENU, KnobTurn(1))
    table = TablePace()
    hook = VoiceHook(table)
    hook.heard(app.state, app.view, (), first=True)  # the menu, as heard so far
    table.until_quiet()
    before = len(table.said)
    app.take_changes()
    app.feed(OK)  # "Muggins: P2"
    hook.heard(app.state, app.view, app.effects, app.take_changes())
    table.until_quiet()
    assert (app.view.title, app.view.lines) == ("Muggins", ("P2 takes 1", "P1 missed 1",
                                                             "(fifteen)"))
    words = [said.text for said in table.said[before:] if said.kind != EARCON]
    assert words == ["Muggins! P2 takes one from P1's fifteen; P1 1, P2 1"]
    assert table.unsaid(frozenset(Importance)) == []
