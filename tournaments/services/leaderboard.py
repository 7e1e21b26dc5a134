"""Leaderboards: rebuilt from the ledger, versioned, and recomputed at most once a second.

**Rebuild, never deltas.** :func:`rebuild_leaderboard` reads the event's whole ledger in one
snapshot (PostgreSQL ``REPEATABLE READ``) and writes the result with a conditional UPDATE:

* the snapshot first reads :attr:`Event.ledger_seq`, which every write to one of the event's
  tables bumps (in the write's own transaction when it goes through
  :mod:`tournaments.services.van`, right after its commit otherwise), so the rows hold every
  change up to that number;
* the UPDATE only applies ``WHERE ledger_seq < seen`` and sets ``version = version + 1``: a
  result built from an older snapshot never overwrites a newer one, the version only increases,
  and two recomputes of the same snapshot (retries, concurrent runs) write once.

No lock is held while computing: concurrent recomputes are safe, not serialised.

**Coalescing** (:func:`request_recompute`): a database debounce marker, not a cache key. The
first change after the window opens claims :attr:`Event.recompute_due_at` with a conditional
UPDATE (``WHERE due IS NULL OR due <= now``) and queues the task with ``eta`` = due (1 s later);
changes inside the window find it claimed and queue nothing, since the queued task starts after
they committed and reads them. So a burst of ván on many tables triggers at most one recompute
per event per second, across every web process. A cache ``add()`` would do the same only with a
shared cache; the default cache here is per-process memory, which would not coalesce.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import timedelta
from typing import Any

from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from tournaments.models import Event, Leaderboard
from tournaments.selectors.standings import compute_standings

__all__ = ["DEBOUNCE", "Rebuilt", "ledger_changed", "queue_recompute", "rebuild_leaderboard", "request_recompute"]

#: At most one recompute per event per this window.
DEBOUNCE = timedelta(seconds=1)


@dataclass(frozen=True, slots=True)
class Rebuilt:
    event_id: int
    #: Whether this run's result was stored (False: a newer or equal one was already there).
    written: bool
    version: int
    ledger_seq: int
    players: int
    van_count: int
    duration_ms: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _snapshot(outermost: bool) -> None:
    """Make the transaction just opened read one consistent snapshot (PostgreSQL; inside a
    caller's transaction, the caller's isolation applies)."""
    if outermost and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")


def rebuild_leaderboard(
    *, event_id: int, force: bool = False, progress: Callable[[str], None] | None = None
) -> Rebuilt:
    """Rebuild the event's standings from the ledger and store them if they are newer.

    ``force``: also store a result of the same ledger state (an organiser's full recompute).
    """
    say = progress or (lambda _msg: None)
    started = time.perf_counter()
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        _snapshot(outermost)
        event = Event.objects.get(pk=event_id)
        standings = compute_standings(event, progress=say)
    duration = round((time.perf_counter() - started) * 1000)
    seen = standings.ledger_seq
    newer = Q(ledger_seq__lte=seen) if force else Q(ledger_seq__lt=seen)
    Leaderboard.objects.get_or_create(event_id=event_id)
    written = Leaderboard.objects.filter(newer, event_id=event_id).update(
        version=F("version") + 1, ledger_seq=seen, rows=standings.players, teams=standings.teams,
        van_count=standings.van_count, computed_at=timezone.now(), duration_ms=duration,
    )
    version = Leaderboard.objects.filter(event_id=event_id).values_list("version", flat=True).get()
    say(f"{'đã lưu' if written else 'không lưu (đã có bản mới hơn)'}: phiên bản {version}, {duration} ms")
    return Rebuilt(event_id, bool(written), version, seen, len(standings.players), standings.van_count, duration)


def queue_recompute(event_id: int, *, force: bool = False, eta: Any = None) -> None:
    """Queue the Celery task (never waits for it)."""
    from tournaments.tasks import recompute_leaderboard

    recompute_leaderboard.apply_async((event_id,), {"force": force}, eta=eta)


def request_recompute(event_id: int) -> bool:
    """Ask for a recompute after a change has committed; coalesced to one per :data:`DEBOUNCE`.

    Returns whether this call queued the task (False: one is already due within the window).
    """
    now = timezone.now()
    due = now + DEBOUNCE
    claimed = (
        Event.objects.filter(pk=event_id)
        .filter(Q(recompute_due_at__isnull=True) | Q(recompute_due_at__lte=now))
        .update(recompute_due_at=due)
    )
    if claimed:
        queue_recompute(event_id, eta=due)
    return bool(claimed)


def ledger_changed(event_id: int) -> None:
    """A change the standings read (a ván at one of the event's tables, a registration): bump
    the event's number in the caller's transaction, ask for a recompute after commit."""
    Event.objects.filter(pk=event_id).update(ledger_seq=F("ledger_seq") + 1)
    transaction.on_commit(lambda: request_recompute(event_id))
