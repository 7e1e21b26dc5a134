"""Scorekeeper tokens: the organiser lets someone enter ván at one table without a login.

A token is a link (shown as a QR code) carrying a long secret, and a six-digit PIN for typing at
the table's page; both name one table and stop working the moment the token is revoked (every
request checks the token again).

PIN guesses are counted per table by the atomic lock-out counter of :mod:`scoring.services.throttle`
(key ``pin:table:<id>``): each try is admitted before the PIN is checked, so at most
:data:`~scoring.services.throttle.LIMIT` wrong tries in a row are ever checked, from any number of
devices at once; then the table's PIN is locked for a while (even the right PIN is refused). The
organiser lifts the lock from the table page (:func:`pin_unlock`, recorded in the admin log), or
revokes the table's tokens and issues a new one (a fresh PIN starts a fresh count). The link's
secret is 128 random bits: it needs no counter.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass

from django.contrib.admin.models import CHANGE, LogEntry
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from scoring.engine import N_, EngineError
from scoring.models import AccessThrottle
from scoring.services import throttle
from scoring.services.people import User, acting_user
from tournaments.models import ScorekeeperToken, Table, new_pin
from tournaments.services.events import ensure_running

__all__ = [
    "PinAttempt",
    "pin_key",
    "pin_lock",
    "pin_login",
    "pin_unlock",
    "token_for_pin",
    "token_for_secret",
    "token_issue",
    "token_revoke",
    "token_valid",
]

WRONG_PIN = gettext_lazy("Mã PIN không đúng hoặc đã bị thu hồi; hãy hỏi ban tổ chức.")


@transaction.atomic
def token_issue(*, table: Table, label: str = "", created_by: User | None = None) -> ScorekeeperToken:
    """A new token for the table (its PIN differs from the table's other active tokens)."""
    if table.closed_at is not None:
        raise EngineError(N_("Chiếu đã đóng; không cấp mã ghi điểm được nữa."))
    ensure_running(table.event_id)
    taken = set(
        ScorekeeperToken.objects.filter(table=table, revoked_at__isnull=True).values_list("pin", flat=True)
    )
    if not taken:  # every earlier PIN was revoked: the new one starts a fresh count of wrong tries
        _reset(table)
    pin = new_pin()
    while pin in taken:
        pin = new_pin()
    return ScorekeeperToken.objects.create(
        table=table, label=(label or "").strip()[:80], pin=pin, created_by=created_by
    )


def token_revoke(*, token: ScorekeeperToken, revoked_by: User | None = None) -> ScorekeeperToken:
    """Revoke the token (at once, for every device that used it). Revoking twice changes nothing."""
    ScorekeeperToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(
        revoked_at=timezone.now(), revoked_by=acting_user(revoked_by)
    )
    token.refresh_from_db(fields=["revoked_at", "revoked_by"])
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
    return (
        bool(token_id)
        and ScorekeeperToken.objects.filter(pk=token_id, table=table, revoked_at__isnull=True).exists()
    )


# -- typing the PIN, counted -------------------------------------------------------------------------


def pin_key(table: Table) -> str:
    """The lock-out counter's key of a table's PIN."""
    return f"pin:table:{table.pk}"


@dataclass(frozen=True, slots=True)
class PinAttempt:
    #: The token the PIN opened (None: refused).
    token: ScorekeeperToken | None
    #: Why it was refused, in Vietnamese (empty when let in).
    error: str = ""
    #: Refused unchecked: the table's PIN is locked (or too many tries at once).
    locked: bool = False


def pin_login(table: Table, pin: str) -> PinAttempt:
    """Check a typed PIN against the table's live tokens, within the table's lock-out counter."""
    key = pin_key(table)
    admission = throttle.admit(key)
    if not admission.admitted:
        return PinAttempt(None, admission.message, locked=True)
    token = token_for_pin(table, pin)
    if token is None:
        after = throttle.failed(key)
        return PinAttempt(None, str(WRONG_PIN) if after.admitted else f"{WRONG_PIN} {after.message}")
    throttle.succeeded(key, admission)
    return PinAttempt(token)


def pin_lock(table: Table) -> AccessThrottle | None:
    """The table's counter of wrong PINs, if any try was wrong since the last right one."""
    row = AccessThrottle.objects.filter(key=pin_key(table)).first()
    if row is None or not (row.failures or row.locked_until):
        return None
    return row


def _reset(table: Table) -> int:
    return AccessThrottle.objects.filter(key=pin_key(table)).update(
        failures=0, locked_until=None, updated_at=timezone.now()
    )


@transaction.atomic
def pin_unlock(*, table: Table, by: User) -> int:
    """The organiser lifts the table's PIN lock (and clears its count); recorded in the admin log.
    Returns the wrong tries that were counted (0: nothing to lift)."""
    row = AccessThrottle.objects.select_for_update().filter(key=pin_key(table)).first()
    if row is None or not (row.failures or row.locked_until):
        return 0
    failures, locked = row.failures, row.locked_until is not None and row.locked_until > timezone.now()
    _reset(table)
    what = "đang bị khóa" if locked else "chưa bị khóa"
    LogEntry.objects.log_actions(
        by.pk,
        [table],
        CHANGE,
        f"Mở khóa mã PIN của chiếu {table.number} ({what}, đã sai {failures} lần).",
        single_object=True,
    )
    return failures
