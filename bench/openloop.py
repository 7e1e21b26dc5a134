"""Open-loop latency of ván entry: ván sent at a fixed arrival rate, timed from when each was due.

``bench/load.py`` and ``bench/serving.py`` measure throughput closed-loop: N connections each post
the next ván as soon as the last is answered, so the server sets the pace and latency is N ÷
throughput. Real scorekeepers post a ván a minute each, whatever the server does. This client
sends ván on a schedule fixed before the run (Poisson arrivals: exponential gaps at ``rate`` a
second) and measures each ván's latency from its **scheduled** send time, so a slow answer delays
nothing else and the time a ván waited for a free connection or a free scorekeeper is counted (no
coordinated omission). It is one asyncio process with a keep-alive connection per scorekeeper
(``--keepers``, 200 by default: far more than are ever busy at once below saturation).

The ván are ``bench/load.py``'s: ``POST /api/v1/sittings/<id>/van`` with an idempotency key, each
scorekeeper (``bench/keepers.py``: an organiser of the village, so the hourly ván quota is its
own club's) recording the next ván of its own sitting (a new sitting every 40 ván, all opened before
the run). The app is served as ``make run`` serves it (``totom_site/serve.py``, through
``bench/serving.py``'s ``serve_app``), on a throwaway database next to ``DATABASE_URL``'s.

Steps: each rate of ``--rates`` for ``--seconds`` (the target's rate, 100 a second, always among
them), then, unless ``--no-search``, higher rates until one misses (p99 ≥ 150 ms or an error) and
two bisections between the last met and the first missed. Per step: the rate offered and achieved,
p50/p95/p99 from the scheduled time (and the service time from the actual send), errors, the app
server's and PostgreSQL's CPU per ván. Then the target, **ván at 100/s open-loop: p99 < 150 ms, 0
errors**, met / missed, and the highest rate this machine sustained. At the end every ván
answered 201 is checked against the database (each stored once), and the script exits 1 if not.

Run from the repository root: ``DATABASE_URL=postgres://… .venv/bin/python bench/openloop.py``
(``make bench-openloop``); ``--quick`` is the seconds-long run of ``make test``
(``tests/reliability/test_benchmarks.py``); ``--json FILE`` writes the figures for ``bench/all.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import signal
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from benchdb import bench_database  # noqa: E402 (bench/ is the script's own folder)

HOST = "127.0.0.1"
FIVE = ["An", "Bình", "Chi", "Dũng", "Em"]
CUOC = ["tom", "leo", "thap_dieu", "chi_nay", "bach_thu", "kinh_cu"]
VAN_PER_SITTING = 40
TARGET_RATE = 100.0  # ván a second (≈ 6,000 tables at a ván a minute)
TARGET_P99_MS = 150.0
TIMEOUT = 10.0  # seconds before a ván counts as an error


# -- the client ------------------------------------------------------------------------------------


class Keeper:
    """One scorekeeper's phone: its token, its sittings, one keep-alive connection."""

    def __init__(self, index: int, keeper: dict[str, Any], port: int) -> None:
        self.token, self.club, self.port = keeper["token"], keeper["club"], port
        self.sittings = list(keeper["sittings"])
        self.sitting, self.seq = 0, 0
        self.rng = random.Random(index)
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.answered = 0
        self.opened: list[int] = []  # sittings opened during the run

    def _body(self) -> bytes:
        winner = self.rng.choice(FIVE)
        record: dict[str, Any] = {"seq": self.seq + 1, "winner": winner, "cuoc": [self.rng.choice(CUOC)]}
        if self.rng.random() < 0.5:
            record["discarder"] = self.rng.choice([n for n in FIVE if n != winner])
        return json.dumps(record).encode()

    async def _close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def close(self) -> None:
        await self._close()

    async def abandon(self) -> None:
        """After a ván whose answer never came (it may be stored or not): its connection closed,
        the scorekeeper goes on in its next sitting, whose next ván is certain."""
        await self._close()
        self.sitting = 0

    async def post_van(self) -> int:
        """Post the next ván; its HTTP status (the connection reopened if the server closed it)."""
        if not self.sitting or self.seq >= VAN_PER_SITTING:
            if self.sittings:
                self.sitting, self.seq = self.sittings.pop(0), 0
            else:  # the ones opened before the run are used up: a new one, in this ván's time
                self.sitting, self.seq = await self._open_sitting(), 0
                self.opened.append(self.sitting)
        status, _ = await self._exchange(f"/api/v1/sittings/{self.sitting}/van", self._body())
        if status == 201:
            self.seq += 1
            self.answered += 1
        return status

    async def _open_sitting(self) -> int:
        body = {"game": "to-tom-5", "rules": "luat-2005", "mode": "quang", "players": FIVE, "club": self.club}
        status, answer = await self._exchange("/api/v1/sittings", json.dumps(body).encode())
        if status != 201:
            raise RuntimeError(f"opening a sitting: {status}")
        return int(json.loads(answer)["id"])

    async def _exchange(self, path: str, body: bytes) -> tuple[int, bytes]:
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\n"
            f"Content-Type: application/json\r\nAccept: application/json\r\n"
            f"Authorization: Token {self.token}\r\nIdempotency-Key: {uuid.uuid4()}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        ).encode()
        for attempt in (1, 2):  # a keep-alive connection the server closed while idle: once more
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
            assert self.reader is not None
            try:
                self.writer.write(head + body)
                await self.writer.drain()
                return await _read_response(self.reader)
            except (ConnectionError, asyncio.IncompleteReadError):
                await self._close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers = {
        k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if line)
    }
    body = b""
    if "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    elif headers.get("transfer-encoding", "").lower() == "chunked":
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            body += (await reader.readexactly(size + 2))[:size]
            if size == 0:
                break
    return status, body


