"""The offline pack of a sitting: what a phone needs to keep recording and previewing ván with no
network (seats, balances, the next number, the streak, the rule set's values), as JSON.

Only numbers the server already knows are sent: the JS preview combines them with the rule of
docs/rules.md §6 (main value of the highest cước + D × extra dịch of the others) and marks every
number it computes "tạm tính" (provisional); the server recomputes everything when the ván is sent.
"""

from __future__ import annotations

from typing import Any

from scoring.engine import EngineError, GaNgoaiKind, GaTrongRegime, RuleSet, ScoringFamily
from scoring.models import Sitting
from scoring.selectors.ledger import balances, van_list
from scoring.selectors.rules import chip_conflicts, chips
from scoring.selectors.sitting import FAULT_CHOICES, HOA, Table, describe, streak_info

__all__ = ["PACK_VERSION", "offline_pack"]

#: Bumped when the shape of the pack changes (the JS refuses a pack it does not know).
PACK_VERSION = 1
#: Streak values sent (a 24-ván streak has never been seen at a mat).
MAX_STREAK = 24


def _value(rules: RuleSet, slug: str) -> dict[str, Any] | None:
    try:
        main, dich = rules.value_of(slug)
    except EngineError:
        return None
    return {"main": main, "dich": dich}


def _streaks(table: Table) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for n in range(2, MAX_STREAK + 1):
        kind = table.rules.streak_cuoc(n)
        if kind is None:
            break
        main, dich = table.rules.khoi_value(n)
        out[str(n)] = {"slug": kind, "name": table.streak_name(n), "main": main, "dich": dich}
    return out


def _rules(table: Table) -> dict[str, Any]:
    rules = table.rules
    plain = _value(rules, rules.plain_cuoc)
    offered = chips(table.game, rules)
    return {
        "name": rules.name,
        "fingerprint": rules.fingerprint,
        "family": rules.family.value,
        "suong": rules.suong,
        "dich": rules.dich,
        "plain": {"slug": rules.plain_cuoc, "name": "Suông", **plain} if plain else None,
        "cuoc": {c.slug: {"name": c.name, "main": c.main, "dich": c.dich} for c in offered},
        # the engine's table of cước no hand could hold together, reasons in the page's language:
        # the preview looks it up (static/offline/preview.js), it derives nothing
        "conflicts": chip_conflicts(table.game, rules, offered)["conflicts"],
        "main_cuoc": rules.main_cuoc.value,
        "main_tie": rules.main_tie.value,
        "streaks": _streaks(table),
        "subsumes": {k: list(v) for k, v in rules.subsumes.items()},
        "chiu_pays": rules.chiu_pays,
        "lanh_lang_breaks_streak": rules.lanh_lang_breaks_streak,
    }


def _simple_transfers(table: Table) -> bool:
    """Whether "every other player pays the winner the win's points" is the whole story: Tổ Tôm
    in quăng with no gà pots. Otherwise the JS previews points and streak only."""
    rules = table.rules
    return (
        table.game.family is ScoringFamily.TO_TOM
        and table.sitting.mode == "quang"
        and rules.ga_trong is GaTrongRegime.NONE
        and rules.ga_ngoai is GaNgoaiKind.NONE
    )


def offline_pack(sitting: Sitting) -> dict[str, Any]:
    """The pack of ``sitting`` as it stands now (a handful of queries)."""
    table = Table.of(sitting)
    current = van_list(sitting)
    live = balances(sitting)
    streak = streak_info(table, current)
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
            {"seq": v["seq"], "winner": v["winner"], "outcome": v["outcome"], "streak": v["streak"],
             "points": v["points"], "summary": describe(table, v["record"])}
            for v in current
        ],
        "rules": _rules(table),
        "preview": {
            "points": table.game.family is ScoringFamily.TO_TOM,
            "transfers": _simple_transfers(table),
        },
        "faults": dict(FAULT_CHOICES),
        "hoa": HOA,
    }
