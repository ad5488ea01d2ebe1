"""Help during the play: the card to lay with its reason, and why a card scored nothing.

:func:`peg_hint` is the pegging coach's judgement (:func:`pegboard.coach.lookahead.judge`,
two cards ahead), for a player who names the cards they hold: the same card the coach names
and the quiz marks right, with the coach's line as its reason.

:func:`explain_no_score` answers the table question "why didn't that score?" in one line,
naming the rule: a pair must match the card just before it by rank, not value; a run needs
distinct consecutive ranks at the end of the count (ace low, no wrap); fifteen and 31 are exact;
nothing reaches across a reset.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pegboard.coach.knowledge import Knowledge, OwnCards
from pegboard.coach.lookahead import Ahead, card_line, judge
from pegboard.errors import RuleError
from pegboard.rules.cards import Card, Rank, require_distinct
from pegboard.rules.pegging import score_play
from pegboard.rules.value import Value


class Hint(Value):
    """The suggested card (``None`` means say "go") and a one-line reason; ``options`` every
    card that fits, valued, best first."""

    __slots__ = ("card", "options", "reason")
    __match_args__ = ("card", "reason", "options")

    card: Card | None
    reason: str
    options: tuple[Ahead, ...]

    def __init__(self, card: Card | None, reason: str, options: tuple[Ahead, ...] = ()) -> None:
        setter = object.__setattr__
        setter(self, "card", card)
        setter(self, "reason", reason)
        setter(self, "options", options)


def hint(known: Knowledge) -> Hint:
    """The card to lay now and why, in one line, for a player whose cards are known (the
    coach's card and line)."""
    if known.own is not OwnCards.KEPT:
        raise RuleError("a hint needs the cards you hold")
    require_distinct((*known.pile, *known.cards, *known.seen, *(known.theirs or ())),
                     "the pile, the hand, the cards seen and the next player's")
    count = known.count
    if count > 31:
        raise RuleError(f"the count is {count}: a count may not pass 31")
    options = judge(known)
    line = card_line(known)
    if not options or line is None:
        return Hint(None, f"Go: every card you hold would take the count past 31 (it is {count})")
    return Hint(options[0].card, line, options)


def peg_hint(pile: Sequence[Card], hand: Sequence[Card], seen: Sequence[Card] = (), *,
             next_left: int | None = None, theirs: Sequence[Card] | None = None) -> Hint:
    """:func:`hint` for a player holding ``hand`` on ``pile``; ``seen`` are other cards they
    know are not the next player's (earlier counts, the starter, their own discards);
    ``theirs`` the next player's cards, when the hands are open to the table.

    >>> from pegboard.rules.cards import parse_cards
    >>> peg_hint(parse_cards("TC"), parse_cards("5H 2D 9S")).reason
    'Lay 5: fifteen for 2'
    >>> peg_hint([], parse_cards("5H 4D KS 9C")).card
    Card.parse('4D')
    """
    return hint(Knowledge.kept(pile, hand, seen, next_left=next_left, theirs=theirs))


def _a(word: str) -> str:
    """The word with its article: "a seven", "an ace", "an eight"."""
    return f"an {word}" if word[0] in "aeiou" else f"a {word}"


def _run_text(ranks: Sequence[int]) -> str:
    """Ranks as a list the voice reads cleanly: ``5, 6 and 7`` (never "5-6-?-7")."""
    shown = [Rank(rank).symbol.replace("T", "10") for rank in ranks]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"


def _is_run(ranks: Sequence[int]) -> bool:
    ordered = sorted(ranks)
    return len(set(ordered)) == len(ordered) and ordered[-1] - ordered[0] == len(ordered) - 1


def explain_no_score(pile: Sequence[Card], previous: Sequence[Card] = ()) -> str | None:
    """Why the last card of ``pile`` scored nothing, when a player may have expected points.

    ``pile`` is the current count (since the last reset), oldest first; ``previous`` the count
    before the reset, if any. Returns ``None`` when the card scored or nothing was near.

    >>> from pegboard.rules.cards import parse_cards
    >>> explain_no_score(parse_cards("5C 6D 9H 7S"))
    'no run: the 9 breaks the run 5, 6 and 7'
    >>> explain_no_score(parse_cards("JC QD"))
    'no pair: a jack and a queen both count 10, but a pair must be the same rank'
    >>> explain_no_score(parse_cards("9C 7D"))
    'no fifteen: one past it'
    """
    pile = tuple(pile)
    if not pile or score_play(pile).total:
        return None
    checks: tuple[Callable[[], str | None], ...] = (
        lambda: _across_reset(pile, tuple(previous)), lambda: _tens(pile),
        lambda: _spoilt_run(pile), lambda: _late_pair(pile), lambda: _near_count(pile),
    )
    return next((why for check in checks if (why := check()) is not None), None)


def _across_reset(pile: tuple[Card, ...], before: tuple[Card, ...]) -> str | None:
    """A pair or a run that would reach back over a go or 31."""
    if not before or len(pile) > 3:
        return None
    last = pile[-1]
    reset = "31" if sum(c.pips for c in before) == 31 else "a go"
    if len(pile) == 1 and before[-1].rank == last.rank:
        return (
            f"no pair: the count was reset after {reset}, so the "
            f"{before[-1].rank.spoken} before it no longer counts"
        )
    joined = [int(c.rank) for c in (*before, *pile)]
    for size in range(len(joined), len(pile), -1):
        if size >= 3 and _is_run(joined[-size:]):
            return f"no run: the count was reset after {reset}; runs never reach across a reset"
    return None


def _tens(pile: tuple[Card, ...]) -> str | None:
    """Two ten-cards of different ranks are no pair."""
    if len(pile) < 2:
        return None
    prior, last = pile[-2], pile[-1]
    if prior.rank != last.rank and prior.pips == last.pips == 10:
        return (
            f"no pair: {_a(prior.rank.spoken)} and {_a(last.rank.spoken)} both count 10, "
            "but a pair must be the same rank"
        )
    return None


def _spoilt_run(pile: tuple[Card, ...]) -> str | None:
    """The longest window ending here that one stray card, or one missing rank, spoils; or
    Q-K-A, which the low ace is not."""
    ranks = [int(card.rank) for card in pile]
    for size in range(len(pile), 3, -1):
        window = ranks[-size:]
        for skip in range(size - 1):
            rest = window[:skip] + window[skip + 1:]
            if _is_run(rest):
                stray = Rank(window[skip]).symbol.replace("T", "10")
                repeat = " (a repeated rank)" if window[skip] in rest else ""
                return f"no run: the {stray}{repeat} breaks the run {_run_text(rest)}"
    for size in range(min(len(pile), 4), 2, -1):
        window = sorted(ranks[-size:])
        if len(set(window)) == size and window[-1] - window[0] == size:
            missing = next(r for r in range(window[0], window[-1]) if r not in window)
            return f"no run: {_run_text(window)} need {_a(Rank(missing).spoken)} to be a run"
    if len(pile) >= 3 and set(ranks[-3:]) == {1, 12, 13}:
        return "no run: the ace is low, so queen, king, ace is not a run"
    return None


def _late_pair(pile: tuple[Card, ...]) -> str | None:
    """A rank matching an older card, not the one just before it."""
    last = pile[-1]
    if len(pile) >= 3 and last.rank in (c.rank for c in pile[:-2]) and pile[-2].rank != last.rank:
        return (
            "no pair: a pair must match the card just before it, and that was "
            f"{_a(pile[-2].rank.spoken)}"
        )
    return None


def _near_count(pile: tuple[Card, ...]) -> str | None:
    """A count one off fifteen, or one or two short of thirty-one (the count itself is said
    first, as players say it: :func:`no_score_heading`)."""
    count = sum(card.pips for card in pile)
    near = {14: "no fifteen: one short of it", 16: "no fifteen: one past it",
            29: "no thirty-one: two short of it", 30: "no thirty-one: one short of it"}
    return near.get(count)


def no_score_heading(count: int) -> str:
    """What a player says laying a card that scored nothing: the count, then "no score"
    ("16, no score"). The screen's page and the voice both say a near miss under it (the
    page as its title, the voice before :func:`explain_no_score`'s reason)."""
    return f"{count}, no score"
