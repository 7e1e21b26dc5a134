"""Who may reach a sitting, answered at the edge (pages, reports, the offline pack, the API's
words): the refusals in Vietnamese, :func:`sitting_for` and the answers a refused request gets.

Shared by page views, reports and the offline pack, so none of them imports another's views; the
rules themselves are :mod:`scoring.permissions`.
"""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from django_htmx.http import HttpResponseClientRedirect

from scoring.htmx import is_htmx, render_htmx
from scoring.models import Sitting
from scoring.permissions import KEEP, VIEW, can

__all__ = [
    "REFUSALS",
    "NotAllowed",
    "denied",
    "get_sitting",
    "refuse",
    "refuse_json",
    "sitting_for",
    "to_login",
]

DENIED_TEMPLATE = "accounts/denied.html"
REFUSALS = {
    VIEW: gettext_lazy(
        "Bạn không có quyền xem canh bài này: chỉ người trong làng hoặc câu lạc bộ của canh, người ngồi "
        "chiếu và ban tổ chức mới xem được."
    ),
    KEEP: gettext_lazy(
        "Bạn không có quyền ghi vào canh bài này: chỉ người mở canh, thư ký ghi điểm và chủ sổ của làng "
        "hoặc câu lạc bộ mới ghi được."
    ),
}


def to_login(request: HttpRequest, next_url: str | None = None) -> HttpResponse:
    """Send an anonymous visitor to the sign-in page, back to ``next_url`` (this page) afterwards;
    an htmx request is told to load the sign-in page as a whole page."""
    target = next_url or request.get_full_path()
    response = redirect_to_login(target)
    if is_htmx(request):
        return HttpResponseClientRedirect(response["Location"])
    return response


def denied(request: HttpRequest, message: str) -> HttpResponse:
    """The 403 page (a signed-in person who may not do this), in Vietnamese; htmx gets the message only."""
    return render_htmx(
        request, DENIED_TEMPLATE, {"message": message, "nav": "sitting"}, partial="denied", status=403
    )


def get_sitting(pk: int) -> Sitting:
    found = Sitting.objects.select_related("rules", "club", "created_by").filter(pk=pk).first()
    if found is None:
        raise Http404(gettext("Không có canh bài số {pk}.").format(pk=pk))
    return found


class NotAllowed(Exception):
    """The request may not do this with the sitting (see :func:`sitting_for`)."""

    def __init__(self, sitting: Sitting, what: str) -> None:
        message = str(REFUSALS[what])  # in the request's language
        super().__init__(message)
        self.sitting, self.what, self.message = sitting, what, message


def sitting_for(request: HttpRequest, pk: int, what: str) -> Sitting:
    """The sitting ``pk`` if the request may ``what`` (VIEW or KEEP) with it: Http404 when there
    is none, :class:`NotAllowed` when the request may not (see :func:`missing_in_vietnamese`)."""
    sitting = get_sitting(pk)
    if not can(request, what, sitting):
        raise NotAllowed(sitting, what)
    return sitting


def refuse(request: HttpRequest, refusal: NotAllowed) -> HttpResponse:
    """An anonymous visitor signs in first (then comes back to the sitting); anyone else gets 403."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        back = (
            None
            if request.method in ("GET", "HEAD")
            else reverse("scoring:sitting", args=[refusal.sitting.pk])
        )
        return to_login(request, back)
    return denied(request, refusal.message)


def refuse_json(request: HttpRequest, refusal: NotAllowed) -> JsonResponse:
    """The same refusal for a JSON endpoint of the pages (chart data, offline pack): 401 or 403."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        response = JsonResponse(
            {
                "error": gettext("Hãy đăng nhập trước: {why}").format(
                    why=refusal.message[0].lower() + refusal.message[1:]
                ),
                "code": "not_authenticated",
            },
            status=401,
        )
        response["WWW-Authenticate"] = 'Session realm="so-tom"'
        return response
    return JsonResponse({"error": refusal.message, "code": "permission_denied"}, status=403)
