"""Smaller things from the walk (issue 19, item 10) on the organiser's page, in real Chromium: on
/en/ the registration status and the money mode stayed Vietnamese; after registering a player the
focus did not come back to the name field."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_english_labels_and_the_focus_back_on_the_name_field(phone, live_server, own, organiser) -> None:
    event, _tables = own
    sign_in(phone.context, live_server.url, organiser)
    phone.goto(f"{live_server.url}/en/giai/{event.slug}/quan-ly/")
    lead = phone.locator("p.lead").first
    expect(lead).not_to_contain_text("Đánh quăng")
    expect(lead).to_contain_text("Direct payment")
    players = phone.locator("#players")
    expect(players).to_contain_text("Checked in")
    expect(players).not_to_contain_text("Đã điểm danh")

    phone.goto(f"{live_server.url}/giai/{event.slug}/quan-ly/")
    phone.fill("#reg-name", "Giáp Mới")
    phone.locator("#players form.inline-form button[type=submit]").tap()
    expect(phone.locator("li[data-player='Giáp Mới']")).to_have_count(1)
    expect(phone.locator("#reg-name")).to_be_focused()
    expect(phone.locator("#reg-name")).to_have_value("")
