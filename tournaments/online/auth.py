"""Platform tokens in the API: ``Authorization: Bearer <token>``, and their rate limit.

The token acts as the account that created it (its roles decide, as for any account), within the
token's club or event and, for a read token, reading only (:class:`TokenScope`, asked by
:func:`scoring.permissions.can` and the API's views). A revoked or unknown token is refused with
401, as a wrong ``Token`` is. Every call made with a platform token counts against the token's
rate (``PLATFORM_TOKEN_RATE``, DRF's throttling, in the "throttle" cache: see the settings).

No view is imported here: DRF loads this module while it builds its own views.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.cache import caches
from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

__all__ = ["BearerAuthentication", "PlatformThrottle"]

#: ``last_used_at`` is written at most this often per token (not once per call).
TOUCH_EVERY = timedelta(minutes=1)
BAD_TOKEN = "Mã nền tảng không đúng, đã bị thu hồi, hoặc tài khoản tạo mã đã bị khóa."


class BearerAuthentication(authentication.BaseAuthentication):
    """``Authorization: Bearer <platform token>`` → (the token's creator, the token)."""

    keyword = "Bearer"

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        parts = authentication.get_authorization_header(request).split()
        if not parts or parts[0].lower() != self.keyword.lower().encode():
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(BAD_TOKEN)
        try:
            raw = parts[1].decode("ascii")
        except UnicodeError:
            raise exceptions.AuthenticationFailed(BAD_TOKEN) from None
        from tournaments.online.services.tokens import token_for

        token = token_for(raw=raw)
        if token is None or not token.created_by.is_active:
            raise exceptions.AuthenticationFailed(BAD_TOKEN)
        now = timezone.now()
        if token.last_used_at is None or now - token.last_used_at > TOUCH_EVERY:
            type(token).objects.filter(pk=token.pk).update(last_used_at=now)
        return token.created_by, token

    def authenticate_header(self, request: Request) -> str:
        return f'{self.keyword} realm="so-tom"'


class PlatformThrottle(SimpleRateThrottle):
    """Calls per token (``PLATFORM_TOKEN_RATE``, e.g. "600/minute"); other callers are not counted."""

    scope = "platform"

    @property  # type: ignore[override]
    def cache(self) -> Any:  # the "throttle" cache (shared between app servers when configured)
        return caches["throttle"]

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        token = getattr(request, "auth", None)
        if getattr(token, "credential_scope", None) is None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": token.pk}


class BearerScheme(OpenApiAuthenticationExtension):
    """The schema's ``bearerAuth`` security scheme (drf-spectacular)."""

    target_class = "tournaments.online.auth.BearerAuthentication"
    name = "bearerAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "Mã nền tảng (một làng hoặc một giải; chỉ đọc hoặc đọc và ghi), tạo trên trang "
            "“Kết nối nền tảng” của làng hoặc của ban tổ chức giải.",
        }
