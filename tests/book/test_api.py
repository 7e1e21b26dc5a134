"""The club book's API: ``GET /api/v1/clubs/{slug}/balances`` and ``…/members/{player}/statement``,
their exact contract, who sees which rows, and bad dates answered 400 in Vietnamese (English with
``Accept-Language: en``)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from scoring.models import Player
from scoring.periods import lunar_year
from scoring.selectors.book import book
from scoring.selectors.statement import statement
from tests.book.conftest import member_user, season

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db]


@pytest.fixture
def world(club: Any, organiser: Any) -> dict[str, Any]:
    return season(club, organiser)


def _client(user: Any) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_balances_answer_the_contract_for_the_treasurer(
    world: dict[str, Any], club: Any, treasurer: Any
) -> None:
    from scoring.services.ratings import rebuild_ratings

    rebuild_ratings(club_id=club.pk)
    answer = _client(treasurer).get(f"/api/v1/clubs/{club.slug}/balances?from=2025-01-29&to=2026-02-16")
    assert answer.status_code == 200
    body = answer.json()
    assert list(body) == ["club", "from", "to", "members", "settle_up"]
    assert (body["club"], body["from"], body["to"]) == (club.slug, "2025-01-29", "2026-02-16")
    expected = book(club, lunar_year(2025))
    assert body["members"] == [
        {
            "player": m.name,
            "points": m.points,
            "van": m.van,
            "wins": m.wins,
            "sittings": m.sittings,
            "rating": round(m.rating.ordinal, 2),
        }
        for m in expected.members
    ]
    assert all(
        set(row) == {"player", "points", "van", "wins", "sittings", "rating"} for row in body["members"]
    )
    assert body["settle_up"] == [{"from": a.name, "to": b.name, "amount": n} for a, b, n in expected.plan]
    assert body["settle_up"] and len(body["settle_up"]) <= len(body["members"]) - 1


def test_without_dates_the_period_is_this_lunar_year(
    world: dict[str, Any], club: Any, organiser: Any
) -> None:
    import time_machine

    from tests.book.conftest import at

    with time_machine.travel(at(__import__("datetime").date(2025, 8, 1)), tick=False):
        body = _client(organiser).get(f"/api/v1/clubs/{club.slug}/balances").json()
    assert (body["from"], body["to"]) == ("2025-01-29", "2026-02-16")
    assert {m["player"] for m in body["members"]} == {m.name for m in book(club, lunar_year(2025)).members}


def test_a_member_sees_only_their_own_row_and_statement(
    world: dict[str, Any], club: Any, django_user_model: Any
) -> None:
    user = member_user(django_user_model, club, "Bác Năm", "bac-nam")
    client = _client(user)
    body = client.get(f"/api/v1/clubs/{club.slug}/balances?from=2025-01-29&to=2026-02-16").json()
    assert [row["player"] for row in body["members"]] == ["Bác Năm"]
    assert all("Bác Năm" in (t["from"], t["to"]) for t in body["settle_up"])
    own = Player.objects.get(club=club, name="Bác Năm")
    other = Player.objects.get(club=club, name="Cụ Tư")
    mine = client.get(f"/api/v1/clubs/{club.slug}/members/{own.pk}/statement?from=2025-01-29&to=2026-02-16")
    assert mine.status_code == 200 and mine.json()["player"] == "Bác Năm"
    refused = client.get(f"/api/v1/clubs/{club.slug}/members/{other.pk}/statement")
    assert refused.status_code == 403 and "error" in refused.json()
    assert client.get(f"/api/v1/clubs/{club.slug}/members/Cụ Tư/statement").status_code == 403


def test_the_statement_by_id_or_by_name_equals_the_statement(
    world: dict[str, Any], club: Any, treasurer: Any
) -> None:
    client = _client(treasurer)
    player = Player.objects.get(club=club, name="Chú Sáu")
    by_id = client.get(
        f"/api/v1/clubs/{club.slug}/members/{player.pk}/statement?from=2025-01-29&to=2026-02-16"
    )
    by_name = client.get(f"/api/v1/clubs/{club.slug}/members/Chú Sáu/statement?from=2025-01-29&to=2026-02-16")
    assert by_id.status_code == 200 and by_id.json() == by_name.json()
    # A name is found as people read it (case, tone marks placed on another vowel), as the sổ điểm finds it.
    typed = client.get(
        f"/api/v1/clubs/{club.slug}/members/  chú   sáu /statement?from=2025-01-29&to=2026-02-16"
    )
    assert typed.status_code == 200 and typed.json() == by_name.json()
    body = by_id.json()
    st = statement(club, lunar_year(2025), player)
    assert (body["points"], body["settled"], body["open"], body["van"]) == (
        st.points,
        st.settled,
        st.open,
        st.van,
    )
    assert sum(v["delta"] for c in body["canh"] for v in c["van"]) == st.points
    assert client.get(f"/api/v1/clubs/{club.slug}/members/Không Ai/statement").status_code == 404


@pytest.mark.parametrize(
    ("query", "vi", "en"),
    [
        ("from=2025-02-30", "'from' phải là một ngày dạng YYYY-MM-DD", "'from' must be a date as YYYY-MM-DD"),
        ("from=hôm-qua&to=2025-03-01", "'from' phải là một ngày", "'from' must be a date"),
        ("from=2025-03-02&to=2025-03-01", "phải từ ngày đầu", "must not be before the first day"),
        ("to=25-03-01", "'to' phải là một ngày", "'to' must be a date"),
        # Beyond the lunar calendar's years (schemathesis: year 446 answered 500).
        (
            "from=0446-01-05&to=0042-08-27",
            "'from' phải là một ngày từ 1901-01-01",
            "'from' must be a date from 1901",
        ),
        (
            "from=2025-01-01&to=2100-01-01",
            "'to' phải là một ngày từ 1901-01-01",
            "'to' must be a date from 1901",
        ),
    ],
)
def test_bad_dates_are_400_in_vietnamese_or_english(
    world: dict[str, Any], club: Any, treasurer: Any, query: str, vi: str, en: str
) -> None:
    client = _client(treasurer)
    for path in (f"/api/v1/clubs/{club.slug}/balances", f"/api/v1/clubs/{club.slug}/members/1/statement"):
        answer = client.get(f"{path}?{query}")
        assert answer.status_code == 400 and vi in answer.json()["error"], answer.content
        answer = client.get(f"{path}?{query}", HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9")
        assert answer.status_code == 400 and en in answer.json()["error"], answer.content


def test_who_may_call(world: dict[str, Any], club: Any, django_user_model: Any) -> None:
    stranger = django_user_model.objects.create_user("nguoi-la")
    url = f"/api/v1/clubs/{club.slug}/balances"
    assert _client(None).get(url).status_code == 401
    refused = _client(stranger).get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 403 and "cannot see this village" in refused.json()["error"]
    assert _client(stranger).get("/api/v1/clubs/khong-co/balances").status_code == 404


def test_the_endpoints_are_in_the_openapi_schema() -> None:
    schema = Client().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    balances = schema["paths"]["/api/v1/clubs/{slug}/balances"]["get"]
    assert {p["name"] for p in balances["parameters"]} >= {"from", "to", "slug"}
    component = schema["components"]["schemas"]["ClubBalances"]
    assert set(component["properties"]) == {"club", "from", "to", "members", "settle_up"}
    row = schema["components"]["schemas"]["ClubBalanceRow"]
    assert set(row["properties"]) == {"player", "points", "van", "wins", "sittings", "rating"}
    assert "/api/v1/clubs/{slug}/members/{player}/statement" in schema["paths"]
