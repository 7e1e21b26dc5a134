"""Smaller things from the walk (issue 19, item 10), in real Chromium: an empty chart drew a bare
0–1 axis with no word (the organiser's page's part: tests/tournaments/test_browser_small_fixes.py)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.services.sittings import sitting_open, van_record
from tests.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["An", "Bình", "Chi", "Dũng", "Em"]


@pytest.mark.parametrize(("prefix", "words"), [("", "Chưa có số liệu"), ("/en", "No data yet")])
def test_an_empty_chart_says_there_is_no_data_yet(phone, live_server, keeper, prefix, words) -> None:
    sitting = sitting_open(
        game="to-tom-5",
        rules="luat-2005",
        mode="quang",
        players=PLAYERS,
        created_by=keeper,
        idempotency_key=None,
    ).obj
    sign_in(phone.context, live_server.url, keeper)
    phone.goto(f"{live_server.url}{prefix}/so-diem/{sitting.pk}/in-xuat/")
    expect(phone.get_by_test_id("chart-empty")).to_be_visible()
    expect(phone.get_by_test_id("chart-empty")).to_contain_text(words)
    expect(phone.get_by_test_id("balance-chart")).to_be_hidden()

    van_record(sitting=sitting, seq=1, record={"winner": "An", "cuoc": ["tom"]}, idempotency_key=None)
    phone.reload()
    expect(phone.get_by_test_id("balance-chart")).to_have_attribute("data-drawn", "5")
    expect(phone.get_by_test_id("chart-empty")).to_be_hidden()
