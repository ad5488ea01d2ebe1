"""``pegboard review RECORD``: what a game record teaches, biggest mistakes first.

Discards are reviewed where the record holds the dealt cards (``dealt`` lines), pegging where
the player's hand became known in the show; counting accuracy comes from the claims of a
muggins game. Every figure is the engine's and the advice engine's (docs/engine.md).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from pegboard.coach.lessons import GameLessons, lessons, player_parts, worth_showing
from pegboard.commands import paths
from pegboard.errors import PegboardError
from pegboard.record import decode_text
from pegboard.record.reader import read_game
from pegboard.rules.facts import ClaimOutcome

MAX_RECORD_BYTES = 16 << 20
"""The largest record read (a long match is a few MiB)."""


def register(parser: argparse.ArgumentParser) -> None:
    """The ``review`` command\'s arguments."""
    parser.add_argument("record", metavar="RECORD", help="a game record (JSON Lines)")
    parser.add_argument("--top", metavar="N", type=_count, default=10,
                        help="how many mistakes to list (default 10)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(func=run)


def _count(text: str) -> int:
    value = int(text) if text.isascii() and text.isdigit() and len(text) <= 6 else 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{paths.shown(text)} is not a number of mistakes: "
                                         "give 1 or more")
    return value


def read_lessons(name: str) -> GameLessons:
    """The lessons of the record in file ``name``; a clear error when it cannot be read."""
    paths.input_name(name)
    try:
        with Path(name).open("rb") as stream:
            data = stream.read(MAX_RECORD_BYTES + 1)
    except OSError as error:
        raise PegboardError(f"cannot read {paths.shown(name)}: {error.strerror or error}"
                            ) from None
    if len(data) > MAX_RECORD_BYTES:
        raise PegboardError(f"{paths.shown(name)}: larger than {MAX_RECORD_BYTES >> 20} MiB; "
                            "a game record of even a long match is a few MiB")
    text = decode_text(data, name)
    return lessons(read_game(text.splitlines(), name))


def run(args: argparse.Namespace) -> int:
    """Print the review of one record."""
    found = read_lessons(args.record)
    mistakes = worth_showing(found, args.top)
    if args.json:
        print(json.dumps({
            "players": list(found.names),
            "games": found.games,
            "mistakes": [{"kind": str(m.kind), "game": m.game_no, "deal": m.deal_no,
                          "player": m.player, "lost": round(float(m.lost), 3),
                          "did": m.did, "better": m.better} for m in mistakes],
            "per_player": [{
                "player": p.player, "discards": p.discards,
                "discard_loss": round(float(p.discard_loss), 3), "plays": p.plays,
                "pegging_loss": round(float(p.pegging_loss), 3),
                "claims": p.counting.claims, "exact": p.counting.closed[ClaimOutcome.EXACT],
                "under": p.counting.closed[ClaimOutcome.UNDER], "missed": p.counting.missed,
                "over": p.counting.closed[ClaimOutcome.OVER],
            } for p in found.players],
        }, indent=2))
        return 0
    print(f"{' v '.join(found.names)}: {found.games} game(s)")
    if mistakes:
        print("Biggest mistakes (expected points given up):")
        for mistake in mistakes:
            print("  " + mistake.line(found.names))
    else:
        print("No mistake worth a tenth of a point on average.")
    print("Per player:")
    for who in found.players:
        print(f"  {found.names[who.player]}: " + "; ".join(player_parts(who)))
    return 0
