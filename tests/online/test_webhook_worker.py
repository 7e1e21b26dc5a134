"""A receiver that drips its answer cannot hold the real Celery worker: the worker gives up on it at
the deadline (``WEBHOOK_TIMEOUT``, 5 s in the worker's environment) and the next delivery in line,
another club's, is received right after. Before the deadline was total, the same drip (a byte a
second, 60 bytes) held the worker a minute. On PostgreSQL + Redis and on the SQLite file +
filesystem broker."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.online.receiver import BadReceiver, Receiver
from tests.subprocesses import WORKER_ENV

pytestmark = [pytest.mark.sqlite, pytest.mark.celery, pytest.mark.django_db(transaction=True)]

DEADLINE = float(WORKER_ENV["WEBHOOK_TIMEOUT"])
#: The worker's own work around an attempt (picking the task up, the database, a delivery left
#: queued by an earlier test of the session) on a busy machine: far below the minute the drip held
#: the worker before the deadline was total.
MARGIN = 15.0


def test_a_dripping_receiver_holds_the_worker_one_deadline_only(
    online_worker: Any, club: Any, organiser: Any, webhook_settings: Any, receiver: Receiver
) -> None:
    from scoring.services.roles import club_open
    from tournaments.online.models import DeliveryStatus, WebhookDelivery
    from tournaments.online.services.webhooks import webhook_create, webhook_disable, webhook_test

    drip = BadReceiver("drip", every=1.0)
    other = club_open(name="Làng Đoài Online", kind="lang", organiser=organiser, idempotency_key=None).obj
    try:
        slow, _ = webhook_create(url=drip.url, events=["van.recorded"], created_by=organiser, club=club)
        good, _ = webhook_create(url=receiver.url, events=["van.recorded"], created_by=organiser, club=other)
        started = time.monotonic()
        held = webhook_test(hook=slow)
        webhook_test(hook=good)  # in line behind it, on the same worker
        assert receiver.wait_for(lambda r: r.of_type("ping"), timeout=DEADLINE + MARGIN + 10)
        waited = time.monotonic() - started
        assert waited <= DEADLINE + MARGIN, f"the next delivery waited {waited:.1f} s"
        # In the whole suite another session worker may have taken the second delivery at once:
        # the drip's attempt still ends at the deadline, whoever holds it.
        until = time.monotonic() + DEADLINE + MARGIN
        first = WebhookDelivery.objects.get(pk=held.pk)
        while first.duration_ms is None and time.monotonic() < until:
            time.sleep(0.2)
            first = WebhookDelivery.objects.get(pk=held.pk)
        assert first.attempts >= 1 and first.status in (DeliveryStatus.RETRYING, DeliveryStatus.PENDING)
        assert first.duration_ms is not None and first.duration_ms <= (DEADLINE + 0.75) * 1000
        assert "không trả lời trọn trong 5 giây" in first.error
        assert drip.requests >= 1 and drip.sent < len(BadReceiver.ANSWER)
    finally:
        webhook_disable(hook=slow, by=organiser)  # its retries end at once, not on the next tests' time
        drip.stop()
