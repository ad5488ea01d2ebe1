"""The game in progress as the scoreboard shows it: one JSON object, in the record's names.

The state comes from the rules engine (the record replayed by :class:`~pegboard.web.follow
.Follower`); the words are the device's own (:mod:`pegboard.app.words`): award lines, show
counts read aloud, the result. docs/web.md describes every field.
"""

from __future__ import annotations

from typing import Any

from pegboard.app.picker import rank_label
from pegboard.app.state import Count
from pegboard.app.words import (
    awards_text,
    count_lines,
    count_title,
    result_lines,
    side_name,
)
from pegboard.rules.events import Deal, NewGame
from pegboard.rules.state import Award, GameState, Phase
from pegboard.stats import replay_events, skunk_lines
from pegboard.ui.race import race_svg
from pegboard.web.follow import Entry, Follower

_DOING = {
    Phase.CUT: "Cutting for the first deal",
    Phase.DEAL: "{dealer} to deal",
    Phase.STARTER: "{dealer} turns the starter",
    Phase.PLAY: "{to_act} to play",
    Phase.SHOW: "{to_act} shows",
    Phase.CRIB: "{dealer}'s crib",
    Phase.GAME_OVER: "Game over",
}


def game_json(follower: Follower) -> dict[str, Any] | None:
    """The ``game`` object of ``/api/game``; None when there is no game to show."""
    game = follower.game
    if game is None:
        return None
    gs = game.state
    names = gs.names
    sides = [side_name(gs, s) for s in range(gs.sides)]
    target = gs.rules.target
    skunk, double = skunk_lines(target)
    data: dict[str, Any] = {
        "id": follower.game_id,
        "header": follower.header,
        "lines": follower.lines,
        "started_at": follower.started_at,
        "updated_at": follower.updated_at,
        "players": list(names),
        "sides": sides,
        "target": target,
        "skunk_lines": [line for line in (skunk, double) if line is not None],
        "scores": list(gs.scores),
        "back_pegs": list(gs.back_pegs),
        "phase": gs.phase.value,
        "doing": _doing(gs),
        "game_no": gs.game_no,
        "deal_no": gs.deal_no,
        "dealer": gs.dealer,
        "to_act": gs.to_act,
        "count": gs.count,
        "pile": [str(card) for card in gs.pile],
        "pile_text": " ".join(rank_label(card.rank) for card in gs.pile),
        "starter": str(gs.starter) if gs.starter is not None else None,
        "starter_text": rank_label(gs.starter.rank) if gs.starter is not None else None,
        "crib": [str(card) for card in gs.crib] if gs.crib is not None else None,
        "last_award": _last_award(follower.entries, names),
        "show": _show(gs, follower.entries),
        "winner": gs.winner,
        "result": None,
        "result_text": None,
        "race": None,
        "race_svg": None,
        "finished": follower.finish is not None or follower.finished_id is not None,
        "problem": follower.problem,
    }
    if gs.result is not None:
        title, lines = result_lines(gs)
        data["result"] = gs.result.to_json()
        data["result_text"] = {"title": title, "lines": list(lines)}
        race = replay_events(game.header, game.events)[-1].race
        data["race"] = race.to_json()
        data["race_svg"] = race_svg(race)
    return data


def _doing(gs: GameState) -> str:
    """What the table is doing now, with the name of whoever must act."""
    def name(seat: int | None) -> str:
        return gs.names[seat] if seat is not None else ""
    return _DOING[gs.phase].format(dealer=name(gs.dealer), to_act=name(gs.to_act))


def _last_award(entries: list[Entry], names: tuple[str, ...]) -> dict[str, Any] | None:
    """The latest entry in force that pegged points, said as the device says it."""
    for entry in reversed(entries):
        if entry.awards:
            return {
                "line": entry.line,
                "text": awards_text(list(entry.awards), names),
                "awards": [award.to_json() for award in entry.awards],
            }
        if isinstance(entry.event, Deal | NewGame):
            return None  # a new deal starts with a clean slate
    return None


def _show(gs: GameState, entries: list[Entry]) -> list[dict[str, Any]]:
    """The hands and crib counted so far this deal, in show order (left of the dealer first,
    the dealer last, then the crib), each read aloud line by line as the device reads it; a
    hand that scored nothing is read too ("nineteen: nothing")."""
    counted: dict[tuple[int, bool], Award] = {}
    for entry in reversed(entries):
        if isinstance(entry.event, Deal | NewGame):
            break
        for award in entry.awards:
            if award.reason in ("hand", "crib"):
                counted.setdefault((award.player, award.reason == "crib"), award)
    if gs.dealer is None or gs.phase in (Phase.CUT, Phase.STARTER, Phase.PLAY):
        return []
    order = [(gs.dealer + k) % gs.players for k in range(1, gs.players + 1)]
    counts = [Count(p, False, gs.hands[p] or (), counted[p, False].items if (p, False) in counted
                    else ()) for p in order if gs.hands[p] is not None]
    if gs.rules.muggins or gs.phase is Phase.GAME_OVER:
        # Only what was pegged: a muggins hand waits for its claim, and nothing is counted
        # after the hand that won (a hand of nothing before it was read all the same).
        last = max((i for i, c in enumerate(counts) if (c.player, False) in counted),
                   default=-1)
        counts = [c for i, c in enumerate(counts)
                  if i <= last and (not gs.rules.muggins or (c.player, False) in counted)]
    crib = counted.get((gs.dealer, True))
    if gs.crib is not None and (crib is not None or not gs.rules.muggins):
        counts.append(Count(gs.dealer, True, gs.crib, crib.items if crib else ()))
    return [{
        "player": count.player,
        "crib": count.crib,
        "points": count.points,
        "title": count_title(count, gs.names),
        "lines": list(count_lines(count)),
    } for count in counts]
