/* Offline-first scorekeeping on the sổ điểm pages.
 *
 * - Registers the service worker (/sw.js) and asks it to keep this page, so it reopens offline.
 * - Keeps the sitting's offline pack (rules and history) in IndexedDB while online.
 * - With no network (or while earlier ván still wait, to keep their order), "Lưu ván" does not go
 *   to the server: the ván is kept in the outbox with its idempotency key and number and shown as
 *   "chờ gửi"; the preview is computed here and marked "tạm tính".
 * - When the network returns, waiting ván are sent in order through the JSON API, each with its
 *   own key on every retry (exactly once). A 409 (someone else recorded that number) stops the
 *   sitting's queue and is shown with the server's state until a person decides; nothing merges.
 * - A ván kept by mistake can be withdrawn (after a question) until it is sent: it is never
 *   written, and the ván after it move up one number.
 * - A correction saved with no network (on a correction page the worker kept: the sitting page
 *   asks it to keep those of its last ván) is kept in the outbox too, naming the version it
 *   corrects (`replaces`): sent later through the API, it is refused if someone corrected that
 *   ván meanwhile, and shown as a conflict instead of replacing their correction.
 *
 * Needs outbox.js, indicator.js and preview.js (loaded before, all deferred).
 */
(function () {
  "use strict";

  const O = window.SoTomOutbox;
  const P = window.SoTomPreview;
  const I = window.SoTomIndicator;
  const RETRY_MS = 5000;
  const KEEP_CORRECTIONS = 3; // the correction pages of the last ván a sitting page keeps offline
  const asked = new Map(); // correction page path → the version of its ván asked for (this page's life)

  const meta = document.querySelector('meta[name="sotom-offline"]');
  const cfg = meta ? JSON.parse(meta.getAttribute("content")) : {};
  const sitting = cfg.sitting ? Number(cfg.sitting) : null;

  let flaky = false; // the last request failed although the browser believes it is online
  let syncing = false;
  let here = []; // this sitting's outbox items, by number (kept in step with IndexedDB)
  let pack = null;
  let idleHtml = null;
  let notice = "";

  function online() {
    return navigator.onLine && !flaky;
  }

  function uuid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  function csrf() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (e) {
      return "";
    }
  }

  function apiUrl(pk) {
    return cfg.api.replace(/\/0\/van$/, "/" + pk + "/van");
  }

  function itemUrl(item) {
    return isCorrection(item) ? apiUrl(item.sitting) + "/" + item.seq + "/correct" : apiUrl(item.sitting);
  }

  function isCorrection(item) {
    return item.kind === "correct";
  }

  function markReady(part) {
    const root = document.documentElement;
    const parts = new Set((root.dataset.offlineParts || "").split(" ").filter(Boolean));
    parts.add(part);
    root.dataset.offlineParts = [...parts].join(" ");
    const needed = sitting ? ["worker", "page", "pack"] : ["worker"];
    if (needed.every((p) => parts.has(p))) root.dataset.offlineReady = "1";
  }

  // -- service worker and the kept copies -----------------------------------------------------

  let registration = null;

  async function register() {
    if (!("serviceWorker" in navigator) || !cfg.sw) return;
    try {
      registration = await navigator.serviceWorker.register(cfg.sw, { scope: cfg.scope || "/" });
      await navigator.serviceWorker.ready;
      markReady("worker");
      keepPage();
    } catch (e) {
      console.warn("Sổ Tôm: không đăng ký được service worker", e);
    }
  }

  function keepPage() {
    if (!sitting || !online()) return;
    const worker = registration && registration.active;
    if (!worker) return;
    worker.postMessage({ type: "keep", url: location.pathname });
    // The correction pages of the last few ván, so that a mistake noticed offline can be corrected;
    // each fetched only when the copy kept is of another version of its ván (or there is none).
    const links = [...document.querySelectorAll("#sitting a[data-version]")]
      .sort((a, b) => Number(b.dataset.seq) - Number(a.dataset.seq)); // newest first, whatever the page's order
    for (const link of links.slice(0, KEEP_CORRECTIONS)) {
      const path = new URL(link.href, location.href).pathname;
      const version = link.dataset.version || "";
      if (version && asked.get(path) === version) continue; // asked already (maybe still fetching)
      asked.set(path, version);
      keptVersion(path).then((kept) => {
        if (!version || kept !== version) worker.postMessage({ type: "keep", url: path });
      });
    }
  }

  /* The version of the ván whose correction page the worker keeps at ``path`` (its form's
   * "replaces"), or null when it keeps none. */
  async function keptVersion(path) {
    try {
      const cached = window.caches && (await caches.match(path, { ignoreVary: true }));
      if (!cached) return null;
      const found = /name="replaces" value="(\d+)"/.exec(await cached.text());
      return found ? found[1] : null;
    } catch (e) {
      return null;
    }
  }

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.addEventListener("message", (event) => {
      const data = event.data || {};
      if (data.type === "kept" && data.ok && data.url === location.pathname) markReady("page");
      if (data.type === "kept" && !data.ok) asked.delete(data.url); // asked again next time
    });
  }

  async function refreshPack() {
    if (!sitting) return;
    if (online()) {
      try {
        const response = await fetch(cfg.pack, { credentials: "same-origin", headers: { Accept: "application/json" } });
        if (response.ok) {
          pack = await response.json();
          await O.savePack(pack);
          markReady("pack");
          return;
        }
      } catch (e) {
        flaky = true;
      }
    }
    pack = pack || (await O.getPack(sitting));
  }

  // -- the outbox as shown ---------------------------------------------------------------------

  async function reload() {
    const all = await O.all();
    here = sitting ? all.filter((it) => it.sitting === sitting) : [];
    I.update({
      online: online(),
      sending: syncing,
      waiting: all.filter((it) => it.status === "waiting").length,
      conflicts: all.filter((it) => it.status !== "waiting").length,
    });
    renderOutbox(all);
    adjustForm();
    return all;
  }

  function section() {
    let el = document.getElementById("outbox");
    const anchor = document.getElementById("sitting");
    if (!el && anchor) {
      el = document.createElement("section");
      el.id = "outbox";
      el.className = "outbox";
      el.dataset.testid = "outbox";
      el.setAttribute("aria-live", "polite");
      anchor.parentNode.insertBefore(el, anchor);
      el.addEventListener("click", onOutboxClick);
    }
    return el;
  }

  function conflictHtml(it) {
    const s = it.server || {};
    const taken = s.van;
    let html = '<div class="conflict-box" role="alert">';
    html += "<p><b>" + P.esc(it.status === "conflict" ? gettext("Xung đột — chưa ghi") : gettext("Sổ từ chối — chưa ghi")) + ":</b> " + P.esc(it.message || "") + "</p>";
    if (taken) {
      const takenSummary = pack ? P.describe(taken.record || {}, pack) : "";
      html += '<p data-testid="conflict-server">' + P.esc(interpolate(gettext("Trên sổ, ván %(n)s là:"), { n: taken.seq }, true)) +
        " " + P.esc(takenSummary) +
        (taken.points ? " · " + P.esc(interpolate(gettext("%(n)s điểm"), { n: taken.points }, true)) : "") + " (" +
        P.esc(interpolate(gettext("người ghi: %(who)s"), { who: taken.entered_by || gettext("khách") }, true)) + ").</p>";
    }
    if (s.balances) {
      html += '<p class="help">' + P.esc(gettext("Số dư trên sổ lúc này:")) + " " +
        Object.entries(s.balances).map(([n, b]) => P.esc(n) + " " + P.signed(b)).join(", ") +
        (s.next_seq ? " · " + P.esc(interpolate(gettext("ván tiếp theo là số %(n)s"), { n: s.next_seq }, true)) : "") + ".</p>";
    }
    html += '<div class="actions">';
    if (isCorrection(it)) {
      html += '<a class="btn small" href="' + P.esc(cfg.sittingUrl.replace(/\/0\/$/, "/" + it.sitting + "/van/" + it.seq + "/sua/")) +
        '">' + P.esc(interpolate(gettext("Mở trang sửa ván %(n)s"), { n: it.seq }, true)) + "</a>";
    } else if (s.next_seq) {
      html += '<button type="button" class="btn small" data-action="renumber" data-key="' + P.esc(it.key) +
        '">' + P.esc(interpolate(gettext("Vẫn ghi, thành ván %(n)s"), { n: s.next_seq }, true)) + "</button>";
    } else if (it.status === "error") {
      html += '<button type="button" class="btn small" data-action="retry" data-key="' + P.esc(it.key) + '">' + P.esc(gettext("Gửi lại")) + "</button>";
    }
    html += '<button type="button" class="btn small secondary" data-action="discard" data-key="' + P.esc(it.key) +
      '">' + P.esc(isCorrection(it) ? gettext("Bỏ bản sửa này (không ghi)") : gettext("Bỏ ván này (không ghi)")) + "</button></div></div>";
    return html;
  }

  function itemHtml(it, held) {
    const status = it.status === "waiting" ? (held ? gettext("chờ xem xung đột") : gettext("chờ gửi"))
      : it.status === "conflict" ? gettext("xung đột") : gettext("bị từ chối");
    const fix = isCorrection(it);
    let html = '<li class="van outbox-item s-' + it.status + (fix ? " is-correction" : "") + '" data-seq="' + it.seq +
      '" data-status="' + it.status + '" data-kind="' + (fix ? "correct" : "van") +
      '" data-testid="' + (it.status === "waiting" ? "outbox-item" : "outbox-conflict") + '">';
    const title = fix ? interpolate(gettext("Sửa ván %(n)s"), { n: it.seq }, true) : interpolate(gettext("Ván %(n)s"), { n: it.seq }, true);
    html += '<div class="van-head"><span class="van-seq">' + P.esc(title) +
      '</span> <span class="wait-badge">' + P.esc(status) + "</span>";
    if (it.points !== null && it.points !== undefined) {
      html += ' <span class="van-points">' + P.esc(interpolate(gettext("%(n)s điểm"), { n: it.points }, true)) + "</span>";
    }
    if (it.streakName) html += ' <span class="streak-badge">' + P.esc(it.streakName) + "</span>";
    if (it.points !== null && it.points !== undefined) html += ' <span class="tam-tinh">' + P.esc(gettext("tạm tính")) + "</span>";
    html += '</div><div class="van-summary">' + P.esc(fix ? "→ " : "") + P.esc(it.summary || "") + "</div>";
    if (fix) html += '<div class="help">' + P.esc(interpolate(gettext("Lý do: %(why)s"), { why: it.body.reason || "" }, true)) + "</div>";
    if (it.status !== "waiting") html += conflictHtml(it);
    else if (!held || fix) {
      const label = fix ? interpolate(gettext("Bỏ bản sửa ván %(n)s (chưa gửi)"), { n: it.seq }, true)
        : interpolate(gettext("Bỏ ván %(n)s (chưa gửi)"), { n: it.seq }, true);
      html += '<div class="actions"><button type="button" class="btn small secondary" data-action="withdraw" data-key="' +
        P.esc(it.key) + '" data-testid="withdraw">' + P.esc(label) + "</button></div>";
    }
    return html + "</li>";
  }

  function renderOutbox(all) {
    const el = section();
    if (!el) return;
    const others = all.filter((it) => it.sitting !== sitting);
    if (!here.length && !others.length && !notice) {
      el.hidden = true;
      el.innerHTML = "";
      return;
    }
    el.hidden = false;
    let html = "";
    if (notice) html += '<p class="notice" role="status" data-testid="offline-notice">' + P.esc(notice) + "</p>";
    if (here.length) {
      html += "<h2>" + P.esc(interpolate(gettext("Ván trên máy này, chưa vào sổ (%(n)s)"), { n: here.length }, true)) + "</h2>";
      html += '<p class="help">' + P.esc(gettext("Mỗi ván giữ khóa chống gửi lặp riêng: gửi lại bao nhiêu lần sổ cũng chỉ ghi một lần, theo đúng thứ tự.")) + "</p>";
      let held = false;
      html += '<ol class="van-list outbox-list">';
      for (const it of here) {
        html += itemHtml(it, held);
        if (it.status !== "waiting" && !isCorrection(it)) held = true;
      }
      html += "</ol>";
    }
    if (others.length) {
      const ids = [...new Set(others.map((it) => it.sitting))];
      html += '<p class="help">' + P.esc(interpolate(gettext("Còn %(n)s ván của canh bài khác chờ gửi:"), { n: others.length }, true)) + " " +
        ids.map((pk) => '<a href="' + cfg.sittingUrl.replace(/\/0\/$/, "/" + pk + "/") + '">#' + pk + "</a>").join(", ") + ".</p>";
    }
    el.innerHTML = html;
  }

  // -- the ván form -------------------------------------------------------------------------

  function vanForm() {
    const form = document.getElementById("van-form");
    return form && form.closest("#sitting") ? form : null;
  }

  function serverNext() {
    const box = document.getElementById("sitting");
    const fromPage = box ? Number(box.dataset.nextSeq || 0) : 0;
    return Math.max(fromPage, pack ? pack.next_seq : 0);
  }

  function newVan() {
    return here.filter((it) => !isCorrection(it));
  }

  function nextSeq() {
    const mine = newVan();
    const queued = mine.length ? Math.max(...mine.map((it) => it.seq)) + 1 : 0;
    return Math.max(serverNext(), queued);
  }

  function setNumber(form, seq) {
    const input = form.querySelector('input[name="seq"]');
    if (!input || Number(input.value) === seq) return;
    input.value = String(seq);
    input.setAttribute("value", String(seq));
    const key = form.querySelector('input[name="key"]');
    key.value = uuid(); // a new number is a new request: never reuse a key with another body
    key.setAttribute("value", key.value);
    const heading = document.getElementById("ghi-van");
    if (heading) heading.textContent = heading.textContent.replace(/\d+/, String(seq));
    const save = form.querySelector('[data-testid="save"]');
    if (save) save.textContent = save.textContent.replace(/\d+/, String(seq));
  }

  function adjustForm() {
    const form = vanForm();
    if (form && newVan().length) setNumber(form, nextSeq());
  }

  function showError(message) {
    const box = document.getElementById("preview");
    if (box) box.innerHTML = '<p class="error" role="alert" data-testid="preview-error">' + P.esc(message) + "</p>";
  }

  function queuedBefore(seq) {
    return newVan().filter((it) => it.seq < seq && it.record).map((it) => ({ record: it.record }));
  }

  async function showPreview() {
    const form = vanForm();
    const box = document.getElementById("preview");
    if (!form || !box) return;
    pack = pack || (await O.getPack(sitting));
    const data = new FormData(form);
    if (!pack) return showError(gettext("Máy này chưa có luật của canh bài (mở trang khi có mạng một lần): không tính trước được."));
    if (P.isEmpty(data, pack)) {
      box.innerHTML = idleHtml || "";
      return;
    }
    try {
      const rec = P.record(data, pack);
      const seq = Number(data.get("seq")) || nextSeq();
      box.innerHTML = P.render(P.preview(pack, rec, seq, queuedBefore(seq)));
    } catch (e) {
      showError(e.message);
    }
  }

  /* What a ván form asks to keep, read with the sitting's pack: ``{ data, rec, cards }``, or null
   * once the reason it cannot be kept is shown. ``check(data)``: the form's own rule (a message
   * when broken), asked after the winner and before the record. */
  async function formToKeep(form, noPack, check) {
    const refuse = (message) => {
      showError(message);
      return null;
    };
    pack = pack || (await O.getPack(sitting));
    if (!pack) return refuse(noPack);
    const data = new FormData(form);
    if (P.isEmpty(data, pack)) return refuse(gettext("Hãy chạm vào người ù (hoặc Hòa) trước khi lưu ván."));
    const broken = check ? check(data) : null;
    if (broken) return refuse(broken);
    try {
      return { data, rec: P.record(data, pack), cards: String(data.get("cards") || "").trim() };
    } catch (e) {
      return refuse(e.message);
    }
  }

  async function queueFromForm() {
    const form = vanForm();
    if (!form) return;
    const got = await formToKeep(form, gettext("Máy này chưa có luật của canh bài (mở trang khi có mạng một lần): chưa giữ được ván."));
    if (!got) return;
    const { data, rec, cards } = got;
    const seq = nextSeq();
    const formSeq = Number(data.get("seq"));
    const key = formSeq === seq && data.get("key") ? String(data.get("key")) : uuid();
    const body = { seq, ...rec };
    if (cards) body.cards = cards;
    const view = P.preview(pack, rec, seq, queuedBefore(seq));
    if (here.some((it) => it.key === key)) return; // the same form sent twice (a double tap)
    await O.add({ key, sitting, seq, body, record: rec, summary: view.summary, points: view.points, streakName: view.streakName });
    notice = interpolate(gettext("Đã giữ ván %(n)s trên máy này: chờ gửi."), { n: seq }, true);
    form.reset();
    await reload();
    setNumber(form, nextSeq());
    const box = document.getElementById("preview");
    if (box) box.innerHTML = idleHtml || "";
    if (navigator.onLine) sync();
  }

  // -- a correction saved with no network --------------------------------------------------------

  /* The correction page's form (the ván form prefilled, with the number it corrects), if this is one. */
  function correctionForm() {
    const form = document.getElementById("van-form");
    return form && !form.closest("#sitting") && form.querySelector('input[name="correct_seq"]') ? form : null;
  }

  function noPreview(form) {
    const html = '<p class="help" data-testid="preview-offline">' +
      P.esc(gettext("Mất mạng: chưa xem trước được bản sửa. Vẫn lưu được: bản sửa được giữ trên máy này và gửi khi có mạng.")) + "</p>";
    const box = document.getElementById("preview");
    if (box) box.innerHTML = html;
    else form.insertAdjacentHTML("afterbegin", html);
  }

  /* Keep the correction on this phone. ``sentBefore``: the request may have reached the server
   * (htmx:sendError), so its key is kept for the retry; otherwise nothing was sent and a fresh key
   * is safe (a kept copy of the page carries the key it was drawn with). */
  async function queueCorrection(sentBefore) {
    const form = correctionForm();
    if (!form) return;
    const reasonOf = (data) => String(data.get("reason") || "").trim();
    const got = await formToKeep(form, gettext("Máy này chưa có luật của canh bài (mở trang khi có mạng một lần): chưa giữ được bản sửa."),
      (data) => (reasonOf(data) ? null : gettext("Hãy ghi lý do sửa ván.")));
    if (!got) return;
    const { data, rec, cards } = got;
    const seq = Number(data.get("correct_seq"));
    const replaces = Number(data.get("replaces")) || null;
    const body = { ...rec, reason: reasonOf(data) };
    if (replaces) body.replaces = replaces;
    if (cards) body.cards = cards;
    const key = sentBefore && data.get("key") ? String(data.get("key")) : uuid();
    const run = async () => {
      const all = await O.list(sitting);
      if (all.some((it) => it.key === key)) return; // the same form sent twice (a double tap)
      // A second correction of the same ván, still unsent, takes the place of the first.
      for (const it of all) {
        if (isCorrection(it) && it.seq === seq && it.status === "waiting") await O.remove(it.key);
      }
      await O.add({ key, kind: "correct", sitting, seq, body, record: rec, summary: P.describe(rec, pack), points: null });
    };
    await (navigator.locks ? navigator.locks.request("sotom-outbox", run) : run());
    const back = cfg.sittingUrl.replace(/\/0\/$/, "/" + sitting + "/");
    const box = document.getElementById("correct") || form.parentNode;
    box.querySelectorAll("form, [data-testid=error]").forEach((el) => { el.hidden = true; });
    const note = document.createElement("div");
    note.className = "notice";
    note.setAttribute("role", "status");
    note.dataset.testid = "offline-notice";
    note.innerHTML = "<p>" + P.esc(interpolate(gettext("Đã giữ bản sửa ván %(n)s trên máy này: chờ gửi. Sổ ghi bản sửa khi có mạng lại, nếu từ giờ đến đó không ai sửa ván %(n)s trước."), { n: seq }, true)) +
      '</p><p><a class="btn" href="' + P.esc(back) + '">' + P.esc(gettext("Về canh bài")) + "</a></p>";
    box.appendChild(note);
    await reload();
    if (navigator.onLine) sync();
  }

  document.addEventListener("htmx:confirm", (event) => {
    const form = correctionForm();
    const elt = event.detail && event.detail.elt;
    if (!form || !elt || online()) return;
    if (elt.matches && elt.matches('[data-testid="save-correction"]')) {
      event.preventDefault();
      queueCorrection(false);
    } else if (elt === form) {
      event.preventDefault();
      noPreview(form);
    }
  });

  document.addEventListener("htmx:confirm", (event) => {
    const form = vanForm();
    const elt = event.detail && event.detail.elt;
    if (!form || !elt) return;
    const isSave = elt.matches && elt.matches('[data-testid="save"]') && form.contains(elt);
    const isPreview = elt === form;
    if (!isSave && !isPreview) return;
    if (online() && !newVan().length) return; // the ordinary online path (htmx and the server)
    event.preventDefault();
    if (isSave) queueFromForm();
    else showPreview();
  });

  document.addEventListener("htmx:sendError", (event) => {
    const elt = event.detail && event.detail.elt;
    const form = vanForm();
    flaky = true;
    I.update({ online: false });
    const fixing = correctionForm();
    if (fixing && elt && elt.matches && elt.matches('[data-testid="save-correction"]')) {
      queueCorrection(true); // the same key: safe to send again later
    } else if (fixing && elt === fixing) {
      noPreview(fixing);
    } else if (form && elt && elt.matches && elt.matches('[data-testid="save"]') && form.contains(elt)) {
      queueFromForm(); // the same key: safe to send again later
    } else if (form && elt === form) {
      showPreview();
    } else if (elt && elt.closest) {
      unsent(elt.closest("form") || elt);
    }
  });

  /* Other writes (settling up, confirming a ván) need the server: say so where the person tapped. */
  function unsent(near) {
    let note = near.querySelector ? near.querySelector('[data-testid="offline-error"]') : null;
    if (!note) {
      note = document.createElement("p");
      note.className = "error";
      note.setAttribute("role", "alert");
      note.dataset.testid = "offline-error";
      near.prepend(note);
    }
    note.textContent = gettext("Mất mạng: chưa gửi được, chưa ghi gì. Việc này cần có mạng; hãy thử lại khi có mạng.");
  }

  document.addEventListener("htmx:afterSwap", (event) => {
    if (!event.detail || !event.detail.target || event.detail.target.id !== "sitting") {
      if (document.getElementById("sitting")) section();
      return;
    }
    const box = document.getElementById("preview");
    if (box && idleHtml === null) idleHtml = box.innerHTML;
    section();
    reload();
    if (online()) {
      keepPage();
      refreshPack();
    }
  });

  // -- sending ---------------------------------------------------------------------------------

  async function send(item) {
    let response;
    try {
      response = await fetch(itemUrl(item), {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json", "Idempotency-Key": item.key, "X-CSRFToken": csrf() },
        body: JSON.stringify(item.body),
      });
    } catch (e) {
      flaky = true;
      return "stop";
    }
    flaky = false;
    let answer = {};
    try {
      answer = await response.json();
    } catch (e) {
      answer = {};
    }
    if (response.status === 200 || response.status === 201) {
      await O.remove(item.key);
      return "sent";
    }
    if (response.status >= 500 || response.status === 429 || response.status === 408) return "stop";
    item.status = response.status === 409 ? "conflict" : "error";
    item.message = answer.error || interpolate(gettext("Sổ từ chối ván này (mã %(code)s)."), { code: response.status }, true);
    item.server = answer.state || null;
    await O.put(item);
    return "held";
  }

  async function drain() {
    const all = await O.all();
    const changed = new Set();
    for (const pk of [...new Set(all.map((it) => it.sitting))]) {
      for (const item of all.filter((it) => it.sitting === pk)) {
        if (item.status !== "waiting") {
          if (isCorrection(item)) continue; // a correction's conflict does not hold the ván after it
          break; // after a conflict, later ván wait for a person
        }
        const outcome = await send(item);
        if (outcome !== "stop") changed.add(pk);
        if (outcome !== "sent") {
          if (outcome === "stop") return changed;
          if (isCorrection(item)) continue;
          break;
        }
      }
    }
    return changed;
  }

  async function sync() {
    if (syncing || !navigator.onLine) return;
    const waiting = (await O.all()).some((it) => it.status === "waiting");
    if (!waiting) return;
    syncing = true;
    I.update({ sending: true });
    let changed = new Set();
    try {
      changed = navigator.locks ? await navigator.locks.request("sotom-outbox", drain) : await drain();
    } finally {
      syncing = false;
    }
    if (sitting && changed.has(sitting)) {
      const left = (await O.list(sitting)).length;
      notice = left ? "" : gettext("Đã gửi hết các ván chờ: sổ đã ghi.");
    }
    await reload();
    if (sitting && changed.has(sitting)) await refreshSitting();
    // A ván kept while this round was sending: send it now rather than at the next retry.
    if (changed.size && (await O.all()).some((it) => it.status === "waiting")) setTimeout(sync, 0);
  }

  async function refreshSitting() {
    if (!document.getElementById("sitting") || !window.htmx) return;
    await window.htmx.ajax("GET", location.pathname, { target: "#sitting", swap: "outerHTML" });
  }

  // -- a person resolves a conflict --------------------------------------------------------------

  async function renumberFrom(item, start, dropFirst) {
    const later = newVan().filter((it) => it.seq >= item.seq);
    const kept = newVan().filter((it) => it.seq < item.seq && it.record).map((it) => ({ record: it.record }));
    let seq = start;
    for (const it of later) {
      await O.remove(it.key);
      if (dropFirst && it.key === item.key) continue;
      const body = { ...it.body, seq };
      const moved = { ...it, key: uuid(), seq, body, status: "waiting", message: "", server: null, createdAt: it.createdAt };
      if (pack && it.record && seq !== it.seq) {
        // Its provisional points and streak follow the ván now before it.
        try {
          const view = P.preview(pack, it.record, seq, kept);
          Object.assign(moved, { summary: view.summary, points: view.points, streakName: view.streakName });
        } catch (e) {
          /* keep the figures it had: they are marked "tạm tính" and the server recomputes */
        }
      }
      if (it.record) kept.push({ record: it.record });
      await O.add(moved);
      seq += 1;
    }
  }

  /* Take back a ván kept on this phone and not yet sent: it is never written; the ván after it
   * move up one number. Under the outbox's lock, so it cannot be withdrawn while being sent. */
  async function withdraw(key) {
    const item = here.find((it) => it.key === key);
    if (!item) return;
    const ask = isCorrection(item)
      ? interpolate(gettext("Bỏ bản sửa ván %(n)s? Bản sửa này chưa gửi: bỏ đi thì ván %(n)s trên sổ giữ nguyên."), { n: item.seq }, true)
      : interpolate(gettext("Bỏ ván %(n)s? Ván này chưa gửi: bỏ đi thì sổ không ghi ván này."), { n: item.seq }, true);
    if (!window.confirm(ask)) return false;
    const run = async () => {
      const still = await O.get(key);
      if (!still || still.status !== "waiting") {
        notice = interpolate(gettext("Ván %(n)s đã vào sổ trong lúc đó; muốn đổi thì dùng nút Sửa của ván trên sổ."), { n: item.seq }, true);
        return;
      }
      here = await O.list(sitting);
      if (isCorrection(still)) {
        await O.remove(key);
        notice = interpolate(gettext("Đã bỏ bản sửa ván %(n)s (chưa gửi): ván %(n)s trên sổ giữ nguyên."), { n: item.seq }, true);
        return;
      }
      await renumberFrom(still, still.seq, true);
      notice = interpolate(gettext("Đã bỏ ván %(n)s (chưa gửi, không ghi vào sổ)."), { n: item.seq }, true);
    };
    await (navigator.locks ? navigator.locks.request("sotom-outbox", run) : run());
    return true;
  }

  async function onOutboxClick(event) {
    const button = event.target.closest("button[data-action]");
    if (!button) return;
    const item = here.find((it) => it.key === button.dataset.key);
    if (!item) return;
    button.disabled = true;
    if (button.dataset.action === "withdraw") {
      if (!(await withdraw(item.key))) {
        button.disabled = false;
        return;
      }
      const form = vanForm();
      await reload();
      if (form) setNumber(form, nextSeq());
      return;
    }
    const next = item.server && item.server.next_seq;
    if (button.dataset.action === "renumber" && next) {
      await renumberFrom(item, next, false);
      notice = interpolate(gettext("Ván giữ trên máy được đánh số lại từ ván %(n)s."), { n: next }, true);
    } else if (button.dataset.action === "discard" && isCorrection(item)) {
      await O.remove(item.key);
      notice = interpolate(gettext("Đã bỏ bản sửa ván %(n)s (không ghi vào sổ)."), { n: item.seq }, true);
    } else if (button.dataset.action === "discard") {
      await renumberFrom(item, next || item.seq, true);
      notice = interpolate(gettext("Đã bỏ ván %(n)s (không ghi vào sổ)."), { n: item.seq }, true);
    } else if (button.dataset.action === "retry") {
      await O.put({ ...item, status: "waiting", message: "" });
    }
    await reload();
    await refreshSitting();
    sync();
  }

  // -- the page for uncached pages -------------------------------------------------------------

  async function listKept() {
    const list = document.getElementById("offline-sittings");
    if (!list) return;
    const packs = await O.packs();
    const all = await O.all();
    list.innerHTML = packs.length
      ? packs.map((p) => {
        const n = all.filter((it) => it.sitting === p.sitting).length;
        return '<li><a href="' + cfg.sittingUrl.replace(/\/0\/$/, "/" + p.sitting + "/") + '">' + P.esc(p.title) + "</a> · " +
          P.esc(p.game_name) + (n ? " · " + P.esc(interpolate(gettext("%(n)s ván chờ gửi"), { n }, true)) : "") + "</li>";
      }).join("")
      : '<li class="help">' + P.esc(gettext("Máy này chưa giữ canh bài nào.")) + "</li>";
  }

  // -- start -------------------------------------------------------------------------------------

  async function start() {
    const box = document.getElementById("preview");
    idleHtml = box ? box.innerHTML : null;
    if (sitting) {
      pack = await O.getPack(sitting);
    }
    await reload();
    register();
    await refreshPack();
    await reload();
    listKept();
    sync();
    window.addEventListener("online", () => {
      flaky = false;
      reload();
      keepPage();
      refreshPack();
      sync();
    });
    window.addEventListener("offline", () => reload());
    setInterval(() => {
      if (navigator.onLine) sync();
    }, RETRY_MS);
  }

  window.SoTomOffline = { sync, reload, queueFromForm, showPreview };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
