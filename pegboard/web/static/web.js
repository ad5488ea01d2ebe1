// The Pegboard scoreboard: follows /events and writes the game into the page as text.
// No framework, no outside files: the page must work on a LAN with no internet.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  let sidesBuilt = "";

  function setText(id, text) {
    const node = $(id);
    if (node.textContent !== text) node.textContent = text;
  }

  function show(id, visible) {
    $(id).hidden = !visible;
  }

  function svgInto(id, text) {
    const box = $(id);
    box.replaceChildren();
    if (!text) return;
    const doc = new DOMParser().parseFromString(text, "image/svg+xml");
    const svg = doc.documentElement;
    if (svg.nodeName === "svg") box.appendChild(document.importNode(svg, true));
  }

  function buildSides(game) {
    const list = $("sides");
    list.replaceChildren();
    game.sides.forEach((name, side) => {
      const item = document.createElement("li");
      item.className = "side s" + side;
      item.id = "side" + side;
      const who = document.createElement("span");
      who.className = "name";
      who.textContent = name;
      const score = document.createElement("span");
      score.className = "score";
      score.id = "score" + side;
      const tags = document.createElement("span");
      tags.className = "tags";
      tags.id = "tags" + side;
      item.append(who, score, tags);
      list.appendChild(item);
    });
    sidesBuilt = game.sides.join("\u0000");
  }

  async function ensureBoard(game) {
    const key = game.sides.length + "-" + game.target;
    const box = $("board");
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    const answer = await fetch("/board/" + key + ".svg");
    if (answer.ok) svgInto("board", await answer.text());
  }

  function placePeg(side, which, score) {
    const peg = $("peg" + side + "-" + which);
    if (!peg) return;
    const hole = Math.max(0, Math.min(121, score));
    const target = $("h" + side + "-" + hole);
    if (!target) return;
    peg.setAttribute("cx", target.getAttribute("cx"));
    peg.setAttribute("cy", target.getAttribute("cy"));
    peg.dataset.hole = String(hole);
  }

  function sideOf(game, seat) {
    if (seat === null || seat === undefined) return null;
    const name = game.players[seat];
    const index = game.sides.findIndex((side) => side.split(" & ").includes(name));
    return index < 0 ? null : index;
  }

  function renderGame(game) {
    if (game.sides.join("\u0000") !== sidesBuilt) buildSides(game);
    const dealerSide = sideOf(game, game.dealer);
    const actingSide = game.phase === "play" ? sideOf(game, game.to_act) : null;
    game.sides.forEach((name, side) => {
      setText("score" + side, String(game.shown[side]));
      const tags = [];
      if (game.winner === side) tags.push("winner");
      if (side === dealerSide) tags.push("dealer, crib");
      if (side === actingSide) tags.push("to play");
      setText("tags" + side, tags.join(" · "));
      const item = $("side" + side);
      item.classList.toggle("dealer", side === dealerSide);
      item.classList.toggle("acting", side === actingSide);
      item.classList.toggle("winner", game.winner === side);
      placePeg(side, "back", game.back_pegs[side]);
      placePeg(side, "front", game.shown[side]);  // a winner past the target stands at it
    });
    setText("doing", game.doing);
    const playing = game.phase === "play";
    show("count-box", playing);
    show("pile-box", playing);
    setText("count", String(game.count));
    setText("pile", game.pile_text || "—");
    show("starter-box", game.starter_text !== null);
    setText("starter", game.starter_text || "");
    setText("crib", game.dealer === null ? "—" : game.players[game.dealer] + "'s");
    const acts = game.last_award ? game.last_award.acts.map((act) => act.text) : [];
    const award = $("award");
    const awardKey = (game.last_award ? game.last_award.line : "") + "\u0000" + acts.join("\u0000");
    if (award.dataset.key !== awardKey) {
      award.dataset.key = awardKey;
      award.replaceChildren();
      acts.forEach((text) => {
        const li = document.createElement("li");
        li.textContent = text;
        award.appendChild(li);
      });
    }
    show("game-problem", Boolean(game.problem));
    setText("game-problem", game.problem
      ? "Shown as far as the record can be read: " + game.problem + "." : "");

    show("show-box", game.show.length > 0);
    const showBox = $("show");
    const showKey = JSON.stringify(game.show);
    if (showBox.dataset.key !== showKey) {
      showBox.dataset.key = showKey;
      showBox.replaceChildren();
      game.show.forEach((count) => {
        const block = document.createElement("div");
        block.className = "count-block";
        const title = document.createElement("h3");
        title.textContent = count.title;
        const lines = document.createElement("ul");
        count.lines.forEach((line) => {
          const li = document.createElement("li");
          li.textContent = line;
          lines.appendChild(li);
        });
        block.append(title, lines);
        showBox.appendChild(block);
      });
    }

    const over = game.result_text !== null;
    show("result-box", over);
    document.body.classList.toggle("over", over);
    if (over) {
      setText("result-title", game.result_text.title);
      const lines = $("result-lines");
      lines.replaceChildren();
      game.result_text.lines.forEach((line) => {
        const li = document.createElement("li");
        li.textContent = line;
        lines.appendChild(li);
      });
      if ($("race").dataset.key !== game.id + game.lines) {
        $("race").dataset.key = game.id + game.lines;
        svgInto("race", game.race_svg);
      }
    }
  }

  // What the announcer has said of the game in view: null until the page first shows one
  // (what it showed when it was opened is read as the page, not announced).
  let heard = null;

  function announce(text) {
    const log = $("announce");
    const said = document.createElement("p");
    said.textContent = text;
    log.appendChild(said);
    while (log.childElementCount > 5) log.removeChild(log.firstElementChild);
  }

  // Each award as it arrives (its record line is later than the last one said: a take-back
  // is not announced again), with the standing after it, then the result: the same words
  // the page shows.
  function announceNews(game) {
    const award = game.last_award;
    const line = award ? award.line : 0;
    const over = game.result_text !== null;
    if (heard === null || heard.game !== game.id) {
      heard = { game: game.id, line: line, over: over };
      return;
    }
    if (award && line > heard.line) {
      const standing = game.sides.map((name, side) => name + " " + game.shown[side]);
      announce(award.acts.map((act) => act.text).join(". ") + ". " + standing.join(", "));
    }
    if (over && !heard.over) {
      announce([game.result_text.title, ...game.result_text.lines].join(". "));
    }
    heard = { game: game.id, line: Math.max(line, heard.line), over: over };
  }

  function render(state) {
    show("problem", Boolean(state.error));
    setText("problem-text", state.error || "");
    const game = state.game;
    show("waiting", !state.error && !game);
    show("game", Boolean(game));
    show("board-box", Boolean(game));
    if (game) {
      ensureBoard(game).then(() => renderGame(game));
      renderGame(game);
      announceNews(game);
    }
    document.body.dataset.lines = game ? String(game.lines) : "0";
    document.body.dataset.game = game && game.id ? game.id : "";
    document.body.dataset.updatedAt = String(Date.now());
  }

  function when(seconds) {
    return new Date(seconds * 1000).toLocaleString([], {
      dateStyle: "medium", timeStyle: "short",
    });
  }

  async function loadGames() {
    let answer;
    try {
      answer = await fetch("/api/games?limit=10");
    } catch (error) {
      return;
    }
    if (!answer.ok) return;
    const data = await answer.json();
    const list = $("finished");
    list.replaceChildren();
    if (data.games.length === 0) {
      const li = document.createElement("li");
      li.className = "none";
      li.textContent = "None yet.";
      list.appendChild(li);
    }
    data.games.forEach((game) => {
      const li = document.createElement("li");
      const line = document.createElement("p");
      // The board as the game left it (the winner at the target), never the record's
      // totals: a game that cannot be read again is listed without its scores.
      let text = game.players.join(" v ");
      if (game.shown) text += ": " + game.shown.join("–");
      if (game.abandoned) text += " (not finished)";
      else if (game.race && game.race.winner !== null) {
        text += ", " + game.race.names[game.race.winner] + " won";
        if (game.race.skunk !== "none") text += " (" + game.race.skunk.replace("double", "double skunk") + ")";
      }
      line.textContent = text;
      const time = document.createElement("time");
      time.dateTime = new Date(game.started_at * 1000).toISOString();
      time.textContent = when(game.started_at);
      li.append(line, time);
      if (game.race_svg) {
        const race = document.createElement("div");
        race.className = "race small";
        race.id = "race-" + game.id;
        li.appendChild(race);
        list.appendChild(li);
        svgInto(race.id, game.race_svg);
      } else {
        list.appendChild(li);
      }
    });
  }

  // One load of the finished games at a time: news during a load asks for one more after
  // it, so an older answer never lands last.
  let loading = null;
  let again = false;
  function reloadGames() {
    if (loading) { again = true; return; }
    loading = loadGames().finally(() => {
      loading = null;
      if (again) { again = false; reloadGames(); }
    });
  }

  function connect() {
    const source = new EventSource("/events");
    source.addEventListener("open", () => setText("status", "Live"));
    source.addEventListener("error", () => setText("status", "Reconnecting…"));
    source.addEventListener("game", (event) => render(JSON.parse(event.data)));
    source.addEventListener("games", reloadGames);
  }

  document.addEventListener("DOMContentLoaded", connect);
})();
