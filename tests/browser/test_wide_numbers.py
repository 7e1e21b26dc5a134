"""Five-digit balances on a 390 px phone (issue 33): each seat's balance and each cell of the hội
table stays on one line inside its card or cell (one line box, no spill), and the page does not
scroll sideways."""

from __future__ import annotations

import pytest

from tests.conftest import sign_in
from tests.factories import open_sitting, record_all

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: A cước worth 12 345 (within the engine's bounds, docs/bounds.md): An ù Tôm takes it from each
#: of the four others (−12345 each, +49380 for An).
RULES = {"preset": "luat-2005", "cuoc": {"tom": {"main": 12345}}}

#: Each element's rendered height over its computed line height, and the page's sideways overflow.
MEASURE = """(selector) => ({
  lines: [...document.querySelectorAll(selector)].map((el) => {
    const style = getComputedStyle(el);
    const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.2;
    const range = document.createRange();
    range.selectNodeContents(el);
    const box = range.getBoundingClientRect(), cell = el.getBoundingClientRect();
    const inside = box.left >= cell.left - 0.5 && box.right <= cell.right + 0.5;
    return [el.textContent.trim(), inside ? range.getClientRects().length : 0, Math.round(box.height / line * 10) / 10];
  }),
  overflow: document.documentElement.scrollWidth - window.innerWidth,
})"""


@pytest.mark.parametrize("prefix", ["", "/en"])
def test_five_digit_balances_stay_on_one_line_at_390_px(phone, live_server, keeper, prefix) -> None:
    sign_in(phone.context, live_server.url, keeper)
    sitting = open_sitting(created_by=keeper, rules=RULES)
    record_all(sitting, [{"winner": "An", "cuoc": ["tom"]}])
    phone.goto(f"{live_server.url}{prefix}/so-diem/{sitting.pk}/")
    assert phone.viewport_size["width"] == 390
    seats = phone.evaluate(MEASURE, "[data-testid=balances] .seat-balance")
    assert sorted(text for text, _, _ in seats["lines"]) == ["+49380", *["−12345"] * 4]
    assert [
        (text, rects, height) for text, rects, height in seats["lines"] if rects != 1 or height > 1.2
    ] == []
    assert seats["overflow"] <= 0
    phone.locator("#tong-ket").scroll_into_view_if_needed()
    cells = phone.evaluate(MEASURE, ".hoi-table td.num")
    assert any(text == "−12345" for text, _, _ in cells["lines"])
    assert [
        (text, rects, height) for text, rects, height in cells["lines"] if rects != 1 or height > 1.2
    ] == []
    assert cells["overflow"] <= 0
