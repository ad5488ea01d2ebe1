"""``pegboard replay FILE|-``: apply a game record and tell the game as players would say it.

``--json`` prints one object per event line instead: the awards that line pegged and the scores
after it, then a result line. A bad line (unreadable, or against the rules) stops the replay
with exit status 2 and a message naming the line; nothing after it is applied.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from typing import TextIO

from pegboard.commands import paths
from pegboard.errors import RecordError, RuleError
from pegboard.record import decode_lines, iter_lines
from pegboard.rules.awards import number
from pegboard.rules.events import (
    Claim,
    Crib,
    Cut,
    Deal,
    Dealt,
    Event,
    GameHeader,
    Go,
    Muggins,
    NewGame,
    Peg,
    Penalty,
    Play,
    Show,
    Starter,
    Undo,
)
from pegboard.rules.game import Game
from pegboard.rules.state import Award, GameState, TakeBack


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``replay`` subcommand."""
    parser = subparsers.add_parser(
        "replay", help="replay a game record (JSON Lines) and tell the game deal by deal",
        description="Replay a game record and print the game as players would say it.",
    )
    parser.add_argument("record", metavar="FILE", help="the record file, or - for stdin")
    parser.add_argument(
        "--json", action="store_true",
        help="print one JSON object per event line (awards and scores), then the result",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Replay the record named by ``args.record``.

    The file is read as bytes and decoded line by line (:func:`pegboard.record.decode_lines`),
    so a line that is not UTF-8 is refused with its line and byte, like any other bad line.
    """
    if args.record == "-":
        # Standard input's own decoding depends on the locale (and may smuggle bad bytes in as
        # surrogates), so the bytes underneath are decoded here; a test's StringIO is text.
        binary = getattr(sys.stdin, "buffer", None)
        lines = decode_lines(binary, "<stdin>") if binary is not None else sys.stdin
        return replay(lines, sys.stdout, as_json=args.json)
    paths.input_name(args.record)  # a name no file can have (a NUL, not UTF-8, too long)
    try:
        stream = open(args.record, "rb")  # noqa: SIM115 - closed below, after the replay
    except OSError as error:
        raise RecordError(
            f"cannot read {paths.shown(args.record)}: {error.strerror or error}"
        ) from None
    # Only opening is guarded: an OSError while replaying is the output's (a closed pipe).
    with stream:
        return replay(decode_lines(stream, args.record), sys.stdout, as_json=args.json)


def replay(lines: Iterable[str], out: TextIO, *, as_json: bool = False) -> int:
    """Apply every line and print as we go; raises RecordError naming the first bad line."""
    game: Game | None = None
    for number_, item in iter_lines(lines):
        if isinstance(item, GameHeader):
            if game is not None:
                raise RecordError(
                    f"line {number_}: a second \"game\" line; a match continues with new_game"
                )
            try:
                game = Game.from_header(item)
            except RuleError as error:
                raise RecordError(f"line {number_}: {error}") from None
            if not as_json:
                _print_header(game, out)
            continue
        if game is None:
            raise RecordError(f"line {number_}: the first line must be the \"game\" line")
        before = game.state
        try:
            awards = game.apply(item)
        except RuleError as error:
            out.flush()
            raise RecordError(f"line {number_}: {error}") from None
        if as_json:
            obj: dict[str, object] = {
                "line": number_,
                "awards": [award.to_json() for award in awards],
                "scores": list(game.state.scores),
            }
            taken = _new_take_back(before, game.state)
            if taken is not None:
                obj["taken_back"] = taken.to_json()
            out.write(json.dumps(obj) + "\n")
        else:
            _tell(game, before, item, awards, out)
    if game is None:
        raise RecordError("line 1: the record is empty: it needs a \"game\" line first")
    state = game.state
    if as_json:
        result: dict[str, object] = {"type": "result"}
        if state.result is not None:
            result.update(state.result.to_json())
        else:
            result.update({
                "scores": list(state.scores), "winner": None, "skunk": "none",
                "game_points": [0] * state.sides,
            })
        if state.rules.match_games > 1:
            result["match"] = {
                "games": state.match.games, "wins": list(state.match.wins),
                "game_points": list(state.match.game_points), "winner": state.match.winner,
            }
        out.write(json.dumps(result) + "\n")
    elif state.result is None:
        _print_result(state, out)
    return 0


# Telling the game ----------------------------------------------------------------------------


def _side(state: GameState, side: int) -> str:
    return " & ".join(
        name for seat, name in enumerate(state.names) if state.side_of(seat) == side
    )


def _scores(state: GameState) -> str:
    return ", ".join(f"{_side(state, s)} {score}" for s, score in enumerate(state.scores))


def _print_header(game: Game, out: TextIO) -> None:
    rules = game.rules
    names = " v ".join(
        _side(game.state, side) for side in range(game.state.sides)
    )
    extras = []
    if rules.five_card:
        extras.append("five-card")
    if rules.muggins:
        extras.append("muggins")
    if rules.match_games > 1:
        extras.append(f"best of {rules.match_games}")
    more = f" ({', '.join(extras)})" if extras else ""
    out.write(f"{names}: game to {rules.target}{more}\n")


def _tell(
    game: Game, before: GameState, event: Event, awards: tuple[Award, ...], out: TextIO
) -> None:
    state = game.state
    names = state.names
    line: str | None = None
    if isinstance(event, Cut):
        cards = ", ".join(f"{names[p]} {c.pretty}" for p, c in enumerate(event.cards))
        line = f"Cut for deal: {cards}"
        line += " — a tie, cut again" if state.dealer is None and state.phase.value == "cut" \
            else ""
    elif isinstance(event, Deal):
        assert state.dealer is not None
        out.write(f"\nDeal {state.deal_no}: {names[state.dealer]} deals. {_scores(before)}\n")
    elif isinstance(event, Dealt):
        line = f"{names[event.player]} is dealt {' '.join(c.pretty for c in event.cards)}"
    elif isinstance(event, Starter):
        line = f"Starter {event.card.pretty}"
    elif isinstance(event, Play):
        count = before.count + event.card.pips
        line = f"{names[event.player]} plays {event.card.pretty}: {number(count)}"
    elif isinstance(event, Go):
        line = f"{names[event.player]}: go"
    elif isinstance(event, Show):
        line = f"{names[event.player]} shows {' '.join(c.pretty for c in event.cards)}"
    elif isinstance(event, Crib):
        line = f"Crib {' '.join(c.pretty for c in event.cards)}"
    elif isinstance(event, Claim):
        line = f"{names[event.player]} claims {number(event.points)}"
    elif isinstance(event, Undo):
        line = "(last entry taken back)"
    elif isinstance(event, NewGame):
        out.write(f"\nGame {state.game_no}\n")
    elif isinstance(event, Penalty | Muggins | Peg):
        line = None
    taken = _new_take_back(before, state)
    if taken is not None:
        line = _taken_back_line(state, taken)
    if line:
        out.write(f"  {line}\n")
    for award in awards:
        out.write(f"    {award.sentence}  ({_signed(award.points)})\n")
    if taken is not None and state.result is None:
        out.write(
            f"  The play goes on at {number(taken.count)}: {names[taken.offender]} to play\n"
        )
    if isinstance(event, Claim):
        pegged = sum(award.points for award in awards)
        if pegged < event.points:
            out.write(f"    (over-claimed: corrected to {number(pegged)})\n")
    missed = state.pending_muggins
    if missed is not None and missed != before.pending_muggins and state.result is None:
        # Once the game is over nothing more is scored: no muggins to offer.
        out.write(
            f"    ({number(missed.points)} missed by {names[missed.owner]}: "
            "an opponent may call muggins)\n"
        )
    # Offers are only ever appended (or marked resolved in place) until a new game clears
    # them, so the new ones are the tail; an equal report from an earlier deal is still new.
    kept = len(before.offers) if len(state.offers) >= len(before.offers) else 0
    for was, now in zip(before.offers[:kept], state.offers, strict=False):
        if now.withdrawn and not was.withdrawn:
            out.write(
                f"  ! {names[now.player]}'s renege at {number(now.count)} is withdrawn: "
                "that go was taken back too\n"
            )
    for offer in state.offers[kept:]:
        if not offer.resolved:
            out.write(f"  ! {names[offer.player]}: {offer.sentence}\n")
    if state.result is not None and before.result is None:
        _print_result(state, out)


def _new_take_back(before: GameState, after: GameState) -> TakeBack | None:
    """The take-back an entry made, if any (a new game clears the list, never adds one)."""
    if len(after.take_backs) > len(before.take_backs):
        return after.take_backs[-1]
    return None


def _taken_back_line(state: GameState, taken: TakeBack) -> str:
    """What a renege's take-back returned to the hands, said in one line."""
    names = state.names
    cards = [
        f"{names[seat]} {' '.join(card.pretty for card in laid)}"
        for seat, laid in enumerate(taken.cards) if laid
    ]
    returned = ", ".join(cards) if cards else "no card had been laid since"
    return (
        f"{names[taken.offender]}'s renege at {number(taken.count)} is taken back: "
        f"{returned}"
    )


def _signed(points: int) -> str:
    return f"+{points}" if points >= 0 else str(points)


def _print_result(state: GameState, out: TextIO) -> None:
    result = state.result
    if result is None:
        out.write(f"\nNot finished: {_scores(state)}\n")
        return
    skunk = {"none": "", "skunk": ", a skunk", "double": ", a double skunk"}[result.skunk]
    out.write(
        f"\n{_side(state, result.winner)} won{skunk}: {_scores(state)}; "
        f"game points {result.game_points[result.winner]}\n"
    )
    if state.rules.match_games > 1:
        totals = ", ".join(
            f"{_side(state, s)} {w}" for s, w in enumerate(state.match.wins)
        )
        out.write(f"Match (best of {state.match.games}): games won {totals}\n")
        if state.match.winner is not None:
            out.write(f"{_side(state, state.match.winner)} won the match\n")
