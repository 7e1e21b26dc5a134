"""Settling up asks first, and a settled canh offers no correction (issue 19, item 6), in real
Chromium: one tap on "Ghi thanh toán" ended the canh, and afterwards the correction page opened
its whole form only to refuse it (409) once filled in."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.models import Sitting
from scoring.services.sittings import sitting_open, van_record
from tests.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["An", "Bình", "Chi", "Dũng", "Em"]


def test_settling_up_is_confirmed_then_corrections_are_not_offered(phone, live_server, keeper) -> None:
    sitting = sitting_open(
        game="to-tom-5",
        rules="luat-2005",
        mode="quang",
        players=PLAYERS,
        created_by=keeper,
        idempotency_key=None,
    ).obj
    van_record(sitting=sitting, seq=1, record={"winner": "An", "cuoc": ["tom"]}, idempotency_key=None)
    sign_in(phone.context, live_server.url, keeper)
    page = phone
    base = f"{live_server.url}/so-diem/{sitting.pk}/"
    page.goto(base + "thanh-toan/")
    page.get_by_test_id("settle").tap()  # one tap, not confirmed: the canh goes on
    page.wait_for_load_state()
    sitting.refresh_from_db()
    assert sitting.ended_at is None
    expect(page.get_by_test_id("settle-confirm")).to_be_visible()
    page.get_by_test_id("settle-confirm").check()
    page.get_by_test_id("settle").tap()
    expect(page.locator("p.notice[role=status]")).to_have_text("Đã thanh toán và kết thúc canh bài.")
    assert Sitting.objects.get(pk=sitting.pk).ended_at is not None
    expect(page.get_by_test_id("correct-1")).to_have_count(0)

    answer = page.goto(base + "van/1/sua/")  # an old bookmark or a second phone
    assert answer.status == 409
    expect(page.get_by_test_id("ended")).to_contain_text("không sửa ván được nữa")
    expect(page.locator("#van-form")).to_have_count(0)
    expect(page.get_by_role("button", name="Lưu bản sửa ván 1")).to_have_count(0)


def test_the_server_refuses_an_unconfirmed_settle_up(client, keeper) -> None:
    """Without the browser's check (an old page, a script), the server asks too, in English on /en/."""
    sitting = sitting_open(
        game="to-tom-5",
        rules="luat-2005",
        mode="quang",
        players=PLAYERS,
        created_by=keeper,
        idempotency_key=None,
    ).obj
    client.force_login(keeper)
    answer = client.post(f"/en/so-diem/{sitting.pk}/thanh-toan/", {"key": "k1"})
    assert answer.status_code == 400 and "Tick the confirmation box" in answer.content.decode()
    sitting.refresh_from_db()
    assert sitting.ended_at is None
