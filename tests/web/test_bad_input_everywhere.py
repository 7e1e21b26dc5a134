"""Bad input anywhere answers exit 2 / HTTP 400 with ``{"error": …}`` in Vietnamese, and in English
on the API with ``Accept-Language: en`` (issue 21 acceptance): an unknown slug, a wrong card code,
conflicting cước, an unseated player, a negative or oversized number, a wrong type, a body that is
not JSON. Never a traceback, never a silent number."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories import without_code
from tests.web.test_conflicts_entry_points import cli

pytestmark = [pytest.mark.django_db]

FIVE = ["An", "Bình", "Chi", "Dũng", "Em"]

SCORE = [
    ({"game": "to-tom-9", "rules": "luat-2005"}, "Không có trò chơi 'to-tom-9'", "No game 'to-tom-9'"),
    ({"game": "to-tom-5", "rules": "luat-2099"}, "Không có bộ luật 'luat-2099'", "No rule set 'luat-2099'"),
    ({"game": "to-tom-5", "rules": "luat-2005", "cuoc": ["leoo"]}, "Không có cước 'leoo'", "No cước 'leoo'"),
    (
        {"game": "to-tom-5", "rules": "luat-2005", "cuoc": ["kinh_cu", "leo"]},
        "Kính Cụ cần 20 quân đen và 1 Ông Cụ",
        "Kính Cụ needs 20 black cards and 1 Ông Cụ",
    ),
    (
        {"game": "tai-ban", "rules": "tai-ban", "cuoc": ["suong", "tai_ban"]},
        "Suông cần từ 9 đến 18 lưng",
        "Suông needs 9 to 18 lưng",
    ),
    ({"game": "chan", "rules": "chan", "cuoc": ["leo"] * 5}, "Lèo có 5 lần", "Lèo is given 5 times"),
    (
        {"game": "to-tom-5", "rules": "luat-2005", "streak": -1},
        "'streak' phải là số nguyên từ 1 đến 1000",
        "'streak' must be a whole number from 1 to 1000",
    ),
    (
        {"game": "to-tom-5", "rules": "luat-2005", "streak": 10**15},
        "(nhận được 1000000000000000)",
        "(got 1000000000000000)",
    ),
    (
        {"game": "to-tom-5", "rules": {"preset": "luat-2005", "suong": -4}},
        "Luật: 'suong' phải là số nguyên từ 0 đến 1000",
        "Rules: 'suong' must be a whole number from 0 to 1000",
    ),
    (
        {"game": "to-tom-5", "rules": {"preset": "luat-2005", "dich": "2"}},
        "Luật: 'dich' phải là số nguyên",
        "Rules: 'dich' must be a whole number",
    ),
    ({"game": 5, "rules": "luat-2005"}, "'game' phải là một chuỗi", "'game' must be a string"),
    (
        {"game": "to-tom-5", "rules": "luat-2005", "cuoc": "tom"},
        "'cuoc' phải là một danh sách chuỗi",
        "'cuoc' must be a list of strings",
    ),
]


@pytest.mark.parametrize(("body", "vi", "en"), SCORE)
def test_score_refusals_from_the_cli_and_the_api(body: dict[str, Any], vi: str, en: str) -> None:
    code, answer = cli("score", body)
    assert code == 2 and vi in answer["error"]
    client = APIClient()
    response = client.post("/api/v1/score", body, format="json")
    assert (response.status_code, without_code(response.json())) == (400, answer)
    english = client.post("/api/v1/score", body, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert english.status_code == 400 and en in english.json()["error"]


CHECK = [
    (
        {"game": "to-tom-5", "hand": "7v 3m 3x"},
        "Không nhận ra quân bài thứ 3: '3x'",
        "Card number 3 not recognised: '3x'",
    ),
    ({"game": "chan", "hand": "oc oc"}, "không có trong bộ bài Chắn", "is not in the Chắn deck"),
    (
        {"game": "to-tom-5", "hand": "7v", "waits": "yes"},
        "'waits' phải là true hoặc false",
        "'waits' must be true or false",
    ),
    (
        {"game": "tai-ban", "hand": "7v", "rules": "luat-2005"},
        "dành cho nhóm 'to_tom'",
        "is for the 'to_tom' games",
    ),
]


@pytest.mark.parametrize(("body", "vi", "en"), CHECK)
def test_check_hand_refusals_from_the_cli_and_the_api(body: dict[str, Any], vi: str, en: str) -> None:
    code, answer = cli("check_hand", body)
    assert code == 2 and vi in answer["error"]
    client = APIClient()
    assert without_code(client.post("/api/v1/check-hand", body, format="json").json()) == answer
    english = client.post("/api/v1/check-hand", body, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert english.status_code == 400 and en in english.json()["error"]


REPLAY = [
    ({"van": [{"winner": "Bin", "cuoc": ["tom"]}]}, "Ván 1: không có người chơi 'Bin' (khóa 'winner')."),
    (
        {"van": [{"winner": "An", "cuoc": ["bach_dinh", "thap_dieu"]}]},
        "Ván 1: Không bài ù Tổ Tôm Bí Ngũ nào có cùng lúc Bạch Định và Thập Điều",
    ),
    ({"van": [{"winner": "An"}], "mode": "gom", "gom": 10**19}, "'gom' phải là số nguyên từ 1 đến 1000000"),
    (
        {
            "van": [{"result": "hoa", "ga": [{"kind": "nhai", "player": "An", "count": 10**20}]}],
            "rules": {"preset": "luat-2005", "ga_trong": "cong_nghiep"},
        },
        "Ván 1: 'ga.count' phải là số nguyên từ 1 đến 99",
    ),
    ({"van": [{"winner": "An", "cuoc": ["tom"], "chiu": "Bình"}]}, "Ván 1: 'chiu' phải là một danh sách tên"),
    ({"players": ["An", "An", "Chi", "Dũng", "Em"], "van": []}, "Canh bài có hai người cùng tên “An”"),
]


@pytest.mark.parametrize(("change", "vi"), REPLAY)
def test_replay_refusals_from_the_cli(change: dict[str, Any], vi: str) -> None:
    body = {"game": "to-tom-5", "rules": "luat-2005", "mode": "quang", "players": FIVE, **change}
    code, answer = cli("replay", body)
    assert code == 2 and vi in answer["error"], answer


def test_a_body_that_is_not_json_is_refused_in_the_language_asked_for() -> None:
    client = APIClient()
    raw = client.post("/api/v1/score", "{not json", content_type="application/json")
    assert raw.status_code == 400 and raw.json()["error"].startswith("JSON không hợp lệ (dòng 1, cột 2)")
    raw = client.post(
        "/api/v1/score", "{not json", content_type="application/json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert raw.status_code == 400 and raw.json()["error"].startswith("Invalid JSON (line 1, column 2)")
    form = client.post("/api/v1/score", "game=to-tom-5", content_type="text/plain", HTTP_ACCEPT_LANGUAGE="en")
    assert (form.status_code, without_code(form.json())) == (
        415,
        {"error": "The request body must be JSON (header Content-Type: application/json)."},
    )


def test_the_van_api_refuses_an_unseated_player_in_either_language(keeper_api: APIClient) -> None:
    sitting = keeper_api.post(
        "/api/v1/sittings",
        {"game": "to-tom-5", "rules": "luat-2005", "mode": "quang", "players": FIVE},
        format="json",
        HTTP_IDEMPOTENCY_KEY="s-1",
    ).json()
    van = {"seq": 1, "winner": "Bin", "cuoc": ["tom"]}
    url = f"/api/v1/sittings/{sitting['id']}/van"
    vi = keeper_api.post(url, van, format="json", HTTP_IDEMPOTENCY_KEY="v-1")
    assert (vi.status_code, without_code(vi.json())) == (
        400,
        {"error": "Ván 1: không có người chơi 'Bin' (khóa 'winner')."},
    )
    en = keeper_api.post(url, van, format="json", HTTP_IDEMPOTENCY_KEY="v-2", HTTP_ACCEPT_LANGUAGE="en")
    assert (en.status_code, without_code(en.json())) == (
        400,
        {"error": "Ván 1: there is no player 'Bin' (key 'winner')."},
    )
    big = keeper_api.post(
        url,
        {
            "seq": 1,
            "winner": "An",
            "cuoc": ["tom"],
            "chiu": ["Bình"],
            "ga": [{"kind": "nhai", "player": "Chi", "count": 10**15}],
        },
        format="json",
        HTTP_IDEMPOTENCY_KEY="v-3",
    )
    assert big.status_code == 400 and "'ga.count' phải là số nguyên từ 1 đến 99" in big.json()["error"]
