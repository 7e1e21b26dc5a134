"""Webhooks: registered for one club or one event, told of the events they chose, signed, retried.

* :func:`webhook_create` checks the URL (:func:`tournaments.online.netguard.check_url`: public
  addresses only unless the settings allow private ones) and makes the hook's secret, shown once.
* :func:`emit` freezes an event's body into a :class:`WebhookDelivery` per hook that chose it, in
  one transaction, and queues each delivery's Celery task *after* that commit; the receivers of
  the ledger's ``sitting_changed`` and of :mod:`tournaments.signals` (all sent after the commit of
  the change they announce) call it, so a change rolled back is never announced.
* :func:`attempt` (the task's body, :mod:`tournaments.online.services.delivery`) sends one attempt
  within a total deadline, retries with exponential back-off and jitter, and keeps the hook's
  circuit breaker: a paused hook's deliveries are recorded as skipped, not sent.
* Per owner (club or event): at most ``WEBHOOK_HOOKS_PER_OWNER`` hooks switched on and
  ``WEBHOOK_TESTS_PER_MINUTE`` test sends a minute (:class:`WebhookLimit`, a 429 on the page).

Delivery is at least once: a receiver ignores a ``X-SoTom-Delivery`` id it has already seen.
A sitting imported whole is announced by one ``van.recorded`` carrying all its ván, not one per ván.
"""

from __future__ import annotations

import json
import math
import uuid
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q, Subquery
from django.urls import reverse
from django.utils import timezone

from scoring.engine import N_, EngineError
from scoring.models import Club, Sitting, Van
from scoring.services import rows
from scoring.services.people import acting_user
from scoring.services.sittings import sitting_changed
from scoring.text import iso
from tournaments.models import Event, Leaderboard, Round, Table, TableSitting
from tournaments.online import signing
from tournaments.online.models import PING, DeliveryStatus, HookEvent, SittingImport, Webhook, WebhookDelivery
from tournaments.online.netguard import check_url
from tournaments.online.services.delivery import attempt, skipped_reason
from tournaments.signals import event_finished, round_seated, standings_changed

__all__ = [
    "WebhookLimit",
    "attempt",
    "connect",
    "emit",
    "hooks_of_sitting",
    "sitting_context",
    "van_rows",
    "webhook_create",
    "webhook_disable",
    "webhook_resume",
    "webhook_test",
]

#: What the ledger's ``sitting_changed`` actions are announced as.
VAN_ACTIONS = {"van_record": HookEvent.VAN_RECORDED, "van_correct": HookEvent.VAN_CORRECTED}


# -- managing hooks ---------------------------------------------------------------------------------


def _events(chosen: Any) -> list[str]:
    values = [c for c in (chosen or []) if isinstance(c, str)]
    unknown = [c for c in values if c not in HookEvent.values]
    if unknown:
        raise EngineError(N_("Sự kiện không có: {names}."), names=", ".join(unknown))
    if not values:
        raise EngineError(N_("Hãy chọn ít nhất một sự kiện để nhận."))
    return [e for e in HookEvent.values if e in values]


class WebhookLimit(EngineError):
    """Over a per-owner cap (hooks switched on, test sends a minute); ``retry_after``: seconds
    until it may be tried again, when waiting helps."""

    code = "webhook_limit"

    def __init__(self, template: str, /, retry_after: int | None = None, **params: Any) -> None:
        super().__init__(template, **params)
        self.retry_after = retry_after


def _lock_owner(club: Club | None, event: Event | None) -> None:
    """Take the owner's row lock: the caps below are counted under it (two clicks at once count twice)."""
    if club is not None:
        Club.objects.select_for_update().filter(pk=club.pk).values_list("pk").first()
    else:
        Event.objects.select_for_update().filter(pk=event.pk).values_list("pk").first()  # type: ignore[union-attr]


def _owned(club: Club | None, event: Event | None) -> Q:
    return Q(club=club) if club is not None else Q(event=event)


