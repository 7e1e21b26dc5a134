"""The offline pack of a sitting: what a phone needs to keep recording and previewing ván with no
network (seats, balances, the next number, the streak, the rule set's values), as JSON.

The pack is the preview's one source of truth: the rule set as data (every value, every choice the
settlement reads, each already resolved by the engine: cước values, streak ladder, đền làng A, the
gom, what each gà contribution costs), the engine's state after the current ván (balances, pool,
pot, hội, chèo đò debts, streak), and the words the pages use (cước, gà, faults, báo regimes,
streaks, accounts). static/offline/preview.js settles a ván from them the way scoring/engine does
and marks every number "tạm tính" (provisional); the server recomputes everything when the ván is
sent. tests/offline/test_preview_conformance.py holds the two to the same points, transfers and
words. What the JS does not model (Phỏm) it says it cannot compute.
"""

from __future__ import annotations

from typing import Any

from scoring.engine import (
    CATALOGUE,
    GA_TRONG,
    POOL,
    ChanGaNuoi,
    ChanGaNuoiContribution,
    EngineError,
    GaContribution,
    GaDauHoiQuang,
    GaPot,
    KinhTuCoPolicy,
    Repeat,
    RuleSet,
)
from scoring.models import Sitting
from scoring.selectors.ledger import balances, van_list
from scoring.selectors.rules import chip_conflicts, chips
from scoring.selectors.sitting import (
    FAULT_CHOICES,
    FAULT_NAMES,
    GA_EVENT_NAMES,
    HOA,
    REGIME_NAMES,
    SittingFacts,
    describe,
    streak_info,
)
from scoring.services.ledger import seats_by_name, sitting_terms, state_after

__all__ = ["PACK_VERSION", "offline_pack"]

#: Bumped when the shape of the pack changes (the JS refuses a pack it does not know).
PACK_VERSION = 3
#: Streak values sent (a 24-ván streak has never been seen at a mat).
MAX_STREAK = 24


def _value(rules: RuleSet, slug: str) -> dict[str, Any] | None:
    try:
        main, dich = rules.value_of(slug)
    except EngineError:
        return None
    out: dict[str, Any] = {"main": main, "dich": dich}
    entry = rules.cuoc.get(slug)
    if rules.traits.stake_per_hoi and entry is not None and entry.main is None and entry.boi is not None:
        out["boi"] = entry.boi  # Tài Bàn: the main value follows the stake N of the hội
    return out


def _named(rules: RuleSet, slug: str) -> dict[str, Any] | None:
    value = _value(rules, slug)
    return {"slug": slug, "name": rules.cuoc_name(slug), **value} if value else None


def _optional(action: Any) -> Any:
    try:
        return action()
    except EngineError:
        return None


def _ga_units(table: SittingFacts) -> dict[str, int]:
    """Points one unit of each gà contribution feeds the pot (0: not played), as the settlement
    reads the rule set (scoring/engine/settlement/ga.py)."""
    rules = table.rules
    pot = table.game.traits.ga_pot
    if pot is GaPot.NUOI:
        on = rules.chan_ga_nuoi is not ChanGaNuoi.NONE
        return {
            c.value: rules.chan_ga_nuoi_amounts.get(c.value, 0) if on else 0 for c in ChanGaNuoiContribution
        }
    if pot is GaPot.NONE:
        return {}
    return {
        c.value: rules.ga_trong_amounts.get(c.value, 0) * rules.dich if rules.ga_trong_applies(c) else 0
        for c in GaContribution
    }


def _money(table: SittingFacts, players: int) -> dict[str, Any]:
    """What the settlement of a ván reads besides cước values."""
    rules = table.rules
    traits = table.game.traits
    return {
        "den_lang": _optional(rules.chan_fine_value if traits.fixed_fine else rules.den_lang_value),
        "den_lang_fixed": rules.den_lang_amount is not None,
        "gom": _optional(lambda: rules.gom_amount(players)),
        "gom_topup_below": rules.gom_topup_below,
        "gom_topup_amount": rules.gom_topup_amount,
        "kinh_tu_co_het_hoi": rules.kinh_tu_co_policy is KinhTuCoPolicy.HET_HOI,
        "ga_units": _ga_units(table),
        "ga_dau_hoi_quang": rules.ga_dau_hoi_quang is not GaDauHoiQuang.NONE,
        "pot_tieng": list(rules.chan_ga_nuoi_tieng)
        if traits.ga_pot is GaPot.NUOI
        else (list(rules.ga_trong_tieng) if rules.ga_trong.value != "none" else []),
        "ga_ngoai": rules.ga_ngoai.value,
        "ga_ngoai_tieng": list(rules.ga_ngoai_tieng),
        "chi_chi_factor": rules.chan_ga_nuoi_chi_chi_factor,
        "chan_ga_cuoc": list(rules.chan_ga_cuoc),
        "chan_ga_points": rules.chan_ga_points,
        "bao_regime": rules.bao_regime.value,
        "stake": rules.stake,
    }


