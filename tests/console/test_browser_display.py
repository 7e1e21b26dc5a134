"""The console and the audience display in two real Chromium contexts (vi-VN) on a daphne server:
what the Trung Quân taps appears on the projector, live, and nothing is lost across a disconnection."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from rest_framework.authtoken.models import Token

from scoring.models import Van

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def screens(browser: Any, daphne_url: str, festival: Any) -> Iterator[tuple[Any, Any, Any]]:
    """(console page, display page, display context), the console logged in as the Trung Quân."""
    client = Client()
    client.force_login(festival.trung_quan)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    tablet = browser.new_context(locale="vi-VN", viewport={"width": 1280, "height": 900}, has_touch=True)
    tablet.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": daphne_url}])
    projector = browser.new_context(locale="vi-VN", viewport={"width": 1600, "height": 900})
    console, display = tablet.new_page(), projector.new_page()
    for p in (console, display):
        p.set_default_timeout(10_000)
    pk = festival.table.pk
    display.goto(f"{daphne_url}/man-hinh/{pk}/")
    display.locator('#dp-conn[data-state="live"]').wait_for()
    console.goto(f"{daphne_url}/trung-quan/{pk}/")
    try:
        yield console, display, projector
    finally:
        tablet.close()
        projector.close()


def seat(display: Any, position: int, role: str) -> Any:
    return display.locator(f'.dp-seat[data-seat="{position}"] [data-role="{role}"]')


def test_tapping_tung_tung_for_seat_3_shows_phong_at_seat_3(screens: Any) -> None:
    console, display, _ = screens
    console.locator('[data-seat="3"]').get_by_role("button", name="Tùng tùng: Phỗng").tap()
    seat(display, 3, "display").filter(has_text="Phỗng").wait_for()
    assert seat(display, 3, "label").inner_text() == "Tùng tùng"
    assert seat(display, 2, "display").inner_text() == ""
    assert display.locator("#dp-ticker li").last.inner_text().endswith("Chi Tùng tùng → Phỗng")


def test_red_flag_then_the_recorded_win_is_announced_with_its_points(screens: Any, festival: Any) -> None:
    console, display, _ = screens
    console.locator('[data-seat="2"]').get_by_role("button", name="Cờ đỏ: Ù!").tap()
    seat(display, 2, "flags").filter(has_text="Ù!").wait_for()
    form = console.get_by_test_id("van-form")
    form.wait_for()
    assert form.get_by_role("radio", name="2. Bình").is_checked()
    form.locator("label.chip", has_text="Tôm").tap()
    form.get_by_role("button", name="Lưu ván và báo lên màn hình").tap()
    announce = display.locator("#dp-announce")
    announce.filter(has_text="Ù! Bình").wait_for()
    van = Van.objects.get(sitting=festival.table.sitting, seq=1)
    assert van.points == 8
    assert display.locator("#dp-announce-points").inner_text() == f"{van.points} điểm"
    assert display.locator("#dp-announce-cuoc").inner_text() == "Tôm"
    assert display.locator("#dp-standings li").first.inner_text().split() == ["Bình", "+32"]
    assert seat(display, 2, "balance").inner_text() == "+32 điểm"
    console.get_by_test_id("console-announcement").wait_for()


def _post_signal(base: str, table: int, token: str, seat: int, signal: str) -> dict[str, Any]:
    request = urllib.request.Request(
        f"{base}/api/v1/tables/{table}/signals",
        method="POST",
        data=json.dumps({"seat": seat, "signal": signal}).encode(),
        headers={
            "Content-Type": "application/json",
            "Authorization": f"Token {token}",
            "Idempotency-Key": f"pad-{seat}-{signal}",
        },
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 201
        return json.loads(response.read())


def test_a_display_that_reconnects_gets_every_signal_it_missed_in_order(
    screens: Any, festival: Any, daphne_url: str
) -> None:
    console, display, projector = screens
    display.evaluate("window.__samePage = true")
    projector.set_offline(True)
    display.locator('#dp-conn[data-state="lost"]').wait_for()
    token = Token.objects.create(user=festival.trung_quan).key
    sent = [
        _post_signal(daphne_url, festival.table.pk, token, s, slug)
        for s, slug in [(1, "cac"), (4, "tung-tung-tung"), (5, "co-trang")]
    ]
    display.wait_for_timeout(300)
    assert display.locator("#dp-ticker li").count() == 0  # nothing arrives while offline
    projector.set_offline(False)
    display.locator('#dp-ticker li[data-via="sse"]').nth(2).wait_for()
    items = display.locator("#dp-ticker li").all_inner_texts()
    assert [t.split(" ", 1)[1] for t in items] == [
        "An Cắc → Không ăn",
        "Dũng Tùng tùng tùng → Dậy khàn",
        "Em Cờ trắng → Chịu",
    ]
    assert display.evaluate("window.totomDisplay.received") == [s["id"] for s in sent]
    assert display.evaluate("window.__samePage") is True  # resumed by Last-Event-ID, not reloaded
    assert seat(display, 5, "flags").inner_text().split() == ["⚑", "Chịu"]  # the flag's mark, in its colour
    # The console stayed online: the drum pads' signals reached it too, by its own stream.
    console.locator('[data-seat-status="5"]').filter(has_text="Cờ trắng → Chịu").wait_for()
    console.locator('[data-seat-status="4"]').filter(has_text="Dậy khàn").wait_for()


def _server_state(table_id: int) -> dict[str, Any]:
    """The table's state as the server computes it (what a fresh page would show)."""
    from django.core.serializers.json import DjangoJSONEncoder

    from tournaments.console.models import FestivalTable
    from tournaments.console.selectors import table_state

    state = json.loads(json.dumps(table_state(FestivalTable.objects.get(pk=table_id)), cls=DjangoJSONEncoder))
    del state["server_now"]
    return state


