"""Help during the play: a suggested card with its reason, and why a card scored nothing.

:func:`peg_hint` looks one card ahead. Each card that can be laid is valued by the points it
makes now minus the points the next player could expect to make straight back: every card not
yet seen is taken as equally likely to be theirs, so the reply risk is the average over those
cards of what each would score on top of yours (15, 31, a pair, a run). That is what players
mean by "don't give them an easy fifteen": leading a five or leaving the count at 21 lets any
ten-card score, and laying a card whose rank is still out invites a pair.

:func:`explain_no_score` answers the table question "why didn't that score?" in one line,
naming the rule: a pair must match the card just before it by rank, not value; a run needs
distinct consecutive ranks at the end of the count (ace low, no wrap); fifteen and 31 are exact;
nothing reaches across a reset.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from pegboard.errors import RuleError
from pegboard.rules.cards import DECK, Card, Rank, require_distinct
from pegboard.rules.pegging import score_play
from pegboard.rules.speech import say_play


@dataclass(frozen=True, slots=True)
class PlayOption:
    """One card the player may lay, valued for the hint.

    ``points`` are scored at once; ``reply`` is the next player's expected points from their
    answer (each unseen card equally likely) and ``reply_worst`` the most any answer scores,
    with ``dangers`` the ranks that would score against it.
    """

    card: Card
    count: int
    points: int
    reply: Fraction
    reply_worst: int
    dangers: tuple[Rank, ...]

    @property
    def value(self) -> Fraction:
        """Points now less the expected reply."""
        return self.points - self.reply


@dataclass(frozen=True, slots=True)
class Hint:
    """The suggested card (``None`` means say "go") and a one-line reason."""

    card: Card | None
    reason: str
    options: tuple[PlayOption, ...] = ()


def play_options(
    pile: Sequence[Card], hand: Sequence[Card], seen: Sequence[Card] = ()
) -> list[PlayOption]:
    """Every card of ``hand`` that fits under 31 on ``pile``, best first.

    ``seen`` are other cards the player knows are not in the next player's hand (earlier
    counts, the starter, their own discards); the pile and hand are never theirs either.
    """
    pile = tuple(pile)
    hand = tuple(hand)
    require_distinct((*pile, *hand, *seen), "the pile, the hand and the cards seen")
    count = sum(card.pips for card in pile)
    if count > 31:
        raise RuleError(f"the count is {count}: a count may not pass 31")
    known = {*pile, *hand, *seen}
    unseen = [card for card in DECK if card not in known]
    options: list[tuple[tuple[Fraction, int, int, int], PlayOption]] = []
    for position, card in enumerate(hand):
        reached = count + card.pips
        if reached > 31:
            continue
        laid = (*pile, card)
        points = score_play(laid).total
        reply_total = 0
        worst = 0
        dangers: set[Rank] = set()
        if reached < 31:  # at 31 the count restarts: nothing can be scored against it
            by_rank: Counter[Rank] = Counter(c.rank for c in unseen)
            for rank, number in by_rank.items():
                answer = next(c for c in unseen if c.rank is rank)
                if reached + answer.pips > 31:
                    continue
                scored = score_play((*laid, answer)).total
                if scored:
                    reply_total += scored * number
                    worst = max(worst, scored)
                    dangers.add(rank)
        reply = Fraction(reply_total, len(unseen)) if unseen else Fraction(0)
        option = PlayOption(card, reached, points, reply, worst, tuple(sorted(dangers)))
        # Best value first; then more points now; then the lower card (keep high ones for 31).
        options.append(((-option.value, -points, card.pips, position), option))
    options.sort(key=lambda pair: pair[0])
    return [option for _, option in options]


def _a(word: str) -> str:
    """The word with its article: "a seven", "an ace", "an eight"."""
    return f"an {word}" if word[0] in "aeiou" else f"a {word}"


def _rank_list(ranks: Sequence[Rank]) -> str:
    names = [_a(rank.spoken) for rank in ranks]
    if len(names) <= 2:
        return " or ".join(names)
    return ", ".join(names[:-1]) + " or " + names[-1]


def peg_hint(pile: Sequence[Card], hand: Sequence[Card], seen: Sequence[Card] = ()) -> Hint:
    """The card to lay now and why, in one line.

    >>> from pegboard.rules.cards import parse_cards
    >>> peg_hint(parse_cards("TC"), parse_cards("5H 2D 9S")).reason
    '5♥ makes fifteen for 2; the next player could answer with a five (up to 2)'
    >>> peg_hint([], parse_cards("5H 4D KS 9C")).reason
    '4♦ leads to 4: the next player scores only with a four, the least risk of your 4 plays'
    """
    options = play_options(pile, hand, seen)
    count = sum(card.pips for card in pile)
    if not options:
        return Hint(None, f"Go: every card you hold would take the count past 31 (it is {count})")
    best = options[0]
    card = best.card
    if best.points:
        reason = f"{card.pretty} makes {say_play(score_play((*pile, card)), best.count).lower()}"
        if best.reply_worst:
            reason += (
                f"; the next player could answer with {_rank_list(best.dangers)} "
                f"(up to {best.reply_worst})"
            )
    elif not best.dangers:
        reason = (
            f"{card.pretty} takes the count to {best.count} and no card can score against it"
        )
    else:
        reason = (
            f"{card.pretty} {'leads' if not pile else 'takes the count'} to {best.count}: "
            f"the next player scores only with {_rank_list(best.dangers)}"
        )
        if len(options) > 1:
            reason += f", the least risk of your {len(options)} plays"
    return Hint(card, reason, tuple(options))


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
    """A count one off fifteen or thirty-one."""
    count = sum(card.pips for card in pile)
    if count in (14, 16):
        return f"no fifteen: the count is {count}"
    if count in (29, 30):
        return f"no thirty-one: the count is {count}"
    return None
