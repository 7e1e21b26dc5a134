"""The organiser of a hội làng, from an empty festival to its final results, on a phone.

Create the festival → register ten players (a duplicate name is refused on the page) → one player
checks in through their own QR link → seat round 1 → the two tables' scorekeepers enter the PIN
the organiser gave them and record their ván → the public leaderboard, computed by the Celery
worker, shows the right ranks and points → the standings CSV, XLSX and PDF hold the same numbers →
the chart has data → close the tables, seat round 2 → make the results final → a further ván is
refused. The expected points are the engine's replay of the same ván at the same seats.
"""

from __future__ import annotations

import csv
import io
import re
import subprocess
from collections import Counter
from typing import Any
from urllib.parse import urljoin

import pytest
import tablib
from playwright.sync_api import expect

from scoring.engine.settlement import replay
from tests.journeys.browsing import PHONE, Screens, sign_up
from tests.journeys.stack import Stack

pytestmark = [pytest.mark.browser, pytest.mark.celery]

FESTIVAL = "Hội làng Xuân Ất Tỵ"
PLAYERS = [
    ("An", "Giáp Đông"),
    ("Bình", "Giáp Đông"),
    ("Chi", "Giáp Đông"),
    ("Dũng", "Giáp Đông"),
    ("Em", "Giáp Đông"),
    ("Giang", "Giáp Đoài"),
    ("Hà", "Giáp Đoài"),
    ("Khánh", "Giáp Đoài"),
    ("Lan", "Giáp Đoài"),
    ("Minh", "Giáp Đoài"),
]
#: Checks in at the gate with their own QR link, not at the organiser's desk.
BY_QR = "Minh"
#: Each table's ván: (the winner's seat, 1-5, or None for a draw; cước).
VAN = [
    [(1, ["tom"]), (2, ["chi_nay"])],
    [(3, ["leo"]), (None, []), (1, ["thap_dieu"])],
]
RULES = {"game": "to-tom-5", "rules": "luat-2005", "mode": "quang"}


def create_festival(page: Any, base: str) -> str:
    page.goto(base + "/giai-moi/")
    page.fill("#id_name", FESTIVAL)
    page.fill("#id_date", "2025-02-03")
    page.select_option("#id_game", "to-tom-5")
    page.select_option("#id_rules", "luat-2005")
    page.get_by_role("button", name="Tạo giải").click()
    page.wait_for_url(re.compile(r"/quan-ly/$"))
    expect(page.locator(".lead")).to_contain_text("mùng 6 tháng Giêng")
    return page.url.removeprefix(base).removesuffix("quan-ly/")


def register(page: Any, name: str, team: str, *, check_in: bool) -> None:
    page.fill("#reg-name", name)
    page.fill("#reg-team", team)
    box = page.locator("#players input[name=check_in]")
    box.check() if check_in else box.uncheck()
    page.get_by_role("button", name="Đăng ký").click()


def register_everyone(page: Any, screens: Screens) -> None:
    for name, team in PLAYERS:
        register(page, name, team, check_in=name != BY_QR)
        page.locator(f"li[data-player='{name}']").wait_for()
    expect(page.get_by_test_id("present")).to_have_text("9/10 có mặt")
    # The same name again: refused, and the page says why (an htmx form answering 400).
    with screens.allowing(r"status of 400"):
        register(page, "An", "Giáp Đoài", check_in=True)
        expect(page.locator("#players [role=alert]")).to_contain_text("Giải đã có người tên 'An'")
    expect(page.locator("li[data-player]")).to_have_count(10)


def check_in_by_qr(page: Any, screens: Screens, base: str) -> None:
    """The organiser prints Minh's card; Minh opens its link (what the QR code holds) on their phone."""
    row = page.locator(f"li[data-player='{BY_QR}']")
    row.locator("summary").click()
    row.get_by_test_id("qr").locator("svg").wait_for()  # the QR code, fetched when the card is opened
    row.get_by_role("link", name="In thẻ").click()
    link = page.locator("code.link").inner_text().strip()
    assert link.startswith(base + "/giai/") and "//" not in link.removeprefix("http://"), link
    player = screens.open(PHONE)
    player.goto(link)
    expect(player.locator(".big-name")).to_contain_text(BY_QR)
    player.get_by_role("button", name="Tôi đã đến: điểm danh").click()
    expect(player.get_by_test_id("checked-in")).to_contain_text("Đã điểm danh lúc")
    page.go_back()
    page.reload()
    expect(page.get_by_test_id("present")).to_have_text("10/10 có mặt")


