"""The club book in real Chromium, as the third walk found it (issue 31): at 390 px axe found one
serious finding (a table that scrolls sideways could not be reached from the keyboard:
``scrollable-region-focusable``); at 1280 px the statement's "Xem" button was stretched to half the
page; the statement's CSV began its detail cells with a visible apostrophe."""

from __future__ import annotations

import csv
import datetime as dt
import io
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from scoring.models import Player
from tests.a11y.checks import add_axe, axe_violations, describe
from tests.book.conftest import FIVE_A, canh

pytestmark = [pytest.mark.browser, pytest.mark.sqlite, pytest.mark.django_db(transaction=True)]


def _page(browser: Any, base: str, user: Any, width: int, height: int) -> Any:
    client = Client()
    client.force_login(user)
    context = browser.new_context(locale="vi-VN", viewport={"width": width, "height": height})
    add_axe(context)
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


@pytest.fixture
def month(club: Any) -> Any:
    canh(
        club,
        dt.date(2025, 3, 5),
        FIVE_A,
        [{"winner": "Bác Năm", "cuoc": ["leo"]}, {"winner": "Cụ Tư", "cuoc": ["tom"]}],
    )
    return club


def test_the_club_book_at_390_px_has_no_serious_axe_finding(
    live_server: Any, browser: Any, month: Any, treasurer: Any
) -> None:
    page = _page(browser, live_server.url, treasurer, 390, 844)
    try:
        page.goto(f"{live_server.url}/lang/{month.slug}/so/?ky=nam-2025")
        page.get_by_test_id("book-table").wait_for()
        found = axe_violations(page)
        assert not found, describe(found)
        wrap = page.locator(".table-wrap", has=page.get_by_test_id("book-table"))
        wrap.focus()  # reachable from the keyboard, and named for a screen reader
        assert wrap.evaluate("e => document.activeElement === e") and wrap.get_attribute("aria-label")
    finally:
        page.context.close()


def test_the_statement_s_xem_button_keeps_its_size_at_1280_px(
    live_server: Any, browser: Any, month: Any, treasurer: Any
) -> None:
    member = Player.objects.get(club=month, name="Bác Năm")
    page = _page(browser, live_server.url, treasurer, 1280, 900)
    try:
        page.goto(f"{live_server.url}/lang/{month.slug}/so/nguoi-choi/{member.pk}/?ky=nam-2025")
        button = page.locator("form.period-pick").get_by_role("button", name="Xem")
        box = button.bounding_box()
        select = page.locator("#st-key").bounding_box()
        assert box and select
        assert box["width"] < 200 and box["height"] < 80, box  # it was ~540 px wide
        assert abs((box["y"] + box["height"]) - (select["y"] + select["height"])) < 12  # beside the select
        found = axe_violations(page)
        assert not found, describe(found)
    finally:
        page.context.close()


def test_the_statement_csv_details_have_no_apostrophe(month: Any, treasurer: Any, client: Any) -> None:
    member = Player.objects.get(club=month, name="Bác Năm")
    client.force_login(treasurer)
    data = client.get(f"/lang/{month.slug}/so/nguoi-choi/{member.pk}/sao-ke.csv?ky=nam-2025").content
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    details = [r[6] for r in rows[1:-1]]
    assert details and all(d and d[0] not in "'=+-@" for d in details), details
    assert details[1].startswith("Cụ Tư: -8 ("), details  # Bác Năm paid Cụ Tư 8 for the Tôm
