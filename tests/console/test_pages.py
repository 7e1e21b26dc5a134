"""The console pages (Trung Quân only) and the public display and timeline, through Django's client."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from scoring.models import Van
from tournaments.console.models import DisplayEvent, FestivalTable, SignalEvent

pytestmark = pytest.mark.django_db


def tq(festival: Any) -> Client:
    client = Client()
    client.force_login(festival.trung_quan)
    return client


def page(festival: Any, name: str) -> str:
    return f"/trung-quan/{festival.table.pk}/{name}"


def tap(client: Client, festival: Any, seat: Any, signal: str) -> Any:
    return client.post(page(festival, "hieu/"), {"seat": seat, "signal": signal}, HTTP_HX_REQUEST="true")


def state(festival: Any) -> dict[str, Any]:
    from tournaments.console.selectors import table_state

    return table_state(FestivalTable.objects.get(pk=festival.table.pk))


def test_anonymous_is_sent_to_log_in(festival: Any) -> None:
    response = Client().get(page(festival, ""))
    assert response.status_code == 302
    assert response["Location"] == f"/trung-quan/dang-nhap/?next=/trung-quan/{festival.table.pk}/"


def test_a_trung_quan_who_is_not_staff_signs_in_on_the_console_page(festival: Any) -> None:
    festival.trung_quan.set_password("trong-cai")
    festival.trung_quan.save()
    target = page(festival, "")
    response = Client().post(
        f"/trung-quan/dang-nhap/?next={target}",
        {"username": "trung-quan", "password": "trong-cai", "next": target},
        follow=True,
    )
    assert response.redirect_chain[-1][0] == target
    assert "Trung Quân · Chiếu sân đình" in response.content.decode()


def test_another_user_may_not_open_the_console_or_tap(festival: Any, django_user_model: Any) -> None:
    client = Client()
    client.force_login(django_user_model.objects.create_user("khan-gia"))
    assert client.get(page(festival, "")).status_code == 403
    assert tap(client, festival, 3, "tung-tung").status_code == 403
    assert not SignalEvent.objects.exists()


def test_the_console_has_a_pad_per_seat_with_every_signal(festival: Any) -> None:
    html = tq(festival).get(page(festival, "")).content.decode()
    for seat, name in enumerate(["An", "Bình", "Chi", "Dũng", "Em"], start=1):
        pad = html[html.index(f'class="tq-pad" data-seat="{seat}"') :]
        pad = pad[: pad.index('class="tq-pad"', 1) if seat < 5 else pad.index("</section>")]  # its groups too
        assert name in pad
        for label in (
            "Cắc",
            "Tùng tùng",
            "Tùng tùng tùng tùng",
            "Ba hồi dài",
            "Tùng tùng tùng cắc",
            "Cờ đỏ",
            "Cờ trắng",
            "Cờ vàng",
        ):
            assert f'<span class="tq-btn-label">{label}</span>' in pad
    assert "Khai hội" in html and "Trống nhắc" in html
    assert "Nọc còn" in html and ">19<" in html


def test_tapping_tung_tung_at_seat_3_shows_phong_there(festival: Any) -> None:
    response = tap(tq(festival), festival, 3, "tung-tung")
    assert response.status_code == 200
    html = response.content.decode()
    seat3 = html[html.index('data-seat-status="3"') :]
    assert "Tùng tùng → <strong>Phỗng</strong>" in seat3[: seat3.index("</article>")]


def test_a_red_flag_opens_the_van_form_with_the_winner_picked(festival: Any) -> None:
    html = tap(tq(festival), festival, 2, "co-do").content.decode()
    assert 'id="tq-van" hx-swap-oob="innerHTML"' in html
    assert re.search(r'value="Bình"[^>]*checked', html)
    assert state(festival)["u_seats"] == [2]


def test_a_long_roll_from_a_drum_pad_shows_the_form_when_the_console_loads(festival: Any) -> None:
    from tournaments.console.services import signal_send

    signal_send(table=festival.table, seat=4, signal="hoi-dai")
    html = tq(festival).get(page(festival, "")).content.decode()
    assert 'data-testid="van-form"' in html and re.search(r'value="Dũng"[^>]*checked', html)


def test_recording_the_win_announces_it_with_the_ledger_points(
    festival: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client = tq(festival)
    client.post(page(festival, "cai/"), {"seat": 1})
    with django_capture_on_commit_callbacks(execute=True):
        tap(client, festival, 2, "co-do")
        response = client.post(
            page(festival, "ghi-van/"),
            {"seq": 1, "key": "van-1", "winner": "Bình", "cuoc": ["tom"]},
            HTTP_HX_REQUEST="true",
        )
    assert response.status_code == 200 and response["HX-Retarget"] == "#tq-live"
    van = Van.objects.get(sitting=festival.table.sitting, seq=1)
    assert (van.winner.name, van.points) == ("Bình", 8)  # Tôm under luat-2005
    table = FestivalTable.objects.get(pk=festival.table.pk)
    assert (table.van_seq, table.dealer, table.turn, table.van_started_at) == (
        2,
        2,
        2,
        None,
    )  # the winner deals
    announcement = table.announcement
    assert (announcement["winner"], announcement["cuoc"], announcement["points"]) == ("Bình", ["Tôm"], 8)
    assert announcement["standings"][0] == {"name": "Bình", "balance": 32}
    last = DisplayEvent.objects.filter(table=table).order_by("-seq").first()
    assert last.type == "announce"
    sent = json.loads(last.data)
    assert sent["announcement"]["points"] == 8 and sent["state"]["van_seq"] == 2
    # A repeat of the same form (a double tap) records nothing more.
    again = client.post(
        page(festival, "ghi-van/"), {"seq": 1, "key": "van-1", "winner": "Bình", "cuoc": ["tom"]}
    )
    assert again.status_code == 200 and Van.objects.filter(sitting=table.sitting).count() == 1


def test_a_van_number_already_taken_is_explained(festival: Any) -> None:
    client = tq(festival)
    client.post(page(festival, "ghi-van/"), {"seq": 1, "key": "a", "winner": "An"})
    response = client.post(page(festival, "ghi-van/"), {"seq": 1, "key": "b", "winner": "Chi"})
    assert "Ván số 1 đã được ghi" in response.content.decode()


def test_flags_and_bat_thuc_are_counted_for_the_van_under_way(festival: Any) -> None:
    client = tq(festival)
    for seat, slug in [(1, "co-vang"), (1, "co-vang"), (1, "tung-tung-cac"), (5, "co-trang")]:
        tap(client, festival, seat, slug)
    seats = state(festival)["seats"]
    assert seats[0]["bat_thuc"] == 1
    assert seats[4]["chiu"] and [f["display"] for f in seats[4]["flags"]] == ["Chịu"]
    assert state(festival)["draw_at"] == 4  # a player who folds takes 3 more cards off the nọc


def test_the_noc_runs_down_to_doc_noc_and_offers_a_draw(festival: Any) -> None:
    client = tq(festival)
    client.post(page(festival, "noc/"), {"action": "set", "value": 2})
    html = client.post(page(festival, "noc/"), {"action": "draw"}).content.decode()
    assert 'data-testid="noc">1<' in html and "Ghi ván hòa" in html
    html = client.post(page(festival, "noc/"), {"action": "set", "value": 40}).content.decode()
    assert "Nọc chỉ có từ 0 đến 19 quân" in html


def test_turn_passes_counter_clockwise(festival: Any) -> None:
    client = tq(festival)
    client.post(page(festival, "luot/"), {"seat": 5})
    client.post(page(festival, "luot/"), {"action": "next"})
    assert FestivalTable.objects.get(pk=festival.table.pk).turn == 1


def test_the_dealer_helper_names_the_seat_and_offers_to_give_cai(festival: Any) -> None:
    html = (
        tq(festival)
        .post(
            page(festival, "bat-cai/"), {"method": "mot_quan", "card1": "7v", "chooser": "1", "players": "5"}
        )
        .content.decode()
    )
    assert "Cái về chỗ 3 — Chi, phần thứ 2" in html and "Giao cái cho Chi" in html
    html = (
        tq(festival).post(page(festival, "bat-cai/"), {"method": "mot_quan", "card1": "x7"}).content.decode()
    )
    assert "Không nhận ra quân bài" in html


def test_the_u_de_helper_names_the_winner(festival: Any) -> None:
    html = tq(festival).post(page(festival, "u-de/"), {"door": "1", "claimants": ["5", "3"]}).content.decode()
    assert "Chỗ 3 — Chi được ù; bị đè ù: Em" in html


def test_the_display_is_public_and_knows_where_its_stream_is(festival: Any) -> None:
    from tournaments.console.services import signal_send

    signal_send(table=festival.table, seat=3, signal="tung-tung")
    response = Client().get(f"/man-hinh/{festival.table.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'data-events-url="/su-kien/ban/{festival.table.pk}/"' in html
    assert re.search(rf'data-stream-id="ban-{festival.table.pk}:\d+"', html)
    assert "Phỗng" in html  # the ticker's recent signals and the state are in the page
    assert "<form" not in html  # read-only


def test_the_timeline_replays_each_van_in_order(festival: Any) -> None:
    from tournaments.console.services import signal_send, van_finish

    for seat, slug in [(1, "cac"), (2, "tung"), (3, "co-do")]:
        signal_send(table=festival.table, seat=seat, signal=slug)
    van_finish(table=festival.table, seq=1, record={"winner": "Chi"}, by=None, idempotency_key="t-1")
    signal_send(table=festival.table, seat=4, signal="tung-tung")
    html = Client().get(f"/man-hinh/{festival.table.pk}/dien-bien/").content.decode()
    first, second = html.index("Ván 1"), html.index("Ván 2")
    assert "Chi ù" in html[first:second]
    rows = re.findall(r"<strong>([^<]+)</strong> → ([^<]+)</td>", html)
    assert rows == [("Cắc", "Không ăn"), ("Tùng", "Ăn"), ("Cờ đỏ", "Ù!"), ("Tùng tùng", "Phỗng")]
