"""``pegboard replay FILE|-``: apply a game record and tell the game as players would say it.

The text renders the engine's report of each entry (:mod:`pegboard.rules.facts`): each card
and the count it made, each scoring act with its reasons, each hand and crib counted, claims
and muggins, renege reports and penalties, and the end of the game with the score the board
shows and the spread. Nothing is worked out here.

``--json`` prints one object per event line instead: the awards that line pegged and the scores
after it, then a result line. A bad line (unreadable, or against the rules) stops the replay
with exit status 2 and a message naming the line; nothing after it is applied.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable
from typing import TextIO

from pegboard.commands import paths
from pegboard.errors import RecordError
from pegboard.record import decode_lines
from pegboard.record.reader import Replayer
from pegboard.rules.cards import Card, EnteredCard
from pegboard.rules.events import (
    Claim,
    Cut,
    Deal,
    Dealt,
    LaidAway,
    NewGame,
    Starter,
    StarterSuit,
)
from pegboard.rules.facts import (
    ClaimClosed,
    ClaimOpened,
    ClaimOutcome,
    Counted,
    CountSaid,
    Fact,
    GameOver,
    Laid,
    MugginsOpened,
    Offered,
    PenaltyApplied,
    Report,
    SaidGo,
    Scored,
    ShowStep,
    TakenBack,
    Turn,
    Undone,
    Withdrawn,
)
from pegboard.rules.game import Game
from pegboard.rules.speech import number
from pegboard.rules.state import GameState, Skunk


def register(parser: argparse.ArgumentParser) -> None:
    """The ``replay`` command\'s arguments."""
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
    replayer = Replayer()  # the one record reader, applying each line as it is read
    for text in lines:
        game = replayer.game
        before = game.report.next if game is not None and game.report is not None else None
        # The deal the entry is made in, as it stood: what its players entered of each card
        # (the entry may end the deal, and the next one knows nothing of it).
        prior = game.state if game is not None else None
        try:
            taken = replayer.apply(text)
        except RecordError:
            out.flush()
            raise
        if taken is None or replayer.game is None:
            continue  # a blank line
        _, report = taken
        if report is None:  # the header
            if not as_json:
                _print_header(replayer.game, out)
        elif as_json:
            out.write(json.dumps(_json_line(replayer.number, report)) + "\n")
        else:
            _tell(replayer.game.state, before, report, out, prior)
    game = replayer.game
    if game is None:
        raise replayer.empty()
    state = game.state
    if as_json:
        out.write(json.dumps(_json_result(state)) + "\n")
    elif state.result is None:
        out.write(f"\nNot finished: {_scores(state, state.scores)}\n")
    return 0


def _json_line(number_: int, report: Report) -> dict[str, object]:
    obj: dict[str, object] = {
        "line": number_,
        "awards": [award.to_json() for award in report.awards],
        "scores": list(report.next.scores),
    }
    for taken in report.of(TakenBack):
        obj["taken_back"] = taken.take_back.to_json()
    return obj


def _json_result(state: GameState) -> dict[str, object]:
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
    return result


# Telling the game ----------------------------------------------------------------------------


def _side(state: GameState, side: int) -> str:
    return " & ".join(
        name for seat, name in enumerate(state.names) if state.side_of(seat) == side
    )


def _scores(state: GameState, scores: tuple[int, ...]) -> str:
    return ", ".join(f"{_side(state, s)} {score}" for s, score in enumerate(scores))


def _cards(cards: Iterable[Card], entered: Callable[[Card], bool] | None = None) -> str:
    """Cards as entered: a card whose suit no player entered (``entered``, the engine's
    fact) shows its rank alone, never the suit the card wheel chose."""
    return " ".join(_card(card, entered) for card in cards)


def _card(card: Card, entered: Callable[[Card], bool] | None) -> str:
    return EnteredCard.of(card, suit_known=entered is None or entered(card)).short


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


