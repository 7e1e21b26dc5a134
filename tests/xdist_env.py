"""Loaded first (``-p tests.xdist_env``): under pytest-xdist (``make test`` runs two workers) each
worker gets services of its own before Django reads its settings, so the two never see each
other's work. pytest-django already gives each worker its own test database (``test_sotom_gw0``);
this gives each its own Redis databases (the cache and throttle, the Celery broker) and its own
filesystem broker folder, and the servers and Celery workers a test starts inherit them through
the environment. Without xdist (one process) nothing changes.

Redis databases: 0 and 1 are the suite's (``.ci/services.sh``); worker ``gwN`` uses 2 + 3N (cache),
3 + 3N (broker) and 4 + 3N (the journeys' own stack), so two workers use 2–7 of Redis's 16."""

from __future__ import annotations

import os
import re
from pathlib import Path

WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
NUMBER = int(WORKER.removeprefix("gw")) if WORKER.startswith("gw") else None


def redis_db(offset: int) -> int:
    """The Redis database number this process uses for one purpose (0 cache, 1 broker, 2 journeys)."""
    return offset if NUMBER is None else 2 + 3 * NUMBER + offset


def _own_redis_db(name: str, offset: int) -> None:
    url = os.environ.get(name, "")
    if url.startswith("redis://"):
        os.environ[name] = re.sub(r"(/\d*)?$", f"/{redis_db(offset)}", url.rstrip("/"), count=1)


if NUMBER is not None:
    _own_redis_db("REDIS_URL", 0)
    _own_redis_db("CELERY_BROKER_URL", 1)
    if folder := os.environ.get("CELERY_FS_BROKER_DIR"):
        own = Path(folder) / WORKER
        for part in ("queue", "processed", "control"):
            (own / part).mkdir(parents=True, exist_ok=True)
        os.environ["CELERY_FS_BROKER_DIR"] = str(own)
