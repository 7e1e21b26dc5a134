"""One ván POST in process, in CPU terms: its SQL statements and where its Python time goes (not a test).

The Django test client (its connection kept) posts ván as a festival's scorekeeper does
(``bench/keepers.py``: an organiser of the village, its token, an idempotency key each), on
PostgreSQL, configured as ``bench/serving.py`` serves the app (no Redis, Celery's broker in
memory, DEBUG off). After a warm-up it prints:

* the SQL statements of one ván POST (``CaptureQueriesContext``), numbered, with their time;
* the process CPU (``time.process_time``) per ván over ``--van`` ván, in rounds (the app's side
  only: PostgreSQL's backend is another process);
* ``cProfile`` of the same ván on process CPU time (not wall time), the top ``--top`` functions
  by cumulative time.

Run from the repository root: ``DATABASE_URL=postgres://… .venv/bin/python bench/van_profile.py
[--van 300] [--top 40] [--sql] [--dump FILE] [--quick]`` (a throwaway database next to the one named).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from benchdb import bench_database  # noqa: E402 (bench/ is the script's own folder)
from load import FIVE, VAN_PER_SITTING  # noqa: E402
from load import _record as _load_record  # noqa: E402

#: The CPU per ván is the median (and the least) of this many rounds: the machine is shared.
ROUNDS = 6


def _record(rng: random.Random) -> dict[str, object]:
    """A ván as bench/load.py's scorekeepers post them (a winner, a cước, half with a discarder)."""
    return _load_record(rng, FIVE)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--van", type=int, default=300, help="ván measured after the warm-up (300)")
    parser.add_argument(
        "--top", type=int, default=40, help="functions listed by cumulative time (40; 0: no profile)"
    )
    parser.add_argument("--sql", action="store_true", help="print the statements of one ván in full")
    parser.add_argument("--dump", default="", help="also save the profile to this file (pstats)")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="seconds long: 30 ván, a warm-up of 10, the top 15 (for make test)",
    )
    args = parser.parse_args()
    warm_up = 50
    if args.quick:
        args.van, args.top, warm_up = 30, 15, 10
    url = os.environ.get("DATABASE_URL", "")  # PostgreSQL: bench_database refuses anything else
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "totom_site.settings")
    os.environ["CELERY_BROKER_URL"] = "memory://"
    os.environ["DJANGO_DEBUG"] = "false"
    os.environ.pop("REDIS_URL", None)
    database, drop = bench_database(url, "van_profile", False)
    os.environ["DATABASE_URL"] = database
    try:
        import django
        from django.core.management import call_command

        django.setup()
        call_command("migrate", verbosity=0)
        from django.db import connection
        from django.test import Client
        from django.test.utils import CaptureQueriesContext
        from keepers import scorekeepers

        total = args.van * 2 + warm_up + 10
        keeper = scorekeepers(1, total // VAN_PER_SITTING + 2)[0]
        client = Client()
        auth = {"HTTP_AUTHORIZATION": f"Token {keeper['token']}"}
        rng = random.Random(1)
        ready = list(keeper["sittings"])
        state = {"sitting": 0, "seq": VAN_PER_SITTING}

        def van() -> None:
            if state["seq"] >= VAN_PER_SITTING:
                state["sitting"], state["seq"] = ready.pop(0), 0
            body = {"seq": state["seq"] + 1, **_record(rng)}
            answer = client.post(
                f"/api/v1/sittings/{state['sitting']}/van",
                json.dumps(body),
                content_type="application/json",
                HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
                HTTP_ACCEPT="application/json",
                **auth,
            )
            assert answer.status_code == 201, answer.content
            state["seq"] += 1

        for _ in range(warm_up):
            van()
        # Mid-sitting, as most ván are (not the first of a sitting).
        while state["seq"] in (0, VAN_PER_SITTING) or state["seq"] > VAN_PER_SITTING - 3:
            van()
        with CaptureQueriesContext(connection) as captured:
            van()
        print(f"SQL statements in one ván POST: {len(captured.captured_queries)}")
        for i, query in enumerate(captured.captured_queries, 1):
            sql = query["sql"] if args.sql else query["sql"][:150]
            print(f"{i:>3}. {query['time']:>6}s  {sql}")

        rounds = []
        for _ in range(ROUNDS):
            started = time.process_time()
            for _ in range(args.van // ROUNDS):
                van()
            rounds.append((time.process_time() - started) * 1000 / (args.van // ROUNDS))
        print(
            f"\napp process CPU per ván (in process, {ROUNDS} rounds of {args.van // ROUNDS} ván): "
            f"median {statistics.median(rounds):.2f} ms, least {min(rounds):.2f} ms"
        )

        if not args.top:
            return
        profile = cProfile.Profile(time.process_time)
        profile.enable()
        for _ in range(args.van):
            van()
        profile.disable()
        if args.dump:
            profile.dump_stats(args.dump)
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(args.top)
        print(out.getvalue())
    finally:
        drop()


if __name__ == "__main__":
    main()
