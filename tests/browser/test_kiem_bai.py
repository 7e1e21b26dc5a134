"""Kiểm bài in real Chromium: tapping the 21 cards of a Thập Điều hand."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

THAP_DIEU_HAND = "cc 9m 8s tt 9m 9s oc cc tt 6m 7m 8m 7v 3m 3s 4v 5v 6v 2v 2m 2s"


def test_tapping_a_thap_dieu_hand_shows_thap_dieu_and_leo(live_server, phone) -> None:
    phone.goto(live_server.url + "/kiem-bai/")
    for n, code in enumerate(THAP_DIEU_HAND.split(), start=1):
        phone.locator(f"button.card[data-card='{code}']").tap()
        phone.locator("[data-testid=hand-count]").filter(has_text=str(n)).wait_for()
    verdict = phone.locator("[data-testid=verdict]")
    verdict.wait_for()
    assert "hợp lệ" in verdict.inner_text()
    cuoc = phone.locator("[data-testid=cuoc]").inner_text()
    assert "Thập Điều" in cuoc and "Lèo" in cuoc
    # The lưng are highlighted as their own phu.
    assert phone.locator(".phu.lung .phu-tag").filter(has_text="Lèo").count() == 1


def test_a_hand_one_card_short_lists_its_waits(live_server, phone) -> None:
    phone.goto(live_server.url + "/kiem-bai/")
    for n, code in enumerate(THAP_DIEU_HAND.split()[:-1], start=1):
        phone.locator(f"button.card[data-card='{code}']").tap()
        phone.locator("[data-testid=hand-count]").filter(has_text=str(n)).wait_for()
    waits = phone.locator("[data-testid=waits]")
    waits.wait_for()
    assert waits.locator("tr[data-card='2s']").count() == 1
