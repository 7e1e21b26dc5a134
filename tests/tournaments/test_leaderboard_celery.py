"""Leaderboards recomputed by a real Celery worker: Redis broker and the PostgreSQL test database, and
(the SQLite pass of ``make test``) kombu's filesystem broker and the SQLite test database, as ``make run``."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connections, transaction

from tests.tournaments.conftest import record, seat_names, settled_board, wait_for
from tournaments.models import Event, Leaderboard
from tournaments.selectors.standings import compute_standings
from tournaments.services.leaderboard import queue_recompute, rebuild_leaderboard

# On PostgreSQL + Redis, and on the embedded default (SQLite file, filesystem broker).
pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True), pytest.mark.sqlite]


def _board(event) -> Leaderboard:
    return Leaderboard.objects.get(event=event)


def _points(event) -> dict[str, int]:
    return {row["name"]: row["points"] for row in _board(event).rows}


def test_recording_a_van_updates_the_stored_standings(seated) -> None:
    event, (t1, t2) = seated
    a, b = seat_names(t1)[0], seat_names(t2)[0]
    record(t1, 1, a, ["tom"])
    record(t2, 1, b, ["chi_nay"])
    board = wait_for(lambda: (bd := _board(event)).van_count == 2 and bd)
    assert [row["name"] for row in board.rows[:2]] == [b, a]
    assert (board.rows[0]["points"], board.rows[1]["points"]) == (144, 32)
    record(t1, 2, a, ["tom"])  # a Thông: the standings follow
    wait_for(lambda: _board(event).van_count == 3)
    assert _points(event)[a] > 32


def test_a_rolled_back_van_triggers_no_recompute(seated) -> None:
    event, (t1, _t2) = seated
    before = settled_board(event)  # the registrations' recompute has run
    due = Event.objects.get(pk=event.pk).recompute_due_at
    with pytest.raises(RuntimeError), transaction.atomic():
        record(t1, 1, seat_names(t1)[0], ["tom"])
        raise RuntimeError("rolled back")
    time.sleep(2.5)  # longer than the debounce window plus a worker's round trip
    fresh = Event.objects.get(pk=event.pk)
    assert (fresh.ledger_seq, fresh.recompute_due_at) == (before.ledger_seq, due)
    assert _board(event).version == before.version
    record(t1, 1, seat_names(t1)[1], ["tom"])  # the worker is alive: a committed ván does recompute
    wait_for(lambda: _board(event).version == before.version + 1)


def test_ten_concurrent_recomputes_give_one_consistent_result(seated) -> None:
    event, (t1, t2) = seated
    record(t1, 1, seat_names(t1)[0], ["tom"])
    before = settled_board(event).version
    record(t2, 1, seat_names(t2)[2], ["chi_nay"])
    seq = Event.objects.get(pk=event.pk).ledger_seq
    for _ in range(10):
        queue_recompute(event_id=event.pk)
    barrier = threading.Barrier(10)
    results = []

    def run() -> None:
        try:
            barrier.wait()
            results.append(rebuild_leaderboard(event_id=event.pk))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    time.sleep(2.0)  # let the worker run the debounced task and the ten queued ones
    board = _board(event)
    assert len(results) == 10
    assert {r.ledger_seq for r in results} == {seq}
    assert sum(r.written for r in results) <= 1
    assert board.version == before + 1  # one write for one ledger state, whoever made it
    assert board.van_count == 2
    assert board.rows == compute_standings(Event.objects.get(pk=event.pk)).players


def test_the_version_never_goes_backwards(seated) -> None:
    event, tables = seated
    seen: list[tuple[int, int]] = []
    stop = threading.Event()

    def poll() -> None:
        try:
            while not stop.is_set():
                seen.append(
                    tuple(Leaderboard.objects.filter(event=event).values_list("version", "ledger_seq").get())
                )
                time.sleep(0.02)
        finally:
            connections.close_all()

    poller = threading.Thread(target=poll)
    poller.start()
    try:
        for seq in range(1, 5):
            for table in tables:  # two ván at once: their recomputes race
                record(table, seq, seat_names(table)[seq % 5], ["tom"])
            # the board settles between rounds, so the poller sees it move however slowly the
            # broker hands out tasks (the embedded default's filesystem broker polls)
            final = settled_board(event)
    finally:
        stop.set()
        poller.join()
    seen.append((final.version, final.ledger_seq))
    assert seen == sorted(seen)
    assert len({v for v, _ in seen}) >= 3  # the poller did see the board change as ván came in
    assert final.van_count == 8 and final.ledger_seq == Event.objects.get(pk=event.pk).ledger_seq
