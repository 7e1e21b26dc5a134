"""Every credential input is bounded before it is used, every counter's key is fixed length
(issue 30, item 1).

At 7854447 the lock-out key was ``"login:" + name``: a name longer than 154 characters answered 500
(``DataError``, ``varchar(160)``) on PostgreSQL at the three sign-in doors, and on SQLite it was
stored at any length (10 POSTs with 2.4 MB names grew the database by 55 MB). Now a name over 150
characters or a password over 4096 is refused with the wrong password's own message before any
counter or query (:func:`scoring.views.accounts.throttled_clean`); every key is a kind and a
SHA-256 (:func:`scoring.services.throttle.key`). A body over Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE``
(2.5 MB: a 10 MB name) is a 400 with the site's Vietnamese page (``templates/400.html``), not
Django's bare one. On PostgreSQL and the SQLite file (marked ``sqlite``).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db.models import Max, Sum
from django.db.models.functions import Length
from django.test import Client
from rest_framework.authtoken.models import Token

from scoring.models import AccessThrottle
from tests.reliability.probe_setup import small_event

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

PASSWORD = "mat-khau-that-dai-2025"
DOORS = {"site": "/dang-nhap/", "console": "/trung-quan/dang-nhap/", "admin": "/admin/login/"}
TEN_MB = "a" * 10_000_000
#: Just under DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB), as the probe sent.
BIG = "b" * 2_400_000


@pytest.fixture(autouse=True)
def _fast_hashes(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def staff(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user(
        "quan-tri", password=PASSWORD, is_staff=True, is_superuser=True
    )


def _stored() -> tuple[int, int, int]:
    """What the counters hold: rows, the longest key, all keys' characters."""
    totals = AccessThrottle.objects.aggregate(longest=Max(Length("key")), chars=Sum(Length("key")))
    return AccessThrottle.objects.count(), totals["longest"] or 0, totals["chars"] or 0


@pytest.mark.parametrize("door", DOORS)
def test_a_ten_megabyte_name_is_a_vietnamese_400_and_a_big_one_a_wrong_password(
    staff: Any, door: str
) -> None:
    client = Client(raise_request_exception=False)
    before = _stored()
    too_big = client.post(DOORS[door], {"username": TEN_MB, "password": "sai"})
    assert too_big.status_code == 400
    page = too_big.content.decode()
    assert "Nội dung gửi lên quá lớn" in page and '<html lang="vi">' in page
    wrong = Client().post(DOORS[door], {"username": "quan-tri", "password": "sai"})
    said = wrong.context["form"].non_field_errors()
    before = _stored()
    for field in ("username", "password"):  # just under Django's limit: the wrong password's answer
        body = {"username": "quan-tri", "password": "sai", field: BIG}
        for _ in range(10):
            answer = client.post(DOORS[door], body)
            assert answer.status_code == 200
            assert answer.context["form"].non_field_errors() == said
            assert len(answer.content) < 100_000  # the name is not echoed back
    assert _stored() == before  # no row, no byte: refused before any counter
    # The right password still works at that door, and what it counted is fixed length.
    assert Client().post(DOORS[door], {"username": "quan-tri", "password": PASSWORD}).status_code == 302
    assert Client().post(DOORS[door], {"username": "x" * 150, "password": "sai"}).status_code == 200
    rows, longest, _chars = _stored()
    assert rows >= 1 and longest <= 80


def test_a_ten_megabyte_pin_and_a_big_one_are_refused_as_a_wrong_pin() -> None:
    small = small_event(prefix="B", is_public=False)
    url = f"{small.table_url()}ma-pin/"
    client = Client(raise_request_exception=False)
    too_big = client.post(url, {"pin": TEN_MB})
    assert too_big.status_code == 400 and "Nội dung gửi lên quá lớn" in too_big.content.decode()
    before = _stored()
    for _ in range(5):
        answer = client.post(url, {"pin": BIG})
        assert answer.status_code == 422 and "Mã PIN không đúng" in answer.content.decode()
    rows, longest, _chars = _stored()
    assert rows <= before[0] + 3 and longest <= 80  # a phone's counter and the table's, fixed length
    assert client.post(url, {"pin": small.token.pin}).status_code == 302


def test_a_ten_megabyte_token_is_a_401_and_the_api_answers_json(django_user_model: Any) -> None:
    user = django_user_model.objects.create_user("thu-ky")
    good = Token.objects.create(user=user).key
    client = Client(raise_request_exception=False)
    for header in ("Token " + TEN_MB, "Bearer sotom_" + TEN_MB, "Token " + good + "x" * 100):
        answer = client.get("/api/v1/sittings", HTTP_AUTHORIZATION=header)
        assert answer.status_code == 401 and "error" in answer.json()
    too_big = client.post(
        "/api/v1/sittings",
        f'{{"x": "{TEN_MB}"}}',
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {good}",
    )
    assert too_big.status_code in (400, 413) and "error" in too_big.json()
    assert client.get("/api/v1/sittings", HTTP_AUTHORIZATION=f"Token {good}").status_code == 200
