/* Sổ Tôm: the top bar folds into one "Menu" button where the screen is both narrow and short (a
   laptop at 200 % zoom is 640 × 400 CSS pixels: the bar's six tabs and three buttons filled two
   screens before the page's content). The CSS decides when (a media query); this file
   only marks the bar as foldable and opens and closes it. Without it the bar stays unfolded. */
(function () {
  "use strict";

  function wire() {
    var bar = document.querySelector(".topbar");
    var button = bar && bar.querySelector("[data-menu-toggle]");
    if (!button) { return; }
    bar.classList.add("foldable");
    function set(open) {
      bar.classList.toggle("open", open);
      button.setAttribute("aria-expanded", open ? "true" : "false");
    }
    set(false);
    button.addEventListener("click", function () { set(!bar.classList.contains("open")); });
    /* Escape closes an open menu and gives the focus back to its button. */
    bar.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && bar.classList.contains("open")) { set(false); button.focus(); }
    });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", wire); } else { wire(); }
})();
