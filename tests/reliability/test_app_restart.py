"""The app server is killed (SIGKILL, by its PID) and restarted in the middle of a burst of ván
from phones that retry with the same idempotency keys: nothing is lost or doubled."""

from __future__ import annotations

import random
import threading
import time

import pytest

from tests.reliability.checks import ledger_problems, open_for
from tests.reliability.harness import AppServer, Tally, figure, phone_account, submit_sittings
from tests.reliability.vanmix import scripts

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _burst_with_restarts(
    server: AppServer, *, sittings: int, van_each: int, restarts: int, seed: int
) -> None:
    rng = random.Random(seed)
    plan = scripts(rng, sittings, van_each)
    keeper, token = phone_account()
    opened = [open_for(script, keeper=keeper) for script in plan]
    total = sittings * van_each
    tally, keys = Tally(), {}
    downtime: list[float] = []
    done = threading.Event()

    def killer() -> None:
        for k in range(1, restarts + 1):
            while tally.posted < total * k / (restarts + 1) and not done.is_set():
                time.sleep(0.005)
            if done.is_set():
                return
            time.sleep(rng.uniform(0, 0.05))  # land somewhere inside a request
            down = time.monotonic()
            server.kill()
            server.start()
            downtime.append(time.monotonic() - down)

    chaos = threading.Thread(target=killer, name="killer")
    chaos.start()
    try:
        seconds = submit_sittings(
            server.port,
            [(s.pk, script.van) for s, script in zip(opened, plan, strict=True)],
            threads=sittings,
            tally=tally,
            keys=keys,
            headers=token,
        )
    finally:
        done.set()
        chaos.join()
    figure(
        "ván posted / app server kills",
        f"{total} / {len(downtime)} (each down {max(downtime):.1f} s at most)",
    )
    figure(
        "requests with no answer (cut or refused) / answers replayed", f"{tally.no_answer} / {tally.replayed}"
    )
    figure("burst duration", f"{seconds:.1f} s")
    assert len(downtime) == restarts
    assert tally.failures == []
    assert tally.posted == total and tally.no_answer > 0
    problems = [
        p for s, script in zip(opened, plan, strict=True) for p in ledger_problems(s, script, keys[s.pk])
    ]
    assert problems == []
    figure("lost / duplicated / ledger differences", "0 / 0 / 0")


def test_app_server_killed_twice_during_a_burst(app_server: AppServer) -> None:
    _burst_with_restarts(app_server, sittings=6, van_each=20, restarts=2, seed=41)


@pytest.mark.slow
def test_app_server_killed_eight_times_during_a_burst(app_server: AppServer) -> None:
    _burst_with_restarts(app_server, sittings=10, van_each=60, restarts=8, seed=43)
