"""Teaching from the cards entered: which were laid away, and a first game played open-handed.

In a teaching game, once a player's dealt cards are entered (for discard advice, or at every
deal of an open-handed game) the box asks which of them went to the crib: the wheel holds
those cards, starting on the discard the advice ranks first, so laying away as advised is two
presses of OK (one with three or four players). The engine then knows the hand kept
(``laid_away``, docs/record.md), and the coach speaks of those cards alone.

An open-handed game (the table option ``open_hands``, with teaching) is how a first game is
taught: at each deal every player's cards are entered in turn, from the dealer's left, each
followed by the advice (its reasons shown before the choice) and the question; the play's
wheel then offers only the player's own cards, and the hands and the crib are counted with no
entry (the engine knows them).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from pegboard import lazy
from pegboard.app import picker
from pegboard.app.coach import COACH
from pegboard.app.session import Session
from pegboard.app.state import AppState, CardEntry, Page, WheelScreen
from pegboard.app.view import PageKind
from pegboard.coach.help_shape import Continued, paginate
from pegboard.rules.cards import Card
from pegboard.rules.events import TableOptions
from pegboard.rules.game import Game
from pegboard.rules.state import GameState, Phase

if TYPE_CHECKING:
    from pegboard.coach import advice
else:
    advice = lazy.module("pegboard.coach.advice")

if TYPE_CHECKING:
    from pegboard.coach.advice import DiscardChoice

ADVICE = "advice"
"""The purpose of the card entry of a player's dealt cards (recorded, then the advice)."""
AWAY = "away"
"""The purpose of the card entry of the cards a player laid away."""


def open_hands(state: AppState) -> bool:
    """The game is played open-handed (the option is in effect with teaching only)."""
    return state.teaching and state.table.open_hands


def next_entry(state: AppState) -> CardEntry | None:
    """The cards the table is asked for before the starter (None: none): in a teaching game,
    the cards laid away by a player whose dealt cards were entered; in an open-handed game
    also each player's dealt cards, from the dealer's left round to the dealer. A seat a
    phone holds is never asked here: its phone enters its cards."""
    if not state.teaching or state.session is None:
        return None
    gs = state.session.state
    if gs.phase is not Phase.STARTER or gs.dealer is None or state.table.points_only:
        return None
    whole = open_hands(state)
    for k in range(1, gs.players + 1):
        seat = (gs.dealer + k) % gs.players
        if seat in state.phones:
            continue  # a phone's seat enters its cards on its phone, never on the box
        if gs.dealt[seat] is not None and gs.laid_away[seat] is None:
            return CardEntry(AWAY, WheelScreen(), seat)
        if gs.dealt[seat] is None and whole:
            return CardEntry(ADVICE, WheelScreen(), seat)
    return None


def waiting_for_phones(state: AppState) -> tuple[int, ...]:
    """The seats phones hold whose cards the starter still waits for (dealt, or laid away),
    from the dealer's left: the starter is turned only once every phone's hand is in (in
    an open-handed deal every hand, as the box asks of its own seats). A seat that falls
    back to the box (its phone released) is asked on the box instead (:func:`next_entry`),
    or, in a game not played open-handed, enters no hand."""
    if state.session is None:
        return ()
    return tuple(seat for seat in hands_to_come(state.session.state, state.table,
                                                state.phones, open_handed=open_hands(state))
                 if seat in state.phones)


def starter_waits_for(game: Game, phones: Collection[int]) -> tuple[int, ...]:
    """The seats whose hands the starter waits for in ``game``, read off its record (the
    table options in effect, teaching under a club night's lock not counted) and the seats
    phones hold (``phones``): what the phones and the scoreboard say the table waits for."""
    table = Session.resume(game).table
    club = game.header.club
    teaching = table.teaching and not (club is not None and club.lock)
    return hands_to_come(game.state, table, phones, open_handed=teaching and table.open_hands)


def hands_to_come(gs: GameState, table: TableOptions, phones: Collection[int], *,
                  open_handed: bool) -> tuple[int, ...]:
    """Every seat whose cards (dealt, and laid away) the starter still waits for, from the
    dealer's left: each seat a phone holds (its phone enters its hand, so the board knows
    the hand kept and the crib before the starter, as at the table the starter is cut once
    the crib is laid away), and in an open-handed deal (``open_handed``: the option in
    effect, with teaching) every seat, wherever its hand is entered. ``phones``: the seats
    phones hold. Never when pegging by points (no hand is entered)."""
    if table.points_only or gs.phase is not Phase.STARTER or gs.dealer is None:
        return ()
    seats = ((gs.dealer + k) % gs.players for k in range(1, gs.players + 1))
    return tuple(seat for seat in seats
                 if (open_handed or seat in phones)
                 and (gs.dealt[seat] is None or gs.laid_away[seat] is None))


