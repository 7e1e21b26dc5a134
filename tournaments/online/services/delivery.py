"""One attempt of a webhook delivery, its back-off, and the hook's circuit breaker.

* :func:`attempt` (the Celery task's body) claims the attempt (a conditional UPDATE: a copy of the
  task handed out twice by the broker sends nothing), re-checks the URL, signs the body with the
  current time and POSTs it (:func:`tournaments.online.netguard.post`: the address connected to is
  the one just checked; ``WEBHOOK_TIMEOUT`` bounds the whole exchange; at most ``WEBHOOK_MAX_ANSWER``
  bytes of the answer are read), and records how it went.
* A failure is retried after :func:`retry_wait` (exponential, with jitter), ``WEBHOOK_MAX_ATTEMPTS``
  attempts in all.
* The breaker: every failed attempt adds one to the hook's ``failures``, a received delivery sets
  it back to 0; at ``WEBHOOK_PAUSE_AFTER`` the hook is paused (``paused_at`` and the last error as
  its reason). A paused hook is sent nothing: its deliveries are recorded as skipped
  (:attr:`DeliveryStatus.SKIPPED`, never sent later), except the owner's test send, which closes
  the breaker when it is received; :func:`tournaments.online.services.webhooks.webhook_resume`
  closes it too.
"""

from __future__ import annotations

import random
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from scoring.engine import EngineError
from tournaments.online import signing
from tournaments.online.models import PING, DeliveryStatus, Webhook, WebhookDelivery
from tournaments.online.netguard import check_url, post

__all__ = ["USER_AGENT", "attempt", "retry_wait", "skipped_reason"]

USER_AGENT = "SoTom-Webhook/1"
#: Statuses after which nothing is sent any more.
DONE = (DeliveryStatus.DELIVERED, DeliveryStatus.FAILED, DeliveryStatus.SKIPPED)
#: A task that comes more than this before its delivery's next attempt is a stray copy.
EARLY = timedelta(seconds=1)


def retry_wait(*, attempts: int, rng: random.Random | None = None) -> float:
    """Seconds before the next try after ``attempts`` failed ones: ``WEBHOOK_RETRY_SECONDS`` ×
    3^(attempts-1), at most ``WEBHOOK_RETRY_MAX_SECONDS``, of which a random half to the whole
    (so many deliveries failed at once do not all come back at once)."""
    nominal = min(settings.WEBHOOK_RETRY_MAX_SECONDS, settings.WEBHOOK_RETRY_SECONDS * 3 ** (attempts - 1))
    return (rng or random).uniform(nominal / 2, nominal)  # noqa: S311 (spreading, not secrecy)


def skipped_reason() -> str:
    return gettext("Webhook đang tạm dừng: không gửi.")


def _finish(pk: int, **fields: Any) -> None:
    WebhookDelivery.objects.filter(pk=pk).update(**fields)


def _received(hook: Webhook) -> None:
    """A delivery got a 2xx: the breaker closes (one UPDATE that matches nothing when it was closed;
    a paused hook's history records its reopening)."""
    Webhook.objects.filter(pk=hook.pk, paused_at__isnull=True, failures__gt=0).update(failures=0)
    with transaction.atomic():
        found = Webhook.objects.select_for_update().filter(pk=hook.pk, paused_at__isnull=False).first()
        if found is not None:
            found.failures, found.paused_at, found.pause_reason = 0, None, ""
            found.save(update_fields=["failures", "paused_at", "pause_reason"])


def _failed(hook: Webhook, error: str) -> bool:
    """Count a failed attempt; pause the hook at the threshold (recorded in its history). True if
    the hook is paused now."""
    with transaction.atomic():
        found = Webhook.objects.select_for_update().filter(pk=hook.pk).first()
        if found is None:
            return False
        found.failures += 1
        if found.paused_at is None and found.failures >= settings.WEBHOOK_PAUSE_AFTER:
            found.paused_at, found.pause_reason = timezone.now(), error[:300]
            found.save(update_fields=["failures", "paused_at", "pause_reason"])
        else:
            Webhook.objects.filter(pk=hook.pk).update(failures=found.failures)
        return found.paused_at is not None


