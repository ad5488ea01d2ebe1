// A phone seat of the Pegboard: its own cards and actions from /phone/stream (with the
// seat's token in a header, never a cookie), the table's shared facts from the scoreboard's
// /events. Every tap is a POST the board answers once its entry is saved, or refuses with
// the engine's reason. No framework, no outside files.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const RANKS = "A23456789TJQK";
  const SUITS = "CDHS";
  const RANK_WORDS = { A: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six",
    7: "seven", 8: "eight", 9: "nine", T: "ten", J: "jack", Q: "queen", K: "king" };
  const SUIT_WORDS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
  const SUIT_SIGNS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  let token = sessionStorage.getItem("pegboard-seat") || "";
  let me = null;
  let game = null;
  let chosen = [];   // the six being entered
  let away = [];     // the two of them laid away
  let busy = false;
  let taken = false;  // the last tap's answer
  let passed = "";   // the call this seat said "no muggins" to (not asked again)
  let advised = null;  // the discard advice last asked: {six: the cards, options: [...]}
  const callKey = (m) => [m.deal_no, m.call.owner, m.call.claimed, m.call.for.join(",")].join(":");

  // The cards tapped but not yet laid away survive a reload of the page: kept in the tab's
  // session storage under the game, the seat and the deal, dropped once the hand is in.
  const pickKey = (m) => "pegboard-pick:" + m.game + ":" + m.seat + ":" + m.deal_no;
  function keepPick() {
    if (!me || me.asks !== "cards") return;
    if (chosen.length || away.length) {
      sessionStorage.setItem(pickKey(me), JSON.stringify({ chosen: chosen, away: away }));
    } else {
      sessionStorage.removeItem(pickKey(me));
    }
  }
  function restorePick(m) {
    let kept = null;
    try { kept = JSON.parse(sessionStorage.getItem(pickKey(m)) || "null"); } catch (e) { kept = null; }
    if (!kept || !Array.isArray(kept.chosen) || !Array.isArray(kept.away)) return;
    const card = /^[A2-9TJQK][CDHS]$/;
    const seen = m.seen || [];
    chosen = kept.chosen.filter((c) => card.test(c) && !seen.includes(c)).slice(0, m.lays + 4);
    away = kept.away.filter((c) => chosen.includes(c)).slice(0, m.lays);
  }
  function dropPick(m) { if (m) sessionStorage.removeItem(pickKey(m)); }

  // The seat let go of (taken on the box, released, the game ended): nothing tapped for it
  // is kept, so a phone joining again shows only what the board knows, and enters nothing
  // it tapped before.
  function letGo() {
    dropPick(me);
    token = ""; sessionStorage.removeItem("pegboard-seat");
    me = null; chosen = []; away = []; passed = ""; advised = null;
  }

  const spoken = (c) => RANK_WORDS[c[0]] + " of " + SUIT_WORDS[c[1]];
  const shown = (c) => (c[0] === "T" ? "10" : c[0]) + SUIT_SIGNS[c[1]];
  // A card held whose suit nobody entered (laid by its rank on the box, taken back after a
  // renege) is named by its rank alone: its suit is the box's stand-in, no fact.
  const byRank = (c) => !!(me && me.by_rank && me.by_rank.includes(c));
  const heldShown = (c) => byRank(c) ? (c[0] === "T" ? "10" : c[0]) : shown(c);
  const heldSpoken = (c) => byRank(c) ? RANK_WORDS[c[0]] + ", suit not entered" : spoken(c);

  function say(text, refused) {
    const node = $("said");
    node.textContent = text;
    node.className = refused ? "refused" : "";
  }

  // Text put in a node only when it changed: #asked and #award are live regions, and a
  // screen reader says a live region again at every change of its text node, even to the
  // same words (the page is drawn again at every event of either stream).
  function put(id, text) {
    const node = $(id);
    if (node.textContent !== text) node.textContent = text;
  }

  function cardButton(card, onTap, pressed, held) {
    const b = document.createElement("button");
    const suit = !(held && byRank(card));
    b.type = "button";
    b.className = "card" + (suit && "DH".includes(card[1]) ? " red" : "");
    b.textContent = held ? heldShown(card) : shown(card);
    b.setAttribute("aria-label", held ? heldSpoken(card) : spoken(card));
    b.dataset.card = card;
    if (pressed !== undefined) b.setAttribute("aria-pressed", pressed ? "true" : "false");
    b.addEventListener("click", () => onTap(card));
    return b;
  }

  function actionButton(label, onTap, disabled) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.disabled = !!disabled;
    b.addEventListener("click", onTap);
    return b;
  }

  async function post(path, body) {
    const answer = await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer " + token },
      body: JSON.stringify(body),
    });
    let data = {};
    try { data = await answer.json(); } catch (e) { data = { reason: "The board sent no answer." }; }
    return [answer.status, data];
  }

  async function act(body, done) {
    if (busy || !me) return;
    busy = true;
    const asked = me;
    body.seq = me.seq;
    try {
      const [status, data] = await post("/phone/act", body);
      if (data.me) { me = data.me; }
      taken = !!data.taken;
      if (data.taken) {
        say(done, false);
        if (body.do === "hand") dropPick(asked);
        chosen = []; away = [];
      } else {
        say("Not taken: " + (data.reason || "status " + status), true);
        if (status === 401) letGo();
      }
    } catch (e) {
      say("The board cannot be reached: your tap was not sent.", true);
    }
    busy = false;
    draw();
  }

  function drawTable() {
    if (!game) return;
    $("table").hidden = false;
    const list = $("scores");
    list.replaceChildren();
    game.sides.forEach((name, side) => {
      const item = document.createElement("li");
      item.textContent = name + " " + game.shown[side];
      list.appendChild(item);
    });
    // What the table does next, unless this seat's own line says what it asks or whom it
    // waits for (the table's line would then only repeat it, or name a step the board
    // holds back: the starter while hands are to come).
    put("doing", me && (me.asks !== "wait" || me.wait) ? "" : game.doing || "");
    put("starter", game.starter && game.phase !== "starter" ? "Starter " + shown(game.starter) : "");
    put("count", game.phase === "play" ? "Count " + game.count + (game.pile_text ? ": " + game.pile_text : "") : "");
    const acts = game.last_award ? game.last_award.acts.map((a) => a.text) : [];
    put("award", acts.join(". "));
  }

  // The last deal's counts (every hand and the crib, public once counted), kept up through
  // the next deal until its own counts replace them.
  function drawCounts() {
    const lines = $("count-lines");
    lines.replaceChildren();
    const last = me ? me.last_count : null;
    const all = last ? last.counts || [] : [];
    $("counts").hidden = all.length === 0;
    $("counts-h").textContent = last ? "Last count (deal " + last.deal_no + ")" : "Last count";
    all.forEach((s) => {
      const title = document.createElement("h3");
      title.textContent = s.title + (s.player === me.seat ? " (yours)" : "");
      lines.appendChild(title);
      (s.lines || []).forEach((text) => {
        const p = document.createElement("p");
        p.textContent = text;
        lines.appendChild(p);
      });
    });
    // A teaching game: the review of this seat's own discard, of the deal counted above.
    const review = me && me.review && last && me.review.deal_no === last.deal_no ? me.review : null;
    const shownReview = $("review-lines");
    shownReview.replaceChildren();
    $("review").hidden = !review;
    (review ? review.lines : []).forEach((text) => {
      const p = document.createElement("p");
      p.textContent = text;
      shownReview.appendChild(p);
    });
  }

  function drawGrid(taken, onTap, pressed) {
    const grid = $("grid");
    grid.replaceChildren();
    for (const s of SUITS) {
      for (const r of RANKS) {
        const card = r + s;
        const b = cardButton(card, onTap, pressed ? pressed.includes(card) : undefined);
        b.disabled = taken.includes(card);
        grid.appendChild(b);
      }
    }
  }

  // A card named in words for a screen reader, shown as its sign ("five of hearts", 5♥);
  // ``rankOnly``: its suit was never entered (a stand-in), so named by its rank alone.
  function cardImage(card, rankOnly) {
    rankOnly = rankOnly || card.length < 2;  // "6": entered by its rank alone
    const span = document.createElement("span");
    span.setAttribute("role", "img");
    span.setAttribute("aria-label", rankOnly ? RANK_WORDS[card[0]] + ", suit not entered" : spoken(card));
    span.className = !rankOnly && "DH".includes(card[1]) ? "red" : "";
    span.textContent = rankOnly ? (card[0] === "T" ? "10" : card[0]) : shown(card);
    return span;
  }

  // The opponent's claim open to a muggins call: asked whatever else this seat is asked
  // (the next deal's cards too), its question first, its points labelled.
  function drawCall() {
    const call = $("call");
    const open = !!(me && me.call && callKey(me) !== passed);
    call.hidden = !open;
    if (!open) return;
    const said = me.call.claimed === null ? "" : " (claimed " + me.call.claimed + ")";
    $("call-q").textContent = "Muggins on " + me.call.owner + "'s " + me.call.for.join(", ") + said +
      "? If points were missed, enter how many and call; else No muggins.";
    // The cards of the count called on, turned up at the table for it: counted here.
    const cardsCalled = $("call-cards");
    cardsCalled.replaceChildren();
    if (me.call.cards) {
      const rankOnly = me.call.by_rank || [];
      cardsCalled.append(me.call.owner + "'s " + me.call.for[0] + ": ");
      me.call.cards.forEach((c) => cardsCalled.append(cardImage(c, rankOnly.includes(c)), " "));
      cardsCalled.append("starter ", cardImage(me.call.starter, me.call.starter.length < 2));
    }
    $("missed-l").textContent = "Points " + me.call.owner + " missed";
  }

  function drawMine() {
    const hand = $("hand"), actions = $("actions");
    // A claim being typed survives a redraw (an event of either stream), focus included.
    const typing = $("points");
    const typed = typing ? typing.value : "";
    const focused = typing !== null && document.activeElement === typing;
    hand.replaceChildren(); actions.replaceChildren();
    $("grid").replaceChildren(); $("hint").textContent = "";
    drawAdvice();
    $("counted").replaceChildren();
    // A teaching game's pegging coach, for this seat alone: the card to lay at its turn,
    // and after its card the coach's note on it.
    const coach = me && me.coach ? (me.coach.line ? "Coach: " + me.coach.line :
      me.coach.note ? "Coach, on your last card: " + me.coach.note : "") : "";
    put("coach", coach);
    put("fallback", me && me.fall_back ? me.fall_back : "");
    drawCall();
    if (!me) {  // no seat (released, or the game ended): nothing of a hand is left in view
      $("mine").hidden = true;
      $("title").textContent = "Pegboard: your hand";
      return;
    }
    $("mine").hidden = false;
    $("title").textContent = "Pegboard: " + me.name + "'s hand";
    const seen = me.seen || [];
    if (me.asks === "cards") {
      const six = me.lays + 4;
      if (chosen.length < six) {
        put("asked", "Tap the " + six + " cards you were dealt (" + chosen.length + " so far).");
        chosen.forEach((c) => hand.appendChild(cardButton(c, () => {}, true)));
        drawGrid(seen, (c) => {
          if (chosen.includes(c)) chosen = chosen.filter((x) => x !== c);
          else if (chosen.length < six) chosen.push(c);
          draw();
        }, chosen);
      } else {
        put("asked", "Tap the " + me.lays + " cards you lay away, then Lay away.");
        chosen.forEach((c) => hand.appendChild(cardButton(c, (card) => {
          if (away.includes(card)) away = away.filter((x) => x !== card);
          else if (away.length < me.lays) away.push(card);
          draw();
        }, away.includes(c))));
        actions.appendChild(actionButton("Lay away", () => act(
          { do: "hand", dealt: chosen, away: away }, "Your cards are in."), away.length !== me.lays));
        if (me.help) actions.appendChild(actionButton("Advice", advise));
      }
      actions.appendChild(actionButton("Undo", () => {
        if (away.length) away.pop(); else chosen.pop();
        draw();
      }, chosen.length === 0));
      return;
    }
    (me.held || []).forEach((c) => hand.appendChild(cardButton(c, (card) => {
      if (me.asks === "play") act({ do: "play", card: card }, "You played " + heldShown(card) + ".");
    }, undefined, true)));
    if (me.asks === "play") {
      put("asked", "Your turn, count " + me.count + ": tap a card, or Go.");
      actions.appendChild(actionButton("Go", () => act({ do: "go" }, "You said go.")));
      if (me.hint && !me.call) $("hint").textContent = "Hint: " + me.hint.reason;
      if (!me.held) {  // your cards are not on this phone: any card you hold
        drawGrid(seen, (card) => act({ do: "play", card: card }, "You played " + shown(card) + "."));
      }
    } else if (me.asks === "starter") {
      put("asked", "You deal: tap the starter you turned.");
      drawGrid(seen.concat(me.dealt || []), (card) => act({ do: "starter", card: card },
        "The starter is in."));
    } else if (me.asks === "suit") {  // the starter was entered by its rank alone
      const rank = me.suit.rank;
      const what = me.suit.crib ? "Your crib's count" : "Your count";
      put("asked", what + " needs the starter's suit (" + (me.suit.makes.join(", ") || "the suit") +
        "): tap the suit of the " + (rank === "T" ? "10" : rank) + " turned.");
      me.suit.suits.forEach((suit) => {
        const b = cardButton(rank + suit, () => act({ do: "suit", suit: suit },
          "The starter's suit is in."));
        hand.appendChild(b);
      });
    } else if (me.asks === "claim") {
      put("asked", "Your score waits for your claim: " + me.claim.for.join(", ") +
        ". Count it, enter the points, then Claim.");
      if (me.claim.cards) {  // the cards counted, with the starter
        const counted = $("counted");
        counted.append(me.claim.for.includes("crib") ? "Your crib: " : "Your hand: ");
        me.claim.cards.forEach((c) => {
          counted.append(cardImage(c, (me.claim.by_rank || []).includes(c)), " ");
        });
        if (me.claim.starter) {
          counted.append("starter ", cardImage(me.claim.starter,
            (me.claim.by_rank || []).includes(me.claim.starter)));
        }
      }
      const label = document.createElement("label");
      label.htmlFor = "points"; label.textContent = "Points you claim";
      const input = document.createElement("input");
      input.type = "number"; input.min = "0"; input.max = "29"; input.id = "points";
      input.inputMode = "numeric";
      input.value = typed;
      actions.appendChild(label);
      actions.appendChild(input);
      if (focused) input.focus();
      actions.appendChild(actionButton("Claim", async () => {
        // Cleared as it is sent, so that the next claim's field starts empty; put back
        // if the claim was not taken.
        if (busy) return;
        const points = input.value;
        input.value = "";
        await act({ do: "claim", points: parseInt(points || "0", 10) }, "Your claim is in.");
        const field = $("points");
        if (!taken && field) field.value = points;
      }));
    } else {  // whom the table waits for, and where (on a phone, or on the box)
      put("asked", me.wait || "Waiting for the table.");
    }
  }

  // The advice asked for the six cards tapped: shown while those six are the hand being
  // entered (the cards laid away tapped meanwhile too), gone once the six change.
  const sixKey = (cards) => cards.slice().sort().join(" ");
  function drawAdvice() {
    const list = $("advice");
    list.replaceChildren();
    if (!advised || !me || me.asks !== "cards" || advised.six !== sixKey(chosen)) return;
    advised.options.forEach((o) => {
      const item = document.createElement("li");
      item.textContent = "Lay away " + o.away.map(shown).join(" ") + ": keep " +
        o.keep.map(shown).join(" ") + ": your hand makes at least " + o.least + ", " + o.hand +
        " on average; " + (o.own_crib ? "your crib" : me.names[me.dealer] + "'s crib") +
        " gets " + o.crib + " on average.";
      list.appendChild(item);
    });
  }

  async function advise() {
    try {
      const six = sixKey(chosen);
      const [status, data] = await post("/phone/advice", { cards: chosen });
      if (!data.advice) { say(data.reason || "No advice (status " + status + ").", true); return; }
      advised = { six: six, options: data.advice };
    } catch (e) {
      say("The board cannot be reached.", true);
    }
    draw();
  }

  // Each part of the page is drawn again only when what it shows changed: an event of either
  // stream redraws none of the seat's buttons it did not change, so the button a finger or
  // a screen reader is on stays, and a phone does no work for nothing.
  const drawn = { table: "", mine: "", counts: "" };
  function changed(part, value) {
    const text = JSON.stringify(value);
    if (drawn[part] === text) return false;
    drawn[part] = text;
    return true;
  }

  function draw() {
    keepPick();
    $("join").hidden = !!token;
    if (changed("table", [game, me && me.asks, me && me.wait])) drawTable();
    if (changed("mine", [me, chosen, away, passed, advised])) drawMine();
    if (changed("counts", [me && me.seat, me && me.last_count, me && me.review])) drawCounts();
    placeCounts();
    tellNotice();
  }

  // Words for this seat alone (a card the box entered that this hand holds was refused):
  // said once each, in the live region, the number kept across a reload.
  function tellNotice() {
    const notice = me ? me.notice : null;
    if (!notice) return;
    const key = "pegboard-notice:" + me.game + ":" + me.seat;
    if (sessionStorage.getItem(key) === String(notice.id)) return;
    sessionStorage.setItem(key, String(notice.id));
    say(notice.text, true);
  }

  // The last count is read at the show, when the next deal's cards are asked on the grid:
  // then it stands above the seat's cards (where the player looks, not under 52 buttons);
  // in the play, with no grid, below them. Moved in the page itself, so a screen reader
  // reads it in the order it is seen.
  function placeCounts() {
    const counts = $("counts"), mine = $("mine");
    const above = $("grid").childElementCount > 0;
    const next = above ? mine : mine.nextElementSibling;
    if (counts !== next && counts.nextElementSibling !== next) {
      mine.parentNode.insertBefore(counts, next);
    }
  }

  let joining = false;
  async function join(code) {
    // One join at a time: a code typed twice (a second tap on Join) is not sent twice.
    if (joining || token) return;
    joining = true;
    try {
      const answer = await fetch("/phone/join", {
        method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ code: code }),
      });
      const data = await answer.json();
      if (data.token) {
        token = data.token;
        sessionStorage.setItem("pegboard-seat", token);
        history.replaceState(null, "", "/phone");
        say("You hold your seat.", false);
        follow();
      } else {
        say("Not joined: " + data.reason, true);
      }
    } catch (e) {
      say("The board cannot be reached.", true);
    }
    joining = false;
    draw();
  }

  // The seat's own stream: fetch, since only it sends the token in a header.
  async function follow() {
    while (token) {
      try {
        const answer = await fetch("/phone/stream", { headers: { authorization: "Bearer " + token } });
        if (answer.status === 401 || answer.status === 409) {
          const data = await answer.json();
          say(data.reason, true);
          letGo();
          draw();
          return;
        }
        const reader = answer.body.getReader();
        const decoder = new TextDecoder();
        let text = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          text += decoder.decode(value, { stream: true });
          let end;
          while ((end = text.indexOf("\n\n")) >= 0) {
            const block = text.slice(0, end);
            text = text.slice(end + 2);
            const kind = (block.match(/^event: (.*)$/m) || [])[1];
            const data = (block.match(/^data: (.*)$/m) || [])[1];
            if (kind === "me" && data) {
              const next = JSON.parse(data);
              if (!me || next.deal_no !== me.deal_no || next.asks !== me.asks) {
                chosen = []; away = [];
                if (next.asks === "cards") restorePick(next);
              }
              me = next;
              draw();
            } else if (kind === "gone") {
              say((data && JSON.parse(data).said) || "This phone no longer holds a seat.", true);
              letGo();
              draw();
              return;
            }
          }
        }
      } catch (e) { /* the board restarted or the Wi-Fi dropped: try again */ }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }

  const events = new EventSource("/events");
  events.addEventListener("game", (e) => {
    const data = JSON.parse(e.data);
    game = data.game;
    draw();
  });
  $("join-go").addEventListener("click", () => join($("code").value));
  $("call-yes").addEventListener("click", async () => {
    await act({ do: "muggins", points: parseInt($("missed").value || "0", 10) }, "Your call is in.");
    if (taken) $("missed").value = "";
  });
  $("call-no").addEventListener("click", async () => {
    const key = callKey(me);
    await act({ do: "muggins", points: 0 }, "No muggins.");
    if (taken) { passed = key; draw(); }
  });
  const code = new URLSearchParams(location.search).get("code");
  if (code && !token) join(code);
  else if (token) follow();
  draw();
})();
