"""How API calls sign in (``DEFAULT_AUTHENTICATION_CLASSES``; no view imports here: DRF loads
this module while it builds its own views)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions

from scoring.services import rows

__all__ = ["TokenAuthentication"]


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's ``Authorization: Token …``, the token and its account read in one statement (a join):
    every scorekeeper's call starts here."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        token = rows.select_one(self.get_model(), where={"key": key}, related=["user"])
        if token is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return token.user, token
