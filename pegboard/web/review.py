"""The scoreboard's review of a finished game (``/review``: the last one played out;
``/review/ID``: that game): the biggest mistakes by expected points given up (discards and
pegging), then each player's totals and counting.

The game is read from the store's history through the one record reader
(:func:`pegboard.record.reader.read_game`) and reviewed by the engine
(:func:`pegboard.coach.lessons.lessons`); this page only puts the same facts, in the same
words as ``pegboard review`` and the device's review pages, into HTML. A finished game never
changes, so each review is kept by game id once made.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from pegboard.coach import lessons as coach_lessons
from pegboard.coach.lessons import player_parts, worth_showing
from pegboard.coach.review import points_text
from pegboard.errors import PegboardError
from pegboard.record.reader import read_game
from pegboard.store.ids import is_valid_id
from pegboard.store.index import GameIndex, IndexedGame

if TYPE_CHECKING:
    from pegboard.coach.lessons import GameLessons

# The review (the advice engine, the hints) is imported when a review is first asked for:
# the scoreboard starts without it.

TOP = 10
"""The most mistakes listed."""

LOOKED_AT = 20
"""How many of the newest games ``/review`` looks through for the last one played out."""

_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="dark">
<title>{title} — Pegboard scoreboard</title>
<link rel="stylesheet" href="/static/web.css">
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
</head>
<body>
<main class="review">
<h1>{title}</h1>
<section aria-labelledby="mistakes-title">
<h2 id="mistakes-title">Biggest mistakes (expected points given up)</h2>
{mistakes}
</section>
<section aria-labelledby="players-title">
<h2 id="players-title">Per player</h2>
<ul>
{players}
</ul>
</section>
<p><a href="/">Back to the scoreboard</a></p>
</main>
</body>
</html>
"""


class ReviewMissing(PegboardError, LookupError):
    """No finished game to review (answered with 404, the message saying why)."""


def review_html(found: GameLessons, title: str) -> str:
    """The review page of ``found``."""
    names = found.names
    mistakes = worth_showing(found, TOP)
    if mistakes:
        rows = "\n".join(
            f"<tr><td>-{points_text(m.lost)}</td><td>{m.game_no}</td><td>{m.deal_no}</td>"
            f"<td>{escape(names[m.player])}</td><td>{m.kind}</td><td>{escape(m.did)}</td>"
            f"<td>{escape(m.better)}</td></tr>" for m in mistakes)
        table = ("<table>\n<thead><tr><th scope=\"col\">Given up</th><th scope=\"col\">Game"
                 "</th><th scope=\"col\">Deal</th><th scope=\"col\">Player</th>"
                 "<th scope=\"col\">With</th><th scope=\"col\">Done</th>"
                 "<th scope=\"col\">Better</th></tr></thead>\n"
                 f"<tbody>\n{rows}\n</tbody>\n</table>")
    else:
        table = "<p>No mistake worth a tenth of a point on average.</p>"
    players = "\n".join(
        f"<li><strong>{escape(names[who.player])}</strong>: "
        f"{escape('; '.join(player_parts(who)))}</li>" for who in found.players)
    return _PAGE.format(title=escape(title), mistakes=table, players=players)


class Reviews:
    """The reviews of a store's finished games, each made once (a finished game never
    changes); the newest few kept."""

    def __init__(self, directory: Path, *, keep: int = 8) -> None:
        self.directory = directory
        self._keep = keep
        self._made: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()  # asked from the server's worker threads
        self._making = threading.Lock()

    def page(self, game_id: str | None) -> str:
        """The review page of game ``game_id`` (None: the last game played out);
        ReviewMissing when there is none, PegboardError when its record cannot be read."""
        if game_id is not None and not is_valid_id(game_id):
            raise ReviewMissing("there is no game with that id in the store")
        if not (self.directory / "history").is_dir():
            raise ReviewMissing("no game has been finished yet")
        with GameIndex(self.directory, writable=False) as index:
            if game_id is None:
                game = next((g for g in index.newest(LOOKED_AT) if not g.abandoned), None)
            else:
                game = index.find(game_id)
            if game is None:
                raise ReviewMissing("no game played out to review" if game_id is None else
                                    "there is no game with that id in the store")
            with self._lock:
                made = self._made.get(game.id)
                if made is not None:
                    self._made.move_to_end(game.id)
            if made is None:
                # One review is made at a time, and a page asked for by many at once (a
                # burst of reloads, a hostile client's 32 connections) is made once.
                with self._making:
                    with self._lock:
                        made = self._made.get(game.id)
                    if made is None:
                        made = self._make(index, game)
        return made

    def _make(self, index: GameIndex, game: IndexedGame) -> str:
        """The review page of ``game``, made and kept (the newest few)."""
        finished = index.read(game)
        found = coach_lessons.lessons(read_game(finished.records, f"store game {finished.id}"))
        made = review_html(found, f"Review: {' v '.join(found.names)}")
        with self._lock:
            self._made[game.id] = made
            self._made.move_to_end(game.id)
            while len(self._made) > self._keep:
                self._made.popitem(last=False)
        return made
