// Every page: the service worker (install as an app, the offline page), the
// offline page's retry, nickname fields counting visible characters, and the
// language menu closing on Escape or on a click outside it; the "js" class on
// <html> that shows what only works with JavaScript (.js-only). No inline script.
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").catch(function () { /* not offered */ });
  }
  var retry = document.getElementById("offline-retry");
  if (retry) {
    var again = function () { location.reload(); };
    retry.addEventListener("click", again);
    window.addEventListener("online", again);
  }
  // nicknames: visible characters counted (as nicknames.visible_length)
  var seg = window.Intl && Intl.Segmenter && new Intl.Segmenter();
  document.querySelectorAll("input[data-max-visible]").forEach(function (f) {
    var check = function () {
      var t = f.value.trim(), n = Array.from(seg ? seg.segment(t) : t).length;
      f.setCustomValidity(n > f.dataset.maxVisible ? f.dataset.tooLong : "");
    };
    f.addEventListener("input", check);
    check();
  });
  // small screens: the navigation folds behind a Menu button (shown only with
  // JavaScript: without it the navigation stays open)
  var header = document.querySelector(".site-header");
  var toggle = document.querySelector(".nav-toggle");
  if (header && toggle) {
    header.classList.add("site-header--folds");
    toggle.hidden = false;
    toggle.addEventListener("click", function () {
      var open = header.classList.toggle("site-header--open");
      toggle.setAttribute("aria-expanded", String(open));
    });
  }
  var menu = document.querySelector("details.lang");
  if (!menu) return;
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && menu.open) {
      menu.open = false;
      menu.querySelector("summary").focus();
    }
  });
  document.addEventListener("click", function (event) {
    if (menu.open && !menu.contains(event.target)) menu.open = false;
  });
})();
