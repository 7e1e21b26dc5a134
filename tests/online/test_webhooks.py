"""Webhooks: deliveries made only after commit, signed (verified with the recipe of docs/api.md,
run as written there), retried with backoff, refused for private addresses unless allowed (at
registration and again at delivery, against DNS rebinding), announced for each event kind."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.db import transaction

from tests.factories import open_sitting, record_all
from tests.online.receiver import Receiver

pytestmark = pytest.mark.django_db

DOCS = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def recipe() -> Any:
    """The ``verify`` function of docs/api.md, from the code block after ``<!-- verify-recipe -->``."""
    text = DOCS.read_text(encoding="utf-8")
    block = re.search(r"<!-- verify-recipe -->\s*```python\n(.*?)```", text, re.S)
    assert block, "docs/api.md has no verify recipe"
    scope: dict[str, Any] = {}
    exec(compile(block.group(1), str(DOCS), "exec"), scope)  # noqa: S102 (our own documentation)
    return scope["verify"]


verify = recipe()


def due(pk: int) -> None:
    """Make the delivery's next attempt due now (a test runs the attempts back to back)."""
    from tournaments.online.models import WebhookDelivery

    WebhookDelivery.objects.filter(pk=pk).update(next_attempt_at=None)


def hook_for(owner: dict[str, Any], organiser: Any, url: str, events: list[str]) -> tuple[Any, str]:
    from tournaments.online.services.webhooks import webhook_create

    return webhook_create(url=url, events=events, created_by=organiser, **owner)


# -- the URL guard ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/hook",
        "http://localhost/hook",
        "http://10.1.2.3/",
        "http://192.168.1.10/",
        "http://172.16.0.1/",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]/",
        "http://[fd00::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://100.64.0.1/",
        "http://0.0.0.0/",
    ],
)
def test_a_private_or_loopback_address_is_refused(url: str, settings: Any) -> None:
    from tournaments.online.netguard import UnsafeUrl, check_url

    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False
    with pytest.raises(UnsafeUrl, match="mạng nội bộ"):
        check_url(url)


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("ftp://example.com/", "http://"),
        ("http:///x", "http://"),
        ("http://user:pw@example.com/", "mật khẩu"),
        ("http://khong-co-may-nay.invalid/", "Không tìm thấy"),
    ],
)
def test_a_url_that_is_not_a_web_address_is_refused(url: str, words: str) -> None:
    from tournaments.online.netguard import UnsafeUrl, check_url

    with pytest.raises(UnsafeUrl, match=words):
        check_url(url)


def test_every_address_of_the_name_is_checked(settings: Any, monkeypatch: Any) -> None:
    from tournaments.online import netguard

    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False
    monkeypatch.setattr(netguard, "_resolve", lambda host, port: ("93.184.216.34", "10.0.0.7"))
    with pytest.raises(netguard.UnsafeUrl, match="10.0.0.7"):
        netguard.check_url("https://hooks.example.com/x")
    monkeypatch.setattr(netguard, "_resolve", lambda host, port: ("93.184.216.34",))
    assert netguard.check_url("https://hooks.example.com/x?a=1").path == "/x?a=1"


def test_registering_a_private_address_is_refused_unless_the_settings_allow_it(
    club: Any, organiser: Any, settings: Any
) -> None:
    from tournaments.online.netguard import UnsafeUrl

    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False
    with pytest.raises(UnsafeUrl):
        hook_for({"club": club}, organiser, "http://127.0.0.1:9/hook", ["van.recorded"])
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    hook, secret = hook_for({"club": club}, organiser, "http://127.0.0.1:9/hook", ["van.recorded"])
    assert secret.startswith("whsec_") and hook.events == ["van.recorded"]


