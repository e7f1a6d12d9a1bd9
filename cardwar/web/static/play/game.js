// The game page: lobby, table and end screen, live over a WebSocket.
// Every message comes from the server's view_message(); this script only
// words it in the page's language (strings embedded as JSON) and draws it.
// No inline script, no inline handlers.
(function () {
  "use strict";
  var S = JSON.parse(document.getElementById("play-strings").textContent);
  var C = JSON.parse(document.getElementById("play-config").textContent);
  var K = window.CardwarCards.make(S, C.locale);  // cards.js
  var nf = K.nf, fmt = K.fmt, plural = K.plural, el = K.el;
  var cardName = K.cardName, cardEl = K.cardEl, battleOutcome = K.battleOutcome;
  var reduceMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)");
  var state = null;
  var ws = null;
  var slideTimer = null;
  var revealTimer = null;
  var pendingFlip = false;   // our flip is sent but not yet confirmed
  var attempts = 0;          // reconnection attempts since the last good connection
  var retryTimer = null;
  var lastHeard = Date.now(); // last message from the server (heartbeat watchdog)
  var HEARTBEAT = (C.heartbeat || 20) * 1000;
  var idleDeadline = null;   // when the game flips for whoever is still to flip (Date.now() ms)
  var idleBattle = null;     // the battle that idle clock is for
  var focusPileOnStart = false;
  var stale = false;         // the connection dropped: what we show may be out of date

  var $ = function (id) { return document.getElementById(id); };
  function seatName(seat) {
    var s = state.seats[seat];
    if (s.kind === "computer") return fmt(S.computer_name, { n: nf.format(seat + 1) });
    if (s.kind === "human" && s.nickname) return s.nickname;
    return fmt(S.seat, { n: nf.format(seat + 1) });
  }
  function backEl(letter) {
    var e = el("span", "pcard pcard--back");
    if (letter) e.appendChild(el("span", "pcard__letter", letter));
    e.setAttribute("aria-hidden", "true");
    return e;
  }
  // a player's presence chip; unknown (dimmed) for others while we are reconnecting
  function presenceEl(s) {
    if (stale && s.seat !== you()) {
      return el("span", "presence presence--unknown", S.presence_unknown);
    }
    var on = s.seat === you() && stale ? false : s.online;
    return el("span", "presence" + (on ? " presence--on" : ""), on ? S.online : S.offline);
  }
  function setStatus(text) { $("game-status").textContent = text || ""; }
  function announce(text) {
    var a = $("announce");
    a.textContent = "";
    window.setTimeout(function () { a.textContent = text; }, 50);
  }
  function send(obj) {
    if (ws && ws.readyState === 1) ws.send(JSON.stringify(obj));
  }
  function you() { return state ? state.you : null; }
  function canFlip() {
    var g = state && state.game;
    return !stale && g && g.status === "playing" && you() !== null && g.in_play[you()] &&
      g.flipped.indexOf(you()) < 0;
  }
  function flip() {
    if (!canFlip()) return;
    state.game.flipped.push(you());
    pendingFlip = true;
    // the battle number makes a flip delayed by a reconnection harmless
    send({ type: "flip", battle: state.game.battle + 1 });
    render();
  }
  // take back our own flip that the server has not confirmed (it may never have arrived)
  function unflip() {
    pendingFlip = false;
    var i = state ? state.game.flipped.indexOf(you()) : -1;
    if (i >= 0) state.game.flipped.splice(i, 1);
  }
  function isCreator() { return you() !== null && you() === state.game.creator; }

  // -- joining: the form (rendered for an open lobby) only while a seat is open;
  // otherwise "Every seat is taken", also after a refused join (?error=full)
  var joinForm = document.querySelector(".join-form");
  var refused = new URLSearchParams(location.search).get("error") === "full";
  function renderJoin() {
    var g = state.game;
    var open = g.status === "lobby" && state.seats.some(function (s) { return s.kind === "open"; });
    if (joinForm) {
      var wasShown = !joinForm.hidden;
      joinForm.hidden = you() !== null || !open;
      if (wasShown && joinForm.hidden && you() === null) announce(S.errors.no_seat);
    }
    var full = you() === null && !open && (g.status === "lobby" || refused);
    var note = $("join-full");
    if (full && !note) {
      note = el("p", "join-full" + (refused ? " form-error" : ""), S.errors.no_seat);
      note.id = "join-full";
      if (refused) note.setAttribute("role", "alert");
      $("lobby").parentNode.insertBefore(note, $("lobby"));  // where the form was
    }
    if (note) note.hidden = !full;
  }

  // -- lobby -------------------------------------------------------------
  function renderLobby() {
    var list = $("seat-list");
    list.textContent = "";
    state.seats.forEach(function (s) {
      var li = el("li", "seat-list__item");
      li.dataset.seat = s.seat;
      li.appendChild(el("span", "seat-list__label", fmt(S.seat, { n: nf.format(s.seat + 1) })));
      if (s.kind === "open") {
        li.appendChild(el("span", "seat-list__name seat-list__name--open", S.open_seat));
      } else if (s.kind === "reserved") {  // a rematch seat kept for its former player
        li.appendChild(el("span", "seat-list__name seat-list__name--open seat-list__name--reserved",
          fmt(S.reserved_seat, { name: s.nickname || "" })));
      } else {
        li.appendChild(el("span", "seat-list__name", seatName(s.seat)));
        if (s.kind === "computer") li.appendChild(el("span", "tag tag--quiet tag--computer", S.computer));
        if (s.seat === you()) li.appendChild(el("span", "tag", S.you));
        if (s.seat === state.game.creator) li.appendChild(el("span", "tag tag--quiet", S.creator));
        if (s.kind === "human") {
          li.appendChild(presenceEl(s));
        }
      }
      list.appendChild(li);
    });
    var area = $("start-area");
    area.textContent = "";
    var open = state.seats.filter(function (s) { return s.kind === "open"; }).length;
    // seats the computer fills on start: open ones and those still kept for a player
    var empty = state.seats.filter(function (s) {
      return s.kind === "open" || s.kind === "reserved";
    }).length;
    if (isCreator()) {
      var b = el("button", "button", empty ? S.start_fill : S.start);
      b.type = "button";
      b.id = "start-game";
      b.addEventListener("click", function () {
        b.disabled = true;
        focusPileOnStart = true;  // keyboard players land on their pile
        send({ type: "start" });
      });
      area.appendChild(b);
    } else if (you() !== null) {
      area.textContent = fmt(S.wait_start, { name: seatName(state.game.creator || 0) });
    } else if (!open) {
      area.textContent = S.watching;
    }
  }

  // -- table -------------------------------------------------------------
  function tieLetters(count) {
    var word = state.game.tie_word ? S.tie_word : null;
    var out = [];
    for (var i = 0; i < count; i++) out.push(word ? word[i] || "" : "");
    return out;
  }
  function playArea(seat) {
    var last = state.last;
    var box = el("div", "tplay");
    if (!last || !last.face_up[seat]) return box;
    var row = el("div", "tplay__row");
    row.appendChild(cardEl(last.face_up[seat],
      last.winning_seats.indexOf(seat) >= 0 ? "pcard--lead" : ""));
    box.appendChild(row);
    last.peaces.forEach(function (p, i) {
      var down = p.face_down[seat];
      if (down === null) return;
      var prow = el("div", "tplay__row tplay__peace");
      prow.dataset.peace = i + 1;
      var letters = tieLetters(down.length);
      var backs = el("span", "tplay__down");
      down.forEach(function (code, j) {
        var b;
        if (state.revealed) {
          // the pot is taken: the face-down cards are shown, still labelled
          b = cardEl(code, "pcard--shown");
          b.removeAttribute("role");
          b.removeAttribute("aria-label");
          if (letters[j]) b.appendChild(el("span", "pcard__letter", letters[j]));
        } else {
          b = backEl(letters[j]);
        }
        b.dataset.card = code;
        backs.appendChild(b);
      });
      if (!state.game.tie_word && down.length) {
        backs.appendChild(el("span", "tplay__count", plural(S.face_down_count, down.length)));
      }
      var label = down.map(cardName).join(", ");
      backs.setAttribute("role", "img");
      backs.setAttribute("aria-label", label || "-");
      prow.appendChild(backs);
      if (p.standing.indexOf(seat) >= 0) {
        prow.appendChild(el("span", "tplay__stands", "\u21a9"));
      } else if (p.face_up[seat]) {
        prow.appendChild(cardEl(p.face_up[seat],
          p.winning_seats.indexOf(seat) >= 0 ? "pcard--lead" : ""));
      }
      box.appendChild(prow);
    });
    return box;
  }
  function battleText() {
    var g = state.game;
    var n = g.status === "over" ? g.battle : g.battle + 1;
    if (g.battle_limit) {
      return fmt(S.battle_of, { n: nf.format(n), limit: nf.format(g.battle_limit) });
    }
    return fmt(S.battle, { n: nf.format(n) });
  }
  function renderTable() {
    var g = state.game;
    var hadFocus = document.activeElement && document.activeElement.id === "my-pile";
    $("table").dataset.battle = g.battle;
    $("battle-number").textContent = battleText();
    var seats = $("seats");
    seats.textContent = "";
    seats.dataset.players = g.players;
    state.seats.forEach(function (s) {
      var seat = s.seat;
      var box = el("section", "tseat");
      box.dataset.seat = seat;
      box.setAttribute("aria-label", seatName(seat));
      if (seat === you()) box.classList.add("tseat--you");
      if (!g.in_play[seat]) box.classList.add("tseat--out");
      if (state.last && state.last.winner === seat) box.classList.add("tseat--won");
      var head = el("header", "tseat__head");
      head.appendChild(el("span", "tseat__name", seatName(seat)));
      if (s.kind === "computer") head.appendChild(el("span", "tag tag--quiet tag--computer", S.computer));
      if (seat === you()) head.appendChild(el("span", "tag", S.you));
      if (s.kind === "human") {
        head.appendChild(presenceEl(s));
      }
      if (s.kind === "human" && s.gone && g.status === "playing") {
        head.appendChild(el("span", "tag tag--quiet tseat__gone", S.gone));
        if (isCreator() && seat !== you()) {
          var hand = el("button", "button button--quiet button--small tseat__hand",
            fmt(S.hand_over, { name: seatName(seat) }));
          hand.type = "button";
          hand.addEventListener("click", function () {
            hand.disabled = true;
            send({ type: "hand_over", seat: seat });
          });
          head.appendChild(hand);
        }
      }
      var st;
      if (!g.in_play[seat]) st = S.out;
      else if (g.status === "playing") st = g.flipped.indexOf(seat) >= 0 ? S.flipped : S.waiting;
      if (st) head.appendChild(el("span", "tseat__state tseat__state--" +
        (!g.in_play[seat] ? "out" : g.flipped.indexOf(seat) >= 0 ? "ready" : "wait"), st));
      box.appendChild(head);
      var count = g.counts[seat];
      var pileLabel = plural(S.pile, count, { name: seatName(seat) });
      var pile;
      if (seat === you() && g.status === "playing" && g.in_play[seat]) {
        pile = el("button", "pile pile--mine");
        pile.type = "button";
        pile.id = "my-pile";
        pile.setAttribute("aria-disabled", String(!canFlip()));
        pile.setAttribute("aria-label", canFlip() ? pileLabel + ". " + S.flip : pileLabel);
        pile.addEventListener("click", flip);
      } else {
        pile = el("div", "pile");
        pile.setAttribute("role", "img");
        pile.setAttribute("aria-label", pileLabel);
      }
      if (count > 0) pile.appendChild(backEl(""));
      else pile.appendChild(el("span", "pile__empty"));
      var c = el("span", "pile__count", plural(S.cards, count));
      c.setAttribute("aria-hidden", "true");
      pile.appendChild(c);
      if (seat === you() && canFlip()) pile.appendChild(el("span", "pile__flip", S.flip));
      box.appendChild(pile);
      box.appendChild(playArea(seat));
      seats.appendChild(box);
    });
    $("summary").textContent = state.last ? summaryText(state.last, false) : "";
    var mine = you() !== null && g.status === "playing" && g.in_play[you()];
    $("flip-help").textContent = mine
      ? plural(S.flip_help, Math.round(C.flip_timeout || 10)) : "";
    $("watching-note").hidden = !(you() === null && g.status !== "lobby");
    $("auto-area").hidden = !(you() !== null && g.status === "playing");
    if (you() !== null) $("auto-flip").checked = !!state.seats[you()].auto_flip;
    if ((hadFocus || focusPileOnStart) && $("my-pile")) {
      focusPileOnStart = false;
      $("my-pile").focus();
    }
    renderIdle();
  }
  // -- the idle clock: once someone has flipped, the others have C.flip_timeout seconds
  function idleSeats() {
    var g = state.game;
    return state.seats.filter(function (s) {
      return g.in_play[s.seat] && g.flipped.indexOf(s.seat) < 0 && s.kind === "human" &&
        !s.auto_flip && !s.gone;
    }).map(function (s) { return s.seat; });
  }
  function renderIdle() {
    var note = $("idle-note");
    if (!note || !state) return;
    var g = state.game;
    var seats = idleSeats();
    if (g.status !== "playing" || idleDeadline === null || idleBattle !== g.battle + 1 ||
        !seats.length) {
      note.textContent = "";
      note.hidden = true;
      return;
    }
    var n = nf.format(Math.max(0, Math.ceil((idleDeadline - Date.now()) / 1000)));
    var lines = [];
    if (seats.indexOf(you()) >= 0) lines.push(fmt(S.idle_you, { n: n }));
    var others = seats.filter(function (s) { return s !== you(); }).map(seatName);
    if (others.length) lines.push(fmt(S.idle_wait, { names: others.join(", "), n: n }));
    note.textContent = lines.join(" ");
    note.hidden = false;
  }
  function startIdle(left, battle) {
    var wasOff = idleDeadline === null || idleBattle !== battle;
    idleDeadline = left === null || left === undefined ? null : Date.now() + left * 1000;
    idleBattle = battle;
    if (wasOff && idleDeadline !== null && idleSeats().indexOf(you()) >= 0) {
      announce(fmt(S.idle_you, { n: nf.format(Math.ceil(left)) }));
    }
    renderIdle();
  }
  window.setInterval(function () { if (idleDeadline !== null) renderIdle(); }, 250);
  function summaryText(b, full) {
    var parts = [];
    if (full) {
      parts.push(fmt(S.battle, { n: nf.format(b.battle) }) + ": " + b.face_up.map(function (c, s) {
        return c ? seatName(s) + " " + cardName(c) : null;
      }).filter(Boolean).join(", ") + ".");
    }
    if (b.peaces.length) {
      parts.push(state.game.tie_word ? S.tie_peace : S.tie_war);
      if (full) {
        var p = b.peaces[b.peaces.length - 1];
        parts.push(p.face_up.map(function (c, s) {
          return c ? seatName(s) + " " + cardName(c) : null;
        }).filter(Boolean).join(", ") + ".");
      }
    }
    return parts.concat(battleOutcome(b, seatName)).join(" ");
  }
  function slidePot() {
    window.clearTimeout(slideTimer);
    var last = state.last;
    if (!last || last.winner === null || last.winner === undefined) return;
    // the last battle stays on the table for the end screen: no pick-up animation
    if (state.game.status === "over" || last.outcome) return;
    var target = document.querySelector('.tseat[data-seat="' + last.winner + '"] .pile');
    if (!target) return;
    slideTimer = window.setTimeout(function () {
      var t = target.getBoundingClientRect();
      document.querySelectorAll(".tplay").forEach(function (area) {
        var r = area.getBoundingClientRect();
        var dx = t.left + t.width / 2 - (r.left + r.width / 2);
        var dy = t.top + t.height / 2 - (r.top + r.height / 2);
        if (reduceMotion && reduceMotion.matches) {
          area.classList.add("tplay--taken-still");
        } else {
          area.style.transform = "translate(" + dx + "px," + dy + "px) scale(.4)";
          area.classList.add("tplay--taken");
        }
      });
      if (reduceMotion && reduceMotion.matches) return;
      // once the cards have reached the pile, nothing is left over it
      slideTimer = window.setTimeout(function () {
        document.querySelectorAll(".tplay--taken").forEach(function (area) {
          area.textContent = "";
          area.classList.remove("tplay--taken");
          area.classList.add("tplay--cleared");
          area.style.transform = "";
        });
      }, 750);
    }, 1600);
  }

  // -- end ---------------------------------------------------------------
  function renderEnd() {
    var r = state.result;
    var end = $("end");
    var wasHidden = end.hidden;
    end.textContent = "";
    if (!r) { end.hidden = true; return; }
    end.hidden = false;
    end.appendChild(el("h2", "", S.game_over));
    if (r.outcome === "win") {
      end.appendChild(el("p", "end__result", fmt(S.wins, { name: seatName(r.winner) })));
      end.appendChild(el("p", "", fmt(S.win_why, { name: seatName(r.winner) })));
    } else {
      end.appendChild(el("p", "end__result", S.draw));
      end.appendChild(el("p", "", fmt(S["reason_" + r.reason] || "",
        { limit: nf.format(state.game.battle_limit || 0) })));
    }
    // placings: those still in play by cards held, then who went out, the latest first
    end.appendChild(el("h3", "end__placings-title", S.placings));
    var out = r.eliminated || {};
    var order = r.final_counts.map(function (n, s) { return s; });
    order.sort(function (a, b) {
      var oa = out[a] !== undefined, ob = out[b] !== undefined;
      if (oa !== ob) return oa ? 1 : -1;
      if (oa) return out[b] - out[a] || a - b;
      return r.final_counts[b] - r.final_counts[a] || a - b;
    });
    var counts = el("ol", "end__counts");
    order.forEach(function (s) {
      counts.appendChild(el("li", "", out[s] !== undefined
        ? fmt(S.out_in_battle, { name: seatName(s), n: nf.format(out[s]) })
        : seatName(s) + ": " + plural(S.cards, r.final_counts[s])));
    });
    end.appendChild(counts);
    if (state.game.players === 3) end.appendChild(el("p", "end__aside", S.set_aside));
    end.appendChild(el("p", "", S.seed));
    end.appendChild(el("p", "", "")).appendChild(el("code", "end__seed", r.seed || r.hands));
    end.appendChild(el("p", "", S.replay));
    end.appendChild(el("pre", "end__command")).appendChild(el("code", "", r.command));
    var links = el("p", "end__links");
    var replay = el("a", "button", S.watch_replay);
    replay.href = C.replay;
    links.appendChild(replay);
    var dl = el("a", "button button--quiet", S.download);
    dl.href = C.download;
    dl.setAttribute("download", "");
    links.appendChild(dl);
    var again = el("a", "button button--quiet", S.play_again);
    again.href = C.variant_page;
    links.appendChild(again);
    end.appendChild(links);
    if (wasHidden) end.focus();
  }
  function renderRematch() {
    var form = $("rematch-form");
    var g = state.game;
    var seated = you() !== null && state.seats[you()].kind === "human";
    form.hidden = !(g.status === "over" && seated);
    if (form.hidden) return;
    if (g.rematch) {
      // who offered: from the live event, or from the snapshot after a reload
      var by = state.rematch_by !== null && state.rematch_by !== undefined
        ? state.rematch_by : g.rematch_by;
      var late = new URLSearchParams(location.search).get("error") === "rematch";
      var offer = $("rematch-offer");
      offer.textContent = "";
      if (late) {
        // it started without us (the error above says so): watch it instead
        var watch = el("a", "button button--quiet", S.watch_rematch);
        watch.href = location.pathname.replace(/\/g\/[^/]+$/, "/g/" + g.rematch);
        watch.id = "rematch-watch";
        offer.appendChild(watch);
      } else {
        offer.textContent = by !== null && by !== undefined && by !== you()
          ? fmt(S.rematch_offer, { name: seatName(by) }) : S.rematch_ready;
      }
      $("rematch-button").hidden = late;
      $("rematch-button").textContent = S.rematch_join;
    } else {
      $("rematch-offer").textContent = "";
      $("rematch-button").textContent = S.rematch;
    }
  }
  function renderWatchers() {
    var w = $("watchers");
    var n = stale ? 0 : state.watchers || 0;  // an old count is not shown while reconnecting
    w.hidden = n <= 0;
    w.textContent = n > 0 ? plural(S.watching_count, n) : "";
  }

  function render() {
    if (!state) return;
    var g = state.game;
    document.getElementById("game").dataset.status = g.status;
    $("lobby").hidden = g.status !== "lobby";
    $("table").hidden = g.status === "lobby";
    renderJoin();
    if (g.status === "lobby") renderLobby();
    else renderTable();
    renderEnd();
    renderRematch();
    renderWatchers();
  }

  // -- events ------------------------------------------------------------
  function apply(m) {
    lastHeard = Date.now();
    if (m.type === "ping") { send({ type: "pong" }); return; }
    if (m.type === "pong") return;
    if (m.type === "state") {
      stale = false;
      pendingFlip = false;
      window.clearTimeout(revealTimer);
      state = m;
      state.revealed = true;
      idleDeadline = m.idle === null || m.idle === undefined ? null : Date.now() + m.idle * 1000;
      idleBattle = m.game.battle + 1;
      setStatus("");
      render();
      return;
    }
    if (!state) return;
    if (m.type === "error") {
      if (pendingFlip && (m.code === "rate_limited" || m.code === "bad_message")) {
        unflip();  // the flip did not count: the pile can be flipped again
      }
      setStatus(S.errors[m.code] || S.errors.bad_message);
      render();
      return;
    }
    if (m.seq !== null && m.seq !== undefined) {
      if (m.seq <= state.seq) return;
      state.seq = m.seq;
    }
    var g = state.game;
    switch (m.type) {
      case "joined":
        var old = state.seats[m.seat];
        state.seats[m.seat] = { seat: m.seat, kind: m.kind, nickname: m.nickname,
          online: m.kind === "computer" || (old && old.online), auto_flip: false };
        // in a rematch the seat that may start moves to the lowest player who came back
        if (m.creator !== undefined) g.creator = m.creator;
        break;
      case "presence":
        state.seats[m.seat].online = m.online;
        break;
      case "gone":
        state.seats[m.seat].gone = m.gone;
        break;
      case "handed":
        state.seats[m.seat].kind = "computer";
        state.seats[m.seat].gone = false;
        state.seats[m.seat].online = true;
        break;
      case "watchers":
        state.watchers = m.count;
        stale = false;  // the last message of a catch-up: presence and counts are fresh
        break;
      case "idle":
        startIdle(m.left, m.battle);
        return;
      case "rematch":
        g.rematch = m.game;
        state.rematch_by = m.by;
        break;
      case "auto_flip":
        state.seats[m.seat].auto_flip = m.on;
        break;
      case "started":
        g.status = "playing"; g.counts = m.counts; g.flipped = [];
        break;
      case "flipped":
        if (m.seat === you()) pendingFlip = false;
        if (g.flipped.indexOf(m.seat) < 0) g.flipped.push(m.seat);
        break;
      case "battle":
        pendingFlip = false;
        idleDeadline = null;
        g.battle = m.battle; g.counts = m.counts; g.in_play = m.in_play; g.flipped = [];
        state.last = m;
        state.revealed = !m.peaces.length;
        window.clearTimeout(revealTimer);
        render();
        announce(summaryText(m, true));
        if (m.peaces.length) {
          revealTimer = window.setTimeout(function () {
            state.revealed = true;
            render();
            slidePot();
          }, 900);
        } else {
          slidePot();
        }
        return;
      case "over":
        g.status = "over";
        state.result = m;
        idleDeadline = null;
        window.clearTimeout(slideTimer);
        document.querySelectorAll(".tplay").forEach(function (area) {
          area.style.transform = "";
          area.classList.remove("tplay--taken", "tplay--taken-still", "tplay--cleared");
        });
        render();
        announce(m.outcome === "win" ? fmt(S.wins, { name: seatName(m.winner) }) : S.draw);
        return;
    }
    render();
  }

  // -- connection: reconnect with backoff, catch up by seq, heartbeats --------
  function notice(text) {
    var n = $("conn-notice");
    n.hidden = !text;
    n.textContent = text || "";
  }
  function dropped() {
    // the socket is gone (closed, dead or the device went offline): try again with backoff
    ws = null;
    attempts += 1;
    if (!stale) { stale = true; render(); }
    var delay = Math.min(15000, 1000 * Math.pow(2, attempts - 1)) * (0.5 + Math.random() / 2);
    notice(S.reconnecting);
    window.clearTimeout(retryTimer);
    retryTimer = window.setTimeout(connect, delay);
  }
  function connect() {
    window.clearTimeout(retryTimer);
    if (navigator.onLine === false) { dropped(); return; }  // the "online" event retries
    // A flip sent just before the drop may never have reached the server: whether
    // we have flipped is the server's word. The catch-up replays every event after
    // state.seq, our "flipped" among them if it did arrive (or sends a full state),
    // so drop the unconfirmed flip now and let the catch-up restore it.
    if (pendingFlip) unflip();
    var proto = location.protocol === "https:" ? "wss://" : "ws://";
    // the last event seen: the server sends what was missed (or a full state)
    var since = state && state.seq !== null && state.seq !== undefined ? "?since=" + state.seq : "";
    var sock = new WebSocket(proto + location.host + C.socket + since);
    ws = sock;
    if (!state) setStatus(S.connecting);
    sock.addEventListener("open", function () { lastHeard = Date.now(); });
    sock.addEventListener("message", function (e) {
      if (ws !== sock) return;  // a socket we gave up on (e.g. on going offline)
      if (attempts) { attempts = 0; notice(""); }
      apply(JSON.parse(e.data));
    });
    sock.addEventListener("close", function (e) {
      if (ws !== sock) return;
      ws = null;
      if (e.code === 4001) { location.reload(); return; }  // our seat moved or was handed over
      dropped();
    });
  }
  window.setInterval(function () {
    // a socket that has heard nothing for three heartbeats is dead: start again
    if (ws && ws.readyState === 1 && Date.now() - lastHeard > 3 * HEARTBEAT) ws.close();
  }, Math.min(HEARTBEAT, 5000));
  window.addEventListener("online", function () {
    if (!ws) { window.clearTimeout(retryTimer); connect(); }
  });
  window.addEventListener("offline", function () {
    // no network: say so at once and treat the socket as dropped
    var sock = ws;
    if (sock) {
      ws = null;
      try { sock.close(); } catch (err) { /* already closing */ }
      dropped();
    } else {
      notice(S.reconnecting);
    }
  });

  // -- controls ----------------------------------------------------------
  document.addEventListener("keydown", function (e) {
    if (e.key !== " " && e.key !== "Enter") return;
    var t = e.target;
    var tag = t && t.tagName;
    if (tag === "INPUT" || tag === "BUTTON" || tag === "A" || tag === "SELECT" ||
        tag === "TEXTAREA" || tag === "SUMMARY") return;
    if (!canFlip()) return;
    e.preventDefault();
    flip();
  });
  $("auto-flip").addEventListener("change", function (e) {
    send({ type: "auto", on: e.target.checked });
  });
  var link = $("share-link");
  $("copy-link").addEventListener("click", function () {
    function done() { $("copied").textContent = S.copied; }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(link.value).then(done, function () {
        link.select(); document.execCommand("copy"); done();
      });
    } else {
      link.select(); document.execCommand("copy"); done();
    }
  });
  var deviceCopy = $("copy-device-link");
  if (deviceCopy) {
    deviceCopy.addEventListener("click", function () {
      var input = $("device-link");
      function done() { $("device-copied").textContent = S.copied; }
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(input.value).then(done, function () {
          input.select(); document.execCommand("copy"); done();
        });
      } else {
        input.select(); document.execCommand("copy"); done();
      }
    });
  }
  if (navigator.share) {
    var shareButton = $("share-link-button");
    shareButton.hidden = false;
    shareButton.addEventListener("click", function () {
      navigator.share({ title: document.title, url: link.value }).catch(function () {});
    });
  }
  connect();
})();
