"""The first-game coach (teaching mode): one short page at each step of a deal the first time it
happens in a game, said aloud when the voice is on.

The steps, each from what the engine just did (docs/rules.md, "The deal", "The starter", "The
play", "The show"): the deal and laying away to whose crib, the cut and the starter, the lead,
the go and 31, the show order, and what the crib is. A page's title starts with
:data:`COACH`, so the voice knows it as a coach page.
"""

from __future__ import annotations

from pegboard.app.state import Page
from pegboard.rules.events import Deal, Event, Play, Starter
from pegboard.rules.help_shape import paginate
from pegboard.rules.state import Award, GameState, Reason

COACH = "Coach: "
"""The start of every coach page's title."""

_ENDS = (Reason.GO, Reason.THIRTY_ONE, Reason.LAST_CARD)


def _page(step: str, text: str) -> list[Page]:
    body = paginate([text])
    return [Page(f"{COACH}{step}" if len(body) == 1 else f"{COACH}{step} {n}/{len(body)}",
                 lines) for n, lines in enumerate(body, start=1)]


def _pone(gs: GameState) -> int:
    assert gs.dealer is not None
    return (gs.dealer + 1) % gs.players


def coach_pages(before: GameState, after: GameState, event: Event, awards: tuple[Award, ...],
                given: frozenset[str]) -> tuple[list[Page], frozenset[str]]:
    """The coach pages an entry brings up, and the steps they teach (each once a game)."""
    pages: list[Page] = []
    taught: set[str] = set()

    def teach(step: str, text: str) -> None:
        if f"coach {step}" not in given and step not in taught:
            taught.add(step)
            pages.extend(_page(step, text))

    names = after.names
    if isinstance(event, Deal) and after.dealer is not None:
        dealt = after.rules.dealt_size(after.players)
        away = dealt - after.rules.hand_size()
        teach("the deal", f"{dealt} cards each. Lay {away} away, face down, to "
              f"{names[after.dealer]}'s crib. Keep what scores.")
    if isinstance(event, Starter) and after.dealer is not None:
        teach("the starter", f"{names[_pone(after)]} cut, {names[after.dealer]} turned the "
              f"starter: {event.card.pretty}. It counts in every hand.")
    if isinstance(event, Play) and not before.pile and not any(before.played):
        teach("the lead", f"{names[event.player]} leads. Lay cards in turn, say the count. "
              "15 and 31 peg 2, a pair 2.")
    reasons = {award.reason for award in awards}
    if reasons & set(_ENDS):
        teach("the go", "Can't play under 31? Say go. The last card pegs 1, 31 pegs 2. "
              "Then start at 0.")
    if Reason.HAND in reasons and after.dealer is not None:
        then = "then" if after.players == 2 else "then clockwise to"
        teach("the show", f"Show: {names[_pone(after)]} counts first, {then} "
              f"{names[after.dealer]}, then the crib, each with the starter.")
    if Reason.CRIB in reasons and after.dealer is not None:
        teach("the crib", f"{names[after.dealer]}'s crib: the cards laid away, counted "
              "last. Its flush needs all 5.")
    return pages, frozenset(f"coach {step}" for step in taught)