def webhook_create(
    *, url: str, events: Any, created_by: Any, club: Club | None = None, event: Event | None = None
) -> tuple[Webhook, str]:
    """A new webhook for ``club`` or ``event``; returns it and its secret (shown once)."""
    if (club is None) == (event is None):
        raise EngineError(N_("Webhook thuộc đúng một làng hoặc một giải."))
    url = (url or "").strip()
    if len(url) > 500:
        raise EngineError(N_("Địa chỉ nhận dài quá 500 ký tự."))
    check_url(url)  # the early check; every delivery checks again, on the address it connects to
    chosen = _events(events)
    with transaction.atomic():
        _lock_owner(club, event)
        limit = settings.WEBHOOK_HOOKS_PER_OWNER
        if Webhook.objects.filter(_owned(club, event), disabled_at__isnull=True).count() >= limit:
            raise WebhookLimit(
                N_(
                    "Đã có {limit} webhook đang bật ở đây, là tối đa: hãy tắt một webhook trước khi đăng ký thêm."
                ),
                limit=limit,
            )
        secret = signing.new_secret()
        hook = Webhook.objects.create(
            club=club, event=event, url=url, events=chosen, secret=secret, created_by=created_by
        )
    return hook, secret


@transaction.atomic
def webhook_disable(*, hook: Webhook, by: Any) -> Webhook:
    """Stop sending to the hook (deliveries not sent yet fail). Twice changes nothing."""
    found = Webhook.objects.select_for_update().get(pk=hook.pk)
    if found.disabled_at is None:
        found.disabled_at, found.disabled_by = timezone.now(), acting_user(user=by)
        found.save(update_fields=["disabled_at", "disabled_by"])
    return found


# -- deliveries -------------------------------------------------------------------------------------


def _body(hook: Webhook, kind: str, delivery: uuid.UUID, data: dict[str, Any], scope: dict[str, Any]) -> str:
    return json.dumps(
        {"id": str(delivery), "type": kind, "created_at": timezone.now().isoformat(), **scope, "data": data},
        ensure_ascii=False,
        separators=(",", ":"),
        sort_keys=False,
    )


def _scope(hook: Webhook) -> dict[str, Any]:
    return {
        "club": hook.club.slug if hook.club_id else None,  # type: ignore[union-attr]
        "event": hook.event.slug if hook.event_id else None,
    }  # type: ignore[union-attr]


def _queue(ids: list[int]) -> None:
    from tournaments.online.tasks import deliver_webhook

    def send() -> None:
        for pk in ids:
            deliver_webhook.delay(pk)

    transaction.on_commit(send)


def _deliveries(hooks: list[Webhook], kind: str, data: dict[str, Any], *, test: bool = False) -> list[int]:
    """One delivery per hook (its body frozen now), queued after commit; a paused hook's recorded as
    skipped and not queued (the test send goes to a paused hook too)."""
    with transaction.atomic():
        made = []
        for hook in hooks:
            delivery = uuid.uuid4()
            skip = hook.paused_at is not None and not test
            made.append(
                WebhookDelivery(
                    webhook=hook,
                    uuid=delivery,
                    kind=kind,
                    body=_body(hook, kind, delivery, data, _scope(hook)),
                    **({"status": DeliveryStatus.SKIPPED, "error": skipped_reason()} if skip else {}),
                )
            )
        made = WebhookDelivery.objects.bulk_create(made)
        _queue([d.pk for d in made if d.status != DeliveryStatus.SKIPPED])
    return [d.pk for d in made]


def emit(
    *,
    kind: str,
    data: dict[str, Any],
    club_id: int | None = None,
    event_id: int | None = None,
    hooks: list[Webhook] | None = None,
) -> list[int]:
    """Announce ``kind`` to the live hooks of the club and of the event that chose it: one
    delivery each (its body frozen now), queued after commit. Returns the deliveries' ids."""
    if hooks is None:
        owner = Q(pk__in=[])
        if club_id is not None:
            owner |= Q(club_id=club_id)
        if event_id is not None:
            owner |= Q(event_id=event_id)
        hooks = list(Webhook.objects.filter(owner, disabled_at__isnull=True).select_related("club", "event"))
    chosen = [h for h in hooks if kind in h.events]
    return _deliveries(chosen, kind, data) if chosen else []


