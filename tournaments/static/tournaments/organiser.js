/* The organiser's pages (no inline script: the pages keep a Content-Security-Policy).
 *
 * - [data-copy]: a button that copies its link (a player's check-in link) and says so in its
 *   data-copied text; where the clipboard is refused, the link is selected for a manual copy.
 * - After htmx swaps the players' panel in answer to "Đăng ký", the focus goes back to the name
 *   field (empty after a registration, kept with the message after a refusal), so the next name
 *   can be typed at once.
 * Every handler is delegated from the document: it keeps working after htmx swaps a panel.
 */
(function () {
  "use strict";

  function say(button, text) {
    var status = button.parentNode && button.parentNode.querySelector("[data-copy-status]");
    if (status) { status.textContent = text; }
  }

  function selectText(el) {
    if (!el || !window.getSelection) { return; }
    var range = document.createRange();
    range.selectNodeContents(el);
    var sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
  }

  document.addEventListener("click", function (event) {
    var target = event.target instanceof Element ? event.target : null;
    if (!target) { return; }
    var copy = target.closest("[data-copy]");
    if (copy) {
      var link = copy.getAttribute("data-copy");
      var shown = copy.parentNode ? copy.parentNode.querySelector("code") : null;
      var done = function () { say(copy, copy.getAttribute("data-copied") || ""); };
      var manual = function () { selectText(shown); say(copy, copy.getAttribute("data-copy-manual") || ""); };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(link).then(done, manual);
      } else {
        manual();
      }
    }
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    var detail = event.detail || {};
    var source = detail.requestConfig && detail.requestConfig.elt;
    if (!(source instanceof Element) || !source.closest("[data-focus-after]")) { return; }
    var form = source.closest("[data-focus-after]");
    var field = document.getElementById(form.getAttribute("data-focus-after"));
    if (field) { field.focus(); }
  });
})();
