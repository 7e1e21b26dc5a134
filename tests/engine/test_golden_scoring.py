"""Every worked case of tests/data/scoring_cases.json goes through the engine."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scoring.engine.points import score
from scoring.engine.rules import load_rules

CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).resolve().parent.parent / "data" / "scoring_cases.json").read_text("utf-8")
)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden_case(case):
    request = case["request"]
    rules = load_rules(request["rules"])
    result = score(request["game"], rules, request["cuoc"], request.get("streak", 1))
    assert result.points == case["points"], case["source"]
    assert sum(line.points for line in result.lines) == result.points
    assert result.rules_fingerprint == rules.fingerprint


def test_there_are_golden_cases():
    assert len(CASES) >= 20
