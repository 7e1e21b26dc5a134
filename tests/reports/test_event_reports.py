"""Event reports: standings as XLSX (the CSV's rows, players and villages on two sheets) and as a
printable PDF, a player's statement, the score sheets of a round (one page per table, each with
the QR code of its sitting), the leaders' chart and the JSON backup of the whole event."""

from __future__ import annotations

import csv
import io
import json

import pytest
from openpyxl import load_workbook

from scoring.selectors.ledger import balances
from tests.reports.conftest import pdf_pages, pdf_text
from tests.tournaments.conftest import make_event, record, seat_names, seated  # noqa: F401 - fixtures
from tournaments.services.leaderboard import rebuild_leaderboard

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(seated, django_user_model):  # noqa: F811 - the imported fixture
    """Round 1 seated on two tables, two ván on each, standings rebuilt; an organiser."""
    event, tables = seated
    first, second = tables
    record(first, 1, seat_names(first)[0], ["tom"])
    record(first, 2, seat_names(first)[0], ["leo"])
    record(second, 1, seat_names(second)[2], ["thap_dieu"])
    record(second, 2, seat_names(second)[1], [])
    rebuild_leaderboard(event_id=event.pk)
    organiser = django_user_model.objects.create_user("bantochuc", password="mat-khau-dai-123")
    event.organisers.add(organiser)
    return event, tables, organiser


def test_the_standings_xlsx_holds_the_csv_rows_with_numbers_and_a_village_sheet(client, played) -> None:
    event, _, _ = played
    csv_rows = list(
        csv.reader(
            io.StringIO(client.get(f"/giai/{event.slug}/xuat/bang-xep-hang.csv").content.decode("utf-8-sig"))
        )
    )
    response = client.get(f"/giai/{event.slug}/xuat/bang-xep-hang.xlsx")
    assert (
        response["Content-Disposition"] == f'attachment; filename="{event.slug}-bang-xep-hang-tam-tinh.xlsx"'
    )
    book = load_workbook(io.BytesIO(response.content), read_only=True)
    assert book.sheetnames == ["Bang xep hang", "Lang - doi"]
    players = [list(r) for r in book["Bang xep hang"].iter_rows(values_only=True)]
    assert players[0] == csv_rows[0]
    assert len(players) == 11  # header + ten players
    assert [str(r[1]) for r in players[1:]] == [r[1] for r in csv_rows[1:11]]
    assert all(isinstance(r[3], int) for r in players[1:])
    assert sum(r[3] for r in players[1:]) == 0  # đánh quăng: what one wins another pays
    teams = [list(r) for r in book["Lang - doi"].iter_rows(values_only=True)]
    assert teams[0][1] == "Làng / giáp / đội"
    assert {r[1] for r in teams[1:]} == {"Giáp Đông", "Giáp Đoài"}


def test_the_standings_pdf_is_printable_and_says_it_is_provisional(client, played) -> None:
    event, _, _ = played
    text = pdf_text(client.get(f"/giai/{event.slug}/xuat/bang-xep-hang.pdf").content)
    for phrase in (
        "Bảng xếp hạng · Hội làng Xuân Ất Tỵ",
        "mùng 6 tháng Giêng",
        "Kết quả tạm tính",
        "Giáp Đông",
        "Giáp Đoài",
        "Luật Tổ Tôm 2005",
        "Theo làng / giáp / đội",
        "Dũng",
        "Khánh",
    ):
        assert phrase in text, phrase


def test_a_players_statement_as_xlsx_and_pdf(client, played) -> None:
    event, tables, organiser = played
    winner = tables[1].sitting.seats.get(position=3)
    assert (
        client.get(f"/giai/{event.slug}/xuat/sao-ke/{winner.player_id}.pdf").status_code == 302
    )  # sign in first
    client.force_login(organiser)
    book = load_workbook(
        io.BytesIO(client.get(f"/giai/{event.slug}/xuat/sao-ke/{winner.player_id}.xlsx").content),
        read_only=True,
    )
    rows = list(book.active.iter_rows(values_only=True))
    assert list(rows[0]) == ["Vòng", "Chiếu", "Ván", "Lúc", "Điểm", "Cộng dồn", "Diễn giải"]
    assert rows[-1][0] == "Tổng" and rows[-1][4] == sum(r[4] for r in rows[1:-1])
    text = pdf_text(client.get(f"/giai/{event.slug}/xuat/sao-ke/{winner.player_id}.pdf").content)
    assert f"Sao kê: {winner.name}" in text and "Thập Điều" in text


def test_a_rounds_score_sheets_have_one_page_per_table_each_with_its_tables_qr(client, played) -> None:
    event, tables, organiser = played
    url = f"/giai/{event.slug}/quan-ly/bang-diem/vong-1.pdf"
    assert client.get(url).status_code in (302, 403)  # organisers only
    client.force_login(organiser)
    data = client.get(url).content
    assert pdf_pages(data) == 2
    text = pdf_text(data)
    flat = "".join(text.split())
    for table in tables:
        assert f"Bảng điểm · Vòng 1 · Chiếu {table.number}" in text
        # the table's page (a PIN scorekeeper's way in), not the sổ điểm that needs an account (issue 31)
        assert f"http://testserver/giai/{event.slug}/chieu/{table.pk}/" in flat
        assert all(name in text for name in seat_names(table))
    assert "Hội làng Xuân Ất Tỵ" in text
    assert "8" in text.split() and "9" not in text.split()  # a round of 8 ván: 8 rows


def test_the_event_backup_holds_people_rounds_sittings_and_a_balanced_ledger(client, played) -> None:
    event, tables, organiser = played
    url = f"/giai/{event.slug}/quan-ly/sao-luu.json"
    assert client.get(url).status_code in (302, 403)
    client.force_login(organiser)
    doc = json.loads(client.get(url).content)
    assert (doc["format"], doc["kind"]) == ("so-tom-backup", "event")
    assert doc["event"]["slug"] == event.slug and len(doc["event"]["registrations"]) == 10
    assert [t["sitting"] for t in doc["event"]["rounds"][0]["tables"]] == [t.sitting_id for t in tables]
    assert {s["id"] for s in doc["sittings"]} == {t.sitting_id for t in tables}
    assert sum(len([v for v in s["van"] if v["is_current"]]) for s in doc["sittings"]) == 4
    assert all(
        sum(p["amount"] for p in t["postings"]) == 0 for s in doc["sittings"] for t in s["transactions"]
    )
    assert doc["event"]["rules"] in doc["rule_sets"]
    assert len(doc["players"]) == 10


def test_the_event_chart_follows_the_players_points_over_the_van(client, played) -> None:
    event, tables, _ = played
    data = client.get(f"/giai/{event.slug}/bieu-do.json").json()
    assert data["labels"] == ["Bắt đầu", "1", "2", "3", "4"]
    assert len(data["datasets"]) == 8  # the first eight of the standings by default
    seats = {s.player_id: (t, s.name) for t in tables for s in t.sitting.seats.all()}
    winner = tables[1].sitting.seats.get(position=3)
    chosen = client.get(f"/giai/{event.slug}/bieu-do.json?nguoi={winner.player_id}").json()["datasets"]
    assert [d["label"] for d in chosen] == [winner.name]
    assert (
        chosen[0]["data"][-1] == balances(seats[winner.player_id][0].sitting).players[winner.name] == 72 - 4
    )
    for line in data["datasets"]:
        table, name = seats[line["player"]]
        assert line["data"][-1] == balances(table.sitting).players[name]
    assert client.get(f"/giai/{event.slug}/bieu-do/").status_code == 200
