"""What the reports of a sitting show, read from the ledger (postings) and the engine's replay:
the ledger and the ván list as tables, the sitting report, a player's statement, the balance
series of the chart. Nothing is computed that the ledger does not already hold, except the
breakdown of points (the engine's replay of the same ván, as ``ledger_check`` does)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop, pgettext

from scoring.engine import GA_TRONG, POOL, EngineError
from scoring.i18n import reason
from scoring.models import Account, Posting, Sitting, TransactionKind
from scoring.reports.tabular import Sheet, detail_line
from scoring.selectors.ledger import balances, integrity, iter_van_list, van_list
from scoring.selectors.rules import applied_rules_name
from scoring.selectors.sitting import SittingFacts, describe, hoi_summary, signed
from scoring.services.ledger import fold

__all__ = [
    "balance_series",
    "integrity_line",
    "ledger_sheet",
    "local",
    "sitting_report",
    "statement",
    "statement_sheet",
    "van_sheet",
]


def local(moment: Any) -> str:
    """A moment as printed: "03/02/2025 20:15" in the site's time zone ("" for none)."""
    return timezone.localtime(moment).strftime("%d/%m/%Y %H:%M") if moment else ""


def _account(table: SittingFacts, posting: Posting) -> str:
    return posting.seat.name if posting.seat_id else table.account(posting.account)


#: The ledger table's header (translated when a sheet is built, in the request's or job's language).
LEDGER_HEADERS = [
    gettext_noop("Bút toán"),
    gettext_noop("Loại"),
    gettext_noop("Ván"),
    gettext_noop("Dòng"),
    gettext_noop("Tài khoản"),
    gettext_noop("Điểm"),
    gettext_noop("Vì sao"),
    gettext_noop("Đảo bút toán số"),
    gettext_noop("Lúc"),
    gettext_noop("Người ghi"),
]


def ledger_sheet(sitting: Sitting) -> Sheet:
    """Every posting of the sitting, in the order written, and a total (which must be 0). The rows
    are a generator reading the postings a chunk at a time: a long sitting's ledger is streamed."""
    table = SittingFacts.of(sitting)
    return Sheet(
        pgettext("sheet", "So cai"),
        [gettext(h) for h in LEDGER_HEADERS],
        _ledger_rows(sitting, table),
        more=(_balances_sheet(sitting, table),),
    )


def _ledger_rows(sitting: Sitting, table: SittingFacts) -> Iterator[list[Any]]:
    kinds = dict(TransactionKind.choices)
    who = "transaction__created_by__" + get_user_model().USERNAME_FIELD
    postings = (
        Posting.objects.filter(sitting=sitting)
        .order_by("transaction_id", "line", "amount")
        .values_list(
            "transaction_id",
            "transaction__kind",
            "transaction__van__seq",
            "line",
            "account",
            "seat__name",
            "amount",
            "why",
            "transaction__reverses_id",
            "transaction__created_at",
            who,
        )
    )
    total = 0
    for txn, kind, seq, line, account, seat, amount, why, reverses, at, by in postings.iterator(
        chunk_size=2000
    ):
        total += amount
        yield [
            txn,
            reason(kinds.get(kind, kind)),
            seq if seq is not None else "",
            line,
            seat if account == Account.PLAYER else table.account(account),
            amount,
            reason(why),
            reverses or "",
            local(at),
            by or "",
        ]
    yield [gettext("Tổng"), "", "", "", "", total, gettext("Mọi bút toán cộng lại phải bằng 0"), "", "", ""]


def _balances_sheet(sitting: Sitting, table: SittingFacts) -> Sheet:
    live = balances(sitting)
    rows: list[list[Any]] = [[name, value] for name, value in live.players.items()]
    rows += [[table.account(POOL), live.pool], [table.account(GA_TRONG), live.ga_trong]]
    rows.append([gettext("Tổng"), sum(live.players.values()) + live.pool + live.ga_trong])
    return Sheet(pgettext("sheet", "So du"), [gettext("Tài khoản"), gettext("Số dư")], rows)


