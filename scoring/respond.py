"""The one answer to a user error (:class:`~scoring.engine.EngineError`), for every surface, and
the HTTP status of what a write did (services answer domain results: :class:`Outcome`).

:func:`respond` answers with the error's status (:func:`scoring.errors.status_of`): the API's
exception handler (``scoring/api/errors.py``) and the JSON endpoints of the pages get its body
``{"error": message, "code": code, …}``; a page or an htmx partial gets its template rendered with
the context the view built (the message worded there: the view knows which field it belongs to).
A refusal (:mod:`scoring.refusals`: not signed in, not allowed, no such thing, over a quota) on a
page gets its own page with ``page=True``: the sign-in page (htmx: ``HX-Redirect``), the 403 page,
the missing page, the quota page. A view never picks a status for a user error or a refusal itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render as render_page

from scoring.engine import EngineError
from scoring.errors import body_of, code_of, status_of
from scoring.htmx import is_htmx, render_htmx
from scoring.refusals import Missing, NotAllowed, NotSignedIn, Refusal
from scoring.services.idempotency import Answer, Outcome
from scoring.services.quotas import QuotaExceeded

__all__ = [
    "OUTCOME_STATUS",
    "REFUSAL_PAGES",
    "answer_status",
    "respond",
    "site_error",
    "status_of",
    "with_retry_after",
]

#: The challenge sent with a JSON 401 of the pages (their session is the credential).
SESSION_CHALLENGE = 'Session realm="so-tom"'

#: The page (template, htmx partial, the menu's current entry) of each refusal answered with
#: ``page=True``; the first class of the refusal's MRO listed wins. A refusal to sign in is the
#: sign-in page instead.
REFUSAL_PAGES: dict[type[Refusal], tuple[str, str | None, str | None]] = {
    NotAllowed: ("accounts/denied.html", "denied", "sitting"),
    Missing: ("scoring/sitting_missing.html", None, "sitting"),
    QuotaExceeded: ("accounts/quota.html", "quota", None),
    Refusal: ("accounts/denied.html", "denied", "sitting"),
}

#: The HTTP status of what a write did.
OUTCOME_STATUS = {Outcome.CREATED: 201, Outcome.CHANGED: 200, Outcome.QUEUED: 202}


def answer_status(answer: Answer) -> int:
    """The status of a write's answer (a repeat answers as the first time did)."""
    return OUTCOME_STATUS[answer.outcome]


Render = Callable[..., HttpResponse]


def respond(
    error: EngineError,
    request: HttpRequest,
    template: str | None = None,
    context: dict[str, Any] | None = None,
    *,
    partial: str | None = None,
    render: Render = render_htmx,
    page: bool = False,
) -> HttpResponse:
    """The answer to ``error``: JSON (``{"error", "code", …}``) without a ``template``; else the
    page (or its htmx ``partial``) rendered by ``render`` with ``context`` and ``error_code``.
    ``page=True`` (a refusal, no template): the refusal's own page (:data:`REFUSAL_PAGES`)."""
    status = status_of(error)
    if template is None and page and isinstance(error, Refusal):
        answer = _refusal_page(error, request, status)
    elif template is None:
        answer = JsonResponse(body_of(error), status=status, json_dumps_params={"ensure_ascii": False})
        if isinstance(error, NotSignedIn):
            answer["WWW-Authenticate"] = SESSION_CHALLENGE
    else:
        shown = {"error_code": code_of(error), **(context or {})}
        answer = render(request, template, shown, partial=partial, status=status)
    return with_retry_after(answer, error)


def _refusal_page(refusal: Refusal, request: HttpRequest, status: int) -> HttpResponse:
    if isinstance(refusal, NotSignedIn):  # the sign-in page, back here (or to ``back``) afterwards
        login = redirect_to_login(refusal.back or request.get_full_path())
        if not is_htmx(request):
            return login
        answer = HttpResponse(status=status)  # htmx loads the sign-in page as a whole page
        answer["HX-Redirect"] = login["Location"]
        return answer
    template, partial, nav = next(REFUSAL_PAGES[k] for k in type(refusal).__mro__ if k in REFUSAL_PAGES)
    context = {"message": refusal.message, "error_code": code_of(refusal)}
    if nav:
        context["nav"] = nav
    if partial and is_htmx(request):
        template = f"{template}#{partial}"
    return render_page(request, template, context, status=status)


def site_error(request: HttpRequest, *, message: str, code: str, status: int, template: str) -> HttpResponse:
    """The answer to a failure no view answered (a request Django refused, a statement out of
    time): under ``/api/`` the API's JSON ``{"error": message, "code": code}``, elsewhere the site's
    ``template`` with the message. Rendering the page may itself fail (it needs the request's host,
    the signed-in account…): the caller keeps its own last resort."""
    if request.path.startswith("/api/"):
        return JsonResponse(
            {"error": message, "code": code}, status=status, json_dumps_params={"ensure_ascii": False}
        )
    return render_page(request, template, {"message": message}, status=status)


def with_retry_after(answer: HttpResponse, error: EngineError) -> HttpResponse:
    """``Retry-After`` (whole seconds) on the answer to an error that says when waiting helps
    (``retry_after``: a per-owner cap)."""
    retry_after = getattr(error, "retry_after", None)
    if retry_after:
        answer["Retry-After"] = str(retry_after)
    return answer