def seat_round(page: Any, number: int) -> list[str]:
    page.select_option("#rounds select[name=method]", "random")
    page.get_by_role("button", name=f"Xếp chỗ vòng {number}").click()
    heading = page.locator("#rounds h3").filter(has_text=f"Vòng {number}")
    heading.wait_for()
    links = heading.locator("xpath=following-sibling::ul[1]").get_by_test_id("table-link")
    expect(links).to_have_count(2)
    return [links.nth(i).get_attribute("href") or "" for i in range(2)]


def issue_pin(page: Any, base: str, table: str, label: str) -> str:
    page.goto(base + table)
    page.fill("#token-label", label)
    page.get_by_role("button", name="Cấp mã ghi điểm").click()
    pin = page.get_by_test_id("token").filter(has_text=label).locator(".pin").inner_text()
    assert re.fullmatch(r"\d{6}", pin), pin
    return pin


def enter_with_pin(screens: Screens, base: str, table: str, pin: str) -> Any:
    """A scorekeeper's phone, no account: the table's page asks for the PIN (a 403 page)."""
    phone = screens.open(PHONE)
    with screens.allowing(r"status of 403"):
        phone.goto(base + table)
        phone.locator("#pin-input").fill(pin)
        phone.get_by_role("button", name="Vào ghi ván").click()
    phone.get_by_role("button", name="Ghi ván").wait_for()
    return phone


def seat_names(page: Any) -> list[str]:
    return page.get_by_test_id("seats").locator("tbody tr strong").all_inner_texts()


def record(page: Any, seq: int, winner: str | None, cuoc: list[str]) -> None:
    page.locator(f"label.chip[data-winner='{winner or 'hoa'}'] span").click()
    for slug in cuoc:
        page.locator(f"label.chip[data-cuoc='{slug}'] span").click()
    page.get_by_role("button", name="Ghi ván").click()
    page.locator(f"[data-testid=van-list] li[value='{seq}']").wait_for()
    expect(page.locator("form.van-entry legend").first).to_contain_text(f"Ván {seq + 1}")


def expected_board(tables: list[list[str]]) -> dict[str, tuple[int, int]]:
    """Points and wins of every player: the engine's replay of each table's ván."""
    points: Counter[str] = Counter({name: 0 for name, _team in PLAYERS})
    wins: Counter[str] = Counter()
    for seats, vans in zip(tables, VAN, strict=True):
        records = [{"result": "hoa"} if w is None else {"winner": seats[w - 1], "cuoc": c} for w, c in vans]
        points.update(replay({**RULES, "players": seats, "van": records})["balances"])
        wins.update(seats[w - 1] for w, _c in vans if w is not None)
    return {name: (points[name], wins[name]) for name, _team in PLAYERS}


def shown_board(page: Any) -> dict[str, tuple[int, int, int]]:
    """name → (rank, points, wins) as the scoreboard shows them."""
    rows = page.get_by_test_id("standings").locator("tbody tr[data-player]")
    out = {}
    for i in range(rows.count()):
        cells = rows.nth(i).locator("td").all_inner_texts()
        out[rows.nth(i).locator(".name").inner_text()] = (
            int(cells[0].rstrip("=")),
            int(cells[2]),
            int(cells[3]),
        )
    return out


def check_ranks(board: dict[str, tuple[int, int, int]], expected: dict[str, tuple[int, int]]) -> None:
    assert {n: (p, w) for n, (_r, p, w) in board.items()} == expected
    by_rank = sorted(board.values())
    assert [r for r, _p, _w in by_rank][0] == 1
    for (r1, p1, _), (r2, p2, _) in zip(by_rank, by_rank[1:], strict=False):
        assert p1 >= p2 and (r1 < r2 or p1 == p2), (
            by_rank
        )  # more points, better rank; equal rank, equal points
    leader = max(expected, key=lambda n: expected[n][0])
    assert board[leader][0] == 1


def exports_agree(page: Any, board: dict[str, tuple[int, int, int]]) -> None:
    """The CSV, XLSX and PDF linked from the scoreboard hold the numbers it shows."""

    def fetch(name: str) -> bytes:
        href = page.get_by_role("link", name=name, exact=True).get_attribute("href")
        response = page.request.get(urljoin(page.url, href))
        assert response.status == 200, (href, response.status)
        return response.body()

    def rows_of(records: list[list[Any]]) -> dict[str, tuple[int, int, int]]:
        head = records[0]
        i_rank, i_name, i_points, i_wins = (head.index(h) for h in ("Hạng", "Người chơi", "Điểm", "Ván ù"))
        return {
            r[i_name]: (int(r[i_rank]), int(r[i_points]), int(r[i_wins]))
            for r in records[1:]
            if len(r) > i_name and r[i_name] in board
        }

    from_csv = rows_of(list(csv.reader(io.StringIO(fetch("Tải bảng điểm (CSV)").decode("utf-8-sig")))))
    sheet = tablib.Dataset().load(fetch("XLSX"), format="xlsx")
    from_xlsx = rows_of([list(sheet.headers), *[list(r) for r in sheet]])
    assert from_csv == board
    assert from_xlsx == board
    text = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=fetch("In (PDF)"), capture_output=True, check=True
    ).stdout.decode()
    for name, (rank, points, wins) in board.items():
        line = re.compile(rf"^\s*{rank}=?\s+{re.escape(name)}\s+Giáp \S+\s+{points}\s+{wins}\s", re.M)
        assert line.search(text), (name, rank, points, wins, text)


