"""A game summary as the store keeps it (on the finish line and in the index), and read back
with every value checked: those are files anyone with access can edit."""

from __future__ import annotations

from typing import Any, TypeGuard

from pegboard.rules.cards import DECK, EnteredCard, Rank
from pegboard.rules.state import Skunk
from pegboard.stats.values import BestHand, GameSummary, Race, Scored, Tally

# --- a game summary kept in the store's index ----------------------------------------------


def summary_json(g: GameSummary) -> dict[str, Any]:
    """What the store's index keeps of a game summary (its number and source are given again
    when it is read: they depend on where the game stands in the history)."""
    return {
        "players": list(g.players), "names": list(g.names), "target": g.race.target,
        "race": [list(row) for row in g.race.scores], "finished": g.finished,
        "winner": g.winner, "skunk": str(g.skunk), "first_dealer_side": g.first_dealer_side,
        "tallies": [_tally_json(t) for t in g.tallies],
    }


def summary_from_json(data: object, *, number: int, source: str) -> GameSummary:
    """The summary :func:`summary_json` kept, as game ``number`` of the statistics.

    Every value is checked (ValueError naming the first that is wrong): the index that keeps
    them is a file anyone with access can edit.
    """
    d = _object(data, "a summary")
    names = _texts(d.get("names"), "names")
    players = _texts(d.get("players"), "players")
    race = d.get("race")
    if not isinstance(race, list) or not race or not all(
            isinstance(row, list) and len(row) == len(names) and all(map(_is_whole, row))
            for row in race):
        raise ValueError("its race is not a list of scores for each side")
    target, winner, first = d.get("target"), d.get("winner"), d.get("first_dealer_side")
    if not _is_whole(target) or target < 1 or not (winner is None or _is_whole(winner)) or not (
            first is None or _is_whole(first)):
        raise ValueError("its target, winner or first dealer is not a whole number")
    skunk, finished, tallies = d.get("skunk"), d.get("finished"), d.get("tallies")
    if not isinstance(skunk, str) or not isinstance(finished, bool):
        raise ValueError("its skunk or finished is not what a summary keeps")
    if not isinstance(tallies, list) or len(tallies) != len(names):
        raise ValueError("it has no tally for each side")
    try:
        how = Skunk(skunk)
    except ValueError:
        raise ValueError(f"its skunk {skunk!r} is not one of none, skunk, double") from None
    if any(score < 0 for row in race for score in row):
        raise ValueError("its race has a score below 0")
    # Summaries kept before the race stopped at the target end on the winner's full total:
    # the race shows the board as the game over shows it, the winner at the target.
    rows = tuple(tuple(min(score, target) for score in row) for row in race)
    return GameSummary(
        number, source, players, names, Race(names, target, rows, winner, how), finished,
        winner, how, first, tuple(_tally_from_json(t, number) for t in tallies),
    )


def _is_whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _whole(tally: dict[str, Any], name: str) -> int:
    value = tally.get(name)
    if not _is_whole(value):
        raise ValueError(f"its tally's {name} is not a whole number")
    return value


def _object(value: object, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"{what} is not an object")
    return value


def _texts(value: object, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError(f"its {what} are not a list of names")
    return tuple(value)


def _scored(t: Tally) -> dict[tuple[str, str], Scored]:
    """Each part of the deal a tally scores, by the names its points and times are kept
    under."""
    return {("hand_points", "hands"): t.hands, ("crib_points", "cribs"): t.cribs,
            ("pegging_points", "pegging_deals"): t.pegging}


_LEARNING_FIELDS = ("discards", "discard_loss", "missed", "pegging_loss")
"""What a game teaches (kept from index layout 2; a summary without them taught nothing)."""


def _tally_json(t: Tally) -> dict[str, Any]:
    out: dict[str, Any] = {"deals": t.deals}
    for (points, times), scored in _scored(t).items():
        out.update({points: scored.points, times: scored.times})
    out.update({name: getattr(t, name) for name in _LEARNING_FIELDS if getattr(t, name)})
    if t.best_hand is not None:
        best = t.best_hand.to_json()
        del best["game"]
        out["best_hand"] = best
    return out


def _tally_from_json(data: object, number: int) -> Tally:
    d = _object(data, "a tally")
    tally = Tally(_whole(d, "deals"))
    for (points_key, times_key), scored in _scored(tally).items():
        scored.points, scored.times = _whole(d, points_key), _whole(d, times_key)
    for name in _LEARNING_FIELDS:
        value = d.get(name, 0)
        if not _is_whole(value) or value < 0:
            raise ValueError(f"its tally's {name} is not a whole number of 0 or more")
        setattr(tally, name, value)
    best = d.get("best_hand")
    if best is not None:
        hand = _object(best, "a best hand")
        points, cards, starter = hand.get("points"), hand.get("cards"), hand.get("starter")
        if not _is_whole(points) or not isinstance(cards, list) or not all(
                isinstance(card, str) for card in cards) or not isinstance(
                starter, str | None) or not isinstance(hand.get("player"), str):
            raise ValueError("its best hand is not what a summary keeps")
        try:
            tally.best_hand = BestHand(
                points, tuple(_CARDS[c] for c in cards),
                _CARDS[starter] if starter else None, hand["player"], number)
        except KeyError as error:
            raise ValueError(f"its best hand: {error.args[0]!r} is not a card the index "
                             "writes (rank then suit: 5H, TD; a rank alone: 5, T)") from None
    return tally


_CARDS = {
    **{str(card): EnteredCard.of(card) for card in DECK},
    **{rank.symbol: EnteredCard(rank, None) for rank in Rank},
}
"""Each card as entered by the text :func:`summary_json` writes
(:func:`~pegboard.stats.values.entered_text`): read back by a lookup."""
