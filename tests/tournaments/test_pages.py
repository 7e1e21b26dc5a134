"""The organiser's, the table's and the public pages, through Django's test client."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.utils import timezone

from tests.tournaments.conftest import record, seat_names
from tournaments.models import Event, Leaderboard, Registration, RegistrationStatus, Table
from tournaments.services import leaderboard as leaderboard_module
from tournaments.services.leaderboard import rebuild_leaderboard

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def organiser(django_user_model):
    return django_user_model.objects.create_user("bantochuc", password="mat-khau-dai-123")


@pytest.fixture
def queued(monkeypatch) -> list[tuple[int, dict]]:
    calls: list[tuple[int, dict]] = []
    monkeypatch.setattr(
        leaderboard_module, "queue_recompute", lambda event_id, **kw: calls.append((event_id, kw))
    )
    return calls


@pytest.fixture
def own_event(seated, organiser):
    event, tables = seated
    event.organisers.add(organiser)
    return event, tables


def _csv(response) -> list[list[str]]:
    body = response.content.decode("utf-8")
    assert body.startswith("\ufeff")  # Excel reads the diacritics right
    return list(csv.reader(io.StringIO(body[1:])))


def test_an_organiser_creates_an_event_from_the_form(client, organiser) -> None:
    client.force_login(organiser)
    response = client.post(
        "/giai-moi/",
        {
            "name": "Hội làng Đông Ngạc",
            "date": "2025-02-03",
            "lunar": "",
            "kind": "hoi",
            "game": "to-tom-5",
            "rules": "luat-2005",
            "mode": "quang",
            "round_format": "van",
            "van_per_round": 6,
            "minutes_per_round": 45,
            "tie_breaks": "points,wins,best_win",
            "is_public": "on",
        },
    )
    event = Event.objects.get(slug="hoi-lang-dong-ngac")
    assert response.status_code == 302 and response["Location"] == "/giai/hoi-lang-dong-ngac/quan-ly/"
    assert event.lunar_label == "mùng 6 tháng Giêng năm Ất Tỵ"
    assert list(event.organisers.all()) == [organiser]


def test_the_event_s_computed_lunar_date_reads_in_english_and_a_typed_one_as_typed(
    client, make_event
) -> None:
    """The default lunar date is stored in Vietnamese (as computed) and shown in the reader's
    language; what the organiser typed is shown as typed in both."""
    make_event()  # 3 Feb 2025, its lunar date computed
    english = client.get("/en/giai/").content.decode()
    assert "day 6 of the 1st month of Ất Tỵ" in english and "mùng 6 tháng Giêng" not in english
    vietnamese = client.get("/giai/").content.decode()
    assert "mùng 6 tháng Giêng năm Ất Tỵ" in vietnamese and "day 6 of" not in vietnamese
    make_event(name="Hội làng Đoài", lunar="mồng sáu Tết")
    assert "mồng sáu Tết" in client.get("/en/giai/").content.decode()


def test_the_event_form_explains_a_rule_set_of_another_game(client, organiser) -> None:
    client.force_login(organiser)
    response = client.post(
        "/giai-moi/",
        {
            "name": "Giải Chắn",
            "date": "2025-02-03",
            "kind": "hoi",
            "game": "chan",
            "rules": "luat-2005",
            "mode": "quang",
            "round_format": "van",
            "van_per_round": 6,
            "minutes_per_round": 45,
            "tie_breaks": "points,wins,best_win",
        },
    )
    assert response.status_code == 400
    assert not Event.objects.filter(name="Giải Chắn").exists()


def test_only_organisers_manage_an_event(client, seated, django_user_model) -> None:
    event, _ = seated
    assert client.get(f"/giai/{event.slug}/quan-ly/").status_code == 302  # to the login page
    client.force_login(django_user_model.objects.create_user("khach", password="x-y-z-123456"))
    assert client.get(f"/giai/{event.slug}/quan-ly/").status_code == 403
    assert client.post(f"/giai/{event.slug}/quan-ly/xep-vong/", {"method": "random"}).status_code == 403


def test_register_and_check_in_from_the_organiser_page(client, own_event, organiser) -> None:
    event, _ = own_event
    client.force_login(organiser)
    response = client.post(
        f"/giai/{event.slug}/quan-ly/dang-ky/", {"name": "Phúc", "team": "Giáp Nam"}, **HTMX
    )
    assert response.status_code == 200 and 'data-player="Phúc"' in response.content.decode()
    reg = Registration.objects.get(event=event, player__name="Phúc")
    assert reg.status == RegistrationStatus.REGISTERED
    client.post(f"/giai/{event.slug}/quan-ly/diem-danh/{reg.pk}/", **HTMX)
    reg.refresh_from_db()
    assert reg.status == RegistrationStatus.CHECKED_IN
    clash = client.post(f"/giai/{event.slug}/quan-ly/dang-ky/", {"name": "Phúc"}, **HTMX)
    assert clash.status_code == 400 and "đã có người tên" in clash.content.decode()


def test_a_player_checks_in_by_their_personal_link(client, make_event) -> None:
    event = make_event(checked_in=0)
    reg = Registration.objects.get(event=event, player__name="Lan")
    url = f"/giai/{event.slug}/diem-danh/{reg.token}/"
    assert "Tôi đã đến" in client.get(url).content.decode()
    reg.refresh_from_db()
    assert reg.status == RegistrationStatus.REGISTERED  # looking at the link checks nobody in
    assert 'data-testid="checked-in"' in client.post(url, **HTMX).content.decode()
    reg.refresh_from_db()
    assert reg.status == RegistrationStatus.CHECKED_IN
    assert client.get(f"/giai/{event.slug}/diem-danh/sai-ma/").status_code == 404


def test_seating_a_round_and_recording_at_a_table(client, own_event, organiser) -> None:
    event, (t1, _t2) = own_event
    client.force_login(organiser)
    asked = client.post(
        f"/giai/{event.slug}/quan-ly/xep-vong/", {"method": "rotation", "remainder": "bye"}, **HTMX
    )
    assert asked.status_code == 409 and "Vòng 1 còn 2 chiếu đang chơi (chiếu 1, 2)" in asked.content.decode()
    assert not Table.objects.filter(event=event, round__number=2).exists()  # round 1's tables are still open
    response = client.post(
        f"/giai/{event.slug}/quan-ly/xep-vong/",
        {"method": "rotation", "remainder": "bye", "even_if_open": "1"},
        **HTMX,
    )
    assert response.status_code == 200 and "Vòng 2" in response.content.decode()
    assert Table.objects.filter(event=event, round__number=2).count() == 2
    url = f"/giai/{event.slug}/chieu/{t1.pk}/"
    winner = seat_names(t1)[3]
    missing = client.post(url, {"seq": 1, "key": "k1"}, **HTMX)
    assert missing.status_code == 400 and "Hãy chọn người ù" in missing.content.decode()
    done = client.post(url, {"seq": 1, "key": "k2", "winner": winner, "cuoc": ["tom"]}, **HTMX)
    assert done.status_code == 200
    assert f"{winner} ù 8" in done.content.decode()
    assert t1.sitting.van.count() == 1
    again = client.post(
        url, {"seq": 1, "key": "k2", "winner": winner, "cuoc": ["tom"]}, **HTMX
    )  # a double tap
    assert again.status_code == 200 and t1.sitting.van.count() == 1


def test_the_scoreboard_is_served_from_the_stored_leaderboard(
    client, seated, django_assert_num_queries
) -> None:
    event, (t1, _t2) = seated
    record(t1, 1, seat_names(t1)[0], ["chi_nay"])
    rebuild_leaderboard(event_id=event.pk)
    with django_assert_num_queries(2):  # the event with its board's state, then the rows to render
        response = client.get(f"/giai/{event.slug}/")
    with django_assert_num_queries(0):  # rendered already, and the state is half a second old at most
        assert "Chi Nẩy" in client.get(f"/giai/{event.slug}/").content.decode()
    page = response.content.decode()
    assert response.status_code == 200 and "Tạm tính" in page and "Chi Nẩy" in page
    assert page.index(seat_names(t1)[0]) < page.index(seat_names(t1)[1])
    tag = f"{Leaderboard.objects.get(event=event).version}.0.0"
    assert client.get(f"/giai/{event.slug}/?v={tag}", **HTMX).status_code == 204  # nothing new: no swap
    record(t1, 2, seat_names(t1)[1], ["tom"])  # a new ván, not yet recomputed: the board says so
    cache.clear()  # as if the half second a process reuses the event's state had passed
    pending = client.get(f"/giai/{event.slug}/?v={tag}", **HTMX)
    assert pending.status_code == 200 and "đang cập nhật" in pending.content.decode()
    assert 'id="board"' in pending.content.decode() and "<html" not in pending.content.decode()
    assert client.get(f"/giai/{event.slug}/man-chieu/").status_code == 200


def test_a_private_event_is_hidden_from_the_public(client, seated) -> None:
    event, _ = seated
    Event.objects.filter(pk=event.pk).update(is_public=False)
    assert client.get(f"/giai/{event.slug}/").status_code == 404
    assert event.name not in client.get("/giai/").content.decode()


def test_standings_and_statement_export_as_csv(client, seated, django_user_model) -> None:
    event, (t1, _t2) = seated
    a, b = seat_names(t1)[:2]
    record(t1, 1, a, ["tom"])
    record(t1, 2, b, ["chi_nay"])
    rebuild_leaderboard(event_id=event.pk)
    response = client.get(f"/giai/{event.slug}/xuat/bang-xep-hang.csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "bang-xep-hang-tam-tinh.csv" in response["Content-Disposition"]
    rows = _csv(response)
    assert rows[0][:4] == ["Hạng", "Người chơi", "Làng / giáp / đội", "Điểm"]
    assert rows[1][1] == b and rows[1][8] == "Chi Nẩy ×1"
    reg = Registration.objects.select_related("player").get(event=event, player__name=a)
    player = reg.player_id
    url = f"/giai/{event.slug}/xuat/sao-ke/{player}.csv"
    assert client.get(url)["Location"].startswith("/dang-nhap/?next=")  # a statement is personal
    reg.player.user = django_user_model.objects.create_user("nguoi-choi-a")
    reg.player.save(update_fields=["user"])
    client.force_login(reg.player.user)  # the player's own account
    statement = _csv(client.get(url))
    assert statement[0] == ["Vòng", "Chiếu", "Ván", "Lúc", "Điểm", "Cộng dồn", "Diễn giải"]
    amounts = [int(r[4]) for r in statement[1:]]
    assert sum(amounts) == int(statement[-1][5]) == 32 - 36
    assert "ù Tôm" in statement[1][6]


def test_recompute_command_prints_its_progress(seated) -> None:
    event, (t1, _t2) = seated
    record(t1, 1, seat_names(t1)[0], ["tom"])
    out = io.StringIO()
    call_command("recompute_leaderboards", event.slug, stdout=out)
    call_command("recompute_leaderboards", str(event.pk), stdout=out)
    text = out.getvalue()
    assert "10 người chơi, 2 canh" in text and "đã đếm 1 ván" in text
    assert "xong, phiên bản 1" in text and "xong, phiên bản 2" in text


def test_the_recompute_button_shows_progress_until_done(client, own_event, organiser, queued) -> None:
    event, _ = own_event
    client.force_login(organiser)
    response = client.post(f"/giai/{event.slug}/quan-ly/tinh-lai/", **HTMX)
    assert queued == [(event.pk, {"force": True})]
    assert "Đang tính lại" in response.content.decode()
    since = (timezone.now() - timedelta(seconds=5)).isoformat()
    rebuild_leaderboard(event_id=event.pk, force=True)
    done = client.get(f"/giai/{event.slug}/quan-ly/tinh-lai/", {"since": since}, **HTMX)
    assert "Phiên bản 1" in done.content.decode() and "every 1s" not in done.content.decode()
