"""Recording and correcting the ván of an event's table: the ledger's services, plus a recompute.

:func:`event_van_record` and :func:`event_van_correct` call the scoring services (which own the
ván and the postings) inside one transaction that also bumps the event's ledger number; the
leaderboard recompute is queued after commit, so a rolled-back ván queues nothing.

Writes made to an event's sitting by other means (the scorekeeper's own pages or the API) are
caught by :func:`on_sitting_changed`, connected to the scoring app's ``sitting_changed`` signal,
which is sent after their commit.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextvars import ContextVar
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F

from scoring.models import Van
from scoring.services.people import Written
from scoring.services.sittings import van_correct, van_record
from tournaments.models import Event, Table
from tournaments.services.leaderboard import ledger_changed, request_recompute

__all__ = ["event_van_correct", "event_van_record", "on_sitting_changed"]

User = AbstractBaseUser

#: Set while one of this module's services runs: its own commit already bumped the event.
_WRAPPED: ContextVar[bool] = ContextVar("tournaments_van_wrapped", default=False)


def _table(table: Table | int) -> Table:
    return table if isinstance(table, Table) else Table.objects.get(pk=table)


def event_van_record(
    *,
    table: Table | int,
    seq: int,
    record: Mapping[str, Any],
    idempotency_key: str | None,
    entered_by: User | None = None,
    cards: str = "",
) -> Written[Van]:
    """Record ván ``seq`` at an event's table (see :func:`scoring.services.sittings.van_record`)."""
    table = _table(table)
    token = _WRAPPED.set(True)
    try:
        with transaction.atomic():
            written = van_record(sitting=table.sitting_id, seq=seq, record=record,
                                 idempotency_key=idempotency_key, entered_by=entered_by, cards=cards)
            if not written.answer.replayed:
                ledger_changed(table.event_id)
        return written
    finally:
        _WRAPPED.reset(token)


def event_van_correct(
    *,
    van: Van | int,
    record: Mapping[str, Any],
    reason: str,
    corrected_by: User | None,
    idempotency_key: str | None,
    cards: str = "",
) -> Written[Van]:
    """Correct a ván of an event's table (see :func:`scoring.services.sittings.van_correct`)."""
    van_pk = van.pk if isinstance(van, Van) else van
    event_id = Table.objects.filter(sitting__van=van_pk).values_list("event_id", flat=True).first()
    token = _WRAPPED.set(True)
    try:
        with transaction.atomic():
            written = van_correct(van=van_pk, record=record, reason=reason, corrected_by=corrected_by,
                                  idempotency_key=idempotency_key, cards=cards)
            if event_id is not None and not written.answer.replayed:
                ledger_changed(event_id)
        return written
    finally:
        _WRAPPED.reset(token)


def on_sitting_changed(sender: Any, *, sitting_id: int, action: str, **kwargs: Any) -> None:
    """After the commit of a write to a sitting made outside this module: if the sitting is an
    event's table, bump the event's ledger number and ask for a (coalesced) recompute."""
    if _WRAPPED.get() or action == "open":
        return
    event_id = Table.objects.filter(sitting_id=sitting_id).values_list("event_id", flat=True).first()
    if event_id is None:
        return
    Event.objects.filter(pk=event_id).update(ledger_seq=F("ledger_seq") + 1)
    request_recompute(event_id)
