"""The club book's statement of a player (:mod:`scoring.selectors.statement`) as one table for
the CSV / XLSX writer (:mod:`scoring.reports.tabular`)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from scoring.reports.tabular import Sheet, detail_line
from scoring.selectors.statement import Statement

__all__ = ["club_statement_sheet"]


def club_statement_sheet(st: Statement) -> Sheet:
    """The statement as one table (CSV / XLSX): one row per ván and per settlement, a total."""
    rows: list[list[Any]] = []
    for part in st.canh:
        day = part.canh.day.strftime("%d/%m/%Y")
        for v in part.van:
            detail = "; ".join(detail_line(line.other, line.amount, line.why) for line in v.lines)
            if v.corrected:
                detail = (detail + "; " if detail else "") + f"đã sửa: {v.corrected}"
            rows.append(
                [day, part.canh.name, v.seq, f"{v.outcome} · {v.summary}", v.delta, v.running, detail]
            )
        for s in part.settled:
            detail = "; ".join(detail_line(line.other, line.amount, line.why) for line in s.lines)
            rows.append(
                [
                    timezone.localtime(s.at).strftime("%d/%m/%Y"),
                    part.canh.name,
                    "Thanh toán",
                    s.reason,
                    s.delta,
                    s.running,
                    detail,
                ]
            )
    rows.append(
        [
            "Tổng",
            "",
            "",
            f"Điểm {st.points}, đã thanh toán {st.settled}, còn lại {st.open}",
            st.open,
            st.open,
            "",
        ]
    )
    return Sheet("Sao ke", ["Ngày", "Canh", "Ván", "Diễn giải", "Điểm", "Cộng dồn", "Chi tiết"], rows)
