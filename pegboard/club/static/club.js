// The club standings page: the standings, the pots and the tables, redrawn on each SSE note
// (docs/club.md: a standings note fetches /api/page once; a tables note carries the tables).
"use strict";
(function () {
  const body = document.body;
  const nightBox = document.getElementById("night");
  const params = new URLSearchParams(location.search);
  function text(tag, value, cls) {
    const el = document.createElement(tag);
    el.textContent = value === null || value === undefined ? "" : String(value);
    if (cls) { el.className = cls; }
    return el;
  }
  function row(cells, tag) {
    const tr = document.createElement("tr");
    for (const cell of cells) { tr.appendChild(text(tag || "td", cell)); }
    return tr;
  }
  const ADJUSTED = "\u2020";  // the dagger marking a result the director adjusted
  async function getJSON(url) {
    const answer = await fetch(url, { cache: "no-store" });
    return answer.json();
  }
  // The tables: each board's newest entry, as the event stream gives them (every board in
  // its first note, then the boards that changed): a live state is never fetched, and never
  // makes the page fetch the standings.
  const boards = new Map();
  function drawTables() {
    const live = document.getElementById("live");
    live.replaceChildren(row(["Board", "Players", "Scores", ""], "th"));
    for (const key of Array.from(boards.keys()).sort()) {
      const b = boards.get(key);
      const s = b.state || {};
      live.appendChild(row([b.board, (s.players || []).join(" v "), (s.shown || s.scores || []).join(" – "),
        b.online === "offline" ? "offline" : (s.phase || "")]));
    }
  }
  // Everything else, in one answer (/api/page), fetched once for each standings note.
  async function draw() {
    const wanted = params.get("night");
    const all = await getJSON("/api/page" + (wanted ? "?night=" + encodeURIComponent(wanted) : ""));
    const status = all.status;
    const night = all.night;
    const lock = status.locks.find(function (l) { return String(l.night) === String(night); });
    const locked = !lock || lock.lock === "off" ? "" : lock.lock === "on" ? " · tournament lock"
      : " · tournament lock not on every board (" + lock.unlocked.join(", ") + ")";
    nightBox.textContent = night === null ? "no results yet" : "Night " + night + locked;
    // The results database was found damaged and rebuilt this evening: said once, here.
    document.getElementById("notice").textContent = all.notice || "";
    fill("tonight", all.tonight);
    // A result the director adjusted: its line above tonight's table (on the big screen
    // too, where the table pages below it), and a mark on each of its players' rows.
    const adjusted = document.getElementById("adjusted");
    adjusted.replaceChildren();
    for (const a of all.adjusted) {
      const who = a.players.map(function (p) { return p.member + (p.name ? " " + p.name : ""); });
      adjusted.appendChild(text("li", ADJUSTED + " Round " + a.round + ", table " + a.table + ", " +
        who.join(" v ") + ", adjusted by the director: " + a.said + " (" + a.why + ")"));
    }
    paginate();
    fill("season", all.season);
    const pots = all.specials;
    const hands = document.getElementById("hands");
    hands.replaceChildren(row(["Night", "Member", "Name", "Hand", "Cards"], "th"));
    for (const h of pots.hands) { hands.appendChild(row([h.night, h.member, h.name, h.hand, h.cards])); }
    for (const p of pots.nine_oh) { hands.appendChild(row([p.night, p.member, p.name, "9–0 night", ""])); }
    const next = all.seating;
    const seats = document.getElementById("seats");
    document.getElementById("next").textContent = next.round === null ? "Next round" : "Round " + next.round;
    seats.replaceChildren(row(["Table", "Players"], "th"));
    for (const t of next.tables) {
      const who = t.members.map(function (m, i) { return m + (t.names[i] ? " " + t.names[i] : ""); });
      seats.appendChild(row([t.table, who.join(" v ")]));
    }
    if (next.bye) { seats.appendChild(row(["bye", next.bye])); }
    // No seating loaded, and why (last week's seating is not tonight's): the director's cue.
    document.getElementById("unseated").textContent = next.none ? "No seating: " + next.none : "";
    const held = all.queue;
    const queue = document.getElementById("queue");
    queue.replaceChildren(row(["Night", "Round", "Table", "Members", "From", "Why it waits"], "th"));
    for (const q of held) {
      queue.appendChild(row([q.night, q.round, q.tbl, q.members, q.board + ":" + q.game, q.why]));
    }
    const rescored = document.getElementById("rescored");
    rescored.replaceChildren();
    for (const r of status.rescored) {
      if (night !== null && String(r.night) !== String(night)) { continue; }
      rescored.appendChild(text("li", "Rescored: " + r.result + " (round " + r.round +
        ", table " + r.table + ") " + r.why));
    }
    document.getElementById("counts").textContent =
      status.results + " results · " + status.corrections + " corrected · " +
      status.duplicates + " sent twice, counted once · " + status.held +
      " held for the director · " + status.refused + " refused";
  }
  // The season's table leads with each player's season points (the club's table of them).
  function fill(id, players) {
    const table = document.getElementById(id);
    const season = id === "season";
    table.replaceChildren(row(["#", "Member", "Name"].concat(season ? ["SP", "Nights"] : [],
      ["GP", "W", "L", "Spread"]), "th"));
    for (const p of players) {
      const tr = row([p.rank, p.member, p.name].concat(season ? [p.season_points, p.nights] : [],
        [p.game_points, p.wins, p.losses, p.spread]));
      if (p.unknown) { tr.classList.add("unknown"); tr.title = "not on the roster: for the director"; }
      if (p.guest) { tr.classList.add("guest"); }
      if (!season && p.adjusted) {
        tr.classList.add("adjusted");
        const mark = text("span", " " + ADJUSTED, "mark");
        mark.title = "a game of this player's was adjusted by the director (see above)";
        tr.cells[2].appendChild(mark);
      }
      table.appendChild(tr);
    }
  }
  // The big-screen view shows tonight's players a screenful at a time, turning to the next
  // page every PAGE_MS: a room's screen has nobody to scroll it, and every player must come
  // round. A page holds as many rows as fit below the table's top on the screen as it is.
  const PAGE_MS = 10000;
  let pageShown = 0;
  function paginate() {
    const label = document.getElementById("page");
    const rows = Array.from(document.getElementById("tonight").rows).slice(1);
    for (const r of rows) { r.hidden = false; }
    if (!body.classList.contains("big") || rows.length === 0) { label.textContent = ""; return; }
    const top = rows[0].getBoundingClientRect().top;
    const tall = rows[0].getBoundingClientRect().height || 1;
    const fit = Math.max(1, Math.floor((window.innerHeight - top) / tall));
    const pages = Math.ceil(rows.length / fit);
    pageShown = pageShown % pages;
    rows.forEach(function (r, i) { r.hidden = Math.floor(i / fit) !== pageShown; });
    label.textContent = pages > 1 ? "· page " + (pageShown + 1) + " of " + pages : "";
  }
  if (params.get("big")) {
    body.classList.add("big");
    setInterval(function () { pageShown += 1; paginate(); }, PAGE_MS);
    window.addEventListener("resize", paginate);
  }
  // One drawing at a time: a draw started while another runs would race it, and the older
  // answers could land last and leave the page a result behind. A news item that comes
  // during a draw asks for one more, started after it, with everything stored by then.
  let drawing = null;
  let again = false;
  function redraw() {
    if (drawing) { again = true; return; }
    drawing = draw().catch(function () { /* the next news item draws again */ })
      .finally(function () {
        drawing = null;
        if (again) { again = false; redraw(); }
      });
  }
  function tablesNote(event) {
    for (const b of JSON.parse(event.data).tables) { boards.set(b.club + "/" + b.board, b); }
    drawTables();
  }
  const events = new EventSource("/events");
  events.addEventListener("standings", redraw);
  events.addEventListener("tables", tablesNote);
  redraw();
})();
