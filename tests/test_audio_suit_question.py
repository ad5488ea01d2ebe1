"""Audio mode: a starter entered by rank alone whose suit a count needs is asked once, said
whole, answered with one key on the keypad or two actions on the encoder, and every later
count of the deal uses the answer (issue 31, item 2).

Played by ear on the simulated device, its voice heard through the real hook, from a game
restored at the last card of the play. Ann deals; both hands were entered with the cards
each laid away (the crib is the engine's: K♦ Q♦ of Ann's, 8♦ 4♦ of Ben's); the starter is an
ace entered by its rank alone. Ann's hand holds the J♥ (his nobs if the ace is a heart) and
her crib is all diamonds (a flush of five if the ace is a diamond): her hand's count asks
the suit; the answer, diamonds, counts the hand (no nobs) and the crib (the flush of five)
without a second question.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pegboard.app.session import Session
from pegboard.config import parse_config
from pegboard.rules.cards import Suit
from pegboard.rules.events import StarterSuit
from pegboard.store import Store
from pegboard.voice.hook import Transcript
from tests.support.announcing import said_over_keys
from tests.support.rulings_records import entry, header, play
from tests.support.web import ScriptedGame

PLAYS = ((1, "5C"), (0, "JH"), (1, "5D"), (0, "2H"), (1, "6H"), (0, "3C"), (1, "7S"))
"""The play but Ann's last card, the 9♠."""

LINES = [header(), entry("deal", dealer=0),
         entry("dealt", player=0, cards=["JH", "2H", "3C", "9S", "KD", "QD"]),
         entry("dealt", player=1, cards=["5C", "5D", "6H", "7S", "8D", "4D"]),
         entry("laid_away", player=0, cards=["KD", "QD"]),
         entry("laid_away", player=1, cards=["8D", "4D"]),
         entry("starter", card="AH", suit_known=False),
         *(play(p, card) for p, card in PLAYS)]

QUESTION = "Ann's hand. Starter ace: suit for nobs?"
HAND = "Ann: fifteen two, fifteen four, and a run of three is seven; Ann 12, Ben 8"
CRIB = "Ann's crib: fifteen two, fifteen four, and a flush of five is nine; Ann 21, Ben 8"

KEYS = {
    # OK past "Game restored", the 9♠ laid (its key on the keypad, turned to and OK on the
    # encoder), OK through the end of the play and Ben's hand, then the answer: diamonds.
    "keypad": ("ok 9 ok ok", "2"),
    "encoder": ("ok left*5 ok ok ok", "right ok"),
}


@pytest.mark.parametrize("kit", ["keypad", "encoder"])
def test_the_suit_is_asked_once_said_whole_and_every_later_count_uses_it(
        kit: str, tmp_path: Path) -> None:
    game = ScriptedGame(tmp_path / "store", LINES)
    game.play_to(len(LINES))
    game.close()
    config = parse_config(f'[input]\nkit = "{kit}"\n[voice]\naudio = true\n')
    before, answer = KEYS[kit]
    said = said_over_keys(f"{before} {answer} ok ok", config, tmp_path, Transcript()).texts()
    asked = [at for at, text in enumerate(said) if "suit for" in text]
    assert len(asked) == 1, said  # asked once, in the whole deal
    question = said[asked[0]]
    assert question.startswith(QUESTION), question
    if kit == "keypad":  # which key is which suit, in words
        assert "1 clubs, 2 diamonds, 3 hearts, 4 spades" in question, question
    # The answer's keys, as heard: one on the keypad, two actions on the encoder (a click
    # and OK), then the hand's count with the suit named, and the crib's with it too.
    counted = said.index(HAND)
    keys = [text for text in said[asked[0] + 1:counted] if text.startswith("[")]
    assert len(keys) == len(answer.split()) <= (1 if kit == "keypad" else 2), said
    assert said[counted + 1] == CRIB, said[counted:]
    assert not [text for text in said[counted:] if "suit" in text], said[counted:]
    store = Store(tmp_path / "store", owner="test")
    try:
        current = store.current()
        assert current is not None
        events = Session.resume(current.records).events
    finally:
        store.close()
    assert [event for event in events if isinstance(event, StarterSuit)] == [
        StarterSuit(Suit.DIAMONDS)]
