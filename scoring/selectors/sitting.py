"""What the sitting pages (and the reports and the offline pack built on them) show, built from the
selectors (balances come from the postings), with the words for faults and báo regimes.

Nothing here writes or decides points: it arranges the selectors' answers (and the engine's
fold, for who holds the streak and who deals next) for the templates.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N

from scoring.engine import (
    CATALOGUE,
    GA_TRONG,
    POOL,
    BaoRegime,
    EngineError,
    Game,
    GaPot,
    RuleSet,
    Transfer,
    get_game,
)
from scoring.models import Sitting, VanFault
from scoring.selectors.ledger import balances, integrity, sitting_history, streak_label, van_list
from scoring.selectors.rules import applied_rules_name
from scoring.services.ledger import fold
from scoring.text import when

# The Vietnamese words below are gettext msgids (marked with gettext_noop): they stay plain strings
# (the offline pack serialises them) and are translated where a page shows them.

#: The value of the winner buttons meaning a draw (hòa).
HOA = "__hoa__"

FAULT_CHOICES: list[tuple[str, str]] = [
    (VanFault.LANH_LANG, N("Ù lành làng (không được trả, mất ù liền)")),
    (VanFault.U_BAO, N("Ù báo (người ù đền làng)")),
    (VanFault.XUONG_THUA, N("Xướng thừa (đền theo cước đã xướng)")),
    (VanFault.DANH_U_DEN, N("Đánh ù đền (người đánh ra trả cả ván)")),
    (VanFault.DEN_CHONG, N("Đền chồng (đánh ù đền và đền làng)")),
]
REGIME_NAMES: dict[str, str] = {
    BaoRegime.DEN_LANG: N("Báo đền làng"),
    BaoRegime.NGOI_DAY: N("Báo ngồi đấy"),
    BaoRegime.CHEO_DO: N("Báo chèo đò"),
}
GUEST = N("khách (chưa đăng nhập)")
FAULT_NAMES = {slug: label.split(" (")[0] for slug, label in FAULT_CHOICES}
GA_EVENT_NAMES = {
    "nhai": N("nhái"),
    "quan_lo": N("quân lộ"),
    "bi_de_u": N("bị đè ù"),
    "bo_u": N("bỏ ù"),
    "chiu_noc": N("chíu nọc"),
    "chiu_discard": N("chíu quân đánh"),
}
#: History events about one ván → how the history line reads ("ghi ván 3").
HISTORY_KINDS = {
    "ghi_van": N("ghi ván %(seq)s"),
    "sua_van": N("sửa ván %(seq)s"),
    "xac_nhan_van": N("xác nhận ván %(seq)s"),
    "bac_bo_van": N("bác ván %(seq)s"),
}


@dataclass(frozen=True)
class SittingFacts:
    """The fixed facts of a sitting the pages need: its game and its rule set snapshot."""

    sitting: Sitting
    game: Game
    rules: RuleSet

    @classmethod
    def of(cls, sitting: Sitting) -> SittingFacts:
        return cls(sitting, get_game(sitting.game), sitting.rules.rules())

    @property
    def pot_name(self) -> str:
        return _("Gà nuôi") if self.game.traits.ga_pot is GaPot.NUOI else _("Gà trong")

    def account(self, name: str) -> str:
        """How an account is shown: a player's name, "Điểm làng", "Gà trong"."""
        if name == POOL:
            return _("Điểm làng")
        return self.pot_name if name == GA_TRONG else name

    def streak_name(self, n: int) -> str:
        """ "Thông", "Tam Khôi" … as this rule set names the n-th win in a row ("" for fewer than 2)."""
        kind = self.rules.streak_cuoc(n)
        if kind is None:
            return ""
        return "Thông" if kind == "thong" else streak_label(n)

    def cuoc_names(self, slugs: Iterable[str]) -> list[str]:
        return [CATALOGUE[s].name if s in CATALOGUE else s for s in slugs]


