"""A big import as a job on the bulk lane: ``POST /api/v1/sittings/import`` above
``settings.IMPORT_JOB_THRESHOLD`` ván answers 202 with the job, and Celery runs it
(``bulk.import_sitting``: :func:`run_import_job`).

All or nothing, in short transactions. A new sitting of a club is written in a *staged* sitting:
opened in no club, seated by players of its own (guests nobody else uses), recorded ván by ván
through the ledger's own path (:func:`scoring.services.sittings.van_record`) in transactions
of a few ván each (:data:`CHUNK_SECONDS` long, as measured: other writers — a festival's
ván — get the database between them, even on SQLite's one writer). Nobody sees a sitting in no
club that nobody created and nobody is seated at: no list, page, API answer, board or balance
counts it. When every ván is in and the ledger equals the engine's replay of the request, one
last short transaction gives the sitting its club, its creator and the club's players and
writes the import's record: it appears whole. A crash midway leaves only the invisible staged
sitting; the task runs again (late acknowledgement) and continues from the ván the job's row
says are in (updated in each chunk's own transaction).

An event table's import (its current canh, already on the boards) is written as the synchronous
import writes it, in one transaction, but on the bulk lane (``table`` imports are bounded by the
event's ván per canh or per round).

The job is its owner's: ``GET /api/v1/jobs/{id}`` (:func:`job_json`). The same Idempotency-Key
answers the same job (the 202 is stored as any keyed answer); another body with it is refused.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone, translation

from scoring.engine import MAX_PLAYER_NAME, N_, EngineError, InvariantError, replay, rules_with_overrides
from scoring.errors import body_of, status_of
from scoring.models import Club, Player, Seat, Sitting, Van
from scoring.services.idempotency import Answer, Outcome, run_once
from scoring.services.ledger import snapshots_written_once
from scoring.services.people import Written, acting_user, player_for_name
from scoring.services.ratings import request_ratings_update
from scoring.services.replay import replay_answer, replay_check, replay_shape
from scoring.services.rules import resolve_rules
from scoring.services.sittings import announce, sitting_open, van_record
from tournaments.models import Table
from tournaments.online.models import ImportJob, JobState, PlatformToken, SittingImport
from tournaments.online.services.imports import _announce, _text, one_place, replay_part, sitting_import

__all__ = [
    "CHUNK_GAP_SECONDS",
    "CHUNK_SECONDS",
    "LEASE",
    "SLICE_SECONDS",
    "Busy",
    "import_job_start",
    "is_big",
    "job_json",
    "requeue_stalled_jobs",
    "run_import_job",
]

#: The longest a chunk's transaction should hold the database, commit included: SQLite has one
#: writer (a festival's ván waits for the chunk); PostgreSQL locks only the staged sitting's rows,
#: so its chunks are longer (fewer commits).
CHUNK_SECONDS = {"sqlite": 0.1, "postgresql": 1.0}
#: How long the job leaves the database alone after each chunk. SQLite has no queue of writers: one
#: that finds the lock taken sleeps (its busy handler: up to 100 ms between tries) and tries again,
#: so a job that began its next chunk as soon as the last committed would take the lock back every
#: time before a festival's ván woke up, for the whole import (seen: 8 s for one ván during a
#: 10,000-ván import). A gap longer than the longest sleep lets every waiting writer in first.
#: PostgreSQL queues lock waiters and the chunk locks only the staged sitting's rows: no gap.
CHUNK_GAP_SECONDS = {"sqlite": 0.15, "postgresql": 0.0}
#: Ván in the first chunk; the next ones are sized from how long the last one took.
FIRST_CHUNK = 10
MAX_CHUNK = 200
#: The longest one delivery of the task writes: then the job lets go of the bulk lane's worker and
#: queues its continuation behind whatever else waits there (an organiser's report, another
#: club's import), so a stranger's 10,000-ván import never holds the lane for its whole length.
SLICE_SECONDS = 20.0
TASK = "bulk.import_sitting"
#: A run that has not written for this long is taken for dead: another may take the job over.
LEASE = timedelta(seconds=120)


class Busy(Exception):
    """Another run holds the job (a task delivered twice: Redis hands an unacknowledged task out
    again after its visibility timeout); try again later."""


log = logging.getLogger(__name__)


def is_big(*, body: Mapping[str, Any]) -> bool:
    """Whether the import runs as a job (more ván than ``IMPORT_JOB_THRESHOLD``)."""
    van = body.get("van")
    return isinstance(van, list) and len(van) > settings.IMPORT_JOB_THRESHOLD


def job_json(*, job: ImportJob) -> dict[str, Any]:
    """The job as its owner reads it."""
    body: dict[str, Any] = {
        "id": job.pk,
        "state": job.state,
        "progress": {"done": job.done, "total": job.total},
        "sitting_id": job.sitting_id,
        "created_at": job.created_at,
        "finished_at": job.finished_at,
        "location": f"/api/v1/jobs/{job.pk}",
    }
    if job.state == JobState.DONE:
        body["result"] = job.result
    if job.state == JobState.FAILED:
        body["error"] = job.error
        body["error_status"] = job.error_status
    return body


def import_job_start(
    *,
    body: Mapping[str, Any],
    by: Any,
    idempotency_key: str,
    club: Club | None = None,
    table: Table | None = None,
    token: PlatformToken | None = None,
) -> Written[ImportJob]:
    """Check the request's shape (every ván is checked by the job) and queue the job; 202."""
    one_place(club=club, table=table)
    request = replay_shape(request=replay_part(body=body))
    _text(body, "platform", 80)
    _text(body, "title", 160)
    for name in request["players"]:
        if not name.strip() or len(name) > MAX_PLAYER_NAME:
            raise EngineError(N_("Tên người chơi phải có 1 đến {most} ký tự."), most=MAX_PLAYER_NAME)
    user = acting_user(user=by)
    box: dict[str, Any] = {}

    def action() -> Answer:
        job = ImportJob.objects.create(
            owner=user,
            request=dict(body),
            language=translation.get_language() or settings.LANGUAGE_CODE,
            club=club,
            table=table,
            token=token,
            total=len(request["van"]),
        )
        box["job"] = job
        transaction.on_commit(lambda: _queue(job.pk))
        return Answer(Outcome.QUEUED, job_json(job=job))

    target = ["club", club.pk] if club is not None else ["table", table.pk]  # type: ignore[union-attr]
    answer = run_once(
        key=idempotency_key, operation="sitting_import", target=target, payload=dict(body), action=action
    )
    if answer.replayed:
        return Written(None, answer, load=lambda: ImportJob.objects.get(pk=answer.body["id"]))
    return Written(box["job"], answer)


