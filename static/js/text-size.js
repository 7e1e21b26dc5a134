/* Sổ Tôm: the "Chữ to" (large text) switch in the top bar. The choice is this device's own
   (localStorage), so a grandparent's phone keeps it from page to page and visit to visit.

   Loaded in <head> without defer: the class is set on <html> before the page is first drawn, so
   the page never flashes small and then grows. The button is wired once the page is parsed. */
(function () {
  "use strict";
  var KEY = "sotom:chu-to";
  var root = document.documentElement;

  function stored() {
    try { return window.localStorage.getItem(KEY) === "1"; } catch (e) { return false; }
  }
  function store(on) {
    try {
      if (on) { window.localStorage.setItem(KEY, "1"); } else { window.localStorage.removeItem(KEY); }
    } catch (e) { /* storage refused (private browsing): the choice lasts for this page only */ }
  }
  function apply(on) {
    root.classList.toggle("chu-to", on);
    var buttons = document.querySelectorAll("[data-text-size]");
    for (var i = 0; i < buttons.length; i++) { buttons[i].setAttribute("aria-pressed", on ? "true" : "false"); }
  }

  apply(stored());

  function wire() {
    apply(root.classList.contains("chu-to"));
    document.addEventListener("click", function (event) {
      var button = event.target.closest && event.target.closest("[data-text-size]");
      if (!button) { return; }
      var on = !root.classList.contains("chu-to");
      store(on);
      apply(on);
    });
    /* Another tab of this device changed it: follow. */
    window.addEventListener("storage", function (event) { if (event.key === KEY) { apply(stored()); } });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", wire); } else { wire(); }
})();