def signed(n: int) -> str:
    """A change of points as shown: "+8", "−8", "0" (a real minus sign)."""
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def _win_parts(table: SittingFacts, record: Mapping[str, Any]) -> list[str]:
    parts: list[str] = []
    if record.get("result") == "hoa":
        parts.append(_("Hòa"))
    if record.get("winner"):
        cuoc = table.cuoc_names(record.get("cuoc") or [table.rules.plain_cuoc])
        if table.game.traits.ranked:
            cuoc = ["ù"]  # a Phỏm win has no cước: the word stays, like the cước names
        parts.append(_("%(winner)s ù: %(cuoc)s") % {"winner": record["winner"], "cuoc": ", ".join(cuoc)})
    if record.get("declared"):
        parts.append(_("xướng %(cuoc)s") % {"cuoc": ", ".join(table.cuoc_names(record["declared"]))})
    if record.get("fault"):
        fault = record["fault"]
        parts.append(_(FAULT_NAMES[fault]) if fault in FAULT_NAMES else fault)
    if record.get("discarder"):
        parts.append(_("%(player)s đánh ra quân ù") % {"player": record["discarder"]})
    return parts


def _ga_part(event: Mapping[str, Any]) -> str:
    count = f" ×{event['count']}" if event.get("count", 1) != 1 else ""
    kind = event.get("kind", "")
    name = _(GA_EVENT_NAMES[kind]) if kind in GA_EVENT_NAMES else kind
    return _("gà %(kind)s: %(player)s") % {"kind": name, "player": event.get("player")} + count


#: How the other keys of a record read, in the order shown.
_OTHER_PARTS: tuple[tuple[str, Any], ...] = (
    ("chiu", lambda v: _("chịu: %(players)s") % {"players": ", ".join(v)}),
    ("den_lang", lambda v: _("đền làng: %(players)s") % {"players": ", ".join(v)}),
    ("dau_ke", lambda v: _("đầu kê: %(player)s") % {"player": v}),
    ("stake", lambda v: _("mức cược N = %(n)s") % {"n": v}),
    ("ranks", lambda v: _("xếp hạng: %(ranks)s") % {"ranks": " › ".join(v)}),
    ("den", lambda v: _("%(player)s đền (cho ăn ba quân)") % {"player": v}),
)


def describe(table: SittingFacts, record: Mapping[str, Any]) -> str:
    """A ván record in one line in the active language ("An ù: Tôm, Lèo · Bình đánh ra quân ù")."""
    parts = _win_parts(table, record)
    if record.get("bao"):
        regime = REGIME_NAMES.get(record.get("regime") or table.rules.bao_regime)
        regime = _(regime) if regime else _("báo")
        parts.append(_("%(player)s: %(regime)s") % {"player": record["bao"], "regime": regime.lower()})
    parts += [_ga_part(e) for e in record.get("ga") or [] if isinstance(e, Mapping)]
    parts += [show(record[key]) for key, show in _OTHER_PARTS if record.get(key)]
    return " · ".join(parts) or "—"


def transfer_rows(
    table: SittingFacts, transfers: Iterable[Transfer | Mapping[str, Any]]
) -> list[dict[str, Any]]:
    rows = []
    for t in transfers:
        data = t.to_dict() if isinstance(t, Transfer) else t
        rows.append(
            {
                "from": table.account(data["from"]),
                "to": table.account(data["to"]),
                "amount": data["amount"],
                "why": data["why"],
            }
        )
    return rows


def _decorate(table: SittingFacts, van: dict[str, Any]) -> dict[str, Any]:
    return {
        **van,
        "summary": describe(table, van["record"]),
        "streak_name": table.streak_name(van["streak"]) if van["winner"] else "",
        "transfer_rows": transfer_rows(table, van["transfers"]),
        "by": van["entered_by"] or _(GUEST),
        "at": when(van["created_at"]),
    }


