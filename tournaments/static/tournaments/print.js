/* A button marked data-print prints the page (no inline onclick: the Content-Security-Policy allows none). */
(function () {
  "use strict";
  document.querySelectorAll("[data-print]").forEach(function (button) {
    button.addEventListener("click", function () { window.print(); });
  });
})();
