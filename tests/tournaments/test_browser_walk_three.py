"""The third walk on the events' pages, in real Chromium (issue 31): seat 1's points were always red
on the table page (the leaderboard's "leader in red" rule reached the seats); an empty ván list
read "1. Chưa có ván nào."; a list of players imported at once took one tap each to check in."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.a11y.checks import add_axe, axe_violations, describe
from tests.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_table_page_colours_no_seat_and_says_there_is_no_van_yet(
    browser: Any, live_server: Any, own: Any, organiser: Any
) -> None:
    from tournaments.services.van import event_van_record

    event, tables = own
    for width in (390, 1280):
        context = browser.new_context(locale="vi-VN", viewport={"width": width, "height": 900})
        add_axe(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        try:
            sign_in(context, live_server.url, organiser)
            page.goto(f"{live_server.url}/giai/{event.slug}/chieu/{tables[0].pk}/")
            empty = page.get_by_test_id("van-list-empty")
            expect(empty).to_have_text("Chưa có ván nào.")
            assert empty.evaluate("e => e.closest('ol, ul') === null")  # a sentence, not item 1
            assert empty.evaluate("e => getComputedStyle(e, '::marker').content") in ("", "none", "normal")
            colours = page.locator("[data-testid=seats] td.points").evaluate_all(
                "cells => cells.map(c => getComputedStyle(c).color)"
            )
            assert len(colours) == 5 and len(set(colours)) == 1, colours  # seat 1 like the others
            found = axe_violations(page)
            assert not found, describe(found)
        finally:
            context.close()

    names = [s.name for s in tables[1].sitting.seats.order_by("position")]
    event_van_record(
        table=tables[1], seq=1, record={"winner": names[2], "cuoc": ["tom"]}, idempotency_key=None
    )
    context = browser.new_context(locale="vi-VN", viewport={"width": 390, "height": 900})
    try:
        sign_in(context, live_server.url, organiser)
        page = context.new_page()
        page.goto(f"{live_server.url}/giai/{event.slug}/chieu/{tables[1].pk}/")
        expect(page.get_by_test_id("van-list").locator("li")).to_have_count(1)
        expect(page.get_by_test_id("van-list-empty")).to_have_count(0)
        colours = page.locator("[data-testid=seats] td.points").evaluate_all(
            "cells => cells.map(c => getComputedStyle(c).color)"
        )
        assert len(set(colours)) == 1, colours  # the winner sits third; no seat is singled out
    finally:
        context.close()


def test_the_leaderboard_still_marks_its_leader(phone: Any, live_server: Any, own: Any) -> None:
    from tournaments.services.leaderboard import rebuild_leaderboard
    from tournaments.services.van import event_van_record

    event, tables = own
    names = [s.name for s in tables[0].sitting.seats.order_by("position")]
    event_van_record(
        table=tables[0], seq=1, record={"winner": names[0], "cuoc": ["tom"]}, idempotency_key=None
    )
    rebuild_leaderboard(event_id=event.pk, force=True)
    phone.goto(f"{live_server.url}/giai/{event.slug}/")
    cells = phone.locator("table.standings:not(.seats) tbody tr td.points")
    expect(cells.first).to_be_visible()
    first, second = cells.evaluate_all("cs => cs.slice(0, 2).map(c => getComputedStyle(c).color)")
    assert first != second


def test_check_in_everyone_after_a_confirmation(
    phone: Any, live_server: Any, make_event: Any, organiser: Any
) -> None:
    from tournaments.models import Registration, RegistrationStatus

    event = make_event(checked_in=3)
    event.organisers.add(organiser)
    sign_in(phone.context, live_server.url, organiser)
    phone.goto(f"{live_server.url}/giai/{event.slug}/quan-ly/")
    button = phone.get_by_test_id("check-in-all")
    expect(button).to_have_text("Điểm danh tất cả (7 người chưa điểm danh)")

    asked: list[str] = []
    phone.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    button.tap()
    expect(phone.get_by_test_id("present")).to_have_text("3/10 có mặt")  # "Không": nothing changed
    assert asked == ["Điểm danh cả 7 người chưa điểm danh? Chỉ làm khi mọi người đã có mặt."]
    assert Registration.objects.filter(event=event, status=RegistrationStatus.CHECKED_IN).count() == 3

    phone.once("dialog", lambda d: d.accept())
    button.tap()
    expect(phone.get_by_test_id("checked-in-now")).to_have_text("Đã điểm danh 7 người.")
    expect(phone.get_by_test_id("present")).to_have_text("10/10 có mặt")
    expect(phone.get_by_test_id("check-in-all")).to_have_count(0)
    assert Registration.objects.filter(event=event, status=RegistrationStatus.CHECKED_IN).count() == 10
