/* Sổ Tôm: the audience display of a Tổ Tôm Điếm table. Read-only, live by Server-Sent Events
   (no polling). The page brings the table's state and the stream position it was read at; events
   carry the change (a signal given, the fields that moved), folded here into that state, as the
   server's selectors.table_state would compute it; signal events also flash the seat, join the
   ticker and play their drum pattern. The stream resumes from the last event id after a
   disconnection (Last-Event-ID), so nothing is missed; a display whose missed events the server
   no longer keeps is sent a snapshot (the whole state) instead, and a gap in the ids (events
   delivered out of order) reconnects from the last id applied. */
(function () {
  "use strict";

  var body = document.body;
  var eventsUrl = body.getAttribute("data-events-url");
  var lastId = body.getAttribute("data-stream-id") || "";
  var state = JSON.parse(document.getElementById("dp-state").textContent);
  var recent = JSON.parse(document.getElementById("dp-recent").textContent);
  var clockOffset = 0;          // server time − this screen's time, in ms
  var source = null;
  var retryTimer = null;
  var retryDelay = 1000;
  var offlineSince = null;
  var seen = {};
  var TICKER_SIZE = 8;
  var LONG_TEXT = 12;           // a longer display text ("Ăn hai đánh một, trả chén") is set smaller
  var SOUND_MAX_AGE_MS = 5000;  // replayed (old) signals are shown, not played
  var TOO_LONG_OFFLINE_MS = 10 * 60 * 1000;

  var api = window.totomDisplay = { received: [], lastId: lastId, reloads: 0, resyncs: 0, snapshots: 0,
                                    state: function () { return state; } };

  function $(id) { return document.getElementById(id); }
  function seatEl(position) { return document.querySelector('.dp-seat[data-seat="' + position + '"]'); }
  function role(el, name) { return el.querySelector('[data-role="' + name + '"]'); }
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function signed(n) { return n > 0 ? "+" + n : n < 0 ? "−" + (-n) : "0"; }

  function setConn(kind, text) {
    var el = $("dp-conn");
    el.setAttribute("data-state", kind);
    el.textContent = text;
  }

  /* ---- state ------------------------------------------------------------------------------ */

  function renderSeat(seat) {
    var el = seatEl(seat.position);
    if (!el) { return; }
    el.classList.toggle("is-dealer", !!seat.dealer);
    el.classList.toggle("is-turn", !!seat.turn);
    el.classList.toggle("is-u", !!seat.u);
    el.classList.toggle("is-chiu", !!seat.chiu);
    el.querySelector(".dp-name").textContent = seat.name;
    el.querySelector(".dp-cai").hidden = !seat.dealer;
    var last = seat.last;
    /* A flag's ⚑ in the flag's own colour (the red flag was drawn in the signals' yellow). The
       colour is data (a village may add flags): set through the CSSOM, which the
       Content-Security-Policy allows (a style attribute it would not). */
    var icon = role(el, "icon");
    icon.textContent = last ? last.icon : "";
    var flagColour = last && last.kind === "flag" && last.color ? last.color : "";
    icon.classList.toggle("is-flag", !!flagColour);
    if (flagColour) { icon.style.setProperty("--flag", flagColour); } else { icon.style.removeProperty("--flag"); }
    role(el, "display").textContent = last ? last.display : "";
    role(el, "display").classList.toggle("is-long", !!last && last.display.length > LONG_TEXT);
    role(el, "label").textContent = last ? last.label : "";
    role(el, "signal").setAttribute("data-signal", last ? last.signal : "");
    var flags = role(el, "flags");
    flags.textContent = "";
    seat.flags.forEach(function (f) {
      if (f.signal === "co-vang") { return; }
      var span = document.createElement("span");
      span.className = "dp-flag";
      span.style.setProperty("--flag", f.color || "#888");
      var mark = document.createElement("span");
      mark.className = "dp-flag-mark";
      mark.setAttribute("aria-hidden", "true");
      mark.textContent = "⚑";
      span.appendChild(mark);
      span.appendChild(document.createTextNode(f.display));
      flags.appendChild(span);
    });
    if (seat.bat_thuc > 0) {
      var bt = document.createElement("span");
      bt.className = "dp-flag dp-batthuc";
      bt.textContent = interpolate(gettext("Bất thực ×%(n)s"), { n: seat.bat_thuc }, true);
      flags.appendChild(bt);
    }
    role(el, "balance").textContent = interpolate(gettext("%(n)s điểm"), { n: signed(seat.balance) }, true);
  }

  function renderAnnouncement(a) {
    var box = $("dp-announce");
    if (!a) { box.hidden = true; return; }
    $("dp-announce-head").textContent = interpolate(gettext("Ván %(n)s"), { n: a.van_seq }, true);
    if (a.winner) {
      $("dp-announce-winner").textContent = interpolate(gettext("Ù! %(name)s"), { name: a.winner }, true);
      var cuoc = (a.cuoc && a.cuoc.length ? a.cuoc.join(", ") : gettext("Ù suông"));
      $("dp-announce-cuoc").textContent = cuoc + (a.streak_label ? " · " + a.streak_label : "");
      $("dp-announce-points").textContent = interpolate(gettext("%(n)s điểm"), { n: a.points }, true);
    } else {
      $("dp-announce-winner").textContent = a.outcome_label;
      $("dp-announce-cuoc").textContent = "";
      $("dp-announce-points").textContent = "";
    }
    var list = $("dp-standings");
    list.textContent = "";
    (a.standings || []).forEach(function (row) {
      var li = document.createElement("li");
      li.innerHTML = "<span></span><b></b>";
      li.firstChild.textContent = row.name;
      li.lastChild.textContent = signed(row.balance);
      list.appendChild(li);
    });
    box.hidden = false;
  }

  /* ---- folding changes into the state ------------------------------------------------------ */

  function brief(sig) {
    return { id: sig.id, signal: sig.signal, label: sig.label, display: sig.display, meaning: sig.meaning,
             icon: sig.icon, color: sig.color, kind: sig.kind };
  }

  function derive(s) {
    var folded = 0;
    s.seats.forEach(function (seat) {
      if (seat.chiu) { folded += 1; }
      seat.dealer = seat.position === s.dealer;
      seat.turn = seat.position === s.turn;
      if (seat.dealer) { s.dealer_name = seat.name; }
    });
    if (!s.dealer) { s.dealer_name = null; }
    if (s.draw_rule) { s.draw_at = s.draw_rule[0] + s.draw_rule[1] * folded; }
    s.u_seats = s.seats.filter(function (seat) { return seat.u; })
      .sort(function (a, b) { return b.u_at - a.u_at; })
      .map(function (seat) { return seat.position; });
    return s;
  }

  /* A signal of the ván under way, as selectors._seat_state counts it; false: not this ván's. */
  function foldSignal(sig) {
    if (sig.van_seq !== state.van_seq || (state.sitting && sig.sitting !== state.sitting)) { return false; }
    state.announcement = null;  // the last ván's result gives way to play
    if (sig.seat === "trung_quan") { state.trung_quan = brief(sig); return derive(state); }
    var seat = state.seats.filter(function (s) { return s.position === sig.seat; })[0];
    if (!seat) { return false; }
    seat.last = brief(sig);
    if (sig.effect === "bat_thuc") { seat.bat_thuc += 1; }
    if (sig.effect === "tra_chen") { seat.bat_thuc = Math.max(0, seat.bat_thuc - 1); }
    if (sig.effect === "u") { seat.u = true; seat.u_at = sig.id; }
    if (sig.effect === "chiu") { seat.chiu = true; }
    if (sig.kind === "flag") {
      var flag = { signal: sig.signal, display: sig.display, label: sig.label, color: sig.color };
      var at = -1;
      seat.flags.forEach(function (f, i) { if (f.signal === sig.signal) { at = i; } });
      if (at < 0) { seat.flags.push(flag); } else { seat.flags[at] = flag; }
    }
    return derive(state);
  }

  function foldChange(change) {
    Object.keys(change).forEach(function (k) { state[k] = change[k]; });
    return derive(state);
  }

  function apply(next) {
    state = next;
    if (next.server_now) { clockOffset = Date.parse(next.server_now) - Date.now(); delete next.server_now; }
    $("dp-van").textContent = next.van_seq;
    $("dp-noc").textContent = next.noc_left;
    $("dp-draw").hidden = next.noc_left > next.draw_at;
    $("dp-dealer").textContent = next.dealer_name || "—";
    var tq = next.trung_quan;
    $("dp-tq").textContent = tq ? interpolate(gettext("Trung Quân: %(signal)s"), { signal: tq.display }, true) : "";
    next.seats.forEach(renderSeat);
    renderAnnouncement(next.announcement);
    tick();
  }

  function tick() {
    var el = $("dp-timer");
    if (!state.van_started_at) { el.textContent = "—"; return; }
    var secs = Math.max(0, Math.floor((Date.now() + clockOffset - Date.parse(state.van_started_at)) / 1000));
    el.textContent = pad(Math.floor(secs / 60)) + ":" + pad(secs % 60);
  }

  /* ---- signals ---------------------------------------------------------------------------- */

  function addToTicker(sig, via) {
    if (seen[sig.id]) { return false; }
    seen[sig.id] = true;
    var list = $("dp-ticker");
    var li = document.createElement("li");
    var at = new Date(Date.parse(sig.created_at));
    li.setAttribute("data-signal-id", sig.id);
    li.setAttribute("data-via", via);
    li.innerHTML = '<time></time> <span class="who"></span> <span class="what"></span>';
    li.children[0].textContent = pad(at.getHours()) + ":" + pad(at.getMinutes()) + ":" + pad(at.getSeconds());
    li.children[1].textContent = sig.seat_name;
    li.children[2].textContent = sig.label + " → " + sig.display;
    list.appendChild(li);
    while (list.children.length > TICKER_SIZE) { list.removeChild(list.firstChild); }
    return true;
  }

  function flash(sig) {
    var el = sig.seat === "trung_quan" ? $("dp-tq") : seatEl(sig.seat);
    if (!el) { return; }
    el.classList.remove("is-flash");
    void el.offsetWidth;  // restart the animation
    el.classList.add("is-flash");
  }

  function onSignal(data) {
    var sig = data.signal;
    api.received.push(sig.id);
    if (data.state) { apply(data.state); }
    else if (!foldSignal(sig)) { resync(); return; }
    else { apply(state); }
    if (!addToTicker(sig, "sse")) { return; }
    flash(sig);
    var age = Date.now() + clockOffset - Date.parse(sig.created_at);
    if (age < SOUND_MAX_AGE_MS && window.SoTomSound) { window.SoTomSound.play(sig.pattern); }
  }

  function onAnnounce(data) {
    apply(data.state);
    if (window.SoTomSound) { window.SoTomSound.play("B B"); }
  }

  /* ---- the stream ------------------------------------------------------------------------- */

  function idNumber(id) {
    var at = id.lastIndexOf(":");
    var n = at < 0 ? NaN : parseInt(id.slice(at + 1), 10);
    return isNaN(n) ? null : n;
  }

  function reloadState() {
    api.reloads += 1;
    window.location.reload();
  }

  /* Ask the stream again from the last event applied: the server sends what is missing, or a
     snapshot when it no longer has it. */
  function resync() {
    api.resyncs += 1;
    connect();
  }

  /* Follow the stream position; a gap means events came out of order or were lost: resync. */
  function advance(event) {
    var id = event.lastEventId;
    if (!id) { return true; }
    var before = idNumber(lastId);
    var now = idNumber(id);
    if (before !== null && now !== null && now <= before) { return false; }  // already applied
    if (before !== null && now !== null && now > before + 1) { resync(); return false; }
    lastId = api.lastId = id;
    return true;
  }

  /* A snapshot replaces the state whatever its id (a restored backup numbers from lower down). */
  function onSnapshot(event) {
    var data;
    try { data = JSON.parse(event.data); } catch (e) { return; }
    if (event.lastEventId) { lastId = api.lastId = event.lastEventId; }
    api.snapshots += 1;
    apply(data.state);
  }

  function handler(fn) {
    return function (event) {
      if (!advance(event)) { return; }
      var data;
      try { data = JSON.parse(event.data); } catch (e) { return; }
      fn(data);
    };
  }

  function connect() {
    if (source) { source.close(); }
    window.clearTimeout(retryTimer);
    setConn("connecting", gettext("Đang kết nối…"));
    var url = eventsUrl + (lastId ? "?lastEventId=" + encodeURIComponent(lastId) : "");
    source = new EventSource(url);
    source.addEventListener("stream-open", function () { retryDelay = 1000; setConn("live", gettext("Trực tiếp")); });
    source.addEventListener("signal", handler(onSignal));
    source.addEventListener("state", handler(function (d) { apply(d.state || foldChange(d.change)); }));
    source.addEventListener("snapshot", onSnapshot);
    source.addEventListener("announce", handler(onAnnounce));
    source.addEventListener("stream-reset", function () { reloadState(); });
    source.addEventListener("stream-error", function () { source.close(); scheduleRetry(); });
    source.onerror = function () {
      setConn("lost", gettext("Mất kết nối — đang thử lại…"));
      if (source.readyState === EventSource.CLOSED) { scheduleRetry(); }
    };
  }

  function scheduleRetry() {
    window.clearTimeout(retryTimer);
    retryTimer = window.setTimeout(connect, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 15000);
  }

  window.addEventListener("offline", function () {
    offlineSince = Date.now();
    if (source) { source.close(); source = null; }
    window.clearTimeout(retryTimer);
    setConn("lost", gettext("Mất mạng — chờ kết nối lại…"));
  });
  window.addEventListener("online", function () {
    var away = offlineSince === null ? 0 : Date.now() - offlineSince;
    offlineSince = null;
    if (away > TOO_LONG_OFFLINE_MS) { reloadState(); return; }
    connect();
  });

  /* ---- start ------------------------------------------------------------------------------ */

  recent.forEach(function (sig) { addToTicker(sig, "page"); });
  apply(state);
  window.setInterval(tick, 1000);
  if (window.SoTomSound) { window.SoTomSound.bindToggle($("dp-sound")); }
  connect();
})();
