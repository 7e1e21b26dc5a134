"""Event reports: standings as XLSX and printable PDF, each player's statement as XLSX and PDF
(the rows of :mod:`tournaments.exports`, which also makes the CSV), score sheets of a round's
tables with their QR codes, the chart of the leaders' points over the event, and the JSON backup
of the whole event (:func:`tournaments.backup.event_backup`)."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, pgettext
from django.views.decorators.http import require_GET

from scoring.models import Account, Posting, TransactionKind
from scoring.reports.data import local
from scoring.reports.jobs import XLSX, counted_sheet, pdf_stages, register, report_or_job
from scoring.reports.pdf import pdf_response
from scoring.reports.sheets import score_sheet
from scoring.reports.tabular import Sheet, sheet_response
from scoring.selectors.rules import applied_rules_name
from scoring.services.report_files import Progress
from scoring.text import vi_slugify
from tournaments.access import organised_event, public_event, statement_access
from tournaments.backup import event_backup
from tournaments.exports import standings_table, statement_table
from tournaments.models import Event, Round, RoundFormat, Table
from tournaments.selectors.pages import board_state, cuoc_scorers, registration_for
from tournaments.selectors.sittings import sitting_rounds

#: Players drawn on the event chart by default (the leaders): more lines cannot be read.
CHART_PLAYERS = 8
#: Above this many ván the event chart shows one point per round.
CHART_MAX_POINTS = 300


def _stem(filename: str) -> str:
    return filename.rsplit(".", 1)[0]


# -- standings ---------------------------------------------------------------------------------


def standings_sheet(event: Event) -> tuple[str, Sheet]:
    """The CSV's rows as a workbook: players on the first sheet, villages/teams on the second."""
    filename, header, rows = standings_table(event)
    gap = rows.index([]) if [] in rows else len(rows)
    teams = rows[gap + 1 :]
    more = (Sheet("Lang - doi", teams[0], teams[1:]),) if teams else ()
    return _stem(filename), Sheet("Bang xep hang", header, rows[:gap], more=more)


def _big(
    request: HttpRequest,
    event: Event,
    kind: str,
    filename: str,
    version: str,
    build: Callable[[], HttpResponse],
    **params: Any,
) -> HttpResponse:
    """An XLSX or PDF of the event: built here when the event has few ván, else rendered on the
    bulk lane (:func:`scoring.reports.jobs.report_or_job`), kept by ``version``."""
    board = getattr(event, "leaderboard", None)
    pdf = filename.endswith(".pdf")
    return report_or_job(
        request,
        kind=kind,
        params={"event": event.pk, **params},
        size=board.van_count if board is not None else 0,
        version=lambda: version,
        filename=filename,
        content_type="application/pdf" if pdf else XLSX,
        inline=pdf,
        build=build,
    )


def _standings_version(event: Event) -> str:
    """What the standings show: the stored board's version, and whether it is behind its ledger."""
    board = getattr(event, "leaderboard", None)
    return f"b{board.version if board is not None else 0}e{event.ledger_seq}"


@require_GET
def standings_xlsx(request: HttpRequest, slug: str) -> HttpResponse:
    event = public_event(request, slug, fresh=True)

    def build() -> HttpResponse:
        stem, sheet = standings_sheet(event)
        return sheet_response(sheet, "xlsx", stem)

    stem = _stem(standings_filename(event))
    return _big(request, event, "event.standings_xlsx", f"{stem}.xlsx", _standings_version(event), build)


def standings_filename(event: Event) -> str:
    """The standings' file name (with ".csv"), as :func:`standings_table` names it, without its rows."""
    return f"{event.slug}-bang-xep-hang{'-tam-tinh' if board_state(event).provisional else ''}.csv"


def standings_context(event: Event) -> dict[str, Any]:
    event = Event.objects.select_related("leaderboard", "rules").get(pk=event.pk)
    state = board_state(event)
    return {
        "event": event,
        "rules_name": applied_rules_name(event.rules),
        "state": state,
        "rows": state.board.rows,
        "teams": state.board.teams,
        "cuoc": cuoc_scorers(state.board.rows),
        "printed_at": local(timezone.now()),
    }


