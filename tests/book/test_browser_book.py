"""The treasurer's month in real Chromium, on a 390 px phone: open the club book, pick the month,
read a member's statement, download its PDF, close the month with the fewest transfers after
confirming, and see every balance at 0."""

from __future__ import annotations

import datetime as dt
import subprocess
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from scoring.models import PeriodClose, Player
from tests.book.conftest import FIVE_A, FIVE_B, canh

pytestmark = [pytest.mark.browser, pytest.mark.sqlite, pytest.mark.django_db(transaction=True)]


def _phone(browser: Any, base: str, user: Any) -> Any:
    client = Client()
    client.force_login(user)
    context = browser.new_context(
        locale="vi-VN", viewport={"width": 390, "height": 844}, has_touch=True, accept_downloads=True
    )
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "url": base,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
            }
        ]
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def test_the_treasurer_s_month(
    live_server: Any, browser: Any, club: Any, treasurer: Any, tmp_path: Any
) -> None:
    # Tháng Hai năm Ất Tỵ: 28/02 – 28/03/2025; one canh before it (tháng Giêng), two in it.
    canh(club, dt.date(2025, 2, 10), FIVE_A, [{"winner": "Cụ Tư", "cuoc": ["tom"]}])
    canh(
        club,
        dt.date(2025, 3, 5),
        FIVE_A,
        [{"winner": "Bác Năm", "cuoc": ["leo"]}, {"winner": "Cụ Tư", "cuoc": ["thap_dieu"]}],
    )
    canh(club, dt.date(2025, 3, 20), FIVE_B, [{"winner": "Ông Chín", "cuoc": ["chi_nay"]}], mode="gom")
    page = _phone(browser, live_server.url, treasurer)
    try:
        page.goto(f"{live_server.url}/lang/{club.slug}/so/?ky=nam-2025")
        page.get_by_test_id("period-label").filter(has_text="Năm Ất Tỵ (2025)").wait_for()
        assert page.locator("[data-testid=book-table] tbody tr").count() == 6
        page.locator("canvas[data-drawn]").wait_for(state="attached")  # the season's chart is drawn
        assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the table scrolls, not the page

        # The month, chosen in the period picker (htmx swaps the book, the address follows).
        page.get_by_label("Kỳ (âm lịch)").select_option("thang-2025-02")
        page.get_by_test_id("period-pick").get_by_role("button", name="Xem").first.click()
        page.get_by_test_id("period-label").filter(has_text="Tháng Hai năm Ất Tỵ").wait_for()
        assert "ky=thang-2025-02" in page.url
        assert page.locator("[data-testid=book-table] tbody tr").count() == 6  # FIVE_A and FIVE_B
        assert page.evaluate("performance.getEntriesByType('navigation').length") == 1  # swapped, no reload

        # A member's statement, and its PDF.
        ba = Player.objects.get(club=club, name="Bác Năm")
        page.get_by_test_id(f"statement-link-{ba.pk}").click()
        page.get_by_test_id("member-name").filter(has_text="Bác Năm").wait_for()
        assert page.get_by_test_id("period-label").inner_text() == "Tháng Hai năm Ất Tỵ"
        points = int(page.get_by_test_id("points").inner_text())
        with page.expect_download() as download:
            page.get_by_test_id("download-pdf").click()
        pdf = tmp_path / download.value.suggested_filename
        download.value.save_as(pdf)
        assert pdf.read_bytes().startswith(b"%PDF")
        text = subprocess.run(
            ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
        ).stdout
        assert club.name in text and "Sao kê: Bác Năm" in text and str(points) in text

        # Close the month: the confirmation first, then the book at 0.
        page.go_back()
        page.get_by_test_id("close-link").click()
        plan = page.get_by_test_id("plan")
        plan.wait_for()
        transfers = plan.locator("li").count()
        people = page.get_by_test_id("balances").locator("li").count()
        assert 1 <= transfers <= people - 1
        assert page.get_by_test_id("running").count() == 1  # the canh still running will end
        page.get_by_test_id("confirm-close").click()
        page.get_by_role("status").filter(has_text="Đã chốt sổ Tháng Hai năm Ất Tỵ").wait_for()
        page.get_by_test_id("no-plan").wait_for()
        opens = page.locator("[data-testid=book-table] [data-testid=open]").all_inner_texts()
        assert opens and set(opens) == {"0"}
        close = PeriodClose.objects.get(club=club)
        assert len(close.transfers) == transfers and close.date_from == dt.date(2025, 2, 28)
    finally:
        page.context.close()
