"""Chips that can no longer go with those chosen grey out and say why on tap, in real Chromium on a
390 px phone: the calculator and the ván form, and the offline preview refuses what the engine
refuses, from the table the server ships (issue 21)."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest

from scoring.engine.errors import ConflictError
from scoring.engine.points import score
from scoring.engine.rules import load_rules
from tests.conftest import sign_in
from tests.factories import open_sitting

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def chip(page: Any, slug: str, name: str = "cuoc") -> Any:
    return page.locator(f"label.chip[data-{name}={slug}]")


def test_the_calculator_greys_out_thap_dieu_after_bach_dinh_and_says_why_on_tap(live_server, phone) -> None:
    phone.goto(live_server.url + "/")
    chip(phone, "bach_dinh").locator("span").tap()
    phone.locator("[data-testid=points]").filter(has_text="24").wait_for()
    thap_dieu = chip(phone, "thap_dieu")
    # Selectors, not wait_for_function: Playwright evaluates its string, which the CSP refuses.
    phone.locator("label.chip[data-cuoc=thap_dieu] input[aria-disabled=true]").wait_for(state="attached")
    assert "blocked" in (thap_dieu.get_attribute("class") or "")
    box = thap_dieu.locator("input")
    description = phone.evaluate(
        "el => document.getElementById(el.getAttribute('aria-describedby')).textContent", box.element_handle()
    )
    assert "Bạch Định cần cả 21 quân đen; Thập Điều cần đúng 10 quân đỏ" in description
    # a tap says why and chooses nothing (force: Playwright itself will not tap what is aria-disabled)
    thap_dieu.locator("span").tap(force=True)
    reason = phone.locator("[data-chip-reason=cuoc]")
    reason.filter(has_text="Thập Điều cần đúng 10 quân đỏ").wait_for()
    assert not box.is_checked()
    assert phone.locator("[data-testid=points]").inner_text().split()[0] == "24"
    # the grey chip fits the phone's width and its reason stays readable
    assert reason.bounding_box()["width"] <= 390
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    # Tôm still goes with Bạch Định; untapping Bạch Định frees Thập Điều
    assert chip(phone, "tom").locator("input").get_attribute("aria-disabled") is None
    with phone.expect_response(lambda r: r.request.method == "POST"):  # the server's answer, swapped in
        chip(phone, "bach_dinh").locator("span").tap()
    phone.locator("label.chip[data-cuoc=thap_dieu] input:not([aria-disabled])").wait_for(state="attached")
    thap_dieu.locator("span").tap()
    phone.locator("[data-testid=points]").filter(has_text="18").wait_for()


def test_the_keyboard_gets_the_reason_too(live_server, phone) -> None:
    phone.goto(live_server.url + "/en/")
    with phone.expect_response(lambda r: r.request.method == "POST"):  # the answer swapped in first
        chip(phone, "kinh_cu").locator("span").tap()
    phone.locator("label.chip[data-cuoc=leo] input[aria-disabled=true]").wait_for(state="attached")
    chip(phone, "leo").locator("input").focus()
    phone.keyboard.press("Space")
    phone.locator("[data-chip-reason=cuoc]").filter(
        has_text="Kính Cụ needs 20 black cards and 1 Ông Cụ"
    ).wait_for()
    assert not chip(phone, "leo").locator("input").is_checked()


def test_a_reason_shown_while_the_form_is_redrawn_stays_after_the_redraw(live_server, phone) -> None:
    """A blocked chip tapped while the redraw of the choice before it is on its way: the redrawn
    form shows the reason again instead of wiping it."""
    phone.goto(live_server.url + "/")
    # the redraw comes 800 ms after the answer: time to tap in between, as on a slow phone
    phone.evaluate("document.getElementById('calc-form').setAttribute('hx-swap', 'outerHTML swap:800ms')")
    with phone.expect_response(lambda r: r.request.method == "POST"):
        chip(phone, "bach_dinh").locator("span").tap()
    chip(phone, "thap_dieu").locator("span").tap(force=True)  # greyed out at once, by the page
    reason = phone.locator("[data-chip-reason=cuoc]").filter(has_text="Thập Điều cần đúng 10 quân đỏ")
    reason.wait_for()
    phone.locator("[data-testid=points]").filter(has_text="24").wait_for()  # the redraw is in
    phone.locator("#calc-form[hx-swap='outerHTML']").wait_for(state="attached")  # the server's form
    phone.wait_for_timeout(200)  # htmx settles it (20 ms)
    assert reason.is_visible()
    assert not chip(phone, "thap_dieu").locator("input").is_checked()


def test_the_van_form_greys_out_kinh_tu_co_after_chi_nay(live_server, phone, keeper) -> None:
    sitting = open_sitting(created_by=keeper)
    sign_in(phone.context, live_server.url, keeper)
    phone.goto(f"{live_server.url}/so-diem/{sitting.pk}/")
    phone.locator("label.who-btn[data-winner='An'] span").tap()
    chip(phone, "chi_nay").locator("span").tap()
    phone.locator("#van-form label.chip[data-cuoc=kinh_tu_co] input[aria-disabled=true]").wait_for(
        state="attached"
    )
    chip(phone, "kinh_tu_co").locator("span").tap(force=True)
    phone.locator("[data-chip-reason=cuoc]").filter(
        has_text="Kính Tứ Cố cần 17 quân đen và 4 Ông Cụ"
    ).wait_for()
    assert not chip(phone, "kinh_tu_co").locator("input").is_checked()
    # the declared chips are a group of their own
    phone.locator("details[data-section=fault] > summary").tap()
    assert chip(phone, "kinh_tu_co", "declared").locator("input").get_attribute("aria-disabled") is None


def test_the_offline_preview_refuses_what_the_engine_refuses_with_its_reason(
    live_server, phone, keeper
) -> None:
    sitting = open_sitting(created_by=keeper)
    sign_in(phone.context, live_server.url, keeper)
    phone.goto(f"{live_server.url}/so-diem/{sitting.pk}/")
    phone.locator("html[data-offline-parts*=pack]").wait_for(state="attached")
    pack = phone.evaluate(f"SoTomOutbox.getPack({sitting.pk})")
    slugs = sorted(pack["rules"]["cuoc"])
    cases = [list(c) for n in (2, 3) for c in combinations(slugs, n)]
    shown = phone.evaluate(
        "([pack, cases]) => cases.map((c) => { try { SoTomPreview.checkCombination(pack, c); return null; }"
        " catch (e) { return e.message; } })",
        [pack, cases],
    )
    rules = load_rules("luat-2005")
    refused = 0
    for case, js in zip(cases, shown, strict=True):
        try:
            score("to-tom-5", rules, case)
            engine = None
        except ConflictError as exc:
            engine = exc.message
        assert (js is None) == (engine is None), (case, js, engine)
        if len(case) == 2 and engine is not None:
            assert js == engine
            refused += 1
    assert refused >= 10  # 12 pairs among the Luật 2005 chips of Bí Ngũ
    # and a ván tapped offline with an impossible pair is not kept
    phone.context.set_offline(True)
    phone.locator("label.who-btn[data-winner='An'] span").tap()
    phone.evaluate("""() => { for (const s of ['bach_dinh', 'leo']) {
        document.querySelector(`#van-form input[name=cuoc][value=${s}]`).checked = true; } }""")
    phone.get_by_test_id("save").tap()
    phone.get_by_test_id("preview-error").filter(has_text="Bạch Định cần cả 21 quân đen").wait_for()
    assert phone.evaluate("SoTomOutbox.all().then(a => a.length)") == 0
    phone.context.set_offline(False)


def test_a_keyboard_user_keeps_their_place_when_the_calculator_is_redrawn(live_server, phone) -> None:
    """Space on a chip redraws the form from the server: focus stays on that chip, so the next Tab
    goes on from there instead of from the top of the page."""
    phone.goto(live_server.url + "/")
    chip(phone, "thap_dieu").locator("input").focus()
    with phone.expect_response(lambda r: r.request.method == "POST"):
        phone.keyboard.press("Space")
    phone.locator("[data-testid=points]").filter(has_text="18").wait_for()
    phone.locator("#calc-form[hx-swap='outerHTML']").wait_for(state="attached")
    phone.wait_for_timeout(200)  # htmx settles it (20 ms)
    assert phone.evaluate("document.activeElement.value") == "thap_dieu"
    assert phone.evaluate("document.activeElement.checked") is True
