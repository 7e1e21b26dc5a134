"""Two-person confirmation on the sitting page: confirm or reject a provisional ván.

Each ván of a sitting that needs confirmation shows the partial ``scoring/_van_review.html``
(its status badge, and the Confirm / Reject buttons for who may review it and did not enter it).
Its forms post here with an idempotency key; htmx swaps the partial with the ván's new status,
or with the refusal (403 own ván, 409 already reviewed, 422 key reused, 400 no reason). Without
JavaScript the forms post normally and the answer redirects to the sitting page with a message.

Who may review: ``scoring.permissions.can(request, REVIEW, sitting)``: a keeper of the sitting or
a seated player, signed in with their own account (a table PIN session is not enough: the
confirmer must be known). The service refuses the submitter; the database does too.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from scoring.access import SIGN_IN_FIRST, NotSignedIn, get_sitting, sitting_url
from scoring.engine import EngineError
from scoring.htmx import is_htmx
from scoring.models import Sitting, Van
from scoring.permissions import REVIEW, can, review_via
from scoring.respond import respond, status_of
from scoring.selectors.ledger import van_json
from scoring.services.review import NoSuchVan, van_confirm, van_reject
from scoring.views.sitting.common import missing_in_vietnamese, posted_key

__all__ = ["van_confirm_view", "van_reject_view"]

PARTIAL = "scoring/_van_review.html"


def _partial(request: HttpRequest, sitting: Sitting, seq: int, status: int, **extra: Any) -> HttpResponse:
    """The review partial of ván ``seq`` as it stands now."""
    van = (
        Van.objects.select_related("winner", "entered_by", "confirmed_by", "sitting")
        .filter(sitting=sitting, seq=seq, is_current=True)
        .first()
    )
    if van is None:
        raise Http404(gettext("Canh bài số {pk} không có ván số {seq}.").format(pk=sitting.pk, seq=seq))
    return render(request, PARTIAL, {"v": van_json(van, []), "sitting": sitting, **extra}, status=status)


def _answer(request: HttpRequest, sitting: Sitting, seq: int, message: str, status: int) -> HttpResponse:
    """htmx: the partial with the message (an error above 299); otherwise back to the sitting page."""
    if is_htmx(request):
        key = "review_notice" if status < 300 else "review_error"
        return _partial(request, sitting, seq, status, **{key: message})
    (messages.success if status < 300 else messages.error)(request, message)
    return redirect("scoring:sitting", pk=sitting.pk)


def _review(request: HttpRequest, pk: int, seq: int, *, reject: bool) -> HttpResponse:
    sitting = get_sitting(pk)
    if not request.user.is_authenticated:  # the sign-in page, then back to the sitting (htmx: HX-Redirect)
        return respond(NotSignedIn(SIGN_IN_FIRST, back=sitting_url(sitting)), request, page=True)
    if not can(request, REVIEW, sitting):
        raise PermissionDenied(
            gettext(
                "Chỉ người chơi ở chiếu (đăng nhập bằng tài khoản của mình) và thư ký ghi điểm "
                "mới được xác nhận hay bác ván."
            )
        )
    try:
        key = posted_key(request)
        via = review_via(request, sitting)
        if reject:
            written = van_reject(
                sitting=sitting.pk,
                seq=seq,
                reviewer=request.user,
                reason=request.POST.get("reason", ""),
                idempotency_key=key,
                via=via,
            )
        else:
            written = van_confirm(
                sitting=sitting.pk, seq=seq, reviewer=request.user, idempotency_key=key, via=via
            )
    except NoSuchVan as exc:
        raise Http404(exc.message) from None
    except EngineError as exc:  # refused (403), no longer provisional (409), a reused key (422)…
        return _answer(request, sitting, seq, exc.message, status_of(exc))
    done = gettext("Đã bác ván {seq}.") if reject else gettext("Đã xác nhận ván {seq}.")
    return _answer(request, sitting, seq, done.format(seq=written.obj.seq), 200)


@require_POST
@missing_in_vietnamese
def van_confirm_view(request: HttpRequest, pk: int, seq: int) -> HttpResponse:
    """Confirm the current version of ván ``seq``."""
    return _review(request, pk, seq, reject=False)


@require_POST
@missing_in_vietnamese
def van_reject_view(request: HttpRequest, pk: int, seq: int) -> HttpResponse:
    """Reject the current version of ván ``seq`` with a reason (the scorekeeper then corrects it)."""
    return _review(request, pk, seq, reject=True)
