"""Confirming a game's result at the table (club play): one press per player, or the
director's word.

A ``confirm`` or ``override`` entry is accepted only once the game is over and before the
next game starts; it changes no score. A seat confirms once (a second press is refused, so
the record shows each player's press once). The result is complete when every seat has
confirmed or the director has confirmed it for the table; a scoring entry still allowed after
the game (a claim) clears what was confirmed, since the result it confirmed has changed.

A ``let_pass`` entry, the table's answer to a penalty offered on screen, is kept here too: it
changes no score either.
"""

from __future__ import annotations

from pegboard.errors import RuleError
from pegboard.rules.events import Confirm, LetPass, Override
from pegboard.rules.state import Phase
from pegboard.rules.table import Table
from pegboard.rules.value import replace


def apply_confirm(t: Table, event: Confirm | Override) -> None:
    """Record one confirmation on the table (RuleError before the game is over, for a seat
    the game does not have, or for a seat that confirmed already)."""
    what = "confirm" if isinstance(event, Confirm) else "override"
    if t.phase is not Phase.GAME_OVER:
        raise RuleError(f"a result is confirmed ({what}) only once the game is over")
    if isinstance(event, Override):
        t.override = event.director
        return
    if not 0 <= event.player < t.n:
        raise RuleError(
            f"player {event.player} is not at this table: seats are 0 to {t.n - 1}")
    if event.player in t.confirmed:
        raise RuleError(f"{t.names[event.player]} has confirmed the result already")
    t.confirmed = t.confirmed | {event.player}


def apply_let_pass(t: Table, event: LetPass) -> None:
    """The table lets the first open offer of ``event.infraction`` by ``event.player`` pass:
    it is marked ``passed`` (no longer put to the table) and stays open to a penalty.
    RuleError when no such offer is open and not yet passed."""
    at = next((i for i, offer in enumerate(t.offers)
               if (offer.player, offer.infraction) == (event.player, event.infraction)
               and not offer.resolved and not offer.passed), None)
    if at is None:
        who = t.name(event.player) if 0 <= event.player < t.n else f"player {event.player}"
        raise RuleError(f"no {event.infraction} offer for {who} is open to let pass")
    t.offers = tuple(replace(offer, passed=True) if i == at else offer
                     for i, offer in enumerate(t.offers))
