"""Entries taken back and entered again within one step (a batch of keys in the loop, GO
putting a count right) are told from the entries they replace by the engine's reports, the
withdrawn and the added: what changed is said once, what is the same is not said again."""

from __future__ import annotations

from pegboard.app.effects import Changes
from pegboard.app.session import Session
from pegboard.app.state import AppState
from pegboard.config import Config
from pegboard.rules.cards import Card
from pegboard.rules.events import Deal, GameHeader, Play, Starter
from pegboard.rules.value import replace
from pegboard.voice.announce import Announcer
from tests.support.announcing import added


def _table() -> tuple[AppState, Session, Announcer]:
    """Ann deals, Ben leads a five; the announcer has heard all of it."""
    session = Session.new(GameHeader(("Ann", "Ben")))
    for event in (Deal(dealer=0), Starter(Card.parse("2S")), Play(1, Card.parse("5C"))):
        session, _ = session.apply(event)
    state = AppState(Config(), session=session)
    announcer = Announcer()
    announcer.begin(state)
    return state, session, announcer


def test_a_card_taken_back_and_another_laid_in_one_step_is_said() -> None:
    state, session, announcer = _table()
    laid, king = session.apply(Play(0, Card.parse("KD")))
    assert [a.text for a in announcer.heard(replace(state, session=laid), added(king)).said] \
        == ["Ann: fifteen for two"]
    other, five = laid.undo().apply(Play(0, Card.parse("5D")))  # one batch: UNDO, then a five
    heard = announcer.heard(replace(state, session=other),
                            Changes(entered=(five,), withdrawn=(king,)))
    assert [a.text for a in heard.said] == ["Ann: ten for two, a pair"]
    assert heard.undone is None


def test_the_same_card_entered_again_is_not_said_again() -> None:
    state, session, announcer = _table()
    laid, king = session.apply(Play(0, Card.parse("KD")))
    announcer.heard(replace(state, session=laid), added(king))
    again, other = laid.undo().apply(Play(0, Card.parse("KD")))
    assert other is not king
    changes = Changes(entered=(other,), withdrawn=(king,))
    assert announcer.heard(replace(state, session=again), changes).said == ()
