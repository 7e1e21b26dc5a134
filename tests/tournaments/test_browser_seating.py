"""Seating the next round while tables of the last one are still playing (issue 19, item 4), in
real Chromium: "Xếp chỗ vòng 2" seated in one click with round 1's tables open (their players sat
in two rounds at once), and "Xếp chỗ vòng 3" was offered at once. Now the page names the open
tables and asks before seating."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.conftest import sign_in
from tournaments.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_next_round_waits_for_open_tables_or_a_confirmation(phone, live_server, own, organiser) -> None:
    event, tables = own
    sign_in(phone.context, live_server.url, organiser)
    page = phone
    page.goto(f"{live_server.url}/giai/{event.slug}/quan-ly/")
    rounds = page.locator("#rounds")
    expect(rounds.get_by_test_id("open-tables")).to_contain_text("Vòng 1 còn 2 chiếu đang chơi")
    expect(rounds.get_by_test_id("open-tables").get_by_role("link")).to_have_text(["Chiếu 1", "Chiếu 2"])

    rounds.get_by_role("button", name="Xếp chỗ vòng 2").tap()  # one click: refused, the open tables named
    expect(rounds.get_by_role("alert")).to_contain_text("Vòng 1 còn 2 chiếu đang chơi (chiếu 1, 2)")
    assert Round.objects.filter(event=event).count() == 1

    page.locator("#rounds [data-testid=even-if-open]").check()  # the organiser confirms
    page.locator("#rounds").get_by_role("button", name="Xếp chỗ vòng 2").tap()
    expect(page.locator("#rounds h3").filter(has_text="Vòng 2")).to_have_count(1)
    assert Round.objects.filter(event=event).count() == 2
    # Round 3 is not seated in one more click: round 2's tables are open now.
    expect(page.locator("#rounds [data-testid=open-tables]")).to_contain_text("Vòng 2 còn 2 chiếu đang chơi")
    expect(page.locator("#rounds [data-testid=even-if-open]")).not_to_be_checked()
    page.locator("#rounds").get_by_role("button", name="Xếp chỗ vòng 3").tap()
    expect(page.locator("#rounds [role=alert]")).to_contain_text("Vòng 2 còn 2 chiếu đang chơi")
    assert Round.objects.filter(event=event).count() == 2


def test_with_every_table_closed_the_next_round_is_one_click(phone, live_server, own, organiser) -> None:
    event, tables = own
    for table in tables:
        table.closed_at = timezone.now()
        table.save(update_fields=["closed_at"])
    sign_in(phone.context, live_server.url, organiser)
    phone.goto(f"{live_server.url}/en/giai/{event.slug}/quan-ly/")
    expect(phone.locator("#rounds [data-testid=open-tables]")).to_have_count(0)
    phone.locator("#rounds button[type=submit]").tap()
    expect(phone.locator("#rounds h3")).to_have_count(2)
    expect(phone.locator("#rounds [data-testid=open-tables]")).to_contain_text(
        "Round 2 still has 2 tables playing"
    )
