/* Cước chips that can no longer be combined with those chosen grey out and say why on tap.
 *
 * The table is the engine's (scoring/engine/conflicts.py: every smallest set of cước no hand of the
 * game could hold, with the reason in the page's language), shipped in the page as JSON in the
 * element named by the group's data-conflicts; nothing is derived here. A chip is blocked when,
 * with it, the chosen chips would contain one of those sets. Blocked chips stay focusable:
 * aria-disabled="true", their reason in the element aria-describedby names, and a tap (or Space)
 * shows the reason in the group's status line instead of choosing the chip.
 *
 * window.SoTomChips = {blocked, refresh}
 */
(function () {
  "use strict";

  function table(group) {
    const node = document.getElementById(group.dataset.conflicts || "");
    if (!node) return [];
    try {
      return JSON.parse(node.textContent).conflicts || [];
    } catch (e) {
      return [];
    }
  }

  /* Map slug -> reason of every chip not in ``chosen`` that would complete a conflict. */
  function blocked(chosen, conflicts) {
    const have = new Set(chosen);
    const out = new Map();
    for (const conflict of conflicts) {
      const missing = conflict.cuoc.filter((slug) => !have.has(slug));
      if (missing.length === 1 && !out.has(missing[0])) out.set(missing[0], conflict.why);
    }
    return out;
  }

  function inputs(group) {
    return Array.from(group.querySelectorAll('input[type="checkbox"]'));
  }

  function reasonLine(group) {
    return group.parentElement.querySelector('[data-chip-reason="' + group.dataset.chipGroup + '"]');
  }

  function refresh(group) {
    const boxes = inputs(group);
    const out = blocked(boxes.filter((b) => b.checked).map((b) => b.value), table(group));
    for (const box of boxes) {
      const why = box.checked ? "" : out.get(box.value) || "";
      const chip = box.closest(".chip");
      if (chip) chip.classList.toggle("blocked", Boolean(why));
      if (why) box.setAttribute("aria-disabled", "true");
      else box.removeAttribute("aria-disabled");
      const said = document.getElementById(box.getAttribute("aria-describedby") || "");
      if (said) said.textContent = why;
    }
    const line = reasonLine(group);
    if (line && line.dataset.for && !out.has(line.dataset.for)) {
      line.textContent = "";
      delete line.dataset.for;
    }
  }

  /* The reason last shown (group, chip) until a chip is chosen: a redraw of the form that was on
   * its way when the blocked chip was tapped shows it again instead of wiping it. */
  let shown = null;

  function explain(group, box) {
    const said = document.getElementById(box.getAttribute("aria-describedby") || "");
    const line = reasonLine(group);
    if (line && said) {
      line.textContent = said.textContent;
      line.dataset.for = box.value;
      shown = { group: group.dataset.chipGroup, slug: box.value };
    }
  }

  function explainAgain(group) {
    if (!shown || group.dataset.chipGroup !== shown.group) return;
    const box = inputs(group).find((b) => b.value === shown.slug);
    if (box && box.getAttribute("aria-disabled") === "true") explain(group, box);
  }

  /* The listeners sit on the document, so a group htmx has just swapped in answers a tap or a key
   * at once, before htmx settles it and fires htmx:load (which only refreshes its state). */
  function groupOf(node) {
    return node && node.closest ? node.closest(".chips[data-conflicts]") : null;
  }

  function refreshAll(root) {
    const groups = Array.from(root.querySelectorAll(".chips[data-conflicts]"));
    if (root.matches && root.matches(".chips[data-conflicts]")) groups.push(root);
    groups.forEach((group) => {
      refresh(group);
      explainAgain(group);
    });
  }

  document.addEventListener("click", (event) => {
    const group = groupOf(event.target);
    const chip = group && event.target.closest(".chip");
    const box = chip && chip.querySelector("input");
    if (box && box.getAttribute("aria-disabled") === "true") {
      event.preventDefault();
      explain(group, box);
    }
  });
  document.addEventListener("keydown", (event) => {
    const box = event.target;
    const group = groupOf(box);
    if (group && event.key === " " && box.getAttribute("aria-disabled") === "true") {
      event.preventDefault();
      explain(group, box);
    }
  });
  document.addEventListener("change", (event) => {
    const group = groupOf(event.target);
    if (!group) return;
    shown = null;
    refresh(group);
  });
  document.addEventListener("DOMContentLoaded", () => refreshAll(document));
  document.addEventListener("htmx:load", (event) => refreshAll(event.target));
  // a form reset (a ván kept offline) unticks chips without a change event
  document.addEventListener("reset", (event) => {
    setTimeout(() => event.target.querySelectorAll(".chips[data-conflicts]").forEach(refresh));
  }, true);

  window.SoTomChips = { blocked, refresh };
})();
