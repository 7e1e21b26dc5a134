"""The sổ điểm pages through Django's test client: open a sitting, record, repeat, conflict,
correct, settle. Balances shown are compared with the engine's replay of the same ván."""

from __future__ import annotations

import html as htmllib
import re
from typing import Any

import pytest

from scoring.engine.settlement import replay
from scoring.models import LedgerTransaction, Player, Sitting, Van
from scoring.services.sittings import sitting_open, van_record

#: Every page here is the scorekeeper's: signed in as ``keeper``, who opened the sittings.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("signed_in")]

PLAYERS = ["An", "Bình", "Chi", "Dũng", "Em"]
HOA = "__hoa__"


@pytest.fixture
def sitting(keeper: Any) -> Sitting:
    return sitting_open(
        game="to-tom-5",
        rules="luat-2005",
        mode="quang",
        players=PLAYERS,
        created_by=keeper,
        idempotency_key=None,
    ).obj


def form_of(client: Any, sitting: Sitting) -> dict[str, Any]:
    """The hidden fields of the ván form as rendered (idempotency key, expected number)."""
    context = client.get(f"/so-diem/{sitting.pk}/").context
    return {"key": context["key"], "seq": context["seq"]}


def text(response: Any) -> str:
    return htmllib.unescape(response.content.decode())


def shown_balances(html: str) -> dict[str, int]:
    pairs = re.findall(r'data-name="([^"]+)" data-balance="(-?\d+)"', html)
    return {name: int(value) for name, value in pairs}


def expected(vans: list[dict[str, Any]], mode: str = "quang") -> dict[str, int]:
    return replay({"game": "to-tom-5", "rules": "luat-2005", "mode": mode, "players": PLAYERS, "van": vans})[
        "balances"
    ]


def test_starting_a_sitting_through_the_form_seats_players_in_order_and_reuses_names(client) -> None:
    an = Player.objects.create(name="An")
    page = client.get("/so-diem/moi/?game=to-tom-5")
    assert page.status_code == 200
    assert text(page).count('name="player"') == 5
    response = client.post(
        "/so-diem/moi/",
        {
            "key": "k-open-1",
            "game": "to-tom-5",
            "rules": "luat-2005",
            "mode": "gom",
            "player": PLAYERS,
            "title": "Canh bài đình làng",
        },
    )
    assert response.status_code == 302
    sitting = Sitting.objects.get()
    assert response["Location"] == f"/so-diem/{sitting.pk}/"
    assert (sitting.game, sitting.mode, sitting.title) == ("to-tom-5", "gom", "Canh bài đình làng")
    seats = list(sitting.seats.order_by("position"))
    assert [s.name for s in seats] == PLAYERS
    assert seats[0].player_id == an.pk
    page = client.get(response["Location"]).content.decode()
    assert "Canh bài đình làng" in page and "Ghi ván 1" in page
    assert "Canh bài đình làng" in client.get("/so-diem/").content.decode()


def test_start_form_errors_are_vietnamese_and_keep_what_was_typed(client) -> None:
    response = client.post(
        "/so-diem/moi/",
        {
            "key": "k-open-2",
            "game": "to-tom-5",
            "rules": "luat-2005",
            "mode": "quang",
            "player": ["An", "Bình", "Chi", "Dũng", ""],
            "title": "Tối thứ bảy",
        },
    )
    assert response.status_code == 400
    html = text(response)
    assert "Tổ Tôm Bí Ngũ cần 5 người chơi (nhận được 4)" in html
    assert 'value="Dũng"' in html and 'value="Tối thứ bảy"' in html
    assert not Sitting.objects.exists()


def test_recording_a_van_through_the_form_shows_the_replayed_balances(client, sitting) -> None:
    hidden = form_of(client, sitting)
    assert hidden["seq"] == 1
    response = client.post(
        f"/so-diem/{sitting.pk}/van/",
        {
            **hidden,
            "winner": "An",
            "cuoc": ["tom"],
            "discarder": "Bình",
        },
        follow=True,
    )
    assert response.status_code == 200
    html = text(response)
    assert "Đã lưu ván 1" in html
    assert shown_balances(html) == expected([{"winner": "An", "cuoc": ["tom"], "discarder": "Bình"}])
    assert 'data-seq="1"' in html and "Ghi ván 2" in html


