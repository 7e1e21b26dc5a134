"""schemathesis against ``/api/schema/`` as an anonymous client and as a scorekeeper (a token
header): the ``st`` command against a live daphne server on the test database, every phase
(examples, coverage, fuzzing, stateful) and every check (server errors, status codes, content
types, response schemas and headers, negative and positive data, authentication). Half the
generated sitting ids name a sitting that exists (the scorekeeper's own).

Zero server errors (``ST101`` is never acceptable). The other findings already known are listed
in :data:`KNOWN` with their cause (see docs/reliability.md); any new finding fails the test.
"""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from tests.factories import open_sitting, record_all
from tests.reliability.harness import AppServer, figure

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ST = Path(sys.executable).with_name("st")
SITTING_OPS = ["GET /api/v1/sittings/{id}", "GET /api/v1/sittings/{id}/balances", "GET /api/v1/sittings/{id}/history",
               "GET /api/v1/sittings/{id}/van", "POST /api/v1/sittings/{id}/van",
               "POST /api/v1/sittings/{id}/van/preview", "POST /api/v1/sittings/{id}/van/{seq}/correct",
               "POST /api/v1/sittings/{id}/settle-up", "POST /api/v1/sittings/{id}/van/{seq}/confirm",
               "POST /api/v1/sittings/{id}/van/{seq}/reject"]
LISTS = ["GET /api/v1/clubs", "GET /api/v1/players", "GET /api/v1/rule-sets", "GET /api/v1/sittings"]
WRITES = ["POST /api/v1/clubs", "POST /api/v1/players", "POST /api/v1/sittings", "POST /api/v1/score"]
SIGNALS = ["GET /api/v1/tables/{table_id}/signals", "POST /api/v1/tables/{table_id}/signals"]


def _known() -> dict[tuple[str, str], str]:
    known: dict[tuple[str, str], str] = {}

    def add(code: str, ops: list[str], why: str) -> None:
        known.update({(code, op): why for op in ops})

    # No ST401 (authentication not enforced) is known: every operation that needs an account
    # answers 401 without one, and the public ones say so in the schema (scoring/api/access.py).
    add("ST108", LISTS + ["GET /api/v1/sittings/{id}/history", "GET /api/v1/sittings/{id}/van", "Stateful tests"],
        "a list is answered, the schema says OBJECT (responses={200: OpenApiTypes.OBJECT})")
    add("ST108", ["POST /api/v1/check-hand", *SIGNALS], "an answer's shape differs from its documented schema")
    add("ST105", SITTING_OPS + SIGNALS,
        "a path the URL converter refuses (e.g. /api/v1/sittings/null,null) gets Django's HTML 404")
    add("ST103", ["POST /api/v1/sittings/{id}/settle-up", *SIGNALS], "a status code missing from responses=")
    add("ST202", [*WRITES, *SITTING_OPS, "Stateful tests"],
        "schema-valid bodies the domain refuses with 400 (unknown game, empty Idempotency-Key, …): "
        "the schema is looser than the validation")
    add("ST201", ["POST /api/v1/check-hand", "Stateful tests"], "dealt_khan: null is accepted, the schema says boolean")
    posts = [op for op in [*WRITES, *SITTING_OPS, "POST /api/v1/check-hand", SIGNALS[1]] if op.startswith("POST")]
    add("ST104", posts, "a malformed multipart/form-data body gets an empty 400 from daphne itself (Twisted's "
        "HTTP parser refuses it before Django sees the request)")
    add("ST109", posts, "the same empty 400 of daphne's: no JSON to read")
    return known


KNOWN = _known()


def _run_schemathesis(server: AppServer, tmp: Path, *, examples: int, seed: int, keeper: Any = None) -> dict:
    """Run ``st`` (as ``keeper``, with its token, when given; else anonymously)."""
    sitting = open_sitting(created_by=keeper)
    record_all(sitting, [{"winner": "An", "cuoc": ["tom"], "discarder": "Bình"}])
    config = tmp / "schemathesis.toml"
    config.write_text(
        f'[dictionaries.sittings]\nvalues = [{sitting.pk}]\n\n'
        '[parameters]\n"path.id" = {{ dictionary = "sittings", probability = 0.5 }}\n'.replace("{{", "{").replace("}}", "}")
        + _auth(keeper)
    )
    report = tmp / "report.json"
    done = subprocess.run(
        [str(ST), "--config-file", str(config), "run", f"http://127.0.0.1:{server.port}/api/schema/",
         "--checks", "all", "--max-examples", str(examples), "--seed", str(seed), "--workers", "1",
         "--report", "json", "--report-json-path", str(report), "--no-color"],
        capture_output=True, text=True, timeout=900,
    )
    assert report.exists(), done.stdout[-3000:] + done.stderr[-3000:]
    result = json.loads(report.read_text())
    result["output"] = done.stdout
    return result