def _queue(job_id: int) -> None:
    from tournaments.online.tasks import import_sitting

    import_sitting.delay(job_id)


def _fail(job_id: int, status: int, body: dict[str, Any]) -> None:
    ImportJob.objects.filter(pk=job_id).update(
        state=JobState.FAILED, error=body, error_status=status, finished_at=timezone.now()
    )


def _claim(job_id: int) -> bool:
    """Take the job: queued, or running but untouched for :data:`LEASE` (its run died)."""
    now = timezone.now()
    stale = Q(touched_at__isnull=True) | Q(touched_at__lt=now - LEASE)
    return bool(
        ImportJob.objects.filter(pk=job_id, state__in=(JobState.QUEUED, JobState.RUNNING))
        .filter(stale)
        .update(touched_at=now)
    )


def requeue_stalled_jobs() -> list[int]:
    """Queue again every job left queued or running with no run touching it (a worker killed
    midway, on a broker that never hands its task out again: the filesystem broker)."""
    cutoff = timezone.now() - LEASE
    stalled = list(
        ImportJob.objects.filter(state__in=(JobState.QUEUED, JobState.RUNNING))
        .filter(Q(touched_at__lt=cutoff) | Q(touched_at__isnull=True, created_at__lt=cutoff))
        .values_list("pk", flat=True)
    )
    for pk in stalled:
        _queue(pk)
    return stalled


