"""The sitting page: live balances, the ván list, and recording a ván (preview, then save).

htmx: every change of the ván form posts to the preview (``#preview`` is swapped); "Lưu ván"
posts to the record view, which answers with the whole ``#sitting`` partial (new balances, the
ván list and a fresh form with a new idempotency key). Without JavaScript the same forms post
normally and the pages redirect after a write.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from scoring.access import sitting_for
from scoring.engine import EngineError
from scoring.htmx import is_htmx, render_htmx
from scoring.models import Sitting, Van
from scoring.permissions import KEEP, VIEW, can, entry_via
from scoring.respond import respond, status_of
from scoring.selectors.sitting import GUEST, SittingFacts, describe, sitting_data
from scoring.services.idempotency import IdempotencyMismatch
from scoring.services.quotas import VAN, charge
from scoring.services.sittings import SequenceConflict, van_record
from scoring.views.sitting.common import (
    form_words,
    missing_in_vietnamese,
    new_key,
    posted_key,
    posted_seq,
    preview,
    user_of,
    van_form_context,
)
from scoring.views.sitting.form import VanForm

DETAIL = "scoring/sitting_detail.html"
CORRECT = "scoring/sitting_correct.html"


def page_context(
    sitting: Sitting,
    *,
    form: VanForm | None = None,
    key: str | None = None,
    seq: int | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """The sitting page's context; a fresh form (new key, next number) unless given."""
    data = sitting_data(sitting)
    table: SittingFacts = data["table"]
    form = form or VanForm(ranks=[""] * len(data["names"]))
    context = {**data, **van_form_context(table, form, key=key or new_key(), seq=seq or data["next_seq"])}
    context.setdefault("preview", {"idle": True})
    return {"nav": "sitting", **context, **extra}


@require_http_methods(["GET", "HEAD"])
@missing_in_vietnamese
def sitting_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The sitting for whoever may see it; the ván form only for whoever may write in it."""
    sitting = sitting_for(request, pk, VIEW)
    context = page_context(sitting, read_only=not can(request, KEEP, sitting))
    return render_htmx(request, DETAIL, context, partial="sitting")


@require_POST
@missing_in_vietnamese
def van_preview_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Preview the tapped ván (the next one, or with ``correct_seq`` the correction of that one)."""
    sitting = sitting_for(request, pk, KEEP)
    table = SittingFacts.of(sitting)
    form = VanForm.from_post(request.POST, sitting.seats.count())
    correct_seq = request.POST.get("correct_seq")
    try:
        seq = posted_seq(correct_seq) if correct_seq else None
    except EngineError as exc:
        shown: dict[str, Any] = {"error": exc.message, "status": status_of(exc)}
    else:
        shown = preview(table, form, seq=seq)
    status = shown.get("status", 200)  # a refused preview: its error's status (scoring.errors)
    if is_htmx(request):
        return render_htmx(
            request, "scoring/sitting_preview.html", {"preview": shown, "table": table}, status=status
        )
    if seq is not None:
        from scoring.views.sitting.correct import correct_context  # the correction page, prefilled

        van = Van.objects.filter(sitting=sitting, seq=seq, is_current=True).first()
        if van is not None:
            context = correct_context(
                sitting,
                van,
                form=form,
                key=request.POST.get("key") or new_key(),
                reason=request.POST.get("reason", ""),
                preview=shown,
            )
            return render_htmx(request, CORRECT, context, status=status)
    context = page_context(
        sitting,
        form=form,
        key=request.POST.get("key") or None,
        seq=_seq_or_none(request.POST.get("seq")),
        preview=shown,
    )
    return render_htmx(request, DETAIL, context, status=status)


def _seq_or_none(value: Any) -> int | None:
    try:
        return posted_seq(value)
    except EngineError:
        return None


@require_POST
@missing_in_vietnamese
def van_record_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Record ván ``seq`` with the form's idempotency key: a repeat answers as the first time did;
    a number someone else took is refused (409) with the sitting as it stands now."""
    sitting = sitting_for(request, pk, KEEP)
    charge(request=request, quota=VAN, sitting=sitting)
    table = SittingFacts.of(sitting)
    form = VanForm.from_post(request.POST, sitting.seats.count())
    key = request.POST.get("key") or None
    try:
        key = posted_key(request)
        seq = posted_seq(request.POST.get("seq"))
        record = form.record(table.game)
        written = van_record(
            sitting=sitting.pk,
            seq=seq,
            record=record,
            idempotency_key=key,
            entered_by=user_of(request),
            cards=form.cards,
            via=entry_via(request, sitting),
        )
    except (IdempotencyMismatch, SequenceConflict) as exc:
        return _refused(request, sitting, form, exc)
    except EngineError as exc:
        sitting.refresh_from_db()
        context = page_context(
            sitting,
            form=form,
            key=key,
            seq=_seq_or_none(request.POST.get("seq")),
            error=form_words(exc),
            preview=preview(table, form, seq=None),
        )
        return respond(exc, request, DETAIL, context, partial="sitting")
    van = written.obj
    notice = (
        gettext("Ván {seq} đã được lưu từ trước (gửi lặp): không ghi thêm gì.").format(seq=van.seq)
        if written.answer.replayed
        else gettext("Đã lưu ván {seq}: {what}.").format(seq=van.seq, what=describe(table, van.record))
    )
    if is_htmx(request):
        sitting.refresh_from_db()
        return render_htmx(request, DETAIL, page_context(sitting, notice=notice), partial="sitting")
    messages.success(request, notice)
    return redirect("scoring:sitting", pk=sitting.pk)


def _refused(
    request: HttpRequest,
    sitting: Sitting,
    form: VanForm,
    exc: EngineError,
) -> HttpResponse:
    """Show the sitting as it stands now with the message; the taps are kept, under a new key and
    the next free number, so nothing is appended unless the scorekeeper taps "Lưu ván" again."""
    sitting.refresh_from_db()
    table = SittingFacts.of(sitting)
    shown = None
    taken = exc.state.get("van") if isinstance(exc, SequenceConflict) else None
    if taken:
        shown = {
            "seq": taken["seq"],
            "summary": describe(table, taken["record"]),
            "by": taken.get("entered_by") or gettext(GUEST),
        }
    context = page_context(
        sitting,
        form=form,
        error=exc.message,
        conflict=shown,
        preview=preview(table, form, seq=None) if sitting.ended_at is None else {"idle": True},
    )
    return respond(exc, request, DETAIL, context, partial="sitting")