@require_GET
def standings_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings page, printable: players, villages/teams, who scored which cước."""
    event = public_event(request, slug, fresh=True)
    stem = _stem(standings_filename(event))

    def build() -> HttpResponse:
        return pdf_response("reports/standings.html", standings_context(event), request, stem)

    return _big(request, event, "event.standings_pdf", f"{stem}.pdf", _standings_version(event), build)


# -- a player's statement ------------------------------------------------------------------------


@require_GET
@statement_access
def statement_export(request: HttpRequest, slug: str, player_id: int, fmt: str) -> HttpResponse:
    event = public_event(request, slug, fresh=True)
    reg = registration_for(event, player_id)
    if reg is None:  # answered by statement_table as before
        return _statement(request, event, player_id, fmt)
    stem = f"{event.slug}-sao-ke-{vi_slugify(reg.player.name) or player_id}"
    return _big(
        request,
        event,
        f"event.statement_{fmt}",
        f"{stem}.{fmt}",
        f"e{event.ledger_seq}",
        lambda: _statement(request, event, player_id, fmt),
        player=player_id,
    )


def _statement(request: HttpRequest, event: Event, player_id: int, fmt: str) -> HttpResponse:
    if fmt == "xlsx":
        stem, sheet = statement_sheet(event, player_id)
        return sheet_response(sheet, "xlsx", stem)
    stem, context = statement_context(event, player_id)
    return pdf_response("reports/event_statement.html", context, request, stem)


def statement_sheet(event: Event, player_id: int) -> tuple[str, Sheet]:
    filename, header, rows = statement_table(event, player_id)
    total = rows[-1][5] if rows else 0
    return _stem(filename), Sheet(
        pgettext("sheet", "Sao ke"), header, [*rows, [gettext("Tổng"), "", "", "", total, total, ""]]
    )


def statement_context(event: Event, player_id: int) -> tuple[str, dict[str, Any]]:
    filename, header, rows = statement_table(event, player_id)
    reg = registration_for(event, player_id)
    assert reg is not None  # statement_table raised Http404 otherwise
    context = {
        "event": event,
        "reg": reg,
        "header": header,
        "rows": rows,
        "total": rows[-1][5] if rows else 0,
        "printed_at": local(timezone.now()),
    }
    return _stem(filename), context


# -- score sheets ----------------------------------------------------------------------------------


def _sheet_for(request: HttpRequest, event: Event, table: Table) -> dict[str, Any]:
    sitting = table.sitting
    # the table's page: a PIN scorekeeper gets its PIN form there (the sổ điểm needs an account)
    url = request.build_absolute_uri(reverse("tournaments:table", args=[event.slug, table.pk]))
    rows = event.van_per_round if event.round_format == RoundFormat.VAN else None
    extra = [
        (
            gettext("Ngày"),
            event.date.strftime("%d/%m/%Y") + (f" ({event.lunar_shown})" if event.lunar_label else ""),
        )
    ]
    return score_sheet(
        sitting,
        url,
        heading=gettext("Vòng {round} · Chiếu {table}").format(round=table.round.number, table=table.number),
        subheading=event.name,
        rows=rows,
        extra=extra,
    )


@require_GET
@login_required
def round_sheets_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Score sheets of every table of a round, one page each (for the organisers to print)."""
    event = organised_event(request, slug)
    rnd = get_object_or_404(Round, event=event, number=number)
    tables = rnd.tables.select_related("round", "sitting__rules").order_by("number")
    sheets = [_sheet_for(request, event, t) for t in tables]
    if not sheets:
        raise Http404(gettext("Vòng này chưa có chiếu nào."))
    return pdf_response(
        "reports/score_sheets.html", {"sheets": sheets}, request, f"{event.slug}-vong-{number}-bang-diem"
    )