@dataclass
class Step:
    """One rate's run: what was offered, what came back."""

    rate: float
    seconds: float
    scheduled: int = 0
    latencies: list[float] = field(default_factory=list)  # s, from the scheduled send time
    service: list[float] = field(default_factory=list)  # s, from the actual send
    errors: dict[str, int] = field(default_factory=dict)
    elapsed: float = 0.0  # from the first scheduled time to the last answer
    server_cpu: float = 0.0
    db_cpu: float = 0.0
    client_cpu: float = 0.0
    max_in_flight: int = 0

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())

    @property
    def achieved(self) -> float:
        return len(self.latencies) / self.elapsed if self.elapsed else 0.0

    def p(self, q: float, values: list[float] | None = None) -> float:
        values = sorted(self.latencies if values is None else values)
        if not values:
            return float("nan")
        return values[min(len(values) - 1, math.ceil(q * len(values)) - 1)] * 1000

    @property
    def met(self) -> bool:
        return self.error_count == 0 and bool(self.latencies) and self.p(0.99) < TARGET_P99_MS

    def per_van_ms(self, cpu: float) -> float:
        return cpu * 1000 / len(self.latencies) if self.latencies else float("nan")

    def as_dict(self) -> dict[str, Any]:
        return {
            "rate": self.rate,
            "seconds": self.seconds,
            "scheduled": self.scheduled,
            "answered": len(self.latencies),
            "achieved": round(self.achieved, 1),
            "p50_ms": round(self.p(0.50), 1),
            "p95_ms": round(self.p(0.95), 1),
            "p99_ms": round(self.p(0.99), 1),
            "service_p99_ms": round(self.p(0.99, self.service), 1),
            "errors": self.errors,
            "server_cpu_ms_per_van": round(self.per_van_ms(self.server_cpu), 2),
            "db_cpu_ms_per_van": round(self.per_van_ms(self.db_cpu), 2),
            "client_cpu_ms_per_van": round(self.per_van_ms(self.client_cpu), 2),
            "max_in_flight": self.max_in_flight,
            "met": self.met,
        }


def schedule(rate: float, seconds: float, rng: random.Random) -> list[float]:
    """Poisson arrivals: offsets (s) from the step's start, exponential gaps of mean 1/rate."""
    out, t = [], rng.expovariate(rate)
    while t < seconds:
        out.append(t)
        t += rng.expovariate(rate)
    return out


async def run_step(step: Step, keepers: list[Keeper], rng: random.Random) -> None:
    """Send each ván at its scheduled time: a free scorekeeper takes it (waiting, if none is free,
    counts in its latency), posts it, and is free again."""
    offsets = schedule(step.rate, step.seconds, rng)
    step.scheduled = len(offsets)
    idle: asyncio.Queue[Keeper] = asyncio.Queue()
    for k in rng.sample(keepers, len(keepers)):
        idle.put_nowait(k)
    in_flight = 0
    loop = asyncio.get_running_loop()
    start = loop.time() + 0.2
    last_done = start

    async def one(due: float) -> None:
        nonlocal in_flight, last_done
        keeper = await idle.get()
        sent = loop.time()
        in_flight += 1
        step.max_in_flight = max(step.max_in_flight, in_flight)
        try:
            status = await asyncio.wait_for(keeper.post_van(), TIMEOUT - (sent - due))
            what = "" if status == 201 else str(status)
        except TimeoutError:
            what = "timeout"
            await keeper.abandon()
        except (OSError, asyncio.IncompleteReadError, ValueError, RuntimeError) as exc:
            what = type(exc).__name__
            await keeper.abandon()
        done = loop.time()
        in_flight -= 1
        idle.put_nowait(keeper)
        last_done = max(last_done, done)
        if what:
            step.errors[what] = step.errors.get(what, 0) + 1
        else:
            step.latencies.append(done - due)
            step.service.append(done - sent)

    tasks = []
    for offset in offsets:
        due = start + offset
        delay = due - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.ensure_future(one(due)))  # started at `due` (or late: still timed from `due`)
    await asyncio.gather(*tasks)
    step.elapsed = last_done - start


