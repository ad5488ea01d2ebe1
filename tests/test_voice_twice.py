"""Nothing said twice: whole games played by ear through the real speech queue at a patient
player's pace (tests/support/pace.py, tests/support/listening.py), cut for deal, with counts
put right by GO and, in a muggins game, claimed and called; what the queue said is checked
(docs/accessibility.md, "Each thing said once"):

* what one key brought names no fact twice: no clause of it (the words between ". ", "; "
  and ": ") is said twice, but a single word or a number, which are no fact on their own
  ("P1: go", "P1: one for the go"; "P1: go", "P2 claims. go: 1");
* each deal's number is said once ("Deal 3: P2 deals"; its starter's and play's screens do
  not say it again);
* a count is said again only with other words (put right: "Recounted. ..."), never whole
  again for a standing that moved.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import replace
from functools import cache

import pytest

from pegboard.rules.speech import number
from pegboard.voice.acts import DEAL, Announcement, Importance
from tests.support.listening import Listener, owed, true_game
from tests.support.pace import TablePace

COUNTS = ("hand", "crib")


@cache
def played(seed: int, kit: str, style: str, muggins: bool) -> tuple[Listener, TablePace]:
    """The seed's game by ear on ``kit``, cut for deal, at a patient pace."""
    game = true_game(seed, 121, suits=True)
    assert game is not None
    record, plan, counts = game
    table = TablePace()
    listener = Listener(kit, list(plan), [] if muggins else counts, table=table, style=style,
                        cut=True, owed=owed(record) if muggins else None)
    listener.play()
    return listener, table


GAMES = [(1, "encoder", "full", False), (1, "keypad", "terse", False),
         (1, "keypad", "full", True)]
"""Seed 1 has a count put right by GO before a later count (its standing moves) and a
crib put right; the third is the muggins game, every score claimed by its owner."""

NOT_FACTS = {number(n) for n in range(200)}
"""Clauses that are no fact on their own: a number (and any single word)."""


def clauses(text: str) -> list[str]:
    """The clauses of an announcement's words."""
    return [part.strip() for part in re.split(r"\. |; |: ", text) if part.strip()]


def heard(listener: Listener, table: TablePace) -> list[tuple[str, Announcement]]:
    """Every announcement the queue said, with the key step that brought it."""
    cause = {id(said): at for said, at in zip(listener.transcript.said,
                                              listener.transcript.causes, strict=True)}
    return [(cause[id(said)], said) for said in table.heard()]


def said_twice(heard: list[tuple[str, Announcement]]) -> list[str]:
    """Every fact said twice in ``heard`` (see the module), as a line naming it."""
    found = []
    for key, group in itertools.groupby(heard, key=lambda pair: pair[0]):
        texts = [said.text for _, said in group if not said.text.startswith("[")]
        counted = Counter(part for text in texts for part in clauses(text)
                          if part not in NOT_FACTS and " " in part)
        found += [f"key {key}: {part!r} in {texts}" for part, n in counted.items() if n > 1]
    deals = Counter(match for _, said in heard
                    for match in re.findall(r"\bDeal \d+\b(?!, lay)", said.text))
    found += [f"{deal} said {n} times" for deal, n in deals.items() if n > 1]
    starts = [at for at, (_, said) in enumerate(heard) if said.kind == DEAL]
    for start, end in itertools.pairwise([0, *starts, len(heard)]):
        words = Counter(_count_words(said) for _, said in heard[start:end]
                        if said.kind in COUNTS)
        found += [f"a count said again in the same words: {said}"
                  for said, n in words.items() if n > 1]
    return found


def _count_words(said: Announcement) -> str:
    """A count's words without its standing or the word that it was put right."""
    head = said.parts.head if said.parts is not None else said.text
    return head.removeprefix("Recounted. ")


@pytest.mark.parametrize(("seed", "kit", "style", "muggins"), GAMES)
def test_a_game_by_ear_through_the_queue_says_no_fact_twice(
        seed: int, kit: str, style: str, muggins: bool) -> None:
    listener, table = played(seed, kit, style, muggins)
    assert any(" wins, " in said.text for said in table.said)
    assert table.unsaid(frozenset(Importance)) == []  # a patient player hears every word
    assert said_twice(heard(listener, table)) == []


def test_the_check_finds_a_fact_said_twice() -> None:
    """The check can fail: the crib's name said after its count, the dealer said again,
    a deal's number again on its play screen and a count said whole again are each found."""
    listener, table = played(*GAMES[0])
    said = heard(listener, table)
    assert said_twice(said) == []
    # the first deal is said once, by its number, with the cut that chose its dealer
    assert sum(len(re.findall(r"\bDeal 1\b", a.text)) for _, a in said) == 1
    crib = next(at for at, (_, a) in enumerate(said) if a.kind == "crib")
    key, count = said[crib]
    said.insert(crib + 1, (key, Announcement(count.text.split(": ")[0], "screen",
                                             Importance.SCREEN)))
    deal = next(at for at, (_, a) in enumerate(said) if a.kind == DEAL)
    said.insert(deal + 1, (said[deal][0], Announcement("Deal 1: P1 deals", "screen",
                                                       Importance.SCREEN)))
    said.insert(deal + 2, ("later", Announcement("Entered. Deal 1. P2 plays: 10", "screen",
                                                 Importance.SCREEN)))
    hand = next(at for at, (_, a) in enumerate(said) if a.kind == "hand")
    said.insert(hand + 1, ("later", replace(said[hand][1],
                                            text=f"Recounted. {said[hand][1].text}")))
    found = said_twice(said)
    assert any("crib" in line.split(" in ")[0] for line in found), found
    assert any("'P1 deals'" in line for line in found), found
    assert "Deal 1 said 3 times" in found, found
    assert any(line.startswith("a count said again") for line in found), found
