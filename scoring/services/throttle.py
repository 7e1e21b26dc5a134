"""Lock-out after too many wrong tries (a table's PIN, an account's password), by an atomic counter.

A try is admitted *before* the secret is checked, by counting it on the key's row under a row lock
(``SELECT … FOR UPDATE``; on SQLite the write transaction serialises the same way). So concurrent
guesses from any number of app servers are all counted, and no more than ``LIMIT`` tries in a row
are ever checked: the ``LIMIT + 1``-th is refused unchecked. A right answer clears the count; a
wrong answer on the last admitted try locks the key for ``LOCK_FOR``; while locked every try is
refused unchecked, and when the lock runs out the count starts again.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from scoring.models import AccessThrottle

__all__ = ["LIMIT", "LOCK_FOR", "Admission", "admit", "failed", "succeeded"]

#: Wrong tries before the lock-out (the trust issue: 20 → locked for a while).
LIMIT = 20
LOCK_FOR = timedelta(minutes=15)


@dataclass(frozen=True, slots=True)
class Admission:
    admitted: bool
    failures: int
    locked_until: datetime | None

    @property
    def message(self) -> str:
        """Why the try was refused, in Vietnamese (empty when admitted)."""
        if self.admitted:
            return ""
        if self.locked_until is None:
            return "Có quá nhiều lần thử cùng lúc; hãy đợi một lát rồi thử lại."
        minutes = max(1, int((self.locked_until - timezone.now()).total_seconds() // 60) + 1)
        return (f"Nhập sai {LIMIT} lần liền: tạm khóa, hãy thử lại sau {minutes} phút "
                "hoặc nhờ ban tổ chức cấp mã mới.")


def _row(key: str) -> AccessThrottle:
    try:
        with transaction.atomic():
            AccessThrottle.objects.get_or_create(key=key)
    except IntegrityError:  # created by a concurrent try
        pass
    return AccessThrottle.objects.select_for_update().get(key=key)


@transaction.atomic
def admit(key: str, *, limit: int = LIMIT) -> Admission:
    """Count one try against ``key`` before its secret is checked; refused when locked or over the limit."""
    row, now = _row(key), timezone.now()
    if row.locked_until is not None:
        if row.locked_until > now:
            return Admission(False, row.failures, row.locked_until)
        row.failures, row.locked_until = 0, None
    if row.failures >= limit:
        row.save(update_fields=["failures", "locked_until", "updated_at"])
        return Admission(False, row.failures, None)
    row.failures += 1
    row.save(update_fields=["failures", "locked_until", "updated_at"])
    return Admission(True, row.failures, None)


@transaction.atomic
def failed(key: str, *, limit: int = LIMIT, lock_for: timedelta = LOCK_FOR) -> Admission:
    """The admitted try was wrong: lock the key if it was the last one allowed."""
    row = _row(key)
    if row.failures >= limit and row.locked_until is None:
        row.locked_until = timezone.now() + lock_for
        row.save(update_fields=["locked_until", "updated_at"])
    return Admission(row.locked_until is None, row.failures, row.locked_until)


def succeeded(key: str) -> None:
    """The admitted try was right: the count starts again (a lock-out in force stays)."""
    AccessThrottle.objects.filter(key=key, locked_until__isnull=True).update(failures=0, updated_at=timezone.now())
