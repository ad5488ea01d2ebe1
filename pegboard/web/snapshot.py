"""The game in progress as the scoreboard shows it: one JSON object, in the record's names.

Everything the page says comes from the engine: the table's state, and the report of each
entry the follower read (:class:`~pegboard.rules.facts.Report`). What the table does next is
the last entry's :class:`~pegboard.rules.facts.Turn`; the last score is that entry's
:class:`~pegboard.rules.facts.Scored` acts, one line each; the show is the deal's
:class:`~pegboard.rules.facts.ShowStep` facts in the order the engine counted them; the race
is the entries' reports folded (:mod:`pegboard.rules.fold`). Nothing here works out a phase,
an order, a race or a score again. With count it yourself on, a count the engine holds for its
owner's own count (``GameState.held_counts``) is not shown: the board stands where the engine
says it stood before that count, and the count, its award and a result it made wait for the
``own_count`` line. The words are the device's own (:mod:`pegboard.app.words`).

In a muggins game the page gives no one a reason to call: while a claim can still be called
on (:func:`open_claim`), it reads as what was claimed and nothing more, whether it was right or
short, and a count nobody claimed never reads as a claim of 0. Every total shown is the
engine's: the board at the target once the game is over (its :class:`GameOver`).
docs/web.md describes every field.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from pegboard.app import open_hands
from pegboard.app.picker import rank_label
from pegboard.app.state import Count
from pegboard.app.words import (
    awards_text,
    claimed_line,
    count_lines,
    count_title,
    owed_label,
    result_lines,
    side_name,
)
from pegboard.rules.cards import Card
from pegboard.rules.events import Claim, Deal, GameHeader, NewGame
from pegboard.rules.facts import (
    ClaimClosed,
    ClaimOpened,
    Counted,
    GameOver,
    Scored,
    ShowStep,
    Turn,
)
from pegboard.rules.fold import fold_reports
from pegboard.rules.state import (
    GameState,
    HeldCount,
    PendingClaim,
    Phase,
    Reason,
    SuitQuestion,
)
from pegboard.stats import Race, skunk_lines
from pegboard.ui.race import race_svg
from pegboard.web.follow import Entry, Follower

_DOING = {
    Phase.CUT: "Cutting for the first deal",
    Phase.DEAL: "{next_dealer} to deal",
    Phase.STARTER: "{dealer} turns the starter",
    Phase.PLAY: "{to_act} to play",
    Phase.SHOW: "{to_act} shows",
    Phase.CRIB: "{to_act} counts the crib",
    Phase.GAME_OVER: "Game over",
}
"""What the table does next, by the engine's phase (``Turn``): the seat named is the one the
engine says acts (``next_dealer`` deals the next hand, not this hand's dealer)."""

_IN_DEAL = (Phase.STARTER, Phase.PLAY, Phase.SHOW, Phase.CRIB)
"""Phases said with the deal they belong to ("Ben to play — deal 5")."""


def game_json(follower: Follower, phones: Collection[int] = ()) -> dict[str, Any] | None:
    """The ``game`` object of ``/api/game``; None when there is no game to show.
    ``phones``: the seats phones hold (the board's own account, when the board serves the
    page), whose hands the starter waits for."""
    game = follower.game
    if game is None:
        return None
    gs = game.state
    names = gs.names
    sides = [side_name(gs, s) for s in range(gs.sides)]
    target = gs.rules.target
    skunk, double = skunk_lines(target)
    entries = follower.entries
    turn = entries[-1].report.next if entries else None
    deal = _this_deal(entries)
    callable_at = open_claim(entries)
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
        "shown": list(gs.scores),
        "back_pegs": list(gs.back_pegs),
        "phase": gs.phase.value,
        "doing": doing(turn, names, waiting=open_hands.starter_waits_for(game, phones),
                       asked=gs.asked),
        "claim": claim_json(turn, names),
        "game_no": gs.game_no,
        "deal_no": gs.deal_no,
        "dealer": gs.dealer,
        "next_dealer": turn.next_dealer if turn is not None else None,
        "to_act": gs.to_act,
        "count": gs.count,
        "pile": [entered(gs, card) for card in gs.pile],
        "pile_text": " ".join(rank_label(card.rank) for card in gs.pile),
        # The starter's suit only when a player entered it (the wheel's is made up).
        "starter": str(gs.turned.card) if gs.turned and gs.turned.card else None,
        "starter_text": rank_label(gs.starter.rank) if gs.starter is not None else None,
        "crib": [entered(gs, card) for card in gs.crib] if gs.crib is not None else None,
        "last_award": last_scores(deal, names, callable_at=callable_at),
        "show": show_json(deal, turn, names, callable_at),
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
        over = _game_over(entries)
        if over is not None:
            data["shown"] = list(over.shown)  # the winner at the target (ACC)
        race = race_of(game.header, entries)
        data["race"] = race.to_json()
        data["race_svg"] = race_svg(race)
    if gs.held_counts:
        hold(data, gs.held_counts, deal, names, callable_at)
    return data


def entered(gs: GameState, card: Card) -> str:
    """``card`` named as the table entered it: with its suit (``5D``) when a player entered
    the suit (the engine's :meth:`GameState.suit_entered`), else by its rank alone (``5``,
    ``T``): the suit of a card entered by rank is the card wheel's stand-in, no fact, and
    never leaves the box."""
    return str(card) if gs.suit_entered(card) else card.rank.symbol


def hold(data: dict[str, Any], held: tuple[HeldCount, ...], deal: list[Entry],
         names: tuple[str, ...], callable_at: int | None = None) -> None:
    """Count it yourself: ``data`` with nothing of the counts the engine holds: the board as
    it stood before the first, no page or award line of any held count, and no result or
    winner while a held count made it (the game ended on it)."""
    first = held[0]
    hidden = {(count.player, count.reason is Reason.CRIB) for count in held}
    data.update(scores=list(first.scores), shown=list(first.scores),
                back_pegs=list(first.back_pegs), winner=None, result=None,
                result_text=None, race=None, race_svg=None,
                show=[count for count in data["show"]
                      if (count["player"], count["crib"]) not in hidden],
                last_award=last_scores(deal, names, hidden, callable_at))


def _game_over(entries: list[Entry]) -> GameOver | None:
    """The engine's report of the end of the game in view (the latest: undoing the entry
    that ended it takes the entry, and its report, away)."""
    for entry in reversed(entries):
        if entry.report.game_over is not None:
            return entry.report.game_over
    return None


def _this_deal(entries: list[Entry]) -> list[Entry]:
    """The entries since the latest deal (or new game) began, that entry left out: a new
    deal starts with a clean slate."""
    for index in range(len(entries) - 1, -1, -1):
        if isinstance(entries[index].event, Deal | NewGame):
            return entries[index + 1:]
    return entries


def open_claim(entries: list[Entry]) -> int | None:
    """The record line of the claim an opponent may still call muggins on, whether or not
    its owner missed anything (None: no call can be made now, or the score open to a call
    was passed over unclaimed and has no claim of its own).

    The window is the engine's (``Turn.call``, :class:`~pegboard.rules.state.OpenCall`):
    every claim opens it, right or short, so what the page shows of a claim while it can be
    called says nothing of whether it was right; the device asks for a call over the same
    window (``pegboard.app.calls``). Each claim opens a window of its own, so the claim open
    is the latest claim entry."""
    call = entries[-1].report.next.call if entries else None
    if call is None or call.claimed is None:
        return None
    return next((entry.line for entry in reversed(entries) if isinstance(entry.event, Claim)),
                None)


def doing(turn: Turn | None, names: tuple[str, ...], *, waiting: Sequence[int] = (),
          asked: SuitQuestion | None = None) -> str:
    """What the table does next, with the name of whoever acts: the engine's turn after the
    last entry ("Ben shows — deal 1", "Ben to deal"). What the table waits for first comes
    first, never the step after it: the hands the starter waits for (``waiting``, the
    board's account: :func:`pegboard.app.open_hands.starter_waits_for`: "Waiting for Ben's
    hand — deal 1"), the starter's suit a count waits for (the engine's ``asked``), a
    score waiting for its owner's claim ("Waiting for Ben's claim: hand — deal 1")."""
    if turn is None:
        return _DOING[Phase.CUT]

    def name(seat: int | None) -> str:
        return names[seat] if seat is not None else ""

    if waiting and turn.phase is Phase.STARTER:
        whose = [f"{names[seat]}'s" for seat in waiting]
        who = whose[0] if len(whose) == 1 else ", ".join(whose[:-1]) + " and " + whose[-1]
        text = f"Waiting for {who} {'hand' if len(whose) == 1 else 'hands'}"
    elif asked is not None:
        text = f"Waiting for the starter's suit, for {names[asked.player]}'s count"
    elif turn.held is not None:
        what = "crib" if turn.held.reason is Reason.CRIB else "hand"
        text = f"Waiting for {names[turn.held.player]}'s own count: {what}"
    elif turn.claim is not None:
        text = _claim_text(turn.claim, names)
    else:
        text = _DOING[turn.phase].format(
            dealer=name(turn.dealer), to_act=name(turn.to_act),
            next_dealer=name(turn.next_dealer))
    if (turn.phase in _IN_DEAL or turn.claim is not None or turn.held is not None
            or asked is not None) and turn.deal_no:
        text += f" — deal {turn.deal_no}"
    return text


def _claim_text(claim: PendingClaim, names: tuple[str, ...]) -> str:
    return f"Waiting for {names[claim.player]}'s claim: {owed_label(claim)}"


def claim_json(turn: Turn | None, names: tuple[str, ...]) -> dict[str, Any] | None:
    """The score waiting for its owner's claim (muggins games): whose and for what, never how
    many points (the count stays hidden until it is claimed, ACC 10)."""
    if turn is None or turn.claim is None:
        return None
    claim = turn.claim
    return {
        "player": claim.player,
        "for": [str(reason) for reason in (claim.reasons or (claim.reason,))],
        "text": _claim_text(claim, names),
    }


def last_scores(deal: list[Entry], names: tuple[str, ...],
                hidden: set[tuple[int, bool]] | frozenset[tuple[int, bool]] = frozenset(),
                callable_at: int | None = None) -> dict[str, Any] | None:
    """The latest entry of this deal that pegged points: each scoring act (one
    :class:`Scored` fact) a line of its own, said as the device says it. ``hidden``: the
    owners of counts held (count it yourself; with True for a crib), whose acts are left
    out. The act of the claim at record line ``callable_at`` (still open to a call) reads as
    what was claimed ("Ann's hand: claimed 12", "Ben claimed 2 (pair, go)") with no awards,
    the same for a right claim and a short one."""
    for entry in reversed(deal):
        acts = [act for act in entry.report.scored if not any(
            (act.player, reason is Reason.CRIB) in hidden
            for reason in act.reasons if reason in (Reason.HAND, Reason.CRIB))]
        if acts:
            claim = _answered(entry) if entry.line == callable_at else None
            return {
                "line": entry.line,
                "acts": [_act_json(act, names, claim) for act in acts],
            }
    return None


def _answered(entry: Entry) -> ClaimClosed | None:
    """The claim ``entry`` (a claim) answered, from its report."""
    event = entry.event
    if not isinstance(event, Claim):
        return None
    return next((fact for fact in entry.report.of(ClaimClosed)
                 if fact.claim.player == event.player), None)


def _act_json(act: Scored, names: tuple[str, ...], claim: ClaimClosed | None
              ) -> dict[str, Any]:
    if claim is not None and act.player == claim.claim.player and Reason.MUGGINS not in (
            act.reasons):
        return {"player": act.player, "side": act.side, "points": act.points,
                "text": claim_text(claim, names), "awards": []}
    return {
        "player": act.player,
        "side": act.side,
        "points": act.points,
        "text": awards_text(list(act.awards), names),
        "awards": [award.to_json() for award in act.awards],
    }


def claim_text(closed: ClaimClosed, names: tuple[str, ...]) -> str:
    """A claim as it reads while it can still be called on: what its owner claimed and for
    what, as the device's award line says a count's claim ("Ann's hand: claimed 12"); a
    play score's with the kinds the engine asked the claim for ("Ben claimed 2 (pair,
    go)")."""
    claim = closed.claim
    name = names[claim.player]
    if claim.reason in (Reason.HAND, Reason.CRIB):
        return claimed_line(name, claim.reason.value, closed.claimed)
    return f"{name} claimed {closed.claimed} ({owed_label(claim)})"


def show_json(deal: list[Entry], turn: Turn | None, names: tuple[str, ...],
              callable_at: int | None = None) -> list[dict[str, Any]]:
    """The hands and crib this deal's entries counted, in the order the engine counted them
    (its :class:`ShowStep` facts), each read line by line as the device reads it.

    In a muggins game a count waiting for its owner's claim is not shown at all. Once
    claimed, while the claim can still be called on (its record line is ``callable_at``, or
    the engine holds points it missed open to muggins), it shows only what was claimed, with
    no lines: a right claim and a short one read alike. After that the count is shown with
    what was claimed when that differs ("Ann's hand: 12 (said 5)"); a count its owner never
    claimed (muggins called first, passed over, or the game ended) says so ("not claimed"),
    never "said 0".
    """
    steps: list[ShowStep] = []
    hidden: list[tuple[PendingClaim, ShowStep]] = []
    said: dict[int, int | None] = {}  # id of a step -> what its owner claimed (None: nothing)
    closed_at: dict[int, int] = {}  # id of a step -> the record line that closed its claim
    for entry in deal:
        facts = entry.report.facts
        event = entry.event
        for index, fact in enumerate(facts):
            if isinstance(fact, ShowStep):
                after = facts[index + 1] if index + 1 < len(facts) else None
                if isinstance(after, ClaimOpened):
                    hidden.append((after.claim, fact))
                else:
                    steps.append(fact)
            elif isinstance(fact, ClaimClosed):
                for claim, step in hidden:
                    if claim == fact.claim:
                        hidden.remove((claim, step))
                        steps.append(step)
                        by_owner = isinstance(event, Claim) and event.player == claim.player
                        said[id(step)] = fact.claimed if by_owner else None
                        closed_at[id(step)] = entry.line
                        break
    muggins = turn.muggins if turn is not None else None
    out: list[dict[str, Any]] = []
    for step in steps:
        crib = step.counted is Counted.CRIB
        what = "crib" if crib else "hand"
        asked = id(step) in said
        claimed = said.get(id(step))
        open_to_muggins = muggins is not None and muggins.owner == step.player and (
            muggins.reason is (Reason.CRIB if crib else Reason.HAND))
        if claimed is not None and (open_to_muggins or closed_at[id(step)] == callable_at):
            out.append({"player": step.player, "crib": crib, "points": None,
                        "title": claimed_line(names[step.player], what, claimed),
                        "lines": []})
            continue
        count = Count(step.player, crib, step.cards, step.items, claimed, step.entered)
        title = count_title(count, names)
        if asked and claimed is None:
            title = f"{names[step.player]}'s {what}: {count.points} (not claimed)"
        out.append({
            "player": count.player,
            "crib": count.crib,
            "points": count.points,
            "title": title,
            "lines": list(count_lines(count)),
        })
    return out


def race_of(header: GameHeader, entries: list[Entry]) -> Race:
    """The score race of the game in view: the reports of the entries in force folded
    (:mod:`pegboard.rules.fold`, the one account of a race), its last game's race: each
    side's score at the end of every deal, never above the target, with the winner and skunk
    of its :class:`GameOver`."""
    return fold_reports(header, (entry.report for entry in entries)).game.race
