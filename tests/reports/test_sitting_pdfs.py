"""The printed reports of a sitting render Vietnamese correctly (read back with pdftotext and
rendered to PNG with pdftoppm): the sitting report, a player's statement, the score sheet."""

from __future__ import annotations

import pytest

from scoring.selectors.ledger import balances
from tests.reports.conftest import pdf_page_png, pdf_pages, pdf_text

#: The reports are as private as the sitting: signed in as ``keeper``, who opened it.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("signed_in")]


def _ink(image) -> float:
    """Share of the page's pixels that are not white."""
    grey = image.convert("L")
    return sum(grey.histogram()[:200]) / (grey.width * grey.height)


def test_the_sitting_report_prints_every_van_with_its_breakdown_and_the_integrity_line(
    client, sitting
) -> None:
    response = client.get(f"/so-diem/{sitting.pk}/bao-cao.pdf")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    text = pdf_text(response.content)
    for phrase in (
        "Báo cáo canh bài: Canh bài đình làng Đông Ngạc",
        "Luật Tổ Tôm 2005",
        "Thập Điều",
        "Dũng ù: Thập Điều",
        "Thông",
        "Bình đánh ra quân ù",
        "Hòa",
        "ghi nhầm người ù",
        "Mọi bút toán cân (tổng bằng 0)",
        "Tổng kết theo hội",
    ):
        assert phrase in text, phrase
    # Thập Điều under luật 2005: bội tam, 3 × 4 + 3 dịch × 2 = 18, paid by each of the four others.
    assert "bội tam: 3 × 4 + 3 dịch × 2" in text
    assert "Ván 4 · Ù · 18 điểm" in text
    play = balances(sitting, play_only=True).players
    assert play["Dũng"] == 4 * 18 - 8 - 12
    page = pdf_page_png(response.content)
    assert page.width > 400 and _ink(page) > 0.01


def test_a_players_statement_lists_each_van_and_ends_at_their_balance(client, sitting) -> None:
    response = client.get(f"/so-diem/{sitting.pk}/xuat/sao-ke/4.pdf")  # Dũng sits fourth
    text = pdf_text(response.content)
    assert "Sao kê: Dũng" in text
    assert "+72" in text  # ván 4: four others pay 18 each
    final = balances(sitting).players["Dũng"]
    assert f"Điểm chơi {final}" in " ".join(text.split())


def test_the_score_sheet_has_the_seats_the_rules_a_grid_and_a_qr_code_to_the_sitting(client, sitting) -> None:
    response = client.get(f"/so-diem/{sitting.pk}/phieu-ghi.pdf?van=12")
    data = response.content
    assert pdf_pages(data) == 1
    text = pdf_text(data)
    assert "Bảng điểm · Canh bài đình làng Đông Ngạc" in text
    for phrase in (
        "1. An",
        "2. Bình",
        "4. Dũng",
        "Thập Điều 18/3",
        "Suông 4 điểm, dịch 2 điểm",
        "Quét để mở sổ điểm",
    ):
        assert phrase in text, phrase
    assert f"http://testserver/so-diem/{sitting.pk}/" in "".join(text.split())  # the address, as printed
    assert "12" in text.split() and "13" not in text.split()  # 12 ván rows, as asked
    page = pdf_page_png(data, dpi=50)
    assert page.width > page.height  # A4 landscape
    # The QR code: a dense black-and-white square in the top right corner.
    corner = page.crop((int(page.width * 0.78), 0, page.width, int(page.height * 0.3)))
    assert _ink(corner) > 0.1


def test_a_missing_seat_is_a_404(client, sitting) -> None:
    assert client.get(f"/so-diem/{sitting.pk}/xuat/sao-ke/9.pdf").status_code == 404
