"""Phỏm from the cards in real Chromium at 390 px (issue 31, item 3): tap each player's cards on the
52-card picker, read the phỏm, points and ranks, fill the calculator's placings; the calculator's own
"Xếp hạng theo quân" button fills them too."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AN = "ab 2b 3b 4b 7c 7r 7t kc qc"  # phỏm A-2-3-4 Bích and three 7: Q K left, 25
BINH = "5c 6c 8c 9r 10r jr 2t 3t 4t"  # two phỏm: 5 6 8 Cơ left, 19


def _tap_hand(page, seat: int, hand: str) -> None:
    for n, code in enumerate(hand.split(), start=1):
        page.locator(f"details[data-seat='{seat}'] button.card[data-card='{code}']").tap()
        page.get_by_test_id(f"seat-count-{seat}").filter(has_text=str(n)).wait_for()


def test_tapping_two_hands_ranks_the_van_and_fills_the_calculator(live_server, phone) -> None:
    phone.goto(live_server.url + "/kiem-bai/")
    phone.select_option("#game", "phom")
    phone.locator("#players").wait_for()
    phone.select_option("#players", "2")
    phone.locator("details[data-seat='2']").wait_for()
    # A count on a locator, not wait_for_function: Playwright evaluates its string, which the CSP refuses.
    expect(phone.locator("details.phom-seat")).to_have_count(2)
    _tap_hand(phone, 1, AN)
    phone.locator("details[data-seat='2'] > summary").tap()
    _tap_hand(phone, 2, BINH)
    verdict = phone.get_by_test_id("verdict")
    verdict.filter(has_text="1. Người 2").wait_for()
    assert phone.get_by_test_id("points-1").inner_text() == "25"
    assert phone.get_by_test_id("points-2").inner_text() == "19"
    # a card in one hand cannot be picked for the other
    taken = phone.locator("details[data-seat='2'] button.card[data-card='kc']")
    assert taken.get_attribute("aria-disabled") == "true"
    # the page fits the phone
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.get_by_test_id("fill-calculator").get_by_role("button").tap()
    phone.locator("h1").filter(has_text="Tính điểm").wait_for()
    assert phone.locator("#place-1").input_value() == "2"
    assert phone.locator("#place-2").input_value() == "1"
    balances = phone.get_by_test_id("phom-balances")
    assert "+1" in balances.locator("tr[data-player='2']").inner_text()


def test_the_calculator_fills_an_u_from_the_cards(live_server, phone) -> None:
    phone.goto(live_server.url + "/?game=phom&players=2")
    phone.locator("details[data-section=from-cards] > summary").tap()
    phone.locator("#hand_1").fill(AN)
    phone.locator("#hand_2").fill("qb qt qr 5b 5t 5r 8b 8t 8r")
    phone.get_by_test_id("from-cards").tap()
    phone.get_by_test_id("from-cards-result").filter(has_text="Người 2 ù").wait_for()
    assert phone.locator("#u_winner").input_value() == "2"
    balances = phone.get_by_test_id("phom-balances")
    assert "+5" in balances.locator("tr[data-player='2']").inner_text()


def test_the_van_form_fills_the_places_from_the_cards(live_server, browser, keeper) -> None:
    from tests.conftest import sign_in
    from tests.factories import open_sitting

    sitting = open_sitting(players=["An", "Bình", "Chi"], game="phom", rules="phom", created_by=keeper)
    context = browser.new_context(locale="vi-VN", viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        sign_in(context, live_server.url, keeper)
        page.goto(f"{live_server.url}/so-diem/{sitting.pk}/")
        page.locator("details[data-section=ranks] > summary").tap()
        page.locator("#phom-hand-1").fill(AN)
        page.locator("#phom-hand-2").fill(BINH)
        page.locator("#phom-hand-3").fill("kb qb 9t")
        page.get_by_test_id("phom-fill").tap()
        page.locator("[data-phom-fill-result]").filter(has_text="1. Bình").wait_for()
        assert [page.locator(f"#rank-{i}").input_value() for i in (1, 2, 3)] == ["Bình", "An", "Chi"]
        # a card in two hands: the API's words, nothing filled
        page.locator("#phom-hand-3").fill("kc")
        page.get_by_test_id("phom-fill").tap()
        page.locator("[data-phom-fill-result][role=alert]").filter(has_text="K Cơ").wait_for()
    finally:
        context.close()