def _caught_up(display: Any, table_id: int) -> dict[str, Any]:
    """Wait until the display has applied the table's newest event; its folded state."""
    from tournaments.console.models import FestivalTable

    seq = FestivalTable.objects.get(pk=table_id).stream_seq
    deadline = time.monotonic() + 10  # polled: the page's CSP refuses wait_for_function's eval
    while not display.evaluate("window.totomDisplay.lastId").endswith(f":{seq}"):
        assert time.monotonic() < deadline, display.evaluate("window.totomDisplay.lastId")
        display.wait_for_timeout(50)
    return display.evaluate("JSON.parse(JSON.stringify(window.totomDisplay.state()))")


def test_the_display_folds_the_changes_into_the_state_a_fresh_page_shows(
    screens: Any, festival: Any, daphne_url: str
) -> None:
    """Events carry the change (a signal, the nọc); the display's folded state equals the server's
    after several signals, after a reconnection that replays what it missed (Last-Event-ID), and
    after one whose missed events were trimmed (a snapshot)."""
    from tournaments.console.models import DisplayEvent
    from tournaments.console.services import noc_change

    _console, display, projector = screens
    display.evaluate("window.__samePage = true")
    pk = festival.table.pk
    token = Token.objects.create(user=festival.trung_quan).key
    n = iter(range(1000))

    def send(seat: Any, slug: str) -> None:
        request = urllib.request.Request(
            f"{daphne_url}/api/v1/tables/{pk}/signals",
            method="POST",
            data=json.dumps({"seat": seat, "signal": slug}).encode(),
            headers={
                "Content-Type": "application/json",
                "Authorization": f"Token {token}",
                "Idempotency-Key": f"fold-{next(n)}",
            },
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.status == 201

    for seat_, slug in [(5, "co-vang"), (5, "co-vang"), (3, "co-trang"), (1, "tung-tung"), (2, "co-do")]:
        send(seat_, slug)
    noc_change(table=pk, delta=-2)
    send("trung_quan", "trong-nhac")
    assert _caught_up(display, pk) == _server_state(pk)
    assert seat(display, 5, "flags").inner_text() == "Bất thực ×2"
    assert display.locator("#dp-noc").inner_text() == "17"

    projector.set_offline(True)  # missed events, replayed from the server's store
    display.locator('#dp-conn[data-state="lost"]').wait_for()
    for seat_, slug in [(5, "tung-tung-cac"), (4, "co-do"), (4, "co-trang")]:
        send(seat_, slug)
    noc_change(table=pk, delta=-1)
    projector.set_offline(False)
    assert _caught_up(display, pk) == _server_state(pk)
    assert seat(display, 5, "flags").inner_text() == "Bất thực ×1"
    assert display.evaluate("window.totomDisplay.snapshots") == 0

    projector.set_offline(True)  # missed events no longer kept: a snapshot, then changes again
    display.locator('#dp-conn[data-state="lost"]').wait_for()
    for seat_, slug in [(1, "co-vang"), (2, "cac")]:
        send(seat_, slug)
    DisplayEvent.objects.filter(table_id=pk).delete()
    projector.set_offline(False)
    assert _caught_up(display, pk) == _server_state(pk)
    assert display.evaluate("window.totomDisplay.snapshots") == 1
    send(3, "tung")
    assert _caught_up(display, pk) == _server_state(pk)
    assert seat(display, 3, "display").inner_text() == "Ăn"
    assert display.evaluate("window.__samePage") is True  # never reloaded
    assert display.evaluate("window.totomDisplay.reloads") == 0
