"""The Trung Quân of the demo festival's chiếu 1 on a tablet, with the audience display open as a
second page: the big drum, a player's drum and the red flag reach the display live (SSE through
the server `make run` starts), and the ván the Trung Quân then records is announced there with
its winner, cước and points: the engine's points for the same ván after the demo's two."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.engine.settlement import replay
from tests.journeys.browsing import TABLET, Screens, sign_in
from tests.journeys.stack import Stack
from tournaments.demo import CONSOLE_VAN, DEMO_EVENT

pytestmark = [pytest.mark.browser]


def on_display(display: Any, seat: int, role: str) -> Any:
    return display.locator(f'.dp-seat[data-seat="{seat}"] [data-role="{role}"]')


def test_the_trung_quan_drives_the_audience_display_from_a_tablet(stack: Stack, screens: Screens) -> None:
    tablet = screens.open(TABLET)
    sign_in(tablet, stack.url)
    tablet.goto(stack.url + "/trung-quan/")
    tablet.get_by_role("row").filter(has_text="Chiếu 1 giữa sân đình").get_by_role(
        "link", name="Mở bàn Trung Quân"
    ).click()
    expect(tablet.locator("#tq")).to_be_visible()
    names = [
        tablet.locator(f'.tq-pad[data-seat="{n}"]').get_attribute("aria-label").split(": ", 1)[1]
        for n in range(1, 6)
    ]
    expect(tablet.get_by_test_id("van-seq")).to_have_text("3")  # the demo's two ván are done

    with tablet.context.expect_page() as opened:
        tablet.get_by_role("link", name="Màn hình khán giả").click()
    display = opened.value
    display.locator('#dp-conn[data-state="live"]').wait_for()
    expect(display.locator("#dp-van")).to_have_text("3")
    assert display.locator(".dp-seat .dp-name").all_inner_texts() == names
    display.evaluate("window.__samePage = true")

    tablet.get_by_role("button", name="Khai hội (Trung Quân)").click()
    display.locator("#dp-ticker li").filter(has_text="Khai hội").wait_for()
    tablet.locator('[data-seat="3"]').get_by_role("button", name="Tùng tùng: Phỗng").click()
    expect(on_display(display, 3, "display")).to_have_text("Phỗng")
    expect(on_display(display, 3, "label")).to_have_text("Tùng tùng")
    expect(display.locator("#dp-ticker li").last).to_contain_text(f"{names[2]} Tùng tùng → Phỗng")

    winner = names[1]
    tablet.locator('[data-seat="2"]').get_by_role("button", name="Cờ đỏ: Ù!").click()
    expect(on_display(display, 2, "flags")).to_contain_text("Ù!")
    form = tablet.get_by_test_id("van-form")
    expect(form.get_by_role("radio", name=f"2. {winner}")).to_be_checked()  # the flag opened the ván form
    form.locator("label.chip", has_text="Tôm").click()
    form.get_by_role("button", name="Lưu ván và báo lên màn hình").click()

    seats = dict(enumerate(names, start=1))
    van = [{"winner": seats[w], "cuoc": c} for _signals, w, c in CONSOLE_VAN] + [
        {"winner": winner, "cuoc": ["tom"]}
    ]
    expected = replay(
        {
            "game": DEMO_EVENT["game"],
            "rules": DEMO_EVENT["rules"],
            "mode": DEMO_EVENT["mode"],
            "players": names,
            "van": van,
        }
    )
    points = expected["van"][-1]["points"]
    announce = display.locator("#dp-announce")
    expect(announce).to_be_visible()
    expect(display.locator("#dp-announce-winner")).to_contain_text(winner)
    expect(display.locator("#dp-announce-points")).to_have_text(f"{points} điểm")
    expect(display.locator("#dp-announce-cuoc")).to_have_text("Tôm")
    leader, top = max(expected["balances"].items(), key=lambda kv: kv[1])
    assert display.locator("#dp-standings li").first.inner_text().split() == [*leader.split(), f"{top:+d}"]
    expect(on_display(display, 2, "balance")).to_have_text(f"{expected['balances'][winner]:+d} điểm")
    expect(tablet.get_by_test_id("console-announcement")).to_contain_text(f"{points} điểm")
    expect(display.locator("#dp-van")).to_have_text("4")
    assert display.evaluate("window.__samePage") is True  # all of it streamed, never reloaded