def _labels(table: SittingFacts) -> dict[str, Any]:
    """The words the sitting pages use for a record (scoring/selectors/sitting.py describe)."""
    return {
        "cuoc": dict(zip(CATALOGUE, table.cuoc_names(CATALOGUE), strict=True)),
        "ga": dict(GA_EVENT_NAMES),
        "faults": dict(FAULT_NAMES),
        "regimes": {str(k): v for k, v in REGIME_NAMES.items()},
        "accounts": {POOL: table.account(POOL), GA_TRONG: table.account(GA_TRONG)},
    }


def _streaks(table: SittingFacts) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for n in range(2, MAX_STREAK + 1):
        kind = table.rules.streak_cuoc(n)
        if kind is None:
            break
        main, dich = table.rules.khoi_value(n)
        out[str(n)] = {"slug": kind, "name": table.streak_name(n), "main": main, "dich": dich}
    return out


def _rules(table: SittingFacts, players: int) -> dict[str, Any]:
    rules = table.rules
    plain = _value(rules, rules.plain_cuoc)
    offered = chips(table.game, rules)
    return {
        "name": rules.name,
        "fingerprint": rules.fingerprint,
        "family": rules.family.value,
        # what sets the family apart: static/offline/preview.js reads these, never the family's name
        "traits": rules.traits.as_data(),
        "suong": rules.suong,
        "dich": rules.dich,
        "plain_slug": rules.plain_cuoc,
        "plain": {"slug": rules.plain_cuoc, "name": rules.cuoc_name(rules.plain_cuoc), **plain}
        if plain
        else None,
        "cuoc": {c.slug: {"name": c.name, **(_value(rules, c.slug) or {})} for c in offered},
        "thong": _named(rules, "thong"),
        # the engine's table of cước no hand could hold together, reasons in the page's language:
        # the preview looks it up (static/offline/preview.js), it derives nothing
        "conflicts": chip_conflicts(table.game, rules, offered)["conflicts"],
        "main_cuoc": rules.main_cuoc.value,
        "main_tie": rules.main_tie.value,
        "streaks": _streaks(table),
        "subsumes": {k: list(v) for k, v in rules.subsumes.items()},
        "chiu_pays": rules.chiu_pays,
        "lanh_lang_breaks_streak": rules.lanh_lang_breaks_streak,
        "tom_leo_once": rules.tom_leo_repeat is Repeat.ONCE,
        "has_streaks": rules.thong is not None,
        "khoi": rules.has_khoi,
        **_money(table, players),
    }


def offline_pack(sitting: Sitting) -> dict[str, Any]:
    """The pack of ``sitting`` as it stands now (a handful of queries)."""
    table = SittingFacts.of(sitting)
    current = van_list(sitting)
    live = balances(sitting)
    streak = streak_info(table, current)
    _ids, state = state_after(
        sitting=sitting, table=sitting_terms(sitting=sitting), names=list(seats_by_name(sitting=sitting))
    )
    return {
        "version": PACK_VERSION,
        "sitting": sitting.pk,
        "title": str(sitting),
        "game": table.game.slug.value,
        "game_name": table.game.name_vi,
        "family": table.game.family.value,
        "mode": sitting.mode,
        "ended": sitting.ended_at is not None,
        "names": list(live.players),
        "balances": live.players,
        "pool": live.pool,
        "ga_trong": live.ga_trong,
        "next_seq": len(current) + 1,
        "streak": {"holder": streak.get("holder"), "streak": streak.get("streak", 0)},
        "history": [
            {
                "seq": v["seq"],
                "winner": v["winner"],
                "outcome": v["outcome"],
                "streak": v["streak"],
                "points": v["points"],
                "summary": describe(table, v["record"]),
            }
            for v in current
        ],
        # the engine's state after the current ván: what the next one is settled from
        "state": state.to_json(),
        "rules": _rules(table, len(live.players)),
        "labels": _labels(table),
        "faults": dict(FAULT_CHOICES),
        "hoa": HOA,
    }
