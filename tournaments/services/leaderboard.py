"""Leaderboards: rebuilt from the ledger, versioned, and recomputed at most once a second.

**Rebuild, never deltas.** Both ways of computing the standings read the ledger in one
snapshot (:func:`read_snapshot`: a ``REPEATABLE READ, READ ONLY`` transaction on PostgreSQL, a
deferred read transaction on SQLite, whose write-ahead log gives it a snapshot too) and write
the result with a conditional UPDATE:

* the snapshot first reads :attr:`Event.ledger_seq`, which every write to one of the event's
  canh bumps (in the write's own transaction when it goes through
  :mod:`tournaments.services.van`, right after its commit otherwise) together with the canh's
  :attr:`TableSitting.changed_seq` (or the registration's), so the rows hold every change up to
  that number and say which canh changed after any earlier number;
* the UPDATE only applies ``WHERE ledger_seq < seen`` and sets ``version = version + 1``: a
  result built from an older snapshot never overwrites a newer one, the version only increases,
  and two recomputes of the same snapshot (retries, concurrent runs) write once.

:func:`rebuild_leaderboard` is the full rebuild (the organiser's button, the command);
:func:`update_leaderboard` is what a recorded ván triggers: it rebuilds only the lines of the
players of the canh changed since the stored board, from per-canh tallies that are themselves
rebuilt from each canh's own ledger (:mod:`tournaments.services.incremental`), and falls back to
the full rebuild when there is no usable base. Both give the same rows.

No lock is held while computing: concurrent recomputes are safe, not serialised.

**A failure is shown, not only logged**: :func:`recompute` (the task's and the command's body)
records a failed run on the board (:attr:`Leaderboard.failed_at`, :attr:`Leaderboard.failure`),
which the organiser's page shows until a run succeeds.

**Coalescing** (:func:`request_recompute`): a database debounce marker, not a cache key. The
first change after the window opens claims :attr:`Event.recompute_due_at` with a conditional
UPDATE (``WHERE due IS NULL OR due <= now``) and queues the task with ``eta`` = due (1 s later);
changes inside the window find it claimed and queue nothing, since the queued task starts after
they committed and reads them. So a burst of ván on many tables triggers at most one recompute
per event per second, across every web process. A cache ``add()`` would do the same only with a
shared cache; the default cache here is per-process memory, which would not coalesce.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from datetime import timedelta
from typing import Any

from django.db import DatabaseError, connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from scoring.services.snapshot import read_snapshot
from tournaments.models import BuiltBy, Event, Leaderboard, Registration, TableSitting, dump_json
from tournaments.selectors.standings import Standings, compute_standings
from tournaments.services.incremental import (
    Plan,
    incremental_standings,
    remember,
    rows_json,
    store_caches,
    store_canh_van,
)

__all__ = [
    "DEBOUNCE",
    "Rebuilt",
    "ledger_changed",
    "queue_recompute",
    "read_snapshot",
    "rebuild_leaderboard",
    "recompute",
    "record_failure",
    "request_recompute",
    "sweep_stale_boards",
    "update_leaderboard",
]

log = logging.getLogger(__name__)

#: At most one recompute per event per this window.
DEBOUNCE = timedelta(seconds=1)

Progress = Callable[[str], None]


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
    built_by: str = BuiltBy.FULL

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


#: The conditional write; it answers the new version and its time as text (the incremental pass
#: compares that text, ``CAST(… AS TEXT)`` on both databases, to know the board it holds is current).
STORE = """
UPDATE tournaments_leaderboard SET version = version + 1, ledger_seq = %s, rows = %s, teams = %s, van_count = %s,
    computed_at = %s, duration_ms = %s, built_by = %s, failed_at = NULL, failure = ''
