/* Offline ván: the record the form makes (the same as scoring/views/sitting/form.py VanForm.record,
 * so a ván first tried online and then queued carries an identical body under the same key), and
 * the provisional preview computed on the phone from the sitting's offline pack.
 *
 * The pack (scoring/offline/pack.py) is the one source of truth: the rule set as data (values
 * resolved by the engine, every choice the settlement reads), the engine's state after the ván on
 * the server, and the words of the sitting's page. This file settles a ván from them the way
 * scoring/engine does (points.py score, settlement settle_van: both money modes, gà, báo,
 * faults, hội) and describes it as scoring/views/sitting/context.py describe() does;
 * tests/offline/test_preview_conformance.py runs both over the golden cases and generated ván
 * and holds them to the same points, transfers and words. What it does not model (Phỏm, a ván
 * the engine would refuse) it says it cannot compute rather than show a number. Every number
 * shown is marked "tạm tính": the server recomputes everything when the ván is sent.
 *
 * window.SoTomPreview = {record, isEmpty, describe, score, settle, preview, render, ...}
 */
(function () {
  "use strict";

  const GA_ROWS = 3;
  // the pack shape this file reads (scoring/offline/pack.py PACK_VERSION).
  const PACK_VERSION = 3;

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

  /* What sets the pack's game family apart (scoring/engine/games.py FamilyTraits); a pack kept
   * from before version 3 has none, and is read as a cước game's. */
  function traitsOf(pack) {
    return (pack.rules && pack.rules.traits) || {};
  }

  /* The engine's ván record from the ván form's FormData (throws Error with a Vietnamese message). */
  function record(data, pack) {
    const hoa = pack.hoa;
    const winner = one(data, "winner");
    if (traitsOf(pack).ranked) {
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

  /* ---- words: scoring/views/sitting/context.py describe(), with the pack's labels ---- */

  function label(table, key) {
    return table && Object.prototype.hasOwnProperty.call(table, key) ? table[key] : key;
  }

  function cuocNames(pack, slugs) {
    return slugs.map((s) => label((pack.labels || {}).cuoc, s));
  }

  /* One line, as the sitting's page writes the ván (the same words, from the pack's labels). */
  function describe(rec, pack) {
    const parts = [];
    const L = pack.labels || { cuoc: {}, ga: {}, faults: {}, regimes: {} }; // a pack kept from before version 2
    if (rec.result === "hoa") parts.push(gettext("Hòa"));
    if (rec.winner) {
      const names = traitsOf(pack).ranked ? [gettext("ù")]
        : cuocNames(pack, rec.cuoc && rec.cuoc.length ? rec.cuoc : [pack.rules.plain_slug || "suong"]);
      parts.push(interpolate(gettext("%(winner)s ù: %(cuoc)s"), { winner: rec.winner, cuoc: names.join(", ") }, true));
    }
    if (rec.declared && rec.declared.length) parts.push(interpolate(gettext("xướng %(cuoc)s"), { cuoc: cuocNames(pack, rec.declared).join(", ") }, true));
    if (rec.fault) parts.push(label(L.faults, rec.fault));
    if (rec.discarder) parts.push(interpolate(gettext("%(player)s đánh ra quân ù"), { player: rec.discarder }, true));
    if (rec.bao) {
      const regime = L.regimes[rec.regime || pack.rules.bao_regime] || gettext("báo");
      parts.push(rec.bao + ": " + regime.toLowerCase());
    }
    for (const e of rec.ga || []) {
      const count = e.count !== undefined && e.count !== 1 ? " ×" + e.count : "";
      parts.push(interpolate(gettext("gà %(kind)s: %(player)s"), { kind: label(L.ga, e.kind), player: e.player }, true) + count);
    }
    if (rec.chiu && rec.chiu.length) parts.push(interpolate(gettext("chịu: %(players)s"), { players: rec.chiu.join(", ") }, true));
    if (rec.den_lang && rec.den_lang.length) parts.push(interpolate(gettext("đền làng: %(players)s"), { players: rec.den_lang.join(", ") }, true));
    if (rec.dau_ke) parts.push(interpolate(gettext("đầu kê: %(player)s"), { player: rec.dau_ke }, true));
    if (rec.stake) parts.push(interpolate(gettext("mức cược N = %(n)s"), { n: rec.stake }, true));
    if (rec.ranks && rec.ranks.length) parts.push(interpolate(gettext("xếp hạng: %(ranks)s"), { ranks: rec.ranks.join(" › ") }, true));
    if (rec.den) parts.push(interpolate(gettext("%(player)s đền (cho ăn ba quân)"), { player: rec.den }, true));
    return parts.join(" · ") || "—";
  }

  /* ---- points: scoring/engine/points.py score(), from the pack's values ---- */

  /* What the preview cannot compute: it says so (view.unsupported) instead of showing a number. */
  class Unsupported extends Error {
    constructor(reason) {
      super(reason);
      this.reason = reason;
    }
  }

  function streakKind(rules, n) {
    if (n < 2 || !rules.has_streaks) return null;
    return n >= 3 && rules.khoi ? "khoi" : "thong";
  }

  function streakEntry(rules, n) {
    const entry = rules.streaks[String(n)];
    if (!entry) throw new Unsupported("streak");
    return entry;
  }

  /* (main, dich, name) of a cước under the stake in force (Tài Bàn: boi × N). */
  function valueOf(rules, slug, stake) {
    const v = rules.cuoc[slug] || (slug === rules.plain_slug && rules.plain) || (slug === "thong" && rules.thong);
    if (!v) throw new Unsupported("cuoc");
    if (rules.traits.stake_per_hoi && v.boi && stake && stake !== rules.stake) {
      return { name: v.name, main: v.boi * stake, dich: v.dich };
    }
    return v;
  }

  function tiengMatches(tieng, cuoc) {
    const present = new Set(cuoc);
    return tieng.some((entry) => entry.split("+").every((s) => present.has(s)));
  }

  function breakdown(rules, cuoc, streak, stake) {
    const kind = streakKind(rules, streak);
    let slugs = [...cuoc];
    if (slugs.includes("khoi") && kind !== "khoi") throw new Unsupported("invalid");
    slugs = kind === null
      ? slugs.filter((s, i) => s !== "thong" || !slugs.slice(0, i).includes("thong"))
      : slugs.filter((s) => s !== "thong" && s !== "khoi");
    const remaining = [...slugs];
    const subsumed = [];
    for (const outer of [...slugs].sort()) {
      for (const inner of rules.subsumes[outer] || []) {
        const at = remaining.indexOf(inner);
        if (at >= 0) {
          remaining.splice(at, 1);
          subsumed.push([inner, outer]);
        }
      }
    }
    slugs = remaining;
    for (const conflict of rules.conflicts || []) {
      if (conflict.cuoc.every((s) => slugs.includes(s))) throw new Unsupported("invalid");
    }
    if (rules.tom_leo_once) {
      slugs = slugs.filter((s, i) => (s !== "tom" && s !== "leo") || !slugs.slice(0, i).includes(s));
    }
    let items = slugs.map((slug) => ({ slug, ...pick(valueOf(rules, slug, stake)) }));
    if (kind !== null) {
      const st = streakEntry(rules, streak);
      items.push({ slug: kind, name: st.name, main: st.main, dich: st.dich });
    }
    const plain = rules.plain_slug;
    if (!items.length) {
      items = [{ slug: plain, ...pick(valueOf(rules, plain, stake)) }];
    } else if (items.length > 1) {
      const rest = items.filter((it) => it.slug !== plain);
      items = rest.length ? rest : items.slice(0, 1);
    }
    const D = rules.dich;
    const totalDich = items.reduce((sum, it) => sum + it.dich, 0);
    const withMain = (it) => it.main + D * (totalDich - it.dich);
    const rank = rules.main_cuoc === "most_points"
      ? (it) => [-withMain(it), -it.main, it.slug]
      : (it) => [-it.main, rules.main_tie === "most_dich" ? -it.dich : -withMain(it), it.slug];
    const main = items.reduce((best, it) => (compare(rank(it), rank(best)) < 0 ? it : best));
    let lines = [{ cuoc: main.slug, name: main.name, points: main.main, dich: null, main: true }];
    lines = lines.concat(items.filter((it) => it !== main).map((it) => (
      { cuoc: it.slug, name: it.name, points: D * it.dich, dich: it.dich })));
    for (const [inner, outer] of subsumed) {
      lines.push({ cuoc: inner, name: (rules.cuoc[inner] || { name: inner }).name, points: 0, dich: 0 });
    }
    if (rules.traits.ga_as_cuoc && rules.chan_ga_cuoc.length) {
      const count = [...new Set(rules.chan_ga_cuoc)].filter((e) => e.split("+").every((p) => slugs.includes(p))).length;
      if (count) lines.push({ cuoc: "ga", name: gettext("Gà"), points: count * rules.chan_ga_points, dich: null, count });
    }
    const head = lines[0];
    const tail = lines.slice(1).sort((a, b) => b.points - a.points || (a.cuoc < b.cuoc ? -1 : a.cuoc > b.cuoc ? 1 : 0));
    lines = [head, ...tail];
    return { points: lines.reduce((sum, l) => sum + l.points, 0), main: main.slug, lines };
  }

  function pick(v) {
    return { name: v.name, main: v.main, dich: v.dich };
  }

  function compare(a, b) {
    for (let i = 0; i < a.length; i++) {
      if (a[i] < b[i]) return -1;
      if (a[i] > b[i]) return 1;
    }
    return 0;
  }

  /* Points of a win of these cước as the ``streak``-th in a row: {points, lines} (null: the
   * preview cannot compute it). */
  function score(rules, cuoc, streak, stake) {
    try {
      return breakdown(rules, cuoc, streak, stake);
    } catch (e) {
      if (e instanceof Unsupported) return null;
      throw e;
    }
  }

  /* ---- money: scoring/engine/settlement settle_van(), from the pack's rule set and state ---- */

  const POOL = "pool";
  const POT = "ga_trong";
  const PAID_BY_OTHERS = new Set(["nhai", "chiu_noc"]);

  /* Settle one ván after ``state`` (the engine's state, as the pack carries it): {points, streak,
   * transfers: [{from, to, amount}], breakdown, state}. Throws Unsupported for what it does not model. */
  function settle(pack, state, rec) {
    const rules = pack.rules;
    const traits = rules.traits;
    const gom = pack.mode === "gom";
    if (!traits) throw new Unsupported("pack"); // a pack kept from before version 3
    if (traits.ranked) throw new Unsupported("phom");
    validate(rec, state, rules);
    const players = state.players;
    const number = state.van_count + 1;
    const acc = { [POOL]: state.pool, [POT]: state.ga_trong };
    players.forEach((p, i) => { acc[p] = state.balances[i]; });
    const transfers = [];
    let poolPaidOut = false;
    const pay = (from, to, amount) => {
      if (amount <= 0) return 0;
      if ((from === POOL || from === POT) && acc[from] < amount) throw new Unsupported("invariant");
      acc[from] -= amount;
      acc[to] += amount;
      transfers.push({ from, to, amount });
      return amount;
    };
    const takeFromPool = (to, wanted) => {
      const taken = Math.min(wanted, acc[POOL]);
      if (taken > 0) poolPaidOut = true;
      return pay(POOL, to, taken);
    };
    const contribute = (kind, payer, units = 1) => pay(payer, POT, (rules.ga_units[kind] || 0) * units);
    const need = (value) => {
      if (value === null || value === undefined) throw new Unsupported("rules");
      return value;
    };
    const payDenLang = (faulter, amount, gaKind = "den_lang") => {
      const others = players.filter((p) => p !== faulter);
      if (gom) pay(faulter, POOL, amount * others.length);
      else for (const other of others) pay(faulter, other, amount);
      contribute(gaKind, faulter);
    };

    // a hội opens: the gom into the pool, gà đầu hội
    const hoi = state.hoi.map((h) => ({ ...h }));
    if (!hoi.length || (gom && !state.hoi_open)) {
      if (gom) for (const p of players) pay(p, POOL, need(rules.gom));
      if ((gom || rules.ga_dau_hoi_quang) && traits.ga_dau_hoi) for (const p of players) contribute("dau_hoi", p);
      hoi.push({ index: hoi.length + 1, opened_before_van: number, closed_after_van: null });
    }
    const stake = rec.stake || state.stake;
    const denLang = () => {
      if (traits.fixed_fine || rules.den_lang_fixed || !stake || stake === rules.stake) return need(rules.den_lang);
      return valueOf(rules, rules.plain_slug, stake).main;
    };
    const scoreAt = (cuoc, streak) => breakdown(rules, cuoc, Math.max(streak, 1), stake);

    // gà đầu ván, then the gà events recorded
    for (const p of players) contribute("dau_van", p);
    const chiu = rec.chiu || [];
    for (const e of rec.ga || []) {
      if (!Object.prototype.hasOwnProperty.call(rules.ga_units, e.kind)) throw new Unsupported("invalid");
      let units = e.count === undefined ? 1 : e.count;
      if (e.chi_chi && traits.chi_chi_multiplies_ga) units *= rules.chi_chi_factor;
      if (PAID_BY_OTHERS.has(e.kind)) {
        for (const o of players) if (o !== e.player && !chiu.includes(o)) contribute(e.kind, o, units);
      } else {
        contribute(e.kind, e.player, units);
      }
    }

    // the outcome: báo, đền làng, the win
    const regime = rec.bao ? rec.regime || rules.bao_regime : null;
    const sitter = regime === "ngoi_day" ? rec.bao : null;
    if (rec.bao && regime === "den_lang") payDenLang(rec.bao, denLang());
    for (const f of rec.den_lang || []) payDenLang(f, denLang());
    let win = null;
    if (rec.winner) win = settleWin();

    function settleWin() {
      const winner = rec.winner;
      const streak = state.streak_holder === winner ? state.streak + 1 : 1;
      const fault = effectiveFault(traits, rec);
      const declared = rec.declared === undefined ? null : rec.declared;
      const paidCuoc = declared !== null && fault !== "xuong_thua" ? declared : rec.cuoc || [];
      const bd = scoreAt(paidCuoc, streak);
      if (rec.discarder) contribute("danh_u", rec.discarder);
      if (fault === "lanh_lang") {
        contribute("u_lanh_lang", winner);
        return { points: bd.points, streak, paid: false, lanhLang: true, bd };
      }
      if (fault === "u_bao" || fault === "xuong_thua") {
        const amount = fault === "xuong_thua" && traits.xuong_thua_pays_declared ? scoreAt(declared, streak).points : denLang();
        payDenLang(winner, amount, fault === "u_bao" ? "u_bao" : "den_lang");
        return { points: amount, streak, paid: false, bd };
      }
      if (fault === "den_chong") payDenLang(rec.discarder, denLang());
      if (state.cheo_do[players.indexOf(winner)] > 0) return { points: bd.points, streak, paid: false, debtCleared: true, bd };
      const substitute = fault === "danh_u_den" || fault === "den_chong" ? rec.discarder : sitter;
      const endsHoi = payWin(winner, bd, paidCuoc, streak, substitute);
      if (streakKind(rules, streak) !== null && traits.ga_thong) {
        const seat = players.indexOf(winner);
        contribute("thong", players[(seat - 1 + players.length) % players.length], streakEntry(rules, streak).dich);
      }
      if (tiengMatches(rules.pot_tieng, paidCuoc) && acc[POT] > 0) pay(POT, winner, acc[POT]);
      return { points: bd.points, streak, paid: true, endsHoi, bd };
    }

    function payWin(winner, bd, paidCuoc, streak, substitute) {
      const payers = players.filter((p) => p !== winner && (rules.chiu_pays || !chiu.includes(p)));
      if (gom && !substitute && paidCuoc.includes("kinh_tu_co") && rules.kinh_tu_co_het_hoi) {
        if (rules.gom_topup_below !== null && acc[POOL] < rules.gom_topup_below) {
          for (const p of payers) pay(p, winner, rules.gom_topup_amount);
        }
        takeFromPool(winner, acc[POOL]);
        return true;
      }
      const dues = [bd.points, gaNgoai(bd, paidCuoc, streak)];
      for (const due of dues) {
        if (due <= 0) continue;
        if (substitute) pay(substitute, winner, gom ? due : due * payers.length);
        else if (gom) takeFromPool(winner, due);
        else for (const p of payers) pay(p, winner, due);
      }
      return false;
    }

    function gaNgoai(bd, paidCuoc, streak) {
      if (rules.ga_ngoai === "none" || !tiengMatches(rules.ga_ngoai_tieng, paidCuoc)) return 0;
      const dich = bd.lines.filter((l) => l.cuoc !== "ga").map((l) => {
        if (l.dich !== null) return l.dich;
        if (l.cuoc === "thong" || l.cuoc === "khoi") return streakEntry(rules, Math.max(streak, 2)).dich;
        return valueOf(rules, l.cuoc, stake).dich;
      });
      const total = rules.ga_ngoai === "don" ? Math.max(0, ...dich) : dich.reduce((a, b) => a + b, 0);
      return total * rules.dich;
    }

    // chèo đò debts, the hội closing, the next state
    const debts = [...state.cheo_do];
    if (win && win.debtCleared) debts[players.indexOf(rec.winner)] -= 1;
    if (rec.bao && regime === "cheo_do") debts[players.indexOf(rec.bao)] += 1;
    const closes = Boolean(win && win.endsHoi) || (gom && poolPaidOut && acc[POOL] === 0);
    if (closes) {
      players.forEach((p, i) => {
        for (let k = 0; k < debts[i]; k++) payDenLang(p, denLang());
        debts[i] = 0;
      });
      hoi[hoi.length - 1].closed_after_van = number;
    }
    let holder = null;
    let streak = 0;
    if (win && win.paid) [holder, streak] = [rec.winner, win.streak];
    else if (win && win.lanhLang && !rules.lanh_lang_breaks_streak) [holder, streak] = [state.streak_holder, state.streak];
    return {
      points: win ? win.points : 0,
      streak: win ? win.streak : 0,
      paid: Boolean(win && win.paid),
      breakdown: win ? win.bd : null,
      transfers,
      state: {
        ...state, stake, balances: players.map((p) => acc[p]), pool: acc[POOL], ga_trong: acc[POT],
        streak_holder: holder, streak, hoi, hoi_open: !closes, cheo_do: debts, van_count: number,
      },
    };
  }

  function counts(list) {
    const out = new Map();
    for (const x of list) out.set(x, (out.get(x) || 0) + 1);
    return out;
  }

  /* The fault of a win, counting a declaration that differs from the hand (xướng sai). */
  function effectiveFault(traits, rec) {
    const declared = rec.declared;
    if (declared === undefined || rec.fault === "u_bao" || rec.fault === "xuong_thua") return rec.fault || null;
    const have = counts(rec.cuoc || []);
    const want = counts(declared);
    let mismatch;
    if (traits.declaration_exact) {
      mismatch = have.size !== want.size || [...want].some(([k, n]) => have.get(k) !== n);
    } else {
      mismatch = [...want].some(([k, n]) => (have.get(k) || 0) < n);
    }
    return mismatch ? "xuong_thua" : rec.fault || null;
  }

  /* What the engine refuses (scoring/engine/settlement/validate.py): not previewed, the server
   * names the error when the ván is sent. */
  function validate(rec, state, rules) {
    const chiu = rec.chiu || [];
    const bad = () => { throw new Unsupported("invalid"); };
    if (rec.ranks || rec.den) bad();
    if (rec.winner && rec.result === "hoa") bad();
    if (!rec.winner && !rec.result && !rec.bao) bad();
    if (!rec.winner && (rec.cuoc || rec.declared || rec.discarder || rec.fault)) bad();
    if (rec.regime && !rec.bao) bad();
    for (const key of ["winner", "discarder", "bao"]) if (rec[key] && chiu.includes(rec[key])) bad();
    if (rec.discarder && rec.discarder === rec.winner) bad();
    if (rec.bao && rec.bao === rec.winner) bad();
    if ((rec.fault === "danh_u_den" || rec.fault === "den_chong") && !rec.discarder) bad();
    if (rec.fault === "xuong_thua" && rec.declared === undefined) bad();
    const substituted = rec.fault === "danh_u_den" || rec.fault === "den_chong";
    if (rec.bao && (rec.regime || rules.bao_regime) === "ngoi_day" && rec.winner && substituted) bad();
    for (const key of ["winner", "discarder", "bao", "dau_ke"]) if (rec[key] && !state.players.includes(rec[key])) bad();
    for (const key of ["chiu", "den_lang"]) for (const p of rec[key] || []) if (!state.players.includes(p)) bad();
    for (const e of rec.ga || []) if (!state.players.includes(e.player)) bad();
    if (rec.stake !== undefined) bad(); // a Tài Bàn stake change: the server checks when it may
  }

  /* The provisional preview of ``rec`` as ván ``seq`` after the ván waiting to send (``queued``:
   * their records, in order). Returns {seq, summary, points, lines, streak, streakName,
   * transfers, after, note, unsupported}: ``unsupported`` names what the phone could not compute
   * (then no number is shown for it). */
  function preview(pack, rec, seq, queued) {
    let state = pack.version === PACK_VERSION && pack.state ? pack.state : null;
    let reason = state ? null : "pack";
    for (const prior of queued) {
      if (reason) break;
      try {
        state = settle(pack, state, prior.record).state;
      } catch (e) {
        if (!(e instanceof Unsupported)) throw e;
        reason = "queued";
      }
    }
    const view = { seq, summary: describe(rec, pack), points: null, lines: null, streak: 0, streakName: "",
      transfers: null, after: null, note: "", unsupported: reason };
    if (!reason) {
      try {
        const done = settle(pack, state, rec);
        if (rec.winner) {
          view.points = done.points;
          view.lines = done.breakdown ? done.breakdown.lines : null;
          view.streak = done.streak;
          view.streakName = (pack.rules.streaks[String(done.streak)] || {}).name || "";
        }
        view.transfers = done.transfers.map((t) => ({ ...t, fromName: account(pack, t.from), toName: account(pack, t.to) }));
        view.after = done.state.players.map((name, i) => ({ name, balance: done.state.balances[i] }));
        if (done.state.pool || state.pool) view.after.push({ name: account(pack, POOL), balance: done.state.pool });
        if (done.state.ga_trong || state.ga_trong) view.after.push({ name: account(pack, POT), balance: done.state.ga_trong });
      } catch (e) {
        if (!(e instanceof Unsupported)) throw e;
        view.unsupported = e.reason;
      }
    }
    if (view.unsupported) {
      view.note = gettext("Máy này không tính trước được ván này: sổ sẽ tính điểm và các khoản chuyển khi gửi.");
    }
    return view;
  }

  function account(pack, name) {
    return label((pack.labels || {}).accounts, name);
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
        ? view.transfers.map((t) => "<li><b>" + esc(t.fromName || t.from) + " → " + esc(t.toName || t.to) + '</b> <span class="amt">' + t.amount + "</span></li>").join("")
        : '<li class="help">' + esc(gettext("Không có khoản chuyển nào.")) + "</li>";
      html += "</ul>";
    }
    if (view.after) {
      html += '<ul class="after">' + view.after.map((a) => "<li><span>" + esc(a.name) + "</span> <small>→ " + signed(a.balance) + "</small></li>").join("") + "</ul>";
    }
    if (view.note) html += '<p class="help">' + esc(view.note) + "</p>";
    html += '<p class="help">' + badge + " " + esc(gettext("Mất mạng: điểm, ù liền và các khoản chuyển do máy này tính trước; sổ tính lại khi gửi.")) + "</p>";
    return html + "</div>";
  }

  window.SoTomPreview = { record, isEmpty, describe, score, settle, preview, render, signed, esc, checkCombination, Unsupported };
})();
