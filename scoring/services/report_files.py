"""Reports rendered on the bulk lane (:class:`scoring.models.ReportFile`): asked for, claimed by a
worker within ``REPORT_MAX_RENDERS`` render slots, told their progress, finished or failed, and
cleaned.

A request only ever writes one short row here and queues ``bulk.render_report`` after its commit;
the worker renders (:mod:`scoring.reports.jobs`). The same report of the same ledger version is
one row (a unique constraint), so a second request, from anyone, finds the first one's file.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from scoring.models import ReportFile, ReportFileState

__all__ = [
    "Claim",
    "report_file_alive",
    "report_file_claim",
    "report_file_fail",
    "report_file_finish",
    "report_file_progress",
    "report_file_request",
]

log = logging.getLogger(__name__)

#: Progress is written at most this often (each write is a short transaction: on SQLite it takes
#: the write lock, so a render must not take it for every row).
PROGRESS_EVERY = timedelta(milliseconds=500)


def _stale_after() -> timedelta:
    """A running render silent (no progress) for this long is taken to be dead (its worker was
    killed): its slot is freed and the report rendered again."""
    return timedelta(seconds=settings.REPORT_RENDER_TIMEOUT)


#: The Celery task that renders a row (``scoring/tasks.py``), sent by name: it runs the reports
#: layer, which this layer never imports. Every ``bulk.*`` task goes to the bulk lane.
RENDER_TASK = "bulk.render_report"


def _queue(file_id: int) -> None:
    current_app.send_task(RENDER_TASK, (file_id,))


def report_file_request(
    *,
    kind: str,
    params: dict[str, Any],
    language: str,
    subject: str,
    version: str,
    filename: str,
    content_type: str,
    inline: bool,
) -> ReportFile:
    """The row of this report at this version, created and queued if there is none; a failed one
    is queued again (the person asked again). Writes one short row; renders nothing."""
    existing = ReportFile.objects.filter(subject=subject, version=version).defer("data").first()
    stale = timezone.now() - _stale_after()
    lost = existing is not None and (
        existing.state == ReportFileState.FAILED
        or (existing.state != ReportFileState.DONE and existing.updated_at < stale)
    )
    if existing is not None and not lost:
        return existing
    with transaction.atomic():
        if existing is not None:
            # Failed (asked again), or silent for too long: its worker died, or its task was lost.
            updated = ReportFile.objects.filter(pk=existing.pk, updated_at=existing.updated_at).update(
                state=ReportFileState.QUEUED,
                slot=None,
                error="",
                stage="",
                done=0,
                total=0,
                updated_at=timezone.now(),
            )
            if updated:
                transaction.on_commit(lambda: _queue(existing.pk))
            return ReportFile.objects.defer("data").get(pk=existing.pk)
        try:
            with transaction.atomic():
                row = ReportFile.objects.create(
                    kind=kind,
                    params=params,
                    language=language,
                    subject=subject,
                    version=version,
                    filename=filename,
                    content_type=content_type,
                    inline=inline,
                )
        except IntegrityError:  # asked at the same moment by someone else: theirs
            return ReportFile.objects.defer("data").get(subject=subject, version=version)
        _clean(now=row.created_at)
        transaction.on_commit(lambda: _queue(row.pk))
        return row


def _clean(*, now: Any) -> None:
    """Delete the files kept longer than ``REPORT_FILE_KEEP_HOURS`` and every failed row as old."""
    old = now - timedelta(hours=settings.REPORT_FILE_KEEP_HOURS)
    ReportFile.objects.filter(created_at__lt=old).exclude(state=ReportFileState.RUNNING).delete()


@dataclass(frozen=True, slots=True)
class Claim:
    #: The worker renders it now.
    render: bool
    #: Every slot is taken: try again a little later (the task retries itself).
    wait: bool = False


def report_file_claim(*, file_id: int) -> Claim:
    """Take one of the ``REPORT_MAX_RENDERS`` render slots for the row, if it is still to render.

    A row already done (a task delivered twice) or rendering elsewhere is not rendered again; one
    running but silent for ``REPORT_RENDER_TIMEOUT`` (its worker died) is taken over. Each running
    row holds a slot number below the limit, unique among rows (the database refuses a slot twice),
    so no more renders than the limit ever run at once, on any number of workers.
    """
    now = timezone.now()
    stale = now - _stale_after()
    # Free the slots of dead renders (the row is rendered again by whoever claims it next).
    ReportFile.objects.filter(state=ReportFileState.RUNNING, updated_at__lt=stale).update(
        state=ReportFileState.QUEUED, slot=None
    )
    row = ReportFile.objects.filter(pk=file_id).only("state").first()
    if row is None or row.state != ReportFileState.QUEUED:
        return Claim(render=False)
    taken = set(ReportFile.objects.filter(slot__isnull=False).values_list("slot", flat=True))
    for slot in range(settings.REPORT_MAX_RENDERS):
        if slot in taken:
            continue
        try:
            with transaction.atomic():
                claimed = ReportFile.objects.filter(pk=file_id, state=ReportFileState.QUEUED).update(
                    state=ReportFileState.RUNNING,
                    slot=slot,
                    started_at=now,
                    stage="",
                    done=0,
                    total=0,
                    updated_at=now,
                )
        except IntegrityError:  # another worker took this slot meanwhile: try the next one
            continue
        return Claim(render=bool(claimed))
    # Waiting for a slot is a sign of life too (a queued row silent for too long was lost).
    ReportFile.objects.filter(pk=file_id, state=ReportFileState.QUEUED).update(updated_at=now)
    return Claim(render=False, wait=True)


def report_file_alive(*, file_id: int) -> None:
    """The render goes on (a stage without figures, such as a PDF's layout): the row is not stale."""
    ReportFile.objects.filter(pk=file_id, state=ReportFileState.RUNNING).update(updated_at=timezone.now())


class Progress:
    """What a renderer tells of its work: a stage and ``done`` of ``total`` (written at most every
    :data:`PROGRESS_EVERY`; the last figures of a stage always)."""

    def __init__(self, file_id: int) -> None:
        self.file_id = file_id
        self._last = timezone.now() - PROGRESS_EVERY

    def __call__(self, stage: str, done: int, total: int, *, force: bool = False) -> None:
        now = timezone.now()
        if not force and now - self._last < PROGRESS_EVERY:
            return
        self._last = now
        report_file_progress(file_id=self.file_id, stage=stage, done=done, total=total)


def report_file_progress(*, file_id: int, stage: str, done: int, total: int) -> None:
    ReportFile.objects.filter(pk=file_id, state=ReportFileState.RUNNING).update(
        stage=stage, done=max(0, done), total=max(0, total), updated_at=timezone.now()
    )


@transaction.atomic
def report_file_finish(*, file_id: int, data: bytes) -> None:
    """Store the file and free the slot; older versions of the same report are deleted."""
    now = timezone.now()
    row = ReportFile.objects.defer("data").get(pk=file_id)
    ReportFile.objects.filter(pk=file_id).update(
        state=ReportFileState.DONE, slot=None, data=data, size=len(data), finished_at=now, updated_at=now
    )
    ReportFile.objects.filter(subject=row.subject, created_at__lt=row.created_at).exclude(
        state=ReportFileState.RUNNING
    ).delete()


def report_file_fail(*, file_id: int, error: str) -> None:
    log.error("report file %s failed: %s", file_id, error)
    ReportFile.objects.filter(pk=file_id).update(
        state=ReportFileState.FAILED,
        slot=None,
        error=error[:2000],
        finished_at=timezone.now(),
        updated_at=timezone.now(),
    )