def test_dns_rebinding_is_stopped_at_delivery(
    club: Any, organiser: Any, settings: Any, monkeypatch: Any, receiver: Receiver, queued: list[int]
) -> None:
    """The name resolved to a public address when registered, and to 127.0.0.1 (where the receiver
    listens) when the delivery is due: nothing reaches the receiver, the log says why."""
    from tournaments.online import netguard
    from tournaments.online.models import DeliveryStatus, WebhookDelivery
    from tournaments.online.services.webhooks import attempt, webhook_test

    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False
    port = receiver.server.server_address[1]
    monkeypatch.setattr(netguard, "_resolve", lambda host, p: ("93.184.216.34",))
    hook, _ = hook_for({"club": club}, organiser, f"http://hooks.example.com:{port}/hook", ["van.recorded"])
    monkeypatch.setattr(netguard, "_resolve", lambda host, p: ("127.0.0.1",))
    delivery = webhook_test(hook=hook)
    assert attempt(delivery_id=delivery.pk) is not None  # retried later, not sent now
    delivery = WebhookDelivery.objects.get(pk=delivery.pk)
    assert delivery.status == DeliveryStatus.RETRYING and "127.0.0.1" in delivery.error
    assert receiver.requests == []


def test_the_delivery_goes_to_the_address_just_checked(
    club: Any, organiser: Any, webhook_settings: Any, monkeypatch: Any, receiver: Receiver, queued: list[int]
) -> None:
    """The host's name is resolved once per attempt and the connection made to that address, with the
    name in the Host header (never a second look-up that could answer differently)."""
    from tournaments.online import netguard
    from tournaments.online.services.webhooks import attempt, webhook_test

    port = receiver.server.server_address[1]
    answers = iter(
        [("127.0.0.1",), ("127.0.0.1",), ("93.184.216.34",)]
    )  # registration, delivery, (a 2nd look-up)
    monkeypatch.setattr(netguard, "_resolve", lambda host, p: next(answers))
    hook, _ = hook_for({"club": club}, organiser, f"http://receiver.test:{port}/hook", ["van.recorded"])
    assert attempt(delivery_id=webhook_test(hook=hook).pk) is None
    [got] = receiver.requests
    assert got.headers["Host"] == f"receiver.test:{port}"


# -- signing, retries, the log -------------------------------------------------------------------


def test_deliveries_are_signed_retried_with_backoff_and_logged(
    club: Any,
    organiser: Any,
    webhook_settings: Any,
    queued: list[int],
    django_capture_on_commit_callbacks: Any,
) -> None:
    from tournaments.online.models import DeliveryStatus, WebhookDelivery
    from tournaments.online.services.webhooks import attempt, webhook_test

    receiver = Receiver(statuses=[500, 503])
    try:
        hook, secret = hook_for({"club": club}, organiser, receiver.url, ["van.recorded"])
        with django_capture_on_commit_callbacks(execute=True):
            delivery = webhook_test(hook=hook)
            assert queued == []  # queued once committed
        assert queued == [delivery.pk]
        waits = []
        for _ in range(3):
            waits.append(attempt(delivery_id=delivery.pk))
            due(delivery.pk)
        # WEBHOOK_RETRY_SECONDS, then three times longer (each a random half to the whole), then delivered
        assert 0.5 <= waits[0] <= 1.0 and 1.5 <= waits[1] <= 3.0 and waits[2] is None
        done = WebhookDelivery.objects.get(pk=delivery.pk)
        assert (done.status, done.attempts, done.response_code, done.error) == (
            DeliveryStatus.DELIVERED,
            3,
            200,
            "",
        )
        assert done.delivered_at is not None and done.duration_ms is not None
        assert (
            attempt(delivery_id=delivery.pk) is None and len(receiver.requests) == 3
        )  # delivered: never sent again
        for got in receiver.requests:
            assert got.headers["X-SoTom-Delivery"] == str(delivery.uuid)
            assert got.headers["X-SoTom-Event"] == "ping"
            assert verify(secret, got.headers, got.body)
            assert not verify("whsec_sai", got.headers, got.body)
            assert not verify(secret, got.headers, got.body + b" ")
            assert not verify(secret, got.headers, got.body, now=got.at + 301)  # replayed later
        assert json.loads(receiver.requests[0].body)["type"] == "ping"
    finally:
        receiver.stop()


