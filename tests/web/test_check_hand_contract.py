"""The kiểm bài contract through `manage.py check_hand` and `POST /api/v1/check-hand`."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.web.test_score_contract import run_cli

TOM_HAND = "7v 3m 3s 4v 5v 6v 2v 2m 2s 5m 6m 7m 9v 9m 9s 1v oc 4s 5s 6s 1m"
THAP_DIEU_HAND = "cc 9m 8s tt 9m 9s oc cc tt 6m 7m 8m 7v 3m 3s 4v 5v 6v 2v 2m 2s"


def test_cli_checks_the_documented_example() -> None:
    status, answer = run_cli("check_hand", {"game": "to-tom-5", "hand": TOM_HAND, "declared": ["tom"]})
    assert status == 0
    assert answer["tron"] is True and answer["valid"] is True
    assert answer["lung"] == ["tom"] and answer["cuoc"] == ["tom"]
    assert answer["verdict"] == "ok"
    assert sorted(c for phu in answer["arrangement"] for c in phu) == sorted(TOM_HAND.split())


def test_cli_batch_gives_verdicts_and_waits_in_order() -> None:
    short = TOM_HAND.rsplit(" ", 1)[0]  # 20 cards: without the last 1m
    status, answers = run_cli(
        "check_hand",
        [
            {"game": "to-tom-5", "hand": THAP_DIEU_HAND, "declared": ["thap_dieu"]},
            {"game": "to-tom-5", "hand": TOM_HAND, "declared": ["leo"]},
            {"game": "to-tom-5", "hand": short, "waits": True},
        ],
    )
    assert status == 0
    assert answers[0]["verdict"] == "xuong_thieu"  # the cards also show Lèo and Tôm
    assert answers[1]["verdict"] == "xuong_thua"  # no Lèo in the hand
    assert "1m" in [w["card"] for w in answers[2]["waits"]]


@pytest.mark.parametrize(
    ("payload", "fragment"),
    [
        ({"game": "to-tom-5", "hand": "7v 3m x9"}, "x9"),
        ({"game": "to-tom-5"}, "hand"),
        ({"game": "to-tom-5", "hand": TOM_HAND, "waits": "yes"}, "waits"),
        ([{"game": "to-tom-5", "hand": TOM_HAND}, {"game": "to-tom-5", "hand": "zz"}], "Phần tử số 1"),
    ],
)
def test_cli_bad_input_exits_2(payload: object, fragment: str) -> None:
    status, answer = run_cli("check_hand", payload)
    assert status == 2
    assert fragment in answer["error"]


@pytest.mark.django_db
def test_api_matches_the_cli() -> None:
    request = {"game": "to-tom-5", "hand": THAP_DIEU_HAND}
    response = APIClient().post("/api/v1/check-hand", request, format="json")
    assert response.status_code == 200
    _, cli = run_cli("check_hand", request)
    assert response.json() == cli
    assert set(cli["cuoc"]) == {"thap_dieu", "leo", "tom"}
    bad = APIClient().post(
        "/api/v1/check-hand", {"game": "to-tom-5", "hand": "7v 7v 7v 7v 7v"}, format="json"
    )
    assert bad.status_code == 200 and bad.json()["verdict"] == "sai_so_quan"


@pytest.mark.django_db
def test_kiem_bai_page_shows_verdict_for_a_posted_hand(client) -> None:
    page = client.post(
        "/kiem-bai/", {"game": "to-tom-5", "hand": TOM_HAND, "declared": ["tom"]}
    ).content.decode()
    assert 'data-testid="verdict"' in page and "Bài ù hợp lệ" in page
    assert "Tôm" in page
