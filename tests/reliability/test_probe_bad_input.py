"""Probe (issue 20, finding 9): odd JSON and huge ids answer 400 / 404 with a JSON error, never 500.

The probe sent, to ``/api/v1/score``, ``/api/v1/sittings``, ``/api/v1/sittings/<id>/van`` and
``/api/v1/tables/<id>/signals``: JSON nested 1,000 deep, a lone surrogate ``"\\ud800"`` in a string
(and in a key), an id ≥ 2^63 in the body, and ids ≥ 2^63 in the URL. Each got a 500 on SQLite
(``RecursionError``, ``UnicodeEncodeError``, ``OverflowError``). One parser (``scoring/api/parsers.py``)
and one middleware (``scoring/middleware.py``) now answer for every endpoint. Runs on PostgreSQL and,
in the SQLite pass of ``make test``, on the embedded default.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token

from tests.factories import FIVE, open_sitting
from tests.reliability.harness import figure

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

BIG = 2**63
DEEP_ARRAY = "[" * 1000 + "]" * 1000
DEEP_OBJECT = '{"a":' * 1000 + "1" + "}" * 1000


def _bodies(valid: dict[str, Any], big: dict[str, Any]) -> dict[str, str]:
    """The probe's bodies for one endpoint, built on a body it would accept."""
    plain = json.dumps(valid, ensure_ascii=True)
    name_key = next(k for k, v in valid.items() if isinstance(v, str))
    return {
        "nested 1,000 deep (array)": DEEP_ARRAY,
        "nested 1,000 deep (object)": DEEP_OBJECT,
        "nested 1,000 deep inside the body": plain[:-1] + ', "extra": ' + DEEP_ARRAY + "}",
        "lone surrogate in a value": json.dumps({**valid, name_key: "B\ud800nh"}, ensure_ascii=True),
        "lone surrogate in a key": plain[:-1] + ', "\\udc00": 1}',
        "id 2^63 in the body": json.dumps({**valid, **big}),
        "number 10^30 in the body": json.dumps({**valid, **{k: 10**30 for k in big}}),
    }


@pytest.fixture
def world(django_user_model: Any) -> dict[str, Any]:
    from tournaments.console import services

    keeper = django_user_model.objects.create_user("thu-ky-probe")
    sitting = open_sitting(created_by=keeper)
    services.ensure_catalogue()
    tq = django_user_model.objects.create_user("trung-quan-probe")
    table = services.table_open(name="Chiếu thử", players=list(FIVE), trung_quan=tq, created_by=tq)
    return {
        "keeper": Token.objects.create(user=keeper).key,
        "tq": Token.objects.create(user=tq).key,
        "sitting": sitting.pk,
        "table": table.pk,
    }


def _post(path: str, body: str, token: str | None) -> Any:
    client = Client(raise_request_exception=False)
    headers = {"HTTP_IDEMPOTENCY_KEY": str(uuid.uuid4())}
    if token:
        headers["HTTP_AUTHORIZATION"] = f"Token {token}"
    return client.generic("POST", path, body, content_type="application/json", **headers)


def test_odd_json_is_refused_with_400_on_every_probed_endpoint(world: dict[str, Any]) -> None:
    endpoints = {
        "/api/v1/score": (
            {"game": "to-tom-5", "rules": "luat-2005", "cuoc": ["tom"], "streak": 1},
            {"streak": BIG},
            None,
        ),
        "/api/v1/sittings": (
            {"game": "to-tom-5", "rules": "luat-2005", "mode": "quang", "players": list(FIVE)},
            {"players": [*FIVE[:4], BIG]},
            world["keeper"],
        ),
        f"/api/v1/sittings/{world['sitting']}/van": (
            {"seq": 1, "winner": "An", "cuoc": ["tom"]},
            {"seq": BIG},
            world["keeper"],
        ),
        f"/api/v1/tables/{world['table']}/signals": (
            {"seat": 3, "signal": "tung-tung"},
            {"seat": BIG},
            world["tq"],
        ),
    }
    attempts, failures = 0, []
    for path, (valid, big, token) in endpoints.items():
        for what, body in _bodies(valid, big).items():
            attempts += 1
            answer = _post(path, body, token)
            error = (
                answer.json().get("error")
                if answer.get("Content-Type", "").startswith("application/json")
                else None
            )
            if answer.status_code != 400 or not error:
                failures.append(f"{path} · {what}: {answer.status_code} {answer.content[:120]!r}")
    figure("odd JSON bodies: attempts / not a 400 with an error", f"{attempts} / {len(failures)}")
    assert not failures, "\n".join(failures)


def test_the_messages_say_what_is_wrong(world: dict[str, Any]) -> None:
    path = f"/api/v1/sittings/{world['sitting']}/van"
    assert "quá sâu" in _post(path, DEEP_ARRAY, world["keeper"]).json()["error"]
    assert "\\ud800" in _post(path, '{"seq": 1, "winner": "\\ud800"}', world["keeper"]).json()["error"]
    assert str(BIG) in _post(path, json.dumps({"seq": BIG}), world["keeper"]).json()["error"]
    # What the probe found is refused; what a scorekeeper sends still works.
    ok = _post(path, json.dumps({"seq": 1, "winner": "An", "cuoc": ["tom"]}), world["keeper"])
    assert ok.status_code == 201, ok.content


def test_ids_beyond_64_bits_in_urls_answer_404(world: dict[str, Any]) -> None:
    client = Client(raise_request_exception=False)
    auth = {"HTTP_AUTHORIZATION": f"Token {world['keeper']}"}
    reads = [
        f"/api/v1/sittings/{BIG}",
        f"/api/v1/sittings/{BIG}/balances",
        f"/api/v1/sittings/{BIG}/history",
        f"/api/v1/sittings/{BIG}/van",
        f"/api/v1/tables/{BIG}/signals",
        f"/api/v1/sittings/{10**30}",
        f"/so-diem/{BIG}/",
        f"/so-diem/{BIG}/nhat-ky/",
    ]
    writes = [
        f"/api/v1/sittings/{BIG}/van",
        f"/api/v1/sittings/{BIG}/van/1/correct",
        f"/api/v1/sittings/{world['sitting']}/van/{BIG}/correct",
        f"/api/v1/tables/{BIG}/signals",
        f"/api/v1/sittings/{BIG}/settle-up",
    ]
    attempts, failures = 0, []
    client.force_login(Token.objects.get(key=world["keeper"]).user)
    for path in reads:
        attempts += 1
        answer = client.get(path, **auth)
        if answer.status_code != 404:
            failures.append(f"GET {path}: {answer.status_code}")
    for path in writes:
        attempts += 1
        answer = _post(
            path, json.dumps({"seq": 1, "winner": "An", "cuoc": ["tom"], "reason": "x"}), world["keeper"]
        )
        if answer.status_code != 404 or "error" not in answer.json():
            failures.append(f"POST {path}: {answer.status_code}")
    figure("ids ≥ 2^63 in URLs: attempts / not a 404", f"{attempts} / {len(failures)}")
    assert not failures, "\n".join(failures)
