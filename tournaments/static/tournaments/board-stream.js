/* An event's board, pushed (tournaments/board.py): each new board arrives whole on the page's
 * stream and replaces the one shown. The board's own htmx poll (every 10 minutes when pushed) stays as
 * the safety net, and asks at once ("board-missed") when the stream opens again after a break:
 * the channel keeps nothing, so what was pushed while it was closed is fetched.
 */
(function () {
  "use strict";

  var source = null;
  var opened = false;
  var retryDelay = 1000;
  var retryTimer = null;

  function board() {
    return document.getElementById("board");
  }

  function missed() {
    var shown = board();
    if (shown && window.htmx) { window.htmx.trigger(shown, "board-missed"); }
  }

  function onBoard(event) {
    var data;
    try { data = JSON.parse(event.data); } catch (e) { return; }
    var shown = board();
    if (!shown || !data || typeof data.html !== "string") { return; }
    if (shown.dataset.tag === data.tag) { return; }
    // a board older than the one shown (the poll fetched a newer one first) is not swapped back in
    if (Number(shown.dataset.version || 0) > Number(data.version || 0)) { return; }
    var holder = document.createElement("template");
    holder.innerHTML = data.html.trim();
    var fresh = holder.content.firstElementChild;
    if (!fresh || fresh.id !== "board") { return; }
    shown.replaceWith(fresh);
    if (window.htmx) { window.htmx.process(fresh); }
  }

  function connect(url) {
    if (source) { source.close(); }
    source = new EventSource(url);
    source.addEventListener("stream-open", function () {
      retryDelay = 1000;
      if (opened) { missed(); }
      opened = true;
    });
    source.addEventListener("board", onBoard);
    source.addEventListener("stream-error", function () { source.close(); retry(url); });
    source.onerror = function () {
      if (source.readyState === EventSource.CLOSED) { retry(url); }
    };
  }

  function retry(url) {
    window.clearTimeout(retryTimer);
    retryTimer = window.setTimeout(function () { connect(url); }, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 15000);
  }

  function start() {
    var shown = board();
    if (!shown || !shown.dataset.boardStream || !window.EventSource) { return; }
    connect(shown.dataset.boardStream);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
