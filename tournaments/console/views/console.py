"""The Trung Quân console (tablet, htmx): pads per seat, the nọc, dealer, turn, timer, the ván form.

Every view is for the table's Trung Quân, its event's organisers and staff (login required,
403 for anyone else). Writes go through :mod:`tournaments.console.services`; each answers with
the live part of the page (and, for an ù, the ván form pre-filled with the winner).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from scoring.engine import EngineError
from tournaments.console import services
from tournaments.console.models import SignalEffect
from tournaments.console.views.common import (
    CONSOLE,
    console_context,
    final_status,
    intval,
    render_live,
    run_table,
    stream_id,
    tq_login_required,
    user_error,
    van_form_context,
)

__all__ = ["console", "dealer", "live", "noc", "signal", "turn", "van_form", "van_record", "van_start"]

VAN_FORM = "console/_van_form.html"


@tq_login_required
@require_GET
def console(request: HttpRequest, pk: int) -> HttpResponse:
    table = run_table(request, pk)
    context = console_context(table)
    context["stream_id"] = stream_id(table)
    if context["state"]["u_seats"]:
        context["van"] = van_form_context(table)
    return render(request, CONSOLE, context)


@tq_login_required
@require_GET
def live(request: HttpRequest, pk: int) -> HttpResponse:
    return render_live(request, run_table(request, pk))


@tq_login_required
@require_POST
def signal(request: HttpRequest, pk: int) -> HttpResponse:
    table = run_table(request, pk)
    try:
        written = services.signal_send(
            table=table,
            seat=request.POST.get("seat"),
            signal=request.POST.get("signal"),
            by=request.user,
            idempotency_key=request.headers.get("Idempotency-Key") or None,
        )
    except EngineError as exc:
        return render_live(request, table, error=user_error(exc), status=final_status(exc))
    extra: dict[str, Any] = {}
    if written.obj.signal.effect == SignalEffect.U:
        extra["van_oob"] = van_form_context(table, winner=written.obj.seat)
    return render_live(request, table, extra=extra)


@tq_login_required
@require_POST
def noc(request: HttpRequest, pk: int) -> HttpResponse:
    table = run_table(request, pk)
    action = request.POST.get("action", "")
    try:
        if action == "set":
            services.noc_change(table=table, value=intval(request.POST.get("value")))
        else:
            services.noc_change(table=table, delta=-1 if action == "draw" else 1)
    except EngineError as exc:
        return render_live(request, table, error=user_error(exc), status=final_status(exc))
    return render_live(request, table)


@tq_login_required
@require_POST
def turn(request: HttpRequest, pk: int) -> HttpResponse:
    table = run_table(request, pk)
    try:
        if request.POST.get("action") == "next":
            services.turn_set(table=table, advance=True)
        else:
            services.turn_set(table=table, seat=intval(request.POST.get("seat")))
    except EngineError as exc:
        return render_live(request, table, error=user_error(exc), status=final_status(exc))
    return render_live(request, table)


@tq_login_required
@require_POST
def dealer(request: HttpRequest, pk: int) -> HttpResponse:
    table = run_table(request, pk)
    try:
        services.dealer_set(table=table, seat=intval(request.POST.get("seat")))  # type: ignore[arg-type]
    except EngineError as exc:
        return render_live(request, table, error=user_error(exc), status=final_status(exc))
    return render_live(request, table)


@tq_login_required
@require_POST
def van_start(request: HttpRequest, pk: int) -> HttpResponse:
    table = run_table(request, pk)
    try:
        services.van_start(table=table)
    except EngineError as exc:
        return render_live(request, table, error=user_error(exc), status=final_status(exc))
    return render_live(request, table, extra={"van_oob_clear": True})


@tq_login_required
@require_GET
def van_form(request: HttpRequest, pk: int) -> HttpResponse:
    table = run_table(request, pk)
    context = van_form_context(
        table, winner=intval(request.GET.get("winner")), hoa=request.GET.get("hoa") == "1"
    )
    return render(request, VAN_FORM, {"van": context})


def _record(request: HttpRequest) -> tuple[dict[str, Any], list[str]]:
    data = request.POST
    picked = [c for c in data.getlist("cuoc") if c]
    if data.get("outcome") == "hoa":
        record: dict[str, Any] = {"result": "hoa"}
        if data.get("dau_ke"):
            record["dau_ke"] = data["dau_ke"]
        return record, picked
    record = {"winner": data.get("winner", "")}
    if picked:
        record["cuoc"] = picked
    return record, picked


@tq_login_required
@require_POST
def van_record(request: HttpRequest, pk: int) -> HttpResponse:
    """Record the ván (a win with its cước, or a draw); the display announces it."""
    table = run_table(request, pk)
    record, picked = _record(request)
    hoa = "result" in record
    status = 200
    if not hoa and not record["winner"]:
        error = gettext("Hãy chọn người ù.")
    else:
        try:
            services.van_finish(
                table=table,
                seq=intval(request.POST.get("seq")) or table.van_seq,
                record=record,
                by=request.user,
                idempotency_key=request.POST.get("key") or None,
                sitting=intval(request.POST.get("canh")),
            )
        except EngineError as exc:
            error, status = user_error(exc), final_status(exc)
        else:
            response = render_live(request, table, extra={"van_oob_clear": True})
            response["HX-Retarget"] = "#tq-live"
            response["HX-Reswap"] = "innerHTML"
            return response
    winner = next((s.position for s in table.sitting.seats.all() if s.name == record.get("winner")), None)
    context = van_form_context(table, winner=winner, hoa=hoa, error=error, picked=picked)
    return render(request, VAN_FORM, {"van": context}, status=status)
