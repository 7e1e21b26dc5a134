"""Scorekeeper tokens: the organiser lets someone enter ván at one table without a login.

A token is a link (shown as a QR code) carrying a long secret, and a six-digit PIN for typing at
the table's page; both name one table and stop working the moment the token is revoked (every
request checks the token again). Only the token and its check live here: rate limiting PIN
guesses and scorekeeper roles belong to the permissions issue, so a PIN alone is only as strong
as that rate limit will make it.
"""

from __future__ import annotations

import hmac

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from scoring.engine.errors import EngineError
from tournaments.models import ScorekeeperToken, Table, new_pin

__all__ = ["token_for_pin", "token_for_secret", "token_issue", "token_revoke", "token_valid"]

User = AbstractBaseUser


@transaction.atomic
def token_issue(*, table: Table, label: str = "", created_by: User | None = None) -> ScorekeeperToken:
    """A new token for the table (its PIN differs from the table's other active tokens)."""
    if table.closed_at is not None:
        raise EngineError("Chiếu đã đóng; không cấp mã ghi điểm được nữa.")
    taken = set(ScorekeeperToken.objects.filter(table=table, revoked_at__isnull=True).values_list("pin", flat=True))
    pin = new_pin()
    while pin in taken:
        pin = new_pin()
    return ScorekeeperToken.objects.create(table=table, label=(label or "").strip()[:80], pin=pin,
                                           created_by=created_by)


def token_revoke(*, token: ScorekeeperToken) -> ScorekeeperToken:
    """Revoke the token (at once, for every device that used it). Revoking twice changes nothing."""
    ScorekeeperToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())
    token.refresh_from_db(fields=["revoked_at"])
    return token


def token_for_secret(table: Table, secret: str) -> ScorekeeperToken | None:
    """The active token of this table with this link secret."""
    if not secret:
        return None
    return ScorekeeperToken.objects.filter(table=table, secret=secret, revoked_at__isnull=True).first()


def token_for_pin(table: Table, pin: str) -> ScorekeeperToken | None:
    """The active token of this table with this PIN (compared in constant time)."""
    pin = (pin or "").strip()
    if not (len(pin) == 6 and pin.isdigit()):
        return None
    for token in ScorekeeperToken.objects.filter(table=table, revoked_at__isnull=True):
        if hmac.compare_digest(token.pin, pin):
            return token
    return None


def token_valid(table: Table, token_id: int | None) -> bool:
    """Whether a token remembered by a device (its id) still lets it enter ván at this table."""
    return bool(token_id) and ScorekeeperToken.objects.filter(
        pk=token_id, table=table, revoked_at__isnull=True
    ).exists()
