// Shared by game.js and replay.js (loaded before either): wording messages
// in the page's language and drawing card faces. No inline script.
// CardwarCards.make(S, locale) binds the helpers to the page's strings S
// (embedded as JSON) and its locale.
(function () {
  "use strict";
  var SUITS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };

  function fmt(t, args) {
    return t.replace(/\{(\w+)\}/g, function (m, k) { return k in args ? String(args[k]) : m; });
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  function make(S, locale) {
    var nf = new Intl.NumberFormat(locale);
    var pr = new Intl.PluralRules(locale);
    function plural(forms, n, args) {
      args = args || {};
      args.count = nf.format(n);
      return fmt(forms[pr.select(n)] || forms.other, args);
    }
    function cardName(code) {
      return fmt(S.card, { rank: S.ranks[code[0]], suit: S.suits[code[1]] });
    }
    function cardEl(code, extra) {
      var e = el("span", "pcard" + (extra ? " " + extra : ""));
      if (code[1] === "D" || code[1] === "H") e.classList.add("pcard--red");
      e.setAttribute("role", "img");
      e.setAttribute("aria-label", cardName(code));
      e.dataset.card = code;
      var r = el("span", "pcard__rank", code[0] === "T" ? "10" : code[0]);
      var s = el("span", "pcard__suit", SUITS[code[1]]);
      r.setAttribute("aria-hidden", "true");
      s.setAttribute("aria-hidden", "true");
      e.appendChild(r);
      e.appendChild(s);
      return e;
    }
    // how a battle (a log entry) ended: who takes the pot, or nobody; who went out
    function battleOutcome(b, seatName) {
      var parts = [];
      if (b.winner !== null && b.winner !== undefined) {
        parts.push(plural(S.takes, b.pot, { name: seatName(b.winner) }));
      } else {
        parts.push(S.nobody);
      }
      (b.out || []).forEach(function (s) { parts.push(fmt(S.went_out, { name: seatName(s) })); });
      return parts;
    }
    return { nf: nf, fmt: fmt, el: el, plural: plural, cardName: cardName, cardEl: cardEl,
      battleOutcome: battleOutcome };
  }

  window.CardwarCards = { make: make };
})();
