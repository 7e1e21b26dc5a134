"""A platform token's rate limit behind two app servers (two daphne processes on the test database):
counted once across both when the "throttle" cache is shared (the database cache, or Redis), and
per server with the default per-process memory, which is why docs/api.md says to set CACHE_URL."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command

from tests.reliability.harness import HOST, AppServer, request

pytestmark = pytest.mark.django_db(transaction=True)

RATE = 4


def _caches() -> Iterator[Any]:
    yield pytest.param("dbcache://sotom_throttle", True, id="database-cache")
    redis = os.environ.get("REDIS_URL", "")
    yield pytest.param(
        redis.rsplit("/", 1)[0] + "/3" if redis else "",
        True,
        id="redis",
        marks=[pytest.mark.slow, pytest.mark.skipif(not redis, reason="no Redis here (REDIS_URL)")],
    )
    yield pytest.param("locmemcache://", False, id="per-process-memory", marks=pytest.mark.slow)


@pytest.mark.parametrize(("cache_url", "shared"), list(_caches()))
def test_two_app_servers_count_a_token_s_calls_once_with_a_shared_cache(
    cache_url: str, shared: bool, club: Any, organiser: Any
) -> None:
    from tournaments.online.services.tokens import token_create

    if cache_url.startswith("dbcache://"):
        call_command("createcachetable", "sotom_throttle")
    _, raw = token_create(label="Chiếu Online", access="doc", created_by=organiser, club=club)
    env = {"CACHE_URL": cache_url, "PLATFORM_TOKEN_RATE": f"{RATE}/minute"}
    servers = [AppServer(env=env), AppServer(env=env)]
    try:
        for server in servers:
            server.start()
        statuses = []
        for i in range(2 * RATE):
            server = servers[i % 2]
            status, _, _ = request(
                HOST,
                server.port,
                "GET",
                "/api/v1/events",
                headers={"Authorization": f"Bearer {raw}"},
                timeout=10,
            )
            statuses.append(status)
    finally:
        for server in servers:
            server.stop()
    if shared:
        assert statuses == [200] * RATE + [429] * RATE, statuses
    else:
        assert statuses == [200] * (2 * RATE), statuses  # each server let RATE calls through: twice the rate
