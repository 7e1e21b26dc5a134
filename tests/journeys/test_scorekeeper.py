"""A scorekeeper on a 390 px phone keeps a canh of the demo village under the village's own rule set.

Sign in (the sổ điểm asks for it) → open a canh with the village rule set (Kính Cụ 24, Thập Điều
16, Chi Nẩy 24 instead of the 2005 rules' values) → eight ván, among them a draw, a penalty (đánh
ù đền: the discarder pays the whole win) and a correction with its reason; the eighth is kept on
the phone while the network is gone and sent once when it returns → settle up. Every ván's points
and the balances shown are the engine's replay of the same ván under the same village rules.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.engine.settlement import replay
from scoring.services.demo import DEMO_CLUB, DEMO_VILLAGE_RULES
from tests.journeys.browsing import PHONE, Screens
from tests.journeys.stack import DEMO_PASSWORD, DEMO_USER, Stack

pytestmark = [pytest.mark.browser]

VILLAGE = DEMO_VILLAGE_RULES[0]
PLAYERS = ["Ông Giáo", "Bà Lang", "Chú Tễu", "Anh Khóa", "Cô Đào"]
G, L, T, K, D = PLAYERS
#: The ván as recorded (the sixth is corrected later); each: the record and the form's taps.
VAN: list[dict[str, Any]] = [
    {"winner": G, "cuoc": ["kinh_cu"]},
    {"winner": L, "cuoc": ["tom"], "discarder": T},
    {"result": "hoa"},
    {"winner": K, "cuoc": ["thap_dieu"], "chiu": [D]},
    {"winner": T, "cuoc": ["leo"], "discarder": G, "fault": "danh_u_den"},
    {"winner": G, "cuoc": ["tom"]},
    {"winner": D, "cuoc": ["chi_nay"]},
]
CORRECTED = (6, {"winner": K, "cuoc": ["tom"]}, "Ghi nhầm người ù: Anh Khóa ù, không phải Ông Giáo")
OFFLINE = {"winner": L, "cuoc": ["thap_dieu"]}
OFFLINE_ERRORS = r"ERR_INTERNET_DISCONNECTED|Failed to fetch|net::ERR_"


def sign_in_on_the_way(page: Any, base: str) -> None:
    page.goto(base + "/so-diem/")
    page.wait_for_url("**/dang-nhap/?next=/so-diem/")
    page.get_by_label("Tên đăng nhập").fill(DEMO_USER)
    page.get_by_label("Mật khẩu").fill(DEMO_PASSWORD)
    page.get_by_test_id("login").click()
    page.wait_for_url(re.compile(r"/so-diem/$"))


def choose_and_wait(page: Any, select: str, value: str) -> None:
    """Pick ``value``; the form is redrawn for it (htmx): wait for the new form before typing on."""
    if page.locator(select).input_value() == value:
        return  # already chosen: changing to the same value redraws nothing
    old = page.locator("#new-form").element_handle()
    with page.expect_response(lambda r: "/so-diem/moi/?" in r.url and r.request.method == "GET"):
        page.select_option(select, value)
    old.wait_for_element_state("hidden")  # detached: replaced by the redrawn form
    # htmx binds the new form's hx-get only when it settles (20 ms after the swap, when it takes the
    # htmx-added class off): a choice made before that sends no request (the whole suite did that).
    expect(page.locator("#new-form")).not_to_have_class(re.compile(r"htmx-added|htmx-settling"))
    expect(page.locator(select)).to_have_value(value)


def open_canh(page: Any) -> str:
    page.get_by_test_id("open-sitting").click()
    page.wait_for_url("**/so-diem/moi/")
    choose_and_wait(page, "#rules", VILLAGE["slug"])
    choose_and_wait(page, "#club", DEMO_CLUB["slug"])
    for i, name in enumerate(PLAYERS, start=1):
        page.locator(f"#player-{i}").fill(name)
    page.fill("#title", "Canh chiều mùng 4")
    page.get_by_test_id("start").click()
    page.wait_for_url(re.compile(r"/so-diem/\d+/$"))
    expect(page.locator("h1")).to_have_text("Canh chiều mùng 4")
    return page.url


def fill(page: Any, record: dict[str, Any]) -> None:
    """Tap the ván into the form, as the record says."""
    page.locator(f"#van-form label.who-btn[data-winner='{record.get('winner', 'hoa')}'] span").click()
    for slug in record.get("cuoc", []):
        page.locator(f"#van-form label.chip[data-cuoc={slug}] span").click()
    if "discarder" in record:
        page.locator("#van-form details[data-section=discarder] > summary").click()
        page.locator(f"#van-form label.chip[data-discarder='{record['discarder']}'] span").click()
    for name in record.get("chiu", []):
        page.locator("#van-form details[data-section=chiu] > summary").click()
        page.locator(f"#van-form label.chip[data-chiu='{name}'] span").click()
    if "fault" in record:
        page.locator("#van-form details[data-section=fault] > summary").click()
        page.locator(f"#van-form label.choice[data-fault='{record['fault']}'] span").click()


def save(page: Any, seq: int) -> None:
    page.get_by_test_id("save").click()
    page.get_by_test_id("notice").filter(has_text=f"Đã lưu ván {seq}").wait_for()
    page.wait_for_selector(f"#sitting[data-next-seq='{seq + 1}']", state="attached")


def shown_balances(page: Any) -> dict[str, int]:
    seats = page.locator("[data-testid=balances] li.seat")
    return {
        seats.nth(i).get_attribute("data-name"): int(seats.nth(i).get_attribute("data-balance") or "")
        for i in range(seats.count())
    }


def test_a_scorekeeper_keeps_a_village_canh_with_a_van_sent_after_the_network_returns(
    stack: Stack, screens: Screens
) -> None:
    phone = screens.open(PHONE, service_workers="allow")
    sign_in_on_the_way(phone, stack.url)
    url = open_canh(phone)
    rules = {"preset": VILLAGE["preset"], **VILLAGE["overrides"]}
    spec = {"game": "to-tom-5", "rules": rules, "mode": "quang", "players": PLAYERS}

    for seq, record in enumerate(VAN, start=1):
        fill(phone, record)
        save(phone, seq)
    first = phone.locator("[data-testid=van-list] li.van[data-seq='1']")
    village_points = replay({**spec, "van": VAN[:1]})["van"][0]["points"]
    assert village_points == 24  # Kính Cụ under the village's rule set (18 under the 2005 rules)
    expect(first.locator(".van-points")).to_have_text(f"{village_points} điểm")
    expect(phone.locator("[data-testid=van-list] li.van[data-seq='3'] .van-outcome")).to_have_text("Hòa")

    # The correction, with its reason.
    seq, record, reason = CORRECTED
    phone.get_by_test_id(f"correct-{seq}").click()
    phone.wait_for_url(f"**/van/{seq}/sua/")
    expect(
        phone.locator("#van-form label.chip[data-cuoc=tom] input")
    ).to_be_checked()  # the form holds the ván
    fill(phone, {"winner": record["winner"]})  # only the winner was wrong
    phone.locator("#reason").fill(reason)
    phone.get_by_test_id("save-correction").click()
    phone.locator(".notice").filter(has_text=f"Đã sửa ván {seq}").wait_for()
    expect(phone.get_by_test_id("superseded")).to_contain_text(reason)
    current = [*VAN[: seq - 1], record, *VAN[seq:]]

    # The network goes; ván 8 is kept on the phone, then sent once when it comes back.
    phone.wait_for_selector("html[data-offline-ready='1']", state="attached")
    with screens.allowing(OFFLINE_ERRORS):
        phone.context.set_offline(True)
        phone.get_by_test_id("net-indicator").filter(has_text="Mất mạng").wait_for()
        fill(phone, OFFLINE)
        phone.get_by_test_id("save").click()
        phone.get_by_test_id("outbox-item").first.wait_for()
        expect(phone.get_by_test_id("outbox-item")).to_have_count(1)
        phone.context.set_offline(False)
        phone.wait_for_selector("#sitting[data-next-seq='9']", state="attached", timeout=30_000)
        expect(phone.get_by_test_id("net-indicator")).to_have_attribute(
            "data-state", "online", timeout=15_000
        )
    expect(phone.get_by_test_id("outbox-item")).to_have_count(0)
    current.append(OFFLINE)
    phone.goto(url)  # the server's page: each ván once
    assert phone.locator("[data-testid=van-list] li.van").evaluate_all(
        "items => items.map(li => li.dataset.seq)"
    ) == [str(n) for n in range(8, 0, -1)]

    expected = replay({**spec, "van": current})
    assert shown_balances(phone) == expected["balances"]
    points = [v["points"] for v in expected["van"]]
    shown = [phone.locator(f"[data-testid=van-list] li.van[data-seq='{n}'] .van-points") for n in range(1, 9)]
    for n, (locator, pts) in enumerate(zip(shown, points, strict=True), start=1):
        if current[n - 1].get("winner"):
            expect(locator).to_have_text(f"{pts} điểm")
    expect(phone.get_by_test_id("integrity")).to_contain_text("Mọi bút toán cân")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # Settle up: the fewest transfers bring everyone to zero; the canh ends.
    phone.get_by_test_id("settle-link").click()
    plan = phone.get_by_test_id("plan").locator("li")
    expect(plan.first).to_be_visible()
    assert sum(int(a) for a in plan.locator(".amt").all_inner_texts()) == sum(
        b for b in expected["balances"].values() if b > 0
    )
    phone.get_by_test_id("settle-confirm").check()
    phone.get_by_test_id("settle").click()
    expect(phone.locator("p.notice[role=status]")).to_have_text("Đã thanh toán và kết thúc canh bài.")
    expect(phone.get_by_test_id("save")).to_have_count(0)  # the canh is over: no more ván
    phone.goto(url + "thanh-toan/")
    expect(phone.locator(".notice")).to_contain_text("Canh bài đã thanh toán và kết thúc")
    final = dict(
        zip(
            phone.locator(".seats .seat-name").all_inner_texts(),
            (int(b) for b in phone.locator(".seats .seat-balance").all_inner_texts()),
            strict=True,
        )
    )
    assert final == expected["balances"]  # the play's result, kept apart from the settlement entries
    settled = phone.get_by_test_id("settled").locator(".amt").all_inner_texts()
    assert sum(int(a) for a in settled) == sum(b for b in expected["balances"].values() if b > 0)
