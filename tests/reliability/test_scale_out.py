"""Scale-out on this machine (issue 24 item 5): two app servers, two Celery workers, one Redis, one
PostgreSQL, as a Tết festival would run them.

* Phones (HTTP clients, one a table, four tables of two events) record ván through **both** app
  servers, each ván to the other server than the one before, with its idempotency key;
* audience displays listen through **Pushpin** in front of both servers (the production layout,
  ``GRIP_URL``: the servers answer each display's missed events and a hold, Pushpin holds the
  connections, each event is published once to it) while the Trung Quân's signals are posted on
  either server;
* the leaderboard recomputes the writes ask for run on either worker and are **coalesced across
  them**: the app servers claim at most one recompute per event per window
  (``tournaments.services.leaderboard.request_recompute``: a marker on the event row, so it holds
  across servers and workers), and the workers' marks count the recomputes that ran.

Every figure is then checked against a replay: each sitting's ván are the ones posted, once, in
order, and its ledger is the engine's replay (``ledger_differences``); each event's stored
leaderboard equals its standings recomputed from scratch; each display heard every signal once, in
order, and a display that dropped and came back with ``Last-Event-ID`` heard the ones it missed.
The full run is marked ``slow`` (``make test-slow``); its display part alone, Pushpin between two
app servers and their displays, runs in ``make test`` (seconds).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import math
import random
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest

from tests.reliability.festival import CUOC, festival, seat_names
from tests.reliability.harness import Tally, figure, post_until_answered, wait_for
from tests.reliability.served import Screen, logs_of, post_signal, served_app, until_heard, watch
from tests.reliability.workers import Worker
from totom_site import pushpin
from tournaments.models import Event, Leaderboard
from tournaments.selectors.standings import compute_standings
from tournaments.services.leaderboard import DEBOUNCE

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]

VAN_EACH = 60  # ván a table
DISPLAYS_EACH = 10  # displays on each server
SIGNALS = 30


@contextmanager
def behind_pushpin(stack: ExitStack, servers: int = 2) -> Iterator[tuple[list[int], int]]:
    """``servers`` app servers with Pushpin in front of them (``GRIP_URL``); their ports and
    Pushpin's."""
    if not pushpin.installed():
        pytest.fail("Pushpin is not installed (Debian package: make system-deps-test)", pytrace=False)
    proxy = pushpin.plan()
    ports = [stack.enter_context(served_app(GRIP_URL=proxy.grip_url)) for _ in range(servers)]
    stack.enter_context(pushpin.running(proxy, [f"127.0.0.1:{p}" for p in ports]))
    yield ports, proxy.port


@pytest.fixture
def stack(django_db_setup: Any) -> Iterator[tuple[list[int], int, list[Worker]]]:
    """Two app servers behind Pushpin and two Celery workers (solo pools) on the test database and
    the suite's Redis; the servers' ports, Pushpin's port and the workers."""
    import os

    from totom_site.celery import app

    if not os.environ.get("REDIS_URL"):
        pytest.fail("the scale-out test needs REDIS_URL (make test-slow starts Redis)", pytrace=False)
    others = [name for reply in app.control.ping(timeout=0.5) for name in reply]
    if others:
        pytest.fail(
            f"Another Celery worker consumes the suite's broker ({others}): its recomputes would not "
            "be counted. Run tests/reliability before tests/tournaments (as `make test-slow` does).",
            pytrace=False,
        )
    with ExitStack() as stack:
        ports, front = stack.enter_context(behind_pushpin(stack))
        workers = []
        for _ in range(2):
            worker = Worker(pool="solo", hold=0.0)
            stack.callback(worker.stop)
            worker.start()
            workers.append(worker)
        yield ports, front, workers


def _record(rng: random.Random, names: list[str]) -> dict[str, Any]:
    """A ván as a phone sends it (the fault harness's festival: a random win)."""
    winner = rng.choice(names)
    record: dict[str, Any] = {"winner": winner, "cuoc": [rng.choice(CUOC)]}
    if rng.random() < 0.5:
        record["discarder"] = rng.choice([n for n in names if n != winner])
    return record


def _core(record: dict[str, Any]) -> tuple[Any, ...]:
    return record["winner"], record["cuoc"], record.get("discarder")


