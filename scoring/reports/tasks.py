"""The Celery task of the big reports (:mod:`scoring.reports.jobs`), on the bulk lane. Beside the
reports it runs rather than in ``scoring/tasks.py``: the services queue the other tasks of that
module, and services never import the reports layer. Registered when the app is ready (through
:mod:`scoring.reports.renderers`), in every process: the services send it by its name."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import OperationalError

from scoring.reports.jobs import render_file
from scoring.services.report_files import report_file_claim


@shared_task(
    name="bulk.render_report",
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    # Every render slot taken: wait in the queue (the row says "waiting"), a try every 2 s.
    max_retries=None,
)
def render_report(self: Any, file_id: int) -> None:
    """Render one big report (:mod:`scoring.reports.jobs`) within the ``REPORT_MAX_RENDERS``
    slots. A row already rendered or rendering elsewhere is left alone (a task delivered twice)."""
    try:
        claim = report_file_claim(file_id=file_id)
    except OperationalError as exc:  # SQLite busy for longer than its timeout: a little later
        raise self.retry(countdown=2, exc=exc) from exc
    if claim.wait:
        raise self.retry(countdown=2)
    if claim.render:
        render_file(file_id)
