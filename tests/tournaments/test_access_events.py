"""Roles in an event, wired into its pages: the organiser grants and revokes them on the organiser's
page; an event scorekeeper enters ván at their table only; another event's organiser can do
nothing here; a private event is hidden (404) from outsiders; a player's statement is theirs."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client

from tests.tournaments.conftest import record, seat_names
from tournaments.models import Event, EventRole, EventRoleKind, Registration, Table
from tournaments.services import leaderboard as leaderboard_module
from tournaments.services.events import event_create
from tournaments.services.leaderboard import rebuild_leaderboard

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def _no_queue(monkeypatch) -> None:
    monkeypatch.setattr(leaderboard_module, "queue_recompute", lambda *a, **k: None)


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _van(client, event: Event, table: Table, key: str) -> Any:
    table.refresh_from_db()
    seq = table.sitting.van.filter(is_current=True).count() + 1
    return client.post(
        f"/giai/{event.slug}/chieu/{table.pk}/",
        {"seq": seq, "canh": table.sitting_id, "key": key, "winner": seat_names(table)[0], "cuoc": ["tom"]},
        **HTMX,
    )


# -- role management on the organiser's page ----------------------------------------------------------


def test_the_organiser_grants_and_revokes_roles_by_account_name(
    client, own, organiser, django_user_model
) -> None:
    event, (t1, _t2) = own
    for name in ("thuky", "trungquan", "phobantochuc"):
        django_user_model.objects.create_user(name)
    client.force_login(organiser)
    manage = client.get(f"/giai/{event.slug}/quan-ly/").content.decode()
    assert 'id="roles"' in manage and "bantochuc" in manage
    add = f"/giai/{event.slug}/quan-ly/vai-tro/"

    done = client.post(add, {"username": "thuky", "role": "ghi_diem", "table": t1.pk}, **HTMX)
    assert done.status_code == 200 and "<html" not in done.content.decode()
    assert "Đã cấp vai trò Thư ký ghi điểm cho “thuky” ở vòng 1 · chiếu 1." in done.content.decode()
    grant = EventRole.objects.get(event=event, user__username="thuky")
    assert (grant.role, grant.table, grant.granted_by) == (EventRoleKind.SCOREKEEPER, t1, organiser)
    assert grant.history.get().history_user == organiser  # the audit: who granted, when

    client.post(
        add, {"username": "TrungQuan", "role": "trung_quan", "table": ""}, **HTMX
    )  # names ignore case
    assert EventRole.objects.get(user__username="trungquan").table is None
    client.post(add, {"username": "phobantochuc", "role": "to_chuc"}, **HTMX)
    assert set(event.organisers.values_list("username", flat=True)) == {"bantochuc", "phobantochuc"}
    assert event.history.latest().history_user == organiser

    unknown = client.post(add, {"username": "khong-ai", "role": "ghi_diem"}, **HTMX)
    assert unknown.status_code == 400 and "Không có tài khoản “khong-ai”." in unknown.content.decode()
    twice = client.post(add, {"username": "thuky", "role": "ghi_diem", "table": t1.pk}, **HTMX)
    assert twice.status_code == 400 and "đã là thư ký ghi điểm" in twice.content.decode()

    revoked = client.post(f"/giai/{event.slug}/quan-ly/vai-tro/{grant.pk}/thu-hoi/", **HTMX)
    assert revoked.status_code == 200 and not EventRole.objects.filter(pk=grant.pk).exists()
    gone = EventRole.history.filter(id=grant.pk).latest()
    assert (gone.history_type, gone.history_user) == ("-", organiser)

    other = django_user_model.objects.get(username="phobantochuc")
    client.post(f"/giai/{event.slug}/quan-ly/vai-tro/ban-to-chuc/{other.pk}/thu-hoi/", **HTMX)
    assert list(event.organisers.values_list("username", flat=True)) == ["bantochuc"]
    last = client.post(f"/giai/{event.slug}/quan-ly/vai-tro/ban-to-chuc/{organiser.pk}/thu-hoi/", **HTMX)
    assert last.status_code == 400 and "ít nhất một người trong ban tổ chức" in last.content.decode()
    assert event.organisers.filter(pk=organiser.pk).exists()


def test_without_htmx_the_page_reloads_with_the_outcome(client, own, organiser, django_user_model) -> None:
    event, _ = own
    django_user_model.objects.create_user("thuky")
    client.force_login(organiser)
    answer = client.post(
        f"/giai/{event.slug}/quan-ly/vai-tro/", {"username": "thuky", "role": "ghi_diem"}, follow=True
    )
    assert answer.redirect_chain[-1][0] == f"/giai/{event.slug}/quan-ly/#roles"
    assert "Đã cấp vai trò Thư ký ghi điểm cho “thuky” cho cả giải." in answer.content.decode()


def test_only_organisers_manage_roles(client, own, django_user_model) -> None:
    event, _ = own
    scorekeeper = django_user_model.objects.create_user("thuky")
    EventRole.objects.create(user=scorekeeper, event=event, role=EventRoleKind.SCOREKEEPER)
    add = f"/giai/{event.slug}/quan-ly/vai-tro/"
    assert client.post(add, {"username": "thuky", "role": "to_chuc"})["Location"].startswith(
        "/dang-nhap/?next="
    )
    client.force_login(scorekeeper)
    assert client.post(add, {"username": "thuky", "role": "to_chuc"}).status_code == 403
    assert not event.organisers.filter(pk=scorekeeper.pk).exists()


# -- scorekeepers at their table ------------------------------------------------------------------------


def test_a_scorekeeper_for_table_1_enters_van_there_and_is_refused_at_table_2(
    client, own, django_user_model
) -> None:
    event, (t1, t2) = own
    thuky = django_user_model.objects.create_user("thuky")
    role = EventRole.objects.create(user=thuky, event=event, role=EventRoleKind.SCOREKEEPER, table=t1)
    client.force_login(thuky)
    page = client.get(f"/giai/{event.slug}/chieu/{t1.pk}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Ghi ván" in text and "Cấp mã ghi điểm" not in text and "Đóng chiếu" not in text  # entry only
    assert _van(client, event, t1, "k1").status_code == 200
    assert t1.sitting.van.get().entered_by == thuky
    assert client.get(f"/giai/{event.slug}/chieu/{t2.pk}/").status_code == 403
    assert _van(client, event, t2, "k2").status_code == 403 and not t2.sitting.van.exists()
    assert client.get(f"/giai/{event.slug}/quan-ly/").status_code == 403
    assert (
        client.post(f"/giai/{event.slug}/chieu/{t1.pk}/dong/").status_code == 403
    )  # closing is the organiser's
    role.delete()
    assert client.get(f"/giai/{event.slug}/chieu/{t1.pk}/").status_code == 403  # revoked: at once


def test_an_event_wide_scorekeeper_enters_at_every_table(client, own, django_user_model) -> None:
    event, tables = own
    thuky = django_user_model.objects.create_user("thuky")
    EventRole.objects.create(user=thuky, event=event, role=EventRoleKind.SCOREKEEPER)
    client.force_login(thuky)
    for i, table in enumerate(tables):
        assert _van(client, event, table, f"k{i}").status_code == 200
        assert table.sitting.van.count() == 1


def test_another_events_organiser_is_refused_everywhere_in_this_event(client, own, django_user_model) -> None:
    event, (t1, _t2) = own
    other = event_create(
        name="Hội làng bên", date=dt.date(2025, 2, 4), game="to-tom-5", rules="luat-2005", mode="quang"
    )
    stranger = django_user_model.objects.create_user("ban-to-chuc-lang-ben")
    other.organisers.add(stranger)
    EventRole.objects.create(user=stranger, event=other, role=EventRoleKind.SCOREKEEPER)
    reg = Registration.objects.filter(event=event).first()
    client.force_login(stranger)
    base = f"/giai/{event.slug}"
    gets = [
        f"{base}/quan-ly/",
        f"{base}/quan-ly/the-diem-danh/",
        f"{base}/quan-ly/qr/{reg.pk}/",
        f"{base}/quan-ly/sao-luu.json",
        f"{base}/quan-ly/bang-diem/vong-1.pdf",
        f"{base}/quan-ly/bang-diem/chieu-{t1.pk}.pdf",
        f"{base}/chieu/{t1.pk}/",
        f"{base}/xuat/sao-ke/{reg.player_id}.csv",
        f"{base}/xuat/sao-ke/{reg.player_id}.xlsx",
        f"{base}/xuat/sao-ke/{reg.player_id}.pdf",
    ]
    posts = [
        f"{base}/quan-ly/dang-ky/",
        f"{base}/quan-ly/diem-danh/{reg.pk}/",
        f"{base}/quan-ly/rut/{reg.pk}/",
        f"{base}/quan-ly/xep-vong/",
        f"{base}/quan-ly/tinh-lai/",
        f"{base}/quan-ly/ket-thuc/",
        f"{base}/quan-ly/vai-tro/",
        f"{base}/chieu/{t1.pk}/",
        f"{base}/chieu/{t1.pk}/dong/",
        f"{base}/chieu/{t1.pk}/thay-nguoi/",
        f"{base}/chieu/{t1.pk}/ma-ghi/",
        f"{base}/chieu/{t1.pk}/mo-khoa-pin/",
    ]
    for url in gets:
        assert client.get(url).status_code == 403, url
    for url in posts:
        assert (
            client.post(url, {"username": "ban-to-chuc-lang-ben", "role": "to_chuc", "name": "X"}).status_code
            == 403
        ), url
    event.refresh_from_db()
    assert event.finished_at is None and not event.organisers.filter(pk=stranger.pk).exists()
    assert not t1.sitting.van.exists() and not t1.tokens.exists()


# -- private events ------------------------------------------------------------------------------------


def test_a_private_event_is_404_for_outsiders_and_open_to_whom_takes_part(
    own, organiser, django_user_model
) -> None:
    event, _ = own
    Event.objects.filter(pk=event.pk).update(is_public=False)
    outsider = django_user_model.objects.create_user("nguoi-ngoai")
    thuky = django_user_model.objects.create_user("thuky")
    EventRole.objects.create(user=thuky, event=event, role=EventRoleKind.SCOREKEEPER)
    player_account = django_user_model.objects.create_user("an")
    reg = Registration.objects.select_related("player").get(event=event, player__name="An")
    reg.player.user = player_account
    reg.player.save(update_fields=["user"])
    pages = [
        "/",
        "man-chieu/",
        "bang-day-du/",
        "bieu-do/",
        "bieu-do.json",
        "xuat/bang-xep-hang.csv",
        "xuat/bang-xep-hang.xlsx",
        f"xuat/sao-ke/{reg.player_id}.csv",
    ]
    for client in (Client(), signed_in(outsider)):
        for page in pages:
            assert client.get(f"/giai/{event.slug}/{page}").status_code == 404, page
        assert event.name not in client.get("/giai/").content.decode()
    for user in (organiser, thuky, player_account):
        client = signed_in(user)
        assert client.get(f"/giai/{event.slug}/").status_code == 200, user
        assert event.name in client.get("/giai/").content.decode(), user


# -- statements ----------------------------------------------------------------------------------------


def test_a_statement_is_the_players_own_and_refused_to_another_player(
    own, organiser, django_user_model
) -> None:
    event, (t1, _t2) = own
    a, b = seat_names(t1)[:2]
    record(t1, 1, a, ["tom"])
    rebuild_leaderboard(event_id=event.pk)
    regs = {r.player.name: r for r in Registration.objects.filter(event=event).select_related("player")}
    for name in (a, b):
        regs[name].player.user = django_user_model.objects.create_user(f"tk-{name}")
        regs[name].player.save(update_fields=["user"])
    thuky = django_user_model.objects.create_user("thuky")
    EventRole.objects.create(user=thuky, event=event, role=EventRoleKind.SCOREKEEPER, table=t1)
    urls = [f"/giai/{event.slug}/xuat/sao-ke/{regs[a].player_id}.{ext}" for ext in ("csv", "xlsx", "pdf")]
    for url in urls:
        anonymous = Client().get(url)
        assert anonymous.status_code == 302 and anonymous["Location"].startswith("/dang-nhap/?next=")
        assert signed_in(regs[b].player.user).get(url).status_code == 403
        for user in (regs[a].player.user, organiser, thuky):
            assert signed_in(user).get(url).status_code == 200, (url, user)
    own_csv = signed_in(regs[a].player.user).get(urls[0]).content.decode("utf-8-sig")
    assert "ù Tôm" in own_csv


def test_the_public_scoreboard_shows_no_statements(client, own) -> None:
    event, (t1, _t2) = own
    record(t1, 1, seat_names(t1)[0], ["tom"])
    rebuild_leaderboard(event_id=event.pk)
    for page in ("", "man-chieu/", "bang-day-du/"):
        html = client.get(f"/giai/{event.slug}/{page}").content.decode()
        assert "sao-ke" not in html and "quan-ly" not in html
