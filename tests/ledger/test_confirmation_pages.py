"""Two-person confirmation as people meet it: the API's confirm / reject endpoints and the
badges and buttons of the sitting page (htmx swaps the ván's review block)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from scoring.models import ClubRole, ClubRoleKind, Player, Sitting, Van, VanStatus
from scoring.services.sittings import van_record
from tests.factories import ClubFactory, UserFactory, new_key, open_sitting, without_code

pytestmark = pytest.mark.django_db

TOM = {"winner": "An", "cuoc": ["tom"], "discarder": "Bình"}
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def world() -> dict[str, Any]:
    """A club sitting that needs confirmation: ván 1 entered by its scorekeeper; An (seated) and
    another scorekeeper of the club have accounts; a stranger has one too."""
    club = ClubFactory()
    keeper, player = UserFactory(username="thu-ky"), UserFactory(username="an")
    colleague, stranger = UserFactory(username="thu-ky-2"), UserFactory(username="nguoi-la")
    ClubRole.objects.create(user=keeper, club=club, role=ClubRoleKind.SCOREKEEPER)
    ClubRole.objects.create(user=colleague, club=club, role=ClubRoleKind.SCOREKEEPER)
    sitting = open_sitting(needs_confirmation=True, club=club, created_by=keeper)
    Player.objects.filter(seats__sitting=sitting, name="An").update(user=player)
    van_record(sitting=sitting, seq=1, record=TOM, idempotency_key=new_key(), entered_by=keeper)
    return {
        "sitting": sitting,
        "keeper": keeper,
        "player": player,
        "colleague": colleague,
        "stranger": stranger,
    }


def _api(user: Any = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


def _confirm(client: APIClient, sitting: Sitting, seq: int = 1, key: str | None = "new") -> Any:
    headers = {} if key is None else {"HTTP_IDEMPOTENCY_KEY": new_key() if key == "new" else key}
    return client.post(f"/api/v1/sittings/{sitting.pk}/van/{seq}/confirm", format="json", **headers)


def _reject(client: APIClient, sitting: Sitting, reason: Any, key: str = "new") -> Any:
    return client.post(
        f"/api/v1/sittings/{sitting.pk}/van/1/reject",
        {"reason": reason},
        format="json",
        HTTP_IDEMPOTENCY_KEY=new_key() if key == "new" else key,
    )


# -- API ---------------------------------------------------------------------------------------------


def test_who_may_confirm_through_the_api(world: dict[str, Any]) -> None:
    sitting = world["sitting"]
    anonymous = _confirm(_api(), sitting)
    assert anonymous.status_code == 401 and "đăng nhập" in anonymous.json()["error"]
    assert _confirm(_api(world["stranger"]), sitting).status_code == 403
    own = _confirm(_api(world["keeper"]), sitting)
    assert own.status_code == 403 and without_code(own.json()) == {
        "error": "Bạn đã ghi ván 1: người thứ hai (không phải người ghi) mới được xác nhận hay bác."
    }
    assert _confirm(_api(world["player"]), sitting, key=None).status_code == 400
    assert Van.objects.get().status == VanStatus.PROVISIONAL
    done = _confirm(_api(world["colleague"]), sitting, key="k-1")  # another scorekeeper of the club
    assert done.status_code == 200
    assert (done.json()["van"]["status"], done.json()["van"]["confirmed_by"]) == ("xac_nhan", "thu-ky-2")
    again = _confirm(_api(world["colleague"]), sitting, key="k-1")
    assert again.json() == done.json() and again["Idempotent-Replayed"] == "true"
    late = _confirm(_api(world["player"]), sitting)
    assert late.status_code == 409 and without_code(late.json()) == {
        "error": "Ván 1 đã được thu-ky-2 xác nhận rồi."
    }
    listed = _api(world["player"]).get(f"/api/v1/sittings/{sitting.pk}/van").json()
    assert (listed[0]["status"], listed[0]["confirmed_by"], listed[0]["rejected_reason"]) == (
        "xac_nhan",
        "thu-ky-2",
        None,
    )


def test_rejecting_through_the_api(world: dict[str, Any]) -> None:
    sitting, client = world["sitting"], _api(world["player"])
    assert without_code(_reject(client, sitting, "").json()) == {
        "error": "Hãy ghi lý do bác ván (ví dụ: ghi nhầm người ù)."
    }
    assert _reject(client, sitting, ["x"]).status_code == 400
    done = _reject(client, sitting, "Bình ù, không phải An", key="r-1")
    assert done.status_code == 200 and done.json()["van"]["status"] == "bac_bo"
    assert done.json()["van"]["rejected_reason"] == "Bình ù, không phải An"
    assert _reject(client, sitting, "lý do khác", key="r-1").status_code == 422  # the key, another body
    assert _confirm(_api(world["colleague"]), sitting).status_code == 409


def test_missing_sittings_and_van_are_404(world: dict[str, Any]) -> None:
    client = _api(world["player"])
    assert without_code(_confirm(client, world["sitting"], seq=9).json()) == {
        "error": f"Canh bài số {world['sitting'].pk} không có ván số 9."
    }
    assert client.post("/api/v1/sittings/999999/van/1/confirm", HTTP_IDEMPOTENCY_KEY="x").status_code == 404


def test_the_api_s_review_refusals_read_in_the_asked_language(world: dict[str, Any]) -> None:
    """No such sitting (404) and a stranger (403): the API's one error body, in Vietnamese by
    default and in English with ``Accept-Language: en``."""
    client = _api(world["stranger"])
    url = "/api/v1/sittings/999999/van/1/confirm"
    missing = {
        lang: client.post(url, HTTP_IDEMPOTENCY_KEY=new_key(), HTTP_ACCEPT_LANGUAGE=lang)
        for lang in ("vi", "en")
    }
    assert [r.status_code for r in missing.values()] == [404, 404]
    assert missing["vi"].json() == {"error": "Không có canh bài số 999999.", "code": "not_found"}
    assert missing["en"].json() == {"error": "There is no sitting number 999999.", "code": "not_found"}
    refused = _confirm(client, world["sitting"])
    assert refused.status_code == 403 and refused.json()["code"] == "permission_denied"
    assert refused.json()["error"].startswith("Chỉ người chơi ở chiếu")
    english = client.post(
        f"/api/v1/sittings/{world['sitting'].pk}/van/1/confirm",
        HTTP_IDEMPOTENCY_KEY=new_key(),
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert english.status_code == 403
    assert english.json()["error"].startswith("Only the players at the table")


def test_the_schema_documents_confirm_and_reject() -> None:
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/json").content.decode()
    assert "van_confirm" in schema and "van_reject" in schema
    assert "/van/{seq}/confirm" in schema and "/van/{seq}/reject" in schema


# -- the sitting page ----------------------------------------------------------------------------------


def _page(user: Any, sitting: Sitting) -> str:
    client = Client()
    client.force_login(user)
    return client.get(f"/so-diem/{sitting.pk}/").content.decode()


def test_the_page_shows_the_badge_and_the_buttons_to_a_reviewer_only(world: dict[str, Any]) -> None:
    sitting = world["sitting"]
    as_player = _page(world["player"], sitting)
    assert "Tạm tính — chờ xác nhận" in as_player and 'data-testid="confirm-1"' in as_player
    as_keeper = _page(world["keeper"], sitting)
    assert "Tạm tính — chờ xác nhận" in as_keeper and 'data-testid="confirm-1"' not in as_keeper
    assert "Bạn đã ghi ván này" in as_keeper
    assert 'data-testid="confirm-1"' not in _page(world["stranger"], sitting)


def test_confirming_from_the_page_swaps_the_badge(world: dict[str, Any]) -> None:
    sitting, client = world["sitting"], Client()
    client.force_login(world["player"])
    url = f"/so-diem/{sitting.pk}/van/1/xac-nhan/"
    answer = client.post(url, {"key": "p-1"}, **HTMX)
    body = answer.content.decode()
    assert answer.status_code == 200 and 'id="van-review-1"' in body and "Đã xác nhận bởi an" in body
    assert 'data-testid="confirm-1"' not in body
    twice = client.post(url, {"key": "p-2"}, **HTMX)
    assert twice.status_code == 409 and "đã được an xác nhận rồi" in twice.content.decode()
    assert "Đã xác nhận bởi an" in _page(world["keeper"], sitting)


def test_rejecting_from_the_page_needs_a_reason(world: dict[str, Any]) -> None:
    sitting, client = world["sitting"], Client()
    client.force_login(world["colleague"])
    url = f"/so-diem/{sitting.pk}/van/1/bac/"
    empty = client.post(url, {"key": "r-1", "reason": ""}, **HTMX)
    assert empty.status_code == 400 and "Hãy ghi lý do bác ván" in empty.content.decode()
    done = client.post(url, {"key": "r-2", "reason": "Sai cước"}, **HTMX)
    assert done.status_code == 200 and "Bị bác: Sai cước" in done.content.decode()
    plain = client.post(
        f"/so-diem/{sitting.pk}/van/1/xac-nhan/", {"key": "r-3"}
    )  # without htmx: back to the page
    assert plain.status_code == 302 and plain["Location"] == f"/so-diem/{sitting.pk}/"


def test_refusals_on_the_page(world: dict[str, Any]) -> None:
    sitting = world["sitting"]
    url = f"/so-diem/{sitting.pk}/van/1/xac-nhan/"
    anonymous = Client().post(url, {"key": "a-1"})
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/dang-nhap/?next=")
    stranger = Client()
    stranger.force_login(world["stranger"])
    assert stranger.post(url, {"key": "a-2"}, **HTMX).status_code == 403
    keeper = Client()
    keeper.force_login(world["keeper"])
    own = keeper.post(url, {"key": "a-3"}, **HTMX)
    assert own.status_code == 403 and "Bạn đã ghi ván 1" in own.content.decode()
    assert Van.objects.get().status == VanStatus.PROVISIONAL
