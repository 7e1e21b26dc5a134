"""A table's PIN is counted: 20 wrong tries in a row lock it for 15 minutes (429, even for the right
PIN), from any number of devices at once; the organiser lifts the lock, or revokes and reissues;
revoking a token ends every session using it at once."""

from __future__ import annotations

import threading
from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.admin.models import LogEntry
from django.db import connections
from django.test import Client
from django.utils import timezone

from scoring.models import AccessThrottle
from tournaments.models import Event, Table
from tournaments.services import leaderboard as leaderboard_module
from tournaments.services import tokens as tokens_module
from tournaments.services.tokens import pin_key, token_issue, token_revoke

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def _no_queue(monkeypatch) -> None:
    monkeypatch.setattr(leaderboard_module, "queue_recompute", lambda *a, **k: None)


def wrong_pin(right: str) -> str:
    return "000000" if right != "000000" else "111111"


def pin_url(event: Event, table: Table) -> str:
    return f"/giai/{event.slug}/chieu/{table.pk}/ma-pin/"


def table_url(event: Event, table: Table) -> str:
    return f"/giai/{event.slug}/chieu/{table.pk}/"


@pytest.mark.django_db
def test_twenty_wrong_pins_lock_the_table_even_for_the_right_pin_until_the_lock_runs_out(client, own,
                                                                                          organiser) -> None:
    event, (t1, _t2) = own
    token = token_issue(table=t1, created_by=organiser)
    url = pin_url(event, t1)
    for i in range(1, 21):
        refused = client.post(url, {"pin": wrong_pin(token.pin)})
        assert refused.status_code == 422, i
        assert "Mã PIN không đúng" in refused.content.decode()
    assert "tạm khóa, hãy thử lại sau 15 phút" in refused.content.decode()  # the 20th says what comes next
    for pin in (wrong_pin(token.pin), token.pin):
        locked = client.post(url, {"pin": pin})
        assert locked.status_code == 429
        assert "Nhập sai 20 lần liền: tạm khóa" in locked.content.decode()
    assert client.get(table_url(event, t1)).status_code == 403  # the right PIN let nobody in
    AccessThrottle.objects.filter(key=pin_key(t1)).update(locked_until=timezone.now() - timedelta(seconds=1))
    assert client.post(url, {"pin": token.pin})["Location"] == table_url(event, t1)
    assert client.get(table_url(event, t1)).status_code == 200
    assert AccessThrottle.objects.get(key=pin_key(t1)).failures == 0  # a right PIN starts the count again


@pytest.mark.django_db
def test_the_count_is_per_table(client, own, organiser) -> None:
    event, (t1, t2) = own
    first, second = token_issue(table=t1, created_by=organiser), token_issue(table=t2, created_by=organiser)
    for _ in range(21):
        client.post(pin_url(event, t1), {"pin": wrong_pin(first.pin)})
    assert client.post(pin_url(event, t1), {"pin": first.pin}).status_code == 429
    assert client.post(pin_url(event, t2), {"pin": second.pin}).status_code == 302


@pytest.mark.django_db
def test_the_organiser_lifts_the_lock_from_the_table_page_and_it_is_recorded(client, own, organiser) -> None:
    event, (t1, _t2) = own
    token = token_issue(table=t1, created_by=organiser)
    scorekeeper = Client()
    for _ in range(20):
        scorekeeper.post(pin_url(event, t1), {"pin": wrong_pin(token.pin)})
    client.force_login(organiser)
    page = client.get(table_url(event, t1)).content.decode()
    assert "Mã PIN của chiếu đang bị khóa đến" in page and "Mở khóa mã PIN" in page
    lifted = client.post(f"{table_url(event, t1)}mo-khoa-pin/", follow=True)
    assert "Đã mở khóa mã PIN của chiếu 1 (đã sai 20 lần)." in lifted.content.decode()
    entry = LogEntry.objects.get(object_id=str(t1.pk))
    assert entry.user == organiser and "Mở khóa mã PIN của chiếu 1 (đang bị khóa, đã sai 20 lần)" in entry.change_message
    assert "Mở khóa mã PIN" not in client.get(table_url(event, t1)).content.decode()
    assert scorekeeper.post(pin_url(event, t1), {"pin": token.pin}).status_code == 302


@pytest.mark.django_db
def test_revoking_and_reissuing_the_tokens_starts_a_fresh_count(client, own, organiser) -> None:
    event, (t1, _t2) = own
    token = token_issue(table=t1, created_by=organiser)
    for _ in range(20):
        client.post(pin_url(event, t1), {"pin": wrong_pin(token.pin)})
    assert client.post(pin_url(event, t1), {"pin": token.pin}).status_code == 429
    token_revoke(token=token)
    fresh = token_issue(table=t1, created_by=organiser)
    assert client.post(pin_url(event, t1), {"pin": fresh.pin}).status_code == 302


@pytest.mark.django_db
def test_revoking_a_token_ends_every_session_using_it_at_once(own, organiser) -> None:
    event, (t1, _t2) = own
    token = token_issue(table=t1, created_by=organiser)
    by_pin, by_link = Client(), Client()
    assert by_pin.post(pin_url(event, t1), {"pin": token.pin}).status_code == 302
    assert by_link.get(f"{table_url(event, t1)}?ma={token.secret}").status_code == 302
    for device in (by_pin, by_link):
        assert device.get(table_url(event, t1)).status_code == 200
    token_revoke(token=token)
    for device in (by_pin, by_link):
        assert device.get(table_url(event, t1)).status_code == 403
        t1.refresh_from_db()
        answer = device.post(table_url(event, t1), {"seq": 1, "canh": t1.sitting_id, "key": "k",
                                                   "winner": "An", "cuoc": []}, **HTMX)
        assert answer.status_code == 403
    assert not t1.sitting.van.exists()


@pytest.mark.django_db(transaction=True)
def test_forty_wrong_pins_at_once_check_exactly_twenty_and_lock_the_table(own, organiser, monkeypatch) -> None:
    """Real PostgreSQL, 40 threads each with its own connection, all guessing at the same moment."""
    event, (t1, _t2) = own
    token = token_issue(table=t1, created_by=organiser)
    checked, lock = [], threading.Lock()
    real_check = tokens_module.token_for_pin

    def counting_check(table: Table, pin: str) -> Any:
        with lock:
            checked.append(pin)
        return real_check(table, pin)

    monkeypatch.setattr(tokens_module, "token_for_pin", counting_check)
    start, statuses = threading.Barrier(40), []

    def guess() -> None:
        try:
            client = Client()
            start.wait(timeout=30)
            response = client.post(pin_url(event, t1), {"pin": wrong_pin(token.pin)})
            with lock:
                statuses.append(response.status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=guess) for _ in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert len(statuses) == 40
    assert len(checked) == 20
    assert Counter(statuses) == {422: 20, 429: 20}
    row = AccessThrottle.objects.get(key=pin_key(t1))
    assert row.failures == 20 and row.locked_until is not None and row.locked_until > timezone.now()
    assert Client().post(pin_url(event, t1), {"pin": token.pin}).status_code == 429
