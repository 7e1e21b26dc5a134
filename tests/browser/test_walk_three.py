"""Site-wide findings of the third walk (issue 31), in real Chromium: at 200 % zoom (a 1280 × 800
laptop is then 640 × 400 CSS pixels) the top bar's tabs and buttons filled two screens before the
page's content; /favicon.ico answered 404; an untitled canh was "Canh bài #27"."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.a11y.checks import add_axe, axe_violations, describe
from tests.conftest import sign_in
from tests.factories import open_sitting

pytestmark = [pytest.mark.browser, pytest.mark.sqlite, pytest.mark.django_db(transaction=True)]

#: A 1280 × 800 screen at 200 % zoom, in CSS pixels.
ZOOMED = {"width": 640, "height": 400}


@pytest.fixture
def open_page(browser: Any) -> Iterator[Any]:
    contexts: list[Any] = []

    def opener(viewport: dict[str, int], **extra: Any) -> Any:
        context = browser.new_context(locale="vi-VN", viewport=viewport, **extra)
        add_axe(context)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        return page

    yield opener
    for context in contexts:
        context.close()


def test_at_200_percent_zoom_the_menu_folds_and_the_content_is_on_the_first_screen(
    live_server: Any, open_page: Any
) -> None:
    page = open_page(ZOOMED)
    page.goto(live_server.url + "/")
    toggle = page.get_by_role("button", name="Menu")
    assert toggle.is_visible() and toggle.get_attribute("aria-expanded") == "false"
    assert not page.locator("nav.nav").is_visible()
    heading = page.locator("main h1").first.bounding_box()
    assert heading and heading["y"] + heading["height"] < ZOOMED["height"], heading  # content first
    bar = page.locator("header.topbar").bounding_box()
    assert bar and bar["height"] < 80, bar
    found = axe_violations(page)
    assert not found, describe(found)

    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    page.locator("nav.nav a", has_text="Sổ điểm").click()
    page.wait_for_url("**/so-diem/**")


def test_the_menu_opens_and_closes_from_the_keyboard_and_a_skip_link_goes_to_the_content(
    live_server: Any, open_page: Any
) -> None:
    page = open_page(ZOOMED)
    page.goto(live_server.url + "/")
    page.keyboard.press("Tab")
    skip = page.locator("a.skip")
    assert skip.evaluate("e => document.activeElement === e") and skip.get_attribute("href") == "#main"
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")  # the brand, then the Menu button
    toggle = page.get_by_role("button", name="Menu")
    assert toggle.evaluate("e => document.activeElement === e")
    page.keyboard.press("Enter")
    assert page.locator("nav.nav").is_visible()
    page.keyboard.press("Escape")
    assert not page.locator("nav.nav").is_visible() and toggle.get_attribute("aria-expanded") == "false"


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1280, "height": 800}])
def test_a_phone_and_a_laptop_keep_every_tab_in_sight(
    live_server: Any, open_page: Any, viewport: Any
) -> None:
    page = open_page(viewport)
    page.goto(live_server.url + "/")
    assert page.locator("nav.nav").is_visible()
    assert not page.get_by_role("button", name="Menu").is_visible()


def test_favicon_ico_is_an_icon(live_server: Any, open_page: Any) -> None:
    page = open_page({"width": 390, "height": 844})
    response = page.goto(live_server.url + "/favicon.ico")
    assert response is not None and response.status == 200
    assert response.headers["content-type"] == "image/png"


def test_an_untitled_canh_is_named_by_when_it_was_opened(
    live_server: Any, open_page: Any, keeper: Any
) -> None:
    sitting = open_sitting(created_by=keeper)
    page = open_page({"width": 390, "height": 844})
    sign_in(page.context, live_server.url, keeper)
    page.goto(f"{live_server.url}/so-diem/")
    row = page.locator(f"a[href='/so-diem/{sitting.pk}/']").first
    assert row.inner_text().startswith(sitting.display_name), row.inner_text()  # "Canh 28/11/26 19:30"
    assert "#" not in row.inner_text()
    row.click()
    assert page.locator("h1").inner_text() == sitting.display_name
