/* The timeline page (man-hinh/<id>/dien-bien/): replay a ván's signals with their sound. */
(function () {
  "use strict";
  SoTomSound.bindToggle(document.getElementById("tl-sound"));
  var MAX_GAP = 2500;  /* long silences are shortened when replaying */
  document.querySelectorAll("[data-replay]").forEach(function (button) {
    button.addEventListener("click", function () {
      if (!SoTomSound.isEnabled()) { SoTomSound.setEnabled(true); }
      var rows = button.closest("section").querySelectorAll("tr[data-offset]");
      var at = 0, previous = 0;
      rows.forEach(function (row) {
        var offset = parseInt(row.getAttribute("data-offset"), 10) || 0;
        at += Math.min(MAX_GAP, Math.max(0, offset - previous));
        previous = offset;
        window.setTimeout(function () {
          rows.forEach(function (r) { r.classList.remove("is-playing"); });
          row.classList.add("is-playing");
          SoTomSound.play(row.getAttribute("data-pattern"));
        }, at);
      });
    });
  });
})();
