"""What issue 19 (item 7 and "Accessibility") found on the scorekeeper's and the public pages, in
real Chromium: the nav tabs on a 390 px phone, a −104 balance in its card, the lệ làng table on a
1920 px projector, the "Chữ to" switch remembered by the device, and the ván form from the keyboard."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from scoring.models import Van
from tests.conftest import sign_in
from tests.factories import UserFactory, open_sitting, record_all

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def open_page(browser: Any) -> Iterator[Any]:
    contexts: list[Any] = []

    def opener(viewport: dict[str, int] = PHONE, **extra: Any) -> Any:
        context = browser.new_context(locale="vi-VN", viewport=viewport, **extra)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        return page

    yield opener
    for context in contexts:
        context.close()


def test_every_nav_tab_is_in_sight_on_a_390_px_phone(live_server: Any, open_page: Any) -> None:
    page = open_page(has_touch=True)
    page.goto(live_server.url + "/")
    tabs = page.locator("nav.nav a")
    assert tabs.count() >= 6
    for tab in tabs.all():
        box = tab.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (tab.inner_text(), box)
        assert tab.evaluate(
            "e => document.elementFromPoint(e.getBoundingClientRect().left + 4, "
            "e.getBoundingClientRect().top + 4)?.closest('a') === e"
        ), tab.inner_text()
    page.locator("nav.nav a", has_text="Sổ điểm").tap()
    page.wait_for_url("**/so-diem/**")


def test_a_three_digit_loss_stays_inside_its_card_on_a_phone(live_server: Any, open_page: Any) -> None:
    keeper = UserFactory(username="thu-ky")
    sitting = open_sitting(created_by=keeper)
    record_all(sitting, [{"winner": "An", "cuoc": ["tom"]}] * 13)  # Bình loses every ván: three digits
    assert Van.objects.filter(sitting=sitting).count() == 13
    page = open_page(has_touch=True)
    sign_in(page.context, live_server.url, keeper)
    page.goto(f"{live_server.url}/so-diem/{sitting.pk}/")
    card = page.locator(".seats .seat", has_text="Bình")
    balance = card.locator(".seat-balance")
    assert int(balance.inner_text().replace("\u2212", "-")) <= -100
    inside = balance.evaluate("""b => { const c = b.closest('.seat').getBoundingClientRect();
        const r = document.createRange(); r.selectNodeContents(b); const t = r.getBoundingClientRect();
        return t.left >= c.left && t.right <= c.right && b.scrollWidth <= b.clientWidth; }""")
    assert inside, balance.evaluate("b => [b.scrollWidth, b.clientWidth, getComputedStyle(b).fontSize]")


def test_the_le_lang_table_shows_every_column_on_a_1920_projector(live_server: Any, open_page: Any) -> None:
    page = open_page({"width": 1920, "height": 1080})
    page.goto(live_server.url + "/le-lang/")
    frames = page.locator(".table-wrap")
    assert max(f.locator("thead th").count() for f in frames.all()) >= 5
    for frame in frames.all():
        columns = frame.locator("thead th").count()
        scroll, width = frame.evaluate("f => [f.scrollWidth, f.clientWidth]")
        assert scroll <= width, f"{columns} columns: {scroll} px in a {width} px frame (a column hidden)"
        last = frame.locator("thead th").last.bounding_box()
        assert last and last["x"] + last["width"] <= 1920


def test_chu_to_makes_the_text_larger_and_this_device_remembers_it(live_server: Any, open_page: Any) -> None:
    page = open_page(has_touch=True)
    page.goto(live_server.url + "/le-lang/")
    size = "() => parseFloat(getComputedStyle(document.querySelector('main h1')).fontSize)"
    before = page.evaluate(size)
    switch = page.get_by_role("button", name="Chữ to")
    assert switch.get_attribute("aria-pressed") == "false"
    switch.tap()
    assert page.evaluate(size) >= before * 1.2
    assert switch.get_attribute("aria-pressed") == "true"
    page.goto(live_server.url + "/kiem-bai/")  # another page, then a new visit: still large
    page.reload()
    assert page.get_by_role("button", name="Chữ to").get_attribute("aria-pressed") == "true"
    assert page.evaluate("document.documentElement.classList.contains('chu-to')")
    english = page.context.new_page()
    english.goto(live_server.url + "/en/le-lang/")
    assert english.get_by_role("button", name="Large text").get_attribute("aria-pressed") == "true"
    english.get_by_role("button", name="Large text").click()
    page.reload()
    assert page.evaluate(size) == before


def test_the_van_form_works_from_the_keyboard(live_server: Any, open_page: Any) -> None:
    """Tab to the winner, pick with the arrows and Space, tab to a cước, pick it, tab to "Lưu ván" and press Enter:
    the ván is saved, and the focus was always visible."""
    keeper = UserFactory(username="thu-ky")
    sitting = open_sitting(created_by=keeper)
    page = open_page({"width": 1280, "height": 900})
    sign_in(page.context, live_server.url, keeper)
    page.goto(f"{live_server.url}/so-diem/{sitting.pk}/")
    focused = "() => document.activeElement"

    def tab_to(test: str, limit: int = 120) -> None:
        for _ in range(limit):
            page.keyboard.press("Tab")
            if page.evaluate(f"() => {{ const e = document.activeElement; return !!e && ({test}); }}"):
                outline = page.evaluate("""() => { const e = document.activeElement;
                    const shown = e.matches('input[type=radio], input[type=checkbox]') ? e.nextElementSibling : e;
                    return getComputedStyle(shown).outlineStyle; }""")
                assert outline != "none", f"no visible focus on {page.evaluate(focused + '.outerHTML')[:80]}"
                return
        raise AssertionError(f"Tab never reached {test}")

    tab_to("e.name === 'winner'")  # the winner's radio group: the arrows move in it
    while page.evaluate("document.activeElement.value") != "Bình":
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    assert page.evaluate("document.activeElement.checked")
    tab_to("e.closest('label.chip[data-cuoc=tom]') !== null")
    page.keyboard.press("Space")
    page.get_by_test_id("preview").filter(has_text="Bình ù").wait_for()
    tab_to("e.matches('[data-testid=save]')")
    page.keyboard.press("Enter")
    page.get_by_test_id("notice").filter(has_text="Đã lưu ván 1").wait_for()
    assert Van.objects.get(sitting=sitting, seq=1).winner.name == "Bình"
