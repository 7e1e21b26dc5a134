"""What a Trung Quân's signal costs the server, beside the minimal authenticated create, in one run.

Like ``bench/serving.py`` (whose servers and wrk loading it uses): two throwaway databases next to
the one ``DATABASE_URL`` names (PostgreSQL), the app's seeded with festival tables (one per
connection, as each drum pad posts to its own table) and their Trung Quân's token, and the
reference project's (``bench/reference/``: ``POST /items``, a token, one row, an idempotency key).
Both served as ``make run`` serves the app (``totom_site/serve.py``), loaded by wrk in interleaved
chunks:

* ``create``: the reference's ``POST /items``;
* ``signal``: ``POST /api/v1/tables/<id>/signals`` (token, idempotency key), drum and flag
  signals round the five seats; no display open (the fan-out is ``bench/display.py``'s).

Prints the server CPU per request of each and their ratio against the target (signal ≤ 1.5 × the
create's, issue 32), and the SQL statements one signal POST sends (counted in process on the same
database: the request's reads, then its one transaction's statements).

``--quick`` is the few-seconds run of ``make test`` (``tests/reliability/test_benchmarks.py``):
it runs and prints, nothing is judged on timings. ``--json FILE`` writes the figures for
``bench/all.py``. Run from the repository root:
``DATABASE_URL=postgres://… .venv/bin/python bench/signal_cost.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(BENCH))
import serving  # noqa: E402 (bench/ is the script's own folder)
from benchdb import bench_database  # noqa: E402

#: The target: a signal's server CPU at most this many times the minimal authenticated create's.
TARGET = 1.5

SEED = r"""
import json
import sys
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from tournaments.console.services import ensure_catalogue, table_open
ensure_catalogue()
tq = get_user_model().objects.create_user("trung-quan-do-tai")
token = Token.objects.create(user=tq).key
five = ["An", "Bình", "Chi", "Dũng", "Em"]
tables = [table_open(name=f"Chiếu {n + 1}", players=five, trung_quan=tq, created_by=tq).pk
          for n in range(int(sys.argv[1]))]
# The statements of one signal POST, as served (warm: a first POST loads what a process keeps).
client = Client()
auth = {"HTTP_AUTHORIZATION": f"Token {token}"}
def post(seat, slug, key):
    return client.post(f"/api/v1/tables/{tables[0]}/signals", json.dumps({"seat": seat, "signal": slug}),
                       content_type="application/json", HTTP_IDEMPOTENCY_KEY=key, **auth)
assert post(1, "cac", "warm").status_code == 201
with CaptureQueriesContext(connection) as queries:
    assert post(3, "tung-tung", "counted").status_code == 201
sql = [q["sql"].split()[0].upper() for q in queries.captured_queries]
sent = [s for s in sql if s not in ("BEGIN", "COMMIT")]  # psycopg's own, logged by Django
update = sent.index("UPDATE")
print(json.dumps({"token": token, "tables": tables, "statements": len(sent),
                  "in_transaction": len(sent) - update, "sql": sql}))
"""

LUA_SIGNAL = (
    serving.LUA_COMMON
    + r"""
