"""A table's PIN is counted per phone: 20 wrong tries in a row lock that phone out of the PIN for 15
minutes (429, even for the right PIN), however many requests it sends at once, whatever crashes
between a try and its answer; the table's other phones are not locked (issue 30), and the table's
ceiling lets unknown phones together try once per 3 seconds after the tenth; the organiser lifts
the locks, or revokes and reissues; revoking a token ends every session using it at once. Run on
PostgreSQL and again on the SQLite file (marked ``sqlite``)."""

from __future__ import annotations

import threading
import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.contrib.admin.models import LogEntry
from django.core import signing
from django.db import connections
from django.test import Client
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.devices import COOKIE
from scoring.models import AccessThrottle
from scoring.services import throttle
from scoring.services.throttle import PACE_AFTER, PACE_EVERY
from tournaments.models import Event, Table
from tournaments.services import leaderboard as leaderboard_module
from tournaments.services import tokens as tokens_module
from tournaments.services.tokens import pin_key, token_issue, token_revoke

pytestmark = pytest.mark.sqlite

HTMX = {"HTTP_HX_REQUEST": "true"}
#: A fixed moment for the tests that move the clock (time-machine).
T0 = datetime(2025, 2, 3, 8, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _no_queue(monkeypatch) -> None:
    monkeypatch.setattr(leaderboard_module, "queue_recompute", lambda *a, **k: None)


def wrong_pin(right: str) -> str:
    return "000000" if right != "000000" else "111111"


def pin_url(event: Event, table: Table) -> str:
    return f"/giai/{event.slug}/chieu/{table.pk}/ma-pin/"


def table_url(event: Event, table: Table) -> str:
    return f"/giai/{event.slug}/chieu/{table.pk}/"


def phone(event: Event, table: Table, address: str = "127.0.0.1") -> Client:
    """A phone that opened the table's PIN page (and so holds its device cookie)."""
    client = Client(REMOTE_ADDR=address)
    assert client.get(pin_url(event, table)).status_code == 200
    return client


def key_of(client: Client, table: Table) -> str:
    """The lock-out key of this phone at this table."""
    device = signing.loads(client.cookies[COOKIE].value, salt="scoring.devices")["d"]
    return pin_key(table=table, client=f"{client.defaults.get('REMOTE_ADDR', '127.0.0.1')}|{device}")


def wrong_tries(client: Client, url: str, right: str, count: int, clock: Any) -> list[int]:
    """``count`` wrong PINs, 3 s apart (the table's ceiling); their statuses."""
    statuses = []
    for _ in range(count):
        clock.shift(PACE_EVERY)
        statuses.append(client.post(url, {"pin": wrong_pin(right)}).status_code)
    return statuses


@pytest.mark.django_db
def test_twenty_wrong_pins_lock_the_phone_even_for_the_right_pin_until_the_lock_runs_out(
    own, organiser
) -> None:
    event, (t1, _t2) = own
    token = token_issue(table=t1, created_by=organiser)
    url = pin_url(event, t1)
    with time_machine.travel(T0, tick=False) as clock:
        client = phone(event, t1)
        for i in range(1, 21):
            clock.shift(PACE_EVERY)
            refused = client.post(url, {"pin": wrong_pin(token.pin)})
            assert refused.status_code == 422, i
            assert "Mã PIN không đúng" in refused.content.decode()
        assert (
            "tạm khóa, hãy thử lại sau 15 phút" in refused.content.decode()
        )  # the 20th says what comes next
        for pin in (wrong_pin(token.pin), token.pin):
            locked = client.post(url, {"pin": pin})
            assert locked.status_code == 429
            assert "Nhập sai 20 lần liền: tạm khóa" in locked.content.decode()
        assert client.get(table_url(event, t1)).status_code == 403  # the right PIN let nobody in
        english = client.post("/en" + url, {"pin": token.pin})  # the same refusal, in the page's language
        assert (
            english.status_code == 429
            and "20 wrong tries in a row: locked for now" in english.content.decode()
        )
        clock.shift(PACE_EVERY)
        assert phone(event, t1, "10.0.0.2").post(url, {"pin": token.pin}).status_code == 302  # not the table
        AccessThrottle.objects.filter(key=key_of(client, t1)).update(
            locked_until=timezone.now() - timedelta(seconds=1)
        )
        assert client.post(url, {"pin": token.pin})["Location"] == table_url(event, t1)
        assert client.get(table_url(event, t1)).status_code == 200
        assert (
            AccessThrottle.objects.get(key=key_of(client, t1)).failures == 0
        )  # a right PIN starts the count again


@pytest.mark.django_db
def test_the_count_is_per_table(own, organiser) -> None:
    event, (t1, t2) = own
    first, second = token_issue(table=t1, created_by=organiser), token_issue(table=t2, created_by=organiser)
    with time_machine.travel(T0, tick=False) as clock:
        client = phone(event, t1)
        wrong_tries(client, pin_url(event, t1), first.pin, 21, clock)
        assert client.post(pin_url(event, t1), {"pin": first.pin}).status_code == 429
        assert client.post(pin_url(event, t2), {"pin": second.pin}).status_code == 302


@pytest.mark.django_db
def test_the_organiser_lifts_the_lock_from_the_table_page_and_it_is_recorded(client, own, organiser) -> None:
    event, (t1, _t2) = own
    token = token_issue(table=t1, created_by=organiser)
    with time_machine.travel(T0, tick=False) as clock:
        scorekeeper = phone(event, t1)
        wrong_tries(scorekeeper, pin_url(event, t1), token.pin, 20, clock)
        client.force_login(organiser)
        page = client.get(table_url(event, t1)).content.decode()
        assert "máy ấy bị khóa đến" in page and "Mở khóa mã PIN" in page
        assert scorekeeper.post(pin_url(event, t1), {"pin": token.pin}).status_code == 429
        lifted = client.post(f"{table_url(event, t1)}mo-khoa-pin/", follow=True)
        assert "Đã mở khóa mã PIN của chiếu 1 (đã sai 20 lần)." in lifted.content.decode()
        entry = LogEntry.objects.get(object_id=str(t1.pk))
        assert (
            entry.user == organiser
            and "Mở khóa mã PIN của chiếu 1 (đang bị khóa, đã sai 20 lần)" in entry.change_message
        )
        assert "Mở khóa mã PIN" not in client.get(table_url(event, t1)).content.decode()
        assert scorekeeper.post(pin_url(event, t1), {"pin": token.pin}).status_code == 302


@pytest.mark.django_db
def test_revoking_and_reissuing_the_tokens_starts_a_fresh_count(client, own, organiser) -> None:
    event, (t1, _t2) = own
    token = token_issue(table=t1, created_by=organiser)
    with time_machine.travel(T0, tick=False) as clock:
        client = phone(event, t1)
        wrong_tries(client, pin_url(event, t1), token.pin, 20, clock)
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
        answer = device.post(
            table_url(event, t1),
            {"seq": 1, "canh": t1.sitting_id, "key": "k", "winner": "An", "cuoc": []},
            **HTMX,
        )
        assert answer.status_code == 403
    assert not t1.sitting.van.exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("who", ["one known phone", "forty new phones"])
def test_forty_wrong_pins_at_once_are_checked_twenty_from_one_phone_and_ten_from_many(
    own, organiser, monkeypatch, who
) -> None:
    """40 threads each with its own connection (PostgreSQL, or the SQLite file), all guessing at the
    same moment. From one phone the table knows (it entered before, so the ceiling does not slow it):
    exactly 20 checked, the 20th locks that phone, the other 20 refused unchecked. From forty phones
    the table does not know (forty addresses): the table's ceiling lets exactly 10 through at once.
    Either way the table is not locked: another phone enters with the right PIN."""
    event, (t1, _t2) = own
    token = token_issue(table=t1, created_by=organiser)
    known = phone(event, t1)
    assert known.post(pin_url(event, t1), {"pin": token.pin}).status_code == 302
    checked, lock = [], threading.Lock()
    real_check = tokens_module.token_for_pin

    def counting_check(*, table: Table, pin: str) -> Any:
        with lock:
            checked.append(pin)
        return real_check(table=table, pin=pin)

    monkeypatch.setattr(tokens_module, "token_for_pin", counting_check)
    start, statuses = threading.Barrier(40), []

    def guess(n: int) -> None:
        try:
            if who == "one known phone":
                client = Client()
                client.cookies[COOKIE] = known.cookies[COOKIE].value
            else:
                client = Client(REMOTE_ADDR=f"10.0.2.{n}")
            start.wait(timeout=30)
            response = client.post(pin_url(event, t1), {"pin": wrong_pin(token.pin)})
            with lock:
                statuses.append(response.status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert len(statuses) == 40
    through = 20 if who == "one known phone" else PACE_AFTER
    assert len(checked) == through
    assert Counter(statuses) == {422: through, 429: 40 - through}
    if who == "one known phone":
        row = AccessThrottle.objects.get(key=key_of(known, t1))
        assert row.failures == 20 and row.locked_until is not None and row.locked_until > timezone.now()
        assert known.post(pin_url(event, t1), {"pin": token.pin}).status_code == 429
        assert phone(event, t1, "10.0.0.9").post(pin_url(event, t1), {"pin": token.pin}).status_code == 302
    else:
        with time_machine.travel(timezone.now() + PACE_EVERY, tick=False):
            assert (
                phone(event, t1, "10.0.0.9").post(pin_url(event, t1), {"pin": token.pin}).status_code == 302
            )


# -- the lock runs out after exactly 15 minutes, whatever crashed -----------------------------------


def _twenty_wrong(client: Client, url: str, pin: str, clock: Any) -> None:
    assert wrong_tries(client, url, pin, 20, clock) == [422] * 20


@pytest.mark.django_db
def test_the_lock_runs_out_fifteen_minutes_after_the_twentieth_wrong_pin(own, organiser) -> None:
    event, (t1, _t2) = own
    token = token_issue(table=t1, created_by=organiser)
    url = pin_url(event, t1)
    with time_machine.travel(T0, tick=False) as clock:
        client = phone(event, t1)
        _twenty_wrong(client, url, token.pin, clock)
        twentieth = T0 + 20 * PACE_EVERY
        assert AccessThrottle.objects.get(key=key_of(client, t1)).locked_until == twentieth + timedelta(
            minutes=15
        )
        clock.shift(timedelta(minutes=14, seconds=59))
        refused = client.post(url, {"pin": token.pin})
        assert refused.status_code == 429 and "thử lại sau 1 phút" in refused.content.decode()
        clock.shift(timedelta(seconds=1))
        assert client.post(url, {"pin": token.pin})["Location"] == table_url(event, t1)
    row = AccessThrottle.objects.get(key=key_of(client, t1))
    assert (row.failures, row.locked_until) == (0, None)


@pytest.mark.django_db
@pytest.mark.parametrize("crash", ["checking the PIN", "counting the wrong PIN"])
def test_a_crash_on_the_twentieth_try_still_locks_the_table_for_fifteen_minutes_only(
    own, organiser, monkeypatch, crash
) -> None:
    """The twentieth wrong PIN's request dies (its database write failed, the server was killed)
    after it was admitted: the table is locked all the same, and the lock runs out on time. (Before,
    nothing locked it, and every later try, the right PIN too, was refused for ever.)"""
    event, (t1, _t2) = own
    token = token_issue(table=t1, created_by=organiser)
    url, device = pin_url(event, t1), Client(raise_request_exception=False)
    assert device.get(url).status_code == 200
    target = (tokens_module, "token_for_pin") if crash == "checking the PIN" else (throttle, "failed")
    real, calls = getattr(*target), []

    def dies_on_the_twentieth(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        if len(calls) == 20:
            raise RuntimeError("database is locked")
        return real(*args, **kwargs)

    monkeypatch.setattr(*target, dies_on_the_twentieth)
    with time_machine.travel(T0, tick=False) as clock:
        assert wrong_tries(device, url, token.pin, 19, clock) == [422] * 19
        clock.shift(PACE_EVERY)
        assert device.post(url, {"pin": wrong_pin(token.pin)}).status_code == 500
        monkeypatch.setattr(*target, real)
        clock.shift(timedelta(minutes=1))
        assert device.post(url, {"pin": token.pin}).status_code == 429
        clock.shift(timedelta(minutes=13, seconds=59))
        assert device.post(url, {"pin": token.pin}).status_code == 429
        clock.shift(timedelta(seconds=1))
        assert device.post(url, {"pin": token.pin})["Location"] == table_url(event, t1)


@pytest.mark.django_db
def test_a_row_left_at_the_limit_without_a_lock_is_locked_for_fifteen_minutes_from_its_last_update(
    own, organiser
) -> None:
    """What the crash left under the old code (20 failures, no lock) runs out too."""
    event, (t1, _t2) = own
    token = token_issue(table=t1, created_by=organiser)
    client = phone(event, t1)
    AccessThrottle.objects.create(key=key_of(client, t1), failures=20)
    AccessThrottle.objects.filter(key=key_of(client, t1)).update(updated_at=T0)
    with time_machine.travel(T0 + timedelta(minutes=10), tick=False) as clock:
        refused = client.post(pin_url(event, t1), {"pin": token.pin})
        assert refused.status_code == 429 and "thử lại sau 5 phút" in refused.content.decode()
        clock.shift(timedelta(minutes=4, seconds=59))
        assert client.post(pin_url(event, t1), {"pin": token.pin}).status_code == 429
        clock.shift(timedelta(seconds=1))
        assert client.post(pin_url(event, t1), {"pin": token.pin})["Location"] == table_url(event, t1)


@pytest.mark.django_db
def test_nineteen_wrong_then_the_right_pin_leaves_the_table_open(own, organiser) -> None:
    event, (t1, _t2) = own
    token = token_issue(table=t1, created_by=organiser)
    with time_machine.travel(T0, tick=False) as clock:
        client = phone(event, t1)
        wrong_tries(client, pin_url(event, t1), token.pin, 19, clock)
        clock.shift(PACE_EVERY)
        assert client.post(pin_url(event, t1), {"pin": token.pin}).status_code == 302
        assert client.post(pin_url(event, t1), {"pin": wrong_pin(token.pin)}).status_code == 422
    assert AccessThrottle.objects.get(key=key_of(client, t1)).failures == 1


@pytest.mark.django_db
def test_the_right_pin_on_the_twentieth_try_lifts_the_lock_it_placed_but_not_one_placed_by_a_later_try() -> (
    None
):
    # The twentieth try locks when admitted; it was right: open again, the count starts again.
    key = f"pin:table:{uuid.uuid4()}"
    for _ in range(19):
        assert throttle.admit(key=key).admitted
    last = throttle.admit(key=key)
    assert last.admitted and last.locked_until is not None
    assert not throttle.admit(key=key).admitted
    throttle.succeeded(key=key, admission=last)
    assert AccessThrottle.objects.filter(key=key, failures=0, locked_until=None).exists()
    # A right try admitted first, answered after the twentieth try locked: the lock stays.
    early = throttle.admit(key=key)
    for _ in range(19):
        throttle.admit(key=key)
    throttle.succeeded(key=key, admission=early)
    refused = throttle.admit(key=key)
    assert not refused.admitted and refused.locked_until is not None


class _Model:
    """What the lock-out promises, tracked beside the real counter: the tries admitted since the
    count started, and the lock (placed by the twentieth, for exactly 15 minutes)."""

    def __init__(self, now: datetime) -> None:
        self.now, self.count, self.lock = now, 0, None

    def locked(self) -> bool:
        return self.lock is not None and self.now < self.lock

    def admit(self) -> tuple[bool, int, datetime | None]:
        if self.locked():
            return False, self.count, self.lock
        if self.lock is not None:
            self.count, self.lock = 0, None
        self.count += 1
        if self.count == throttle.LIMIT:
            self.lock = self.now + throttle.LOCK_FOR
        return True, self.count, self.lock

    def right(self, placed: datetime | None) -> None:
        if placed is not None and self.lock == placed:
            self.count, self.lock = 0, None
        elif self.lock is None:
            self.count = 0


@pytest.mark.django_db
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    steps=st.lists(
        st.tuples(
            st.sampled_from(["try"] * 6 + ["wrong", "wrong", "right", "crash", "wait"]), st.integers(0, 40)
        ),
        max_size=70,
    )
)
def test_any_interleaving_of_tries_answers_crashes_and_waiting_locks_after_twenty_for_fifteen_minutes(
    steps,
) -> None:
    """Tries admitted and then answered wrong, answered right, or never answered (the request
    crashed), in any order, with the clock moving: the key refuses tries exactly when twenty were
    admitted since the count last started and fifteen minutes have not passed since the twentieth."""
    key = f"pin:table:{uuid.uuid4()}"
    with time_machine.travel(T0, tick=False) as clock:
        model, in_flight = _Model(T0), []
        for op, n in steps:
            if op == "try":
                got = throttle.admit(key=key)
                assert (got.admitted, got.failures, got.locked_until) == model.admit()
                if got.admitted:
                    in_flight.append(got)
            elif op == "wait":
                clock.shift(timedelta(minutes=n))
                model.now += timedelta(minutes=n)
            elif in_flight:
                answered = in_flight.pop(n % len(in_flight))
                if op == "wrong":
                    after = throttle.failed(key=key)
                    assert after.admitted == (not model.locked())
                    assert after.locked_until == (model.lock if model.locked() else None)
                elif op == "right":
                    throttle.succeeded(key=key, admission=answered)
                    model.right(answered.locked_until)
            row = AccessThrottle.objects.filter(key=key).first()
            assert row is None or row.failures <= throttle.LIMIT
