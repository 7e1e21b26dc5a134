"""Where a ván's cost goes, beside the bare endpoint's, measured in the same run (not a test).

``bench/load.py`` gives throughput under 50 users; this says what one request costs the whole
machine (CPU time of every process: app, PostgreSQL, client, kernel; read from ``/proc/stat``),
one request at a time, in interleaved rounds of 100 (medians printed, the machine is shared):

* ``in process``: the Django test client, its connection kept: the app's and PostgreSQL's work;
* ``in process, new connection``: the same, the connection closed after every request (what
  the project's default, a connection per request, adds: for the ván, the new PostgreSQL
  backend's first use of each table, index, foreign key check and trigger function);
* ``daphne`` and ``daphne, pool of 2``: through one app server, as ``bench/load.py`` serves.

Run from the repository root: ``DATABASE_URL=postgres://… .venv/bin/python bench/van_cost.py
[--rounds 8]`` (a throwaway database next to the one named).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import uuid
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
import load  # noqa: E402 (bench/ is the script's own folder)

PER_ROUND = 100


def _busy_ms() -> float:
    """CPU time of the whole machine so far (all CPUs, not idle), in ms."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(fields) - fields[3] - fields[4]) * 1000 / os.sysconf("SC_CLK_TCK")


def _measure(steps: dict[str, Callable[[], None]], rounds: int) -> dict[str, float]:
    costs: dict[str, list[float]] = {name: [] for name in steps}
    for step in steps.values():
        for _ in range(20):
            step()
    for _ in range(rounds):
        for name, step in steps.items():
            before = _busy_ms()
            for _ in range(PER_ROUND):
                step()
            costs[name].append((_busy_ms() - before) / PER_ROUND)
    return {name: statistics.median(values) for name, values in costs.items()}


def _in_process(fresh: bool) -> dict[str, Callable[[], None]]:
    from django.db import connections
    from django.test import Client

    client = Client()
    auth = {"HTTP_AUTHORIZATION": f"Token {os.environ[load.TOKEN_ENV]}"}
    rng = random.Random(1)
    state = {"sitting": 0, "seq": 0}

    def done() -> None:
        if fresh:
            connections.close_all()

    def bare() -> None:
        assert client.get(load.BARE, HTTP_ACCEPT="application/json").status_code == 200
        done()

    def van() -> None:
        if not state["sitting"] or state["seq"] >= load.VAN_PER_SITTING:
            body = {"game": "to-tom-5", "rules": "luat-2005", "mode": "quang", "players": load.FIVE}
            answer = client.post("/api/v1/sittings", json.dumps(body), content_type="application/json",
                                 HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()), **auth)
            state["sitting"], state["seq"] = answer.json()["id"], 0
        body = {"seq": state["seq"] + 1, **load._record(rng, load.FIVE)}
        answer = client.post(f"/api/v1/sittings/{state['sitting']}/van", json.dumps(body),
                             content_type="application/json", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()), **auth)
        assert answer.status_code == 201, answer.content
        state["seq"] += 1
        done()

    return {"bare": bare, "van": van}


def _served(user: load.User) -> dict[str, Callable[[], None]]:
    def step(phase: str) -> Callable[[], None]:
        def run() -> None:
            assert user.step(phase) in (200, 201)
        return run

    return {"bare": step("bare"), "van": step("van")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=8, help="interleaved rounds of 100 requests (8)")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        sys.exit("bench/van_cost.py needs DATABASE_URL=postgres://… (PostgreSQL).")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "totom_site.settings")
    os.environ["CELERY_BROKER_URL"] = "memory://"
    os.environ["DJANGO_DEBUG"] = "false"
    database, drop = load._bench_database(url, False)
    os.environ["DATABASE_URL"] = database
    try:
        slug, _sittings = load._seed(1, 1)
        rows = {"in process": _measure(_in_process(False), args.rounds),
                "in process, new connection": _measure(_in_process(True), args.rounds)}
        from django.db import connections

        connections.close_all()
        for label, pool in (("daphne", 0), ("daphne, pool of 2", 2)):
            servers = load._start_servers(database, 1, pool)
            try:
                user = load.User(servers[0][1], slug, random.Random(1), [])
                rows[label] = _measure(_served(user), args.rounds)
            finally:
                load._stop_servers(servers)
    finally:
        drop()
    print(f"\nbench/van_cost.py: machine CPU per request (all processes), median of {args.rounds} rounds "
          f"of {PER_ROUND}, {os.cpu_count()} CPUs")
    print(f"{'':<30}{'bare ms':>9}{'ván ms':>9}{'bare/ván':>10}")
    for label, cost in rows.items():
        print(f"{label:<30}{cost['bare']:>9.2f}{cost['van']:>9.2f}{cost['bare'] / cost['van']:>10.2f}")


if __name__ == "__main__":
    main()