def _phones(
    ports: list[int], tables: list[Any], token: dict[str, str], rng: random.Random
) -> tuple[dict[int, list[dict[str, Any]]], Tally, float]:
    """One phone a table, in threads at once; ván ``k`` of a table to server ``k % 2`` (shifted by
    table). Returns the records posted by sitting, the tally and the seconds the writes took."""
    plans = {t.sitting_id: [_record(rng, seat_names(t)) for _ in range(VAN_EACH)] for t in tables}
    tally = Tally()

    def phone(n: int, sitting: int) -> None:
        for seq, record in enumerate(plans[sitting], start=1):
            status, data = post_until_answered(
                ports[(seq + n) % len(ports)],
                f"/api/v1/sittings/{sitting}/van",
                {"seq": seq, **record},
                str(uuid.uuid4()),
                tally,
                headers=token,
            )
            with tally.lock:
                tally.posted += 1
                if status != 201:
                    tally.failures.append(f"sitting {sitting} ván {seq}: {status} {data}")

    started = time.monotonic()
    threads = [threading.Thread(target=phone, args=(n, s)) for n, s in enumerate(plans)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return plans, tally, time.monotonic() - started


async def _displays(
    ports: list[int],
    front: int,
    table: int,
    token: str,
    displays: int = DISPLAYS_EACH * 2,
    signals: int = SIGNALS,
) -> tuple[list[Screen], list[int], list[int], Screen]:
    """Displays through Pushpin (``front``), which holds them and asks either server for each;
    signals posted on either server while they listen. One more display drops after the first
    third of the signals and comes back with its ``Last-Event-ID`` after the second third."""
    screens = [Screen() for _ in range(displays)]
    path = f"/su-kien/ban/{table}/"
    tasks = [asyncio.create_task(watch(front, path, s)) for s in screens]
    late = Screen()
    late_task = asyncio.create_task(watch(front, path, late))
    await asyncio.wait_for(asyncio.gather(*(s.opened.wait() for s in [*screens, late])), timeout=60)
    statuses, ids = [], []
    for n in range(signals):
        if n == signals // 3:  # the late display drops here…
            await until_heard([late], set(ids), timeout=30)
            late_task.cancel()
            await asyncio.gather(late_task, return_exceptions=True)
        if n == 2 * signals // 3:  # …and comes back, resuming after the last event it read
            back = Screen()
            back.signals = late.signals
            late_task = asyncio.create_task(watch(front, path, back, last_event_id=late.last_id))
            await asyncio.wait_for(back.opened.wait(), timeout=30)
            late = back
        status, data, _ = await asyncio.to_thread(
            post_signal, ports[n % len(ports)], table, token, f"scale-out-{table}-{n}"
        )
        statuses.append(status)
        if status == 201:
            ids.append(data["id"])  # type: ignore[index]
        await asyncio.sleep(0.1)
    await until_heard([*screens, late], set(ids), timeout=30)
    for task in [*tasks, late_task]:
        task.cancel()
    await asyncio.gather(*tasks, late_task, return_exceptions=True)
    return screens, statuses, ids, late


def _check_displays(shown: tuple[list[Screen], list[int], list[int], Screen], signals: int) -> None:
    """Every display heard every signal posted on either server, once, in order (the replay: the
    ids the POSTs answered, in the order they were posted)."""
    screens, statuses, ids, late = shown
    assert statuses == [201] * signals
    assert [s.status for s in screens] == ["HTTP/1.1 200 OK"] * len(screens), [s.refusal for s in screens]
    assert [s.signals for s in screens] == [ids] * len(screens)
    assert late.status == "HTTP/1.1 200 OK" and late.signals == ids  # the missed ones replayed, none twice


def test_displays_through_pushpin_in_front_of_two_servers_hear_every_signal_once(
    django_db_setup: Any, django_user_model: Any
) -> None:
    """The display part alone, in seconds (``make test``): Pushpin between two app servers and
    their displays; signals posted on either server."""
    from rest_framework.authtoken.models import Token

    from tournaments.console import services as console

    staff = django_user_model.objects.create_user("trung-quan-pushpin", is_staff=True)
    token = Token.objects.create(user=staff).key
    console.ensure_catalogue()
    chieu = console.table_open(
        name="Chiếu trước Pushpin",
        players=["An", "Bình", "Chi", "Dũng", "Em"],
        trung_quan=staff,
        created_by=staff,
    )
    with ExitStack() as stack:
        ports, front = stack.enter_context(behind_pushpin(stack))
        started = time.monotonic()
        # its own thread: an earlier test of the session may have left this thread an event loop
        with concurrent.futures.ThreadPoolExecutor(1) as own:
            shown = own.submit(
                asyncio.run, _displays(ports, front, chieu.pk, token, displays=6, signals=9)
            ).result()
        try:  # while the servers run: a failure shows what they logged
            _check_displays(shown, 9)
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n{logs_of(ports)}") from None
    figure(
        "displays through Pushpin, 2 servers",
        f"6 displays + 1 that reconnected heard 9 signals each, none twice, in {time.monotonic() - started:.1f} s",
    )


@contextmanager
def publishing_to(grip_url: str) -> Iterator[None]:
    """This process publishes to Pushpin (``GRIP_URL``), as a Celery worker of the production layout
    does: django-grip reads its proxies once, so its publisher is rebuilt for the block."""
    import django_grip
    from django.test import override_settings

    with override_settings(GRIP_URL=grip_url, BOARD_PUSH=True):
        saved = django_grip._pubcontrol
        django_grip._pubcontrol = None
        try:
            yield
        finally:
            django_grip._pubcontrol = saved


def test_a_board_pushed_through_pushpin_reaches_every_viewer_in_their_language(django_db_setup: Any) -> None:
    """An event's new board, published once to Pushpin (tournaments/board.py), reaches the phones
    Pushpin holds for both app servers, each in the language of its page's stream."""
    import datetime as dt

    from django.db import connections

    from tournaments import board
    from tournaments.services.events import event_create, registration_add
    from tournaments.services.leaderboard import rebuild_leaderboard

    event = event_create(
        name="Giải trước Pushpin", date=dt.date(2026, 2, 17), game="to-tom-5", rules="luat-2005"
    )
    for name in ("An", "Bình", "Chi", "Dũng", "Em"):
        registration_add(event=event, name=name)
    rebuilt = rebuild_leaderboard(event_id=event.pk)
    if not pushpin.installed():
        pytest.fail("Pushpin is not installed (Debian package: make system-deps-test)", pytrace=False)
    proxy = pushpin.plan()
    with ExitStack() as stack:
        ports = [
            stack.enter_context(served_app(GRIP_URL=proxy.grip_url, BOARD_PUSH="true")) for _ in range(2)
        ]
        stack.enter_context(pushpin.running(proxy, [f"127.0.0.1:{p}" for p in ports]))

        async def viewers() -> list[Screen]:
            screens = [Screen() for _ in range(4)]
            languages = ["vi", "vi", "vi", "en"]
            tasks = [
                asyncio.create_task(watch(proxy.port, f"/su-kien/bang/{event.slug}/bang/{lang}/", screen))
                for screen, lang in zip(screens, languages, strict=True)
            ]
            try:
                await asyncio.wait_for(asyncio.gather(*(s.opened.wait() for s in screens)), timeout=20)
                assert all(" 200 " in s.status for s in screens), [s.refusal for s in screens]
                with publishing_to(proxy.grip_url):
                    assert board.push_board(event.pk) == 6  # three pages, two languages
                connections.close_all()  # this thread's own connection (the test database is dropped at the end)
                deadline = time.monotonic() + 20
                while time.monotonic() < deadline and any(not s.boards for s in screens):
                    await asyncio.sleep(0.05)
                await asyncio.sleep(0.3)  # a second copy would have come by now
            finally:
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
            return screens

        with concurrent.futures.ThreadPoolExecutor(1) as own:
            screens = own.submit(asyncio.run, viewers()).result()
        try:
            assert [len(s.boards) for s in screens] == [1, 1, 1, 1]
            assert {s.boards[0]["version"] for s in screens} == {rebuilt.version}
            assert all("Bảng xếp hạng" in s.boards[0]["html"] for s in screens[:3])
            assert "Standings" in screens[3].boards[0]["html"]
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n{logs_of(ports)}") from None


@pytest.mark.slow
@pytest.mark.celery
def test_two_servers_two_workers_phones_displays_and_coalesced_recomputes_match_a_replay(
    stack: tuple[list[int], int, list[Worker]], django_user_model: Any
) -> None:
    from rest_framework.authtoken.models import Token

    from scoring.models import Van
    from scoring.selectors.ledger import ledger_differences
    from tournaments.console import services as console

    ports, front, workers = stack
    staff = django_user_model.objects.create_user("ban-to-chuc", is_staff=True)
    token = Token.objects.create(user=staff).key
    events, tables = [], []
    for name in ("Hội làng Đông", "Hội làng Đoài"):
        event, its_tables = festival(name=name, van_per_round=VAN_EACH)
        events.append(event)
        tables += its_tables
    console.ensure_catalogue()
    chieu = console.table_open(
        name="Chiếu sân đình", players=["An", "Bình", "Chi", "Dũng", "Em"], trung_quan=staff, created_by=staff
    )

    # Phones write through both servers while displays listen on both.
    results: dict[str, Any] = {}
    watching = threading.Thread(
        target=lambda: results.update(shown=asyncio.run(_displays(ports, front, chieu.pk, token)))
    )
    watching.start()
    plans, tally, seconds = _phones(ports, tables, {"Authorization": f"Token {token}"}, random.Random(24))
    watching.join(120)

    assert tally.failures == [], tally.failures[:5]
    assert tally.statuses == {201: VAN_EACH * len(tables)}, tally.statuses
    figure(
        "phones through 2 servers",
        f"{tally.posted} ván on {len(tables)} tables in {seconds:.1f} s ({tally.posted / seconds:.1f} ván/s)",
    )

    # Every sitting: the ván posted, once, in order; its ledger the engine's replay of them.
    for table in tables:
        stored = list(
            Van.objects.filter(sitting_id=table.sitting_id, is_current=True)
            .order_by("seq")
            .values_list("record", flat=True)
        )
        assert [_core(r) for r in stored] == [_core(p) for p in plans[table.sitting_id]]
        assert len(stored) == VAN_EACH
        assert ledger_differences(table.sitting) == []

    # Each event's board, once the recomputes have run, equals its standings from scratch.
    for event in events:

        def settled(event: Event = event) -> Leaderboard | None:
            board = Leaderboard.objects.filter(event=event).first()
            return board if board and board.ledger_seq == Event.objects.get(pk=event.pk).ledger_seq else None

        board = wait_for(settled, timeout=60, what="the leaderboard to catch up")
        scratch = compute_standings(Event.objects.get(pk=event.pk))
        assert (board.rows, board.teams, board.van_count) == (
            scratch.players,
            scratch.teams,
            scratch.van_count,
        )
        assert board.van_count == VAN_EACH * 2

    # Coalesced across the servers and the workers: at most one recompute an event a window.
    time.sleep(DEBOUNCE.total_seconds() + 1)  # a last claimed recompute may still be due
    window = DEBOUNCE.total_seconds()
    ran = {e.pk: [m for w in workers for m in w.read_marks(e.pk) if m.what == "start"] for e in events}
    by_worker = [sum(1 for e in events for m in w.read_marks(e.pk) if m.what == "start") for w in workers]
    most = math.ceil(seconds / window) + 2  # one a window while the phones wrote, the first, the last
    figure(
        "leaderboard recomputes (2 workers)",
        f"{ {e.name: len(ran[e.pk]) for e in events} } for {VAN_EACH * 2} ván an event in {seconds:.1f} s "
        f"(at most {most}: one a {window:.0f} s window); by worker {by_worker}",
    )
    for event in events:
        assert 1 <= len(ran[event.pk]) <= most
        assert len(ran[event.pk]) < VAN_EACH * 2  # coalesced: far fewer than the ván

    # Displays through Pushpin heard every signal posted on either server, once, in order.
    _check_displays(results["shown"], SIGNALS)
    figure(
        "displays through Pushpin, 2 servers",
        f"{len(results['shown'][0])} displays heard {SIGNALS} signals each, none twice; one that dropped "
        "and came back with Last-Event-ID heard the ones it missed",
    )
