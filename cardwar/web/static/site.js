// Close the language menu on Escape or on a click outside it. No inline script.
(function () {
  "use strict";
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
