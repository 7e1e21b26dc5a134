"""Printed check-in cards and the copied check-in link, in real Chromium (issue 19, items 1 and 2).

The cards drew each QR code 0 × 0 (the card took the Kiểm bài picker's flex layout, and the SVG
had no viewBox, so sizing it cropped the code) and wrapped the link one character a line; the
registration list showed (and so people copied) ``/diem-danh//TOKEN/``, a 404.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image
from playwright.sync_api import expect

from tests.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _dark(image: Image.Image, fx: float, fy: float) -> bool:
    r, g, b = image.convert("RGB").getpixel((int(fx * image.width), int(fy * image.height)))
    return r + g + b < 200


def _whole_code_drawn(svg) -> None:
    """The code is drawn whole at its size: the dark centres of its three finder patterns sit in
    three corners (a cropped code, or a dot, has not)."""
    modules = int(svg.get_attribute("viewBox").split()[2]) // 5  # scale 5, quiet zone included
    image = Image.open(io.BytesIO(svg.screenshot()))
    near, far = 5.5 / modules, 1 - 5.5 / modules  # 2 modules of quiet zone + half a 7-module finder
    assert _dark(image, near, near) and _dark(image, far, near) and _dark(image, near, far)
    assert not _dark(image, 1 / modules, 1 / modules)  # the quiet zone is light


@pytest.fixture
def organiser_phone(phone, live_server, own, organiser):
    sign_in(phone.context, live_server.url, organiser)
    return phone


def test_each_card_shows_a_whole_qr_code_and_a_readable_link(organiser_phone, live_server, own) -> None:
    event, _tables = own
    page = organiser_phone
    page.goto(f"{live_server.url}/giai/{event.slug}/quan-ly/the-diem-danh/")
    cards = page.locator("[data-testid=cards] article")
    expect(cards).to_have_count(10)
    # The page on a phone, then as printed on A4 (or saved as PDF): 794 px is A4's width at 96 dpi.
    for media, width in (("screen", 390), ("print", 794)):
        page.set_viewport_size({"width": width, "height": 1123})
        page.emulate_media(media=media)
        for i in (0, 9):
            card = cards.nth(i)
            svg = card.locator("svg")
            box = svg.bounding_box()
            assert box["width"] >= 120 and abs(box["width"] - box["height"]) < 1, (media, box)
            _whole_code_drawn(svg)
            link = card.locator(".link")
            lines = link.bounding_box()["height"] / float(
                link.evaluate("e => parseFloat(getComputedStyle(e).lineHeight)")
            )
            assert lines <= 4, (media, lines)  # the link wrapped one character a line
            assert card.locator(".big-name").bounding_box()["width"] >= 150
    page.emulate_media(media="print")
    assert page.pdf(format="A4")[:4] == b"%PDF"


def test_the_copied_check_in_link_opens_the_players_check_in(organiser_phone, live_server, own) -> None:
    event, _tables = own
    page = organiser_phone
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page.goto(f"{live_server.url}/giai/{event.slug}/quan-ly/")
    row = page.locator("li[data-player='An']")
    row.locator("details.qr > summary").tap()
    expect(row.locator("[data-testid=qr] svg")).to_be_visible()
    shown = row.locator("details.qr code").inner_text().strip()
    assert "//" not in shown.removeprefix(live_server.url), shown
    row.get_by_role("button", name="Chép đường dẫn").tap()
    expect(row.locator("[data-copy-status]")).to_have_text("Đã chép đường dẫn.")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == shown
    answer = page.goto(copied)
    assert answer.status == 200
    expect(page.locator(".big-name")).to_contain_text("An")