def waiting_words(gs: GameState, seats: Sequence[int], phones: Collection[int], *,
                  short: bool = False, starter: bool = True) -> str:
    """Whom the starter waits for and where each hand is entered, naming no card:
    "Waiting for Ben's hand (on their phone): the starter comes after every hand.", or
    "Waiting for Ben's hand (on their phone) and Ann's (on the box): ...". ``phones``: the
    seats phones hold (the others are entered on the box). ``short``: the words for the
    box's screen, five rows of 20 characters ("Waiting for Ben's hand (on their phone),
    then the starter.", "Waiting for the hands of Ben, Cy and Di (on their phones), then
    the starter."; not ``starter``: without "then the starter", where rows are short)."""
    groups: list[list[int]] = []
    for seat in seats:  # the hands grouped by where they are entered, in the order asked
        group = next((g for g in groups if (g[0] in phones) == (seat in phones)), None)
        if group is None:
            groups.append([seat])
        else:
            group.append(seat)
    # The box's short words name the players ("the hands of Ben and Cy"), a phone's whole
    # words their hands ("Ben's and Cy's hands").
    whose = short and len(seats) > 1
    parts = []
    for n, group in enumerate(groups):
        names = [gs.names[seat] if whose else f"{gs.names[seat]}'s" for seat in group]
        who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        noun = "" if n or whose else (" hand" if len(names) == 1 else " hands")
        where = ("on their phone" if len(group) == 1 else "on their phones"
                 ) if group[0] in phones else "on the box"
        parts.append(f"{who}{noun} ({where})")
    said = " and ".join(parts)
    if short:
        then = ", then the starter" if starter else ""
        return f"Waiting for {'the hands of ' if whose else ''}{said}{then}."
    return f"Waiting for {said}: the starter comes after every hand."


FALL_BACK_HINT = "OK: on the box"
"""The box's wait for phones' hands: OK takes a seat the starter waits for on the box
instead ("On the box instead?", :mod:`pegboard.app.pairing`)."""


def fall_back_words(gs: GameState, seats: Sequence[int], seat: int) -> str:
    """How a hand the starter waits for on a phone is entered on the box instead, in the
    words of ``seat``'s phone (``seats``: the phones' hands waited for): on the box, OK, then
    that hand; its phone then lets go of the seat, and says how to carry on there (join
    again by the code the box's Phones menu shows)."""
    if seat in seats:
        return (f"Entering this hand on the box instead? On the box press OK, then choose "
                f"\u201c{gs.names[seat]}'s hand\u201d: this phone then lets go of your seat. "
                "To carry on here afterwards, join again with the code the box shows under "
                "Phones on its menu.")
    named = [f"\u201c{gs.names[other]}'s hand\u201d" for other in seats]
    which = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " or " + named[-1]
    return (f"A hand can be entered on the box instead: on the box press OK, then choose "
            f"{which}.")


def away_count(gs: GameState) -> int:
    """How many cards each player lays away (2 with two players and in five-card, else 1)."""
    return gs.rules.dealt_size(gs.players) - gs.rules.hand_size()


def own_crib(gs: GameState, player: int) -> bool:
    """The crib is the player's side's (the dealer's): what goes in counts for them."""
    return gs.dealer is not None and gs.side_of(player) == gs.side_of(gs.dealer)


def advised(gs: GameState, player: int) -> tuple[DiscardChoice, ...]:
    """The discard advice for the player's dealt cards, best first
    (:mod:`pegboard.coach.advice`)."""
    dealt = gs.dealt[player]
    assert dealt is not None
    return tuple(advice.advise(dealt, dealer=own_crib(gs, player), players=gs.players,
                               five_card=gs.rules.five_card))


def away_slots(gs: GameState, screen: CardEntry, best: Sequence[Card],
               ) -> tuple[list[picker.Slot], int]:
    """The player's dealt cards not yet chosen, in the order dealt, starting on the next card
    of the advised discard ``best`` not yet chosen."""
    assert screen.player is not None
    dealt = gs.dealt[screen.player] or ()
    cards = [card for card in dealt if card not in screen.cards]
    slots = [[picker.WheelChoice(card.pretty, card)] for card in cards]
    start = next((cards.index(card) for card in best if card in cards), 0)
    return slots, start


def advice_pages(gs: GameState, player: int, options: Sequence[DiscardChoice], *,
                 shown: bool = False) -> tuple[Page, ...]:
    """The advice for a player's dealt cards, before they lay away: the discard ranked first
    and why (what the kept cards make at the least whatever the starter, and on average;
    what the cards laid away may make in the crib, for the player or against them), then the
    next two discards, by how much less they are worth on average. ``shown``: the hands are
    open at this table."""
    if not options:
        return ()
    best = options[0]
    whose = "your" if own_crib(gs, player) else "their"
    lines = [
        f"Lay {_cards(best.discard)} away.",
        f"Keep {_cards(best.keep)}.",
        f"At least {best.worst},",
        Continued(f"{float(best.hand):.1f} on average."),  # one sentence: read as one
        f"{whose.capitalize()} crib gets {float(best.crib):.1f}.",
    ]
    for other in options[1:3]:
        lines.append(f"{_cards(other.discard)} away: {float(best.net - other.net):.1f} less.")
    # Open hands: everyone sees every hand, so the advice is the coach's, said aloud too;
    # else it is the player's own, on the screen only.
    if shown:
        return (Page(f"{COACH}{gs.names[player]} lays away", tuple(lines), kind=PageKind.COACH),)
    return (Page(f"Advice for {gs.names[player]}", tuple(lines)),)


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(card.pretty for card in cards)


def open_hands_page(gs: GameState) -> list[Page]:
    """The coach's page on an open-handed deal, the first time: whose cards are entered, in
    which order, and what comes of it."""
    if gs.dealer is None:
        return []
    first = gs.names[(gs.dealer + 1) % gs.players]
    text = f"Enter each hand, {first} first. The box advises, then asks what you laid away."
    body = paginate([text])
    title = "Coach: open hands"
    return [Page(title if len(body) == 1 else f"{title} {n}/{len(body)}", lines,
                 kind=PageKind.COACH) for n, lines in enumerate(body, start=1)]
