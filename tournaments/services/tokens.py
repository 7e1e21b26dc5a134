"""Scorekeeper tokens: the organiser lets someone enter ván at one table without a login.

A token is a link (shown as a QR code) carrying a long secret, and a six-digit PIN for typing at
the table's page; both name one table and stop working the moment the token is revoked (every
request checks the token again).

PIN guesses are counted per *phone and table* by the atomic lock-out counter of
:mod:`scoring.services.throttle` (key ``pin:<table id>:<digest of the client>``, the client being
the address and the device cookie, :mod:`scoring.devices`): each try is admitted before the PIN is
checked, so at most :data:`~scoring.services.throttle.LIMIT` wrong tries in a row from one phone are
ever checked; then that phone is locked out of the table's PIN for a while (even the right PIN is
refused there), the table's other phones are not. The table's ceiling
(:func:`scoring.services.throttle.pace`, key ``pin-pace:<table id>``) bounds phones that change
address or cookie: after 10 tries in a row, one try per 3 seconds, from any number of phones
together; it never refuses a phone that opened this table with a PIN before. The organiser lifts
the locks from the table page (:func:`pin_unlock`, recorded in the admin log), or revokes the
table's tokens and issues a new one (a fresh PIN starts a fresh count). The link's secret is 128
random bits: it needs no counter.

A PIN typed at an address naming no table a visitor may see (no such event, a private event's
table under another slug) goes through the same counters under a key of its own and is refused as a
wrong PIN (:func:`pin_login` with ``table=None``): what the answer says, and the work done to give
it, do not tell the two apart.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import Any

from django.contrib.admin.models import CHANGE, LogEntry
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from scoring.engine import N_, EngineError
from scoring.models import AccessThrottle
from scoring.refusals import Refusal
from scoring.services import throttle
from scoring.services.people import User, acting_user
from tournaments.models import ScorekeeperToken, Table, new_pin
from tournaments.services.events import ensure_running

__all__ = [
    "PinAttempt",
    "PinLocked",
    "WrongPin",
    "pin_key",
    "pin_lock",
    "pin_login",
    "pin_pace_key",
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


def token_for_secret(table: Table | None, secret: str) -> ScorekeeperToken | None:
    """The active token of this table with this link secret (``table=None``: the same query,
    finding nothing)."""
    if not secret or len(secret) > 128:
        return None
    table_id = table.pk if table is not None else 0
    return ScorekeeperToken.objects.filter(table_id=table_id, secret=secret, revoked_at__isnull=True).first()


def token_for_pin(table: Table | None, pin: str) -> ScorekeeperToken | None:
    """The active token of this table with this PIN (compared in constant time). ``table=None``:
    the same query, finding nothing."""
    pin = (pin or "")[:64].strip()
    if not (len(pin) == 6 and pin.isdigit()):
        return None
    tokens = ScorekeeperToken.objects.filter(
        table_id=table.pk if table is not None else 0, revoked_at__isnull=True
    )
    for token in tokens:
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


def pin_key(table: Table | None, client: str, *, place: str = "") -> str:
    """The lock-out counter's key of one phone (``client``) at a table's PIN; ``place`` names the
    address typed at when it names no table."""
    if table is None:
        return throttle.key("pin-none", place, client)
    return f"pin:{table.pk}:{throttle.key('c', client)[2:]}"


def pin_pace_key(table: Table | None, *, place: str = "") -> str:
    """The ceiling of a table's PIN, for every phone."""
    return throttle.key("pin-pace", table.pk if table is not None else f"none:{place}")


def _table_keys(table: Table) -> Any:
    return AccessThrottle.objects.filter(key__startswith=f"pin:{table.pk}:")


class WrongPin(Refusal):
    """A PIN that opens none of the table's live tokens: a refused credential, counted towards
    this phone's lock-out (answered 422, as the load tests count them)."""

    code = "wrong_pin"


class PinLocked(Refusal):
    """A phone locked out of the table's PIN, or one the table does not know asked to wait: a
    throttle (429); the message says how long."""

    code = "pin_locked"


@dataclass(frozen=True, slots=True)
class PinAttempt:
    #: The token the PIN opened (None: refused).
    token: ScorekeeperToken | None
    #: Why it was refused, in Vietnamese (empty when let in).
    error: str = ""
    #: Refused unchecked: this phone is locked out of the table's PIN, or must wait.
    locked: bool = False

    @property
    def refusal(self) -> Refusal | None:
        """The refusal to answer with (None: let in): a phone locked out (:class:`PinLocked`), or
        a wrong PIN (:class:`WrongPin`)."""
        if self.token is not None:
            return None
        return (PinLocked if self.locked else WrongPin)(self.error)


def pin_login(
    table: Table | None, pin: str, *, client: str, known: bool = False, place: str = ""
) -> PinAttempt:
    """Check a typed PIN against the table's live tokens, within this phone's lock-out counter and
    (for a phone the table does not know) the table's ceiling. ``table=None``: the address names no
    table the visitor may see; the same counters and the same query, and always a wrong PIN."""
    key = pin_key(table, client, place=place)
    state = throttle.status(key)
    if not state.admitted:  # this phone is locked out: nothing else is looked at
        return PinAttempt(None, state.message, locked=True)
    if not known:
        paced = throttle.pace(pin_pace_key(table, place=place))
        if not paced.admitted:
            return PinAttempt(None, paced.message, locked=True)
    admission = throttle.admit(key)
    if not admission.admitted:
        return PinAttempt(None, admission.message, locked=True)
    token = token_for_pin(table, pin)
    if token is None:
        after = throttle.failed(key)
        return PinAttempt(None, str(WRONG_PIN) if after.admitted else f"{WRONG_PIN} {after.message}")
    throttle.succeeded(key, admission)
    throttle.pace_clear(pin_pace_key(table))
    return PinAttempt(token)


@dataclass(frozen=True, slots=True)
class PinLock:
    #: Wrong tries counted at the table since each phone's last right one (all phones together).
    failures: int
    #: The latest time a phone's lock runs out (None: no phone is locked out).
    locked_until: Any


def pin_lock(table: Table) -> PinLock | None:
    """The table's counters of wrong PINs (every phone's), if any try was wrong since the last right one."""
    now = timezone.now()
    rows = list(_table_keys(table).values_list("failures", "locked_until"))
    failures = sum(f for f, _ in rows)
    locks = [until for _, until in rows if until is not None and until > now]
    if not failures and not locks:
        return None
    return PinLock(failures, max(locks) if locks else None)


def _reset(table: Table) -> int:
    AccessThrottle.objects.filter(key=pin_pace_key(table)).update(failures=0, updated_at=timezone.now())
    return _table_keys(table).update(failures=0, locked_until=None, updated_at=timezone.now())


@transaction.atomic
def pin_unlock(*, table: Table, by: User) -> int:
    """The organiser lifts every phone's lock at the table's PIN (and clears their counts); recorded
    in the admin log. Returns the wrong tries that were counted (0: nothing to lift)."""
    rows = list(_table_keys(table).select_for_update())
    failures = sum(row.failures for row in rows)
    now = timezone.now()
    locked = any(row.locked_until is not None and row.locked_until > now for row in rows)
    if not (failures or any(row.locked_until for row in rows)):
        return 0
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
