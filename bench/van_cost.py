"""Where a ván's cost goes, beside the bare endpoint's, measured in the same run (not a test).

``bench/load.py`` gives throughput under 50 users; this says what one request costs the whole
machine (CPU time of every process: app, PostgreSQL, client, kernel; read from ``/proc/stat``),
one request at a time, in interleaved rounds of 100 (medians printed, the machine is shared):

* ``in process``: the Django test client, its connection kept: the app's and PostgreSQL's work;
* ``in process, new connection``: the same, the connection closed after every request (what
  the project's default, a connection per request, adds: for the ván, the new PostgreSQL
  backend's first use of each table, index, foreign key check and trigger function);
* ``daphne`` and ``daphne, pool of 2``: through one app server, as ``bench/load.py`` serves;
* ``SQL alone``: no app at all: psycopg on a kept connection sends the bare view's query, and
  the ván's statements as the app sends them (the lock, the key, the current ván, the ván, its
  ledger transaction and postings with every trigger, the stored state, the key with a full
  answer, the commit). That is the floor of the ván's database work.

The last line is the ceiling that floor puts on the served ratio (pool of 2): the bare view's
served cost over what the ván would cost if the app spent on it no more than on the bare view
(the bare view's served cost plus the SQL floor's difference).

Run from the repository root: ``DATABASE_URL=postgres://… .venv/bin/python bench/van_cost.py
[--rounds 8 | --quick]`` (a throwaway database next to the one named; ``--quick``: 1 round of
20, for ``make test``).
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
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
import load  # noqa: E402 (bench/ is the script's own folder)
from benchdb import bench_database  # noqa: E402

PER_ROUND = 100
QUICK_PER_ROUND = 20
VAN_PER_SITTING_FLOOR = 40


def _busy_ms() -> float:
    """CPU time of the whole machine so far (all CPUs, not idle), in ms."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(fields) - fields[3] - fields[4]) * 1000 / os.sysconf("SC_CLK_TCK")


def _measure(steps: dict[str, Callable[[], None]], rounds: int, per_round: int) -> dict[str, float]:
    costs: dict[str, list[float]] = {name: [] for name in steps}
    for step in steps.values():
        for _ in range(min(20, per_round)):
            step()
    for _ in range(rounds):
        for name, step in steps.items():
            before = _busy_ms()
            for _ in range(per_round):
                step()
            costs[name].append((_busy_ms() - before) / per_round)
    return {name: statistics.median(values) for name, values in costs.items()}


def _in_process(keeper: dict[str, Any], fresh: bool) -> dict[str, Callable[[], None]]:
    """The bare view and the ván through the test client, as ``keeper`` (``bench/keepers.py``: an
    organiser of the village, its token) posting in new canh of its own village."""
    from django.db import connections
    from django.test import Client

    client = Client()
    auth = {"HTTP_AUTHORIZATION": f"Token {keeper['token']}"}
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
            body = {
                "game": "to-tom-5",
                "rules": "luat-2005",
                "mode": "quang",
                "players": load.FIVE,
                "club": keeper["club"],
            }
            answer = client.post(
                "/api/v1/sittings",
                json.dumps(body),
                content_type="application/json",
                HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
                **auth,
            )
            state["sitting"], state["seq"] = answer.json()["id"], 0
        body = {"seq": state["seq"] + 1, **load._record(rng, load.FIVE)}
        answer = client.post(
            f"/api/v1/sittings/{state['sitting']}/van",
            json.dumps(body),
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
            **auth,
        )
        assert answer.status_code == 201, answer.content
        state["seq"] += 1
        done()

    return {"bare": bare, "van": van}


