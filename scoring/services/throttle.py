"""Lock-out after too many wrong tries (a table's PIN, an account's password), by an atomic counter.

A try is admitted *before* the secret is checked, by counting it on the key's row under a row lock
(``SELECT … FOR UPDATE``; on SQLite the write transaction, begun ``IMMEDIATE``, serialises the
same way). So concurrent guesses from any number of app servers are all counted, and no more than
``LIMIT`` tries in a row are ever checked: the ``LIMIT``-th admitted try locks the key for
``LOCK_FOR`` *in the same statement that admits it*, before its secret is checked, and every later
try is refused unchecked until the lock runs out; then the count starts again.

Locking at admission means nothing after it has to succeed for the lock to hold: a request that
crashes (or whose database write fails) between being admitted and being answered leaves its try
counted and, if it was the last one allowed, the key locked for exactly ``LOCK_FOR``. (It used to
be :func:`failed` that locked; a try that reached the limit and crashed before it left the key
refusing every try forever with no lock to run out.) A row left in that state by older code is
read as locked from its last update, for ``LOCK_FOR``.

A right answer clears the count (:func:`succeeded`), and lifts the lock only if the very try that
placed it was right (19 wrong, then the right one: not locked); a lock placed by a later try stays.

Keys are fixed length whatever was typed (:func:`key`: a kind, then a SHA-256 of the parts), and a
lock-out is per *client and secret* (the callers key it by the account name or the table, and the
client: its address and its device cookie), never the secret for everyone. What bounds a client
that changes its address or drops its cookie is :func:`pace`, a ceiling per secret that only
slows: after ``PACE_AFTER`` tries in a row, one try per ``PACE_EVERY`` from devices not known to
the secret; it never refuses a known device. The policy, line by line with its tests, is in
docs/reliability.md (the threat model, "Lock-out").
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from scoring.models import AccessThrottle

__all__ = [
    "LIMIT",
    "LOCK_FOR",
    "PACE_AFTER",
    "PACE_EVERY",
    "PACE_QUIET",
    "Admission",
    "Spent",
    "admit",
    "failed",
    "key",
    "pace",
    "pace_clear",
    "refund",
    "spend",
    "status",
    "succeeded",
]

#: Wrong tries from one client before that client is locked out of that secret, and for how long.
LIMIT = 20
LOCK_FOR = timedelta(minutes=15)
#: The ceiling per secret: after this many tries in a row (from devices not known to the secret,
#: any number of clients), one try per PACE_EVERY; the count starts again after PACE_QUIET
#: without a try, or at a right answer.
PACE_AFTER = 10
PACE_EVERY = timedelta(seconds=3)
PACE_QUIET = timedelta(minutes=15)


def key(kind: str, *parts: str | int) -> str:
    """A counter's key of fixed length (at most ``len(kind) + 65`` characters), whatever was typed:
    ``kind`` (a short constant) and the SHA-256 of the parts."""
    digest = hashlib.sha256("\x1f".join(str(part) for part in parts).encode("utf-8", "surrogatepass"))
    return f"{kind}:{digest.hexdigest()}"


@dataclass(frozen=True, slots=True)
class Admission:
    #: Whether the secret may be checked (for :func:`failed`: whether the key is still open).
    admitted: bool
    #: Tries counted since the count last started.
    failures: int
    #: When the key's lock runs out (None: not locked). On an admitted try: it was the last one
    #: allowed and locked the key itself.
    locked_until: datetime | None
    #: Refused by :func:`pace`: the next try is taken from then on.
    wait_until: datetime | None = None

    @property
    def message(self) -> str:
        """Why the key refuses tries, in the active language (empty when it does not)."""
        if not self.admitted and self.wait_until is not None:
            seconds = max(1, math.ceil((self.wait_until - timezone.now()).total_seconds()))
            return gettext("Đã có nhiều lần nhập sai: hãy chờ {seconds} giây rồi thử lại.").format(
                seconds=seconds
            )
        if self.admitted or self.locked_until is None:
            return ""
        minutes = max(1, math.ceil((self.locked_until - timezone.now()).total_seconds() / 60))
        return gettext(
            "Nhập sai {limit} lần liền: tạm khóa, hãy thử lại sau {minutes} phút "
            "hoặc nhờ ban tổ chức cấp mã mới."
        ).format(limit=LIMIT, minutes=minutes)


def _row(key: str) -> AccessThrottle:
    """The key's row, created if needed, locked until the end of the caller's transaction. A row
    that exists (every try but a key's first) is one locking read: no savepoint, no second read."""
    row = AccessThrottle.objects.select_for_update().filter(key=key).first()
    if row is not None:
        return row
    try:
        with transaction.atomic():
            AccessThrottle.objects.get_or_create(key=key)
    except IntegrityError:  # created by a concurrent try
        pass
    return AccessThrottle.objects.select_for_update().get(key=key)


def _lock_of(row: AccessThrottle, limit: int, lock_for: timedelta) -> datetime | None:
    """When the row's lock runs out: its own, or for a row stuck at the limit with no lock (left by
    a crash under older code), its last update plus ``lock_for``."""
    if row.locked_until is None and row.failures >= limit:
        return row.updated_at + lock_for
    return row.locked_until


@transaction.atomic
def admit(key: str, *, limit: int = LIMIT, lock_for: timedelta = LOCK_FOR) -> Admission:
    """Count one try against ``key`` before its secret is checked; refused (unchecked) while the
    key is locked. The ``limit``-th try since the count started is admitted and locks the key."""
    row, now = _row(key), timezone.now()
    locked_until = _lock_of(row, limit, lock_for)
    if locked_until is not None and locked_until > now:
        if row.locked_until is None:  # the stuck row gets its lock written down
            AccessThrottle.objects.filter(pk=row.pk).update(locked_until=locked_until)
        return Admission(False, row.failures, locked_until)
    if locked_until is not None:  # the lock has run out: the count starts again
        row.failures, row.locked_until = 0, None
    row.failures += 1
    if row.failures >= limit:
        row.locked_until = now + lock_for
    row.save(update_fields=["failures", "locked_until", "updated_at"])
    return Admission(True, row.failures, row.locked_until)


def _state(key: str, limit: int, lock_for: timedelta) -> Admission:
    row = AccessThrottle.objects.filter(key=key).first()
    if row is None:  # cleared meanwhile (the organiser lifted the lock)
        return Admission(True, 0, None)
    locked_until = _lock_of(row, limit, lock_for)
    if locked_until is not None and locked_until <= timezone.now():
        locked_until = None
    return Admission(locked_until is None, row.failures, locked_until)


def failed(key: str, *, limit: int = LIMIT, lock_for: timedelta = LOCK_FOR) -> Admission:
    """The admitted try was wrong. Writes nothing (the try was counted, and the last one allowed
    locked the key, when admitted); answers whether the key now refuses tries, and until when."""
    return _state(key, limit, lock_for)


def status(key: str, *, limit: int = LIMIT, lock_for: timedelta = LOCK_FOR) -> Admission:
    """Whether the key refuses tries now (and until when), counting nothing: asked before the
    ceiling (:func:`pace`), so a locked client is told it is locked, not to wait."""
    return _state(key, limit, lock_for)


def succeeded(key: str, admission: Admission | None = None, *, limit: int = LIMIT) -> None:
    """The admitted try (``admission``, what :func:`admit` answered it) was right: the count starts
    again. A lock in force stays, unless this very try placed it when it was admitted."""
    rows = AccessThrottle.objects.filter(key=key)
    if admission is not None and admission.admitted and admission.locked_until is not None:
        rows = rows.filter(locked_until=admission.locked_until)
    else:
        rows = rows.filter(locked_until__isnull=True, failures__lt=limit)
    rows.update(failures=0, locked_until=None, updated_at=timezone.now())


@transaction.atomic
def pace(key: str, *, after: int = PACE_AFTER, every: timedelta = PACE_EVERY) -> Admission:
    """Count one try against the secret's ceiling; after ``after`` tries in a row, a try sooner
    than ``every`` after the last admitted one is refused (unchecked, not counted). Never locks:
    the wait is at most ``every``. The row lock serialises concurrent tries, so any number of
    clients together get one try per ``every``."""
    row, now = _row(key), timezone.now()
    if row.failures and now - row.updated_at > PACE_QUIET:
        row.failures = 0
    if row.failures >= after and now < row.updated_at + every:
        return Admission(False, row.failures, None, row.updated_at + every)
    row.failures += 1
    row.save(update_fields=["failures", "updated_at"])
    return Admission(True, row.failures, None)


def pace_clear(key: str) -> None:
    """A right answer: the secret's ceiling counts from zero again."""
    AccessThrottle.objects.filter(key=key, failures__gt=0).update(failures=0, updated_at=timezone.now())


# -- quotas: so much of something per window (scoring/services/quotas.py) ----------------------


@dataclass(frozen=True, slots=True)
class Spent:
    #: Whether the amount was taken (it fits in what is left of the window).
    taken: bool
    #: Spent in the current window (after this amount, when taken).
    spent: int
    #: When the current window ends (the count starts again).
    until: datetime


def spend(key: str, *, amount: int = 1, limit: int, window: timedelta) -> Spent:
    """Take ``amount`` from what ``key`` may spend in a fixed ``window`` (``limit`` in all), on the
    same row and under the same row lock as :func:`admit`, so concurrent requests from any number
    of app servers are all counted. Refused (nothing taken) when it does not fit; a window that has
    run out starts again at this call. The row's ``failures`` holds the amount spent and its
    ``locked_until`` the end of the window (one row per key: the keys are bounded by the caller).

    Nearly every call (the row exists, its window runs, the amount fits: every ván but an
    account's first of the hour) is one conditional ``UPDATE … RETURNING``, whose row lock and
    re-checked condition count concurrent calls as the locking read does; the others (a new key, a
    window to start again, a refusal) take the row lock in a transaction."""
    taken = _spend_at_once(key, amount=amount, limit=limit)
    if taken is not None:
        return taken
    return _spend_locked(key, amount=amount, limit=limit, window=window)


_AT_ONCE: dict[str, str] = {}


def _spend_at_once(key: str, *, amount: int, limit: int) -> Spent | None:
    """:func:`spend` in one statement when the key's window runs and the amount fits in it; None
    (nothing written) otherwise."""
    if not connection.features.can_return_rows_from_bulk_insert:  # SQLite before 3.35: no RETURNING
        return None
    meta, qn = AccessThrottle._meta, connection.ops.quote_name
    spent, until, updated = (meta.get_field(name) for name in ("failures", "locked_until", "updated_at"))
    sql = _AT_ONCE.get(connection.vendor)
    if sql is None:
        sql = _AT_ONCE[connection.vendor] = (
            f"UPDATE {qn(meta.db_table)} SET {qn(spent.column)} = {qn(spent.column)} + %s, "
            f"{qn(updated.column)} = %s WHERE {qn(meta.get_field('key').column)} = %s "
            f"AND {qn(until.column)} > %s AND {qn(spent.column)} + %s <= %s "
            f"RETURNING {qn(spent.column)}, {qn(until.column)}"
        )
    now = until.get_db_prep_value(timezone.now(), connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, [amount, now, key, now, amount, limit])
        row = cursor.fetchone()
    if row is None:
        return None
    col = until.get_col(meta.db_table)
    ends = row[1]
    for convert in [*connection.ops.get_db_converters(col), *col.get_db_converters(connection)]:
        ends = convert(ends, col, connection)
    return Spent(True, row[0], ends)


@transaction.atomic(savepoint=False)  # a part of the caller's transaction when there is one
def _spend_locked(key: str, *, amount: int, limit: int, window: timedelta) -> Spent:
    row, now = _row(key), timezone.now()
    if row.locked_until is None or row.locked_until <= now:
        row.failures, row.locked_until = 0, now + window
    if row.failures + amount > limit:
        return Spent(False, row.failures, row.locked_until)
    row.failures += amount
    row.save(update_fields=["failures", "locked_until", "updated_at"])
    return Spent(True, row.failures, row.locked_until)


def refund(key: str, *, amount: int, until: datetime) -> None:
    """Give back ``amount`` taken by :func:`spend` in the window ending ``until`` (what it was spent
    on did not happen); one UPDATE, so concurrent refunds and spends all count. Nothing when that
    window has ended (the count started again)."""
    AccessThrottle.objects.filter(key=key, locked_until=until, failures__gte=amount).update(
        failures=F("failures") - amount, updated_at=timezone.now()
    )
