"""Probe (issue 20, finding 11): idempotency keys belong to their caller.

The probe: another account sending the same ``Idempotency-Key`` and body as the first got the first
account's 201 answer (its sitting's id and seats). Keys are now looked up in the caller's scope (an
account; a device without one, by its session: a table PIN's or QR link's phone), so the second
caller's request runs as its own, while each caller's own retries are still answered from its key.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring.models import IdempotencyKey, Sitting
from tests.reliability.harness import figure

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

SITTING = {
    "game": "to-tom-5",
    "rules": "luat-2005",
    "mode": "quang",
    "players": ["An", "Bình", "Chi", "Dũng", "Em"],
}


def _api(user: Any) -> APIClient:
    client = APIClient(raise_request_exception=False)
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def _post(client: Any, url: str, body: dict[str, Any], key: str) -> Any:
    return client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key)


def test_another_account_with_the_same_key_and_body_is_not_answered_with_the_first_answer(
    django_user_model: Any,
) -> None:
    first_user = django_user_model.objects.create_user("nguoi-thu-nhat")
    second_user = django_user_model.objects.create_user("nguoi-thu-hai")
    first, second = _api(first_user), _api(second_user)
    probes = {
        "open a sitting": ("/api/v1/sittings", SITTING),
        "add a player": ("/api/v1/players", {"name": "Cụ Tư"}),
        "add a club": ("/api/v1/clubs", {"name": "Làng Mọc Probe"}),
    }
    leaked = []
    for what, (url, body) in probes.items():
        key = str(uuid.uuid4())
        mine = _post(first, url, body, key)
        assert mine.status_code == 201, mine.content
        theirs = _post(second, url, body, key)
        if theirs.get("Idempotent-Replayed") == "true" or (
            theirs.status_code == 201 and theirs.json() == mine.json()
        ):
            leaked.append(f"{what}: {theirs.status_code} {theirs.json()}")
        # The first caller's own retry is still answered from its key, writing nothing.
        again = _post(first, url, body, key)
        assert (
            again.status_code == 201
            and again.json() == mine.json()
            and again["Idempotent-Replayed"] == "true"
        )
    figure(
        "same key and body from another account: attempts / answered with the first's answer",
        f"{len(probes)} / {len(leaked)}",
    )
    assert not leaked, "\n".join(leaked)

    # The second account's sitting is its own, and it cannot read the first one's.
    sittings = Sitting.objects.order_by("id")
    assert [s.created_by_id for s in sittings] == [first_user.pk, second_user.pk]
    assert second.get(f"/api/v1/sittings/{sittings[0].pk}").status_code == 403
    assert IdempotencyKey.objects.values("scope").distinct().count() == 2


def test_two_devices_of_one_table_keep_their_keys_apart() -> None:
    from tests.reliability.authz_world import build_world

    world = build_world()
    table, token = world.own.table, world.own.token
    devices = []
    for _ in range(2):
        device = Client(raise_request_exception=False)
        assert device.get(f"/giai/{table.event.slug}/chieu/{table.pk}/?ma={token.secret}").status_code == 302
        devices.append(device)
    key = str(uuid.uuid4())
    url = f"/api/v1/sittings/{table.sitting_id}/van"
    body = {"seq": 1, "winner": table.sitting.seats.get(position=1).name, "cuoc": ["tom"]}
    first = devices[0].post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key)
    assert first.status_code == 201, first.content
    assert (
        devices[0].post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key)[
            "Idempotent-Replayed"
        ]
        == "true"
    )
    # The other phone did not write ván 1: it is told the ván is taken, with the table's state.
    other = devices[1].post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key)
    assert other.status_code == 409, other.content
    assert other.get("Idempotent-Replayed") is None
    assert other.json()["state"]["next_seq"] == 2
