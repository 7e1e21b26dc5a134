"""The one answer to a user error (:class:`~scoring.engine.EngineError`), for every surface, and
the HTTP status of what a write did (services answer domain results: :class:`Outcome`).

:func:`respond` answers with the error's status (:func:`scoring.errors.status_of`): the API's
exception handler (``scoring/api/errors.py``) and the JSON endpoints of the pages get its body
``{"error": message, "code": code, …}``; a page or an htmx partial gets its template rendered with
the context the view built (the message worded there: the view knows which field it belongs to).
A view never picks a status for a user error itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse

from scoring.engine import EngineError
from scoring.errors import body_of, code_of, status_of
from scoring.htmx import render_htmx
from scoring.services.idempotency import Answer, Outcome

__all__ = ["OUTCOME_STATUS", "answer_status", "respond", "status_of", "with_retry_after"]

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
) -> HttpResponse:
    """The answer to ``error``: JSON (``{"error", "code", …}``) without a ``template``; else the
    page (or its htmx ``partial``) rendered by ``render`` with ``context`` and ``error_code``."""
    status = status_of(error)
    if template is None:
        answer = JsonResponse(body_of(error), status=status, json_dumps_params={"ensure_ascii": False})
    else:
        shown = {"error_code": code_of(error), **(context or {})}
        answer = render(request, template, shown, partial=partial, status=status)
    return with_retry_after(answer, error)


def with_retry_after(answer: HttpResponse, error: EngineError) -> HttpResponse:
    """``Retry-After`` (whole seconds) on the answer to an error that says when waiting helps
    (``retry_after``: a per-owner cap)."""
    retry_after = getattr(error, "retry_after", None)
    if retry_after:
        answer["Retry-After"] = str(retry_after)
    return answer
