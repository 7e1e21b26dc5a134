"""A table phone names its holder (issue 30, finding 2), in real Chromium at 390 px: the PIN page
lists the seated players beside the PIN; the phone enters a ván as that player; the same person,
signed in with their own account in another window, is refused when confirming it, with the reason
on the page; another seated player confirms it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from scoring.models import Van, VanStatus
from tests.reliability.probe_setup import small_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


def _phone(browser: Any, base: str, user: Any = None) -> Any:
    """A phone-sized page (signed in as ``user`` through a test client's session cookie, if given)."""
    context = browser.new_context(locale="vi-VN", viewport={"width": 390, "height": 844}, has_touch=True)
    if user is not None:
        client = Client()
        client.force_login(user)
        value = client.cookies[settings.SESSION_COOKIE_NAME].value
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": base, "value": value}])
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


def _account(small: Any, position: int, username: str) -> Any:
    user = get_user_model().objects.create_user(username)
    player = small.sitting.seats.get(position=position).player
    player.user = user
    player.save(update_fields=["user"])
    return user


def test_the_pin_phone_names_its_holder_and_the_holder_cannot_confirm(live_server: Any, browser: Any) -> None:
    small = small_event(prefix="B", confirmation_required=True)
    seats = list(small.sitting.seats.order_by("position").select_related("player"))
    holder, other = seats[0], seats[1]
    own_account, other_account = _account(small, 1, "chu-may"), _account(small, 2, "nguoi-khac")
    base = live_server.url
    phone = _phone(browser, base)
    own_window, second = _phone(browser, base, own_account), _phone(browser, base, other_account)
    try:
        phone.goto(f"{base}{small.table_url()}ma-pin/")
        choice = phone.get_by_test_id("holder-choice")
        choice.wait_for()
        assert [c.strip() for c in choice.locator("label.chip").all_inner_texts()] == [s.name for s in seats]
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
        phone.locator("#pin-input").fill(small.token.pin)
        phone.locator(f"label.chip:has(input[value='{holder.player_id}']) span").tap()
        SHOTS.mkdir(parents=True, exist_ok=True)
        phone.screenshot(path=str(SHOTS / "pin-holder-390.png"), full_page=True)
        phone.get_by_role("button", name="Vào ghi ván").tap()

        winner = seats[2].name
        phone.locator(f"label.chip[data-winner='{winner}'] span").tap()
        phone.locator("label.chip[data-cuoc=tom] span").tap()
        phone.get_by_role("button", name="Ghi ván").tap()
        phone.get_by_test_id("van-list").filter(has_text=f"{winner} ù").wait_for()
        van = Van.objects.get(sitting=small.sitting, seq=1)
        assert (van.entered_player_id, van.status) == (holder.player_id, VanStatus.PROVISIONAL)

        sitting_url = f"{base}/so-diem/{small.sitting.pk}/"
        own_window.goto(sitting_url)
        own_window.get_by_test_id("confirm-1").tap()
        refusal = own_window.get_by_test_id("review-error")
        refusal.wait_for()
        assert f"do {holder.name} ghi" in refusal.inner_text() and "người thứ hai" in refusal.inner_text()
        assert Van.objects.get(pk=van.pk).status == VanStatus.PROVISIONAL

        second.goto(sitting_url)
        second.get_by_test_id("confirm-1").tap()
        second.get_by_test_id("review-1").filter(has_text="Đã xác nhận bởi nguoi-khac").wait_for()
        van.refresh_from_db()
        assert (van.status, van.confirmed_by, van.confirmed_player_id) == (
            VanStatus.CONFIRMED,
            other_account,
            other.player_id,
        )
    finally:
        for page in (phone, own_window, second):
            page.context.close()
