"""The first-game coach (teaching mode): one short page at each step of a deal the first time it
happens in a game, said aloud when the voice is on.

The steps, each from what the engine just did (docs/rules.md, "The deal", "The starter", "The
play", "The show"): the deal and laying away to whose crib, the cut and the starter, the lead,
the go and 31, the show order, and what the crib is. A page's title starts with
the coach's name for its step; the page's kind says it is a coach page (the show order's its
own kind, as it is said before the counts it explains).
"""

from __future__ import annotations

from collections.abc import Callable

from pegboard.app.picker import rank_label
from pegboard.app.state import Page
from pegboard.app.view import PageKind
from pegboard.coach.help_shape import paginate
from pegboard.rules.events import Deal, Event, Play, Starter
from pegboard.rules.state import Award, GameState, Reason

COACH = "Coach: "
"""The start of every coach page's title."""
COUNT_TITLE = f"{COACH}the count"
"""The title of the pegging coach's page on what the count offers (a closed hand: it names
nobody's card), the turn's page and the pegging hint alike."""
SHOW_STEP = "the show"
"""The coach's step on the show order, whose page comes before the counts it explains."""

_ENDS = (Reason.GO, Reason.THIRTY_ONE, Reason.LAST_CARD)


def _page(step: str, text: str) -> list[Page]:
    body = paginate([text])
    kind = PageKind.SHOW_ORDER if step == SHOW_STEP else PageKind.COACH
    return [Page(f"{COACH}{step}" if len(body) == 1 else f"{COACH}{step} {n}/{len(body)}",
                 lines, kind=kind) for n, lines in enumerate(body, start=1)]


def _pone(gs: GameState) -> int:
    assert gs.dealer is not None
    return (gs.dealer + 1) % gs.players


def coach_pages(before: GameState, after: GameState, event: Event, awards: tuple[Award, ...],
                given: frozenset[str], worse: Callable[[], bool] = lambda: False,
                ) -> tuple[list[Page], frozenset[str]]:
    """The coach pages an entry brings up, and the steps they teach (each once a game).
    ``worse``: whether the card the entry answered gave up points against another card its
    player then held, with what was known as it was laid; only then is it said to have
    given points away."""
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
              f"starter: {_turned(after)}. It counts in every hand.")
    if isinstance(event, Play) and not before.pile and not any(before.played):
        teach("the lead", f"{names[event.player]} leads. Lay cards in turn, say the count. "
              "15 and 31 peg 2, a pair 2.")
    reasons = {award.reason for award in awards}
    if reasons & set(_ENDS):
        teach("the go", "Can't play under 31? Say go. The last card pegs 1, 31 pegs 2. "
              "Then start at 0.")
    if Reason.HAND in reasons and after.dealer is not None:
        then = "then" if after.players == 2 else "then clockwise to"
        teach(SHOW_STEP, f"Show: {names[_pone(after)]} counts first, {then} "
              f"{names[after.dealer]}, then the crib, each with the starter.")
    if Reason.CRIB in reasons and after.dealer is not None:
        teach("the crib", f"{names[after.dealer]}'s crib: the cards laid away, counted "
              "last. Its flush needs all 5.")
    given_away = _given_away(before, event, awards)
    if given_away is not None and worse():
        kind, text = given_away
        if f"coach {kind}" not in given and kind not in taught:
            taught.add(kind)
            pages.extend(_page("points given", text))
    return pages, frozenset(f"coach {step}" for step in taught)


def _given_away(before: GameState, event: Event, awards: tuple[Award, ...],
                ) -> tuple[str, str] | None:
    """A card that let the next player score at once: which kind (once a game) and a note for
    the player who laid it (docs/rules.md, "The play")."""
    if not isinstance(event, Play) or not before.pile or before.last_player is None:
        return None
    laid_by = before.last_player
    if laid_by == event.player:
        return None
    scored = {a.reason for a in awards if a.player == event.player}
    names = before.names
    count = before.count
    last = before.pile[-1]
    # A card entered by its rank is named by its rank: its suit is the wheel's, not the card's.
    shown = last.pretty if last in before.suits_entered else rank_label(last.rank)
    who = f"{names[laid_by]}'s {shown}"
    if Reason.FIFTEEN in scored:
        need = 15 - count
        return ("given fifteen", f"{who} left the count at {count}: any {_value(need)} made "
                f"fifteen for {names[event.player]}.")
    if Reason.THIRTY_ONE in scored:
        return ("given 31", f"{who} left the count at {count}: any {_value(31 - count)} made "
                f"31 for {names[event.player]}.")
    if scored & {Reason.PAIR, Reason.PAIR_ROYAL, Reason.DOUBLE_PAIR_ROYAL}:
        return ("given a pair", f"{names[event.player]} paired {who}. A rank still out can "
                "be paired.")
    if Reason.RUN in scored:
        return ("given a run", f"{who} let {names[event.player]} make a run: cards a rank "
                "or two apart invite one.")
    return None


def _value(pips: int) -> str:
    return "ten-card" if pips == 10 else ("ace" if pips == 1 else str(pips))


def _turned(after: GameState) -> str:
    """The starter as entered: a suit the wheel chose is never shown."""
    return after.turned.pretty if after.turned is not None else ""
