"""The club's roles page (/lang/): an organiser opens a club, grants and revokes roles by account
name, links a player to their own account; the last organiser stays; others cannot change anything."""

from __future__ import annotations

import html as htmllib
from typing import Any

import pytest
from django.test import Client

from scoring.models import Club, ClubRole, ClubRoleKind, Player
from scoring.services.sittings import sitting_open

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model: Any) -> dict[str, Any]:
    return {
        name: django_user_model.objects.create_user(name)
        for name in ("chu-so", "thu-ky", "an", "nguoi-ngoai")
    }


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def club(people: dict[str, Any]) -> Club:
    """Làng Đông, opened on the page by ``chu-so`` (its organiser), with a sitting's five players."""
    response = signed_in(people["chu-so"]).post("/lang/", {"name": "Làng Đông", "kind": "lang", "key": "k-1"})
    assert response["Location"] == "/lang/lang-dong/"
    club = Club.objects.get(slug="lang-dong")
    sitting_open(
        game="to-tom-5",
        rules="luat-2005",
        mode="quang",
        players=["An", "Bình", "Chi", "Dũng", "Em"],
        club=club,
        created_by=people["chu-so"],
        idempotency_key=None,
    )
    return club


def text(response: Any) -> str:
    return htmllib.unescape(response.content.decode())


def roles(club: Club) -> set[tuple[str, str]]:
    return set(ClubRole.objects.filter(club=club).values_list("user__username", "role"))


def test_the_creator_of_a_club_is_its_organiser_and_sees_it_in_their_list(
    people: dict[str, Any], club: Club
) -> None:
    assert roles(club) == {("chu-so", ClubRoleKind.ORGANISER)}
    page = signed_in(people["chu-so"]).get("/lang/").content.decode()
    assert "Làng Đông" in page and "Chủ sổ" in page
    refused = signed_in(people["thu-ky"]).post("/lang/", {"name": "Làng Đông", "kind": "lang", "key": "k-2"})
    assert refused.status_code == 400 and "Đã có làng hoặc câu lạc bộ mang mã 'lang-dong'" in text(refused)


def test_an_organiser_grants_and_revokes_roles_with_htmx(people: dict[str, Any], club: Club) -> None:
    organiser = signed_in(people["chu-so"])
    granted = organiser.post(
        "/lang/lang-dong/vai-tro/", {"username": "thu-ky", "role": "ghi_diem"}, HTTP_HX_REQUEST="true"
    )
    html = granted.content.decode()
    assert granted.status_code == 200 and html.lstrip().startswith('<div id="members">')
    assert "Đã cấp cho thu-ky vai trò Thư ký ghi điểm." in html
    assert roles(club) == {("chu-so", "to_chuc"), ("thu-ky", "ghi_diem")}
    role = ClubRole.objects.get(club=club, user__username="thu-ky")
    assert role.granted_by == people["chu-so"]
    assert role.history.get().history_user == people["chu-so"]  # who did it, for the audit
    again = organiser.post(
        "/lang/lang-dong/vai-tro/", {"username": "THU-KY", "role": "ghi_diem"}, HTTP_HX_REQUEST="true"
    )
    assert "thu-ky đã có vai trò Thư ký ghi điểm từ trước." in again.content.decode()
    unknown = organiser.post(
        "/lang/lang-dong/vai-tro/", {"username": "khong-co", "role": "ghi_diem"}, HTTP_HX_REQUEST="true"
    )
    assert unknown.status_code == 400 and "Không có tài khoản nào tên 'khong-co'" in text(unknown)
    # The new scorekeeper can open sittings in the club now.
    assert [c.slug for c in signed_in(people["thu-ky"]).get("/so-diem/moi/").context["clubs"]] == [
        "lang-dong"
    ]
    revoked = organiser.post(f"/lang/lang-dong/vai-tro/{role.pk}/bo/")  # without JavaScript: back to the page
    assert revoked["Location"] == "/lang/lang-dong/"
    assert "Đã bỏ vai trò Thư ký ghi điểm của thu-ky." in organiser.get("/lang/lang-dong/").content.decode()
    assert roles(club) == {("chu-so", "to_chuc")}
    assert role.history.latest().history_type == "-"


