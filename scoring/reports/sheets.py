"""Printable score sheets (phiếu ghi điểm): one page per table, with the seats, a summary of the
rule set, a grid to write the ván by hand, and a QR code that opens the sitting's entry page."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext

from scoring.models import Sitting
from scoring.reports.data import local
from scoring.reports.qr import qr_svg
from scoring.selectors.rules import applied_rules_name, chips
from scoring.selectors.sitting import SittingFacts

__all__ = ["DEFAULT_ROWS", "rules_summary", "score_sheet"]

#: Ván rows of a sheet when the round does not say (fits one A4 landscape page).
DEFAULT_ROWS = 16
MAX_ROWS = 30


def rules_summary(table: SittingFacts) -> dict[str, Any]:
    """The rule set in a few lines: S, D, the cước values (main / extra dịch), streaks, money."""
    rules = table.rules
    lines = [gettext("Suông {suong} điểm, dịch {dich} điểm.").format(suong=rules.suong, dich=rules.dich)]
    if table.game.traits.has_khoi:
        lines.append(
            gettext("Điểm một ván ù = giá trị chính của cước cao nhất + dịch × số dịch của các cước khác.")
        )
        if rules.streak_cuoc(2):
            thong = rules.khoi_value(2)
            lines.append(
                gettext(
                    "Thông (ù liền 2 ván): {main} điểm / {dich} dịch; Tam Khôi trở lên theo bậc Khôi."
                ).format(main=thong[0], dich=thong[1])
            )
    mode = gettext(table.sitting.get_mode_display())
    if table.sitting.mode == "gom":
        try:
            lines.append(
                gettext("{mode}: mỗi người góp {gom} điểm mỗi hội.").format(
                    mode=mode, gom=rules.gom_amount(table.sitting.seats.count())
                )
            )
        except Exception:  # noqa: BLE001 - a rule set without Chi Nẩy has no derived gom; say the mode only
            lines.append(f"{mode}.")
    else:
        lines.append(gettext("{mode}: mỗi nhà khác trả người ù số điểm của ván.").format(mode=mode))
    cuoc = [{"name": c.name, "main": c.main, "dich": c.dich} for c in chips(table.game, rules)]
    return {"name": applied_rules_name(table.sitting.rules), "lines": lines, "cuoc": cuoc}


def score_sheet(
    sitting: Sitting,
    url: str,
    *,
    heading: str = "",
    subheading: str = "",
    rows: int | None = None,
    extra: Sequence[tuple[str, str]] = (),
) -> dict[str, Any]:
    """One sheet's context: ``url`` is the absolute address the QR code opens."""
    table = SittingFacts.of(sitting)
    seats = [{"position": s.position, "name": s.name} for s in sitting.seats.order_by("position")]
    count = max(1, min(rows or DEFAULT_ROWS, MAX_ROWS))
    return {
        "sitting": sitting,
        "heading": heading or str(sitting),
        "subheading": subheading,
        "game": table.game,
        "seats": seats,
        "rules": rules_summary(table),
        "rows": range(1, count + 1),
        "qr": qr_svg(url, scale=3, title=url, border=4),
        "url": url,
        "extra": list(extra),
        "printed_at": local(sitting.created_at),
    }
