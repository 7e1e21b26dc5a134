"""Platform tokens: created for one club or one event, read or write; shown once; revocable.

The token is ``sotom_`` and 32 random bytes (URL-safe base64); only its SHA-256 is stored, so a
stolen database does not give working tokens. Who may create and revoke them is the page's
business (a club's organisers, an event's organisers); the creator is the account the token acts as.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from django.db import transaction
from django.utils import timezone

from scoring.engine import N_, EngineError
from scoring.models import Club
from scoring.services.people import acting_user
from tournaments.models import Event
from tournaments.online.models import Access, PlatformToken

__all__ = ["PREFIX", "digest", "token_create", "token_for", "token_revoke"]

PREFIX = "sotom_"


def digest(*, raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


def token_for(*, raw: str) -> PlatformToken | None:
    """The live token whose text is ``raw`` (None: unknown or revoked), with its creator."""
    if not raw.startswith(PREFIX) or len(raw) > 100:
        return None
    return (
        PlatformToken.objects.select_related("created_by")
        .filter(digest=digest(raw=raw), revoked_at__isnull=True)
        .first()
    )


def _label(label: Any) -> str:
    text = (label or "").strip() if isinstance(label, str) else ""
    if not text:
        raise EngineError(N_("Hãy ghi tên nền tảng sẽ dùng mã này."))
    if len(text) > 80:
        raise EngineError(N_("Tên nền tảng dài quá 80 ký tự."))
    return text


@transaction.atomic
def token_create(
    *, label: str, access: str, created_by: Any, club: Club | None = None, event: Event | None = None
) -> tuple[PlatformToken, str]:
    """A new token for ``club`` or ``event``; returns it and its text (the only time it is known)."""
    if (club is None) == (event is None):
        raise EngineError(N_("Mã nền tảng thuộc đúng một làng hoặc một giải."))
    if access not in Access.values:
        raise EngineError(N_("Quyền của mã phải là chỉ đọc hoặc đọc và ghi."))
    raw = PREFIX + secrets.token_urlsafe(32)
    token = PlatformToken.objects.create(
        club=club,
        event=event,
        label=_label(label),
        access=access,
        prefix=raw[: len(PREFIX) + 6],
        digest=digest(raw=raw),
        created_by=created_by,
    )
    return token, raw


@transaction.atomic
def token_revoke(*, token: PlatformToken, by: Any) -> PlatformToken:
    """Revoke the token at once (its next call is a 401). Revoking twice changes nothing."""
    found = PlatformToken.objects.select_for_update().get(pk=token.pk)
    if found.revoked_at is None:
        found.revoked_at, found.revoked_by = timezone.now(), acting_user(user=by)
        found.save(update_fields=["revoked_at", "revoked_by"])
    return found
