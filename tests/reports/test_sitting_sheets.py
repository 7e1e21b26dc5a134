"""CSV (UTF-8 with BOM) and XLSX of a sitting open with the right columns and totals: the
ledger (every posting, summing to 0), the ván list (whose columns sum to the balances of play)
and a player's statement."""

from __future__ import annotations

import csv
import io

import pytest
from openpyxl import load_workbook

from scoring.models import Posting
from scoring.selectors.ledger import balances

#: The reports are as private as the sitting: signed in as ``keeper``, who opened it.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("signed_in")]

LEDGER_HEADER = [
    "Bút toán",
    "Loại",
    "Ván",
    "Dòng",
    "Tài khoản",
    "Điểm",
    "Vì sao",
    "Đảo bút toán số",
    "Lúc",
    "Người ghi",
]


def read_csv(data: bytes) -> list[list[str]]:
    assert data.startswith("\ufeff".encode())  # Excel needs the BOM to read UTF-8
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))


def read_xlsx(data: bytes):
    return load_workbook(io.BytesIO(data), read_only=True)


def test_the_ledger_csv_has_every_posting_and_a_zero_total(client, sitting) -> None:
    response = client.get(f"/so-diem/{sitting.pk}/xuat/so-cai.csv")
    assert response["Content-Disposition"] == f'attachment; filename="canh-bai-{sitting.pk}-so-cai.csv"'
    assert response.streaming  # read and sent a chunk at a time, however long the sitting
    rows = read_csv(response.getvalue())
    assert rows[0] == LEDGER_HEADER
    body, total = rows[1:-1], rows[-1]
    assert len(body) == Posting.objects.filter(sitting=sitting).count()
    assert total[0] == "Tổng" and total[5] == "0"
    assert sum(int(r[5]) for r in body) == 0
    # The correction shows as a reversal of ván 1's first version.
    kinds = {r[1] for r in body}
    assert {"Ván", "Đảo bút toán (sửa ván)"} <= kinds
    assert any(r[4] == "Chi" and r[6].startswith("An trả Chi") for r in body)


def test_the_ledger_xlsx_keeps_numbers_as_numbers_with_the_balances_on_a_second_sheet(
    client, sitting
) -> None:
    book = read_xlsx(client.get(f"/so-diem/{sitting.pk}/xuat/so-cai.xlsx").getvalue())
    assert book.sheetnames == ["So cai", "So du"]
    rows = list(book["So cai"].iter_rows(values_only=True))
    assert list(rows[0]) == LEDGER_HEADER
    amounts = [r[5] for r in rows[1:-1]]
    assert all(isinstance(a, int) for a in amounts) and sum(amounts) == 0
    assert rows[-1][0] == "Tổng" and rows[-1][5] == 0
    shown = {name: value for name, value in book["So du"].iter_rows(min_row=2, values_only=True)}
    live = balances(sitting)
    assert {n: shown[n] for n in live.players} == live.players
    assert shown["Tổng"] == 0


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_the_van_list_has_one_row_per_van_and_sums_to_the_balances(client, sitting, fmt) -> None:
    data = client.get(f"/so-diem/{sitting.pk}/xuat/cac-van.{fmt}").getvalue()
    if fmt == "csv":
        rows = read_csv(data)
    else:  # an empty cell reads back as None
        rows = [
            ["" if v is None else v for v in r] for r in read_xlsx(data).active.iter_rows(values_only=True)
        ]
    header = rows[0]
    assert header[:7] == ["Ván", "Kết quả", "Người ù", "Cước", "Điểm", "Ù liền", "Diễn giải"]
    names = ["An", "Bình", "Chi", "Dũng", "Em"]
    assert header[7:14] == [*names, "Điểm làng", "Gà trong"]
    assert [str(r[0]) for r in rows[1:-1]] == ["1", "2", "3", "4"]
    assert [r[3] for r in rows[1:-1]] == ["Tôm", "Lèo", "", "Thập Điều"]
    assert [str(r[4]) for r in rows[1:-1]] == ["8", "12", "", "18"]
    assert rows[2][5] == "Thông"
    assert rows[1][16] == "ghi nhầm người ù"
    totals = dict(zip(names, [int(v) for v in rows[-1][7:12]], strict=True))
    assert totals == balances(sitting, play_only=True).players


def test_a_statement_xlsx_ends_at_the_players_balance(client, sitting) -> None:
    book = read_xlsx(client.get(f"/so-diem/{sitting.pk}/xuat/sao-ke/1.xlsx").content)
    rows = list(book.active.iter_rows(values_only=True))
    assert list(rows[0]) == ["Ván", "Diễn giải", "Điểm", "Cộng dồn", "Các khoản"]
    assert [r[2] for r in rows[1:5]] == [32, 48, 0, -18]
    assert rows[-1][0] == "Tổng" and rows[-1][2] == balances(sitting).players["An"] == 62


def test_spreadsheet_formulas_in_names_are_neutralised(client, keeper) -> None:
    from tests.factories import open_sitting

    s = open_sitting(players=["=HYPERLINK(1)", "Bình", "Chi", "Dũng", "Em"], created_by=keeper)
    rows = read_csv(client.get(f"/so-diem/{s.pk}/xuat/cac-van.csv").getvalue())
    assert rows[0][7] == "'=HYPERLINK(1)"
