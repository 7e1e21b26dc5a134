"""The club book's pages: who sees what, the English pages, the htmx partial, the close with its
confirmation (a stale confirmation is refused with the new plan), undoing a close, the managers'
ratings button, the season's chart, and the treasurer role granted on the club page."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from scoring.models import ClubRole, ClubRoleKind, PeriodClose, Player
from scoring.periods import lunar_year
from scoring.selectors.book import book
from scoring.services.sittings import van_record
from tests.book.conftest import member_user, season
from tests.factories import new_key

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db]


@pytest.fixture
def world(club: Any, organiser: Any) -> dict[str, Any]:
    return season(club, organiser)


def _as(user: Any) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _names(html: str) -> list[str]:
    return re.findall(r'<tr data-player="\d+" data-name="([^"]+)"', html)


def test_the_treasurer_sees_every_member_and_a_member_only_themselves(
    world: dict[str, Any], club: Any, treasurer: Any, django_user_model: Any
) -> None:
    page = _as(treasurer).get(f"/lang/{club.slug}/so/?ky=nam-2025")
    assert page.status_code == 200
    html = page.content.decode()
    assert _names(html) == [m.name for m in book(club, lunar_year(2025)).members]
    assert "Năm Ất Tỵ (2025)" in html and 'class="spark"' in html and 'data-testid="close-link"' in html
    member = member_user(django_user_model, club, "Bác Năm", "bac-nam")
    mine = _as(member).get(f"/lang/{club.slug}/so/?ky=nam-2025").content.decode()
    assert (
        _names(mine) == ["Bác Năm"]
        and "Bạn xem phần của mình." in mine
        and 'data-testid="close-link"' not in mine
    )


def test_who_may_not_open_the_book(world: dict[str, Any], club: Any, django_user_model: Any) -> None:
    anon = Client().get(f"/lang/{club.slug}/so/")
    assert anon.status_code == 302 and "/dang-nhap/" in anon["Location"]
    stranger = _as(django_user_model.objects.create_user("nguoi-la")).get(f"/lang/{club.slug}/so/")
    assert stranger.status_code == 403 and "chỉ chủ sổ, thủ quỹ" in stranger.content.decode()
    other = Player.objects.get(club=club, name="Cụ Tư")
    member = member_user(django_user_model, club, "Bác Năm", "bac-nam")
    assert _as(member).get(f"/lang/{club.slug}/so/nguoi-choi/{other.pk}/").status_code == 403
    assert _as(member).get(f"/lang/{club.slug}/so/nguoi-choi/{other.pk}/sao-ke.pdf").status_code == 403


def test_the_book_in_english_and_as_an_htmx_partial(world: dict[str, Any], club: Any, treasurer: Any) -> None:
    english = _as(treasurer).get(f"/en/lang/{club.slug}/so/?ky=thang-2025-01").content.decode()
    assert "Club book" in english and "1st month of Ất Tỵ" in english and "Biggest win" in english
    partial = _as(treasurer).get(f"/lang/{club.slug}/so/?ky=nam-2025", HTTP_HX_REQUEST="true")
    body = partial.content.decode()
    assert body.lstrip().startswith('<div id="book"') and "<html" not in body
    assert "HX-Request" in partial["Vary"]
    bad = _as(treasurer).get(f"/en/lang/{club.slug}/so/?from=2025-02-30")
    assert bad.status_code == 400 and "must be a date as YYYY-MM-DD" in bad.content.decode()


def test_closing_a_month_after_confirming(world: dict[str, Any], club: Any, treasurer: Any) -> None:
    client = _as(treasurer)
    confirm = client.get(f"/lang/{club.slug}/so/chot/?ky=thang-2025-07").content.decode()
    fingerprint = re.search(r'name="fingerprint" value="(\w+)"', confirm).group(1)
    assert 'data-testid="plan"' in confirm and "Xác nhận chốt sổ" in confirm
    autumn = world["canh"]["autumn"]
    van_record(
        sitting=autumn, seq=4, record={"winner": "Bác Năm", "cuoc": ["tom"]}, idempotency_key=new_key()
    )
    form = {"from": "2025-08-23", "to": "2025-09-21", "fingerprint": fingerprint, "key": new_key()}
    stale = client.post(f"/lang/{club.slug}/so/chot/", form)
    assert stale.status_code == 409 and "Số dư của kỳ đã thay đổi" in stale.content.decode()
    assert not PeriodClose.objects.filter(date_from="2025-08-23").exists()
    fresh = re.search(r'name="fingerprint" value="(\w+)"', stale.content.decode()).group(1)
    done = client.post(f"/lang/{club.slug}/so/chot/", {**form, "fingerprint": fresh, "key": new_key()})
    assert done.status_code == 302
    page = client.get(done["Location"]).content.decode()
    assert "Đã chốt sổ" in page and 'data-testid="no-plan"' in page
    assert set(re.findall(r'data-testid="open"><b>(-?\d+)</b>', page)) == {"0"}


def test_undoing_a_close_needs_a_reason(world: dict[str, Any], club: Any, treasurer: Any) -> None:
    client = _as(treasurer)
    kept = world["kept"]
    empty = client.post(
        f"/lang/{club.slug}/so/chot/{kept.pk}/dao/", {"reason": " ", "key": new_key()}, follow=True
    )
    assert "Hãy ghi lý do đảo chốt sổ." in empty.content.decode()
    done = client.post(
        f"/lang/{club.slug}/so/chot/{kept.pk}/dao/", {"reason": "Sai tháng", "key": new_key()}, follow=True
    )
    assert "Đã đảo chốt sổ" in done.content.decode() and "Sai tháng" in done.content.decode()


def test_a_close_s_period_reads_in_the_reader_s_language(
    world: dict[str, Any], club: Any, treasurer: Any
) -> None:
    """The close's label is stored in Vietnamese (the ledger's words) and shown in English on /en/:
    the list of closes and the message after undoing one."""
    client = _as(treasurer)
    assert world["kept"].label == "Tháng Giêng năm Ất Tỵ"
    english = client.get(f"/en/lang/{club.slug}/so/?ky=nam-2025").content.decode()
    closes = re.search(r'data-testid="closes">(.*?)</ul>', english, re.S).group(1)
    assert "<b>1st month of Ất Tỵ</b>" in closes and "<b>5th month of Ất Tỵ</b>" in closes
    assert "Tháng Giêng" not in closes and "Tháng Năm" not in closes
    vietnamese = client.get(f"/lang/{club.slug}/so/?ky=nam-2025").content.decode()
    assert "<b>Tháng Giêng năm Ất Tỵ</b>" in vietnamese and "1st month" not in vietnamese
    done = client.post(
        f"/en/lang/{club.slug}/so/chot/{world['kept'].pk}/dao/",
        {"reason": "Sai tháng", "key": new_key()},
        follow=True,
    ).content.decode()
    assert "1st month of Ất Tỵ" in done and "Tháng Giêng" not in done


def test_only_organisers_rebuild_the_ratings(
    world: dict[str, Any], club: Any, treasurer: Any, organiser: Any
) -> None:
    assert _as(treasurer).post(f"/lang/{club.slug}/so/trinh-do/tinh-lai/").status_code == 403
    done = _as(organiser).post(f"/lang/{club.slug}/so/trinh-do/tinh-lai/", follow=True).content.decode()
    assert "Đã tính lại trình độ từ 19 ván: 6 người." in done and 'data-testid="ratings"' in done


def test_the_season_chart_is_the_members_running_points(
    world: dict[str, Any], club: Any, treasurer: Any, django_user_model: Any
) -> None:
    data = _as(treasurer).get(f"/lang/{club.slug}/so/bieu-do.json?ky=nam-2025").json()
    the_book = book(club, lunar_year(2025))
    assert [d["label"] for d in data["datasets"]] == [m.name for m in the_book.members[:8]]
    assert all(d["data"][-1] == the_book.member(d["player"]).points for d in data["datasets"])
    member = member_user(django_user_model, club, "Bác Năm", "bac-nam")
    others = ",".join(str(m.player_id) for m in the_book.members if m.name != "Bác Năm")
    own = _as(member).get(f"/lang/{club.slug}/so/bieu-do.json?ky=nam-2025&nguoi={others}").json()
    assert [d["label"] for d in own["datasets"]] == ["Bác Năm"]


def test_the_treasurer_role_is_granted_on_the_club_page(
    club: Any, organiser: Any, django_user_model: Any
) -> None:
    django_user_model.objects.create_user("thu-quy-moi")
    page = _as(organiser).get(f"/lang/{club.slug}/").content.decode()
    assert '<option value="thu_quy"' in page and "Thủ quỹ" in page and 'data-testid="club-book-link"' in page
    _as(organiser).post(f"/lang/{club.slug}/vai-tro/", {"username": "thu-quy-moi", "role": "thu_quy"})
    assert ClubRole.objects.filter(
        club=club, user__username="thu-quy-moi", role=ClubRoleKind.TREASURER
    ).exists()