@transaction.atomic
def webhook_resume(*, hook: Webhook, by: Any) -> Webhook:
    """Close the hook's circuit breaker: deliveries are sent again (from the next event on; those
    skipped while it was paused stay skipped). Not paused: changes nothing."""
    found = Webhook.objects.select_for_update().get(pk=hook.pk)
    if found.paused_at is not None or found.failures:
        found.paused_at, found.pause_reason, found.failures = None, "", 0
        found._history_user = acting_user(user=by)  # type: ignore[attr-defined]
        found.save(update_fields=["paused_at", "pause_reason", "failures"])
    return found


def webhook_test(*, hook: Webhook) -> WebhookDelivery:
    """Queue a ``ping`` delivery to the hook (the page's "send test" button), also when the hook is
    paused (received, it closes the breaker); ``WEBHOOK_TESTS_PER_MINUTE`` per owner."""
    if not hook.active:
        raise EngineError(N_("Webhook đã tắt: không gửi thử được."))
    hook = Webhook.objects.select_related("club", "event").get(pk=hook.pk)
    data = {"message": "Sổ Tôm: thử webhook / webhook test", "webhook_id": hook.pk}
    with transaction.atomic():
        _lock_owner(hook.club, hook.event)
        since = timezone.now() - timedelta(minutes=1)
        sent = list(
            WebhookDelivery.objects.filter(
                webhook__in=Webhook.objects.filter(_owned(hook.club, hook.event)),
                kind=PING,
                created_at__gt=since,
            )
            .order_by("created_at")
            .values_list("created_at", flat=True)
        )
        limit = settings.WEBHOOK_TESTS_PER_MINUTE
        if len(sent) >= limit:
            wait = math.ceil((sent[-limit] - since).total_seconds())
            raise WebhookLimit(
                N_("Đã gửi thử {limit} lần trong một phút, là tối đa: hãy thử lại sau {seconds} giây."),
                retry_after=max(1, wait),
                limit=limit,
                seconds=max(1, wait),
            )
        [pk] = _deliveries([hook], PING, data, test=True)
    return WebhookDelivery.objects.get(pk=pk)


# -- what is announced --------------------------------------------------------------------------------


def sitting_context(*, sitting_id: int) -> dict[str, Any]:
    """Where a sitting belongs: its club, or its event, round, table and canh (2 queries)."""
    sitting = Sitting.objects.select_related("club").get(pk=sitting_id)
    canh = TableSitting.objects.select_related("table__round", "event").filter(sitting_id=sitting_id).first()
    return {
        "sitting_id": sitting_id,
        "sitting_url": reverse("api:sitting", args=[sitting_id]),
        "club": sitting.club.slug if sitting.club_id else None,  # type: ignore[union-attr]
        "event": canh.event.slug if canh else None,
        "round": canh.table.round.number if canh else None,
        "table_id": canh.table_id if canh else None,
        "table": canh.table.number if canh else None,
        "canh": canh.number if canh else None,
    }


def van_rows(*, vans: list[Van]) -> list[dict[str, Any]]:
    return [
        {
            "id": v.pk,
            "seq": v.seq,
            "outcome": v.outcome,
            "winner": v.winner.name if v.winner_id else None,
            "points": v.points,
            "cuoc": v.cuoc,
            "status": v.status,
            "replaces": v.replaces_id,
        }
        for v in vans
    ]


#: The live hooks of a sitting's club and of its event. Asked after every ván, where most sittings
#: have none: plain SQL (:mod:`scoring.services.rows`), as the rest of the ván path.
LIVE_HOOKS = f"""
SELECT w.id FROM {Webhook._meta.db_table} w
WHERE w.disabled_at IS NULL
  AND (w.club_id = (SELECT club_id FROM {Sitting._meta.db_table} WHERE id = %s)
       OR w.event_id = (SELECT event_id FROM {TableSitting._meta.db_table} WHERE sitting_id = %s))
"""


