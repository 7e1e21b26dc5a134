"""Two-person confirmation in real Chromium: the scorekeeper records a ván on their phone; a
player seated at the table, signed in with their own account on a second phone, confirms it;
the badge changes in place (htmx swap) and the scorekeeper sees it confirmed."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from scoring.models import Player, Van, VanStatus
from tests.factories import UserFactory, open_sitting

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _phone(browser: Any, base: str, user: Any) -> Any:
    """A phone-sized page of a browser context signed in as ``user`` (the session made by the
    test client, handed to the browser as its cookie)."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(locale="vi-VN", viewport={"width": 390, "height": 844}, has_touch=True)
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
    page.set_default_timeout(10_000)
    return page


def test_a_seated_player_confirms_the_scorekeepers_van(live_server: Any, browser: Any) -> None:
    keeper, player = UserFactory(username="thu-ky"), UserFactory(username="an")
    sitting = open_sitting(needs_confirmation=True, created_by=keeper)
    Player.objects.filter(seats__sitting=sitting, name="An").update(user=player)
    url = f"{live_server.url}/so-diem/{sitting.pk}/"
    scorekeeper, seated = _phone(browser, live_server.url, keeper), _phone(browser, live_server.url, player)
    try:
        scorekeeper.goto(url)
        scorekeeper.locator("label.who-btn[data-winner='Bình'] span").tap()
        scorekeeper.locator("#van-form label.chip[data-cuoc=tom] span").tap()
        scorekeeper.get_by_test_id("preview").filter(has_text="Bình ù").wait_for()
        scorekeeper.get_by_test_id("save").tap()
        scorekeeper.get_by_test_id("notice").filter(has_text="Đã lưu ván 1").wait_for()
        badge = scorekeeper.get_by_test_id("review-1")
        badge.filter(has_text="Tạm tính — chờ xác nhận").wait_for()
        assert scorekeeper.get_by_test_id("confirm-1").count() == 0  # never one's own ván
        assert "Bạn đã ghi ván này" in badge.inner_text()

        seated.goto(url)
        seated.get_by_test_id("review-1").filter(has_text="Tạm tính — chờ xác nhận").wait_for()
        seated.get_by_test_id("confirm-1").tap()
        seated.get_by_test_id("review-1").filter(has_text="Đã xác nhận bởi an").wait_for()
        assert seated.get_by_test_id("confirm-1").count() == 0
        assert seated.evaluate("performance.getEntriesByType('navigation').length") == 1  # swapped, no reload

        scorekeeper.reload()
        scorekeeper.get_by_test_id("review-1").filter(has_text="Đã xác nhận bởi an").wait_for()
        van = Van.objects.get(sitting=sitting, seq=1)
        assert (van.status, van.entered_by, van.confirmed_by) == (VanStatus.CONFIRMED, keeper, player)
    finally:
        scorekeeper.context.close()
        seated.context.close()
