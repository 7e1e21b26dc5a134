/* The card picker (templates/scoring/_card_picker.html).
 *
 * A grid of the game's cards by name: tapping a card adds one copy to the hand (at most
 * data-max of a kind), tapping a card of the hand below takes one out. The text field named by
 * data-input keeps the hand as codes ("7v 3m cc"): it is what the form posts, so the API's
 * notation and pages without JavaScript still work, and typing codes there updates the grid.
 * After each change the field fires "change", so htmx forms (the ván preview, Kiểm bài) follow.
 * Events are delegated from the document: pages swapped in by htmx need no set-up.
 */
(function () {
  "use strict";

  function fieldOf(picker) {
    return document.getElementById(picker.dataset.input);
  }

  function kinds(picker) {
    return Array.prototype.slice.call(picker.querySelectorAll("[data-card]"));
  }

  function tokens(field) {
    return field.value.replace(/,/g, " ").trim().split(/\s+/).filter(Boolean);
  }

  /* The hand as codes in deck order; tokens that are no code of this deck stay, after them. */
  function readHand(picker, field) {
    var order = kinds(picker).map(function (b) { return b.dataset.card; });
    var known = [];
    var other = [];
    tokens(field).forEach(function (t) {
      var code = t.toLowerCase();
      if (order.indexOf(code) >= 0) { known.push(code); } else { other.push(t); }
    });
    known.sort(function (a, b) { return order.indexOf(a) - order.indexOf(b); });
    return { known: known, other: other };
  }

  function count(list, code) {
    return list.filter(function (c) { return c === code; }).length;
  }

  function nameOf(picker, code) {
    var button = picker.querySelector('[data-card="' + code + '"]');
    return button ? button.dataset.name : code;
  }

  /* Show the hand on the grid: counts, pressed state, names of the hand's cards. */
  function render(picker, hand) {
    var max = parseInt(picker.dataset.max || "4", 10);
    kinds(picker).forEach(function (button) {
      var n = count(hand.known, button.dataset.card);
      var badge = button.querySelector(".card-count");
      badge.textContent = String(n);
      badge.hidden = n === 0;
      button.classList.toggle("picked", n > 0);
      button.setAttribute("aria-pressed", n > 0 ? "true" : "false");
      if (n >= max || button.dataset.taken) { button.setAttribute("aria-disabled", "true"); } else { button.removeAttribute("aria-disabled"); }
    });
    var list = picker.querySelector("[data-picked]");
    var label = picker.dataset.removeLabel || "";
    list.textContent = "";
    hand.known.forEach(function (code) {
      var chip = document.createElement("button");
      chip.type = "button";
      chip.className = "mini";
      chip.dataset.remove = code;
      chip.textContent = nameOf(picker, code);
      chip.setAttribute("aria-label", label + ": " + chip.textContent);
      list.appendChild(chip);
    });
  }

  function write(picker, field, hand) {
    field.value = hand.known.concat(hand.other).join(" ");
    render(picker, hand);
    field.dispatchEvent(new Event("change", { bubbles: true }));
  }

  document.addEventListener("click", function (event) {
    var target = event.target.closest("[data-card-picker] [data-card], [data-card-picker] [data-remove]");
    if (!target) { return; }
    var picker = target.closest("[data-card-picker]");
    var field = fieldOf(picker);
    if (!field) { return; }
    event.preventDefault(); // Kiểm bài's buttons post add=/remove= only when there is no JavaScript
    var hand = readHand(picker, field);
    if (target.dataset.card) {
      var code = target.dataset.card;
      if (count(hand.known, code) >= parseInt(picker.dataset.max || "4", 10) || target.dataset.taken) { return; }
      hand.known.push(code);
      var order = kinds(picker).map(function (b) { return b.dataset.card; });
      hand.known.sort(function (a, b) { return order.indexOf(a) - order.indexOf(b); });
      write(picker, field, hand);
    } else {
      var removed = hand.known.indexOf(target.dataset.remove);
      if (removed >= 0) { hand.known.splice(removed, 1); }
      write(picker, field, hand);
      var list = picker.querySelector("[data-picked]");
      var next = list.querySelector("button") || picker.querySelector("[data-card]");
      if (next) { next.focus(); } // the tapped chip is gone: keep the keyboard in the picker
    }
  });

  /* Without JavaScript Kiểm bài's cards post add=/remove= themselves; here they are plain buttons
   * (htmx would send the last submit button clicked along with the field, adding a card twice). */
  function plain(root) {
    (root || document).querySelectorAll("[data-card-picker] button[type=submit]").forEach(function (b) {
      b.type = "button";
      b.removeAttribute("name");
    });
  }
  plain(document);
  document.addEventListener("htmx:load", function (event) { plain(event.target); });

  /* A block marked data-no-autosubmit (the calculator's "Xếp hạng theo quân") is sent by its own
   * button: its changes never reach the htmx form around it (stopped at the document, before the
   * form's listener; an htmx trigger filter would need eval, which the CSP refuses). */
  document.addEventListener("change", function (event) {
    if (event.target.closest && event.target.closest("[data-no-autosubmit]")) { event.stopPropagation(); }
  }, true);

  /* Codes typed in the field show on the grid as they are typed. */
  document.addEventListener("input", function (event) {
    var field = event.target;
    if (!field.id) { return; }
    document.querySelectorAll('[data-card-picker][data-input="' + field.id + '"]').forEach(function (picker) {
      render(picker, readHand(picker, field));
    });
  });
})();
