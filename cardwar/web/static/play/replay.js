// The replay page: step through every battle of a finished game.
// The record (the `cardwar play --log --json` object) is embedded as JSON;
// strings come in the page's language. Buttons, or Left/Right/Home/End keys.
(function () {
  "use strict";
  var S = JSON.parse(document.getElementById("play-strings").textContent);
  var D = JSON.parse(document.getElementById("replay-data").textContent);
  var log = D.record.log || [];
  var K = window.CardwarCards.make(S, D.locale);  // cards.js
  var nf = K.nf, fmt = K.fmt, plural = K.plural, el = K.el, cardEl = K.cardEl;
  var step = 0; // 0: the deal; n: after battle n

  var $ = function (id) { return document.getElementById(id); };
  function seatName(seat) {
    var s = D.seats[seat];
    if (s.kind === "computer") return fmt(S.computer_name, { n: nf.format(seat + 1) });
    if (s.nickname) return s.nickname;
    return fmt(S.seat, { n: nf.format(seat + 1) });
  }
  function letters(n) {
    var out = [];
    for (var i = 0; i < n; i++) out.push(D.tie_word ? S.tie_word[i] || "" : "");
    return out;
  }
  function summary(b) {
    var parts = [];
    if (b.peaces.length) parts.push(D.tie_word ? S.tie_peace : S.tie_war);
    return parts.concat(K.battleOutcome(b, seatName)).join(" ");
  }
  function render() {
    var b = step > 0 ? log[step - 1] : null;
    var counts = b ? b.counts : D.start_counts;
    $("replay-step").textContent = step === 0 ? S.replay_start
      : fmt(S.replay_step, { n: nf.format(step), total: nf.format(log.length) });
    var seats = $("replay-seats");
    seats.textContent = "";
    seats.dataset.players = D.seats.length;
    D.seats.forEach(function (s) {
      var seat = s.seat;
      var box = el("section", "tseat");
      box.dataset.seat = seat;
      box.setAttribute("aria-label", seatName(seat));
      if (b && b.winner === seat) box.classList.add("tseat--won");
      var head = el("header", "tseat__head");
      head.appendChild(el("span", "tseat__name", seatName(seat)));
      box.appendChild(head);
      var pile = el("div", "pile");
      pile.setAttribute("role", "img");
      pile.setAttribute("aria-label", plural(S.pile, counts[seat], { name: seatName(seat) }));
      var c = el("span", "pile__count", plural(S.cards, counts[seat]));
      c.setAttribute("aria-hidden", "true");
      pile.appendChild(c);
      box.appendChild(pile);
      var area = el("div", "tplay");
      if (b && b.face_up[seat]) {
        var row = el("div", "tplay__row");
        row.appendChild(cardEl(b.face_up[seat],
          b.winning_seats.indexOf(seat) >= 0 ? "pcard--lead" : ""));
        area.appendChild(row);
        b.peaces.forEach(function (p) {
          var down = p.face_down[seat];
          if (down === null) return;
          var prow = el("div", "tplay__row tplay__peace");
          var l = letters(down.length);
          down.forEach(function (code, j) {
            var d = cardEl(code, "pcard--shown");
            if (l[j]) d.appendChild(el("span", "pcard__letter", l[j]));
            prow.appendChild(d);
          });
          if (p.face_up[seat] && p.standing.indexOf(seat) < 0) {
            prow.appendChild(cardEl(p.face_up[seat],
              p.winning_seats.indexOf(seat) >= 0 ? "pcard--lead" : ""));
          }
          area.appendChild(prow);
        });
      }
      box.appendChild(area);
      seats.appendChild(box);
    });
    $("replay-summary").textContent = b ? summary(b) : "";
    $("replay-first").disabled = $("replay-prev").disabled = step === 0;
    $("replay-last").disabled = $("replay-next").disabled = step === log.length;
    document.getElementById("replay").dataset.step = step;
  }
  function go(n) {
    step = Math.max(0, Math.min(log.length, n));
    render();
  }
  $("replay-first").addEventListener("click", function () { go(0); });
  $("replay-prev").addEventListener("click", function () { go(step - 1); });
  $("replay-next").addEventListener("click", function () { go(step + 1); });
  $("replay-last").addEventListener("click", function () { go(log.length); });
  document.addEventListener("keydown", function (e) {
    var tag = e.target && e.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    if (e.key === "ArrowRight") { go(step + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { go(step - 1); e.preventDefault(); }
    else if (e.key === "Home") { go(0); e.preventDefault(); }
    else if (e.key === "End") { go(log.length); e.preventDefault(); }
  });
  render();
})();
