"""Rule help: short answers to the disputes that come up at cribbage tables.

The topics themselves (their text, screen pages and references) are in
:mod:`pegboard.coach.help_topics`. :func:`topics_for` maps a :class:`Situation` (what just
happened, in plain values: the event type, award reasons, breakdown item kinds, cards) to the
topics worth showing, so the device can offer help the moment a dispute is likely.
"""

from __future__ import annotations

from collections.abc import Sequence

from pegboard.coach.help_topics import (
    LINE_WIDTH,
    PAGE_LINES,
    TOPICS,
    Topic,
    UnknownTopicError,
    paginate,
    topic,
)
from pegboard.rules.cards import Card, Rank
from pegboard.rules.events import Crib, Event, Penalty, Play, Show
from pegboard.rules.pegging import score_play
from pegboard.rules.state import Award, GameState
from pegboard.rules.value import Value

__all__ = [
    "LINE_WIDTH",
    "PAGE_LINES",
    "TOPICS",
    "Situation",
    "Topic",
    "UnknownTopicError",
    "paginate",
    "situation_after",
    "topic",
    "topics_for",
]


class Situation(Value):
    """What just happened at the table, described with plain values.

    ``event`` is the record event type just applied (``starter``, ``play``, ``go``, ``show``,
    ``crib``, ``penalty``, ``claim``, ``muggins``, ``peg``, ``deal``); ``reasons`` the award
    reasons it produced (``go``, ``thirty-one``, ``run``, ``his heels``, ``hand``, ``crib``,
    ``three for last`` ...). ``items`` are the breakdown item kinds of a hand or crib just
    counted (``fifteen``, ``flush``, ``nobs`` ...). ``cards``: for a play, the cards of the
    current count after the card was laid, oldest first; for a show or crib, the hand or crib
    cards (without the starter). ``new_count`` is true when a played card led a count that
    restarted after a go or 31. ``game_over`` is true when this event ended the game, with
    ``skunk`` ``"none"``, ``"skunk"`` or ``"double"``. ``renege`` is true when a go was
    reported as a renege; ``infraction`` names a penalty just applied.
    """

    __slots__ = (
        "cards",
        "event",
        "game_over",
        "infraction",
        "items",
        "new_count",
        "reasons",
        "renege",
        "skunk",
        "starter",
    )
    __match_args__ = ("event", "reasons", "items", "cards", "starter", "new_count", "game_over",
                      "skunk", "renege", "infraction")

    event: str
    reasons: tuple[str, ...]
    items: tuple[str, ...]
    cards: tuple[Card, ...]
    starter: Card | None
    new_count: bool
    game_over: bool
    skunk: str
    renege: bool
    infraction: str | None

    def __init__(
        self,
        event: str,
        reasons: tuple[str, ...] = (),
        items: tuple[str, ...] = (),
        cards: tuple[Card, ...] = (),
        starter: Card | None = None,
        new_count: bool = False,
        game_over: bool = False,
        skunk: str = "none",
        renege: bool = False,
        infraction: str | None = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "event", event)
        setter(self, "reasons", reasons)
        setter(self, "items", items)
        setter(self, "cards", cards)
        setter(self, "starter", starter)
        setter(self, "new_count", new_count)
        setter(self, "game_over", game_over)
        setter(self, "skunk", skunk)
        setter(self, "renege", renege)
        setter(self, "infraction", infraction)


def _unscored_crib_flush(s: Situation) -> bool:
    """A crib of four cards of one suit whose starter is of another suit."""
    if s.event != "crib" or len(s.cards) != 4 or "flush" in s.items:
        return False
    suits = {c.suit for c in s.cards}
    return len(suits) == 1 and (s.starter is None or s.starter.suit not in suits)