def test_the_last_organiser_cannot_be_removed(people: dict[str, Any], club: Club) -> None:
    organiser = signed_in(people["chu-so"])
    own = ClubRole.objects.get(club=club, user=people["chu-so"])
    refused = organiser.post(f"/lang/lang-dong/vai-tro/{own.pk}/bo/", HTTP_HX_REQUEST="true")
    assert refused.status_code == 400 and "Không bỏ được chủ sổ cuối cùng" in refused.content.decode()
    organiser.post("/lang/lang-dong/vai-tro/", {"username": "thu-ky", "role": "to_chuc"})
    assert organiser.post(f"/lang/lang-dong/vai-tro/{own.pk}/bo/").status_code == 302
    assert roles(club) == {("thu-ky", "to_chuc")}


def test_linking_a_player_lets_them_see_their_sittings(people: dict[str, Any], club: Club) -> None:
    an = Player.objects.get(club=club, name="An")
    sitting = an.seats.get().sitting
    assert signed_in(people["an"]).get(f"/so-diem/{sitting.pk}/").status_code == 403
    linked = signed_in(people["chu-so"]).post(
        f"/lang/lang-dong/nguoi-choi/{an.pk}/tai-khoan/", {"username": "an"}, HTTP_HX_REQUEST="true"
    )
    assert "Đã gắn An với tài khoản an" in linked.content.decode()
    assert signed_in(people["an"]).get(f"/so-diem/{sitting.pk}/").status_code == 200
    signed_in(people["chu-so"]).post(f"/lang/lang-dong/nguoi-choi/{an.pk}/tai-khoan/", {"username": ""})
    assert Player.objects.get(pk=an.pk).user is None


def test_only_organisers_change_roles_and_only_members_see_them(people: dict[str, Any], club: Club) -> None:
    signed_in(people["chu-so"]).post("/lang/lang-dong/vai-tro/", {"username": "thu-ky", "role": "ghi_diem"})
    keeper, outsider = signed_in(people["thu-ky"]), signed_in(people["nguoi-ngoai"])
    page = keeper.get("/lang/lang-dong/").content.decode()
    assert "chu-so" in page and 'data-testid="grant"' not in page  # a member sees, without the forms
    assert outsider.get("/lang/lang-dong/").status_code == 403
    for client in (keeper, outsider):
        refused = client.post("/lang/lang-dong/vai-tro/", {"username": "nguoi-ngoai", "role": "to_chuc"})
        assert refused.status_code == 403 and "Chỉ chủ sổ" in refused.content.decode()
    assert Client().post("/lang/lang-dong/vai-tro/", {"username": "x", "role": "to_chuc"})["Location"] == (
        "/dang-nhap/?next=/lang/lang-dong/"
    )
    assert roles(club) == {("chu-so", "to_chuc"), ("thu-ky", "ghi_diem")}
    assert Client().get("/lang/khong-co/").status_code == 302
    assert signed_in(people["chu-so"]).get("/lang/khong-co/").status_code == 404


def test_roles_read_once_in_a_request_still_see_a_role_granted_or_revoked_in_it(
    people: dict[str, Any], club: Club, django_assert_num_queries: Any
) -> None:
    """An API request reads an account's roles in a club once (scoring.permissions.roles_read_once:
    the permission, then the quota's own-village check); a role granted or revoked meanwhile is
    seen by the next check, not the roles read before it."""
    from scoring.permissions import organises, organises_club, roles_read_once
    from scoring.services.roles import role_grant, role_revoke

    sitting = club.sittings.get()
    with roles_read_once():
        assert not organises_club.test(people["thu-ky"], sitting)
        with django_assert_num_queries(0):  # read once
            assert not organises.test(people["thu-ky"], club)
        role, _ = role_grant(
            club=club, username="thu-ky", role=ClubRoleKind.ORGANISER, granted_by=people["chu-so"]
        )
        assert organises_club.test(people["thu-ky"], sitting)
        role_revoke(club=club, role_id=role.pk, revoked_by=people["chu-so"])
        assert not organises.test(people["thu-ky"], club)