def _tell(state: GameState, before: Turn | None, report: Report, out: TextIO,
          prior: GameState | None = None) -> None:
    """One entry, as its report says it: the entry, then each fact in order."""
    names, event, turn = state.names, report.event, report.next
    if isinstance(event, Cut):
        # By rank alone: the cut's suits decide nothing, and the box enters them by rank,
        # so a record cannot vouch for them (the card wheel's suits are no fact).
        cards = ", ".join(f"{names[p]} {_card(c, lambda _: False)}"
                          for p, c in enumerate(event.cards))
        tie = " — a tie, cut again" if turn.phase.value == "cut" else ""
        out.write(f"  Cut for deal: {cards}{tie}\n")
    elif isinstance(event, Deal):
        assert turn.dealer is not None
        scores = before.scores if before is not None else (0,) * len(turn.scores)
        out.write(
            f"\nDeal {turn.deal_no}: {names[turn.dealer]} deals. {_scores(state, scores)}\n"
        )
    elif isinstance(event, Dealt):
        out.write(f"  {names[event.player]} is dealt {_cards(event.cards)}\n")
    elif isinstance(event, LaidAway):
        away = _cards(event.cards, state.suit_entered)
        out.write(f"  {names[event.player]} lays {away} away to the crib\n")
    elif isinstance(event, Starter):
        # As the engine says it was entered (an old record's starter may not vouch for it).
        turned = state.turned or EnteredCard.of(event.card, suit_known=event.suit_known)
        out.write(f"  Starter {turned.pretty}\n")
    elif isinstance(event, StarterSuit):
        out.write(f"  The starter's suit, asked for the count: "
                  f"{event.suit.name.lower()}\n")
    elif isinstance(event, Claim):
        out.write(f"  {names[event.player]} claims {number(event.points)}\n")
    elif isinstance(event, NewGame):
        out.write(f"\nGame {turn.game_no}\n")
    for fact in report.facts:
        _tell_fact(state, fact, out, prior)
    if report.of(TakenBack) and report.game_over is None and turn.to_act is not None:
        out.write(f"  The play goes on at {number(turn.count)}: {names[turn.to_act]} to play\n")


def _tell_fact(state: GameState, fact: Fact, out: TextIO,
               prior: GameState | None = None) -> None:
    if isinstance(fact, GameOver):
        _print_game_over(state, fact, out)
        return
    line = _card_line(state, fact)
    if line is None:
        line = _window_line(state, fact, prior)
    if line is not None:
        out.write(line + "\n")


def _card_line(state: GameState, fact: Fact) -> str | None:
    """The line of a card laid, a go, a score pegged or a hand counted (else ``None``)."""
    names = state.names
    if isinstance(fact, Laid):
        card = _card(fact.card, state.suit_entered)
        return f"  {names[fact.player]} plays {card}: {number(fact.count)}"
    if isinstance(fact, SaidGo):
        return f"  {names[fact.player]}: go"
    if isinstance(fact, Scored):
        return _act_line(fact)
    if isinstance(fact, ShowStep):
        whose = "hand" if fact.counted is Counted.HAND else "crib"
        return (
            f"  {names[fact.player]}'s {whose} "
            f"{_cards(fact.cards, fact.entered.__contains__)} with "
            f"{_starter(fact)}: {number(fact.total)}"
        )
    return None


def _starter(step: ShowStep) -> str:
    """The starter a count was made with, as entered: a suit nobody entered is not shown."""
    turned = step.turned or EnteredCard.of(step.starter)
    return turned.pretty


