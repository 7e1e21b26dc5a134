"""Errors a user meets: in Vietnamese on pages, JSON under /api/, and sign-out drops cached pages."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_an_unknown_api_path_is_a_json_404() -> None:
    response = Client().get("/api/v1/sittings/null,null")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert "Không có địa chỉ" in response.json()["error"]


def test_an_unknown_page_is_a_vietnamese_404() -> None:
    response = Client().get("/khong-co-trang-nay/")
    assert response.status_code == 404
    assert "Không tìm thấy trang này" in response.content.decode()


def test_a_forbidden_page_says_why_in_vietnamese(django_user_model: Any) -> None:
    from tests.factories import open_sitting

    sitting = open_sitting(created_by=django_user_model.objects.create_user("chu-so"))
    stranger = Client()
    stranger.force_login(django_user_model.objects.create_user("nguoi-la"))
    response = stranger.get(f"/so-diem/{sitting.pk}/bao-cao.pdf")
    assert response.status_code == 403
    body = response.content.decode()
    assert "nguoi-la" in body and "quyền" in body


def test_signing_out_asks_the_browser_to_drop_cached_pages(django_user_model: Any) -> None:
    client = Client()
    client.force_login(django_user_model.objects.create_user("thu-ky-2"))
    response = client.post("/dang-xuat/")
    assert response.status_code == 302
    assert response["Clear-Site-Data"] == '"cache"'
    assert "_auth_user_id" not in client.session