def _send(hook: Webhook, delivery: WebhookDelivery) -> tuple[int | None, str]:
    """POST the delivery once: the answer's status and the error ("" when received)."""
    deadline = settings.WEBHOOK_TIMEOUT
    started = time.monotonic()
    try:
        target = check_url(hook.url, timeout=deadline)  # again: the name may point somewhere else by now
        timestamp = int(time.time())
        body = delivery.body.encode("utf-8")
        headers = {
            "Content-Type": "application/json; charset=utf-8",
            "User-Agent": USER_AGENT,
            signing.EVENT: delivery.kind,
            signing.DELIVERY: str(delivery.uuid),
            signing.TIMESTAMP: str(timestamp),
            signing.SIGNATURE: signing.signature(hook.secret, timestamp, body),
        }
        left = deadline - (time.monotonic() - started)  # the look-up counts in the deadline
        answer = post(target, body, headers, timeout=left, cap=settings.WEBHOOK_MAX_ANSWER, total=deadline)
    except EngineError as exc:  # an address refused, the deadline, not HTTP
        return None, exc.message
    except OSError as exc:
        return None, gettext("Không gửi được: %(why)s") % {"why": exc or type(exc).__name__}
    if not 200 <= answer.status < 300:
        return answer.status, gettext("Nơi nhận trả lời %(code)s.") % {"code": answer.status}
    return answer.status, ""


def attempt(*, delivery_id: int) -> float | None:
    """Try to deliver once and record how it went; the seconds until the next try (None: no more)."""
    delivery = WebhookDelivery.objects.select_related("webhook").filter(pk=delivery_id).first()
    if delivery is None or delivery.status in DONE:
        return None
    now = timezone.now()
    if delivery.next_attempt_at is not None and delivery.next_attempt_at > now + EARLY:
        return None  # a stray copy: the task of the next attempt is already queued
    hook = delivery.webhook
    if not hook.active:
        _finish(
            delivery.pk,
            status=DeliveryStatus.FAILED,
            error=gettext("Webhook đã bị tắt."),
            next_attempt_at=None,
        )
        return None
    if hook.paused_at is not None and delivery.kind != PING:
        _finish(delivery.pk, status=DeliveryStatus.SKIPPED, error=skipped_reason(), next_attempt_at=None)
        return None
    claimed = WebhookDelivery.objects.filter(
        pk=delivery.pk, attempts=delivery.attempts, status=delivery.status
    ).update(attempts=F("attempts") + 1, last_attempt_at=now)
    if not claimed:
        return None  # another copy of the task took this attempt
    attempts = delivery.attempts + 1
    started = time.perf_counter()
    code, error = _send(hook, delivery)
    took = round((time.perf_counter() - started) * 1000)
    done = {"response_code": code, "duration_ms": took, "error": error[:300]}
    if not error:
        _finish(
            delivery.pk,
            status=DeliveryStatus.DELIVERED,
            delivered_at=timezone.now(),
            next_attempt_at=None,
            **done,
        )
        _received(hook)
        return None
    paused = _failed(hook, error)
    if paused or attempts >= settings.WEBHOOK_MAX_ATTEMPTS:
        if paused:
            done["error"] = f"{error} {gettext('(webhook tạm dừng)')}"[:300]
        _finish(delivery.pk, status=DeliveryStatus.FAILED, next_attempt_at=None, **done)
        return None
    wait = retry_wait(attempts=attempts)
    _finish(
        delivery.pk,
        status=DeliveryStatus.RETRYING,
        next_attempt_at=timezone.now() + timedelta(seconds=wait),
        **done,
    )
    return wait
