/* The connectivity indicator of the scorekeeper pages: online / offline / ván waiting to send /
 * sending / a conflict to resolve. It sits in the top bar (created here: without JavaScript
 * there is no offline mode to report on).
 *
 * window.SoTomIndicator.update({online, waiting, sending, conflicts})
 */
(function () {
  "use strict";

  let node = null;
  let last = { online: navigator.onLine, waiting: 0, sending: false, conflicts: 0 };

  function ensure() {
    if (node && document.body.contains(node)) return node;
    node = document.createElement("div");
    node.className = "net-indicator";
    node.id = "net-indicator";
    node.setAttribute("role", "status");
    node.setAttribute("aria-live", "polite");
    node.dataset.testid = "net-indicator";
    node.innerHTML = '<span class="net-dot" aria-hidden="true"></span><span class="net-text"></span>';
    const bar = document.querySelector(".topbar") || document.body;
    bar.appendChild(node);
    return node;
  }

  function text(s) {
    const parts = [s.online ? gettext("Có mạng") : gettext("Mất mạng")];
    if (s.sending) parts.push(gettext("đang gửi…"));
    if (s.waiting) parts.push(interpolate(gettext("%(n)s ván chờ gửi"), { n: s.waiting }, true));
    if (s.conflicts) parts.push(interpolate(gettext("%(n)s xung đột cần xem"), { n: s.conflicts }, true));
    return parts.join(" · ");
  }

  function state(s) {
    if (s.conflicts) return "conflict";
    if (!s.online) return "offline";
    if (s.sending) return "sending";
    if (s.waiting) return "waiting";
    return "online";
  }

  function update(changes) {
    last = { ...last, ...(changes || {}) };
    const el = ensure();
    el.dataset.state = state(last);
    el.dataset.online = last.online ? "1" : "0";
    el.dataset.waiting = String(last.waiting);
    el.dataset.conflicts = String(last.conflicts);
    el.querySelector(".net-text").textContent = text(last);
    el.title = last.online
      ? gettext("Có mạng: ván lưu thẳng vào sổ.")
      : gettext("Mất mạng: ván được giữ trên máy này (chờ gửi) và tự gửi khi có mạng lại.");
  }

  window.SoTomIndicator = { update, get: () => ({ ...last }) };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", () => update());
  } else {
    update();
  }
})();