@require_GET
@login_required
def table_sheet_pdf(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    event = organised_event(request, slug)
    table = get_object_or_404(
        Table.objects.select_related("round", "sitting__rules"), event=event, pk=table_id
    )
    return pdf_response(
        "reports/score_sheets.html",
        {"sheets": [_sheet_for(request, event, table)]},
        request,
        f"{event.slug}-vong-{table.round.number}-chieu-{table.number}",
    )


# -- backup ------------------------------------------------------------------------------------------


@require_GET
@login_required
def backup_json(request: HttpRequest, slug: str) -> HttpResponse:
    event = organised_event(request, slug)
    response = HttpResponse(
        json.dumps(event_backup(event), ensure_ascii=False, indent=1),
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-sao-luu.json"'
    return response


# -- chart -------------------------------------------------------------------------------------------


def _chosen(event: Event, request: HttpRequest) -> list[int]:
    raw = request.GET.get("nguoi", "")
    if raw:
        return [int(x) for x in raw.split(",") if x.strip().isdigit()][:24]
    board = board_state(Event.objects.select_related("leaderboard").get(pk=event.pk)).board
    return [r["key"] for r in board.rows[:CHART_PLAYERS] if isinstance(r.get("key"), int)]


def event_series(event: Event, players: list[int]) -> dict[str, Any]:
    """Each chosen player's points after every ván of the event (chronological; one point per
    round when the event has more than :data:`CHART_MAX_POINTS` ván), from the ledger."""
    round_of = sitting_rounds(event)
    rows = (
        Posting.objects.filter(
            sitting_id__in=list(round_of),
            account=Account.PLAYER,
            seat__player_id__in=players,
            transaction__kind__in=[TransactionKind.GOM, TransactionKind.VAN],
            transaction__reversed_by__isnull=True,
            transaction__van__is_current=True,
        )
        .order_by("transaction_id")
        .values_list("transaction__van_id", "sitting_id", "seat__player_id", "seat__player__name", "amount")
    )
    steps: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    rounds: dict[int, Any] = {}
    names: dict[int, str] = {}
    for van_id, sitting_id, player_id, name, amount in rows:
        steps[van_id][player_id] += amount
        rounds.setdefault(van_id, round_of.get(sitting_id))
        names[player_id] = name
    order = list(steps)
    by_round = len(order) > CHART_MAX_POINTS
    labels, running = [gettext("Bắt đầu")], dict.fromkeys(players, 0)
    series: dict[int, list[int]] = {p: [0] for p in players}
    for i, van_id in enumerate(order):
        for p, amount in steps[van_id].items():
            running[p] += amount
        last_of_round = i + 1 == len(order) or rounds[order[i + 1]] != rounds[van_id]
        if by_round and not last_of_round:
            continue
        labels.append(gettext("Vòng {n}").format(n=rounds[van_id]) if by_round else f"{len(labels)}")
        for p in players:
            series[p].append(running[p])
    return {
        "title": event.name,
        "labels": labels,
        "by_round": by_round,
        "datasets": [{"label": names.get(p, str(p)), "player": p, "data": series[p]} for p in players],
    }


@require_GET
def chart_json(request: HttpRequest, slug: str) -> JsonResponse:
    event = public_event(request, slug, fresh=True)
    return JsonResponse(
        event_series(event, _chosen(event, request)), json_dumps_params={"ensure_ascii": False}
    )


@require_GET
def chart_page(request: HttpRequest, slug: str) -> HttpResponse:
    event = public_event(request, slug, fresh=True)
    url = reverse("tournaments:report_chart_json", args=[event.slug])
    return render(
        request, "reports/event_chart.html", {"nav": "tournaments", "event": event, "chart_url": url}
    )


# -- big reports on the bulk lane (scoring/reports/jobs.py) ---------------------------------------


def _event(params: dict[str, Any]) -> Event:
    return Event.objects.select_related("leaderboard").get(pk=params["event"])


def _render_standings_pdf(params: dict[str, Any], progress: Progress) -> bytes:
    event = _event(params)
    return pdf_stages("reports/standings.html", lambda: standings_context(event), progress)


def _render_standings_xlsx(params: dict[str, Any], progress: Progress) -> bytes:
    event = _event(params)
    progress("data", 0, 1, force=True)
    _, sheet = standings_sheet(event)
    rows = list(sheet.rows)
    return counted_sheet(Sheet(sheet.title, sheet.headers, rows, more=sheet.more), len(rows), progress)


def _render_statement_pdf(params: dict[str, Any], progress: Progress) -> bytes:
    event = _event(params)
    return pdf_stages(
        "reports/event_statement.html", lambda: statement_context(event, params["player"])[1], progress
    )


def _render_statement_xlsx(params: dict[str, Any], progress: Progress) -> bytes:
    event = _event(params)
    progress("data", 0, 1, force=True)
    _, sheet = statement_sheet(event, params["player"])
    rows = list(sheet.rows)
    return counted_sheet(Sheet(sheet.title, sheet.headers, rows), len(rows), progress)


register("event.standings_pdf", _render_standings_pdf)
register("event.standings_xlsx", _render_standings_xlsx)
register("event.statement_pdf", _render_statement_pdf)
register("event.statement_xlsx", _render_statement_xlsx)
