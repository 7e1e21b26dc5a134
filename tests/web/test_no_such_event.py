""" "No such event" and "private event" answer the same, everywhere, and after the same work (issue
30, item 6).

At 7854447 a private event's slug could be confirmed by guessing: ``POST /api/v1/sittings/import``
with ``{"table": 4, "event": "guess"}`` said 400 "không thuộc giải 'guess'" for a wrong slug and 404
for the right one, and ``/giai/<guess>/chieu/<id>/ma-pin/`` answered 200 only for the right slug.
Now a table or event the caller may not see is looked up, checked (on a stand-in when there is
none: :data:`tournaments.access.NO_EVENT`), and answered exactly as a missing one. Each test
compares the two answers byte for byte (after the per-request CSRF token and CSP nonce are taken
out and the slug typed is written the same) and the database queries each made.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token

from tests.reliability.probe_setup import small_event

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

GUESS = "hoi-doan-mo"
PER_REQUEST = [
    (re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"'), 'name="csrfmiddlewaretoken" value=""'),
    (re.compile(r'"X-CSRFToken": "[^"]+"'), '"X-CSRFToken": ""'),
    (re.compile(r'nonce="[^"]+"'), 'nonce=""'),
]


@pytest.fixture
def private() -> Any:
    return small_event(prefix="N", is_public=False)


def _same(body: bytes, slug: str, *, table: int | None = None, as_table: int | None = None) -> str:
    text = body.decode().replace(slug, "SLUG")
    if table is not None:
        text = text.replace(f"chiếu số {table}", f"chiếu số {as_table}").replace(
            f"/{table}/", f"/{as_table}/"
        )
    for pattern, fixed in PER_REQUEST:
        text = pattern.sub(fixed, text)
    return text


def _answer(client: Client, method: str, url: str, **kwargs: Any) -> tuple[int, bytes, list[str]]:
    with CaptureQueriesContext(connection) as queries:
        response = getattr(client, method)(url, **kwargs)
    shapes = [re.sub(r"\d+|'[^']*'|\"[^\"]*\"", "?", q["sql"]) for q in queries.captured_queries]
    return response.status_code, response.content, shapes


def _compare(private: Any, make_client: Any, method: str, url_of: Any, **kwargs: Any) -> int:
    """The same request at the private event's address and at a guessed one (same table id)."""
    right_status, right, right_queries = _answer(make_client(), method, url_of(private.event.slug), **kwargs)
    wrong_status, wrong, wrong_queries = _answer(make_client(), method, url_of(GUESS), **kwargs)
    assert right_status == wrong_status
    assert _same(right, private.event.slug) == _same(wrong, GUESS)
    assert len(right_queries) == len(wrong_queries), "\n".join(
        [url_of("X"), *right_queries, "----", *wrong_queries]
    )
    assert private.event.name.encode() not in right
    return right_status


def _stranger(django_user_model: Any) -> Any:
    user = django_user_model.objects.create_user("nguoi-la-n")
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("who", ["visitor", "stranger"])
def test_the_pin_page_and_the_table_page_of_a_private_event_are_those_of_no_event(
    private: Any, django_user_model: Any, who: str
) -> None:
    make = Client if who == "visitor" else (lambda: _stranger_client)
    _stranger_client = _stranger(django_user_model) if who == "stranger" else None
    table = private.table.pk
    pin = "000000" if private.token.pin != "000000" else "111111"
    assert _compare(private, make, "get", lambda slug: f"/giai/{slug}/chieu/{table}/ma-pin/") == 200
    assert (
        _compare(private, make, "post", lambda slug: f"/giai/{slug}/chieu/{table}/ma-pin/", data={"pin": pin})
        == 422
    )
    assert _compare(private, make, "get", lambda slug: f"/giai/{slug}/chieu/{table}/") == 403
    assert _compare(private, make, "get", lambda slug: f"/giai/{slug}/") == 404
    # The right PIN at the right address still lets the phone in (the control).
    assert (
        Client()
        .post(f"/giai/{private.event.slug}/chieu/{table}/ma-pin/", {"pin": private.token.pin})
        .status_code
        == 302
    )


@pytest.mark.parametrize(
    "method, path",
    [("get", ""), ("get", "/standings"), ("get", "/tables"), ("post", "/registrations"), ("post", "/rounds")],
)
def test_every_event_endpoint_of_the_api_answers_a_private_event_as_no_event(
    private: Any, django_user_model: Any, method: str, path: str
) -> None:
    key = Token.objects.create(user=django_user_model.objects.create_user("nguoi-la-api")).key
    body = (
        {"data": {"name": "Giáp"}, "content_type": "application/json", "HTTP_IDEMPOTENCY_KEY": "k"}
        if method == "post"
        else {}
    )
    for auth in ({}, {"HTTP_AUTHORIZATION": f"Token {key}"}):
        status = _compare(
            private, Client, method, lambda slug: f"/api/v1/events/{slug}{path}", **auth, **body
        )
        assert status in (200, 401, 404) if auth else status in (200, 401, 404)
        if auth:
            assert status == 404


def test_the_import_does_not_confirm_a_private_events_slug(private: Any, django_user_model: Any) -> None:
    key = Token.objects.create(user=django_user_model.objects.create_user("nguoi-la-import")).key
    table = private.table.pk
    missing = table + 1000

    def post(body: dict[str, Any]) -> tuple[int, bytes, list[str]]:
        return _answer(
            Client(),
            "post",
            "/api/v1/sittings/import",
            data=body,
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Token {key}",
            HTTP_IDEMPOTENCY_KEY="k-1",
        )

    right = post({"table": table, "event": private.event.slug, "players": ["An"], "van": []})
    wrong = post({"table": table, "event": GUESS, "players": ["An"], "van": []})
    none = post({"table": missing, "event": GUESS, "players": ["An"], "van": []})
    assert right[0] == wrong[0] == none[0] == 404
    assert right[1] == wrong[1]
    assert _same(none[1], GUESS, table=missing, as_table=table) == _same(wrong[1], GUESS)
    assert len(right[2]) == len(wrong[2]) == len(none[2])
    # The organiser, who may see the event, is still told a wrong slug is wrong (400).
    own = Token.objects.create(user=private.organiser).key
    told = Client().post(
        "/api/v1/sittings/import",
        {"table": table, "event": GUESS},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {own}",
        HTTP_IDEMPOTENCY_KEY="k-2",
    )
    assert told.status_code == 400 and GUESS in told.json()["error"]