def run_import_job(*, job_id: int) -> str:
    """Run the job (again, after a crash: from where it stopped); answers its state. Raises
    :class:`Busy` while another run holds it."""
    job = ImportJob.objects.select_related("owner").filter(pk=job_id).first()
    if job is None or job.state in (JobState.DONE, JobState.FAILED):
        return job.state if job is not None else "missing"
    if not _claim(job_id):
        raise Busy(job_id)
    with translation.override(job.language):
        try:
            return _run(job)
        except InvariantError:
            log.exception("Import job %s: the ledger differs from the engine's replay", job.pk)
            _fail(
                job.pk,
                500,
                {
                    "error": translation.gettext("Lỗi hệ thống khi nhập canh bài; canh chưa được ghi."),
                    "code": "internal_error",
                },
            )
            return JobState.FAILED


def _touch(job_id: int) -> None:
    ImportJob.objects.filter(pk=job_id).update(touched_at=timezone.now())


def _run(job: ImportJob) -> str:
    ImportJob.objects.filter(pk=job.pk).update(
        state=JobState.RUNNING, started_at=job.started_at or timezone.now()
    )
    body = job.request
    try:
        request = replay_part(body=body)
        if job.staged_id is None:  # a continuation's ván were all checked by the job's first run
            replay_check(request=request)  # every ván, before anything is written (no transaction held)
        _touch(job.pk)
    except EngineError as exc:  # the answer the synchronous import gives (scoring.errors)
        _fail(job.pk, status_of(exc), body_of(exc))
        return JobState.FAILED
    if job.table_id is not None:
        return _run_table(job)
    sitting = _staged(job, request)
    if not _write_chunks(job, sitting, request):
        # Its slice is used up: the next delivery (behind the lane's other work) may claim it at once.
        ImportJob.objects.filter(pk=job.pk).update(touched_at=None)
        _queue(job.pk)
        return JobState.RUNNING
    return _land(job, request)


def _run_table(job: ImportJob) -> str:
    """An event table's import: the synchronous path's one transaction, on the bulk lane."""
    try:
        written = sitting_import(
            body=job.request,
            by=job.owner,
            idempotency_key=None,  # type: ignore[arg-type]
            table=job.table,
            token=job.token,
        )
    except EngineError as exc:  # the answer the synchronous import gives: 422 naming a bad ván, 409…
        _fail(job.pk, status_of(exc), body_of(exc))
        return JobState.FAILED
    result = written.answer.body
    ImportJob.objects.filter(pk=job.pk).update(
        state=JobState.DONE,
        done=job.total,
        sitting_id=result["sitting_id"],
        result=result,
        finished_at=timezone.now(),
    )
    return JobState.DONE


def _staged(job: ImportJob, request: Mapping[str, Any]) -> Sitting:
    """The job's staged sitting, opened (with players of its own, in no club) on the first run."""
    if job.staged_id is not None:
        return Sitting.objects.select_related("rules").get(pk=job.staged_id)
    with transaction.atomic():
        players = [Player.objects.create(name=name.strip(), club=None) for name in request["players"]]
        # A key no typed name has: another sitting's "An" among the guests never finds these.
        for i, player in enumerate(players):
            Player.objects.filter(pk=player.pk).update(name_key=f"~import-job-{job.pk}-{i}")
        sitting = sitting_open(
            game=request["game"],
            rules=rules_with_overrides(request, resolve_rules),
            mode=request.get("mode", "quang"),
            players=players,
        ).obj
        ImportJob.objects.filter(pk=job.pk).update(staged=sitting, done=0)
    job.staged_id, job.done = sitting.pk, 0
    return Sitting.objects.select_related("rules").get(pk=sitting.pk)