def _window_line(state: GameState, fact: Fact, prior: GameState | None = None) -> str | None:
    """The line of a claim or muggins window, a penalty, an offer or an undo (else ``None``)."""
    names = state.names
    if isinstance(fact, ClaimOpened):
        owed = " + ".join(f"{o.reason} {o.points}" for o in fact.claim.owed)
        return f"    ({names[fact.claim.player]} to claim: {owed})"
    if isinstance(fact, ClaimClosed):
        return _claim_line(state, fact)
    if isinstance(fact, MugginsOpened):
        missed = fact.missed
        return (
            f"    ({number(missed.points)} missed by {names[missed.owner]}: "
            "an opponent may call muggins)"
        )
    if isinstance(fact, PenaltyApplied):
        rule = fact.infraction
        return f"  Penalty on {names[fact.offender]}: {rule.name} ({rule.rule})"
    if isinstance(fact, TakenBack):
        return _taken_back_line(state, fact)
    if isinstance(fact, Offered):
        # Named as entered in the deal of the go, which the entry reporting it may have ended.
        entered = (prior or state).suit_entered
        return f"  ! {names[fact.offer.player]}: {fact.offer.said(entered)}"
    if isinstance(fact, Withdrawn):
        return _withdrawn_line(state, fact)
    if isinstance(fact, Undone):
        return "  (last entry taken back)"
    if isinstance(fact, CountSaid):
        return (f"    ({names[fact.player]} counted their {fact.counted.value}: said "
                f"{number(fact.said)} of {number(fact.points)})")
    return None


def _act_line(act: Scored) -> str:
    """The act's call (the last award's sentence says the whole card), its points, and each
    reason with its points when there are several."""
    points = _signed(act.points)
    if len(act.awards) > 1:
        points += ": " + ", ".join(f"{a.reason} {a.points}" for a in act.awards)
    return f"    {act.awards[-1].sentence}  ({points})"


def _claim_line(state: GameState, closed: ClaimClosed) -> str | None:
    claim = closed.claim
    if closed.outcome is ClaimOutcome.OVER:
        return f"    (over-claimed: corrected to {number(closed.pegged)})"
    if closed.outcome is ClaimOutcome.PASSED and claim.points:
        return f"    ({state.names[claim.player]} did not claim {number(claim.points)})"
    return None


def _withdrawn_line(state: GameState, fact: Withdrawn) -> str:
    """A renege report withdrawn because its go was taken back with another renege."""
    offer = fact.offer
    return (
        f"  ! {state.names[offer.player]}'s renege at {number(offer.count)} is withdrawn: "
        "that go was taken back too"
    )


def _taken_back_line(state: GameState, fact: TakenBack) -> str:
    """What a renege's take-back returned to the hands, said in one line."""
    names, taken = state.names, fact.take_back
    cards = [
        f"{names[seat]} {_cards(laid, state.suit_entered)}"
        for seat, laid in enumerate(taken.cards) if laid
    ]
    returned = ", ".join(cards) if cards else "no card had been laid since"
    return (
        f"  {names[taken.offender]}'s renege at {number(taken.count)} is taken back: "
        f"{returned}"
    )


def _signed(points: int) -> str:
    return f"+{points}" if points >= 0 else str(points)


def _print_game_over(state: GameState, over: GameOver, out: TextIO) -> None:
    skunk = {Skunk.NONE: "", Skunk.SKUNK: ", a skunk", Skunk.DOUBLE: ", a double skunk"}
    winner = _side(state, over.winner)
    pegged = ""
    if over.shown[over.winner] != over.scores[over.winner]:
        pegged = f" ({winner} pegged {over.scores[over.winner]})"
    out.write(
        f"\n{winner} won{skunk[over.skunk]}: {_scores(state, over.shown)}{pegged}; "
        f"spread {over.spread}; game points {over.game_points[over.winner]}\n"
    )
    if state.rules.match_games > 1:
        totals = ", ".join(
            f"{_side(state, s)} {w}" for s, w in enumerate(state.match.wins)
        )
        out.write(f"Match (best of {state.match.games}): games won {totals}\n")
        if over.match_winner is not None:
            out.write(f"{_side(state, over.match_winner)} won the match\n")
