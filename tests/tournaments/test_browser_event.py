"""A festival in real headless Chromium: the organiser on a phone, the crowd on the scoreboard."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from playwright.sync_api import expect

from tests.tournaments.conftest import PLAYERS

pytestmark = [pytest.mark.browser, pytest.mark.celery, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def organiser_phone(phone, live_server, django_user_model):
    """The phone, signed in as an organiser (a plain user, not staff)."""
    user = django_user_model.objects.create_user("ong-truong-ban", password="mat-khau-dai-123")
    client = Client()
    client.force_login(user)
    phone.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    return phone


def _create_event(page, base: str) -> str:
    page.goto(base + "/giai-moi/")
    page.fill("#id_name", "Hội làng Xuân Ất Tỵ")
    page.fill("#id_date", "2025-02-03")
    page.select_option("#id_game", "to-tom-5")
    page.select_option("#id_rules", "luat-2005")
    page.get_by_role("button", name="Tạo giải").tap()
    page.wait_for_url(re.compile(r"/quan-ly/$"))
    assert "mùng 6 tháng Giêng" in page.locator(".lead").inner_text()
    return page.url.removeprefix(base).removesuffix("quan-ly/")


def _register_and_check_in(page) -> None:
    page.locator("input[name=check_in]").uncheck()
    for name, team in PLAYERS:
        page.fill("#reg-name", name)
        page.fill("#reg-team", team)
        page.get_by_role("button", name="Đăng ký").tap()
        page.locator(f"li[data-player='{name}']").wait_for()
        page.locator("input[name=check_in]").uncheck()
    for name, _team in PLAYERS:
        page.locator(f"li[data-player='{name}']").get_by_role("button", name="Điểm danh").tap()
        page.locator(f"li.co_mat[data-player='{name}']").wait_for()
    assert page.get_by_test_id("present").inner_text().startswith("10/10")


def _record_first_seat_wins(page, cuoc: str) -> str:
    winner = page.locator("label[data-winner]").first.get_attribute("data-winner")
    page.locator(f"label.chip[data-winner='{winner}'] span").tap()
    page.locator(f"label.chip[data-cuoc='{cuoc}'] span").tap()
    page.get_by_role("button", name="Ghi ván").tap()
    page.get_by_test_id("van-list").filter(has_text=f"{winner} ù").wait_for()
    return winner


def test_an_organiser_runs_round_one_and_the_scoreboard_follows_live(organiser_phone, browser, live_server):
    page, base = organiser_phone, live_server.url
    path = _create_event(page, base)
    _register_and_check_in(page)
    page.select_option("#rounds select[name=method]", "random")
    page.get_by_role("button", name="Xếp chỗ vòng 1").tap()
    links = page.get_by_test_id("table-link")
    links.nth(1).wait_for()
    assert links.count() == 2
    tables = [links.nth(i).get_attribute("href") for i in range(2)]

    crowd_context = browser.new_context(locale="vi-VN", viewport={"width": 390, "height": 844})
    try:
        _crowd_watches(crowd_context.new_page(), page, base, path, tables)
    finally:
        crowd_context.close()


def _crowd_watches(crowd, page, base: str, path: str, tables: list[str]) -> None:
    crowd.set_default_timeout(15_000)
    crowd.goto(base + path)
    rows = crowd.get_by_test_id("standings").locator("tbody tr[data-player]")
    rows.nth(9).wait_for()  # the ten registered players, before any ván

    page.goto(base + tables[0])
    small = _record_first_seat_wins(page, "tom")  # 8 from each of four: +32
    page.goto(base + tables[1])
    big = _record_first_seat_wins(page, "chi_nay")  # 36 from each of four: +144

    # Exact names, retried until the poll lands: has_text is a case-insensitive substring ("An" is in "Lan").
    first_rows = crowd.get_by_test_id("standings").locator("tbody tr")
    expect(first_rows.nth(0).locator(".name")).to_have_text(big)
    expect(first_rows.nth(1).locator(".name")).to_have_text(small)
    expect(first_rows.nth(0).locator(".points")).to_have_text("144")
    expect(first_rows.nth(1).locator(".points")).to_have_text("32")
    assert "Chi Nẩy" in crowd.get_by_test_id("cuoc").inner_text()
    # Updated in place by htmx polling: the crowd's page never reloaded.
    assert crowd.evaluate("performance.getEntriesByType('navigation').length") == 1


def test_the_table_clock_counts_down_live_and_offers_to_close_when_time_is_up(organiser_phone, live_server):
    """The clock runs in the page (no reload) from the table's stored end time."""
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from tests.tournaments.conftest import PLAYERS as NAMES
    from tournaments.models import Table
    from tournaments.services.events import check_in, event_create, registration_add
    from tournaments.services.rounds import round_seat

    event = event_create(
        name="Giải giờ",
        date=timezone.localdate(),
        game="to-tom-5",
        rules="luat-2005",
        round_format="gio",
        minutes_per_round=5,
    )
    event.organisers.add(get_user_model().objects.get(username="ong-truong-ban"))
    for name, team in NAMES:
        check_in(registration=registration_add(event=event, name=name, team=team))
    round_seat(event=event, method="random", seed=1)
    table = Table.objects.filter(event=event).order_by("number").first()
    Table.objects.filter(pk=table.pk).update(ends_at=timezone.now() + timedelta(seconds=3))
    page = organiser_phone
    page.goto(f"{live_server.url}/giai/{event.slug}/chieu/{table.pk}/")
    left = page.locator(".clock-left")
    first = left.inner_text()
    assert re.fullmatch(r"0:0[0-3]", first), first
    page.locator(".clock.over").wait_for(timeout=8_000)
    assert left.inner_text() == "Đã hết giờ"
    close = page.get_by_test_id("close-table")
    assert "secondary" not in (close.get_attribute("class") or "")  # now the main button
    assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
