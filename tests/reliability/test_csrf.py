"""CSRF with htmx and DRF session auth, with the checks a browser would meet
(``enforce_csrf_checks=True``): the token is the one base.html puts on ``<body hx-headers>``."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

HX_HEADERS = re.compile(r"""<body hx-headers='\{"X-CSRFToken": "([^"]+)"\}'""")
CALCULATOR = "/tinh-diem/"
SITTING = {
    "game": "to-tom-5",
    "rules": "luat-2005",
    "mode": "quang",
    "players": ["An", "Bình", "Chi", "Dũng", "Em"],
}


def _token(client: Client) -> str:
    """The token htmx sends: read from the page as the browser gets it."""
    page = client.get(CALCULATOR)
    found = HX_HEADERS.search(page.content.decode())
    assert found, "base.html must set the CSRF header once on <body>"
    return found.group(1)


def _htmx_post(client: Client, **headers: Any) -> Any:
    return client.post(
        CALCULATOR,
        {"game": "to-tom-5", "rules": "luat-2005", "cuoc": "tom", "streak": "1"},
        HTTP_HX_REQUEST="true",
        **headers,
    )


def _api_post(client: Client, **headers: Any) -> Any:
    return client.post(
        "/api/v1/sittings",
        json.dumps(SITTING),
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        **headers,
    )


def test_htmx_post_needs_the_token_from_the_page() -> None:
    client = Client(enforce_csrf_checks=True)
    token = _token(client)
    assert _htmx_post(client).status_code == 403
    assert _htmx_post(client, HTTP_X_CSRFTOKEN="x" * 64).status_code == 403
    accepted = _htmx_post(client, HTTP_X_CSRFTOKEN=token)
    assert accepted.status_code == 200
    assert "Tôm" in accepted.content.decode()
    assert "<html" not in accepted.content.decode()  # the htmx partial, not the page


def test_htmx_post_from_another_origin_is_refused_even_with_the_token() -> None:
    client = Client(enforce_csrf_checks=True)
    token = _token(client)
    assert _htmx_post(client, HTTP_X_CSRFTOKEN=token, HTTP_ORIGIN="http://evil.example").status_code == 403
    assert _htmx_post(client, HTTP_X_CSRFTOKEN=token, HTTP_ORIGIN="http://testserver").status_code == 200


def test_session_authenticated_api_write_needs_the_token(django_user_model: Any) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(django_user_model.objects.create_user("ghi-diem"))
    token = _token(client)
    refused = _api_post(client)
    assert refused.status_code == 403
    assert "CSRF" in refused.json()["error"]
    accepted = _api_post(client, HTTP_X_CSRFTOKEN=token)
    assert accepted.status_code == 201
    assert accepted.json()["created_by"] == "ghi-diem"


def test_token_authenticated_api_write_needs_no_csrf_token(django_user_model: Any) -> None:
    """Scripts and devices authenticate with a token header, which a browser never sends on its
    own: no CSRF token is needed (DRF's rule), and the write is theirs."""
    from rest_framework.authtoken.models import Token

    user = django_user_model.objects.create_user("may-ghi")
    client = Client(enforce_csrf_checks=True)
    accepted = _api_post(client, HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    assert accepted.status_code == 201
    assert accepted.json()["created_by"] == "may-ghi"


def test_a_signed_in_scorekeepers_page_post_needs_the_token(django_user_model: Any) -> None:
    """The sổ điểm's own forms (htmx or not): a signed-in session alone records nothing."""
    from scoring.services.sittings import sitting_open

    keeper = django_user_model.objects.create_user("thu-ky")
    sitting = sitting_open(created_by=keeper, idempotency_key=None, **SITTING).obj
    client = Client(enforce_csrf_checks=True)
    client.force_login(keeper)
    page = client.get(f"/so-diem/{sitting.pk}/")
    token = HX_HEADERS.search(page.content.decode()).group(1)
    van = {"key": str(uuid.uuid4()), "seq": "1", "winner": "An", "cuoc": "tom"}
    assert client.post(f"/so-diem/{sitting.pk}/van/", van, HTTP_HX_REQUEST="true").status_code == 403
    assert not sitting.van.exists()
    saved = client.post(f"/so-diem/{sitting.pk}/van/", van, HTTP_HX_REQUEST="true", HTTP_X_CSRFTOKEN=token)
    assert saved.status_code == 200 and sitting.van.count() == 1