local slugs = {"cac", "tung", "tung-tung", "tung-cac", "co-vang", "tung-tung-cac"}
function init(args)
  token, nonce, n = args[1], args[3], 0
  local tables = {}
  for t in string.gmatch(args[2], "[^,]+") do tables[#tables + 1] = t end
  mine = tables[(id % #tables) + 1]
end
function request()
  n = n + 1
  local body = string.format('{"seat": %d, "signal": "%s"}', (n % 5) + 1, slugs[(n % #slugs) + 1])
  return wrk.format("POST", "/api/v1/tables/" .. mine .. "/signals",
    {["Content-Type"] = "application/json", ["Authorization"] = "Token " .. token,
     ["Idempotency-Key"] = "hieu-" .. nonce .. "-" .. id .. "-" .. n}, body)
end
"""
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=6, help="interleaved rounds (6)")
    parser.add_argument("--chunk", type=int, default=5, help="seconds per endpoint per round (5)")
    parser.add_argument("--gap", type=float, default=1.0, help="seconds between chunks (1)")
    parser.add_argument("--connections", type=int, default=10, help="drum pads at once, a table each (10)")
    parser.add_argument(
        "--quick", action="store_true", help="a few seconds, for make test (no timing judged)"
    )
    parser.add_argument("--json", type=Path, help="write the figures here (bench/all.py)")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop the servers (finally) when stopped
    if args.quick:
        args.rounds, args.chunk, args.gap, args.connections = 1, 1, 0.2, 4
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        sys.exit("bench/signal_cost.py needs DATABASE_URL=postgres://… (PostgreSQL).")
    if shutil.which("wrk") is None:
        sys.exit("bench/signal_cost.py needs wrk (Debian package `wrk`: make system-deps-test).")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "totom_site.settings")
    cleanup: list[Callable[[], None]] = []
    servers: list[serving.Server] = []
    try:
        dbs = {}
        for name in ("app", "reference"):
            dbs[name], drop = bench_database(url, f"bench_signal_{name}", False)
            cleanup.append(drop)
        started = time.monotonic()
        seed = json.loads(
            serving._manage_script(ROOT, dbs["app"], SEED, str(args.connections)).strip().splitlines()[-1]
        )
        ref = json.loads(
            serving._manage_script(
                BENCH,
                dbs["reference"],
                serving.REFERENCE_SEED,
                settings="reference.settings",
                pythonpath=f"{BENCH}:{ROOT}",
            )
            .strip()
            .splitlines()[-1]
        )
        print(f"seeded in {time.monotonic() - started:.0f} s")
        reference = serving.serve_reference(dbs["reference"])
        servers.append(reference)
        app = serving.serve_app(ROOT, dbs["app"])
        servers.append(app)
        tables = ",".join(str(t) for t in seed["tables"])
        nonce = {"base": 1000}  # the warm-up's keys, then the run's (a key used twice is a replay)
        endpoints = [
            serving.Endpoint(
                "create",
                reference,
                "/items",
                serving.LUA_CREATE,
                lambda c: [ref["token"], "", str(nonce["base"] + c + 1)],
            ),
            serving.Endpoint(
                "signal",
                app,
                "/api/v1/tables/0/signals",
                LUA_SIGNAL,
                lambda c: [seed["token"], tables, str(nonce["base"] + c + 1)],
                threads=0,
            ),
        ]
        postmaster = serving._postmaster(dbs["app"])
        # Warm both servers (a process's first requests import and compile what it keeps), unmeasured.
        serving.run(endpoints, rounds=1, chunk=1, gap=0, connections=args.connections, postmaster=postmaster)
        nonce["base"] = 0
        for endpoint in endpoints:
            endpoint.figures = serving.Figures()
        print(
            f"load: wrk, {args.connections} connections, {args.rounds} rounds of {args.chunk} s per endpoint, "
            f"interleaved; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}"
        )
        serving.run(
            endpoints,
            rounds=args.rounds,
            chunk=args.chunk,
            gap=args.gap,
            connections=args.connections,
            postmaster=postmaster,
        )
    finally:
        for server in servers:
            serving._stop(server)
        for drop in cleanup:
            drop()
    serving.LABELS["signal"] = "app signal POST /api/v1/tables/<id>/signals (token, key)"
    lines = serving.table(endpoints)
    figures = {e.name: e.figures for e in endpoints}
    create, sig = figures["create"], figures["signal"]
    create_ms, signal_ms = create.per_request_ms(create.server_cpu), sig.per_request_ms(sig.server_cpu)
    ratio = signal_ms / create_ms if create.requests and sig.requests else float("nan")
    met = ratio <= TARGET
    lines += [
        "",
        f"signal POST server CPU {signal_ms:.2f} ms / minimal authenticated create {create_ms:.2f} ms "
        f"= {ratio:.2f} × (target ≤ {TARGET} ×): {'met' if met else 'missed'}",
        f"statements per signal POST: {seed['statements']} besides BEGIN and COMMIT, {seed['in_transaction']} "
        f"in its one transaction ({' '.join(seed['sql'])})",
    ]
    print(f"\nbench/signal_cost.py: load average after {os.getloadavg()[0]:.1f}")
    print("\n".join(lines))
    for e in endpoints:
        if e.figures.errors:
            print(f"  errors ({e.name}): {dict(e.figures.errors)}")
    found: dict[str, Any] = {
        "target": f"signal POST server CPU ≤ {TARGET} × the minimal authenticated create's",
        "value": round(ratio, 2),
        "met": met,
    }
    print(f"target: {found['target']}: {found['value']} {'met' if met else 'MISSED'}")
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "lines": lines,
                    "targets": [found],
                    "signal_server_cpu_ms": round(signal_ms, 3),
                    "statements": seed["statements"],
                    "in_transaction": seed["in_transaction"],
                    "quick": args.quick,
                    "errors": {e.name: dict(e.figures.errors) for e in endpoints},
                },
                ensure_ascii=False,
                indent=1,
            )
        )
    if not create.requests or not sig.requests:
        sys.exit("no request answered: " + ", ".join(e.name for e in endpoints if not e.figures.requests))


if __name__ == "__main__":
    main()
