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
    phone.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
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


@pytest.mark.parametrize(
    ("prefix", "duplicate", "no_winner"),
    [
        ("", "Giải đã có người tên 'An'", "Hãy chọn người ù (hoặc Hòa)."),
        ("/en", "The event already has a player named 'An'", "Choose who won (or Draw)."),
    ],
)
def test_refusals_sit_beside_their_field_in_both_languages(
    organiser_page, live_server, own, prefix, duplicate, no_winner
) -> None:
    """The refusal is beside the field it is about (tied to it for a screen reader), in the page's
    language, and the typed name stays to be corrected (issue 19, item 3)."""
    event, (table, _other) = own
    page = organiser_page
    page.goto(f"{live_server.url}{prefix}/giai/{event.slug}/quan-ly/")
    page.fill("#reg-name", "An")
    page.locator("#players form.inline-form button[type=submit]").tap()
    field_box = page.locator("#reg-name").locator("xpath=..")
    expect(field_box.locator("[role=alert]")).to_contain_text(duplicate)
    expect(page.locator("#reg-name")).to_have_attribute("aria-describedby", "reg-name-error")
    expect(page.locator("#reg-name")).to_have_value("An")
    page.fill("#reg-name", "An (Đông)")
    page.locator("#players form.inline-form button[type=submit]").tap()
    expect(page.locator("li[data-player='An (Đông)']")).to_have_count(1)
    expect(page.locator("#players [role=alert]")).to_have_count(0)
    expect(page.locator("#reg-name")).to_have_value("")

    page.goto(f"{live_server.url}{prefix}/giai/{event.slug}/chieu/{table.pk}/")
    page.locator("label.chip[data-cuoc='tom'] span").tap()
    page.locator("form.van-entry button[type=submit]").tap()
    winners = page.locator("form.van-entry fieldset").first
    expect(winners.locator("[role=alert]")).to_have_text(no_winner)
    expect(winners.locator("[role=radiogroup]")).to_have_attribute("aria-describedby", "winner-error")