#: The ván's statements, in the order and shape the app sends them (as the ORM sends them).
FLOOR_SQL = {
    "lock": 'SELECT t0."id", t0."game", t0."rules_id", t0."mode", t0."title", t0."club_id", t0."created_by_id", '
    't0."created_at", t0."needs_confirmation", t0."state_snapshot", t0."ended_at", t1."id", '
    't1."fingerprint", t1."preset", t1."spec", t1."created_at" FROM "scoring_sitting" t0 LEFT OUTER JOIN '
    '"scoring_rulesetsnapshot" t1 ON t1."id" = t0."rules_id" WHERE t0."id" = %s FOR UPDATE OF t0',
    "key": 'SELECT t0."id", t0."scope", t0."key", t0."operation", t0."request_hash", t0."status", t0."response", '
    't0."created_at" FROM "scoring_idempotencykey" t0 WHERE t0."scope" = %s AND t0."key" = %s',
    "snapshot_key": (
        "SELECT (SELECT seq FROM scoring_van WHERE sitting_id = %s AND is_current ORDER BY seq DESC LIMIT 1),"
        " (SELECT id FROM scoring_van WHERE sitting_id = %s ORDER BY id DESC LIMIT 1)"
    ),
    "van": 'INSERT INTO "scoring_van" ("sitting_id", "seq", "record", "outcome", "winner_id", "fault", "cuoc", '
    '"declared", "streak", "points", "cards", "kiem_bai", "entered_by_id", "created_at", "is_current", '
    '"replaces_id", "correction_reason", "status", "confirmed_by_id", "confirmed_at", "entered_grant", '
    '"entered_device") VALUES (%s, %s, %s, '
    "'u', %s, '', %s, NULL, 1, %s, '', NULL, %s, now(), true, NULL, '', 'khong_can', NULL, NULL, '', '') "
    'RETURNING "id"',
    "transaction": 'INSERT INTO "scoring_ledgertransaction" ("sitting_id", "van_id", "kind", "reason", '
    '"reverses_id", "created_by_id", "created_at") VALUES (%s, %s, \'van\', %s, NULL, %s, now()) '
    'RETURNING "id"',
    "postings": 'INSERT INTO "scoring_posting" ("transaction_id", "sitting_id", "account", "seat_id", "amount", '
    '"line", "why") SELECT * FROM UNNEST(%s::bigint[], %s::bigint[], %s::varchar(10)[], %s::bigint[], '
    '%s::integer[], %s::smallint[], %s::text[]) RETURNING "id"',
    "state": 'UPDATE "scoring_sitting" SET "state_snapshot" = %s WHERE "id" = %s',
    "stored": 'INSERT INTO "scoring_idempotencykey" ("scope", "key", "operation", "request_hash", "status", '
    '"response", "created_at") VALUES (%s, %s, \'van_record\', %s, 201, %s, now())',
}


def _sql_alone(database: str, keeper: dict[str, Any], user_id: int) -> dict[str, Callable[[], None]]:
    """The bare view's query and the ván's statements on a kept psycopg connection, no app: each
    ván a winner taking 18 from the four others (8 postings), its state and answer as large as the
    app's (an answer recorded through the app, ids and names kept)."""
    import hashlib

    import psycopg
    from django.db import connection
    from psycopg.types.json import Jsonb

    from scoring.models import Club

    sittings = list(keeper["sittings"])  # opened beforehand, none of them used by the app here
    _in_process(keeper, False)["van"]()  # an answer of the app's to store as the key's
    with connection.cursor() as cursor:
        cursor.execute("SELECT response FROM scoring_idempotencykey ORDER BY id DESC LIMIT 1")
        answer = cursor.fetchone()[0]
        answer = json.loads(answer) if isinstance(answer, str) else answer
        cursor.execute(
            "SELECT sitting_id, array_agg(id ORDER BY position) FROM scoring_seat "
            "WHERE sitting_id = ANY(%s) GROUP BY sitting_id",
            [sittings],
        )
        seats = dict(cursor.fetchall())
    bare_sql, bare_params = Club.objects.all().query.sql_with_params()  # the bare view's one query
    conn = psycopg.connect(database)
    cur = conn.cursor()
    state = {"sitting": 0, "seq": VAN_PER_SITTING_FLOOR}
    queue = list(sittings)
    scope = f"user:{user_id}"  # the caller's keys (scoring.services.idempotency.caller_scope)

    def bare() -> None:
        cur.execute(bare_sql, bare_params)
        cur.fetchall()
        conn.commit()

    def van() -> None:
        if state["seq"] >= VAN_PER_SITTING_FLOOR:
            state["sitting"], state["seq"] = queue.pop(), 0
        sitting, seq, key = state["sitting"], state["seq"] + 1, str(uuid.uuid4())
        seat = seats[sitting]
        winner, losers = seat[seq % 5], [s for i, s in enumerate(seat) if i != seq % 5]
        cur.execute(FLOOR_SQL["lock"], [sitting])
        cur.fetchone()
        cur.execute(FLOOR_SQL["key"], [scope, key])
        cur.fetchone()
        cur.execute(FLOOR_SQL["snapshot_key"], [sitting, sitting])
        cur.fetchone()
        record = {"winner": "An", "cuoc": ["kinh_cu"], "discarder": "Bình"}
        van_id = cur.execute(
            FLOOR_SQL["van"], [sitting, seq, Jsonb(record), winner, Jsonb(["kinh_cu"]), 18, user_id]
        ).fetchone()[0]
        tx = cur.execute(FLOOR_SQL["transaction"], [sitting, van_id, f"Ván {seq}", user_id]).fetchone()[0]
        pairs = [(loser, -18, winner, 18) for loser in losers]
        cur.execute(
            FLOOR_SQL["postings"],
            [
                [tx] * 8,
                [sitting] * 8,
                ["player"] * 8,
                [s for p in pairs for s in (p[0], p[2])],
                [a for p in pairs for a in (p[1], p[3])],
                [n for n in range(1, 5) for _ in (0, 1)],
                ["An trả Dũng 18 điểm: ù Kính Cụ"] * 8,
            ],
        )
        cur.fetchall()
        snapshot = {
            "key": [seq, van_id],
            "state": answer["sitting"],
            "seats": [[s, "An", 1, None] for s in seat],
        }
        cur.execute(FLOOR_SQL["state"], [Jsonb(snapshot), sitting])
        digest = hashlib.sha256(key.encode()).hexdigest()
        cur.execute(FLOOR_SQL["stored"], [scope, key, digest, Jsonb(answer)])
        conn.commit()
        state["seq"] = seq

    return {"bare": bare, "van": van}