def test_a_delivery_gives_up_after_the_last_attempt(
    club: Any, organiser: Any, webhook_settings: Any, queued: list[int]
) -> None:
    from tournaments.online.models import DeliveryStatus, WebhookDelivery
    from tournaments.online.services.webhooks import attempt, webhook_test

    webhook_settings.WEBHOOK_MAX_ATTEMPTS = 2
    receiver = Receiver(statuses=[500, 500, 500])
    try:
        hook, _ = hook_for({"club": club}, organiser, receiver.url, ["van.recorded"])
        delivery = webhook_test(hook=hook)
        first = attempt(delivery_id=delivery.pk)
        due(delivery.pk)
        assert first is not None and 0.5 <= first <= 1.0 and attempt(delivery_id=delivery.pk) is None
        failed = WebhookDelivery.objects.get(pk=delivery.pk)
        assert (failed.status, failed.attempts, failed.response_code) == (DeliveryStatus.FAILED, 2, 500)
        assert "500" in failed.error
    finally:
        receiver.stop()


# -- what is announced, and only after commit ---------------------------------------------------------


def test_a_van_is_announced_after_commit_and_a_rolled_back_one_never(
    club: Any,
    organiser: Any,
    webhook_settings: Any,
    queued: list[int],
    django_capture_on_commit_callbacks: Any,
) -> None:
    from tournaments.online.models import WebhookDelivery

    hook, _ = hook_for(
        {"club": club}, organiser, "http://127.0.0.1:9/hook", ["van.recorded", "van.corrected"]
    )
    sitting = open_sitting(created_by=organiser, club=club)
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError), transaction.atomic():
        record_all(sitting, [{"winner": "An", "cuoc": ["tom"]}], entered_by=organiser)
        raise RuntimeError("rolled back")
    assert WebhookDelivery.objects.count() == 0 and queued == []
    with django_capture_on_commit_callbacks(execute=True):
        [van] = record_all(sitting, [{"winner": "Bình", "cuoc": ["tom"]}], entered_by=organiser)
        assert WebhookDelivery.objects.count() == 0  # not before the commit
    [delivery] = WebhookDelivery.objects.all()
    assert queued == [delivery.pk]
    body = json.loads(delivery.body)
    assert (body["type"], body["club"], body["event"], body["id"]) == (
        "van.recorded",
        club.slug,
        None,
        str(delivery.uuid),
    )
    assert body["data"]["sitting_id"] == sitting.pk and body["data"]["imported"] is False
    assert [(v["id"], v["seq"], v["winner"], v["points"]) for v in body["data"]["van"]] == [
        (van.pk, 1, "Bình", van.points)
    ]


def test_a_disabled_hook_or_one_of_another_place_hears_nothing(
    club: Any,
    organiser: Any,
    webhook_settings: Any,
    queued: list[int],
    django_capture_on_commit_callbacks: Any,
) -> None:
    from scoring.services.roles import club_open
    from tournaments.online.models import WebhookDelivery
    from tournaments.online.services.webhooks import webhook_disable

    other = club_open(name="Làng Đoài", kind="lang", organiser=organiser, idempotency_key=None).obj
    hook, _ = hook_for({"club": club}, organiser, "http://127.0.0.1:9/a", ["van.recorded"])
    hook_for({"club": other}, organiser, "http://127.0.0.1:9/b", ["van.recorded"])
    hook_for({"club": club}, organiser, "http://127.0.0.1:9/c", ["van.corrected"])
    webhook_disable(hook=hook, by=organiser)
    with django_capture_on_commit_callbacks(execute=True):
        record_all(open_sitting(created_by=organiser, club=club), [{"winner": "An", "cuoc": ["tom"]}])
    assert WebhookDelivery.objects.count() == 0


