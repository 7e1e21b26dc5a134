"""User errors carry a message code and parameters, translated at the edge (issues 21 and 22).

* every message code (its Vietnamese template, ``N_``-marked) of the engine, the ledger and the events
  app has an English entry in locale/en/LC_MESSAGES/django.po with the same placeholders, and every
  raise site of a user error (:class:`~scoring.engine.EngineError` and the app's subclasses) gives one;
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
#: Where user errors are raised: the engine, the ledger app and the events app.
SOURCES = [ROOT / "scoring", ROOT / "tournaments"]

pytestmark = pytest.mark.sqlite


def _python_files() -> list[Path]:
    return sorted(
        path for source in SOURCES for path in source.rglob("*.py") if "migrations" not in path.parts
    )


def _templates() -> dict[str, str]:
    """Every ``N_("…")`` template under scoring/ and tournaments/, with where it is."""
    found: dict[str, str] = {}
    for path in _python_files():
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


def _error_names() -> set[str]:
    """The user-error classes: the engine's and every class deriving from one of them (by name)."""
    names = {
        name
        for name, value in vars(engine_errors).items()
        if isinstance(value, type) and issubclass(value, engine_errors.EngineError)
    }
    classes = [
        node for path in _python_files() for node in ast.walk(_tree(path)) if isinstance(node, ast.ClassDef)
    ]
    grown = True
    while grown:
        grown = False
        for node in classes:
            bases = {getattr(base, "id", getattr(base, "attr", None)) for base in node.bases}
            if node.name not in names and bases & names:
                names.add(node.name)
                grown = True
    return names


_TREES: dict[Path, ast.Module] = {}


def _tree(path: Path) -> ast.Module:
    if path not in _TREES:
        _TREES[path] = ast.parse(path.read_text(encoding="utf-8"))
    return _TREES[path]


#: A message written out in place (no code to translate at the edge, or one translated too early).
_NOT_A_CODE = (ast.JoinedStr, ast.Constant, ast.BinOp)
_GETTEXT = {"gettext", "gettext_lazy", "_", "ngettext"}


def test_every_raise_site_of_a_user_error_gives_a_message_code() -> None:
    """``raise XError(N_("…"), **params)`` (or a Msg / an error built elsewhere), never an f-string,
    a bare string or a message translated where it is raised."""
    names = _error_names()
    assert {"SeatingError", "DealerError", "BackupError", "ResultsFinal", "ConsoleError"} <= names
    bad = []
    for path in _python_files():
        for node in ast.walk(_tree(path)):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) in names and node.args):
                continue
            first = node.args[0]
            translated = isinstance(first, ast.Call) and getattr(first.func, "id", None) in _GETTEXT
            if isinstance(first, _NOT_A_CODE) or translated:
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not bad, "messages without a code: " + ", ".join(bad)


def test_the_api_has_one_error_path() -> None:
    """One exception handler words every refusal; no view answers its own."""
    from django.conf import settings

    assert settings.REST_FRAMEWORK["EXCEPTION_HANDLER"] == "scoring.api.errors.exception_handler"
    overrides = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in _python_files()
        for node in ast.walk(_tree(path))
        if isinstance(node, ast.FunctionDef) and node.name == "handle_exception"
    ]
    assert not overrides, overrides


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
    assert caught.value.template == "Không bài ù {game} nào có cùng lúc {a} và {b}: {why}."


def _sitting(api: APIClient) -> int:
    body = {
        "game": "to-tom-5",
        "rules": "luat-2005",
        "mode": "quang",
        "players": ["An", "Bình", "Chi", "Dũng", "Em"],
    }
    return int(api.post("/api/v1/sittings", body, format="json", HTTP_IDEMPOTENCY_KEY="s-1").json()["id"])


