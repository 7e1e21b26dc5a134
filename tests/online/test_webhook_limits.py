"""Webhooks that cannot hold anything (issue 29 item 4, issue 30 item 4): a total deadline per
delivery against receivers that drip, never answer or answer 10 MB (real sockets on 127.0.0.1);
exponential back-off with jitter; the circuit breaker that pauses a hook and shows it to its owner,
and the two ways out; the per-owner caps (429, Vietnamese and English); every IPv6 form that embeds
an IPv4 address, checked on the address connected to (DNS rebinding)."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from tests.factories import open_sitting, record_all
from tests.online.receiver import BadReceiver, Receiver

pytestmark = pytest.mark.django_db

#: What the tests allow a delivery beyond its deadline (thread start-up, the database writes).
MARGIN = 0.75


def hook_for(owner: dict[str, Any], organiser: Any, url: str, events: list[str] | None = None) -> Any:
    from tournaments.online.services.webhooks import webhook_create

    return webhook_create(url=url, events=events or ["van.recorded"], created_by=organiser, **owner)[0]


def due(pk: int) -> None:
    from tournaments.online.models import WebhookDelivery

    WebhookDelivery.objects.filter(pk=pk).update(next_attempt_at=None)


def delivery(pk: int) -> Any:
    from tournaments.online.models import WebhookDelivery

    return WebhookDelivery.objects.get(pk=pk)


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def bad() -> Iterator[Any]:
    made: list[BadReceiver] = []

    def start(mode: str, **options: Any) -> BadReceiver:
        made.append(BadReceiver(mode, **options))
        return made[-1]

    yield start
    for receiver in made:
        receiver.stop()


# -- the deadline and the answer cap -----------------------------------------------------------------


@pytest.mark.parametrize("mode", ["drip", "silent"])
def test_a_receiver_that_drips_or_never_answers_costs_one_deadline_per_attempt(
    mode: str, club: Any, organiser: Any, webhook_settings: Any, queued: list[int], bad: Any
) -> None:
    """The drip sends its (whole, valid) answer a byte every 0.25 s: 17 s in all. The delivery
    gives up at the deadline (1 s) each attempt, where a per-read timeout would wait for ever."""
    from tournaments.online.models import DeliveryStatus
    from tournaments.online.services.delivery import attempt
    from tournaments.online.services.webhooks import webhook_test

    webhook_settings.WEBHOOK_TIMEOUT = 1.0
    receiver = bad(mode)
    sent = webhook_test(hook=hook_for({"club": club}, organiser, receiver.url))
    for n in (1, 2):
        started = time.monotonic()
        wait = attempt(delivery_id=sent.pk)
        took = time.monotonic() - started
        assert took <= 1.0 + MARGIN, f"attempt {n} held the worker {took:.2f} s"
        got = delivery(sent.pk)
        assert wait is not None and got.status == DeliveryStatus.RETRYING and got.attempts == n
        assert "không trả lời trọn trong 1 giây" in got.error and got.duration_ms <= (1.0 + MARGIN) * 1000
        due(sent.pk)
    assert receiver.requests == 2  # each attempt did reach it


def test_the_name_lookup_counts_in_the_deadline_and_tls_too(
    club: Any, organiser: Any, webhook_settings: Any, queued: list[int], bad: Any, monkeypatch: Any
) -> None:
    """A name server that never answers, and a receiver silent in the TLS handshake: each attempt
    still ends at the deadline."""
    from tournaments.online import netguard
    from tournaments.online.services.delivery import attempt
    from tournaments.online.services.webhooks import webhook_test

    webhook_settings.WEBHOOK_TIMEOUT = 1.0
    receiver = bad("silent")
    port = receiver.server.getsockname()[1]
    hook = hook_for({"club": club}, organiser, f"https://127.0.0.1:{port}/hook")
    sent = webhook_test(hook=hook)
    started = time.monotonic()
    assert attempt(delivery_id=sent.pk) is not None
    assert time.monotonic() - started <= 1.0 + MARGIN and "1 giây" in delivery(sent.pk).error
    assert receiver.accepted == 1

    def slow(host: str, port: int) -> tuple[str, ...]:
        time.sleep(3)
        return ("127.0.0.1",)

    monkeypatch.setattr(netguard, "_resolve", slow)
    due(sent.pk)
    started = time.monotonic()
    assert attempt(delivery_id=sent.pk) is not None
    assert time.monotonic() - started <= 1.0 + MARGIN and "không phân giải được" in delivery(sent.pk).error


def test_a_path_with_vietnamese_letters_is_sent_percent_encoded(
    club: Any, organiser: Any, webhook_settings: Any, queued: list[int], receiver: Receiver
) -> None:
    from tournaments.online.models import DeliveryStatus
    from tournaments.online.services.delivery import attempt
    from tournaments.online.services.webhooks import webhook_test

    sent = webhook_test(hook=hook_for({"club": club}, organiser, f"{receiver.url}/hội-làng?giải=tết"))
    assert attempt(delivery_id=sent.pk) is None and delivery(sent.pk).status == DeliveryStatus.DELIVERED
    assert receiver.requests[0].path == "/hook/h%E1%BB%99i-l%C3%A0ng?gi%E1%BA%A3i=t%E1%BA%BFt"


def test_the_head_in_time_decides_even_when_the_body_drips(
    club: Any, organiser: Any, webhook_settings: Any, queued: list[int], bad: Any
) -> None:
    from tournaments.online.models import DeliveryStatus
    from tournaments.online.services.delivery import attempt
    from tournaments.online.services.webhooks import webhook_test

    webhook_settings.WEBHOOK_TIMEOUT = 1.0
    receiver = bad("slow-body")
    sent = webhook_test(hook=hook_for({"club": club}, organiser, receiver.url))
    started = time.monotonic()
    assert attempt(delivery_id=sent.pk) is None
    assert time.monotonic() - started <= 1.0 + MARGIN
    got = delivery(sent.pk)
    assert (got.status, got.response_code) == (DeliveryStatus.DELIVERED, 202)


def test_at_most_the_cap_of_a_10_mb_answer_is_read(
    club: Any, organiser: Any, webhook_settings: Any, queued: list[int], bad: Any, monkeypatch: Any
) -> None:
    from tournaments.online import netguard
    from tournaments.online.models import DeliveryStatus
    from tournaments.online.services.delivery import attempt
    from tournaments.online.services.webhooks import webhook_test

    receiver = bad("huge")
    answer = netguard.post(netguard.check_url(receiver.url), b"{}", {}, timeout=5.0, cap=64 * 1024)
    assert answer.status == 200 and answer.read == 64 * 1024 and answer.cut
    sent = webhook_test(hook=hook_for({"club": club}, organiser, receiver.url))
    read: list[int] = []
    real_post = netguard.post

    def counted(*args: Any, **kwargs: Any) -> Any:
        found = real_post(*args, **kwargs)
        read.append(found.read)
        return found

    from tournaments.online.services import delivery as service

    monkeypatch.setattr(service, "post", counted)
    started = time.monotonic()
    assert attempt(delivery_id=sent.pk) is None
    assert time.monotonic() - started < webhook_settings.WEBHOOK_TIMEOUT
    assert read == [webhook_settings.WEBHOOK_MAX_ANSWER] and read[0] == 64 * 1024
    got = delivery(sent.pk)
    assert (got.status, got.response_code) == (DeliveryStatus.DELIVERED, 200)
    assert receiver.sent < receiver.size  # the rest was never taken


# -- back-off -------------------------------------------------------------------------------------------


def test_the_back_off_is_exponential_with_jitter_and_capped(settings: Any) -> None:
    from tournaments.online.services.delivery import retry_wait

    settings.WEBHOOK_RETRY_SECONDS = 30.0
    settings.WEBHOOK_RETRY_MAX_SECONDS = 3600.0
    rng = random.Random(7)
    for attempts, nominal in [(1, 30), (2, 90), (3, 270), (4, 810), (5, 2430), (6, 3600), (9, 3600)]:
        waits = [retry_wait(attempts=attempts, rng=rng) for _ in range(200)]
        assert all(nominal / 2 <= w <= nominal for w in waits), (attempts, min(waits), max(waits))
        assert max(waits) - min(waits) > nominal / 4  # spread, not one value


def test_the_next_attempt_is_due_after_the_jittered_wait_and_a_stray_copy_sends_nothing(
    club: Any, organiser: Any, webhook_settings: Any, queued: list[int]
) -> None:
    """The broker may hand a waiting task out twice (Redis' visibility timeout): the copy that comes
    before the next attempt is due sends nothing, nor does a second copy of the same attempt."""
    from tournaments.online.services.delivery import attempt
    from tournaments.online.services.webhooks import webhook_test

    webhook_settings.WEBHOOK_RETRY_SECONDS = 60.0
    receiver = Receiver(statuses=[500, 500])
    try:
        sent = webhook_test(hook=hook_for({"club": club}, organiser, receiver.url))
        wait = attempt(delivery_id=sent.pk)
        got = delivery(sent.pk)
        assert wait is not None and 30 <= wait <= 60
        ahead = (got.next_attempt_at - got.last_attempt_at).total_seconds()
        assert 30 <= ahead <= 60 + webhook_settings.WEBHOOK_TIMEOUT
        assert attempt(delivery_id=sent.pk) is None and len(receiver.requests) == 1  # a stray copy: not due
        assert delivery(sent.pk).attempts == 1
    finally:
        receiver.stop()


# -- the circuit breaker ----------------------------------------------------------------------------


@pytest.mark.sqlite
def test_the_breaker_pauses_a_failing_hook_skips_new_events_and_shows_it_to_the_owner(
    club: Any,
    organiser: Any,
    webhook_settings: Any,
    queued: list[int],
    django_capture_on_commit_callbacks: Any,
) -> None:
    from tournaments.online.models import DeliveryStatus, Webhook, WebhookDelivery
    from tournaments.online.services.delivery import attempt

    webhook_settings.WEBHOOK_PAUSE_AFTER = 3
    receiver = Receiver(statuses=[500] * 10)
    try:
        hook = hook_for({"club": club}, organiser, receiver.url)
        sitting = open_sitting(created_by=organiser, club=club)
        with django_capture_on_commit_callbacks(execute=True):
            record_all(sitting, [{"winner": "An", "cuoc": ["tom"]}, {"winner": "Bình", "cuoc": ["tom"]}])
        first, second = queued
        assert (
            attempt(delivery_id=first) is not None and attempt(delivery_id=second) is not None
        )  # two failures: still on
        due(first)
        assert Webhook.objects.get().paused_at is None
        assert attempt(delivery_id=first) is None  # the third failure in a row: paused, and this one given up
        hook = Webhook.objects.get()
        assert hook.paused_at is not None and hook.failures == 3 and "500" in hook.pause_reason
        assert hook.history.latest().paused_at == hook.paused_at  # the pause is in its history
        assert delivery(first).status == DeliveryStatus.FAILED and "tạm dừng" in delivery(first).error
        due(second)
        assert (
            attempt(delivery_id=second) is None and delivery(second).status == DeliveryStatus.SKIPPED
        )  # not sent
        with django_capture_on_commit_callbacks(execute=True):
            record_all(sitting, [{"winner": "Chi", "cuoc": ["tom"]}])
        newest = WebhookDelivery.objects.order_by("-id").first()
        assert newest.status == DeliveryStatus.SKIPPED and newest.pk not in queued  # recorded, not queued
        assert len(receiver.requests) == 3

        page = signed_in(organiser).get(f"/lang/{club.slug}/ket-noi/").content.decode()
        note = re.search(rf'data-testid="paused-{hook.pk}".*?</div>', page, re.S).group(0)
        assert "Tạm dừng từ" in note and "3 lần gửi hỏng liên tiếp" in note and "Nơi nhận trả lời 500" in note
        assert "Tiếp tục gửi" in note
        english = signed_in(organiser).get(f"/en/lang/{club.slug}/ket-noi/").content.decode()
        assert "Paused since" in english and "Resume sending" in english
        log = signed_in(organiser).get(f"/lang/{club.slug}/ket-noi/webhook/{hook.pk}/").content.decode()
        assert f'data-testid="paused-{hook.pk}"' in log and 'data-status="bo_qua"' in log

        resumed = signed_in(organiser).post(f"/lang/{club.slug}/ket-noi/webhook/{hook.pk}/tiep-tuc/")
        assert resumed.status_code == 302
        hook = Webhook.objects.get()
        assert (hook.paused_at, hook.failures, hook.pause_reason) == (None, 0, "")
        assert (
            'data-testid="paused-'
            not in signed_in(organiser).get(f"/lang/{club.slug}/ket-noi/").content.decode()
        )
        receiver.statuses.clear()
        with django_capture_on_commit_callbacks(execute=True):
            record_all(sitting, [{"winner": "Dũng", "cuoc": ["tom"]}])
        assert (
            attempt(delivery_id=queued[-1]) is None
            and delivery(queued[-1]).status == DeliveryStatus.DELIVERED
        )
        sent = [json.loads(r.body)["data"]["van"][0]["seq"] for r in receiver.requests]
        assert sent == [1, 2, 1, 4]  # the skipped third ván was never sent
        assert hook.history.latest().history_user == organiser  # who resumed it, in its history
    finally:
        receiver.stop()


@pytest.mark.sqlite
def test_a_test_send_goes_to_a_paused_hook_and_closes_the_breaker_when_received(
    club: Any, organiser: Any, webhook_settings: Any, queued: list[int]
) -> None:
    from tournaments.online.models import DeliveryStatus, Webhook
    from tournaments.online.services.delivery import attempt
    from tournaments.online.services.webhooks import webhook_test

    webhook_settings.WEBHOOK_PAUSE_AFTER = 2
    receiver = Receiver(statuses=[503, 503, 503])
    try:
        hook = hook_for({"club": club}, organiser, receiver.url)
        ping = webhook_test(hook=hook)
        attempt(delivery_id=ping.pk)
        due(ping.pk)
        attempt(delivery_id=ping.pk)
        assert Webhook.objects.get().paused
        failing = webhook_test(hook=hook)
        assert attempt(delivery_id=failing.pk) is None  # paused: a failing test send is not retried
        assert delivery(failing.pk).status == DeliveryStatus.FAILED and Webhook.objects.get().paused
        received = webhook_test(hook=hook)
        assert (
            attempt(delivery_id=received.pk) is None
            and delivery(received.pk).status == DeliveryStatus.DELIVERED
        )
        hook = Webhook.objects.get()
        assert not hook.paused and hook.failures == 0
        assert len(receiver.requests) == 4
    finally:
        receiver.stop()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_owner_sees_a_paused_hook_and_resumes_it_on_a_phone(
    live_server: Any, phone: Any, club: Any, organiser: Any, settings: Any
) -> None:
    from django.utils import timezone

    from tests.conftest import sign_in
    from tournaments.online.models import Webhook

    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    hook = hook_for({"club": club}, organiser, "http://127.0.0.1:9/hook")
    Webhook.objects.filter(pk=hook.pk).update(
        paused_at=timezone.now(), failures=5, pause_reason="Nơi nhận không trả lời trọn trong 5 giây."
    )
    sign_in(phone.context, live_server.url, organiser)
    phone.goto(f"{live_server.url}/lang/{club.slug}/ket-noi/")
    note = phone.get_by_test_id(f"paused-{hook.pk}")
    assert "5 lần gửi hỏng liên tiếp" in note.inner_text() and "5 giây" in note.inner_text()
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px phone"
    phone.get_by_role("button", name="Tiếp tục gửi").click()
    phone.get_by_text("Webhook gửi lại từ sự kiện tiếp theo.").wait_for()
    assert phone.get_by_test_id(f"paused-{hook.pk}").count() == 0
    assert Webhook.objects.get(pk=hook.pk).paused_at is None


# -- per-owner caps ---------------------------------------------------------------------------------


@pytest.mark.sqlite
def test_an_owner_has_at_most_five_hooks_switched_on(
    club: Any, make_event: Any, organiser: Any, webhook_settings: Any
) -> None:
    from tournaments.online.models import Webhook
    from tournaments.online.services.webhooks import webhook_disable

    client = signed_in(organiser)
    base = f"/lang/{club.slug}/ket-noi/webhook/"
    for n in range(5):
        made = client.post(base, {"url": f"http://127.0.0.1:9/{n}", "events": ["van.recorded"]})
        assert made.status_code == 201
    over = client.post(
        base, {"url": "http://127.0.0.1:9/6", "events": ["van.recorded"]}, HTTP_HX_REQUEST="true"
    )
    assert over.status_code == 429
    assert "Đã có 5 webhook đang bật ở đây, là tối đa" in over.content.decode()
    english = client.post(f"/en{base}", {"url": "http://127.0.0.1:9/6", "events": ["van.recorded"]})
    assert english.status_code == 429 and "already has 5 webhooks switched on" in english.content.decode()
    assert Webhook.objects.count() == 5
    event = make_event()  # another owner counts its own
    assert (
        client.post(
            f"/giai/{event.slug}/quan-ly/ket-noi/webhook/",
            {"url": "http://127.0.0.1:9/e", "events": ["van.recorded"]},
        ).status_code
        == 201
    )
    webhook_disable(hook=Webhook.objects.filter(club=club).first(), by=organiser)
    assert client.post(base, {"url": "http://127.0.0.1:9/6", "events": ["van.recorded"]}).status_code == 201


@pytest.mark.sqlite
def test_three_test_sends_a_minute_per_owner_then_429_with_retry_after(
    club: Any, organiser: Any, webhook_settings: Any, queued: list[int], time_machine: Any
) -> None:
    from tournaments.online.models import WebhookDelivery

    time_machine.move_to("2026-03-01 08:00:00+07:00", tick=False)
    first = hook_for({"club": club}, organiser, "http://127.0.0.1:9/a")
    second = hook_for({"club": club}, organiser, "http://127.0.0.1:9/b")
    client = signed_in(organiser)
    base = f"/lang/{club.slug}/ket-noi/webhook/"
    for hook in (first, second, first):
        assert client.post(f"{base}{hook.pk}/gui-thu/", HTTP_HX_REQUEST="true").status_code == 200
        time_machine.shift(10)
    over = client.post(f"{base}{second.pk}/gui-thu/", HTTP_HX_REQUEST="true")  # another hook, same owner
    assert over.status_code == 429 and over["Retry-After"] == "30"
    assert "Đã gửi thử 3 lần trong một phút, là tối đa: hãy thử lại sau 30 giây." in over.content.decode()
    english = client.post(f"/en{base}{second.pk}/gui-thu/")
    assert english.status_code == 429 and "try again in 30 seconds" in english.content.decode()
    assert WebhookDelivery.objects.count() == 3
    time_machine.shift(31)
    assert client.post(f"{base}{second.pk}/gui-thu/", HTTP_HX_REQUEST="true").status_code == 200
    assert WebhookDelivery.objects.count() == 4


# -- addresses, checked on the address connected to ---------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "http://[::127.0.0.1]/",  # IPv4-compatible
        "http://[::ffff:0:127.0.0.1]/",  # IPv4-translated
        "http://[64:ff9b::169.254.169.254]/",  # NAT64 (the well-known prefix) to the metadata service
        "http://[64:ff9b:1::a9fe:a9fe]/",  # the local-use NAT64 prefix, refused whole
        "http://[2002:a9fe:a9fe::]/",  # 6to4 of 169.254.169.254
        "http://[2002:7f00:1::1]/",  # 6to4 of 127.0.0.1
        "http://[fec0::1]/",  # site-local
        "http://[::ffff:10.0.0.1]/",  # IPv4-mapped
        "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",  # Teredo, its client 192.0.2.45
        "http://[2001:0:a9fe:a9fe:0:0:f7f7:f7f7]/",  # Teredo, its server 169.254.169.254
        "http://[2001:0:808:808:0:0:80ff:fffe]/",  # Teredo, its client 127.0.0.1
        "http://[fe80::1]/",  # link-local
        "http://[ff02::1]/",
    ],
)
def test_every_ipv6_form_that_carries_an_inside_address_is_refused(url: str, settings: Any) -> None:
    from tournaments.online.netguard import UnsafeUrl, check_url

    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False
    with pytest.raises(UnsafeUrl, match="mạng nội bộ"):
        check_url(url)


@pytest.mark.parametrize(
    "address",
    ["8.8.8.8", "2606:4700::1111", "64:ff9b::808:808", "2002:808:808::1", "2001:0:808:808:0:0:f7f7:f7f7"],
)
def test_public_addresses_and_forms_that_carry_a_public_one_pass(address: str) -> None:
    from tournaments.online.netguard import public

    assert public(address)


@pytest.mark.parametrize(
    "url",
    [
        "http://[::127.0.0.1]/",
        "http://[::ffff:0:127.0.0.1]/",
        "http://[64:ff9b::169.254.169.254]/",
        "http://[2002:a9fe:a9fe::]/",
        "http://[fec0::1]/",
    ],
)
def test_the_issues_addresses_are_refused_when_registering(
    url: str, club: Any, organiser: Any, settings: Any
) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False
    refused = signed_in(organiser).post(
        f"/lang/{club.slug}/ket-noi/webhook/", {"url": url, "events": ["van.recorded"]}
    )
    assert refused.status_code == 400 and "mạng nội bộ" in refused.content.decode()


@pytest.mark.sqlite
@pytest.mark.parametrize("inside", ["127.0.0.1", "::ffff:0:127.0.0.1", "64:ff9b::a9fe:a9fe", "2002:7f00:1::"])
def test_a_name_public_at_registration_and_inside_at_delivery_is_not_sent(
    inside: str, club: Any, organiser: Any, settings: Any, monkeypatch: Any, queued: list[int], bad: Any
) -> None:
    from tournaments.online import netguard
    from tournaments.online.models import DeliveryStatus
    from tournaments.online.services.delivery import attempt
    from tournaments.online.services.webhooks import webhook_test

    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False
    receiver = bad("silent")
    port = receiver.server.getsockname()[1]
    monkeypatch.setattr(netguard, "_resolve", lambda host, p: ("93.184.216.34",))
    hook = hook_for({"club": club}, organiser, f"http://hooks.example.com:{port}/hook")
    monkeypatch.setattr(netguard, "_resolve", lambda host, p: (inside,))
    sent = webhook_test(hook=hook)
    assert attempt(delivery_id=sent.pk) is not None
    got = delivery(sent.pk)
    assert got.status == DeliveryStatus.RETRYING and inside in got.error and "mạng nội bộ" in got.error
    assert receiver.accepted == 0  # no connection made


def test_the_socket_is_opened_only_to_an_address_checked_then(settings: Any, bad: Any) -> None:
    """Even a target that skipped :func:`check_url` (or one checked while private addresses were
    allowed) connects nowhere inside: the connection itself checks the address."""
    from tournaments.online import netguard

    receiver = bad("silent")
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    target = netguard.check_url(receiver.url)
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False
    with pytest.raises(netguard.UnsafeUrl, match="127.0.0.1"):
        netguard.post(target, b"{}", {}, timeout=1.0, cap=1024)
    assert receiver.accepted == 0
