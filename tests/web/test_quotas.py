"""Quotas of an account per hour (issue 29, item 5): clubs created, imports (and their ván), ván
recorded; over one, a 429 with a clear message in the request's language and ``Retry-After``, on
the API and the pages. Organisers are not slowed in their own club or festival (a far higher limit,
counted apart)."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import open_sitting
from tests.online.test_import import FIVE, REPLAY
from tests.tournaments.conftest import make_event, seat_names, seated  # noqa: F401 - fixtures

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

TOM = {"winner": "An", "cuoc": ["tom"]}


@pytest.fixture
def stranger(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("nguoi-moi", password="mat-khau-dai-123")


def api_for(user: Any) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return api


def page_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _too_many(answer: Any) -> int:
    assert answer.status_code == 429, (answer.status_code, answer.content[:300])
    seconds = int(answer["Retry-After"])
    assert 0 < seconds <= 3600
    return seconds


def _new_club(api: APIClient, i: int, **headers: Any) -> Any:
    return api.post(
        "/api/v1/clubs",
        {"name": f"Làng Thử {i}"},
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        **headers,
    )


def test_clubs_per_hour_on_the_api_in_both_languages(settings: Any, stranger: Any) -> None:
    settings.QUOTA_CLUBS_PER_HOUR = 2
    api = api_for(stranger)
    assert [_new_club(api, i).status_code for i in range(2)] == [201, 201]
    refused = _new_club(api, 3)
    _too_many(refused)
    assert refused.json()["error"].startswith(
        "Mỗi tài khoản chỉ lập được 2 làng hoặc câu lạc bộ trong một giờ"
    )
    english = _new_club(api, 4, HTTP_ACCEPT_LANGUAGE="en")
    _too_many(english)
    assert english.json()["error"].startswith("An account can create at most 2 villages or clubs an hour")
    from scoring.models import Club

    assert Club.objects.count() == 2


def test_clubs_per_hour_on_the_page_in_both_languages(settings: Any, stranger: Any) -> None:
    settings.QUOTA_CLUBS_PER_HOUR = 1
    client = page_for(stranger)
    assert (
        client.post("/lang/", {"name": "Làng Một", "kind": "lang", "key": str(uuid.uuid4())}).status_code
        == 302
    )
    refused = client.post("/lang/", {"name": "Làng Hai", "kind": "lang", "key": str(uuid.uuid4())})
    _too_many(refused)
    text = refused.content.decode()
    assert "Tạm dừng một lúc" in text and "chỉ lập được 1 làng hoặc câu lạc bộ trong một giờ" in text
    english = client.post("/en/lang/", {"name": "Làng Ba", "kind": "lang", "key": str(uuid.uuid4())})
    _too_many(english)
    assert "An account can create at most 1 villages or clubs an hour" in english.content.decode()
    htmx = client.post("/lang/", {"name": "Làng Bốn", "kind": "lang"}, HTTP_HX_REQUEST="true")
    _too_many(htmx)
    assert htmx.content.decode().startswith('<p class="error" role="alert" data-testid="quota">')


def _van_api(api: APIClient, sitting: Any, seq: int, **headers: Any) -> Any:
    return api.post(
        f"/api/v1/sittings/{sitting.pk}/van",
        {"seq": seq, **TOM},
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        **headers,
    )


def test_van_per_hour_on_the_api_and_the_page(settings: Any, stranger: Any) -> None:
    from scoring.models import Van

    settings.QUOTA_VAN_PER_HOUR = 2
    sitting = open_sitting(created_by=stranger)  # the account's own sitting of no club: counted
    api = api_for(stranger)
    assert [_van_api(api, sitting, seq).status_code for seq in (1, 2)] == [201, 201]
    refused = _van_api(api, sitting, 3)
    _too_many(refused)
    assert refused.json()["error"].startswith("Mỗi tài khoản chỉ ghi được 2 ván trong một giờ")
    english = _van_api(api, sitting, 3, HTTP_ACCEPT_LANGUAGE="en")
    assert english.json()["error"].startswith("An account can record at most 2 ván an hour")
    page = page_for(stranger).post(
        f"/so-diem/{sitting.pk}/van/", {"key": str(uuid.uuid4()), "seq": "3", **TOM}
    )
    _too_many(page)
    assert "chỉ ghi được 2 ván trong một giờ" in page.content.decode()
    assert Van.objects.filter(sitting=sitting).count() == 2


def test_a_club_s_organiser_is_not_slowed_in_their_own_club(
    settings: Any, stranger: Any, django_user_model: Any
) -> None:
    """The organiser of a club records far more in its sittings (counted apart); a scorekeeper of
    the club, in the same sittings, at the plain limit."""
    from scoring.services.roles import club_open, role_grant

    settings.QUOTA_VAN_PER_HOUR, settings.QUOTA_OWN_FACTOR = 2, 20
    club = club_open(name="Làng Đông", organiser=stranger, idempotency_key=None).obj
    sitting = open_sitting(club=club, created_by=stranger)
    api = api_for(stranger)
    assert [_van_api(api, sitting, seq).status_code for seq in range(1, 6)] == [201] * 5
    # Outside their own club, the same account has its plain quota, untouched by those five.
    mine = open_sitting(created_by=stranger)
    assert [_van_api(api, mine, seq).status_code for seq in (1, 2, 3)] == [201, 201, 429]
    clerk = django_user_model.objects.create_user("thu-ky-lang", password="mat-khau-dai-123")
    role_grant(club=club, username=clerk.username, role="ghi_diem", granted_by=stranger)
    other = api_for(clerk)
    assert [_van_api(other, sitting, seq).status_code for seq in (6, 7, 8)] == [201, 201, 429]


def test_an_event_s_organiser_is_not_slowed_at_their_own_tables(
    settings: Any,
    seated: Any,  # noqa: F811 - the imported fixture
    django_user_model: Any,
) -> None:
    event, tables = seated
    organiser = django_user_model.objects.create_user("btc-hoi", password="mat-khau-dai-123")
    event.organisers.add(organiser)
    client = page_for(organiser)
    table = tables[0]
    winner = seat_names(table)[0]

    def record(seq: int) -> Any:
        form = {"winner": winner, "cuoc": ["tom"], "seq": str(seq), "key": str(uuid.uuid4())}
        return client.post(f"/giai/{event.slug}/chieu/{table.pk}/", form)

    settings.QUOTA_VAN_PER_HOUR, settings.QUOTA_OWN_FACTOR = 1, 20
    assert [record(seq).status_code for seq in (1, 2, 3)] == [200, 200, 200]
    settings.QUOTA_OWN_FACTOR = 1  # the same page, once the own limit is met: a 429 with its message
    settings.QUOTA_VAN_PER_HOUR = 3
    refused = record(4)
    _too_many(refused)
    assert "chỉ ghi được 3 ván trong một giờ" in refused.content.decode()


def _import(client: Client, body: Any, **headers: Any) -> Any:
    return client.post(
        "/api/v1/sittings/import",
        json.dumps(body),
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        **headers,
    )


def test_imports_and_imported_van_per_hour(settings: Any, stranger: Any, django_user_model: Any) -> None:
    """A scorekeeper of someone else's club: imports and their ván at the plain limits; the club's
    organiser, in their own club, far more."""
    from scoring.models import Sitting
    from scoring.services.roles import club_open, role_grant

    owner = django_user_model.objects.create_user("chu-so", password="mat-khau-dai-123")
    club = club_open(name="Làng Nhập", organiser=owner, idempotency_key=None).obj
    role_grant(club=club, username=stranger.username, role="ghi_diem", granted_by=owner)
    body = {**REPLAY, "club": club.slug}
    settings.QUOTA_IMPORTS_PER_HOUR, settings.QUOTA_IMPORTED_VAN_PER_HOUR, settings.QUOTA_OWN_FACTOR = (
        2,
        6,
        20,
    )
    client = page_for(stranger)
    assert _import(client, body).status_code == 201  # 4 ván
    too_many_van = _import(client, body)  # 4 more: only 2 left this hour
    _too_many(too_many_van)
    assert too_many_van.json()["error"].startswith(
        "Mỗi tài khoản chỉ nhập được 6 ván trong một giờ; canh này có 4 ván mà giờ này chỉ còn nhập được 2 ván"
    )
    english = _import(client, body, HTTP_ACCEPT_LANGUAGE="en")
    assert english.status_code == 429 and english.json()["error"].startswith(
        "An account can import at most 6 ván"
    )
    small = {**body, "van": REPLAY["van"][:1], "players": FIVE}
    assert _import(client, small).status_code == 201
    refused = _import(client, small)  # a third import: 2 an hour
    _too_many(refused)
    assert refused.json()["error"].startswith("Mỗi tài khoản chỉ nhập được 2 canh bài trong một giờ")
    assert Sitting.objects.filter(club=club).count() == 2
    # The organiser, in their own club: 40 imports and 120 ván an hour.
    boss = page_for(owner)
    assert [_import(boss, body).status_code for _ in range(4)] == [201] * 4


def test_a_refused_or_replayed_write_does_not_use_up_the_quota(settings: Any, stranger: Any) -> None:
    """Only a write that happened counts: mistyped clubs (400) and a replay of the same key are given
    back, so a person fixing a form is never locked out by their own mistakes."""
    settings.QUOTA_CLUBS_PER_HOUR = 2
    api = api_for(stranger)
    for _ in range(5):
        bad = api.post(
            "/api/v1/clubs", {"name": "\u200b"}, format="json", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4())
        )
        assert bad.status_code == 400
    key = str(uuid.uuid4())
    first = api.post("/api/v1/clubs", {"name": "Làng Một"}, format="json", HTTP_IDEMPOTENCY_KEY=key)
    again = api.post("/api/v1/clubs", {"name": "Làng Một"}, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert (first.status_code, again.status_code, again["Idempotent-Replayed"]) == (201, 201, "true")
    assert _new_club(api, 2).status_code == 201
    _too_many(_new_club(api, 3))