WHERE event_id = %s AND (ledger_seq < %s OR (%s AND ledger_seq = %s)) RETURNING version, CAST(computed_at AS TEXT)
"""


def store(
    *,
    event_id: int,
    standings: Standings,
    force: bool,
    started: float,
    built_by: str,
    say: Progress,
    plan: Plan | None = None,
) -> Rebuilt:
    """Write the standings if they are newer than the stored ones (``force``: or as new); one
    statement, which answers the new version. ``plan``: the incremental pass's rows, already
    encoded."""
    duration = round((time.perf_counter() - started) * 1000)
    seen = standings.ledger_seq
    if plan is not None and plan.rows_text is not None:
        rows_text, tails = plan.rows_text, plan.tails
    else:
        rows_text, tails = rows_json(rows=standings.players, known={}, skip=())
    now = connection.ops.adapt_datetimefield_value(timezone.now())  # as the ORM stores it
    params = [
        seen,
        rows_text,
        dump_json(standings.teams),
        standings.van_count,
        now,
        duration,
        built_by,
        event_id,
        seen,
        force,
        seen,
    ]
    with connection.cursor() as cursor:
        cursor.execute(STORE, params)
        row = cursor.fetchone()
    if row is None:
        Leaderboard.objects.get_or_create(event_id=event_id)  # an event made before boards existed
        version = Leaderboard.objects.filter(event_id=event_id).values_list("version", flat=True).get()
    written, version = (True, row[0]) if row else (False, version)
    if row:
        remember(
            event_id=event_id, version=row[0], computed_at=row[1], standings=standings, tails=tails
        )  # the next pass in this process starts here
    say(f"{'đã lưu' if written else 'không lưu (đã có bản mới hơn)'}: phiên bản {version}, {duration} ms")
    return Rebuilt(
        event_id, written, version, seen, len(standings.players), standings.van_count, duration, built_by
    )


def rebuild_leaderboard(*, event_id: int, force: bool = False, progress: Progress | None = None) -> Rebuilt:
    """Rebuild the event's standings from the whole ledger and store them if they are newer.

    ``force``: also store a result of the same ledger state (an organiser's full recompute).
    """
    say = progress or (lambda _msg: None)
    started = time.perf_counter()
    with read_snapshot():
        event = Event.objects.get(pk=event_id)
        standings = compute_standings(event, progress=say)
    store_canh_van(stale=standings.stale_canh)
    return store(
        event_id=event_id, standings=standings, force=force, started=started, built_by=BuiltBy.FULL, say=say
    )


def update_leaderboard(*, event_id: int, progress: Progress | None = None) -> Rebuilt:
    """Bring the stored standings up to the ledger by rebuilding only the lines of the players
    of the canh (and registrations) changed since; the full rebuild when there is no usable base."""
    say = progress or (lambda _msg: None)
    started = time.perf_counter()
    with read_snapshot():
        plan = incremental_standings(event_id=event_id)
        full = compute_standings(Event.objects.get(pk=event_id), progress=say) if plan is None else None
    if full is not None:
        store_canh_van(stale=full.stale_canh)
        return store(
            event_id=event_id, standings=full, force=False, started=started, built_by=BuiltBy.FULL, say=say
        )
    assert plan is not None
    store_caches(event_id=event_id, plan=plan)
    return store(
        event_id=event_id,
        standings=plan.standings,
        force=False,
        started=started,
        built_by=BuiltBy.INCREMENTAL,
        say=say,
        plan=plan,
    )


def recompute(*, event_id: int, force: bool = False, progress: Progress | None = None) -> Rebuilt:
    """The task's (and the command's) body: the incremental update, or the full rebuild when
    ``force``. A failure is recorded on the board (:func:`record_failure`) and raised again; a
    success clears a failure recorded before it started."""
    started = timezone.now()
    try:
        if force:
            done = rebuild_leaderboard(event_id=event_id, force=True, progress=progress)
        else:
            done = update_leaderboard(event_id=event_id, progress=progress)
    except Exception as exc:
        record_failure(event_id=event_id, exc=exc)
        raise
    if not done.written:  # a write clears it itself
        Leaderboard.objects.filter(event_id=event_id, failed_at__lt=started).update(
            failed_at=None, failure=""
        )
    return done


def record_failure(*, event_id: int, exc: BaseException) -> None:
    """Record on the board that a recompute failed: when, and the error (for the organiser's
    page and the administrators). Its own write, after the failed run's transaction is gone;
    if the database refuses this too, the log has it."""
    text = f"{type(exc).__name__}: {exc}".strip()[:500]
    try:
        if connection.in_atomic_block and connection.needs_rollback:
            return  # the caller's transaction is broken: the caller reports it
        Leaderboard.objects.update_or_create(
            event_id=event_id, defaults={"failed_at": timezone.now(), "failure": text}
        )
    except DatabaseError:
        log.exception("could not record the failed leaderboard recompute of event %s", event_id)


def queue_recompute(*, event_id: int, force: bool = False, eta: Any = None) -> None:
    """Queue the Celery task (never waits for it)."""
    from tournaments.tasks import recompute_leaderboard

    recompute_leaderboard.apply_async((event_id,), {"force": force}, eta=eta)


def request_recompute(*, event_id: int) -> bool:
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
        queue_recompute(event_id=event_id, eta=due)
    return bool(claimed)


def sweep_stale_boards() -> list[int]:
    """Ask for a recompute of every board that is behind its event's ledger; the events asked for.

    Run when a Celery worker starts (:mod:`tournaments.tasks`): a worker killed with a recompute
    in hand (``acks_late``) leaves its board stale until the broker hands the task out again (Redis:
    after the visibility timeout; kombu's filesystem broker of the embedded default: never). The
    worker that replaces it catches every such board up at once, through the usual coalesced
    request (a board whose recompute is already due is left to it)."""
    stale = list(
        Event.objects.filter(ledger_seq__gt=F("leaderboard__ledger_seq"))
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    for event_id in stale:
        request_recompute(event_id=event_id)
    return stale


def _bump(event_id: int) -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE tournaments_event SET ledger_seq = ledger_seq + 1 WHERE id = %s RETURNING ledger_seq",
            [event_id],
        )
        row = cursor.fetchone()
    return int(row[0]) if row else 0


def ledger_changed(*, event_id: int, sittings: Iterable[int] = (), registrations: Iterable[int] = ()) -> int:
    """A change the standings read: a ván, a correction or a settle-up at the event's canh
    ``sittings``, or a change of ``registrations``. Bump the event's number and stamp what
    changed with it, in the caller's transaction; ask for a recompute after commit."""
    seq = _bump(event_id)
    sittings, registrations = list(sittings), list(registrations)
    if sittings:
        TableSitting.objects.filter(event_id=event_id, sitting_id__in=sittings).update(changed_seq=seq)
    if registrations:
        Registration.objects.filter(event_id=event_id, pk__in=registrations).update(changed_seq=seq)
    transaction.on_commit(lambda: request_recompute(event_id=event_id))
    return seq
