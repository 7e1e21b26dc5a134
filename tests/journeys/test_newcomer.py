"""A newcomer's first minutes after `make run`: the demo festival's leaderboard (computed by the
Celery worker from the demo's ván) shows ranked players with points; signed in with the demo
account printed by `make run`, one more ván recorded at a table moves it within a few seconds."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.journeys.browsing import PHONE, Screens, sign_in
from tests.journeys.stack import Stack

pytestmark = [pytest.mark.browser, pytest.mark.celery]

FESTIVAL = "Hội làng Đông Ngạc xuân Bính Ngọ"


def standings(page: Any) -> list[tuple[int, str, int]]:
    """(rank, name, points) of every row of the scoreboard, as shown."""
    rows = page.get_by_test_id("standings").locator("tbody tr[data-player]")
    out = []
    for i in range(rows.count()):
        row = rows.nth(i)
        rank = row.locator(".rank").inner_text().rstrip("=").strip()
        out.append((int(rank), row.locator(".name").inner_text(), int(row.locator(".points").inner_text())))
    return out


def check_ranked(rows: list[tuple[int, str, int]]) -> None:
    """Ranks follow the points (ties share a rank), and the points sum to zero (a ledger of points)."""
    assert [p for _r, _n, p in rows] == sorted((p for _r, _n, p in rows), reverse=True), rows
    for i, (rank, _name, points) in enumerate(rows):
        assert rank == (rows[i - 1][0] if i and rows[i - 1][2] == points else i + 1), rows
    assert sum(p for _r, _n, p in rows) == 0, rows


def test_the_demo_leaderboard_is_ranked_and_moves_with_one_more_van(stack: Stack, screens: Screens) -> None:
    crowd = screens.open(PHONE)
    crowd.goto(stack.url + "/")  # the address `make run` prints
    crowd.get_by_role("link", name="Giải đấu").first.click()
    crowd.get_by_role("link", name=FESTIVAL).click()
    expect(crowd.locator("h1")).to_have_text(FESTIVAL)
    rows = crowd.get_by_test_id("standings").locator("tbody tr[data-player]")
    expect(rows).to_have_count(10, timeout=60_000)  # the worker's first recompute, queued by the demo
    expect(crowd.locator(".board-meta")).to_contain_text("5 ván", timeout=30_000)  # chiếu 1: 2, chiếu 2: 3
    before = standings(crowd)
    check_ranked(before)
    crowd.evaluate("window.__samePage = true")
    assert before[0][2] > 0

    keeper = screens.open(PHONE)
    sign_in(keeper, stack.url)
    keeper.goto(stack.url + "/giai/")
    keeper.get_by_role("link", name=FESTIVAL).click()
    keeper.get_by_role("link", name="Ban tổ chức").click()
    keeper.get_by_test_id("table-link").filter(has_text="Chiếu 2").click()
    seats = keeper.get_by_test_id("seats").locator("tbody tr")
    winner = seats.nth(0).locator("strong").inner_text()
    had = int(seats.nth(0).locator(".points").inner_text())
    keeper.locator(f"label.chip[data-winner='{winner}'] span").click()
    keeper.locator("label.chip[data-cuoc='tom'] span").click()
    keeper.get_by_role("button", name="Ghi ván").click()
    keeper.get_by_test_id("van-list").locator("li").first.filter(
        has_text=re.compile(f"^{re.escape(winner)} ù")
    ).wait_for()
    won = int(seats.nth(0).locator(".points").inner_text()) - had
    assert won > 0
    recorded = time.monotonic()

    board_points = dict((name, points) for _rank, name, points in before)
    mine = crowd.get_by_test_id("standings").locator(
        f"tbody tr[data-player]:has(.name:text-is('{winner}')) .points"
    )
    expect(mine).to_have_text(str(board_points[winner] + won), timeout=10_000)
    moved_in = time.monotonic() - recorded
    check_ranked(standings(crowd))
    expect(crowd.locator(".board-meta")).to_contain_text("6 ván")
    print(f"{stack.config}: the scoreboard moved {moved_in:.1f} s after the ván")
    assert crowd.evaluate("window.__samePage") is True  # updated in place by htmx, never reloaded
