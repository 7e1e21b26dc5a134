"""Correcting a ván (with a required reason) and settling up at the end of a sitting."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from scoring.access import sitting_for
from scoring.engine import N_, EngineError
from scoring.htmx import is_htmx, render_htmx
from scoring.models import Posting, Sitting, TransactionKind, Van
from scoring.permissions import KEEP, VIEW, can, entry_via
from scoring.respond import respond, status_of
from scoring.selectors.ledger import balances
from scoring.selectors.sitting import GUEST, SittingFacts, describe, transfer_rows
from scoring.services.idempotency import IdempotencyMismatch
from scoring.services.quotas import VAN, charge
from scoring.services.sittings import (
    SequenceConflict,
    SittingClosed,
    correction_target,
    sitting_settle_up,
    van_correct,
)
from scoring.views.sitting.common import (
    form_words,
    missing_in_vietnamese,
    new_key,
    posted_key,
    preview,
    user_of,
    van_form_context,
)
from scoring.views.sitting.form import VanForm

CORRECT = "scoring/sitting_correct.html"
SETTLE = "scoring/sitting_settle.html"


def _after_write(request: HttpRequest, sitting: Sitting, notice: str) -> HttpResponse:
    messages.success(request, notice)
    url = reverse("scoring:sitting", kwargs={"pk": sitting.pk})
    if is_htmx(request):
        return HttpResponseClientRedirect(url)
    return redirect(url)


def correct_context(
    sitting: Sitting, van: Van, *, form: VanForm, key: str, reason: str = "", **extra: Any
) -> dict[str, Any]:
    table = SittingFacts.of(sitting)
    context = van_form_context(table, form, key=key, seq=van.seq)
    return {
        "nav": "sitting",
        "sitting": sitting,
        "table": table,
        "game": table.game,
        "van": van,
        "van_summary": describe(table, van.record),
        "by": van.entered_by.get_username() if van.entered_by else gettext(GUEST),
        "names": [s.name for s in sitting.seats.order_by("position")],
        "reason": reason,
        "preview": preview(table, form, seq=van.seq),
        **context,
        **extra,
    }


def _posted_version(request: HttpRequest) -> int | None:
    """The version the correction form was drawn from (absent on forms older than the field)."""
    raw = (request.POST.get("replaces") or "").strip()
    if not raw:
        return None
    if not raw.isdigit():
        raise EngineError(N_("Biểu mẫu sửa ván bị hỏng (mã phiên bản); hãy tải lại trang rồi sửa lại."))
    return int(raw)


@require_http_methods(["GET", "HEAD", "POST"])
@missing_in_vietnamese
def van_correct_view(request: HttpRequest, pk: int, seq: int) -> HttpResponse:
    """The ván's form prefilled with its record, a required reason, preview, then ``van_correct``."""
    sitting = sitting_for(request, pk, KEEP)
    van = Van.objects.select_related("entered_by").filter(sitting=sitting, seq=seq, is_current=True).first()
    if van is None:
        raise Http404(gettext("Canh bài số {pk} không có ván số {seq}.").format(pk=pk, seq=seq))
    n_seats = sitting.seats.count()
    if sitting.ended_at is not None:  # settled: no correction form to fill in only to be refused
        context = {"nav": "sitting", "sitting": sitting, "van": van, "ended_at": sitting.ended_at}
        return render_htmx(request, CORRECT, context, partial="correct", status=status_of(SittingClosed))
    if request.method != "POST":
        form = VanForm.from_record(van.record, van.cards, n_seats)
        return render_htmx(
            request, CORRECT, correct_context(sitting, van, form=form, key=new_key()), partial="correct"
        )
    charge(
        request=request, quota=VAN, sitting=sitting
    )  # a correction writes again every later ván: it counts
    form = VanForm.from_post(request.POST, n_seats)
    reason = (request.POST.get("reason") or "").strip()
    key = request.POST.get("key") or new_key()
    try:
        record = form.record(SittingFacts.of(sitting).game)
        target = correction_target(
            sitting=sitting.pk, seq=seq, replaces=_posted_version(request), current=van.pk
        )
        van_correct(
            van=target,
            record=record,
            reason=reason,
            corrected_by=user_of(request),
            idempotency_key=posted_key(request),
            cards=form.cards,
            via=entry_via(request, sitting),
        )
    except (IdempotencyMismatch, SequenceConflict) as exc:
        context = correct_context(sitting, van, form=form, key=new_key(), reason=reason, error=exc.message)
        return respond(exc, request, CORRECT, context, partial="correct")
    except EngineError as exc:
        context = correct_context(sitting, van, form=form, key=key, reason=reason, error=form_words(exc))
        return respond(exc, request, CORRECT, context, partial="correct")
    return _after_write(
        request, sitting, gettext("Đã sửa ván {seq}. Lý do: {reason}").format(seq=seq, reason=reason)
    )


def _settle_plan(sitting: Sitting) -> list[dict[str, Any]]:
    """What settling up would post: the service's own answer, in a transaction rolled back."""
    with transaction.atomic():
        written = sitting_settle_up(sitting=sitting.pk, settled_by=None, idempotency_key=None)
        transaction.set_rollback(True)
    return list(written.answer.body["transfers"])


def _settled_lines(sitting: Sitting) -> list[dict[str, Any]]:
    """The settlement entries as posted (each line's reason and amount)."""
    rows = (
        Posting.objects.filter(sitting=sitting, transaction__kind=TransactionKind.SETTLEMENT, amount__gt=0)
        .order_by("transaction_id", "line")
        .values_list("why", "amount")
    )
    return [{"why": why, "amount": amount} for why, amount in rows]


@require_http_methods(["GET", "HEAD", "POST"])
@missing_in_vietnamese
def settle_up_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Preview the fewest transfers (whoever may see the sitting), then record them as settlement
    entries and end the sitting (whoever may write in it)."""
    sitting = sitting_for(request, pk, KEEP if request.method == "POST" else VIEW)
    table = SittingFacts.of(sitting)
    error, status = None, 200
    if request.method == "POST" and sitting.ended_at is None and request.POST.get("confirm") != "1":
        # Settling up ends the canh for good (no more ván, no corrections): asked first.
        unconfirmed = EngineError(
            N_(
                "Hãy đánh dấu ô xác nhận: sau khi thanh toán, canh bài kết thúc, không ghi hay sửa ván được nữa."
            )
        )
        error, status = unconfirmed.message, status_of(unconfirmed)
    elif request.method == "POST" and sitting.ended_at is None:
        try:
            sitting_settle_up(
                sitting=sitting.pk, settled_by=user_of(request), idempotency_key=posted_key(request)
            )
        except EngineError as exc:
            error, status = exc.message, status_of(exc)
        else:
            return _after_write(request, sitting, gettext("Đã thanh toán và kết thúc canh bài."))
        sitting.refresh_from_db()
    context: dict[str, Any] = {
        "nav": "sitting",
        "sitting": sitting,
        "table": table,
        "game": table.game,
        "error": error,
        "ended": sitting.ended_at is not None,
        "ended_at": sitting.ended_at,
        "key": new_key(),
        "read_only": not can(request, KEEP, sitting),
    }
    if context["ended"]:
        context["settled"] = _settled_lines(sitting)
        context["play"] = balances(sitting, play_only=True)
    else:
        now = balances(sitting)
        context["now"] = now
        try:
            context["plan"] = transfer_rows(table, _settle_plan(sitting))
        except EngineError as exc:
            context["error"] = context["error"] or exc.message
    return render_htmx(request, SETTLE, context, status=status)
