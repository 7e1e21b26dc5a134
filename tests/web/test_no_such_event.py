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

from tests.factories import without_code
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


def _same(body: bytes, slug: str | None, *, table: int | None = None, as_table: int | None = None) -> str:
    text = body.decode() if slug is None else body.decode().replace(slug, "SLUG")
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


# -- the Trung Quân console: its hardware API, its pages and the audience display (by table id) ---


@pytest.fixture
def festival_private(django_user_model: Any) -> Any:
    """A private event (to-tom-diem) whose chiếu has a festival table, run by its own Trung Quân
    (named on the table, no role in the event); a registered player of the event with an account."""
    from tournaments.console.services import ensure_catalogue, table_open
    from tournaments.models import Registration

    small = small_event(prefix="F", is_public=False, game="to-tom-diem")
    ensure_catalogue()
    own_tq = django_user_model.objects.create_user("trung-quan-f")
    small.festival = table_open(
        name="Sân đình kín", event_table=small.table, trung_quan=own_tq, created_by=small.organiser
    )
    small.own_tq = own_tq
    player = Registration.objects.filter(event=small.event).select_related("player").first().player
    player.user = django_user_model.objects.create_user("nguoi-choi-f")
    player.save(update_fields=["user"])
    small.player_user = player.user
    return small


def _compare_ids(make_client: Any, method: str, url_of: Any, real: int, **kwargs: Any) -> int:
    """The same request at a private event's festival table and at a table id that does not exist:
    the same status, the same body and headers (but the id typed), the same number of queries."""
    missing = real + 1000
    right_status, right, right_queries, right_at = _answer_at(make_client(), method, url_of(real), **kwargs)
    wrong_status, wrong, wrong_queries, wrong_at = _answer_at(
        make_client(), method, url_of(missing), **kwargs
    )
    assert right_status == wrong_status, url_of(real)
    assert _same(right, None, table=real, as_table=0) == _same(wrong, None, table=missing, as_table=0)
    assert right_at.replace(f"/{real}/", "/0/") == wrong_at.replace(f"/{missing}/", "/0/")
    assert len(right_queries) == len(wrong_queries), "\n".join(
        [url_of("X"), *right_queries, "----", *wrong_queries]
    )
    assert "kín".encode() not in right
    return right_status


def _answer_at(client: Client, method: str, url: str, **kwargs: Any) -> tuple[int, bytes, list[str], str]:
    with CaptureQueriesContext(connection) as queries:
        response = getattr(client, method)(url, **kwargs)
    shapes = [re.sub(r"\d+|'[^']*'|\"[^\"]*\"", "?", q["sql"]) for q in queries.captured_queries]
    return response.status_code, response.content, shapes, response.get("Location", "")


def _signals(table: Any) -> str:
    return f"/api/v1/tables/{table}/signals"


def test_the_signals_api_answers_a_private_events_table_as_no_table(
    festival_private: Any, django_user_model: Any
) -> None:
    """``/api/v1/tables/<id>/signals`` said 404 for a missing table and 403 (POST) for a private
    event's, so a festival's table ids could be confirmed with any account's token."""
    real = festival_private.festival.pk
    key = Token.objects.create(user=django_user_model.objects.create_user("nguoi-la-hieu")).key
    body = {"data": {"seat": 3, "signal": "tung-tung"}, "content_type": "application/json"}
    for auth, post_status in (({}, 401), ({"HTTP_AUTHORIZATION": f"Token {key}"}, 404)):
        assert _compare_ids(Client, "get", _signals, real, **auth) == 404
        assert _compare_ids(Client, "get", lambda t: f"{_signals(t)}?van=1", real, **auth) == 404
        keyed = {"HTTP_IDEMPOTENCY_KEY": "k-hieu"}
        assert _compare_ids(Client, "post", _signals, real, **auth, **body, **keyed) == post_status
        assert _compare_ids(Client, "post", _signals, real, **auth, **body) == post_status
    assert not festival_private.festival.signals.exists()


def test_who_may_run_or_see_a_private_events_table_is_still_answered_as_before(
    festival_private: Any, django_user_model: Any
) -> None:
    """The table's own Trung Quân (no role in the event) still sends signals and reads them; a
    registered player, who may see the event, is refused with 403 (the table's existence is no
    secret to them); so is a stranger at a public event's table."""
    real = festival_private.festival.pk
    body = {"seat": 3, "signal": "tung-tung"}

    def with_token(user: Any) -> dict[str, str]:
        return {"HTTP_AUTHORIZATION": f"Token {Token.objects.get_or_create(user=user)[0].key}"}

    sent = Client().post(
        _signals(real), body, content_type="application/json", **with_token(festival_private.own_tq)
    )
    assert sent.status_code == 201, sent.content
    player = with_token(festival_private.player_user)
    assert Client().get(_signals(real), **player).json()[0]["display"] == "Phỗng"
    refused = Client().post(_signals(real), body, content_type="application/json", **player)
    assert refused.status_code == 403
    assert without_code(refused.json()) == {
        "error": "Chỉ Trung Quân của chiếu này và ban tổ chức mới được gửi hiệu."
    }
    assert Client().get(_signals(real + 1000), **player).status_code == 404
    # The console's pages: the player sees the display, is refused the console (403), not told 404.
    as_player = Client()
    as_player.force_login(festival_private.player_user)
    assert as_player.get(f"/man-hinh/{real}/").status_code == 200
    assert as_player.get(f"/trung-quan/{real}/").status_code == 403
    as_tq = Client()
    as_tq.force_login(festival_private.own_tq)
    assert as_tq.get(f"/trung-quan/{real}/").status_code == 200
    # A public event's table: anyone may know it is there, so a stranger's refusal is 403.
    from tournaments.models import Event

    Event.objects.filter(pk=festival_private.event.pk).update(is_public=True)
    stranger = with_token(django_user_model.objects.create_user("nguoi-la-cong-khai"))
    assert Client().post(_signals(real), body, content_type="application/json", **stranger).status_code == 403


@pytest.mark.parametrize(
    "method, path",
    [
        ("get", "/trung-quan/{}/"),
        ("get", "/trung-quan/{}/live/"),
        ("post", "/trung-quan/{}/hieu/"),
        ("post", "/trung-quan/{}/noc/"),
        ("post", "/trung-quan/{}/luot/"),
        ("post", "/trung-quan/{}/cai/"),
        ("post", "/trung-quan/{}/van-moi/"),
        ("get", "/trung-quan/{}/phieu-van/"),
        ("post", "/trung-quan/{}/ghi-van/"),
        ("post", "/trung-quan/{}/bat-cai/"),
        ("post", "/trung-quan/{}/u-de/"),
        ("get", "/man-hinh/{}/"),
        ("get", "/man-hinh/{}/dien-bien/"),
    ],
)
def test_the_console_pages_answer_a_private_events_table_as_no_table(
    festival_private: Any, django_user_model: Any, method: str, path: str
) -> None:
    """The console pages said 404 for a missing table and 403 for a private event's to any signed-in
    account; a visitor is sent to sign in from both alike (the console) or told 404 (the display)."""
    real = festival_private.festival.pk
    stranger = django_user_model.objects.create_user("nguoi-la-bang")

    def signed() -> Client:
        client = Client()
        client.force_login(stranger)
        return client

    url_of = path.format
    display = path.startswith("/man-hinh/")
    assert _compare_ids(Client, method, url_of, real) == (404 if display else 302)
    assert _compare_ids(signed, method, url_of, real) == 404
