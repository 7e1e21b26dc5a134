"""Who may reach a sitting, answered at the edge (pages, reports, the offline pack, the API's
words): the refusals in Vietnamese, :func:`sitting_for` and the answers a refused request gets.

Shared by page views, reports and the offline pack, so none of them imports another's views; the
rules themselves are :mod:`scoring.permissions`.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy

from scoring.engine import N_
from scoring.models import Sitting
from scoring.permissions import KEEP, VIEW, can
from scoring.refusals import NotAllowed, NotSignedIn, Refusal
from scoring.respond import respond

__all__ = [
    "REFUSALS",
    "NotAllowed",
    "NotSignedIn",
    "Refusal",
    "denied",
    "get_sitting",
    "refuse",
    "sitting_for",
    "to_login",
]

#: Why a request may not see (VIEW) or write in (KEEP) a sitting: message templates.
REFUSED = {
    VIEW: N_(
        "Bạn không có quyền xem canh bài này: chỉ người trong làng hoặc câu lạc bộ của canh, người ngồi "
        "chiếu và ban tổ chức mới xem được."
    ),
    KEEP: N_(
        "Bạn không có quyền ghi vào canh bài này: chỉ người mở canh, thư ký ghi điểm và chủ sổ của làng "
        "hoặc câu lạc bộ mới ghi được."
    ),
}
#: The same, in the request's language when shown (the API's permission messages).
REFUSALS = {what: gettext_lazy(template) for what, template in REFUSED.items()}
SIGN_IN_FIRST = N_("Hãy đăng nhập trước.")


def to_login(request: HttpRequest, next_url: str | None = None) -> HttpResponse:
    """Send an anonymous visitor to the sign-in page, back to ``next_url`` (this page) afterwards;
    an htmx request is told to load the sign-in page as a whole page (``HX-Redirect``)."""
    return respond(NotSignedIn(SIGN_IN_FIRST, back=next_url), request, page=True)


def denied(request: HttpRequest, message: str) -> HttpResponse:
    """The 403 page (a signed-in person who may not do this), in Vietnamese; htmx gets the message only."""
    return respond(NotAllowed(message), request, page=True)


def get_sitting(pk: int) -> Sitting:
    found = Sitting.objects.select_related("rules", "club", "created_by").filter(pk=pk).first()
    if found is None:
        raise Http404(gettext("Không có canh bài số {pk}.").format(pk=pk))
    return found


def sitting_for(request: HttpRequest, pk: int, what: str) -> Sitting:
    """The sitting ``pk`` if the request may ``what`` (VIEW or KEEP) with it: Http404 when there
    is none; when the request may not, :class:`NotSignedIn` for an anonymous visitor (who signs
    in, then comes back to the sitting), else :class:`NotAllowed`."""
    sitting = get_sitting(pk)
    if can(request, what, sitting):
        return sitting
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        why = gettext(REFUSED[what])
        back = None if request.method in ("GET", "HEAD") else sitting_url(sitting)
        raise NotSignedIn(N_("Hãy đăng nhập trước: {why}"), why=why[0].lower() + why[1:], back=back)
    raise NotAllowed(REFUSED[what])


def sitting_url(sitting: Sitting) -> str:
    return reverse("scoring:sitting", args=[sitting.pk])


def refuse(request: HttpRequest, refusal: Refusal) -> HttpResponse:
    """A page's answer to a refusal: the sign-in page for an anonymous visitor, else the 403 page."""
    return respond(refusal, request, page=True)