# -- set-up ------------------------------------------------------------------------------------------


def _seed(keepers: int, sittings_each: int) -> list[dict[str, Any]]:
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    from django.db import connections
    from keepers import scorekeepers

    out = scorekeepers(keepers, sittings_each, prefix="thu-ky-mo")
    connections.close_all()
    return out


def _stored_van(sittings: list[int]) -> int:
    from django.db import connections

    from scoring.models import Van

    try:
        return Van.objects.filter(sitting_id__in=sittings).count()
    finally:
        connections.close_all()


def _print_step(step: Step) -> None:
    print(_line(step), flush=True)


HEADER = (
    f"{'rate':>9}{'achieved':>9}{'ván':>7}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'svc p99':>10}"
    f"{'errors':>7}{'in fl.':>8}{'app ms':>9}{'pg ms':>8}   p99 < {TARGET_P99_MS:.0f} ms, 0 errors"
)


def main() -> None:  # noqa: C901 (the run's steps in order: set up, serve, ramp, report)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rates", default="50,100", help="rates to run first, ván/s (50,100)")
    parser.add_argument("--seconds", type=float, default=20, help="seconds per rate (20)")
    parser.add_argument("--keepers", type=int, default=200, help="scorekeepers (connections), 200")
    parser.add_argument("--max-rate", type=float, default=600, help="the search stops here (600/s)")
    parser.add_argument("--no-search", action="store_true", help="only --rates, no search for the highest")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds of warm-up, not reported (5)")
    parser.add_argument("--gap", type=float, default=2.0, help="seconds between steps (2)")
    parser.add_argument(
        "--quick", action="store_true", help="a few seconds, for make test (no timing judged)"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=int(os.environ.get("SOTOM_WORKERS", "0")) or (2 if os.environ.get("REDIS_URL") else 1),
        help="app server processes, SOTOM_WORKERS (2 with REDIS_URL, one a core; else 1: make run's)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the bench database")
    parser.add_argument("--json", type=Path, help="write the figures here (bench/all.py)")
    args = parser.parse_args()
    if args.quick:
        args.rates, args.seconds, args.keepers, args.no_search, args.gap = "20,40", 3, 20, True, 0.5
        args.warmup = 2
    rates = [float(r) for r in args.rates.split(",") if r]
    if not args.quick and TARGET_RATE not in rates:
        rates.append(TARGET_RATE)
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        sys.exit("bench/openloop.py needs DATABASE_URL=postgres://… (PostgreSQL).")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop the server (finally) when stopped
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "totom_site.settings")
    os.environ["CELERY_BROKER_URL"] = "memory://"
    database, drop = bench_database(url, "bench_openloop", args.keep)
    os.environ["DATABASE_URL"] = database
    from serving import _postmaster, _stop, _tree_cpu, serve_app

    # Sittings for every step's ván (the search's highest steps included), spread over the keepers.
    budget = (
        sum(rates) * args.seconds
        + rates[0] * args.warmup
        + (0 if args.no_search else 6 * args.max_rate * args.seconds)
    )
    budget = min(budget, 40_000)
    each = max(2, math.ceil(budget / args.keepers / VAN_PER_SITTING) + 1)
    started = time.monotonic()
    seeded = _seed(args.keepers, each)
    print(
        f"seeded {args.keepers} scorekeepers × {each} sittings in {time.monotonic() - started:.0f} s",
        flush=True,
    )
    server = serve_app(ROOT, database, SOTOM_WORKERS=str(args.workers))
    steps: list[Step] = []
    warmup = Step(rates[0], args.warmup)
    clients: list[Keeper] = []
    try:
        postmaster = _postmaster(database)
        workers, threads = args.workers, os.environ.get("SOTOM_THREADS", "4")
        print(
            f"bench/openloop.py: ván POST at fixed Poisson arrival rates, {args.seconds:g} s a rate, "
            f"{args.keepers} scorekeepers (keep-alive connections), app served by totom_site/serve.py "
            f"(granian, {workers} process(es) × {threads} threads), PostgreSQL; {os.cpu_count()} CPUs, "
            f"load average {os.getloadavg()[0]:.1f}",
            flush=True,
        )
        print("latency from each ván's scheduled send time; svc = from its actual send; CPU per ván")
        print(HEADER, flush=True)
        rng = random.Random(2025)

        async def go() -> None:
            clients.extend(Keeper(i, k, server.port) for i, k in enumerate(seeded))

            async def measure(rate: float) -> Step:
                step = Step(rate, args.seconds)
                before = (server.cpu_seconds(), _tree_cpu(postmaster), time.process_time())
                await run_step(step, clients, rng)
                step.server_cpu = server.cpu_seconds() - before[0]
                step.db_cpu = _tree_cpu(postmaster) - before[1]
                step.client_cpu = time.process_time() - before[2]
                steps.append(step)
                _print_step(step)
                await drain()
                return step

            async def drain() -> None:
                """Wait for the server to finish what the step left queued (a ván the client gave up
                on is still answered): the next step starts on a quiet server, or after 60 s."""
                await asyncio.sleep(args.gap)
                deadline = time.monotonic() + 60
                last = server.cpu_seconds()
                while time.monotonic() < deadline:
                    await asyncio.sleep(0.5)
                    now = server.cpu_seconds()
                    if now - last < 0.05:  # under 10 % of a core
                        return
                    last = now

            # Warm-up, not reported: the server's first requests (imports, the pool filling, every
            # connection's first ván) would otherwise land in the first step's p99.
            await run_step(warmup, clients, rng)
            await drain()
            for rate in rates:
                await measure(rate)
            if not args.no_search:
                good = max((s.rate for s in steps if s.met), default=0.0)
                bad = min((s.rate for s in steps if not s.met), default=math.inf)
                rate = max(rates)
                while bad == math.inf and rate < args.max_rate:  # up by half each step until one misses
                    rate = min(args.max_rate, round(rate * 1.5 / 10) * 10)
                    if (await measure(rate)).met:
                        good = rate
                    else:
                        bad = rate
                for _ in range(2):  # then halve the interval twice
                    if bad == math.inf or bad - good <= 10:
                        break
                    rate = round((good + bad) / 2 / 5) * 5
                    if (await measure(rate)).met:
                        good = rate
                    else:
                        bad = rate
            for c in clients:
                await c.close()

        asyncio.run(go())
    finally:
        _stop(server)
    answered = sum(c.answered for c in clients)  # the warm-up's too
    used = [sid for k in seeded for sid in k["sittings"]] + [sid for c in clients for sid in c.opened]
    stored = _stored_van(used)
    drop()
    at_target = next((s for s in steps if s.rate == TARGET_RATE), None)
    highest = max((s.rate for s in steps if s.met), default=0.0)
    unknown = sum(n for s in [warmup, *steps] for what, n in s.errors.items() if not what.isdigit())
    stored_ok = answered <= stored <= answered + unknown
    print(
        f"ván answered 201 (warm-up included): {answered}; stored: {stored} "
        f"({'as answered' if stored_ok else 'MISMATCH'}; {unknown} sent without an answer)"
    )
    targets = []
    if at_target is not None:
        targets.append(
            {
                "target": f"ván at {TARGET_RATE:.0f}/s open-loop (Poisson): p99 < {TARGET_P99_MS:.0f} ms, 0 errors",
                "value": f"p99 {at_target.p(0.99):.1f} ms, {at_target.error_count} errors, "
                f"{at_target.achieved:.1f}/s achieved",
                "met": at_target.met,
            }
        )
        t = targets[-1]
        print(f"target: {t['target']}: {t['value']} {'met' if t['met'] else 'MISSED'}")
    searched = "" if args.no_search else " (searched)"
    print(f"highest rate sustained{searched}: {highest:.0f} ván/s (p99 < {TARGET_P99_MS:.0f} ms, 0 errors)")
    lines = [HEADER, *[_line(s) for s in steps]]
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "steps": [s.as_dict() for s in steps],
                    "targets": targets,
                    "highest": highest,
                    "searched": not args.no_search,
                    "lines": lines,
                    "answered": answered,
                    "stored": stored,
                    "stored_ok": stored_ok,
                    "quick": args.quick,
                    "run": " ".join(sys.argv[1:]),
                },
                ensure_ascii=False,
                indent=1,
            )
        )
    if not stored_ok:
        sys.exit(1)


def _line(step: Step) -> str:
    d = step.as_dict()
    return (
        f"{step.rate:>7.0f}/s{d['achieved']:>9.1f}{d['scheduled']:>7}{d['p50_ms']:>9.1f}{d['p95_ms']:>9.1f}"
        f"{d['p99_ms']:>9.1f}{d['service_p99_ms']:>10.1f}{step.error_count:>7}{d['max_in_flight']:>8}"
        f"{d['server_cpu_ms_per_van']:>9.2f}{d['db_cpu_ms_per_van']:>8.2f}   {'met' if step.met else 'MISSED'}"
        + (f"  {step.errors}" if step.errors else "")
    )


if __name__ == "__main__":
    main()
