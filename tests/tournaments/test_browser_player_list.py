"""Registering a whole list of players, pasted or uploaded, with a preview of the duplicates
(issue 19, item 11), in real Chromium on a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.conftest import sign_in
from tournaments.models import Registration

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_pasted_list_is_previewed_with_its_duplicates_then_registered(
    phone, live_server, own, organiser
) -> None:
    event, _tables = own
    before = Registration.objects.filter(event=event).count()
    sign_in(phone.context, live_server.url, organiser)
    phone.goto(f"{live_server.url}/giai/{event.slug}/quan-ly/")
    phone.locator("[data-testid=player-list] > summary").tap()
    phone.fill("#list-names", "An\nBảo, Đông\nbảo\nMới Một\n")
    phone.get_by_role("button", name="Xem trước").tap()
    rows = phone.locator("[data-testid=list-preview] tbody tr")
    expect(rows).to_have_count(4)
    assert [rows.nth(i).get_attribute("data-status") for i in range(4)] == [
        "registered",
        "new",
        "twice",
        "new",
    ]
    expect(rows.nth(0)).to_contain_text("đã đăng ký giải này")
    expect(rows.nth(2)).to_contain_text("đã có ở dòng trên")
    assert Registration.objects.filter(event=event).count() == before  # a preview writes nothing
    phone.get_by_test_id("list-save").tap()
    expect(phone.get_by_test_id("list-done")).to_have_text("Đã đăng ký 2 người.")
    expect(phone.locator("li[data-player='Bảo']")).to_contain_text("Đông")
    expect(phone.locator("li[data-player='Mới Một']")).to_have_count(1)
    assert Registration.objects.filter(event=event).count() == before + 2


def test_an_uploaded_csv_is_previewed_in_english(phone, live_server, own, organiser) -> None:
    event, _tables = own
    sign_in(phone.context, live_server.url, organiser)
    phone.goto(f"{live_server.url}/en/giai/{event.slug}/quan-ly/")
    phone.locator("[data-testid=player-list] > summary").tap()
    phone.set_input_files(
        "#list-file",
        files=[
            {
                "name": "ds.csv",
                "mimeType": "text/csv",
                "buffer": "Tên,Làng\nCúc,Tây\nAn,Đông\n".encode("utf-8-sig"),
            }
        ],
    )
    phone.locator("[data-testid=player-list] button[value=preview]").tap()
    rows = phone.locator("[data-testid=list-preview] tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("new: will be registered")
    expect(rows.nth(1)).to_contain_text("already registered for this event")
    expect(phone.locator("#list-names")).to_have_value("Cúc,Tây\nAn,Đông\n")
    phone.get_by_test_id("list-save").tap()
    expect(phone.get_by_test_id("list-done")).to_have_text("Registered 1 player.")
    assert Registration.objects.filter(event=event, player__name="Cúc", team="Tây").exists()
