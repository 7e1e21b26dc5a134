"""The Tính điểm page in real headless Chromium, as a Vietnamese phone user sees it."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_tapping_chips_computes_xuyen_bi_tu_thap_dieu_chi_nay_46(live_server, phone) -> None:
    phone.goto(live_server.url + "/")
    assert phone.locator("h1").inner_text() == "Tính điểm"
    assert phone.locator("#rules").input_value() == "luat-2005"
    for slug in ("xuyen_bi_tu", "thap_dieu", "chi_nay"):
        phone.locator(f"label.chip[data-cuoc={slug}] span").tap()
        phone.wait_for_selector(f"label.chip[data-cuoc={slug}] input:checked", state="attached")
    points = phone.locator("[data-testid=points]")
    points.filter(has_text="46").wait_for()
    assert points.inner_text().split()[0] == "46"
    rows = phone.locator(".breakdown tbody tr")
    assert rows.nth(0).get_attribute("data-cuoc") == "chi_nay"
    assert "36" in rows.nth(0).inner_text()
    # No full reload happened: htmx swapped the calculator in place.
    assert phone.evaluate("performance.getEntriesByType('navigation').length") == 1


def test_streak_stepper_names_the_streak_and_adds_its_dich(live_server, phone) -> None:
    phone.goto(live_server.url + "/")
    phone.locator("label.chip[data-cuoc=leo] span").tap()
    phone.locator("[data-testid=points]").filter(has_text="10").wait_for()
    plus = phone.get_by_role("button", name="Thêm một ván")
    plus.tap()
    phone.locator(".streak-name").filter(has_text="Thông").wait_for()
    plus.tap()
    phone.locator(".streak-name").filter(has_text="Tam Khôi").wait_for()
    # Tam Khôi + Lèo = 10 + 1 dịch × 2 = 12 (docs/rules.md §6).
    phone.locator("[data-testid=points]").filter(has_text="12").wait_for()


def test_changing_the_game_offers_that_games_cuoc(live_server, phone) -> None:
    phone.goto(live_server.url + "/")
    phone.select_option("#game", "chan")
    phone.locator("label.chip[data-cuoc=tam_do]").wait_for()
    assert phone.locator("#rules").input_value() == "chan"
    assert phone.locator("label.chip[data-cuoc=chi_nay]").count() == 0


def test_english_is_second(live_server, phone) -> None:
    phone.goto(live_server.url + "/en/")
    assert phone.locator("html").get_attribute("lang") == "en"
    assert phone.locator("h1").inner_text() == "Score a win"
    # Domain words keep their Vietnamese names in English too.
    assert phone.locator("label.chip[data-cuoc=chi_nay]").inner_text().startswith("Chi Nẩy")
