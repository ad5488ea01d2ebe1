"""What the phones and the scoreboard say the table does next is what the board really waits
for: a hand not yet in, the starter's suit a count needs, a claim. Seeded games on two phones
(the app driver and the phones' entries), the table line checked after every entry, as the
scoreboard shows it and as each phone's page shows it (its own line, else the table's)."""

from __future__ import annotations

import random

import pytest

from pegboard.app.inputs import PhoneSeats
from pegboard.app.open_hands import starter_waits_for
from pegboard.app.picker import rank_label
from pegboard.rules.cards import DECK
from pegboard.rules.events import Dealt, LaidAway, StarterSuit
from pegboard.rules.state import Phase
from pegboard.web.phone_view import seat_json
from pegboard.web.snapshot import doing
from tests.support.app_driver import new_game
from tests.test_seat_entry import Phones


def table_lines(phones: Phones) -> list[str]:
    """The scoreboard's table line, then each phone's line as its page shows it: what it is
    asked or waits for, else the table's line (pegboard/web/static/phone.js)."""
    session = phones.app.state.session
    assert session is not None
    game, seats = session.game, phones.app.state.phones
    gs = game.state
    turn = session.report.next if session.report is not None else None
    line = doing(turn, gs.names, waiting=starter_waits_for(game, seats), asked=gs.asked)
    shown = [line]
    for seat in sorted(seats):
        mine = seat_json(game, seat, game_id=None, phones=seats)
        shown.append(mine["wait"] or "" if mine["asks"] != "wait" or mine["wait"] else line)
    return shown


def check(phones: Phones, seen: set[str]) -> None:
    """Every line names what the board waits for first, and no later step."""
    gs = phones.gs
    waiting = starter_waits_for(phones.app.state.session.game,  # type: ignore[union-attr]
                                phones.app.state.phones)
    for line in table_lines(phones):
        if not line:
            continue
        if waiting:
            seen.add("hand")
            assert line.startswith("Waiting for") and "hand" in line, (line, waiting)
            assert "starter" not in line.split(":")[0].replace("then the starter", ""), line
        elif gs.asked is not None:
            seen.add("suit")
            assert "starter's suit" in line, (line, gs.asked)
        elif gs.pending_claims:
            seen.add("claim")
            assert "claim" in line, line


@pytest.mark.parametrize("seed", [3, 4])
def test_the_table_line_names_what_the_board_waits_for(seed: int) -> None:
    rng = random.Random(seed)
    phones = Phones(new_game(dealer=seed % 2), rng)
    seen: set[str] = set()
    phones.app.feed(PhoneSeats(frozenset({0, 1})))
    deals = 0
    while phones.gs.winner is None and deals < 6:
        gs = phones.gs
        assert gs.phase is Phase.STARTER and gs.dealer is not None
        cards = list(DECK)
        rng.shuffle(cards)
        for k in (1, 2):
            seat = (gs.dealer + k) % 2
            six = tuple(cards[6 * seat: 6 * seat + 6])
            assert phones.send(seat, Dealt(seat, six), LaidAway(seat, six[:2])).taken
            check(phones, seen)
        # The starter on the box by its rank alone: a count may then need its suit.
        phones.app.read()
        phones.app.pick(rank_label(cards[12].rank))
        check(phones, seen)
        phones.play()
        check(phones, seen)
        phones.app.read()
        while phones.gs.asked is not None:
            check(phones, seen)
            asked = phones.gs.asked
            assert phones.send(asked.player, StarterSuit(asked.suits[0])).taken
            phones.app.read()
        check(phones, seen)
        deals += 1
    assert seen == {"hand", "suit"}, seen