def _write_chunks(job: ImportJob, sitting: Sitting, request: Mapping[str, Any]) -> bool:
    """The ván not yet in, a few a transaction, each transaction about CHUNK_SECONDS long, for at
    most :data:`SLICE_SECONDS`; whether every ván is in."""
    vans = request["van"]
    slice_ends = time.monotonic() + SLICE_SECONDS
    done = Van.objects.filter(sitting=sitting, is_current=True).count()  # what the last run committed
    size = FIRST_CHUNK
    budget = CHUNK_SECONDS.get(connection.vendor, 0.1)
    gap = CHUNK_GAP_SECONDS.get(connection.vendor, 0.0)
    while done < len(vans):
        end = min(done + size, len(vans))
        began = time.monotonic()
        with transaction.atomic(), snapshots_written_once():
            for seq in range(done + 1, end + 1):
                van_record(
                    sitting=sitting.pk,
                    seq=seq,
                    record=vans[seq - 1],
                    idempotency_key=None,
                    entered_by=job.owner,
                )
            ImportJob.objects.filter(pk=job.pk).update(done=end, touched_at=timezone.now())
        took = time.monotonic() - began
        per_van = took / (end - done)
        done = end
        size = max(1, min(MAX_CHUNK, int(budget / per_van) if per_van > 0 else MAX_CHUNK))
        if done < len(vans):
            if time.monotonic() >= slice_ends:
                return False
            time.sleep(gap)
    return True


def _land(job: ImportJob, request: Mapping[str, Any]) -> str:
    """Check the ledger against the engine's replay, then make the sitting appear, in one short
    transaction: its club, creator and title, the club's players at its seats, the import's record."""
    _touch(job.pk)
    staged = Sitting.objects.select_related("rules").get(pk=job.staged_id)
    written = list(
        Van.objects.filter(sitting=staged, is_current=True)
        .order_by("seq")
        .values_list("pk", "points", "streak")
    )
    result = replay_answer(sitting=staged, written=written)
    expected = replay(request, resolve_rules=resolve_rules)
    if result != expected:
        raise InvariantError(f"import job {job.pk}: the ledger differs from the engine's replay")
    _touch(job.pk)
    body = job.request
    user = job.owner
    club = job.club
    assert club is not None
    platform = _text(body, "platform", 80) or (job.token.label if job.token is not None else "") or "API"
    title = _text(body, "title", 160)
    with transaction.atomic():
        seats = list(Seat.objects.filter(sitting=staged).select_related("player").order_by("position"))
        own = [seat.player_id for seat in seats]
        for seat in seats:
            Seat.objects.filter(pk=seat.pk).update(player=player_for_name(name=seat.name, club=club))
        Player.objects.filter(pk__in=own, club__isnull=True, seats__isnull=True).delete()
        Sitting.objects.filter(pk=staged.pk).update(
            club=club, created_by=user, title=(title or "").strip()[:160], created_at=timezone.now()
        )
        imported = SittingImport.objects.create(
            sitting=staged,
            platform=platform,
            imported_by=user,
            token=job.token,
            van_count=len(written),
            last_van_id=max((pk for pk, _, _ in written), default=None),
        )
        answer = {
            **result,
            "sitting_id": staged.pk,
            "van_ids": [pk for pk, _, _ in written],
            "import_id": imported.pk,
            "platform": platform,
            "club": club.slug,
            "event": None,
            "table_id": None,
        }
        ImportJob.objects.filter(pk=job.pk).update(
            state=JobState.DONE, done=len(written), sitting=staged, result=answer, finished_at=timezone.now()
        )
        announce(sitting_ids=[staged.pk], action="open")
        sitting_id, club_id = staged.pk, club.pk
        transaction.on_commit(lambda: _landed(sitting_id, club_id))
    return JobState.DONE


def _landed(sitting_id: int, club_id: int) -> None:
    vans = list(
        Van.objects.filter(sitting_id=sitting_id, is_current=True).select_related("winner").order_by("seq")
    )
    _announce(sitting_id, vans)
    request_ratings_update(club_id=club_id)
