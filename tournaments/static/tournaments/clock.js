/* The round's clock on a table page: counts down to the table's stored end time
   (data-ends-at), corrected by the server's clock at render time (data-now) so a phone whose
   clock is off still shows the right time. Survives htmx swaps: it looks the clock up each tick.
   When time is up it says so and makes the organiser's "close the table" button the main one. */
(function () {
  "use strict";
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function format(ms) {
    var s = Math.max(0, Math.ceil(ms / 1000));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    return h ? h + ":" + pad(m) + ":" + pad(sec) : m + ":" + pad(sec);
  }
  function tick() {
    var clocks = document.querySelectorAll("[data-ends-at]");
    for (var i = 0; i < clocks.length; i++) {
      var el = clocks[i];
      if (el.dataset.skew === undefined) {
        var server = Date.parse(el.dataset.now);
        el.dataset.skew = isNaN(server) ? "0" : String(server - Date.now());
      }
      var left = Date.parse(el.dataset.endsAt) - (Date.now() + Number(el.dataset.skew));
      var out = el.querySelector(".clock-left");
      if (out) { out.textContent = left > 0 ? format(left) : (el.dataset.overLabel || "0:00"); }
      if (left <= 0 && !el.classList.contains("over")) {
        el.classList.add("over");
        var buttons = document.querySelectorAll("[data-when-over]");
        for (var j = 0; j < buttons.length; j++) { buttons[j].classList.remove("secondary"); }
      }
    }
  }
  tick();
  setInterval(tick, 1000);
})();
