"""The JSON backup of a sitting holds everything needed to rebuild it (every ván version, every
transaction with postings that sum to 0, the exact rule set); the chart data is each player's
balance after every ván, from the ledger; the chart page draws it with the vendored Chart.js."""

from __future__ import annotations

import json

import pytest

from scoring.models import LedgerTransaction
from scoring.selectors.ledger import balances

#: The reports are as private as the sitting: signed in as ``keeper``, who opened it.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("signed_in")]


def test_the_sitting_backup_has_every_van_version_and_a_balanced_ledger(client, sitting) -> None:
    response = client.get(f"/so-diem/{sitting.pk}/xuat/sao-luu.json")
    doc = json.loads(response.content)
    assert (doc["format"], doc["version"], doc["kind"]) == ("so-tom-backup", 1, "sitting")
    [backup] = doc["sittings"]
    assert [s["name"] for s in backup["seats"]] == ["An", "Bình", "Chi", "Dũng", "Em"]
    versions = [(v["seq"], v["is_current"], v["record"].get("winner")) for v in backup["van"]]
    assert (1, False, "Chi") in versions and (1, True, "An") in versions
    assert len(backup["transactions"]) == LedgerTransaction.objects.filter(sitting=sitting).count()
    assert all(sum(p["amount"] for p in t["postings"]) == 0 for t in backup["transactions"])
    spec = doc["rule_sets"][backup["rules"]]
    assert spec["preset"] == "luat-2005"
    assert {p["name"] for p in doc["players"]} == {"An", "Bình", "Chi", "Dũng", "Em"}


def test_the_chart_data_is_each_players_balance_after_every_van(client, sitting) -> None:
    data = client.get(f"/so-diem/{sitting.pk}/bieu-do.json").json()
    assert data["labels"] == ["Đầu canh", "Ván 1", "Ván 2", "Ván 3", "Ván 4"]
    series = {d["label"]: d["data"] for d in data["datasets"]}
    assert series["An"] == [0, 32, 80, 80, 62]
    assert {name: points[-1] for name, points in series.items()} == balances(sitting).players


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_reports_page_draws_the_balance_chart_with_the_vendored_chart_js(
    live_server, phone, keeper
) -> None:
    from tests.conftest import sign_in
    from tests.factories import open_sitting, record_all

    sign_in(phone.context, live_server.url, keeper)
    s = open_sitting(created_by=keeper)
    record_all(s, [{"winner": "An", "cuoc": ["tom"]}, {"winner": "Bình"}])
    phone.goto(f"{live_server.url}/so-diem/{s.pk}/")
    phone.get_by_test_id("reports-link").tap()
    chart = phone.get_by_test_id("balance-chart")
    # A selector, not wait_for_function: Playwright evaluates a string there, which the
    # Content-Security-Policy (no unsafe-eval) refuses.
    phone.locator("[data-testid=balance-chart][data-drawn='5']").wait_for(state="attached")
    assert chart.get_attribute("data-points") == "3"
    assert phone.evaluate("typeof window.Chart") == "function"
    assert phone.evaluate("Chart.version").startswith("4.")
    assert phone.locator("#chart-table tbody tr").count() == 5


def test_the_chart_data_in_english_on_en(client, sitting) -> None:
    english = client.get(f"/en/so-diem/{sitting.pk}/bieu-do.json").json()
    assert english["labels"][:2] == ["Start", "Ván 1"]  # "ván" is a glossary word English keeps


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_chart_s_axis_and_table_read_in_english_on_en(live_server, phone, keeper) -> None:
    """The drawn chart on /en/: its axis title from the JavaScript catalogue, its first label
    and the table of its numbers from the English chart data; the Vietnamese page keeps its own."""
    from tests.conftest import sign_in
    from tests.factories import open_sitting, record_all

    sign_in(phone.context, live_server.url, keeper)
    s = open_sitting(created_by=keeper)
    record_all(s, [{"winner": "An", "cuoc": ["tom"]}, {"winner": "Bình"}])
    seen = {}
    for prefix in ("/en", ""):
        phone.goto(f"{live_server.url}{prefix}/so-diem/{s.pk}/in-xuat/")
        phone.locator("[data-testid=balance-chart][data-drawn='5']").wait_for(state="attached")
        axis = phone.evaluate(
            "Chart.getChart(document.querySelector('[data-testid=balance-chart]'))"
            ".options.scales.y.title.text"
        )
        first = phone.locator("#chart-table thead th").nth(1).text_content()
        seen[prefix] = (axis, first)
    assert seen == {"/en": ("Points", "Start"), "": ("Điểm", "Đầu canh")}
