"""The club book's statement of a player (:mod:`scoring.selectors.statement`) as one table for
the CSV / XLSX writer (:mod:`scoring.reports.tabular`)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext, pgettext

from scoring.i18n import reason
from scoring.reports.tabular import Sheet, detail_line
from scoring.selectors.statement import Statement

__all__ = ["club_statement_sheet"]


def club_statement_sheet(st: Statement) -> Sheet:
    """The statement as one table (CSV / XLSX): one row per ván and per settlement, a total."""
    rows: list[list[Any]] = []
    for part in st.canh:
        day = part.canh.day.strftime("%d/%m/%Y")
        for v in part.van:
            detail = "; ".join(detail_line(line.other, line.amount, reason(line.why)) for line in v.lines)
            if v.corrected:
                corrected = gettext("đã sửa: {what}").format(what=v.corrected)
                detail = (detail + "; " if detail else "") + corrected
            rows.append(
                [day, part.canh.name, v.seq, f"{v.outcome} · {v.summary}", v.delta, v.running, detail]
            )
        for s in part.settled:
            detail = "; ".join(detail_line(line.other, line.amount, reason(line.why)) for line in s.lines)
            rows.append(
                [
                    timezone.localtime(s.at).strftime("%d/%m/%Y"),
                    part.canh.name,
                    gettext("Thanh toán"),
                    reason(s.reason),
                    s.delta,
                    s.running,
                    detail,
                ]
            )
    rows.append(
        [
            gettext("Tổng"),
            "",
            "",
            gettext("Điểm {points}, đã thanh toán {settled}, còn lại {open}").format(
                points=st.points, settled=st.settled, open=st.open
            ),
            st.open,
            st.open,
            "",
        ]
    )
    headers = ["Ngày", "Canh", "Ván", "Diễn giải", "Điểm", "Cộng dồn", "Chi tiết"]
    return Sheet(pgettext("sheet", "Sao ke"), [gettext(h) for h in headers], rows)
