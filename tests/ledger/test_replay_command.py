"""``manage.py replay``: the contract of issue 4, through a real subprocess."""

from __future__ import annotations

from pathlib import Path

import pytest

from scoring.models import Sitting
from tests.conftest import load_cases
from tests.ledger.helpers import cli_env, run_json

GOLDEN = load_cases("replay_cases.json")[0]


@pytest.mark.django_db(transaction=True)
def test_golden_case_gives_the_balances_shown_and_saves_nothing(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    status, answer = run_json(["replay"], GOLDEN["request"], env)
    assert status == 0, answer
    assert answer["balances"] == {"An": 110, "Bình": -60, "Chi": 30, "Dũng": -42, "Em": -38}
    assert (answer["pool"], answer["ga_trong"]) == (0, 0)
    assert answer["hoi"] == [{"index": 1, "opened_before_van": 1, "closed_after_van": None}]
    # ván 1: Tôm 8 paid by four; ván 2: Lèo + Thông = 12 paid by three (Em folded).
    assert [(v["points"], v["streak"], len(v["transfers"])) for v in answer["van"][:2]] == [
        (8, 1, 4),
        (12, 2, 3),
    ]
    assert answer["van"][0]["transfers"][0] == {
        "from": "Bình",
        "to": "An",
        "amount": 8,
        "why": "Bình trả An 8 điểm: ù Tôm",
    }
    assert "sitting_id" not in answer
    if "DATABASE_URL" in env and env["DATABASE_URL"].startswith("postgres"):
        assert not Sitting.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_save_keeps_the_sitting_and_prints_its_id(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    batch = [GOLDEN["request"], {**GOLDEN["request"], "van": GOLDEN["request"]["van"][:1]}]
    status, answers = run_json(["replay", "--save"], batch, env)
    assert status == 0, answers
    assert [a["balances"]["An"] for a in answers] == [110, 32]
    assert answers[0]["sitting_id"] != answers[1]["sitting_id"]
    status, again = run_json(["replay"], GOLDEN["request"], env)
    assert status == 0 and again["balances"] == answers[0]["balances"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("payload", "fragment"),
    [
        ("{not json", "JSON không hợp lệ"),
        ({"game": "to-tom-5"}, "Thiếu khóa bắt buộc"),
        (
            {**GOLDEN["request"], "van": [{"winner": "Bin", "cuoc": ["tom"]}]},
            "Ván 1: không có người chơi 'Bin'",
        ),
        ({**GOLDEN["request"], "van": [{"winner": "An", "cuoc": ["tomm"]}]}, "tomm"),
        ({**GOLDEN["request"], "streak": 2}, "Khóa không hợp lệ: streak"),
        ({**GOLDEN["request"], "players": ["An", "Bình"]}, "5"),
        ([GOLDEN["request"], {"game": "to-tom-5"}], "Phần tử số 1"),
    ],
    ids=[
        "bad-json",
        "missing-keys",
        "unknown-player",
        "unknown-cuoc",
        "typed-streak",
        "player-count",
        "batch",
    ],
)
def test_bad_input_exits_2_with_a_vietnamese_error_and_saves_nothing(
    tmp_path: Path, payload: object, fragment: str
) -> None:
    env = cli_env(tmp_path)
    status, answer = run_json(["replay", "--save"], payload, env)
    assert status == 2
    assert set(answer) == {"error"}
    assert fragment in answer["error"]
    if env["DATABASE_URL"].startswith("postgres"):
        assert not Sitting.objects.exists()