def _run_question(pile: tuple[Card, ...]) -> bool:
    """A play where runs may surprise: a run laid out of order, or a broken would-be run.

    Out of order means the run's cards were not laid in rising or falling rank. A broken
    would-be run is three or more cards at the end of the pile whose distinct ranks are
    consecutive but where a rank repeats (5-6-6-7): players often expect a double run there.
    """
    if len(pile) < 3 or sum(c.pips for c in pile) > 31:
        return False  # no run to explain (a pile over 31 cannot happen in a real count)
    for item in score_play(pile).items:
        if item.kind == "run":
            ranks = [int(c.rank) for c in item.cards]
            return ranks != sorted(ranks) and ranks != sorted(ranks, reverse=True)
    for size in range(len(pile), 3, -1):
        ranks = [int(c.rank) for c in pile[-size:]]
        distinct = sorted(set(ranks))
        if (
            len(distinct) >= 3
            and len(distinct) < size
            and distinct[-1] - distinct[0] == len(distinct) - 1
        ):
            return True
    return False


def topics_for(situation: Situation) -> tuple[Topic, ...]:
    """The help topics worth showing after ``situation``, in the order of :data:`TOPICS`.

    Triggers: a crib of four cards of one suit with a starter of another suit (crib-flush); a
    count that reached 31 (go-and-31); a run laid out of order, or a repeated rank breaking a
    would-be run (play-runs); a card leading a new count after a go or 31 (lead-after-go); a
    jack starter, his heels, or a hand holding a jack when the starter is a jack
    (heels-nobs); the game ending on a hand or crib score (show-order); a reported renege or a
    renege penalty (renege); muggins called (muggins); a skunk at the end (skunk); three for
    last (three-for-last). How often to show each is the caller's choice.

    >>> from pegboard.rules.cards import parse_cards
    >>> played = tuple(parse_cards("5H 7C 6D"))
    >>> [t.id for t in topics_for(Situation("play", ("run",), cards=played))]
    ['play-runs']
    """
    s = situation
    wanted: set[str] = set()
    if _unscored_crib_flush(s):
        wanted.add("crib-flush")
    if "thirty-one" in s.reasons:
        wanted.add("go-and-31")
    if s.event == "play" and _run_question(s.cards):
        wanted.add("play-runs")
    if s.event == "play" and s.new_count:
        wanted.add("lead-after-go")
    jack_starter = s.starter is not None and s.starter.rank is Rank.JACK
    if (
        "his heels" in s.reasons
        or (s.event == "starter" and jack_starter)
        or (
            s.event in ("show", "crib")
            and jack_starter
            and any(c.rank is Rank.JACK for c in s.cards)
        )
    ):
        wanted.add("heels-nobs")
    if s.game_over and ("hand" in s.reasons or "crib" in s.reasons):
        wanted.add("show-order")
    if s.renege or s.infraction == "renege":
        wanted.add("renege")
    if s.event == "muggins" or "muggins" in s.reasons:
        wanted.add("muggins")
    if s.game_over and s.skunk in ("skunk", "double"):
        wanted.add("skunk")
    if "three for last" in s.reasons:
        wanted.add("three-for-last")
    return tuple(t for t in TOPICS if t.id in wanted)


def situation_after(
    event: Event, awards: Sequence[Award], before: GameState, after: GameState
) -> Situation:
    """Describe what the engine just did as a :class:`Situation`.

    ``before`` and ``after`` are the game's state snapshots around ``event``, and ``awards``
    what :meth:`pegboard.rules.game.Game.apply` returned for it. The device calls this after
    each accepted entry and passes the result to :func:`topics_for`.
    """
    cards: tuple[Card, ...] = ()
    new_count = False
    if isinstance(event, Play):
        cards = (*before.pile, event.card)
        # An empty pile after cards were played this deal means a go or 31 reset the count.
        new_count = not before.pile and any(before.played)
    elif isinstance(event, (Show, Crib)):
        cards = tuple(event.cards)
    game_over = after.result is not None and before.result is None
    return Situation(
        event=event.TYPE,
        reasons=tuple(award.reason for award in awards),
        items=tuple(
            item.kind for award in awards if award.reason in ("hand", "crib")
            for item in award.items
        ),
        cards=cards,
        starter=after.starter,
        new_count=new_count,
        game_over=game_over,
        skunk=after.result.skunk if game_over and after.result is not None else "none",
        renege=len(after.reneges) > len(before.reneges),
        infraction=event.infraction if isinstance(event, Penalty) else None,
    )
