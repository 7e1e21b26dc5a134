"""The score contract, through the CLI (`manage.py score`) and the API (`POST /api/v1/score`):
every golden case of tests/data/scoring_cases.json, batches, and Vietnamese errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from tests.conftest import load_cases

# The calculator's contract holds on the embedded default too (the SQLite pass of make test).
pytestmark = pytest.mark.sqlite

ROOT = Path(__file__).resolve().parents[2]
CASES = load_cases("scoring_cases.json")


def run_cli(command: str, payload: object) -> tuple[int, object]:
    proc = subprocess.run(
        [sys.executable, "manage.py", command],
        input=payload if isinstance(payload, str) else json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        timeout=120,
    )
    return proc.returncode, json.loads(proc.stdout)


def test_cli_answers_every_golden_case_as_one_batch() -> None:
    status, answers = run_cli("score", [case["request"] for case in CASES])
    assert status == 0
    assert isinstance(answers, list)
    got = {case["name"]: answer["points"] for case, answer in zip(CASES, answers, strict=True)}
    assert got == {case["name"]: case["points"] for case in CASES}


def test_cli_single_request_matches_the_documented_response() -> None:
    request = {
        "game": "to-tom-5",
        "rules": "luat-2005",
        "cuoc": ["xuyen_bi_tu", "thap_dieu", "chi_nay"],
        "streak": 1,
    }
    status, answer = run_cli("score", request)
    assert status == 0
    assert answer["points"] == 46
    assert answer["main"] == "chi_nay"
    assert [(line["cuoc"], line.get("dich"), line["points"]) for line in answer["lines"]] == [
        ("chi_nay", None, 36),
        ("thap_dieu", 3, 6),
        ("xuyen_bi_tu", 2, 4),
    ]
    assert answer["rules_fingerprint"]


@pytest.mark.parametrize(
    ("payload", "fragment"),
    [
        ({"game": "to-tom-5", "rules": "luat-2005", "cuoc": ["tomm"]}, "tomm"),
        ({"game": "to-tom-9", "rules": "luat-2005"}, "to-tom-9"),
        ({"game": "to-tom-5", "rules": "luat-1999"}, "luat-1999"),
        ({"game": "to-tom-5", "rules": "luat-2005", "streak": 0}, "streak"),
        ([{"game": "to-tom-5", "rules": "luat-2005"}, {"game": "to-tom-5"}], "Phần tử số 1"),
        ("{not json", "JSON không hợp lệ"),
    ],
    ids=["unknown-cuoc", "unknown-game", "unknown-rules", "bad-streak", "bad-list-element", "bad-json"],
)
def test_cli_bad_input_exits_2_with_a_vietnamese_error(payload: object, fragment: str) -> None:
    status, answer = run_cli("score", payload)
    assert status == 2
    assert set(answer) == {"error"}
    assert fragment in answer["error"]


@pytest.mark.django_db
@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_api_answers_every_golden_case(case: dict) -> None:
    response = APIClient().post("/api/v1/score", case["request"], format="json")
    assert response.status_code == 200, response.content
    assert response.json()["points"] == case["points"]


@pytest.mark.django_db
def test_api_batch_and_error() -> None:
    client = APIClient()
    ok = client.post("/api/v1/score", [c["request"] for c in CASES[:3]], format="json")
    assert [a["points"] for a in ok.json()] == [c["points"] for c in CASES[:3]]
    bad = client.post(
        "/api/v1/score", {"game": "to-tom-5", "rules": "luat-2005", "cuoc": ["xuyen"]}, format="json"
    )
    assert bad.status_code == 400
    assert "xuyen" in bad.json()["error"]


@pytest.mark.django_db
def test_api_accepts_a_saved_village_rule_set() -> None:
    from scoring.services.rules import village_rules_save

    village_rules_save(name="Làng Đông", preset="luat-2005", overrides={"cuoc": {"kinh_cu": {"main": 24}}})
    response = APIClient().post(
        "/api/v1/score", {"game": "to-tom-5", "rules": "lang-dong", "cuoc": ["kinh_cu", "tom"]}, format="json"
    )
    assert response.json()["points"] == 24 + 2


@pytest.mark.django_db
def test_schema_documents_the_score_endpoint_and_docs_are_served_locally(client) -> None:
    schema = client.get("/api/schema/?format=json").json()
    assert "/api/v1/score" in schema["paths"]
    docs = client.get("/api/docs/").content.decode()
    assert "cdn" not in docs.lower() and "jsdelivr" not in docs.lower()
