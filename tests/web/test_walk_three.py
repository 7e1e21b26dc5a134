"""What the third walk (issue 31, item 1) found that a server's answer shows: a village-rules canh
named "Luật Tổ Tôm 2005" in the list, the PDF report and the blank score sheet; "Canh bài #27";
statement cells that began with a visible apostrophe; "68.0" in one CSV; the webhook help naming a
file; /favicon.ico 404; the round sheet's QR opening a page a PIN scorekeeper cannot use; seven taps
to check in a list; the console's form ticking the first ù claimant. The pages themselves, in
Chromium: tests/browser/test_walk_three.py."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from typing import Any

import pytest
import time_machine
from django.test import Client
from django.utils import timezone, translation
from openpyxl import load_workbook

from scoring.reports.tabular import Sheet, csv_bytes, xlsx_bytes
from scoring.services.rules import village_rules_save
from scoring.services.sittings import sitting_open
from tests.factories import open_sitting, record_all
from tests.reports.conftest import pdf_text

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db]

PLAYERS = ["An", "Bình", "Chi", "Dũng", "Em"]
VILLAGE = "Lệ làng Đông (lệ làng, phiên bản 1, trên Luật Tổ Tôm 2005)"


@pytest.fixture
def village_canh(keeper: Any) -> Any:
    village = village_rules_save(
        name="Lệ làng Đông", preset="luat-2005", overrides={"cuoc": {"kinh_cu": {"main": 24}}}
    )
    return sitting_open(
        game="to-tom-5",
        rules=village.slug,
        mode="quang",
        players=PLAYERS,
        created_by=keeper,
        idempotency_key=None,
        title="Canh lệ làng",
    ).obj


# -- the village's rules named where the canh is listed and printed ------------------------------


@pytest.mark.usefixtures("signed_in")
def test_the_sitting_list_names_the_village_rules_not_the_2005_preset(
    client: Client, village_canh: Any
) -> None:
    page = client.get("/so-diem/").content.decode()
    row = page.split("Canh lệ làng")[1][:600]
    assert "Lệ làng Đông" in row, row
    assert "Luật Tổ Tôm 2005</" not in row and "· Luật Tổ Tôm 2005 ·" not in row


@pytest.mark.usefixtures("signed_in")
def test_the_report_pdf_and_the_score_sheet_name_the_village_rules(client: Client, village_canh: Any) -> None:
    report = pdf_text(client.get(f"/so-diem/{village_canh.pk}/bao-cao.pdf").content)
    sheet = pdf_text(client.get(f"/so-diem/{village_canh.pk}/phieu-ghi.pdf").content)
    for text in (report, sheet):
        flat = " ".join(text.split())
        assert "Lệ làng Đông" in flat, flat[:600]
    # the sheet prints the village's values (Kính Cụ 24) under the village's name
    assert "Kính Cụ 24/" in " ".join(sheet.split())


@pytest.mark.usefixtures("signed_in")
def test_a_preset_canh_still_prints_the_preset_name(client: Client, keeper: Any) -> None:
    sitting = open_sitting(created_by=keeper, title="Canh thường")
    sheet = " ".join(pdf_text(client.get(f"/so-diem/{sitting.pk}/phieu-ghi.pdf").content).split())
    assert "Luật Tổ Tôm 2005" in sheet and "lệ làng, phiên bản" not in sheet


# -- an untitled canh is named by when it was opened ---------------------------------------------


def test_an_untitled_canh_is_named_by_its_time_and_day_in_both_languages(keeper: Any) -> None:
    moment = timezone.make_aware(dt.datetime(2026, 11, 28, 19, 30), timezone.get_default_timezone())
    with time_machine.travel(moment, tick=False):
        sitting = open_sitting(created_by=keeper)
    assert str(sitting) == "Canh 28/11/26 19:30"
    with translation.override("vi"):
        assert sitting.display_name == "Canh 28/11/26 19:30"
    with translation.override("en"):
        assert sitting.display_name == "Sitting 28/11/26 19:30"
    assert "#" not in str(sitting)
    titled = open_sitting(created_by=keeper, title="Chiếu sân đình")
    assert str(titled) == titled.display_name == "Chiếu sân đình"


@pytest.mark.usefixtures("signed_in")
def test_the_list_and_the_page_never_show_a_database_number(client: Client, keeper: Any) -> None:
    sitting = open_sitting(created_by=keeper)
    assert f"Canh bài #{sitting.pk}" not in client.get("/so-diem/").content.decode()
    page = client.get(f"/so-diem/{sitting.pk}/").content.decode()
    assert f"<h1>{sitting.display_name}</h1>" in page and "Canh bài #" not in page


# -- statement exports: no visible apostrophe; formulas still neutralised ------------------------


def _rows_csv(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))


@pytest.mark.usefixtures("signed_in")
def test_statement_details_begin_with_the_account_not_an_apostrophe(client: Client, keeper: Any) -> None:
    sitting = open_sitting(created_by=keeper)
    record_all(sitting, [{"winner": "An", "cuoc": ["tom"]}, {"winner": "Bình", "cuoc": ["tom"]}])
    rows = _rows_csv(client.get(f"/so-diem/{sitting.pk}/xuat/sao-ke/1.csv").content)
    details = [r[4] for r in rows[1:3]]
    assert all(d and not d.startswith("'") for d in details), details
    assert details[1].startswith("Bình: -8 ("), details  # An paid Bình 8 in ván 2
    book = load_workbook(io.BytesIO(client.get(f"/so-diem/{sitting.pk}/xuat/sao-ke/1.xlsx").content))
    cells = [r[4] for r in book.active.iter_rows(min_row=2, max_row=3, values_only=True)]
    assert all(not c.startswith("'") for c in cells), cells


def test_xlsx_writes_formula_looking_text_as_text_and_csv_still_neutralises_it() -> None:
    sheet = Sheet("T", ["Tên", "Điểm", "Mỗi ván"], [["=HYPERLINK(1)", -8, 68.0], ["-2+3 Bình", 5, 12.333]])
    book = load_workbook(io.BytesIO(xlsx_bytes(sheet)))
    cell = book.active["A2"]
    assert cell.value == "=HYPERLINK(1)" and cell.data_type == "s"  # text, shown as typed, never run
    assert book.active["A3"].value == "-2+3 Bình" and book.active["B2"].value == -8
    assert book.active["C2"].value == 68.0  # numbers stay numbers
    rows = _rows_csv(csv_bytes(sheet))
    assert rows[1][0] == "'=HYPERLINK(1)" and rows[2][0] == "'-2+3 Bình"
    assert rows[1][1] == "-8"  # a number is not text: no apostrophe
    assert [rows[1][2], rows[2][2]] == ["68.00", "12.33"]  # one decimal format in every CSV


# -- small answers ---------------------------------------------------------------------------------


def test_favicon_ico_is_the_app_icon(client: Client) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 302 and response["Location"].endswith(".png"), response
    assert "so-tom-192" in response["Location"]
    assert "max-age=86400" in response["Cache-Control"]


def test_the_webhook_help_links_the_served_api_docs_not_a_file(
    client: Client, django_user_model: Any
) -> None:
    from scoring.services.roles import club_open

    boss = django_user_model.objects.create_user("chu-lang")
    club = club_open(name="Làng Đông", kind="lang", slug="lang-dong", organiser=boss).obj
    client.force_login(boss)
    page = client.get(f"/lang/{club.slug}/ket-noi/").content.decode()
    assert "docs/api.md" not in page
    assert re.search(r'<a href="/api/docs/" data-testid="api-docs-link">', page), page[-3000:]
    english = client.get(f"/en/lang/{club.slug}/ket-noi/").content.decode()
    assert "To verify the signature: HMAC-SHA256" in english
