"""Load benchmark of the ván entry endpoint and the public scoreboard (not a test; loopback only).

Creates a throwaway database next to the one ``DATABASE_URL`` names (it must be PostgreSQL), seeds
a public festival (60 players, two rounds of 12 tables, 8 ván a table, its leaderboard built),
starts ``--workers`` app servers (daphne, one process each, on their own ports: 3 by default)
and runs ``--users`` concurrent users (50) spread over them, in interleaved chunks of
``--chunk`` seconds (``--gap`` seconds apart, for the requests in flight at a chunk's end to
finish), for ``--seconds`` (60) on each of:

* ``bare``: ``GET /api/v1/clubs``, the reference: a bare DRF view, one query (the one village of the scorekeepers);
* ``van``: ``POST /api/v1/sittings/<id>/van`` with an idempotency key, each user (a scorekeeper
  as a festival's: ``bench/keepers.py``, the organiser of its own village) recording the
  next ván of its own sitting (a new sitting every 40 ván, opened before the run: the phase
  times ván entry only): the engine's settlement, the sitting's row lock, the idempotency key,
  the ledger's zero-sum, reversal and pot triggers;
* ``board``: ``GET /giai/<slug>/``, the public scoreboard page, served from the stored leaderboard.

Prints requests/s, p50/p95/p99 latency, error counts and the ratios to ``bare``, with the issue's
targets: zero errors; ván ≥ 0.5 × bare (never below 0.35 ×); scoreboard ≥ 0.5 × bare; scoreboard
p95 < 200 ms. Clients are stdlib threads (keep-alive ``http.client``) in ``--clients`` processes.

Run from the repository root: ``DATABASE_URL=postgres://… .venv/bin/python bench/load.py
[--seconds 60] [--users 50] [--workers 3] [--pool 4] [--keep]`` (``--pool N``: the app servers
keep up to N PostgreSQL connections each, ``DATABASE_POOL_SIZE``; without it a connection per
request, the project's default). ``make bench-load`` runs it both ways.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing as mp
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from benchdb import bench_database  # noqa: E402 (bench/ is the script's own folder)

HOST = "127.0.0.1"
PHASES = ("bare", "van", "board")
BARE = "/api/v1/clubs"
CUOC = ["tom", "leo", "thap_dieu", "chi_nay", "bach_thu", "kinh_cu"]
FIVE = ["An", "Bình", "Chi", "Dũng", "Em"]
VAN_PER_SITTING = 40


# -- set-up ------------------------------------------------------------------------------------------


def _bench_database(url: str, keep: bool) -> tuple[str, Callable[[], None]]:
    return bench_database(url, "bench_load", keep)


def _seed(users: int, sittings_each: int) -> tuple[str, list[dict[str, Any]]]:
    """Migrate; a public festival of 60 players, two rounds of 12 tables, 8 ván a table, its
    leaderboard built; a scorekeeper for each of the ``users`` (``bench/keepers.py``: an account
    organising its own village, its token) with ``sittings_each`` open sittings there (so the ván
    phase times ván entry only). Returns the event's slug and each user's scorekeeper."""
    import datetime as dt

    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    from tournaments.models import Table
    from tournaments.services.events import check_in, event_create, registration_add
    from tournaments.services.leaderboard import rebuild_leaderboard
    from tournaments.services.rounds import round_seat
    from tournaments.services.van import event_van_record

    rng = random.Random(1)
    event = event_create(
        name="Hội làng đo tải",
        date=dt.date(2025, 2, 3),
        game="to-tom-5",
        rules="luat-2005",
        mode="quang",
        slug="hoi-lang-do-tai",
    )
    for i in range(60):
        check_in(registration=registration_add(event=event, name=f"Người {i + 1}", team=f"Giáp {i % 4 + 1}"))
    for number in (1, 2):
        round_seat(event=event, method="random", seed=number)
        for table in Table.objects.filter(event=event, round__number=number).select_related("sitting"):
            names = [s.name for s in table.sitting.seats.order_by("position")]
            for seq in range(1, 9):
                event_van_record(table=table, seq=seq, record=_record(rng, names), idempotency_key=None)
    rebuild_leaderboard(event_id=event.pk, force=True)
    from django.db import connections
    from keepers import scorekeepers

    # Each phone is its own scorekeeper, as a festival's are: an account among the village's organisers,
    # keeping score in its canh (bench/keepers.py; the ván quota bounds a stranger's new account).
    keepers = scorekeepers(users, sittings_each)
    connections.close_all()  # before the client processes fork
    return event.slug, keepers


def _record(rng: random.Random, names: list[str]) -> dict[str, Any]:
    winner = rng.choice(names)
    record: dict[str, Any] = {"winner": winner, "cuoc": [rng.choice(CUOC)]}
    if rng.random() < 0.5:
        record["discarder"] = rng.choice([n for n in names if n != winner])
    return record


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def _start_servers(
    database_url: str, count: int, pool: int = 0
) -> list[tuple[subprocess.Popen[bytes], int, Path]]:
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_DEBUG": "false",
        "CELERY_BROKER_URL": "memory://",
        "DATABASE_POOL_SIZE": str(pool),
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    servers = []
    for _ in range(count):
        port = _free_port()
        log = Path(tempfile.mkstemp(prefix="bench-load-daphne-", suffix=".log")[1])
        with log.open("wb") as out:
            proc = subprocess.Popen(
                [sys.executable, "-m", "daphne", "-b", HOST, "-p", str(port), "totom_site.asgi:application"],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        servers.append((proc, port, log))
    for proc, port, log in servers:
        deadline = time.monotonic() + 60
        while True:
            try:
                conn = http.client.HTTPConnection(HOST, port, timeout=2)
                conn.request("GET", BARE)
                conn.getresponse().read()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    _stop_servers(servers)
                    sys.exit(f"daphne did not start:\n{log.read_text()[-3000:]}")
                time.sleep(0.2)
    return servers


def _stop_servers(servers: list[tuple[subprocess.Popen[bytes], int, Path]]) -> None:
    for proc, _port, log in servers:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        log.unlink(missing_ok=True)


# -- the users -----------------------------------------------------------------------------------


class User:
    """One phone: a keep-alive connection to its app server, its own sitting for ván entry."""

    def __init__(self, port: int, slug: str, rng: random.Random, keeper: dict[str, Any]) -> None:
        self.port, self.slug, self.rng = port, slug, rng
        self.token, self.club = keeper["token"], keeper["club"]
        self.ready = list(keeper["sittings"])  # opened before the run
        self.conn: http.client.HTTPConnection | None = None
        self.sitting = 0
        self.seq = 0

    def exchange(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> int:
        if self.conn is None:
            self.conn = http.client.HTTPConnection(HOST, self.port, timeout=30)
        sent = {"Accept": "application/json" if path.startswith("/api/") else "text/html", **(headers or {})}
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        try:
            self.conn.request(method, path, body=payload, headers=sent)
            response = self.conn.getresponse()
            response.read()
            return response.status
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = None
            raise

    def open_sitting(self) -> None:
        body = {"game": "to-tom-5", "rules": "luat-2005", "mode": "quang", "players": FIVE, "club": self.club}
        self.conn = self.conn or http.client.HTTPConnection(HOST, self.port, timeout=30)
        self.conn.request(
            "POST",
            "/api/v1/sittings",
            body=json.dumps(body).encode(),
            headers={
                "Content-Type": "application/json",
                "Idempotency-Key": str(uuid.uuid4()),
                "Authorization": f"Token {self.token}",
            },
        )
        response = self.conn.getresponse()
        self.sitting, self.seq = json.loads(response.read())["id"], 0

    def step(self, phase: str) -> int:
        if phase == "bare":
            return self.exchange("GET", BARE)
        if phase == "board":
            return self.exchange("GET", f"/giai/{self.slug}/")
        if not self.sitting or self.seq >= VAN_PER_SITTING:  # a new sitting every 40 ván
            if self.ready:
                self.sitting, self.seq = self.ready.pop(0), 0
            else:
                self.open_sitting()  # only if the ones opened before the run are used up
        body = {"seq": self.seq + 1, **_record(self.rng, FIVE)}
        status = self.exchange(
            "POST",
            f"/api/v1/sittings/{self.sitting}/van",
            body,
            {"Idempotency-Key": str(uuid.uuid4()), "Authorization": f"Token {self.token}"},
        )
        if status == 201:
            self.seq += 1
        return status


def _client_process(
    ports: list[int],
    users: list[int],
    slug: str,
    keepers: list[dict[str, Any]],
    schedule: list[tuple[str, float, float]],
    out: Any,
) -> None:
    """Run ``users`` (indices) through the schedule; send back per-phase latencies and errors."""
    latencies: dict[str, list[float]] = {p: [] for p in PHASES}
    errors: dict[str, dict[str, int]] = {p: {} for p in PHASES}
    lock = threading.Lock()

    def run(index: int) -> None:
        user = User(ports[index % len(ports)], slug, random.Random(index), keepers[index])
        mine: dict[str, list[float]] = {p: [] for p in PHASES}
        for phase, start, end in schedule:
            time.sleep(max(0.0, start - time.time()))
            while (now := time.time()) < end:
                try:
                    status = user.step(phase)
                    ok = status in (200, 201)
                    what = str(status)
                except (OSError, http.client.HTTPException, ValueError, KeyError) as exc:
                    ok, what = False, type(exc).__name__
                if ok:
                    mine[phase].append(time.time() - now)
                else:
                    with lock:
                        errors[phase][what] = errors[phase].get(what, 0) + 1
            if user.conn is not None:
                user.conn.close()
                user.conn = None
        with lock:
            for phase in PHASES:
                latencies[phase] += mine[phase]

    threads = [threading.Thread(target=run, args=(i,)) for i in users]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.put((latencies, errors))


# -- report --------------------------------------------------------------------------------------


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _report(
    latencies: dict[str, list[float]],
    errors: dict[str, dict[str, int]],
    seconds: float,
    args: argparse.Namespace,
) -> None:
    rps = {p: len(latencies[p]) / seconds for p in PHASES}
    print(
        f"\nbench/load.py: {args.users} users, {args.workers} daphne workers, {seconds:.0f} s per endpoint "
        f"(chunks of {args.chunk} s, interleaved, {args.gap:g} s apart), {os.cpu_count()} CPUs, PostgreSQL, "
        f"CONN_MAX_AGE={args.conn_max_age}, DATABASE_POOL_SIZE={args.pool}"
    )
    print(f"{'endpoint':<34}{'req/s':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'errors':>8}{'× bare':>8}")
    labels = {
        "bare": f"bare DRF  GET {BARE}",
        "van": "ván entry POST …/van",
        "board": "scoreboard GET /giai/<slug>/",
    }
    for p in PHASES:
        lat = latencies[p]
        print(
            f"{labels[p]:<34}{rps[p]:>8.0f}{_percentile(lat, 0.5) * 1000:>9.1f}{_percentile(lat, 0.95) * 1000:>9.1f}"
            f"{_percentile(lat, 0.99) * 1000:>9.1f}{sum(errors[p].values()):>8}{rps[p] / rps['bare']:>8.2f}"
        )
    for p in PHASES:
        if errors[p]:
            print(f"  errors ({p}): {errors[p]}")
    van, board = rps["van"] / rps["bare"], rps["board"] / rps["bare"]
    p95 = _percentile(latencies["board"], 0.95) * 1000
    total_errors = sum(sum(e.values()) for e in errors.values())
    print(
        "targets: "
        f"errors 0: {'ok' if total_errors == 0 else 'MISSED'}; "
        f"ván ≥ 0.5× bare: {'ok' if van >= 0.5 else 'MISSED'} ({van:.2f}; floor 0.35: "
        f"{'ok' if van >= 0.35 else 'MISSED'}); scoreboard ≥ 0.5× bare: {'ok' if board >= 0.5 else 'MISSED'} "
        f"({board:.2f}); scoreboard p95 < 200 ms: {'ok' if p95 < 200 else 'MISSED'} ({p95:.0f} ms)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=60, help="seconds of load on each endpoint (60)")
    parser.add_argument("--users", type=int, default=50, help="concurrent users (50)")
    parser.add_argument("--workers", type=int, default=3, help="daphne app server processes (3)")
    parser.add_argument("--clients", type=int, default=2, help="client processes running the users (2)")
    parser.add_argument("--chunk", type=int, default=10, help="seconds per interleaved chunk (10)")
    parser.add_argument(
        "--gap",
        type=float,
        default=3.0,
        help="seconds between chunks, for the requests in flight to finish (3)",
    )
    parser.add_argument(
        "--conn-max-age",
        type=int,
        default=0,
        help="the app servers' CONN_MAX_AGE (0, the project's default: a connection per request; "
        "Django does not support persistent connections under ASGI: use --pool)",
    )
    parser.add_argument(
        "--pool",
        type=int,
        default=0,
        help="the app servers' DATABASE_POOL_SIZE (0, the default: no pool; e.g. 4: psycopg's pool)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the bench database")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", "")
    if not url:
        sys.exit("bench/load.py needs DATABASE_URL=postgres://… (PostgreSQL).")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "totom_site.settings")
    os.environ["CELERY_BROKER_URL"] = "memory://"  # the seed's recompute requests go nowhere
    database, drop = _bench_database(url, args.keep)
    os.environ["DATABASE_URL"] = database
    started = time.monotonic()
    # Enough sittings for 200 ván/s spread over the users (more are opened in the run if needed).
    each = max(1, -(-args.seconds * 200 // (args.users * VAN_PER_SITTING)))
    slug, keepers = _seed(args.users, each)
    print(f"seeded in {time.monotonic() - started:.0f} s; starting {args.workers} app servers")
    served = database + (f"?conn_max_age={args.conn_max_age}" if args.conn_max_age else "")
    servers = _start_servers(served, args.workers, args.pool)
    try:
        ports = [port for _proc, port, _log in servers]
        chunks = max(1, args.seconds // args.chunk)
        t0 = time.time() + 3
        schedule = []
        # A pause between chunks lets the requests still in flight at a chunk's end finish before
        # the next endpoint's chunk starts (a ván answered 1.8 s after its chunk ended would
        # otherwise be load during the scoreboard's first seconds).
        for i in range(chunks):
            for j, phase in enumerate(PHASES):
                begin = t0 + (i * len(PHASES) + j) * (args.chunk + args.gap)
                schedule.append((phase, begin, begin + args.chunk))
        queue: Any = mp.Queue()
        procs = [
            mp.Process(
                target=_client_process,
                args=(ports, list(range(c, args.users, args.clients)), slug, keepers, schedule, queue),
            )
            for c in range(args.clients)
        ]
        for p in procs:
            p.start()
        latencies: dict[str, list[float]] = {p: [] for p in PHASES}
        errors: dict[str, dict[str, int]] = {p: {} for p in PHASES}
        for _ in procs:
            lat, err = queue.get()
            for phase in PHASES:
                latencies[phase] += lat[phase]
                for what, n in err[phase].items():
                    errors[phase][what] = errors[phase].get(what, 0) + n
        for p in procs:
            p.join()
        _report(latencies, errors, chunks * args.chunk, args)
    finally:
        _stop_servers(servers)
        drop()


if __name__ == "__main__":
    main()
