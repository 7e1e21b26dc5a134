"""Retry storm: a proxy on 127.0.0.1 drops 30 % of the app server's answers *after* the server
committed; phones retry with the same idempotency key until they get an answer. Zero ván lost,
zero doubled, balances equal the engine's replay, ``ledger_check`` finds nothing."""

from __future__ import annotations

import random

import pytest

from tests.reliability.checks import ledger_problems, open_for
from tests.reliability.harness import AppServer, LossyProxy, Tally, figure, phone_account, submit_sittings
from tests.reliability.vanmix import scripts

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

DROP = 0.30


def _storm(server: AppServer, *, sittings: int, van_each: int, threads: int, seed: int) -> None:
    rng = random.Random(seed)
    plan = scripts(rng, sittings, van_each)
    keeper, token = phone_account()
    opened = [open_for(script, keeper=keeper) for script in plan]
    tally, keys = Tally(), {}
    with LossyProxy(server.port, drop=DROP, seed=seed) as proxy:
        seconds = submit_sittings(
            proxy.port,
            [(s.pk, script.van) for s, script in zip(opened, plan, strict=True)],
            threads=threads,
            tally=tally,
            keys=keys,
            headers=token,
        )
    total = sittings * van_each
    figure("ván posted (sittings × ván)", f"{total} ({sittings} × {van_each}, {threads} phones)")
    figure(
        "answers dropped by the proxy after commit",
        f"{proxy.counts.dropped} of {proxy.counts.dropped + proxy.counts.forwarded} "
        f"({proxy.counts.dropped / max(1, proxy.counts.dropped + proxy.counts.forwarded):.0%})",
    )
    figure("attempts / answers replayed from the key", f"{tally.attempts} / {tally.replayed}")
    figure("throughput through the proxy", f"{tally.posted / seconds:.0f} ván/s ({seconds:.1f} s)")
    assert tally.failures == []
    assert tally.statuses == {201: tally.attempts - tally.no_answer}
    assert tally.posted == total
    assert proxy.counts.dropped > 0 and tally.replayed > 0  # the storm did hit, and keys answered it
    problems = [
        p for s, script in zip(opened, plan, strict=True) for p in ledger_problems(s, script, keys[s.pk])
    ]
    assert problems == []
    figure("lost / duplicated / ledger differences", "0 / 0 / 0")


def test_retry_storm_200_van_lose_and_double_nothing(app_server: AppServer) -> None:
    _storm(app_server, sittings=8, van_each=25, threads=8, seed=20250203)


@pytest.mark.slow
def test_retry_storm_2000_van_lose_and_double_nothing(app_server: AppServer) -> None:
    _storm(app_server, sittings=20, van_each=100, threads=10, seed=7)