def chart_has_data(page: Any, leader: str, points: int) -> None:
    page.get_by_role("link", name="Biểu đồ").click()
    canvas = page.get_by_test_id("balance-chart")
    expect(canvas).to_have_attribute("data-drawn", re.compile(r"^[1-9]"))
    rows = page.locator("#chart-table tbody tr")
    leader_row = rows.filter(has=page.locator("th", has_text=re.compile(f"^{re.escape(leader)}$")))
    assert leader_row.locator("td").last.text_content() == str(points)  # the table under the chart (folded)


def close_table(page: Any, base: str, table: str) -> None:
    page.goto(base + table)
    page.get_by_test_id("close-table").click()
    page.get_by_test_id("closed").wait_for()


def test_an_organiser_runs_a_festival_from_registration_to_final_results(
    stack: Stack, screens: Screens
) -> None:
    base = stack.url
    organiser = screens.open(PHONE)
    sign_up(organiser, base, "ong-truong-ban", "hoi-lang-xuan-2025")
    path = create_festival(organiser, base)
    register_everyone(organiser, screens)
    check_in_by_qr(organiser, screens, base)

    tables = seat_round(organiser, 1)
    seats, phones = [], []
    for i, table in enumerate(tables, start=1):
        pin = issue_pin(organiser, base, table, f"Thư ký chiếu {i}")
        phone = enter_with_pin(screens, base, table, pin)
        seats.append(seat_names(phone))
        phones.append(phone)
    assert sorted(n for s in seats for n in s) == sorted(n for n, _t in PLAYERS)
    for phone, names, vans in zip(phones, seats, VAN, strict=True):
        for seq, (winner, cuoc) in enumerate(vans, start=1):
            record(phone, seq, names[winner - 1] if winner else None, cuoc)
    expected = expected_board(seats)

    crowd = screens.open(PHONE)
    crowd.goto(base + path)
    standings = crowd.get_by_test_id("standings")
    leader = max(expected, key=lambda n: expected[n][0])
    # Computed by the worker after the last ván: poll until the board has all five ván.
    expect(crowd.locator(".board-meta")).to_contain_text("5 ván", timeout=30_000)
    expect(standings.locator("tbody tr").first.locator(".name")).to_have_text(leader)
    board = shown_board(crowd)
    check_ranks(board, expected)
    expect(crowd.get_by_test_id("provisional")).to_have_text("Tạm tính")
    exports_agree(crowd, board)
    chart_has_data(crowd, leader, expected[leader][0])

    for table in tables:
        close_table(organiser, base, table)
    organiser.goto(base + path + "quan-ly/")
    round_two = seat_round(organiser, 2)
    organiser.goto(base + round_two[0])
    names = seat_names(organiser)
    stale = enter_with_pin(
        screens, base, round_two[1], issue_pin(organiser, base, round_two[1], "Thư ký vòng 2")
    )
    organiser.goto(base + round_two[0])
    record(organiser, 1, names[0], ["tom"])

    organiser.goto(base + path + "quan-ly/")
    organiser.locator("#recompute summary").filter(has_text="Chốt kết quả").click()
    organiser.get_by_role("button", name="Chốt kết quả").click()
    organiser.goto(base + path)
    expect(organiser.locator(".board-meta .tag")).to_have_text("Kết quả chính thức", timeout=15_000)

    # A scorekeeper whose page was open before the results were made final tries one more ván.
    other = seat_names(stale)
    with screens.allowing(r"status of 409"):
        stale.locator(f"label.chip[data-winner='{other[0]}'] span").click()
        stale.get_by_role("button", name="Ghi ván").click()
        expect(stale.locator("#table [role=alert]")).to_contain_text("Giải đã chốt kết quả chính thức")
    stale.reload()
    expect(stale.get_by_test_id("finished")).to_be_visible()
    expect(stale.get_by_role("button", name="Ghi ván")).to_have_count(0)
    expect(stale.get_by_test_id("van-list-empty")).to_have_text("Chưa có ván nào.")
