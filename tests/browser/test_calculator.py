"""The Tính điểm page in real headless Chromium, as a Vietnamese phone user sees it."""

from __future__ import annotations

import contextlib

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


def _swapped(page, action) -> None:
    """Do ``action`` and wait until htmx has swapped in the calculator it asked for: a change made
    on the old form while a swap lands is lost with the detached element."""
    page.evaluate("document.getElementById('calc').dataset.stale = '1'")
    action()
    page.locator("#calc:not([data-stale]):not(.htmx-settling)").wait_for(state="attached", timeout=30_000)
    page.locator("#calc-form.htmx-request").wait_for(state="detached")


def test_phom_is_settled_by_the_places_tapped(live_server, phone) -> None:
    """Issue 19, item 10: Phỏm is on the calculator; it asks each player's place and shows who pays whom."""
    phone.goto(live_server.url + "/")
    _swapped(phone, lambda: phone.select_option("#game", "phom"))
    assert phone.locator("#rules").input_value() == "phom"
    # Người 3 first, Người 1 second, Người 2 third, Người 4 last.
    for seat, place in ((3, "1"), (1, "2"), (2, "3")):
        _swapped(phone, lambda seat=seat, place=place: phone.select_option(f"#place-{seat}", place))
    balances = phone.get_by_test_id("phom-balances")
    assert balances.locator("tr[data-player='3'] td.num").inner_text() == "+6"
    assert balances.locator("tr[data-player='1'] td.num").inner_text() == "−1"
    assert balances.locator("tr[data-player='2'] td.num").inner_text() == "−2"
    assert balances.locator("tr[data-player='4'] td.num").inner_text() == "−3"
    # An ù with a đền: the feeder pays the three shares of 5 alone.
    _swapped(phone, lambda: phone.locator("label.chip[data-outcome=u] span").tap())
    _swapped(phone, lambda: phone.select_option("#u_winner", "2"))
    _swapped(phone, lambda: phone.select_option("#u_den", "4"))
    assert balances.locator("tr[data-player='4'] td.num").inner_text() == "−15"
    assert balances.locator("tr[data-player='2'] td.num").inner_text() == "+15"
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_chip_tapped_while_the_last_answer_is_on_its_way_is_kept(live_server, phone) -> None:
    """On a slow network the redraw answering the first tap must not wipe the taps after it: the
    form's newest state is what the server is asked about, and what the page ends on."""
    held: list = []

    def hold_the_first_answer(route) -> None:
        if route.request.method == "POST" and not held:
            held.append(route)  # answered only after the other taps, below
        else:
            route.continue_()

    phone.goto(live_server.url + "/")
    phone.route("**/*", hold_the_first_answer)
    for slug in ("xuyen_bi_tu", "thap_dieu", "chi_nay"):
        phone.locator(f"label.chip[data-cuoc={slug}] span").tap()
        phone.wait_for_selector(f"label.chip[data-cuoc={slug}] input:checked", state="attached")
    phone.wait_for_timeout(100)  # the later taps' requests are out (or, before the fix, queued)
    with contextlib.suppress(Exception):  # the page may have given up on it: nothing to answer
        held[0].continue_()  # the first answer arrives last
    phone.locator("[data-testid=points]").filter(has_text="46").wait_for()
    phone.wait_for_timeout(300)  # any later redraw has landed
    assert phone.locator("[data-testid=points]").inner_text().split()[0] == "46"
    for slug in ("xuyen_bi_tu", "thap_dieu", "chi_nay"):
        assert phone.locator(f"label.chip[data-cuoc={slug}] input").is_checked()
