"""How API calls sign in (``DEFAULT_AUTHENTICATION_CLASSES``; no view imports here: DRF loads
this module while it builds its own views).

An ``Authorization`` header that is present decides alone: the session cookie a browser also
holds is not read then, so a wrong or revoked token is refused (401) even from a browser that is
signed in, and a header in a scheme the API does not take (neither ``Token`` nor ``Bearer``) is
refused the same way rather than ignored.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from scoring.services import rows

__all__ = ["KEY_MAX", "SCHEMES", "SessionAuthentication", "TokenAuthentication"]

#: The schemes of ``Authorization`` the API takes (an account's token, a platform token).
SCHEMES = frozenset({b"token", b"bearer"})
#: An account token's key is 40 characters; anything longer is refused before any query.
KEY_MAX = 64
#: The challenge of a refused ``Authorization`` header (the same as the API's 401s).
CHALLENGE = 'Token realm="so-tom", Bearer realm="so-tom", Session realm="so-tom"'


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's ``Authorization: Token …``, the token and its account read in one statement (a join):
    every scorekeeper's call starts here."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        if len(key) > KEY_MAX:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        token = rows.select_one(model=self.get_model(), where={"key": key}, related=["user"])
        if token is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return token.user, token


class SessionAuthentication(authentication.SessionAuthentication):
    """The site's session cookie (with DRF's CSRF check), only when the call has no
    ``Authorization`` header: a header that is present is the only credential looked at."""

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        header = authentication.get_authorization_header(request)
        if not header:
            return super().authenticate(request)
        scheme = header.split()[0].lower() if header.split() else b""
        if scheme not in SCHEMES:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        return None  # the token classes answer (and refuse a bad token)

    def authenticate_header(self, request: Request) -> str | None:
        # A refused header is a 401 with a challenge; a call without one keeps DRF's 403.
        return CHALLENGE if authentication.get_authorization_header(request) else None
