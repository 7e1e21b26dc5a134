"""Platform tokens: ``Authorization: Bearer``, scoped to one club or one event and to read or write,
stored as a hash only, revocable at once, rate limited, and listed in the audit trails."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.test import Client

from tests.factories import open_sitting, record_all
from tests.online.conftest import bearer

pytestmark = pytest.mark.django_db

VAN = {"seq": 2, "winner": "An", "cuoc": ["tom"], "discarder": "Bình"}


def post(path: str, body: Any, raw: str) -> Any:
    return Client().post(
        path,
        json.dumps(body),
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        **bearer(raw),
    )


@pytest.fixture
def two_clubs(club: Any, organiser: Any) -> tuple[Any, Any, Any, Any]:
    """The organiser keeps score in two clubs, each with a sitting of one ván."""
    from scoring.services.roles import club_open

    other = club_open(name="Làng Đoài", kind="lang", organiser=organiser, idempotency_key=None).obj
    mine = open_sitting(created_by=organiser, club=club)
    theirs = open_sitting(created_by=organiser, club=other)
    for s in (mine, theirs):
        record_all(s, [{"winner": "Chi", "cuoc": ["tom"]}], entered_by=organiser)
    return club, other, mine, theirs


def test_only_a_hash_is_stored_and_the_token_is_shown_once(club: Any, organiser: Any) -> None:
    from tournaments.online.models import PlatformToken
    from tournaments.online.services.tokens import digest, token_create

    token, raw = token_create(label="Chiếu Online", access="doc", created_by=organiser, club=club)
    stored = PlatformToken.objects.filter(pk=token.pk).values().get()
    assert raw.startswith("sotom_") and len(raw) > 40
    assert raw not in json.dumps(stored, default=str)
    assert stored["digest"] == digest(raw=raw) and raw.startswith(stored["prefix"])
    history = PlatformToken.history.filter(id=token.pk).values().get()
    assert raw not in json.dumps(history, default=str) and "digest" not in history


def test_a_read_token_reads_its_club_only_and_writes_nothing(two_clubs: Any, organiser: Any) -> None:
    from tournaments.online.services.tokens import token_create

    club, _other, mine, theirs = two_clubs
    _, raw = token_create(label="Màn hình", access="doc", created_by=organiser, club=club)
    client = Client()
    assert client.get(f"/api/v1/sittings/{mine.pk}", **bearer(raw)).status_code == 200
    refused = client.get(f"/api/v1/sittings/{theirs.pk}", **bearer(raw))
    assert refused.status_code == 403  # the organiser may, the token may not
    listed = client.get("/api/v1/sittings", **bearer(raw)).json()
    assert [s["id"] for s in listed] == [mine.pk]
    write = post(f"/api/v1/sittings/{mine.pk}/van", VAN, raw)
    assert write.status_code == 403 and "chỉ được đọc" in write.json()["error"]
    assert mine.van.count() == 1


def test_a_write_token_writes_in_its_club_only(two_clubs: Any, organiser: Any) -> None:
    from tournaments.online.services.tokens import token_create

    club, other, mine, theirs = two_clubs
    _, raw = token_create(label="Chiếu Online", access="ghi", created_by=organiser, club=club)
    answer = post(f"/api/v1/sittings/{mine.pk}/van", VAN, raw)
    assert answer.status_code == 201, answer.content
    assert answer.json()["van"]["entered_by"] == organiser.get_username()
    assert post(f"/api/v1/sittings/{theirs.pk}/van", VAN, raw).status_code == 403
    assert theirs.van.count() == 1
    opened = post(
        "/api/v1/sittings",
        {
            "game": "to-tom-5",
            "rules": "luat-2005",
            "players": ["Giáp", "Ất", "Bính", "Đinh", "Mậu"],
            "club": club.slug,
        },
        raw,
    )
    assert opened.status_code == 201 and opened.json()["club"] == club.slug
    elsewhere = post(
        "/api/v1/sittings",
        {
            "game": "to-tom-5",
            "rules": "luat-2005",
            "players": ["Giáp", "Ất", "Bính", "Đinh", "Mậu"],
            "club": other.slug,
        },
        raw,
    )
    assert elsewhere.status_code == 403
    club_create = post("/api/v1/clubs", {"name": "Làng Mới"}, raw)
    assert club_create.status_code == 403 and "Mã nền tảng" in club_create.json()["error"]


def test_an_event_token_reaches_the_event_s_sittings_not_the_creator_s_clubs(
    two_clubs: Any, organiser: Any, make_event: Any
) -> None:
    from tournaments.models import Table
    from tournaments.online.services.tokens import token_create
    from tournaments.services.rounds import round_seat

    _club, _other, mine, _theirs = two_clubs
    event = make_event()
    round_seat(event=event, method="random", seed=1)
    table = Table.objects.filter(event=event).first()
    _, raw = token_create(label="Phát trực tiếp", access="doc", created_by=organiser, event=event)
    client = Client()
    assert client.get(f"/api/v1/sittings/{table.sitting_id}", **bearer(raw)).status_code == 200
    assert client.get(f"/api/v1/sittings/{mine.pk}", **bearer(raw)).status_code == 403


def test_a_revoked_token_is_refused_at_once(club: Any, organiser: Any) -> None:
    from tournaments.online.services.tokens import token_create, token_revoke

    token, raw = token_create(label="Chiếu Online", access="ghi", created_by=organiser, club=club)
    assert Client().get("/api/v1/sittings", **bearer(raw)).status_code == 200
    token_revoke(token=token, by=organiser)
    refused = Client().get("/api/v1/sittings", **bearer(raw))
    assert refused.status_code == 401 and "Bearer" in refused["WWW-Authenticate"]
    assert Client().get("/api/v1/sittings", **bearer("sotom_khong-phai-ma")).status_code == 401
    assert Client().get("/api/v1/events", **bearer(raw)).status_code == 401  # even where no account is needed


def test_a_token_stops_working_when_its_creator_loses_the_role(
    club: Any, organiser: Any, django_user_model: Any
) -> None:
    from scoring.models import ClubRole, ClubRoleKind
    from tournaments.online.services.tokens import token_create

    keeper = django_user_model.objects.create_user("thu-ky-online")
    ClubRole.objects.create(user=keeper, club=club, role=ClubRoleKind.SCOREKEEPER)
    sitting = open_sitting(created_by=keeper, club=club)
    _, raw = token_create(label="Chiếu Online", access="ghi", created_by=keeper, club=club)
    assert Client().get(f"/api/v1/sittings/{sitting.pk}", **bearer(raw)).status_code == 200
    ClubRole.objects.filter(user=keeper).delete()
    assert Client().get(f"/api/v1/sittings/{sitting.pk}", **bearer(raw)).status_code == 403


def test_a_token_over_its_rate_gets_429_with_retry_after(club: Any, organiser: Any, monkeypatch: Any) -> None:
    from tournaments.online.auth import PlatformThrottle
    from tournaments.online.services.tokens import token_create

    monkeypatch.setattr(PlatformThrottle, "THROTTLE_RATES", {"platform": "3/minute"})
    _, raw = token_create(label="Chiếu Online", access="doc", created_by=organiser, club=club)
    _, other = token_create(label="Màn hình", access="doc", created_by=organiser, club=club)
    client = Client()
    assert [client.get("/api/v1/events", **bearer(raw)).status_code for _ in range(3)] == [200, 200, 200]
    limited = client.get("/api/v1/events", **bearer(raw))
    assert limited.status_code == 429 and int(limited["Retry-After"]) >= 1
    assert "chờ" in limited.json()["error"]
    assert client.get("/api/v1/events", **bearer(other)).status_code == 200  # counted per token
    signed = Client()
    signed.force_login(organiser)
    assert all(
        signed.get("/api/v1/events").status_code == 200 for _ in range(5)
    )  # accounts are not throttled


def test_tokens_created_and_revoked_are_in_the_audit_trails(
    club: Any, organiser: Any, make_event: Any
) -> None:
    from scoring.selectors.audit import club_audit
    from tournaments.online.services.tokens import token_create, token_revoke
    from tournaments.selectors.audit import event_audit

    token, _ = token_create(label="Chiếu Online", access="ghi", created_by=organiser, club=club)
    token_revoke(token=token, by=organiser)
    actions = [e.action for e in club_audit(club)]
    assert any(
        a.startswith("Tạo mã nền tảng Chiếu Online (sotom_") and a.endswith("Đọc và ghi)") for a in actions
    )
    assert any(a.startswith("Thu hồi mã nền tảng Chiếu Online") for a in actions)
    event = make_event()
    token_create(label="Phát trực tiếp", access="doc", created_by=organiser, event=event)
    assert any(
        e.action.startswith("Tạo mã nền tảng Phát trực tiếp") and e.who == organiser.get_username()
        for e in event_audit(event)
    )
