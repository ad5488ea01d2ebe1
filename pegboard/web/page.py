"""The scoreboard's HTML: one page whose text the served script fills in from the event stream.

The page holds no inline script or style (the content security policy forbids both): its
behaviour is ``/static/web.js`` and its look ``/static/web.css``. The board is inline SVG
(drawn by :mod:`pegboard.web.board`) so the script can move the pegs. Everything a player
reads is text in the page, in headings in order (the page's name, then one for each part,
then one for each count of the show).

A screen reader hears the game as it goes from one live region, ``#announce`` (a log, out of
sight): each award as it arrives, with the standing after it ("Ben: Fifteen for 2. Ann 0,
Ben 2"), and the result. Its words are the ones the page shows, from the facts of the
``game`` event; what the page showed when it was opened is read as the page, not announced.
"""

from __future__ import annotations

from functools import lru_cache
from xml.sax.saxutils import escape

from pegboard.web.board import board_for

_PAGE = """<!doctype html>
<html lang="en" class="{body_class}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="dark">
<title>Pegboard scoreboard</title>
<link rel="stylesheet" href="/static/web.css">
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<script src="/static/web.js" defer></script>
</head>
<body data-lines="-1">
<header class="top">
  <h1>Pegboard</h1>
  <p id="status" class="status" role="status">Connecting…</p>
</header>
<main class="layout">
 <div class="col">
  <section id="problem" class="problem" hidden aria-live="assertive">
    <h2>The scoreboard cannot show the game</h2>
    <p id="problem-text"></p>
    <p>This page keeps trying and shows the game as soon as it can be read.</p>
  </section>
  <section id="waiting" class="waiting" hidden>
    <h2>No game in progress</h2>
    <p>The board appears here as soon as a game starts on the Pegboard.</p>
  </section>
  <div id="game" class="game" hidden>
    <section class="scores" aria-labelledby="scores-title">
      <h2 id="scores-title" class="visually-hidden">Scores</h2>
      <ol id="sides" class="sides"></ol>
    </section>
    <section class="table" aria-labelledby="doing">
      <h2 id="doing" class="doing"></h2>
      <dl class="facts">
        <div id="count-box"><dt>Count</dt><dd id="count" class="count"></dd></div>
        <div id="pile-box"><dt>Pile</dt><dd id="pile" class="pile"></dd></div>
        <div id="starter-box"><dt>Starter</dt><dd id="starter"></dd></div>
        <div><dt>Crib</dt><dd id="crib"></dd></div>
      </dl>
      <div class="award"><span class="visually-hidden">Last score: </span><ul
        id="award"></ul></div>
      <p id="game-problem" class="note" hidden></p>
    </section>
    <section id="show-box" class="show" aria-labelledby="show-title" hidden>
      <h2 id="show-title">The show</h2>
      <div id="show"></div>
    </section>
    <section id="result-box" class="result" aria-labelledby="result-title" hidden>
      <h2 id="result-title"></h2>
      <ul id="result-lines"></ul>
      <figure class="race"><div id="race"></div>
        <figcaption>Score race, deal by deal</figcaption></figure>
    </section>
  </div>
 </div>
 <div class="col">
  <section id="board-box" class="board-box" aria-labelledby="board-caption" hidden>
    <h2 id="board-caption" class="visually-hidden">The board</h2>
    <div id="board" data-key="{board_key}">{board}</div>
  </section>
  <section class="finished" aria-labelledby="finished-title">
    <h2 id="finished-title">Finished games</h2>
    <ol id="finished" class="finished-list"></ol>
  </section>
  <section class="review-link" aria-labelledby="review-title">
    <h2 id="review-title">Review</h2>
    <p><a href="/review">The last game reviewed</a>: its biggest mistakes by the points
      they gave up on average, and how each player counted.</p>
  </section>
 </div>
</main>
<noscript><p class="problem">This scoreboard needs JavaScript to follow the game;
the same figures are at <a href="/api/game">/api/game</a>.</p></noscript>
<div id="announce" class="visually-hidden" role="log" aria-live="polite"
  aria-label="Announcements"></div>
</body>
</html>
"""

_ERROR = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} — Pegboard scoreboard</title>
<link rel="stylesheet" href="/static/web.css">
</head>
<body>
<main class="problem">
<h1>{title}</h1>
<p>{message}</p>
<p><a href="/">Back to the scoreboard</a></p>
</main>
</body>
</html>
"""


# Drawn once per shape: the page depends on nothing else, and drawing its board costs a few
# milliseconds, which every request for "/" would otherwise pay (a client pipelining requests
# for the page would have the server draw the same board over and over).
@lru_cache(maxsize=32)
def page(*, sides: int = 2, target: int = 121, tv: bool = False) -> str:
    """The scoreboard page; ``tv`` picks the large-type layout for a screen across the room."""
    return _PAGE.format(
        body_class="tv" if tv else "",
        board_key=f"{sides}-{target}",
        board=board_for(sides, target),
    )


def error_page(title: str, message: str) -> str:
    """A friendly page for a problem (never a traceback)."""
    return _ERROR.format(title=escape(title), message=escape(message))
