/* Sổ Tôm: the Trung Quân console. htmx does the taps; this file adds a fresh Idempotency-Key to
   every tap, keeps the ván timer running, and listens to the table's event
   stream so signals sent by drum pads (the hardware API) or another tablet show here too (no
   polling). */
(function () {
  "use strict";

  var root = document.getElementById("tq");
  if (!root) { return; }

  function newKey() {
    if (window.crypto && window.crypto.randomUUID) { return window.crypto.randomUUID(); }
    return "k-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 12);
  }

  document.body.addEventListener("htmx:configRequest", function (event) {
    if (event.detail.verb === "post") { event.detail.headers["Idempotency-Key"] = newKey(); }
  });

  /* ---- the ván timer ---------------------------------------------------------------------- */

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function tick() {
    var el = document.querySelector("[data-timer]");
    if (!el) { return; }
    var since = el.getAttribute("data-since");
    if (!since) { el.textContent = "—"; return; }
    var offset = Date.parse(el.getAttribute("data-now")) - (el._loadedAt || (el._loadedAt = Date.now()));
    var secs = Math.max(0, Math.floor((Date.now() + offset - Date.parse(since)) / 1000));
    el.textContent = pad(Math.floor(secs / 60)) + ":" + pad(secs % 60);
  }
  window.setInterval(tick, 1000);
  document.body.addEventListener("htmx:afterSwap", tick);
  tick();

  /* ---- live: the table's event stream ----------------------------------------------------- */

  var lastId = root.getAttribute("data-stream-id") || "";
  var source = null;
  var live = document.getElementById("tq-live");
  var liveUrl = root.getAttribute("data-live-url");

  /* The Trung Quân's own taps inside the live part (start, nọc, turn, dealer) that are waiting for
     their answer. A refresh must not replace the live part under such a tap: the tap's answer is
     the live part itself, and htmx would swap it for a button no longer on the page (its
     out-of-band parts then find no target: "htmx:oobErrorNoTarget #tq-van"). The refresh waits. */
  var tapsWaiting = 0;
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    var xhr = event.detail.xhr;
    if (!live || !elt || !live.contains(elt) || !xhr) { return; }
    tapsWaiting += 1;
    xhr.addEventListener("loadend", function () {
      tapsWaiting -= 1;
      if (tapsWaiting === 0 && again) { again = false; refresh(); }
    });
  });

  /* Re-render the live part; one request at a time, and once more if an event came meanwhile
     (so the last event is always shown, whatever order the answers arrive in). */
  var inFlight = false;
  var again = false;
  function refresh() {
    if (inFlight || tapsWaiting) { again = true; return; }
    inFlight = true;
    htmx.ajax("GET", liveUrl, { target: "#tq-live", swap: "innerHTML" }).then(done, done);
  }
  function done() {
    inFlight = false;
    if (again && !tapsWaiting) { again = false; refresh(); }
  }

  /* The ván form is opened twice for one red flag: by the answer to the Trung Quân's own tap
     (out of band) and by the signal's event on the stream. Whichever lands second must not
     replace a form that is already open: the Trung Quân may be choosing cước in it. */
  function formOpen() {
    var slot = document.getElementById("tq-van");
    return !!(slot && slot.querySelector("form"));
  }

  /* A later ù (a "Hồi dài" after another seat's "Cờ đỏ") in an open form: tick that seat as the
     winner, keep the cước already chosen, and bring the winner row into sight (the form
     kept the first claimant ticked). */
  function tickWinner(seat) {
    var slot = document.getElementById("tq-van");
    var radio = slot && slot.querySelector("input[name=winner][data-seat='" + String(seat) + "']");
    if (!radio) { return; }
    if (!radio.checked) { radio.checked = true; }
    showWinnerRow(radio.form);
  }

  function openVanForm(seat) {
    if (!document.getElementById("tq-van")) { return; }
    if (formOpen()) { tickWinner(seat); return; }
    htmx.ajax("GET", root.getAttribute("data-van-form-url") + "?winner=" + encodeURIComponent(seat),
              { target: "#tq-van", swap: "innerHTML" });
  }

  document.body.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    if (target && target.id === "tq-van" && formOpen() && event.detail.fragment &&
        event.detail.fragment.querySelector && event.detail.fragment.querySelector("form")) {
      event.detail.shouldSwap = false;
      var ticked = event.detail.fragment.querySelector("input[name=winner]:checked");
      if (ticked) { tickWinner(ticked.getAttribute("data-seat")); }
    }
  });
  document.body.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    var path = event.detail.requestConfig && event.detail.requestConfig.path || "";
    if (target && target.id === "tq-van" && formOpen() && path.indexOf("?winner=") !== -1) {
      event.detail.shouldSwap = false;
    }
    /* A refresh that was asked for before a tap and answers after it: the tap's answer is newer. */
    if (target === live && path === liveUrl && tapsWaiting) {
      event.detail.shouldSwap = false;
      again = true;
    }
  });

  /* A ván form that opens (a red flag, a long roll, a draw) scrolls into sight if it is not, its
     top first: the winner row is what the Trung Quân checks (a form taller than the screen, as at
     1024 × 768, was scrolled to its bottom and the winner row went off the top). */
  function showWinnerRow(form) {
    if (!form || !form.getBoundingClientRect) { return; }
    var box = form.getBoundingClientRect();
    var height = window.innerHeight || document.documentElement.clientHeight;
    if (box.top >= 0 && box.bottom <= height) { return; }
    window.scrollBy(0, box.top - 8);  /* the heading, then the winner row right under it */
  }
  function showForm() {
    var slot = document.getElementById("tq-van");
    var form = slot && slot.querySelector("form");
    if (!form || form === shownForm) { return; }
    shownForm = form;
    showWinnerRow(form);
  }
  var shownForm = null;
  document.body.addEventListener("htmx:afterSettle", showForm);
  document.body.addEventListener("htmx:oobAfterSwap", showForm);

  function listen(type, fn) {
    source.addEventListener(type, function (event) {
      if (event.lastEventId) { lastId = event.lastEventId; }
      var data = null;
      try { data = JSON.parse(event.data); } catch (e) { data = null; }
      fn(data);
    });
  }

  function connect() {
    var url = root.getAttribute("data-events-url") + (lastId ? "?lastEventId=" + encodeURIComponent(lastId) : "");
    source = new EventSource(url);
    listen("signal", function (data) {
      refresh();
      if (data && data.signal.effect === "u" && data.signal.seat !== "trung_quan") { openVanForm(data.signal.seat); }
    });
    listen("state", refresh);
    listen("announce", refresh);
    source.addEventListener("stream-reset", refresh);
    source.onerror = function () {
      if (source.readyState === EventSource.CLOSED) { window.setTimeout(connect, 3000); }
    };
  }

  window.addEventListener("offline", function () { if (source) { source.close(); } });
  window.addEventListener("online", function () { connect(); refresh(); });
  if (window.EventSource) { connect(); }
})();
