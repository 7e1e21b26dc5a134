"""CSV exports: the standings (from the stored leaderboard) and each player's statement (from
the ledger), written by the project's one CSV writer (:func:`scoring.reports.tabular.csv_download`:
UTF-8 with a byte-order mark, formula-looking text neutralised)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext

from scoring.i18n import reason
from scoring.reports.tabular import csv_download
from scoring.text import vi_slugify
from tournaments.models import Event
from tournaments.selectors.pages import board_state, cuoc_name, player_statement, registration_for

__all__ = ["standings_csv", "standings_table", "statement_csv", "statement_table"]


def _cuoc(counts: dict[str, int]) -> str:
    return "; ".join(f"{cuoc_name(slug)} ×{n}" for slug, n in counts.items())


def standings_csv(event: Event) -> HttpResponse:
    """The stored standings, by player (one row each), then by village/hamlet/team."""
    return csv_download(*standings_table(event))


def standings_table(event: Event) -> tuple[str, list[str], list[list[Any]]]:
    """File name, header and rows of the standings export (shared by the CSV and the XLSX)."""
    state = board_state(event)
    suffix = "-tam-tinh" if state.provisional else ""
    header = [
        gettext("Hạng"),
        gettext("Người chơi"),
        gettext("Làng / giáp / đội"),
        gettext("Điểm"),
        gettext("Số ván"),
        gettext("Ván ù"),
        gettext("Ván ù lớn nhất"),
        gettext("Điểm mỗi ván"),
        gettext("Cước"),
        gettext("Ghi chú"),
    ]
    rows: list[list[Any]] = [
        [
            r["rank"],
            r["name"],
            r["team"],
            r["points"],
            r["van"],
            r["wins"],
            r["best_win"],
            r["per_van"],
            _cuoc(r["cuoc"]),
            ", ".join(
                n for n, on in ((gettext("đồng hạng"), r["tied"]), (gettext("đã rút"), r["withdrawn"])) if on
            ),
        ]
        for r in state.board.rows
    ]
    rows.append([])
    rows.append(
        [
            gettext("Hạng"),
            gettext("Làng / giáp / đội"),
            gettext("Số người"),
            gettext("Điểm"),
            gettext("Số ván"),
            gettext("Ván ù"),
            gettext("Ván ù lớn nhất"),
            gettext("Điểm mỗi ván"),
            gettext("Cước"),
            "",
        ]
    )
    rows.extend(
        [
            t["rank"],
            t["name"],
            t["players"],
            t["points"],
            t["van"],
            t["wins"],
            t["best_win"],
            t["per_van"],
            _cuoc(t["cuoc"]),
            "",
        ]
        for t in state.board.teams
    )
    return f"{event.slug}-bang-xep-hang{suffix}.csv", header, rows


def statement_csv(event: Event, player_id: int) -> HttpResponse:
    """One player's statement (sao kê): every point won or paid at the event, with why."""
    return csv_download(*statement_table(event, player_id))


def statement_table(event: Event, player_id: int) -> tuple[str, list[str], list[list[Any]]]:
    """File name, header and rows of a player's statement (shared by the CSV and the XLSX)."""
    reg = registration_for(event, player_id)
    if reg is None:
        raise Http404(gettext("Người này không đăng ký giải."))
    header = [gettext(h) for h in ("Vòng", "Chiếu", "Ván", "Lúc", "Điểm", "Cộng dồn", "Diễn giải")]
    rows = [
        [
            r["round"],
            r["table"],
            r["van"],
            timezone.localtime(r["at"]).strftime("%d/%m/%Y %H:%M"),
            r["amount"],
            r["total"],
            reason(r["why"]),
        ]
        for r in player_statement(event, player_id)
    ]
    return f"{event.slug}-sao-ke-{vi_slugify(reg.player.name) or player_id}.csv", header, rows