def _auth(keeper: Any) -> str:
    """The keeper's token for the schema's ``tokenAuth`` scheme (OpenAPI-aware: schemathesis then
    knows which credentials it sends, and that the session cookie it may add is not one)."""
    if keeper is None:
        return ""
    from rest_framework.authtoken.models import Token

    return f'\n[auth.openapi.tokenAuth]\napi_key = "Token {Token.objects.get_or_create(user=keeper)[0].key}"\n'


def _judge(result: dict, who: str = "anonymous") -> None:
    found = {(f["code"], op): f["title"] for f in result["failures"] for op in f["operations"]}
    server_errors = sorted(op for (code, op) in found if code == "ST101")
    new = sorted(f"{code} {title}: {op}" for (code, op), title in found.items() if (code, op) not in KNOWN)
    cases = result["test_cases"]
    figure(f"schemathesis ({who}, all phases and checks)",
           f"{result['operations']['tested']} operations, {cases['generated']} cases, "
           f"{len(server_errors)} server errors, {len(found)} findings ({len(new)} new), "
           f"{result['running_time']:.0f} s")
    assert result["errors"] == [], result["output"][-3000:]
    assert server_errors == [], f"5xx on {server_errors}:\n{result['output'][-6000:]}"
    assert new == [], "\n".join(new) + "\n" + result["output"][-6000:]


def test_schemathesis_as_anonymous(app_server: AppServer, tmp_path: Path) -> None:
    _judge(_run_schemathesis(app_server, tmp_path, examples=8, seed=20250203))


@pytest.mark.slow
def test_schemathesis_as_anonymous_many_examples(app_server: AppServer, tmp_path: Path) -> None:
    _judge(_run_schemathesis(app_server, tmp_path, examples=100, seed=7))


def test_schemathesis_as_a_scorekeeper(app_server: AppServer, tmp_path: Path, keeper: Any) -> None:
    _judge(_run_schemathesis(app_server, tmp_path, examples=8, seed=20250203, keeper=keeper), "scorekeeper")


@pytest.mark.slow
def test_schemathesis_as_a_scorekeeper_many_examples(app_server: AppServer, tmp_path: Path, keeper: Any) -> None:
    _judge(_run_schemathesis(app_server, tmp_path, examples=100, seed=7, keeper=keeper), "scorekeeper")


NUL = "a\x00"
BASE = {"game": "to-tom-5", "rules": "luat-2005", "mode": "quang", "players": ["An", "Bình", "Chi", "Dũng", "Em"]}


@pytest.mark.django_db
@pytest.mark.parametrize(("path", "body"), [
    ("/api/v1/sittings", {**BASE, "club": NUL}),
    ("/api/v1/sittings", {**BASE, "title": NUL}),
    ("/api/v1/sittings", {**BASE, "players": [NUL, "Bình", "Chi", "Dũng", "Em"]}),
    ("/api/v1/clubs", {"name": NUL, "kind": "lang"}),
    ("/api/v1/players", {"name": NUL}),
    ("/api/v1/players?club=a%00", None),
    ("correct", {"winner": "An", "cuoc": ["tom"], "reason": NUL}),
])
def test_a_nul_byte_in_text_is_a_400_not_a_500(keeper: Any, path: str, body: Any) -> None:
    """Found by schemathesis (``POST /api/v1/sittings`` with ``"club": "\\u0017\\u0000\\u008b"``)."""
    client = Client(raise_request_exception=False)
    client.force_login(keeper)
    if path == "correct":
        sitting = open_sitting(created_by=keeper)
        record_all(sitting, [{"winner": "An", "cuoc": ["tom"]}])
        path = f"/api/v1/sittings/{sitting.pk}/van/1/correct"
    if body is None:
        response = client.get(path)
    else:
        response = client.post(path, json.dumps(body), content_type="application/json",
                               HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()))
    assert response.status_code == 400
