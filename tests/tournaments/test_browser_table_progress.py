"""Each table's progress on the organiser's page (issue 19, item 11), in real Chromium: the ván
played of the round's ván, the last ván's time, and who holds the table's PIN."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.conftest import sign_in
from tests.tournaments.conftest import record, seat_names
from tournaments.services.tokens import token_issue

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_organiser_sees_each_tables_progress(phone, live_server, own, organiser) -> None:
    event, (first, second) = own
    names = seat_names(first)
    record(first, 1, names[0], ["tom"])
    record(first, 2, names[1], ["tom"])
    token_issue(table=first, label="Bác Tư")
    sign_in(phone.context, live_server.url, organiser)
    phone.goto(f"{live_server.url}/giai/{event.slug}/quan-ly/")
    progress = phone.locator("#rounds [data-testid=table-progress]")
    expect(progress).to_have_count(2)
    expect(progress.nth(0)).to_contain_text(f"2/{event.van_per_round} ván")
    expect(progress.nth(0)).to_contain_text("ván cuối lúc")
    expect(progress.nth(0)).to_contain_text("giữ mã PIN: Bác Tư")
    expect(progress.nth(1)).to_contain_text(f"0/{event.van_per_round} ván")
    expect(progress.nth(1)).to_contain_text("chưa cấp mã PIN")
    phone.goto(f"{live_server.url}/en/giai/{event.slug}/quan-ly/")
    expect(phone.locator("#rounds [data-testid=table-progress]").nth(1)).to_contain_text("no PIN issued")