def _net(transfers: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    net: dict[str, int] = defaultdict(int)
    for t in transfers:
        net[t["from"]] -= t["amount"]
        net[t["to"]] += t["amount"]
    return net


def van_sheet(sitting: Sitting) -> Sheet:
    """The current ván, one row each with every account's change; the last row sums them (the
    balances of play). The rows are a generator reading the ván a chunk at a time (streamed)."""
    table = SittingFacts.of(sitting)
    names = [s.name for s in sitting.seats.order_by("position")]
    accounts = [*names, POOL, GA_TRONG]
    headers = [
        gettext("Ván"),
        gettext("Kết quả"),
        gettext("Người ù"),
        gettext("Cước"),
        gettext("Điểm"),
        gettext("Ù liền"),
        gettext("Diễn giải"),
        *[table.account(a) for a in accounts],
        gettext("Người ghi"),
        gettext("Lúc"),
        gettext("Lý do sửa"),
    ]
    return Sheet(pgettext("sheet", "Cac van"), headers, _van_rows(sitting, table, accounts))


def _van_rows(sitting: Sitting, table: SittingFacts, accounts: Sequence[str]) -> Iterator[list[Any]]:
    totals: dict[str, int] = defaultdict(int)
    for van in iter_van_list(sitting):
        net = _net(van["transfers"])
        for a in accounts:
            totals[a] += net.get(a, 0)
        yield [
            van["seq"],
            van["outcome_label"],
            van["winner"] or "",
            ", ".join(table.cuoc_names(van["cuoc"])),
            van["points"] if van["winner"] else "",
            table.streak_name(van["streak"]) if van["winner"] else "",
            describe(table, van["record"]),
            *[net.get(a, 0) for a in accounts],
            van["entered_by"] or "",
            local(datetime.fromisoformat(van["created_at"])),
            van["correction_reason"] or "",
        ]
    yield [gettext("Tổng"), "", "", "", "", "", "", *[totals[a] for a in accounts], "", "", ""]


def integrity_line(sitting: Sitting) -> dict[str, Any]:
    """The integrity line of the reports: every transaction sums to 0, pots never below 0."""
    check = integrity(sitting)
    live = balances(sitting)
    total = sum(live.players.values()) + live.pool + live.ga_trong
    ok = check.ok and total == 0
    if ok:
        text = gettext("Mọi bút toán cân (tổng bằng 0); điểm làng và gà chưa lần nào âm.")
    else:
        parts = []
        if check.unbalanced:
            ids = ", ".join(f"#{pk}" for pk in check.unbalanced)
            parts.append(gettext("bút toán không cân: {ids}").format(ids=ids))
        if not check.pool_ok:
            parts.append(gettext("điểm làng có lúc âm"))
        if not check.pot_ok:
            parts.append(gettext("gà có lúc âm"))
        if total:
            parts.append(gettext("tổng số dư là {total}, không phải 0").format(total=total))
        text = gettext("Sổ có chỗ không khớp: {parts}.").format(parts="; ".join(parts))
    return {"ok": ok, "text": text, "total": total}


def _breakdowns(sitting: Sitting, current: Sequence[Mapping[str, Any]]) -> dict[int, list[dict[str, Any]]]:
    """The engine's breakdown of points of each current ván (its replay), by number."""
    try:
        replay = fold(sitting=sitting, records=[v["record"] for v in current])
    except EngineError:
        return {}
    return {s.number: list((s.breakdown or {}).get("lines", [])) for s in replay.settlements}


def sitting_report(sitting: Sitting) -> dict[str, Any]:
    """Context of the sitting report: seats and balances, hội summary, every ván with its
    breakdown and transfers, the settlement entries, the integrity line."""
    table = SittingFacts.of(sitting)
    current = van_list(sitting)
    names = [s.name for s in sitting.seats.order_by("position")]
    breakdown = _breakdowns(sitting, current)
    play = balances(sitting, play_only=True)
    final = balances(sitting)
    vans = [
        {
            **v,
            "summary": describe(table, v["record"]),
            "lines": [{**line, "why": reason(line.get("why", ""))} for line in breakdown.get(v["seq"], [])],
            "streak_name": table.streak_name(v["streak"]) if v["winner"] else "",
            "transfer_rows": [
                {**t, "from": table.account(t["from"]), "to": table.account(t["to"])} for t in v["transfers"]
            ],
            "at": local(datetime.fromisoformat(v["created_at"])),
        }
        for v in current
    ]
    settled = (
        Posting.objects.filter(
            sitting=sitting,
            transaction__van__isnull=True,  # settlements, their reversals
            amount__gt=0,
        )
        .select_related("seat")
        .order_by("transaction_id", "line")
    )
    hoi = [h.to_dict() for h in sitting.hoi.order_by("index")]
    return {
        "sitting": sitting,
        "table": table,
        "game": table.game,
        "rules": table.rules,
        "rules_name": applied_rules_name(sitting.rules),
        "seats": [
            {
                "position": i,
                "name": n,
                "play": play.players[n],
                "final": final.players[n],
                "shown": signed(play.players[n]),
            }
            for i, n in enumerate(names, 1)
        ],
        "pool": play.pool,
        "ga_trong": play.ga_trong,
        "vans": vans,
        "hoi": hoi_summary(table, current, hoi, names),
        "settled": [{"to": _account(table, p), "amount": p.amount, "why": reason(p.why)} for p in settled],
        "integrity": integrity_line(sitting),
        "printed_at": local(timezone.now()),
    }


def _seat_name(sitting: Sitting, position: int) -> str:
    seat = sitting.seats.filter(position=position).first()
    if seat is None:
        raise Http404(
            gettext("Canh bài #{pk} không có chỗ ngồi số {position}.").format(
                pk=sitting.pk, position=position
            )
        )
    return seat.name


def statement(sitting: Sitting, position: int) -> dict[str, Any]:
    """A player's statement (sao kê) in a sitting: each ván's transfers that touch them, the
    change and the running balance; settlement entries after."""
    table = SittingFacts.of(sitting)
    name = _seat_name(sitting, position)
    rows, running = [], 0
    for van in iter_van_list(sitting):
        mine = [t for t in van["transfers"] if name in (t["from"], t["to"])]
        delta = _net(mine).get(name, 0)
        running += delta
        rows.append(
            {
                "seq": van["seq"],
                "summary": describe(table, van["record"]),
                "delta": delta,
                "shown": signed(delta),
                "running": running,
                "lines": [
                    {
                        "amount": t["amount"] if t["to"] == name else -t["amount"],
                        "other": table.account(t["from"] if t["to"] == name else t["to"]),
                        "why": reason(t["why"]),
                    }
                    for t in mine
                ],
            }
        )
    settlement = Posting.objects.filter(  # settling up (the canh's own, a period close) and its reversal
        sitting=sitting,
        transaction__van__isnull=True,
        seat__position=position,
    ).order_by("transaction_id", "line")
    settled = [{"amount": p.amount, "why": reason(p.why)} for p in settlement]
    return {
        "sitting": sitting,
        "table": table,
        "game": table.game,
        "rules": table.rules,
        "rules_name": applied_rules_name(sitting.rules),
        "name": name,
        "position": position,
        "rows": rows,
        "play": running,
        "settled": settled,
        "final": running + sum(s["amount"] for s in settled),
        "integrity": integrity_line(sitting),
        "printed_at": local(timezone.now()),
    }


def statement_sheet(context: Mapping[str, Any]) -> Sheet:
    rows: list[list[Any]] = [
        [
            r["seq"],
            r["summary"],
            r["delta"],
            r["running"],
            "; ".join(detail_line(line["other"], line["amount"], line["why"]) for line in r["lines"]),
        ]
        for r in context["rows"]
    ]
    rows += [[gettext("Thanh toán"), s["why"], s["amount"], "", ""] for s in context["settled"]]
    rows.append([gettext("Tổng"), "", context["final"], context["final"], ""])
    headers = [
        gettext("Ván"),
        gettext("Diễn giải"),
        gettext("Điểm"),
        gettext("Cộng dồn"),
        gettext("Các khoản"),
    ]
    return Sheet(pgettext("sheet", "Sao ke"), headers, rows)


def balance_series(sitting: Sitting) -> dict[str, Any]:
    """Each player's balance after every ván (gom included), from the ledger: the chart's data."""
    names = [s.name for s in sitting.seats.order_by("position")]
    rows = (
        Posting.objects.filter(sitting=sitting, account=Account.PLAYER)
        .filter(
            Q(transaction__kind__in=[TransactionKind.GOM, TransactionKind.VAN]),
            transaction__reversed_by__isnull=True,
            transaction__van__is_current=True,
        )
        .values_list("transaction__van__seq", "seat__name", "amount")
    )
    by_seq: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for seq, name, amount in rows:
        by_seq[seq][name] += amount
    last = max(by_seq, default=0)
    running = dict.fromkeys(names, 0)
    series: dict[str, list[int]] = {n: [0] for n in names}
    for seq in range(1, last + 1):
        for n in names:
            running[n] += by_seq.get(seq, {}).get(n, 0)
            series[n].append(running[n])
    return {
        "title": str(sitting),
        "labels": [gettext("Đầu canh"), *[gettext("Ván {n}").format(n=i) for i in range(1, last + 1)]],
        "datasets": [{"label": n, "data": series[n]} for n in names],
    }
