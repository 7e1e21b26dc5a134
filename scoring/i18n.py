"""The engine's messages in the reader's language: the edge where engine errors are translated.

The engine is pure Python: its errors carry a message code (the Vietnamese template, also the
gettext msgid) and parameters (:mod:`scoring.engine.errors`). The app installs Django's
``gettext`` as their translator at start-up, so ``exc.message`` reads in the language active for
the request: Vietnamese by default, English under ``/en/``, and on the API with
``Accept-Language: en`` (:class:`ApiLanguageMiddleware`). English lives in
locale/en/LC_MESSAGES/django.po like every other string of the app.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation.trans_real import get_supported_language_variant, parse_accept_lang_header

from scoring.engine import set_translator

__all__ = ["ApiLanguageMiddleware", "install_engine_translator"]


def install_engine_translator() -> None:
    """Make engine messages follow the active language (called once, when the app is ready)."""
    set_translator(translation.gettext)


def _accepted(request: HttpRequest) -> str:
    """The first language of the Accept-Language header the site speaks; Vietnamese otherwise."""
    for code, _quality in parse_accept_lang_header(request.headers.get("Accept-Language", "")):
        if code == "*":
            break
        try:
            return get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


class ApiLanguageMiddleware:
    """The API has no language prefix: it answers in the language the client asks for with
    ``Accept-Language`` (Vietnamese when it asks for none the site speaks). Pages keep their
    prefix rule (``/en/`` English, unprefixed Vietnamese) from LocaleMiddleware."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path_info.startswith("/api/"):
            return self.get_response(request)
        language = _accepted(request)
        request.LANGUAGE_CODE = language
        with translation.override(language):  # restored after: nothing leaks to the thread's next work
            response = self.get_response(request)
        response.headers["Content-Language"] = language
        patch_vary_headers(response, ("Accept-Language",))
        return response