@pytest.mark.django_db
def test_the_ledger_s_own_refusals_answer_in_the_language_asked_for(keeper_api: APIClient) -> None:
    pk = _sitting(keeper_api)
    van = {"seq": 5, "winner": "An", "cuoc": ["tom"]}
    url = f"/api/v1/sittings/{pk}/van"
    answer = keeper_api.post(url, van, format="json", HTTP_IDEMPOTENCY_KEY="v-1")
    assert answer.status_code == 409 and answer.json()["error"] == "Ván tiếp theo là số 1, không phải số 5."
    answer = keeper_api.post(url, van, format="json", HTTP_IDEMPOTENCY_KEY="v-2", HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 409 and answer.json()["error"] == "The next ván is number 1, not number 5."
    answer = keeper_api.post(
        f"/api/v1/sittings/{pk + 1000}/van",
        van,
        format="json",
        HTTP_IDEMPOTENCY_KEY="v-3",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert (answer.status_code, answer.json()) == (
        404,
        {"error": f"There is no sitting number {pk + 1000}.", "code": "not_found"},
    )


@pytest.mark.django_db
def test_the_api_s_refusals_answer_in_the_language_asked_for() -> None:
    client = APIClient()
    answer = client.get("/api/v1/sittings", HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 401 and answer.json()["error"].startswith("Sign-in needed: send the site's")
    assert "Token" in answer["WWW-Authenticate"]
    answer = client.get("/api/v1/sittings")
    assert answer.status_code == 401 and answer.json()["error"].startswith("Cần đăng nhập")
    answer = client.get("/api/v1/sittings", HTTP_AUTHORIZATION="Token wrong", HTTP_ACCEPT_LANGUAGE="en")
    assert (answer.status_code, answer.json()["error"]) == (
        401,
        "The sign-in token is wrong or the account is locked: get a new token.",
    )
    answer = client.put("/api/v1/score", {}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert (
        answer.status_code == 405
        and "PUT" in answer.json()["error"]
        and "Địa chỉ" not in answer.json()["error"]
    )
    answer = client.post("/api/v1/tables/999999/signals", {}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 401 and answer.json()["error"].startswith("Log in first: send the header")


@pytest.mark.django_db
def test_an_events_page_refusal_reads_in_the_page_s_language(client: Any, django_user_model: Any) -> None:
    import datetime as dt

    from tournaments.services.events import event_create

    organiser = django_user_model.objects.create_user("bantochuc", password="mat-khau-dai-123")
    event = event_create(
        name="Hội làng Xuân",
        date=dt.date(2025, 2, 3),
        game="to-tom-5",
        rules="luat-2005",
        created_by=organiser,
    )
    client.force_login(organiser)
    form = {"method": "rotation", "remainder": "bye"}
    vietnamese = client.post(f"/giai/{event.slug}/quan-ly/xep-vong/", form).content.decode()
    assert "người đã điểm danh để xếp một chiếu; mới có 0 người." in vietnamese
    english = client.post(f"/en/giai/{event.slug}/quan-ly/xep-vong/", form).content.decode()
    assert "checked-in players are needed to seat a table; there are only 0." in english
    assert "điểm danh để xếp" not in english


@pytest.mark.django_db
def test_a_club_s_role_changes_and_refusals_read_in_english_under_en(django_user_model: Any) -> None:
    """The success messages and a service's refusal, not only the engine's errors."""
    from django.test import Client

    from scoring.services.roles import club_open

    organiser = django_user_model.objects.create_user("chu-so", password="mat-khau-dai-123")
    django_user_model.objects.create_user("thu-ky", password="mat-khau-dai-123")
    club_open(name="Làng Đông", organiser=organiser)
    page = Client()
    page.force_login(organiser)
    htmx = {"HTTP_HX_REQUEST": "true"}
    granted = page.post("/en/lang/lang-dong/vai-tro/", {"username": "thu-ky", "role": "ghi_diem"}, **htmx)
    assert granted.status_code == 200 and "Gave thu-ky the role" in granted.content.decode()
    assert "Đã cấp cho" not in granted.content.decode()
    unknown = page.post("/en/lang/lang-dong/vai-tro/", {"username": "khong-co", "role": "ghi_diem"}, **htmx)
    assert unknown.status_code == 400
    assert (
        "There is no account named &#x27;khong-co&#x27;: that person should register first"
        in unknown.content.decode()
    )
    vietnamese = page.post("/lang/lang-dong/vai-tro/", {"username": "khong-co", "role": "ghi_diem"}, **htmx)
    assert "Không có tài khoản nào tên &#x27;khong-co&#x27;" in vietnamese.content.decode()


@pytest.mark.django_db
def test_the_van_form_names_its_ga_in_the_page_s_language(keeper: Any) -> None:
    from django.test import Client

    from scoring.services.sittings import sitting_open

    sitting = sitting_open(
        game="to-tom-5",
        rules={"preset": "luat-2005", "ga_trong": "cong_nghiep"},
        mode="quang",
        players=["An", "Bình", "Chi", "Dũng", "Em"],
        created_by=keeper,
        idempotency_key=None,
    ).obj
    page = Client()
    page.force_login(keeper)
    english = page.get(f"/en/so-diem/{sitting.pk}/").content.decode()
    assert "Nhái (every other player pays)" in english and "Quân lộ (number of cards)" in english
    assert "mọi nhà khác góp" not in english
    assert "Bị nhái (mọi nhà khác góp)" in page.get(f"/so-diem/{sitting.pk}/").content.decode()
