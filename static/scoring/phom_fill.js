/* Phỏm: rank a ván from the cards on the ván form.
 *
 * The "Xếp hạng theo quân" block of templates/scoring/sitting_van_fields.html holds one text field
 * per player (card codes such as "kc 10t ab", in laying-down order = the order listed; they carry
 * no name, so the ván form never posts them). The button posts them to the kiểm bài API
 * (data-url: POST /api/v1/check-hand, {"game": data-game, "players": [...]}, the rules the preset
 * data-preset under the sitting's ù khan rule) and fills the placings
 * (rank_1 …) or ticks the ù winner, then fires "change" so the form's preview follows.
 */
(function () {
  "use strict";

  function show(block, text, isError) {
    var out = block.querySelector("[data-phom-fill-result]");
    out.textContent = text;
    out.classList.toggle("error", !!isError);
    if (isError) { out.setAttribute("role", "alert"); } else { out.removeAttribute("role"); }
  }

  function fill(block, answer) {
    var form = block.closest("form");
    if (answer.winner) {
      form.querySelectorAll('input[name="winner"]').forEach(function (radio) {
        if (radio.value === answer.winner) { radio.checked = true; radio.dispatchEvent(new Event("change", { bubbles: true })); }
      });
    } else {
      var none = form.querySelector('[data-section="ranks"] input[name="winner"][value=""]');
      if (none) { none.checked = true; }
      answer.ranks.forEach(function (name, i) {
        var select = form.querySelector('select[name="rank_' + (i + 1) + '"]');
        if (select) { select.value = name; }
      });
      var first = form.querySelector('select[name="rank_1"]');
      if (first) { first.dispatchEvent(new Event("change", { bubbles: true })); }
    }
    show(block, answer.message, false);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-phom-fill-button]");
    if (!button) { return; }
    event.preventDefault();
    var block = button.closest("[data-phom-fill]");
    var players = Array.prototype.map.call(block.querySelectorAll("[data-phom-hand]"), function (field) {
      return { name: field.dataset.name, hand: field.value };
    });
    button.disabled = true;
    fetch(block.dataset.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Accept-Language": document.documentElement.lang || "vi" },
      body: JSON.stringify({
        game: block.dataset.game,
        players: players,
        rules: { preset: block.dataset.preset, phom_u_khan: block.dataset.uKhan !== "false" },
      }),
    })
      .then(function (response) {
        return response.json().then(function (body) { return { ok: response.ok, body: body }; });
      })
      .then(function (result) {
        if (result.ok) { fill(block, result.body); } else { show(block, result.body.error || "", true); }
      })
      .catch(function () { show(block, block.dataset.offline || "", true); })
      .then(function () { button.disabled = false; });
  });
})();
