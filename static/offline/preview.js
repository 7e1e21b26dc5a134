/* Offline ván: the record the form makes (the same as scoring/views/sitting/form.py VanForm.record,
 * so a ván first tried online and then queued carries an identical body under the same key), and
 * the provisional preview computed on the phone from the sitting's offline pack.
 *
 * The preview covers the common Tổ Tôm case (RULES.md §6): points = main value of the highest
 * cước + D × extra dịch of the others, the streak (Thông, N-Khôi) from the history plus the ván
 * waiting to send, and, in quăng with no gà pot, every other player paying the winner. Every
 * number shown is marked "tạm tính": the server recomputes everything when the ván is sent.
 *
 * window.SoTomPreview = {record, isEmpty, describe, score, streakAfter, preview, render}
 */
(function () {
  "use strict";

  const GA_ROWS = 3;
  const UNPAID_FAULTS = new Set(["lanh_lang", "u_bao", "xuong_thua"]);

  function one(data, key) {
    const value = data.get(key);
    return typeof value === "string" ? value.trim() : "";
  }

  function many(data, key) {
    return data.getAll(key).map((v) => (typeof v === "string" ? v.trim() : "")).filter(Boolean);
  }

  function positive(text, what) {
    if (!/^[+]?\d+$/.test(text) || Number(text) < 1) {
      throw new Error(interpolate(gettext("%(what)s phải là một số nguyên dương (nhận được '%(text)s')."),
        { what, text }, true));
    }
    return Number(text);
  }

  function put(out, key, value) {
    if (Array.isArray(value) ? value.length : value) out[key] = value;
  }

  /* The engine's ván record from the ván form's FormData (throws Error with a Vietnamese message). */
  function record(data, pack) {
    const hoa = pack.hoa;
    const winner = one(data, "winner");
    if (pack.family === "phom") {
      if (winner && winner !== hoa) {
        const out = { winner };
        put(out, "den", one(data, "den"));
        return out;
      }
      const ranks = pack.names.map((_, i) => one(data, "rank_" + (i + 1))).filter(Boolean);
      return ranks.length ? { ranks } : {};
    }
    const out = {};
    if (winner === hoa) {
      out.result = "hoa";
    } else if (winner) {
      out.winner = winner;
      put(out, "cuoc", many(data, "cuoc"));
      put(out, "declared", many(data, "declared"));
      put(out, "discarder", one(data, "discarder"));
      put(out, "fault", one(data, "fault"));
    }
    put(out, "chiu", many(data, "chiu"));
    const bao = one(data, "bao");
    if (bao) {
      out.bao = bao;
      put(out, "regime", one(data, "regime"));
    }
    const ga = [];
    for (let i = 1; i <= GA_ROWS; i++) {
      const kind = one(data, "ga_kind_" + i);
      const player = one(data, "ga_player_" + i);
      if (!kind || !player) continue;
      const event = { kind, player };
      const count = positive(one(data, "ga_count_" + i) || "1", gettext("Số lần / số quân của gà"));
      if (count !== 1) event.count = count;
      ga.push(event);
    }
    put(out, "ga", ga);
    put(out, "den_lang", many(data, "den_lang"));
    put(out, "dau_ke", one(data, "dau_ke"));
    const stake = one(data, "stake");
    if (stake) out.stake = positive(stake, gettext("Mức cược N (Tài Bàn)"));
    checkCombination(pack, out.cuoc);
    checkCombination(pack, out.declared);
    return out;
  }

  /* The engine's refusal of cước no hand could hold together, looked up in the pack's table (the
   * server's scoring/engine/conflicts.py derives it; nothing is derived here). Throws an Error with
   * the engine's reason, in the page's language. */
  function checkCombination(pack, slugs) {
    const have = new Set(slugs || []);
    for (const conflict of pack.rules.conflicts || []) {
      if (conflict.cuoc.every((slug) => have.has(slug))) throw new Error(conflict.why);
    }
  }

  function isEmpty(data, pack) {
    const ranks = pack.names.map((_, i) => one(data, "rank_" + (i + 1)));
    return !(one(data, "winner") || one(data, "bao") || ranks.some(Boolean));
  }

  function cuocName(pack, slug) {
    const entry = pack.rules.cuoc[slug];
    return entry ? entry.name : slug;
  }

  /* One line, like scoring/views/sitting/context.py describe() for the common keys. */
  function describe(rec, pack) {
    const parts = [];
    if (rec.result === "hoa") parts.push("Hòa");
    if (rec.winner) {
      const names = (rec.cuoc && rec.cuoc.length ? rec.cuoc : [pack.rules.plain ? pack.rules.plain.slug : "suong"])
        .map((s) => (s === "suong" ? "Suông" : cuocName(pack, s)));
      parts.push(rec.winner + " ù: " + (pack.family === "phom" ? "ù" : names.join(", ")));
    }
    if (rec.declared) parts.push("xướng " + rec.declared.map((s) => cuocName(pack, s)).join(", "));
    if (rec.fault) parts.push((pack.faults[rec.fault] || rec.fault).split(" (")[0]);
    if (rec.discarder) parts.push(rec.discarder + " đánh ra quân ù");
    if (rec.bao) parts.push(rec.bao + ": báo");
    (rec.ga || []).forEach((e) => parts.push("gà " + e.kind + ": " + e.player + (e.count ? " ×" + e.count : "")));
    if (rec.chiu) parts.push("chịu: " + rec.chiu.join(", "));
    if (rec.den_lang) parts.push("đền làng: " + rec.den_lang.join(", "));
    if (rec.dau_ke) parts.push("đầu kê: " + rec.dau_ke);
    if (rec.stake) parts.push("mức cược N = " + rec.stake);
    if (rec.ranks) parts.push("xếp hạng: " + rec.ranks.join(" › "));
    if (rec.den) parts.push(rec.den + " đền (cho ăn ba quân)");
    return parts.join(" · ") || "—";
  }

  /* Points of a win: main of the highest cước + D × extra dịch of the others (null: unknown cước). */
  function score(rules, cuoc, streak) {
    const slugs = [...cuoc];
    for (const outer of [...cuoc].sort()) {
      for (const inner of rules.subsumes[outer] || []) {
        const at = slugs.indexOf(inner);
        if (at >= 0) slugs.splice(at, 1);
      }
    }
    let items = [];
    for (const slug of slugs) {
      const value = rules.cuoc[slug];
      if (!value) return null;
      items.push({ slug, name: value.name, main: value.main, dich: value.dich });
    }
    const st = rules.streaks[String(streak)];
    if (st) items.push({ slug: st.slug, name: st.name, main: st.main, dich: st.dich });
    const plain = rules.plain;
    if (!items.length) {
      if (!plain) return null;
      items = [{ slug: plain.slug, name: plain.name, main: plain.main, dich: plain.dich }];
    } else if (items.length > 1 && plain) {
      const rest = items.filter((it) => it.slug !== plain.slug);
      items = rest.length ? rest : items.slice(0, 1);
    }
    const totalDich = items.reduce((sum, it) => sum + it.dich, 0);
    const withMain = (it) => it.main + rules.dich * (totalDich - it.dich);
    const bySlug = (a, b) => (a.slug < b.slug ? -1 : 1);
    // the rule set's choice of main cước (scoring/engine/points.py _breakdown)
    const ranked = rules.main_cuoc === "highest"
      ? [...items].sort((a, b) => b.main - a.main ||
          (rules.main_tie === "most_dich" ? b.dich - a.dich : withMain(b) - withMain(a)) || bySlug(a, b))
      : [...items].sort((a, b) => withMain(b) - withMain(a) || b.main - a.main || bySlug(a, b));
    const main = ranked[0];
    const lines = [{ name: main.name, points: main.main, why: gettext("giá trị chính") }].concat(
      items.filter((it) => it !== main).map((it) => ({
        name: it.name, points: rules.dich * it.dich, why: interpolate(gettext("%(n)s dịch × %(d)s điểm"), { n: it.dich, d: rules.dich }, true),
      }))
    );
    return { points: withMain(main), lines };
  }

  /* Who holds the streak after a ván (RULES.md §8): only valid paid wins extend one. */
  function streakAfter(state, rec, rules) {
    if (rec.winner && !UNPAID_FAULTS.has(rec.fault || "")) {
      const streak = state.holder === rec.winner ? state.streak + 1 : 1;
      return { holder: rec.winner, streak };
    }
    if (rec.winner && rec.fault === "lanh_lang" && !rules.lanh_lang_breaks_streak) return { ...state };
    return { holder: null, streak: 0 };
  }

  function simple(rec) {
    return !(rec.fault || rec.bao || rec.ga || rec.den_lang || rec.declared || rec.stake);
  }

  /* The provisional preview of ``rec`` as ván ``seq`` after the ván waiting to send (``queued``:
   * their records, in order). Returns {seq, summary, points, streak, streakName, transfers,
   * after, note, supported}. */
  function preview(pack, rec, seq, queued) {
    let state = { holder: pack.streak.holder, streak: pack.streak.streak || 0 };
    const bal = { ...pack.balances };
    for (const prior of queued) {
      const step = preview1(pack, prior.record, state, bal);
      state = step.state;
    }
    const shown = preview1(pack, rec, state, bal);
    return { seq, summary: describe(rec, pack), ...shown.view };
  }

  function preview1(pack, rec, state, bal) {
    const view = { points: null, streak: 0, streakName: "", transfers: null, after: null, note: "" };
    const next = streakAfter(state, rec, pack.rules);
    const won = Boolean(rec.winner);
    if (won && pack.preview.points && !UNPAID_FAULTS.has(rec.fault || "")) {
      const streak = state.holder === rec.winner ? state.streak + 1 : 1;
      const scored = score(pack.rules, rec.cuoc || [], streak);
      if (scored) {
        view.points = scored.points;
        view.lines = scored.lines;
        view.streak = streak;
        view.streakName = (pack.rules.streaks[String(streak)] || {}).name || "";
      }
    }
    const canMove = pack.preview.transfers && simple(rec) && (!won || view.points !== null);
    if (canMove) {
      view.transfers = [];
      if (won) {
        const folded = new Set(pack.rules.chiu_pays ? [] : rec.chiu || []);
        for (const name of pack.names) {
          if (name === rec.winner || folded.has(name)) continue;
          view.transfers.push({ from: name, to: rec.winner, amount: view.points });
          bal[name] -= view.points;
          bal[rec.winner] += view.points;
        }
      }
      view.after = pack.names.map((name) => ({ name, balance: bal[name] }));
    } else {
      view.note = gettext("Ván có lỗi, báo, gà hoặc đánh gom: các khoản chuyển sẽ do sổ tính khi gửi.");
      bal.unknown = true;
    }
    if (bal.unknown) view.after = null;
    return { state: next, view };
  }

  function signed(n) {
    return n > 0 ? "+" + n : n < 0 ? "−" + -n : "0";
  }

  function esc(text) {
    const div = document.createElement("div");
    div.textContent = String(text);
    return div.innerHTML;
  }

  /* The preview's HTML (in #preview), every number marked "tạm tính". */
  function render(view) {
    const badge = '<span class="tam-tinh" data-testid="provisional">' + esc(gettext("tạm tính")) + "</span>";
    let html = '<div class="pv pv-offline" data-testid="preview" data-provisional="1">';
    html += '<p class="pv-head">' + esc(interpolate(gettext("Ván %(n)s"), { n: view.seq }, true)) + ": " + esc(view.summary) + "</p>";
    if (view.points !== null && view.points !== undefined) {
      html += '<div class="total"><span data-testid="preview-points">' + view.points + "</span> <small>" + esc(gettext("điểm")) + "</small>";
      if (view.streakName) html += ' <span class="streak-badge" data-testid="preview-streak">' + esc(view.streakName) + "</span>";
      html += " " + badge + "</div>";
    }
    if (view.transfers) {
      html += '<ul class="transfers" data-testid="preview-transfers">';
      html += view.transfers.length
        ? view.transfers.map((t) => "<li><b>" + esc(t.from) + " → " + esc(t.to) + '</b> <span class="amt">' + t.amount + "</span></li>").join("")
        : '<li class="help">' + esc(gettext("Không có khoản chuyển nào.")) + "</li>";
      html += "</ul>";
    }
    if (view.after) {
      html += '<ul class="after">' + view.after.map((a) => "<li><span>" + esc(a.name) + "</span> <small>→ " + signed(a.balance) + "</small></li>").join("") + "</ul>";
    }
    if (view.note) html += '<p class="help">' + esc(view.note) + "</p>";
    html += '<p class="help">' + badge + " " + esc(gettext("Mất mạng: điểm và ù liền do máy này tính trước; sổ tính lại khi gửi.")) + "</p>";
    return html + "</div>";
  }

  window.SoTomPreview = { record, isEmpty, describe, score, streakAfter, preview, render, signed, esc, checkCombination };
})();