def test_an_event_announces_rounds_ván_imports_corrections_standings_and_its_end(
    make_event: Any,
    organiser: Any,
    webhook_settings: Any,
    queued: list[int],
    django_capture_on_commit_callbacks: Any,
) -> None:
    from scoring.services.sittings import van_correct
    from tournaments.models import Table
    from tournaments.online.models import HookEvent, WebhookDelivery
    from tournaments.services.events import event_finish
    from tournaments.services.leaderboard import rebuild_leaderboard
    from tournaments.services.rounds import round_seat
    from tournaments.services.van import event_van_record
    from tournaments.signals import standings_changed

    event = make_event()
    hook_for({"event": event}, organiser, "http://127.0.0.1:9/hook", list(HookEvent.values))

    def kinds() -> list[str]:
        return [json.loads(d.body)["type"] for d in WebhookDelivery.objects.order_by("id")]

    with django_capture_on_commit_callbacks(execute=True):
        round_seat(event=event, method="random", seed=2)
    tables = list(Table.objects.filter(event=event).order_by("number"))
    seated = json.loads(WebhookDelivery.objects.get().body)["data"]
    assert seated["round"] == 1 and [t["id"] for t in seated["tables"]] == [t.pk for t in tables]
    assert seated["tables"][0]["players"] == [s.name for s in tables[0].sitting.seats.order_by("position")]

    first = tables[0].sitting.seats.order_by("position").first().name
    with django_capture_on_commit_callbacks(execute=True):
        van = event_van_record(
            table=tables[0],
            seq=1,
            record={"winner": first, "cuoc": ["tom"]},
            idempotency_key=None,
            entered_by=organiser,
        ).obj
    with django_capture_on_commit_callbacks(execute=True):
        van_correct(
            van=van,
            record={"winner": first, "cuoc": ["chi_nay"]},
            reason="Ù Chi Nẩy",
            corrected_by=organiser,
            idempotency_key=None,
        )
    assert kinds() == ["round.seated", "van.recorded", "van.corrected"]
    corrected = json.loads(WebhookDelivery.objects.order_by("-id").first().body)["data"]
    assert (corrected["event"], corrected["table_id"], corrected["round"], corrected["canh"]) == (
        event.slug,
        tables[0].pk,
        1,
        1,
    )
    assert corrected["van"][0]["replaces"] == van.pk

    rebuilt = rebuild_leaderboard(event_id=event.pk)
    with django_capture_on_commit_callbacks(execute=True):
        standings_changed.send(sender=None, event_id=event.pk, version=rebuilt.version)  # as the task does
    board = json.loads(WebhookDelivery.objects.order_by("-id").first().body)
    assert board["type"] == "standings.changed" and board["data"]["version"] == rebuilt.version
    assert board["data"]["top"][0]["name"] == first

    with django_capture_on_commit_callbacks(execute=True):
        event_finish(event=event)
        event_finish(event=event)  # twice: announced once
    assert kinds()[-1] == "event.finished" and kinds().count("event.finished") == 1
    assert len(queued) == WebhookDelivery.objects.count()


def test_an_import_is_announced_once_with_all_its_ván(
    club: Any,
    organiser: Any,
    webhook_settings: Any,
    queued: list[int],
    django_capture_on_commit_callbacks: Any,
) -> None:
    from tournaments.online.models import WebhookDelivery
    from tournaments.online.services.imports import sitting_import

    hook_for({"club": club}, organiser, "http://127.0.0.1:9/hook", ["van.recorded"])
    body = {
        "game": "to-tom-5",
        "rules": "luat-2005",
        "players": ["An", "Bình", "Chi", "Dũng", "Em"],
        "van": [{"winner": "An", "cuoc": ["tom"]}, {"result": "hoa"}, {"winner": "Chi", "cuoc": ["tom"]}],
    }
    with django_capture_on_commit_callbacks(execute=True):
        written = sitting_import(body=body, by=organiser, idempotency_key="k-1", club=club)
    [delivery] = WebhookDelivery.objects.all()
    data = json.loads(delivery.body)["data"]
    assert data["imported"] is True and data["sitting_id"] == written.obj.pk
    assert [v["seq"] for v in data["van"]] == [1, 2, 3]
    with django_capture_on_commit_callbacks(execute=True):  # a ván added later is announced as usual
        record_all(written.obj, [{"winner": "Dũng", "cuoc": ["tom"]}])
    assert WebhookDelivery.objects.count() == 2


def test_recording_a_van_without_hooks_costs_one_query_more(
    club: Any, organiser: Any, django_assert_max_num_queries: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The webhook hook on every ván asks one indexed question when nobody listens."""
    from scoring.services.sittings import sitting_changed
    from tournaments.online.services.webhooks import on_sitting_changed

    sitting = open_sitting(created_by=organiser, club=club)
    [van] = record_all(sitting, [{"winner": "An", "cuoc": ["tom"]}])
    with django_assert_max_num_queries(1):
        on_sitting_changed(sitting_changed, sitting_id=sitting.pk, action="van_record", van_id=van.pk)
