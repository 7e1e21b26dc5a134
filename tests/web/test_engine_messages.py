"""Engine errors carry a message code and parameters, translated at the edge (issues 21 and 22).

* every message code of the engine (its Vietnamese template, ``N_``-marked) has an English entry in
  locale/en/LC_MESSAGES/django.po with the same placeholders, and every raise site gives one;
* a bad input answers in Vietnamese by default, in English under ``/en/`` and on the API with
  ``Accept-Language: en``; the CLI answers in Vietnamese with exit code 2.
"""

from __future__ import annotations

import ast
import string
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation
from django.utils.translation import trans_real
from rest_framework.test import APIClient

import scoring.engine.errors as engine_errors

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "scoring" / "engine"

pytestmark = pytest.mark.sqlite


def _templates() -> dict[str, str]:
    """Every ``N_("…")`` template under scoring/, with where it is."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "scoring").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "N_" and node.args:
                arg = node.args[0]
                assert isinstance(arg, ast.Constant) and isinstance(arg.value, str), f"{path}:{node.lineno}"
                found.setdefault(arg.value, f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def _fields(template: str) -> list[str]:
    return sorted(name for _, name, _, _ in string.Formatter().parse(template) if name)


def test_every_engine_message_code_has_its_english_with_the_same_placeholders() -> None:
    templates = _templates()
    assert len(templates) > 100
    catalog = trans_real.translation("en")._catalog  # the compiled django.po (make messages)
    missing = [f"{where}: {t!r}" for t, where in templates.items() if t not in catalog]
    assert not missing, "no English for:\n" + "\n".join(missing)
    for template in templates:
        english = catalog[template]
        assert english.strip(), template
        assert _fields(english) == _fields(template), (template, english)


_ERROR_NAMES = {
    name
    for name, value in vars(engine_errors).items()
    if isinstance(value, type) and issubclass(value, engine_errors.EngineError)
}


def test_every_raise_site_of_the_engine_gives_a_message_code() -> None:
    """``raise XError(N_("…"), **params)`` (or a Msg / an error built elsewhere), never an f-string."""
    bad = []
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (
                isinstance(node, ast.Call) and getattr(node.func, "id", None) in _ERROR_NAMES and node.args
            ):
                continue
            first = node.args[0]
            if isinstance(first, ast.JoinedStr | ast.Constant | ast.BinOp):
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not bad, "messages without a code: " + ", ".join(bad)


CONFLICT = {"game": "to-tom-5", "rules": "luat-2005", "cuoc": ["bach_dinh", "thap_dieu"]}
VI = (
    "Không bài ù Tổ Tôm Bí Ngũ nào có cùng lúc Bạch Định và Thập Điều: Bạch Định cần cả 21 quân đen; "
    "Thập Điều cần đúng 10 quân đỏ."
)
EN = (
    "No winning Tổ Tôm Bí Ngũ hand can hold both Bạch Định and Thập Điều: Bạch Định needs all 21 cards black; "
    "Thập Điều needs exactly 10 red cards."
)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "vi", "en"),
    [
        (CONFLICT, VI, EN),
        (
            {"game": "to-tom-5", "rules": "luat-2005", "cuoc": ["tomm"]},
            "Không có cước 'tomm'. Có phải ý bạn là: 'tom'?",
            "No cước 'tomm'. Did you mean: 'tom'?",
        ),
        ({"game": "to-tom-6", "rules": "luat-2005"}, "Không có trò chơi 'to-tom-6'.", "No game 'to-tom-6'."),
        (
            {"game": "to-tom-5", "rules": {"preset": "luat-2005", "cuoc": {"tom": {"main": 2**62}}}},
            "Luật: 'cuoc.tom.main' phải là số nguyên từ 0 đến 100000 (nhận được 4611686018427387904).",
            "Rules: 'cuoc.tom.main' must be a whole number from 0 to 100000 (got 4611686018427387904).",
        ),
        (
            {"game": "to-tom-5", "rules": "luat-2005", "streak": "2"},
            "'streak' phải là số nguyên từ 1 đến 1000 (nhận được '2').",
            "'streak' must be a whole number from 1 to 1000 (got '2').",
        ),
        (
            [
                {"game": "to-tom-5", "rules": "luat-2005"},
                {"game": "to-tom-5", "rules": "luat-2005", "cuoc": ["leo"] * 5},
            ],
            "Phần tử số 1: Lèo có 5 lần",
            "Item 1: Lèo is given 5 times",
        ),
    ],
)
def test_api_answers_in_the_language_asked_for(body: Any, vi: str, en: str) -> None:
    client = APIClient()
    answer = client.post("/api/v1/score", body, format="json")
    assert answer.status_code == 400 and vi in answer.json()["error"]
    answer = client.post("/api/v1/score", body, format="json", HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.8")
    assert answer.status_code == 400 and en in answer.json()["error"]
    assert answer["Content-Language"] == "en" and "Accept-Language" in answer["Vary"]
    answer = client.post("/api/v1/score", body, format="json", HTTP_ACCEPT_LANGUAGE="fr")
    assert vi in answer.json()["error"]


@pytest.mark.django_db
def test_the_api_s_van_entry_refuses_an_impossible_win_in_either_language(keeper_api: APIClient) -> None:
    sitting = keeper_api.post(
        "/api/v1/sittings",
        {
            "game": "to-tom-5",
            "rules": "luat-2005",
            "mode": "quang",
            "players": ["An", "Bình", "Chi", "Dũng", "Em"],
        },
        format="json",
        HTTP_IDEMPOTENCY_KEY="s-1",
    ).json()
    van = {"seq": 1, "winner": "An", "cuoc": ["bach_dinh", "thap_dieu"]}
    answer = keeper_api.post(
        f"/api/v1/sittings/{sitting['id']}/van", van, format="json", HTTP_IDEMPOTENCY_KEY="v-1"
    )
    assert answer.status_code == 400 and answer.json()["error"] == "Ván 1: " + VI
    answer = keeper_api.post(
        f"/api/v1/sittings/{sitting['id']}/van",
        van,
        format="json",
        HTTP_IDEMPOTENCY_KEY="v-2",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert answer.status_code == 400 and answer.json()["error"] == "Ván 1: " + EN
    assert not keeper_api.get(f"/api/v1/sittings/{sitting['id']}/van").json()


@pytest.mark.django_db
def test_pages_answer_in_their_language(client: Any) -> None:
    data = {"game": "to-tom-5", "rules": "luat-2005", "cuoc": ["bach_dinh", "thap_dieu"], "streak": "1"}
    assert VI in client.post("/tinh-diem/", data).content.decode()
    english = client.post("/en/tinh-diem/", data).content.decode()
    assert EN in english and VI not in english


def test_translation_follows_the_active_language_and_falls_back_to_vietnamese() -> None:
    from scoring.engine import score

    with pytest.raises(engine_errors.ConflictError) as caught:
        score("to-tom-5", "luat-2005", ["bach_dinh", "thap_dieu"])
    with translation.override("en"):
        assert caught.value.message == EN
        assert str(caught.value) == EN
    with translation.override("vi"):
        assert caught.value.message == VI
    assert caught.value.render() == VI  # the engine's own text, whatever is installed
    assert caught.value.code == "Không bài ù {game} nào có cùng lúc {a} và {b}: {why}."