def test_preview_shows_points_streak_and_transfers_and_writes_nothing(client, sitting) -> None:
    van_record(sitting=sitting, seq=1, record={"winner": "An", "cuoc": ["leo"]}, idempotency_key=None)
    response = client.post(
        f"/so-diem/{sitting.pk}/xem-truoc/", {"winner": "An", "cuoc": ["leo"]}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    html = text(response)
    assert "<html" not in html  # the partial only
    assert 'data-testid="preview-streak">Thông<' in html
    assert html.count("→ An") == 4  # every other player pays the winner
    assert Van.objects.count() == 1
    assert "HX-Request" in response["Vary"]


def test_a_repeated_post_with_the_same_key_records_once(client, sitting) -> None:
    body = {**form_of(client, sitting), "winner": "Chi", "cuoc": ["leo"]}
    first = client.post(f"/so-diem/{sitting.pk}/van/", body, HTTP_HX_REQUEST="true")
    transactions = LedgerTransaction.objects.count()
    second = client.post(f"/so-diem/{sitting.pk}/van/", body, HTTP_HX_REQUEST="true")
    assert first.status_code == second.status_code == 200
    assert Van.objects.count() == 1
    assert LedgerTransaction.objects.count() == transactions
    assert "gửi lặp" in text(second)
    assert shown_balances(text(second)) == expected([{"winner": "Chi", "cuoc": ["leo"]}])


def test_a_stale_sequence_number_is_refused_with_409_and_the_current_state(client, sitting) -> None:
    stale = form_of(client, sitting)
    van_record(
        sitting=sitting, seq=1, record={"winner": "Bình", "cuoc": ["tom"]}, idempotency_key="other-phone"
    )
    response = client.post(f"/so-diem/{sitting.pk}/van/", {**stale, "winner": "Em"})
    assert response.status_code == 409
    html = text(response)
    assert "Ván số 1 đã được ghi; ván tiếp theo là số 2" in html
    assert "Bình ù: Tôm" in html  # what the other phone recorded
    assert shown_balances(html) == expected([{"winner": "Bình", "cuoc": ["tom"]}])
    assert 'name="seq" value="2"' in html and f'value="{stale["key"]}"' not in html
    assert Van.objects.filter(is_current=True).count() == 1


def test_a_correction_requires_a_reason_then_supersedes_the_van(client, sitting) -> None:
    van_record(sitting=sitting, seq=1, record={"winner": "An", "cuoc": ["tom"]}, idempotency_key=None)
    page = client.get(f"/so-diem/{sitting.pk}/van/1/sua/")
    assert page.status_code == 200
    assert 'value="An" checked' in text(page)  # prefilled from the record
    body = {"key": page.context["key"], "correct_seq": "1", "winner": "Dũng", "cuoc": ["tom"], "reason": "  "}
    refused = client.post(f"/so-diem/{sitting.pk}/van/1/sua/", body)
    assert refused.status_code == 400
    assert "Hãy ghi lý do sửa ván." in text(refused)
    assert Van.objects.count() == 1
    done = client.post(
        f"/so-diem/{sitting.pk}/van/1/sua/", {**body, "reason": "ghi nhầm người ù"}, follow=True
    )
    html = text(done)
    assert "Đã sửa ván 1" in html
    assert 'data-testid="superseded"' in html and "ghi nhầm người ù" in html
    assert shown_balances(html) == expected([{"winner": "Dũng", "cuoc": ["tom"]}])


def test_a_correction_form_drawn_before_someone_else_corrected_is_refused_not_applied(
    client, sitting
) -> None:
    """Two scorekeepers open the correction of ván 1; the first saves. The second's form names the
    version it was drawn from, so its save is refused (409) with the ván as it now stands, instead
    of silently replacing the first correction; saved again from that page, it goes in."""
    van_record(sitting=sitting, seq=1, record={"winner": "An", "cuoc": ["tom"]}, idempotency_key=None)
    url = f"/so-diem/{sitting.pk}/van/1/sua/"
    first, second = client.get(url), client.get(url)
    original = Van.objects.get()
    assert f'name="replaces" value="{original.pk}"' in text(second)
    body = {"correct_seq": "1", "replaces": str(original.pk), "cuoc": ["tom"], "reason": "ghi nhầm người ù"}
    assert client.post(url, {**body, "key": first.context["key"], "winner": "Bình"}).status_code == 302
    late = client.post(url, {**body, "key": second.context["key"], "winner": "Chi"})
    assert late.status_code == 409
    assert "đã được sửa bằng một bản khác" in text(late)
    assert [v.record["winner"] for v in Van.objects.filter(is_current=True)] == ["Bình"]
    now = Van.objects.get(is_current=True)
    assert f'name="replaces" value="{now.pk}"' in text(late)  # the page now names the version shown
    again = client.post(url, {**body, "replaces": str(now.pk), "key": late.context["key"], "winner": "Chi"})
    assert again.status_code == 302
    assert [v.record["winner"] for v in Van.objects.filter(is_current=True)] == ["Chi"]
    assert Van.objects.count() == 3


@pytest.mark.parametrize(
    ("taps", "message"),
    [
        ({"winner": "An", "fault": "danh_u_den"}, "cần 'discarder'"),
        ({"winner": "Giáp"}, "không có người chơi 'Giáp'"),
        ({"winner": "An", "chiu": ["An"]}, "đã chịu (bỏ ván)"),
        (
            {"winner": HOA, "ga_kind_1": "nhai", "ga_player_1": "Em", "ga_count_1": "hai"},
            "phải là một số nguyên",
        ),
        ({}, "Chưa có kết quả ván: hãy chọn người ù, hoặc Hòa, hoặc người báo."),
    ],
)
def test_bad_input_is_refused_with_a_vietnamese_message_and_400(client, sitting, taps, message) -> None:
    response = client.post(f"/so-diem/{sitting.pk}/van/", {**form_of(client, sitting), **taps})
    assert response.status_code == 400
    assert message in text(response)
    assert not Van.objects.exists()


def test_missing_key_or_number_is_a_400_not_a_500(client, sitting) -> None:
    response = client.post(f"/so-diem/{sitting.pk}/van/", {"winner": "An", "seq": "x"})
    assert response.status_code == 400
    assert "khóa chống gửi lặp" in text(response)


def test_the_same_key_with_other_taps_is_refused_with_422(client, sitting) -> None:
    hidden = form_of(client, sitting)
    client.post(f"/so-diem/{sitting.pk}/van/", {**hidden, "winner": "An"})
    response = client.post(f"/so-diem/{sitting.pk}/van/", {**hidden, "winner": "Em"})
    assert response.status_code == 422
    assert "đã được dùng cho một yêu cầu khác" in text(response)
    assert Van.objects.count() == 1


def test_settling_up_records_the_fewest_transfers_and_ends_the_sitting(client, sitting) -> None:
    van_record(sitting=sitting, seq=1, record={"winner": "An", "cuoc": ["leo"]}, idempotency_key=None)
    van_record(sitting=sitting, seq=2, record={"result": "hoa"}, idempotency_key=None)
    page = client.get(f"/so-diem/{sitting.pk}/thanh-toan/")
    html = text(page)
    assert html.count("→ An") == 4
    assert not Sitting.objects.get().ended_at  # the preview wrote nothing
    done = client.post(
        f"/so-diem/{sitting.pk}/thanh-toan/", {"key": page.context["key"], "confirm": "1"}, follow=True
    )
    html = text(done)
    assert "Đã thanh toán và kết thúc canh bài." in html
    assert "Lưu ván" not in html  # read-only now
    assert shown_balances(html) == expected([{"winner": "An", "cuoc": ["leo"]}, {"result": "hoa"}])
    late = client.post(f"/so-diem/{sitting.pk}/van/", {"key": "late", "seq": "3", "winner": "Em"})
    assert late.status_code == 409
    assert "đã thanh toán và kết thúc" in text(late)


def test_gom_sitting_shows_pool_hoi_summary_and_integrity_line(client, keeper) -> None:
    s = sitting_open(
        game="to-tom-5",
        rules="luat-2005",
        mode="gom",
        players=PLAYERS,
        created_by=keeper,
        idempotency_key=None,
    ).obj
    vans = [{"winner": "An", "cuoc": ["tom"]}, {"winner": "An", "cuoc": ["leo"]}]
    for seq, record in enumerate(vans, start=1):
        van_record(sitting=s, seq=seq, record=record, idempotency_key=None)
    html = client.get(f"/so-diem/{s.pk}/").content.decode()
    answer = replay(
        {"game": "to-tom-5", "rules": "luat-2005", "mode": "gom", "players": PLAYERS, "van": vans}
    )
    assert shown_balances(html) == answer["balances"]
    assert re.search(r'data-testid="pool">Điểm làng: <b>(\d+)</b>', html).group(1) == str(answer["pool"])
    assert "Mọi bút toán cân (tổng bằng 0)" in html
    assert "Hội 1" in html
    assert 'data-testid="streak-holder">Thông<' in html


TOM_HAND = "7v 3m 3s 4v 5v 6v 2v 2m 2s 5m 6m 7m 9v 9m 9s 1v oc 4s 5s 6s 1m"


def test_typed_cards_are_checked_in_the_preview_and_kept_with_the_van(client, sitting) -> None:
    taps = {"winner": "An", "cuoc": ["tom"], "cards": TOM_HAND}
    shown = client.post(f"/so-diem/{sitting.pk}/xem-truoc/", taps, HTTP_HX_REQUEST="true")
    assert 'data-testid="kiem-bai">Kiểm bài:' in text(shown)
    assert "verdict-ok" in text(shown)
    client.post(f"/so-diem/{sitting.pk}/van/", {**form_of(client, sitting), **taps})
    van = Van.objects.get()
    assert van.cards == TOM_HAND and van.kiem_bai["valid"] is True
    # The ván list names the cards (issue 19, item 8), never the codes.
    page = text(client.get(f"/so-diem/{sitting.pk}/"))
    assert "Thất Văn, Tam Vạn, Tam Sách, Tứ Văn" in page and TOM_HAND not in page


def test_unreadable_cards_are_refused_in_vietnamese(client, sitting) -> None:
    taps = {"winner": "An", "cuoc": ["tom"], "cards": "7v 3m x9"}
    shown = client.post(f"/so-diem/{sitting.pk}/xem-truoc/", taps, HTTP_HX_REQUEST="true")
    assert "Không nhận ra quân bài" in text(shown)
    response = client.post(f"/so-diem/{sitting.pk}/van/", {**form_of(client, sitting), **taps})
    assert response.status_code == 400
    assert "Không nhận ra quân bài" in text(response)
    assert not Van.objects.exists()


def test_htmx_save_of_a_stale_number_swaps_in_the_current_sitting_with_409(client, sitting) -> None:
    stale = form_of(client, sitting)
    van_record(sitting=sitting, seq=1, record={"result": "hoa"}, idempotency_key=None)
    response = client.post(
        f"/so-diem/{sitting.pk}/van/", {**stale, "winner": "An", "cuoc": ["leo"]}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 409
    html = text(response)
    assert html.lstrip().startswith('<div id="sitting"')  # the partial htmx swaps in
    assert "Ván số 1 đã được ghi" in html and "Ván 1 đang ghi: Hòa" in html
    assert 'value="An" checked' in html  # the taps are kept for a deliberate retry
    assert "HX-Request" in response["Vary"]


@pytest.mark.parametrize("url", ["/so-diem/999/", "/so-diem/999/thanh-toan/", "/so-diem/{pk}/van/7/sua/"])
def test_a_missing_sitting_or_van_is_a_vietnamese_404(client, sitting, url) -> None:
    response = client.get(url.format(pk=sitting.pk))
    assert response.status_code == 404
    assert "Không có canh bài số 999." in text(response) or "không có ván số 7" in text(response)
