"""Concurrent submissions against a live server on PostgreSQL: the database, not a process lock,
keeps one ván per number and one answer per idempotency key."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from typing import Any

import pytest
from rest_framework.authtoken.models import Token

from scoring.models import LedgerTransaction, Van
from tests.factories import new_key, open_sitting
from tests.ledger.helpers import on_postgres

pytestmark = [on_postgres, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

THREADS = 32
TOM = {"seq": 1, "winner": "An", "cuoc": ["tom"], "discarder": "Bình"}


def _post(url: str, body: dict[str, Any], key: str, token: str) -> tuple[int, Any]:
    """POST like a phone does (with the scorekeeper's token): a dropped connection (the test
    server's listen backlog is small) is retried with the same idempotency key, which is exactly
    what the key makes safe."""
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={
            "Content-Type": "application/json",
            "Idempotency-Key": key,
            "Authorization": f"Token {token}",
        },
    )
    for attempt in range(6):
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.2 * (attempt + 1))
    raise AssertionError("the live server never answered")


def _storm(url: str, keys: list[str], token: str) -> list[tuple[int, Any]]:
    barrier = threading.Barrier(len(keys))
    answers: list[tuple[int, Any] | None] = [None] * len(keys)

    def run(i: int) -> None:
        barrier.wait()
        answers[i] = _post(url, TOM, keys[i], token)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(keys))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert all(a is not None for a in answers)
    return answers  # type: ignore[return-value]


@pytest.fixture
def token(keeper: Any) -> str:
    """The token of ``keeper``, who opens the sittings (the API needs an account)."""
    return Token.objects.create(user=keeper).key


def test_32_submissions_with_one_key_write_one_van_and_answer_alike(
    live_server: Any, keeper: Any, token: str
) -> None:
    sitting = open_sitting(created_by=keeper)
    answers = _storm(f"{live_server.url}/api/v1/sittings/{sitting.pk}/van", [new_key()] * THREADS, token)
    assert {status for status, _ in answers} == {201}
    assert all(body == answers[0][1] for _, body in answers)
    assert Van.objects.filter(sitting=sitting).count() == 1
    assert LedgerTransaction.objects.filter(sitting=sitting).count() == 1
    assert answers[0][1]["sitting"]["balances"]["An"] == 32


def test_32_submissions_of_one_number_with_distinct_keys_append_once(
    live_server: Any, keeper: Any, token: str
) -> None:
    sitting = open_sitting(created_by=keeper)
    answers = _storm(
        f"{live_server.url}/api/v1/sittings/{sitting.pk}/van", [new_key() for _ in range(THREADS)], token
    )
    assert sorted(status for status, _ in answers) == [201] + [409] * (THREADS - 1)
    conflicts = [body for status, body in answers if status == 409]
    assert all(body["state"]["next_seq"] == 2 for body in conflicts)
    assert Van.objects.filter(sitting=sitting).count() == 1