def _seed(sittings_each: int) -> list[dict[str, Any]]:
    """Migrate; one scorekeeper (``bench/keepers.py``: an organiser of the village, its token) with
    ``sittings_each`` open canh. Not ``load._seed``'s festival: no board is measured here."""
    import django
    from django.core.management import call_command
    from django.db import connections
    from keepers import scorekeepers

    django.setup()
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    keepers = scorekeepers(1, sittings_each)
    connections.close_all()
    return keepers


def _served(user: load.User) -> dict[str, Callable[[], None]]:
    def step(phase: str) -> Callable[[], None]:
        def run() -> None:
            assert user.step(phase) in (200, 201)

        return run

    return {"bare": step("bare"), "van": step("van")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=8, help="interleaved rounds of 100 requests (8)")
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"seconds long: 1 round of {QUICK_PER_ROUND} requests (for make test)",
    )
    args = parser.parse_args()
    rounds, per_round = (1, QUICK_PER_ROUND) if args.quick else (args.rounds, PER_ROUND)
    url = os.environ.get("DATABASE_URL", "")  # PostgreSQL: bench_database refuses anything else
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "totom_site.settings")
    os.environ["CELERY_BROKER_URL"] = "memory://"
    os.environ["DJANGO_DEBUG"] = "false"
    database, drop = bench_database(url, "van_cost", False)  # its own: load.py may run beside it
    os.environ["DATABASE_URL"] = database
    try:
        # Enough open sittings for the SQL-alone ván: 40 ván each, every round and the warm-up.
        # One scorekeeper (bench/keepers.py), with enough open sittings for the SQL-alone ván: 40 ván
        # each, every round and the warm-up. The app's ván (in process, served) go to canh it opens.
        [keeper] = _seed((rounds * per_round + 20) // VAN_PER_SITTING_FLOOR + 2)
        rows = {
            "in process": _measure(_in_process(keeper, False), rounds, per_round),
            "in process, new connection": _measure(_in_process(keeper, True), rounds, per_round),
        }
        from django.contrib.auth import get_user_model
        from django.db import connections
        from rest_framework.authtoken.models import Token

        user_id = Token.objects.get(key=keeper["token"]).user_id
        assert get_user_model().objects.filter(pk=user_id).exists()
        rows["SQL alone (psycopg, no app)"] = _measure(
            _sql_alone(database, keeper, user_id), rounds, per_round
        )

        connections.close_all()
        for label, pool in (("daphne", 0), ("daphne, pool of 2", 2)):
            servers = load._start_servers(database, 1, pool)
            try:
                user = load.User(servers[0][1], "", random.Random(1), {**keeper, "sittings": []})
                rows[label] = _measure(_served(user), rounds, per_round)
            finally:
                load._stop_servers(servers)
    finally:
        drop()
    print(
        f"\nbench/van_cost.py: machine CPU per request (all processes), median of {rounds} rounds "
        f"of {per_round}, {os.cpu_count()} CPUs"
    )
    print(f"{'':<30}{'bare ms':>9}{'ván ms':>9}{'bare/ván':>10}")
    for label, cost in rows.items():
        print(f"{label:<30}{cost['bare']:>9.2f}{cost['van']:>9.2f}{cost['bare'] / cost['van']:>10.2f}")
    floor, served = rows["SQL alone (psycopg, no app)"], rows["daphne, pool of 2"]
    best = served["bare"] / (served["bare"] + floor["van"] - floor["bare"])
    print(
        f"ceiling of the served ratio (pool) with the ván's SQL as it is and no more app work than the bare "
        f"view's: {served['bare']:.2f} / ({served['bare']:.2f} + {floor['van']:.2f} - {floor['bare']:.2f}) "
        f"= {best:.2f}  (target 0.5)"
    )


if __name__ == "__main__":
    main()
