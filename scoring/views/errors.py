"""Site-wide error answers: under ``/api/`` a JSON body (the API documents JSON errors), elsewhere
the Vietnamese pages ``templates/404.html``, ``templates/403.html`` and ``templates/400.html`` (a
request Django refuses before any view: a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE``, too many fields)."""

from __future__ import annotations

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext
from django.views import defaults

from scoring.respond import site_error

__all__ = ["bad_request", "not_found", "permission_denied"]


def _api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _api(request):
        return JsonResponse(
            {
                "error": gettext("Không có địa chỉ {path} trong API (xem /api/docs/).").format(
                    path=request.path
                ),
                "code": "not_found",
            },
            status=404,
        )
    return defaults.page_not_found(request, exception)  # type: ignore[arg-type]


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _api(request):
        message = (
            str(exception) if exception and str(exception) else gettext("Bạn không có quyền làm việc này.")
        )
        return JsonResponse({"error": message, "code": "permission_denied"}, status=403)
    return defaults.permission_denied(request, exception)  # type: ignore[arg-type]


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    too_big = isinstance(exception, RequestDataTooBig)
    message = (
        gettext("Nội dung gửi lên quá lớn; hãy kiểm tra lại những gì đã nhập rồi gửi lại.")
        if too_big
        else gettext("Yêu cầu không hợp lệ; hãy tải lại trang rồi thử lại.")
    )
    code = "request_too_large" if too_big else "bad_request"
    try:
        return site_error(request, message=message, code=code, status=400, template="400.html")
    except Exception:  # a request too broken for the site's page (its host refused): Django's own
        return defaults.bad_request(request, exception)  # type: ignore[arg-type]
