"""htmx forms show the server's refusal on the page (issue 19 item 3): a 4xx answer carries the
form's partial with the message, and htmx swaps it in instead of dropping it (base.html's
``htmx-config``). In real Chromium: a duplicate registration, and "Ghi ván" with no winner."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def organiser_page(phone, live_server, own, organiser):
    client = Client()
    client.force_login(organiser)
    phone.context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                                "url": live_server.url}])
    return phone


def test_a_duplicate_name_is_refused_on_the_organisers_page(organiser_page, live_server, own) -> None:
    event, _tables = own
    page = organiser_page
    page.goto(f"{live_server.url}/giai/{event.slug}/quan-ly/")
    page.fill("#reg-name", "An")
    page.get_by_role("button", name="Đăng ký").tap()
    expect(page.locator("#players [role=alert]")).to_contain_text("Giải đã có người tên 'An'")
    expect(page.locator("li[data-player]")).to_have_count(10)


def test_a_van_with_no_winner_is_refused_on_the_table_page(organiser_page, live_server, own) -> None:
    event, (table, _other) = own
    page = organiser_page
    page.goto(f"{live_server.url}/giai/{event.slug}/chieu/{table.pk}/")
    page.locator("label.chip[data-cuoc='tom'] span").tap()
    page.get_by_role("button", name="Ghi ván").tap()
    expect(page.locator("#table [role=alert]")).to_have_text("Hãy chọn người ù (hoặc Hòa).")