def van_rows(table: SittingFacts, vans: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Current ván newest first, each with its superseded versions (struck through on the page)."""
    by_id = {v["id"]: v for v in vans}
    rows = []
    for van in sorted((v for v in vans if v["is_current"]), key=lambda v: v["seq"], reverse=True):
        older, newer = [], van
        while newer["replaces"] and newer["replaces"] in by_id:
            old = by_id[newer["replaces"]]
            older.append(
                {
                    **_decorate(table, old),
                    "reason": newer["correction_reason"],
                    "corrector": newer["entered_by"] or _(GUEST),
                    "corrected_at": when(newer["created_at"]),
                }
            )
            newer = old
        rows.append({**_decorate(table, van), "older": older})
    return rows


def hoi_summary(
    table: SittingFacts,
    current: Sequence[dict[str, Any]],
    hoi: Sequence[Mapping[str, Any]],
    names: Sequence[str],
) -> dict[str, Any]:
    """Points moved per account in each hội and in the whole sitting (play only), with totals."""
    by_seq = {v["seq"]: v["transfers"] for v in current}
    last = max(by_seq, default=0)
    columns: list[dict[str, Any]] = []
    whole = _("Cả canh")
    spans = [(_("Hội %(n)s") % {"n": h["index"]}, h["opened_before_van"], h["closed_after_van"]) for h in hoi]
    for label, first, closed in [*spans, (whole, 1, None)]:
        net: dict[str, int] = defaultdict(int)
        end = closed or last
        for seq in range(first, end + 1):
            for t in by_seq.get(seq, []):
                net[t["from"]] -= t["amount"]
                net[t["to"]] += t["amount"]
        span = (
            _("ván %(first)s–%(last)s") % {"first": first, "last": end} if end >= first else _("chưa có ván")
        )
        columns.append(
            {
                "label": label,
                "span": span,
                "open": closed is None and label != whole,
                "net": net,
                "total": sum(net.values()),
            }
        )
    accounts = [*names, POOL, GA_TRONG]
    rows = [
        {"name": table.account(a), "cells": [signed(c["net"].get(a, 0)) for c in columns]} for a in accounts
    ]
    return {"columns": columns, "rows": rows}


def history_rows(sitting: Sitting) -> list[dict[str, Any]]:
    out = []
    for event in sitting_history(sitting):
        by, player = event.get("by"), event.get("player")
        if by and player and player != by:
            by = f"{by} ({player})"
        row = {**event, "at": when(event["at"]), "by": by or player or _(GUEST)}
        if event["event"] in HISTORY_KINDS:
            row["text"] = _(HISTORY_KINDS[event["event"]]) % {"seq": event["seq"]}
        else:
            row["text"] = _("bút toán #%(id)s (%(kind)s): %(reason)s") % {
                "id": event["transaction_id"],
                "kind": _(event["kind_label"]),
                "reason": event["reason"],
            }
        out.append(row)
    return out


def streak_info(table: SittingFacts, current: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Who is on a streak (and what the next win would be), and who deals next (engine's fold)."""
    if table.game.traits.ranked:
        return {}
    state = fold(sitting=table.sitting, records=[v["record"] for v in current]).state
    info: dict[str, Any] = {"dealer": state.dealer}
    if state.streak_holder and state.streak >= 1:
        info.update(
            holder=state.streak_holder,
            streak=state.streak,
            label=table.streak_name(state.streak) or _("vừa ù"),
            next=table.streak_name(state.streak + 1),
        )
    return info


def sitting_data(sitting: Sitting) -> dict[str, Any]:
    """Everything the sitting page shows except the ván form."""
    table = SittingFacts.of(sitting)
    ended = sitting.ended_at is not None
    live = balances(sitting, play_only=ended)
    vans = van_list(sitting, include_superseded=True)
    current = [v for v in vans if v["is_current"]]
    names = list(live.players)
    hoi = [h.to_dict() for h in sitting.hoi.order_by("index")]
    check = integrity(sitting)
    final = balances(sitting) if ended else live
    return {
        "sitting": sitting,
        "table": table,
        "game": table.game,
        "rules": table.rules,
        "rules_name": applied_rules_name(sitting.rules),  # the village's, not its base preset's
        "ended": ended,
        "seats": [
            {"position": i, "name": n, "balance": b, "shown": signed(b)}
            for i, (n, b) in enumerate(live.players.items(), 1)
        ],
        "pool": live.pool,
        "ga_trong": live.ga_trong,
        "pot_name": table.pot_name,
        "total": sum(live.players.values()) + live.pool + live.ga_trong,
        "final_zero": not any(final.players.values()) and not final.pool and not final.ga_trong,
        "next_seq": len(current) + 1,
        "van_rows": van_rows(table, vans),
        "hoi": hoi_summary(table, current, hoi, names),
        "integrity": check,
        "history": history_rows(sitting),
        "streak": streak_info(table, current),
        "names": names,
        "gom_amount": _gom_amount(table, sitting, len(names)),
    }


def _gom_amount(table: SittingFacts, sitting: Sitting, n_players: int) -> int | None:
    if sitting.mode != "gom":
        return None
    try:
        return table.rules.gom_amount(n_players)
    except EngineError:
        return None
