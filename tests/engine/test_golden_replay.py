"""The golden replays of tests/data/replay_cases.json must give exactly the balances shown."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scoring.engine.settlement import replay, settle_up

CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "replay_cases.json").read_text("utf-8")
)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden_replay_balances_and_pool(case: dict[str, Any]) -> None:
    answer = replay(case["request"])
    assert answer["balances"] == case["balances"]
    assert answer["pool"] == case["pool"]
    assert sum(answer["balances"].values()) + answer["pool"] + answer["ga_trong"] == 0


def test_golden_sitting_van_by_van() -> None:
    """The 'worked' lines of the golden case, ván by ván (points, streak, who moved what)."""
    answer = replay(CASES[0]["request"])
    vans = answer["van"]
    # (points, streak, net gain of the winner or payer named in the worked line)
    assert [(v["points"], v["streak"]) for v in vans] == [
        (8, 1),  # ván 1: Tôm 8
        (12, 2),  # ván 2: Lèo 10 + Thông 1 dịch × 2 = 12
        (0, 0),  # ván 3: hòa
        (18, 1),  # ván 4: Thập Điều, lành làng: scored, not paid
        (10, 1),  # ván 5: xướng thừa Lèo: the declared 10 is the đền làng
        (8, 1),  # ván 6: Tôm 8 at streak 1 (ván 5 was someone else's)
        (10, 1),  # ván 7: Lèo 10
    ]
    assert [len(v["transfers"]) for v in vans] == [4, 3, 0, 0, 4, 1, 1]
    assert vans[5]["transfers"] == [
        {"from": "Dũng", "to": "An", "amount": 32, "why": "Dũng trả An 32 điểm thay làng (8 × 4): ù Tôm"}
    ]
    assert vans[0]["transfers"][0]["why"] == "Bình trả An 8 điểm: ù Tôm"
    assert answer["hoi"] == [{"index": 1, "opened_before_van": 1, "closed_after_van": None}]


def test_golden_sitting_settles_up_in_four_transfers() -> None:
    balances = replay(CASES[0]["request"])["balances"]
    transfers = settle_up(balances)
    assert len(transfers) == 4  # five non-zero balances, no zero-sum subgroup
    after = dict(balances)
    for t in transfers:
        after[t.from_] += t.amount
        after[t.to] -= t.amount
    assert set(after.values()) == {0}
