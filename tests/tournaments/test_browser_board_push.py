"""A festival's scoreboard on phones in the crowd, pushed (tournaments/board.py): real Chromium on an
ASGI server (daphne, boards pushed through Redis as between a Celery worker and the app servers).
A new board appears without the page asking for it, in the page's language."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings
from playwright.sync_api import expect

from tests.console.conftest import daphne
from tests.tournaments.conftest import record, seat_names
from tournaments.services.leaderboard import rebuild_leaderboard
from tournaments.signals import standings_changed

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="module")
def pushing_url(django_db_setup: Any, django_db_blocker: Any) -> Any:
    with daphne(BOARD_PUSH="true") as base:
        yield base


def _open(browser: Any, url: str, locale: str) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(locale=locale, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(10_000)
    polls: list[str] = []
    page.on("request", lambda r: polls.append(r.url) if "?v=" in r.url else None)
    with page.expect_response(lambda r: "/su-kien/bang/" in r.url):  # the stream is open
        page.goto(url)
    return context, page, polls


@override_settings(BOARD_PUSH=True)
def test_a_new_board_reaches_the_crowds_phones_without_their_asking(browser, pushing_url, seated) -> None:
    event, tables = seated
    rebuild_leaderboard(event_id=event.pk)
    vi_context, vi, vi_polls = _open(browser, f"{pushing_url}/giai/{event.slug}/", "vi-VN")
    en_context, en, _ = _open(browser, f"{pushing_url}/en/giai/{event.slug}/man-chieu/", "en-GB")
    try:
        winner = seat_names(tables[0])[0]
        record(tables[0], 1, winner, ["chi_nay"])  # 36 from each of four
        rebuilt = rebuild_leaderboard(event_id=event.pk)
        standings_changed.send(sender=None, event_id=event.pk, version=rebuilt.version)  # as the task does

        top = vi.get_by_test_id("standings").locator("tbody tr").nth(0)
        expect(top.locator(".name")).to_have_text(winner)
        expect(top.locator(".points")).to_have_text("144")
        assert "Chi Nẩy" in vi.get_by_test_id("cuoc").inner_text()
        expect(en.locator("#board")).to_have_attribute("data-version", str(rebuilt.version))
        assert f"Version {rebuilt.version}" in en.locator("#board").inner_text()  # in English
        # pushed, not fetched: no poll went out, and the page never reloaded
        assert vi_polls == []
        assert vi.evaluate("performance.getEntriesByType('navigation').length") == 1
        # the board pushed in still carries its stream and its 10 minutes' poll (the safety net)
        assert vi.locator("#board").get_attribute("hx-trigger") == "every 600s, board-missed"
    finally:
        vi_context.close()
        en_context.close()
