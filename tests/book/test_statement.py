"""A member's statement equals the ledger: each ván's line is the member's postings of that ván as
they stand, each settlement line its postings, and the totals the member's sums in the book; the
exports (CSV, XLSX, PDF with the club's name and a QR code) carry the same numbers."""

from __future__ import annotations

import io
import subprocess
from typing import Any

import pytest
from django.db.models import Sum
from openpyxl import load_workbook

from scoring.models import Player, Posting, Sitting
from scoring.periods import lunar_year
from scoring.reports.book import club_statement_sheet
from scoring.selectors.book import book
from scoring.selectors.statement import statement
from tests.book.conftest import season

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db]


@pytest.fixture
def world(club: Any, organiser: Any) -> dict[str, Any]:
    return season(club, organiser)


def test_statements_equal_the_ledger(world: dict[str, Any], club: Any) -> None:
    year = lunar_year(2025)
    members = {m.player_id: m for m in book(club, year).members}
    canh = [c.id for c in book(club, year).canh]
    for player in Player.objects.filter(pk__in=list(members)):
        st = statement(club, year, player)
        mine = Posting.objects.filter(seat__player=player, sitting_id__in=canh)
        assert st.points == (mine.filter(transaction__van__isnull=False).aggregate(s=Sum("amount"))["s"] or 0)
        assert st.open == (mine.aggregate(s=Sum("amount"))["s"] or 0)
        assert (st.points, st.settled, st.open, st.van) == (
            members[player.pk].points,
            members[player.pk].settled,
            members[player.pk].open,
            members[player.pk].van,
        )
        for part in st.canh:
            for v in part.van:  # a ván's line: the member's postings of that ván's live transactions
                live = mine.filter(
                    sitting_id=part.canh.id,
                    transaction__van__seq=v.seq,
                    transaction__van__is_current=True,
                    transaction__reversed_by__isnull=True,
                    transaction__kind__in=["gom", "van"],
                )
                assert v.delta == (live.aggregate(s=Sum("amount"))["s"] or 0)
                assert v.delta == sum(line.amount for line in v.lines)
        running = [x.running for part in st.canh for x in [*part.van, *part.settled]]
        assert running[-1] == st.open if running else st.open == 0


def test_a_statement_says_why_in_words_and_shows_corrections_and_settlements(
    world: dict[str, Any], club: Any
) -> None:
    co_tam = Player.objects.get(club=club, name="Cô Tám")
    st = statement(club, lunar_year(2025), co_tam)
    spring = next(p for p in st.canh if p.canh.id == world["canh"]["spring"].pk)
    first = spring.van[0]
    assert (
        first.corrected == "Ghi nhầm người ù" and "Cô Tám ù: Chi Nẩy" in first.summary and first.delta == 144
    )
    assert {line.other for line in first.lines} == {"Bác Năm", "Chú Sáu", "Anh Bảy", "Ông Chín"}
    settled = next(p for p in st.canh if p.canh.id == world["canh"]["settled"].pk)
    assert settled.settled and settled.open == 0 and "Thanh toán cuối canh" in settled.settled[-1].reason
    bac_nam = statement(club, lunar_year(2025), Player.objects.get(club=club, name="Bác Năm"))
    closed = [s for p in bac_nam.canh for s in p.settled if s.reason.startswith("Chốt sổ")]
    undone = [s for p in bac_nam.canh for s in p.settled if s.reversal]
    assert closed and undone  # the kept close, and the undone one with its reversal
    assert all(s.reason.startswith("Đảo chốt sổ") and "Chốt nhầm tháng" in s.reason for s in undone)


def test_the_exports_carry_the_statement(
    world: dict[str, Any], club: Any, treasurer: Any, client: Any, tmp_path: Any
) -> None:
    ba = Player.objects.get(club=club, name="Bác Năm")
    st = statement(club, lunar_year(2025), ba)
    client.force_login(treasurer)
    base = f"/lang/{club.slug}/so/nguoi-choi/{ba.pk}/sao-ke"
    csv = client.get(f"{base}.csv?ky=nam-2025")
    assert csv.status_code == 200 and csv.content.startswith("\ufeff".encode())
    lines = csv.content.decode("utf-8-sig").splitlines()
    assert lines[0] == "Ngày,Canh,Ván,Diễn giải,Điểm,Cộng dồn,Chi tiết"
    assert lines[-1].startswith("Tổng,") and f",{st.open},{st.open}," in lines[-1]
    assert len(lines) == 2 + sum(len(p.van) + len(p.settled) for p in st.canh)
    xlsx = client.get(f"{base}.xlsx?ky=nam-2025")
    sheet = load_workbook(io.BytesIO(xlsx.content)).active
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[-1][4] == st.open and rows[1][4] == st.canh[0].van[0].delta
    pdf = client.get(f"{base}.pdf?ky=nam-2025")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    path = tmp_path / "sao-ke.pdf"
    path.write_bytes(pdf.content)
    text = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert club.name in text and "Sao kê: Bác Năm" in text and "Năm Ất Tỵ (2025)" in text
    assert f"/lang/{club.slug}/so/nguoi-choi/{ba.pk}/?ky=nam-2025" in text  # the QR's address, printed


def test_the_statement_sheet_has_one_row_per_van_and_settlement(world: dict[str, Any], club: Any) -> None:
    st = statement(club, lunar_year(2025), Player.objects.get(club=club, name="Cụ Tư"))
    sheet = club_statement_sheet(st)
    assert len(sheet.rows) == 1 + sum(len(p.van) + len(p.settled) for p in st.canh)
    assert sum(r[4] for r in sheet.rows[:-1]) == st.open == sheet.rows[-1][4]


def test_a_sitting_report_statement_ends_where_the_ledger_does_after_an_undone_close(
    world: dict[str, Any], club: Any
) -> None:
    """The sitting's own statement counts a close's reversal as settlement (not as play)."""
    from scoring.reports.data import statement as sitting_statement
    from scoring.selectors.ledger import balances

    summer = Sitting.objects.get(pk=world["canh"]["summer"].pk)
    seat = summer.seats.get(position=1)
    st = sitting_statement(summer, 1)
    assert st["final"] == balances(summer).players[seat.name]
    assert st["play"] == balances(summer, play_only=True).players[seat.name]
