// Every page: the service worker (install as an app, the offline page), the
// offline page's retry, and the language menu closing on Escape or on a click
// outside it. No inline script.
(function () {
  "use strict";
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").catch(function () { /* not offered */ });
  }
  var retry = document.getElementById("offline-retry");
  if (retry) {
    var again = function () { location.reload(); };
    retry.addEventListener("click", again);
    window.addEventListener("online", again);
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
