"""The ván quota's counter under concurrent requests on PostgreSQL: its one-statement path
(``scoring/services/throttle.py``, ``spend``: a conditional UPDATE, no locking read) still takes
no more than the limit however many requests race for the last of it, and a window that has run
out still starts again."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from scoring.models import AccessThrottle
from scoring.services.throttle import spend
from tests.ledger.helpers import on_postgres

pytestmark = [on_postgres, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

HOUR = timedelta(hours=1)


def test_racing_requests_take_no_more_than_the_limit() -> None:
    key, limit, racers = "quota:van:test-race", 10, 24
    assert spend(key, amount=1, limit=limit, window=HOUR).taken  # the row and its window exist
    barrier = threading.Barrier(racers)
    taken: list[bool] = []
    lock = threading.Lock()

    def run() -> None:
        try:
            barrier.wait()
            answer = spend(key, amount=1, limit=limit, window=HOUR)
            with lock:
                taken.append(answer.taken)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(racers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert (taken.count(True), taken.count(False)) == (limit - 1, racers - limit + 1)
    assert AccessThrottle.objects.get(key=key).failures == limit


def test_a_window_that_ran_out_starts_again_and_answers_its_end() -> None:
    key = "quota:van:test-window"
    first = spend(key, amount=3, limit=5, window=HOUR)
    assert (first.taken, first.spent) == (True, 3)
    second = spend(key, amount=2, limit=5, window=HOUR)  # the one-statement path
    assert (second.taken, second.spent, second.until) == (True, 5, first.until)
    assert not spend(key, amount=1, limit=5, window=HOUR).taken  # full: nothing taken
    AccessThrottle.objects.filter(key=key).update(locked_until=timezone.now() - timedelta(seconds=1))
    again = spend(key, amount=1, limit=5, window=HOUR)
    assert (again.taken, again.spent) == (True, 1) and again.until > timezone.now() + HOUR / 2
