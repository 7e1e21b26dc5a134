"""The card picker (issue 19, item 8) in real Chromium on a 390 px phone: Kiểm bài and the ván form's
hand are tapped as cards by name (or from the keyboard); the posted field keeps the codes."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.models import Van
from tests.conftest import sign_in
from tests.factories import open_sitting

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

THAP_DIEU_HAND = "cc 9m 8s tt 9m 9s oc cc tt 6m 7m 8m 7v 3m 3s 4v 5v 6v 2v 2m 2s"
PLAYERS = ["An", "Bình", "Chi", "Dũng", "Em"]


def _fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_kiem_bai_by_tapping_names_and_from_the_keyboard(live_server, phone) -> None:
    errors: list[str] = []
    phone.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    phone.goto(live_server.url + "/kiem-bai/")
    codes = THAP_DIEU_HAND.split()
    # The first card from the keyboard: Tab to it, Space presses it.
    chi_chi = phone.get_by_role("button", name="Chi Chi", exact=True)
    chi_chi.focus()
    phone.keyboard.press("Space")
    expect(phone.get_by_test_id("hand-count")).to_have_text("1")
    expect(phone.get_by_role("button", name="Chi Chi 1", exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(phone.locator("#hand")).to_have_value("cc")
    for n, code in enumerate(codes[1:], start=2):
        phone.locator(f"[data-card-picker] [data-card='{code}']").tap()
        expect(phone.get_by_test_id("hand-count")).to_have_text(str(n))
    # The hand is shown by name; the field keeps the codes in deck order.
    expect(phone.locator("[data-picked] button").first).to_have_text("Nhị Văn")
    assert phone.locator("#hand").input_value().split() == sorted(codes, key=_deck_index)
    # Each tap swapped the form in; htmx settled no style attribute the page's CSP would refuse.
    assert errors == []
    verdict = phone.get_by_test_id("verdict")
    expect(verdict).to_contain_text("hợp lệ")
    expect(phone.get_by_test_id("cuoc")).to_contain_text("Thập Điều")
    # Tap a card of the hand to take it out: one short, the waits are listed.
    phone.get_by_role("button", name="Bỏ một quân: Nhị Sách").tap()
    expect(phone.get_by_test_id("hand-count")).to_have_text("20")
    expect(phone.locator("[data-testid=waits] tr[data-card='2s']")).to_have_count(1)
    _fits(phone)


def test_kiem_bai_in_english_names_the_cards_in_english(live_server, phone) -> None:
    phone.goto(live_server.url + "/en/kiem-bai/")
    phone.get_by_role("button", name="7 of Văn", exact=True).tap()
    expect(phone.get_by_role("button", name="7 of Văn 1", exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(phone.get_by_role("button", name="Take out one card: 7 of Văn")).to_be_visible()
    expect(phone.locator("#hand")).to_have_value("7v")


def _deck_index(code: str) -> int:
    from scoring.engine import CARD_BY_CODE

    return CARD_BY_CODE[code].index


def test_the_van_form_takes_the_hand_by_tapping_cards(live_server, phone, keeper) -> None:
    sitting = open_sitting(players=PLAYERS, created_by=keeper)
    sign_in(phone.context, live_server.url, keeper)
    phone.goto(f"{live_server.url}/so-diem/{sitting.pk}/")
    phone.locator("label.who-btn[data-winner='An'] span").tap()
    phone.locator("#van-form label.chip[data-cuoc=tom] span").tap()
    phone.locator("details[data-section=cards] > summary").tap()
    for code in THAP_DIEU_HAND.split():
        phone.locator(f"#van-form [data-card-picker] [data-card='{code}']").tap()
    expect(phone.locator("#van-form [data-card-picker] [data-card=cc] .card-count")).to_have_text("2")
    expect(phone.locator("#van-form [data-card-picker] [data-card=cc]")).to_have_attribute(
        "aria-pressed", "true"
    )
    # A wrong tap is taken back from the hand below the grid.
    phone.locator("#van-form [data-card-picker] [data-card='1v']").tap()
    phone.get_by_role("button", name="Bỏ một quân: Nhất Văn").tap()
    expect(phone.locator("#cards")).to_have_value(" ".join(sorted(THAP_DIEU_HAND.split(), key=_deck_index)))
    # The preview checks the tapped hand: the Tôm recorded, the hand also holds Lèo and Thập Điều.
    expect(phone.get_by_test_id("kiem-bai")).to_contain_text("Xướng thiếu")
    _fits(phone)
    phone.get_by_test_id("save").tap()
    phone.wait_for_selector("#sitting[data-next-seq='2']", state="attached")
    van = Van.objects.get(sitting=sitting, seq=1)
    assert sorted(van.cards.split()) == sorted(THAP_DIEU_HAND.split())
    # The ván list names the cards, never the codes.
    names = phone.get_by_test_id("hand-names").first
    expect(names).to_contain_text("Nhị Văn, Tứ Văn")
    expect(names).not_to_contain_text("2v")


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 195, "height": 422}])
def test_the_new_pages_pass_axe_and_cut_nothing_off(live_server, browser, keeper, viewport) -> None:
    """axe-core (0 serious or critical) and nothing cut off, on a phone and at 200 % zoom on it:
    Kiểm bài with a hand picked, Kiểm bài's Phỏm hands (issue 31), the Phỏm calculator, the ván form's picker."""
    from tests.a11y.checks import add_axe, axe_violations, cut_off, describe

    context = browser.new_context(locale="vi-VN", viewport=viewport, device_scale_factor=2, has_touch=True)
    add_axe(context)
    page = context.new_page()
    page.set_default_timeout(15_000)
    sitting = open_sitting(players=PLAYERS, created_by=keeper)
    sign_in(context, live_server.url, keeper)
    pages = [
        "/kiem-bai/?hand=" + THAP_DIEU_HAND.replace(" ", "+"),
        "/kiem-bai/?game=phom",
        "/kiem-bai/?game=phom&players=2&hand_1=ab+2b+3b+kc&hand_2=5c+6c+7c+qr",
        "/?game=phom",
        "/?game=phom&outcome=u",
        f"/so-diem/{sitting.pk}/",
    ]
    try:
        for path in pages:
            page.goto(live_server.url + path)
            if path.startswith("/so-diem/"):
                page.locator("details[data-section=cards] > summary").tap()
                page.locator("#van-form [data-card-picker] [data-card='cc']").tap()
            problems = axe_violations(page)
            assert not problems, path + "\n" + describe(problems)
            assert cut_off(page) == [], path
    finally:
        context.close()
