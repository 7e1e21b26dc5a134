"""Site-wide error answers: under ``/api/`` a JSON body (the API documents JSON errors), elsewhere
the Vietnamese pages ``templates/404.html`` and ``templates/403.html``."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext
from django.views import defaults

__all__ = ["not_found", "permission_denied"]


def _api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _api(request):
        return JsonResponse(
            {
                "error": gettext("Không có địa chỉ {path} trong API (xem /api/docs/).").format(
                    path=request.path
                )
            },
            status=404,
        )
    return defaults.page_not_found(request, exception)  # type: ignore[arg-type]


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _api(request):
        message = (
            str(exception) if exception and str(exception) else gettext("Bạn không có quyền làm việc này.")
        )
        return JsonResponse({"error": message}, status=403)
    return defaults.permission_denied(request, exception)  # type: ignore[arg-type]
