"""The phone seat's HTML: one page whose text its served script fills in.

Like the scoreboard's page it holds no inline script or style (the content security policy
forbids both): its behaviour is ``/static/phone.js``, its look ``/static/phone.css``. Every
card and control is a real button with a spoken name ("seven of hearts", "Lay away"), at
least 44 px square, laid out for a phone 360 px wide held upright. What the seat is told
(an entry taken or refused, and why), what the table asks of it or whom it waits for, and
the last award are live regions, so a screen reader says each change. In a teaching game the
last count is followed by the review of the seat's own discard, on this phone alone.
"""

from __future__ import annotations

_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="dark">
<title>Pegboard: your hand</title>
<link rel="stylesheet" href="/static/phone.css">
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<script src="/static/phone.js" defer></script>
</head>
<body>
<main>
<h1 id="title">Pegboard: your hand</h1>
<p id="said" role="status" aria-live="polite"></p>
<section id="join" aria-labelledby="join-h" hidden>
<h2 id="join-h">Join a seat</h2>
<label for="code">The code the board shows</label>
<input id="code" autocomplete="off" autocapitalize="characters" maxlength="16">
<button id="join-go" type="button">Join</button>
</section>
<section id="table" aria-labelledby="table-h" hidden>
<h2 id="table-h">The table</h2>
<ul id="scores"></ul>
<p id="doing"></p>
<p id="starter"></p>
<p id="count"></p>
<p id="award" aria-live="polite"></p>
</section>
<section id="mine" aria-labelledby="mine-h" hidden>
<h2 id="mine-h">Your cards</h2>
<div id="call" class="call" role="group" aria-labelledby="call-q" hidden>
<p id="call-q"></p>
<p id="call-cards"></p>
<label for="missed" id="missed-l">Points missed</label>
<input id="missed" type="number" inputmode="numeric" min="0" max="29">
<div class="actions">
<button id="call-yes" type="button">Call muggins</button>
<button id="call-no" type="button">No muggins</button>
</div>
</div>
<p id="asked" aria-live="polite"></p>
<p id="counted"></p>
<div id="hand" class="cards"></div>
<div id="actions" class="actions"></div>
<p id="fallback" class="note"></p>
<p id="hint"></p>
<p id="coach"></p>
<div id="grid" class="grid"></div>
<ol id="advice"></ol>
</section>
<section id="counts" aria-labelledby="counts-h" hidden>
<h2 id="counts-h">Last count</h2>
<div id="count-lines"></div>
<div id="review" hidden>
<h3 id="review-h">Your discard, reviewed</h3>
<div id="review-lines"></div>
</div>
</section>
</main>
</body>
</html>
"""


def phone_page() -> str:
    """The phone seat's page (the same for every seat: the token says whose it is)."""
    return _PAGE