def _live_hook_ids(sitting_id: int) -> list[int]:
    """:data:`LIVE_HOOKS` through the ORM."""
    club = Sitting.objects.filter(pk=sitting_id).values("club_id")
    event = TableSitting.objects.filter(sitting_id=sitting_id).values("event_id")
    live = Webhook.objects.filter(disabled_at__isnull=True)
    return list(
        live.filter(Q(club_id=Subquery(club)) | Q(event_id=Subquery(event))).values_list("id", flat=True)
    )


def hooks_of_sitting(*, sitting_id: int) -> list[Webhook]:
    """The live hooks of the sitting's club and of its event (one query; two when there are some)."""
    ids = rows.column(sql=LIVE_HOOKS, params=[sitting_id, sitting_id], orm=lambda: _live_hook_ids(sitting_id))
    if not ids:
        return []
    return list(Webhook.objects.filter(pk__in=ids).select_related("club", "event").order_by("pk"))


def on_sitting_changed(
    sender: Any, *, sitting_id: int, action: str, van_id: int | None = None, **kwargs: Any
) -> None:
    kind = VAN_ACTIONS.get(action)
    if kind is None or van_id is None:
        return
    hooks = [h for h in hooks_of_sitting(sitting_id=sitting_id) if kind in h.events]
    if not hooks:
        return
    if (
        action == "van_record"
        and SittingImport.objects.filter(sitting_id=sitting_id, last_van_id__gte=van_id).exists()
    ):
        return  # part of an import, announced whole by it
    vans = list(Van.objects.select_related("winner").filter(pk=van_id))
    emit(
        kind=kind,
        hooks=hooks,
        data={**sitting_context(sitting_id=sitting_id), "imported": False, "van": van_rows(vans=vans)},
    )


def on_round_seated(sender: Any, *, event_id: int, round_id: int, **kwargs: Any) -> None:
    if not Webhook.objects.filter(event_id=event_id, disabled_at__isnull=True).exists():
        return
    rnd = Round.objects.select_related("event").get(pk=round_id)
    tables = Table.objects.filter(round=rnd).prefetch_related("sitting__seats").order_by("number")
    data = {
        "round": rnd.number,
        "method": rnd.method,
        "byes": rnd.byes,
        "tables": [
            {
                "id": t.pk,
                "number": t.number,
                "sitting_id": t.sitting_id,
                "players": [s.name for s in sorted(t.sitting.seats.all(), key=lambda s: s.position)],
            }
            for t in tables
        ],
        "tables_url": reverse("events-api:event-tables", args=[rnd.event.slug]),
    }
    emit(kind=HookEvent.ROUND_SEATED, event_id=event_id, data=data)


def on_event_finished(sender: Any, *, event_id: int, **kwargs: Any) -> None:
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return
    emit(
        kind=HookEvent.EVENT_FINISHED,
        event_id=event_id,
        data={
            "finished_at": iso(event.finished_at),
            "standings_url": reverse("events-api:event-standings", args=[event.slug]),
        },
    )


def on_standings_changed(sender: Any, *, event_id: int, version: int, **kwargs: Any) -> None:
    if not Webhook.objects.filter(event_id=event_id, disabled_at__isnull=True).exists():
        return
    board = Leaderboard.objects.select_related("event").filter(event_id=event_id).first()
    if board is None or board.version != version:
        return  # a newer version is already there: its own announcement follows
    emit(
        kind=HookEvent.STANDINGS_CHANGED,
        event_id=event_id,
        data={
            "version": board.version,
            "ledger_seq": board.ledger_seq,
            "van_count": board.van_count,
            "computed_at": iso(board.computed_at),
            "top": [{k: r[k] for k in ("rank", "key", "name", "team", "points")} for r in board.rows[:10]],
            "standings_url": reverse("events-api:event-standings", args=[board.event.slug]),
        },
    )


def connect() -> None:
    sitting_changed.connect(on_sitting_changed, dispatch_uid="online.webhooks.sitting")
    round_seated.connect(on_round_seated, dispatch_uid="online.webhooks.round")
    event_finished.connect(on_event_finished, dispatch_uid="online.webhooks.finished")
    standings_changed.connect(on_standings_changed, dispatch_uid="online.webhooks.standings")
