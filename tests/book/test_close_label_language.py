"""A close's period label inside the ledger's reasons ("Chốt sổ Tháng Giêng năm Ất Tỵ", stored in
Vietnamese) reads in the reader's language where a reason is shown: the member's statement page and
its CSV on /en/, the sổ điểm's history, its audit trail and its ledger CSV, the sổ điểm's history
and the statement on the API with ``Accept-Language: en``, a close's refusals. Vietnamese stays as stored; a label that is not a period's computed one stays as
it was written in both languages."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from scoring.i18n import LEDGER, reason
from scoring.models import PeriodClose, Player
from scoring.periods import Period, dates, in_vietnamese, lunar_month, lunar_year, season, stored_label_shown
from tests.book.conftest import FIVE_C, canh
from tests.book.conftest import season as a_season
from tests.factories import new_key

pytestmark = [pytest.mark.sqlite]

#: The kept close of the season (tests/book/conftest.py): the 1st lunar month of Ất Tỵ.
VI, EN = "Chốt sổ Tháng Giêng năm Ất Tỵ", "Period close 1st month of Ất Tỵ"


@pytest.mark.parametrize(
    ("period", "vietnamese", "english"),
    [
        (lunar_year(2025), "Năm Ất Tỵ (2025)", "Lunar year Ất Tỵ (2025)"),
        (season(2025, "thu"), "Mùa thu năm Ất Tỵ", "Autumn of Ất Tỵ"),
        (lunar_month(2025, 12), "Tháng Chạp năm Ất Tỵ", "12th month of Ất Tỵ"),
        (lunar_month(2025, 11), "Tháng Một năm Ất Tỵ", "11th month of Ất Tỵ"),
        (lunar_month(2025, 6, leap=True), "Tháng Sáu nhuận năm Ất Tỵ", "leap 6th month of Ất Tỵ"),
        (lunar_month(2023, 2, leap=True), "Tháng Hai nhuận năm Quý Mão", "leap 2nd month of Quý Mão"),
        (
            dates(dt.date(2025, 2, 3), dt.date(2025, 3, 4)),
            "Từ 03/02/2025 đến 04/03/2025",
            "From 03/02/2025 to 04/03/2025",
        ),
    ],
)
def test_a_computed_close_label_in_a_reason_reads_in_english(
    period: Period, vietnamese: str, english: str
) -> None:
    stored = in_vietnamese(period).label
    assert stored == vietnamese
    texts = {
        LEDGER["close"].format(close=stored): f"Period close {english}",
        LEDGER["close_returned"].format(
            close=stored
        ): f"Period close {english}: village pool and pots returned",
        LEDGER["close_clearing"].format(close=stored, payer="Cụ Tư", payee="Bác Năm", amount=12, id=3): (
            f"Period close {english}: Cụ Tư −12, Bác Năm +12 in this sitting (paid by the plan of period close no. 3)"
        ),
        "Đảo: " + LEDGER["close"].format(close=stored): f"Reversed: Period close {english}",
    }
    for text, shown in texts.items():
        with translation.override("en"):
            assert reason(text) == shown
        with translation.override("vi"):
            assert reason(text) == text


@pytest.mark.parametrize(
    "typed",
    [
        "Sổ Tết của làng",  # words of one's own
        "Năm Ất Tỵ (2024)",  # the year's name is not 2024's
        "Tháng Mười Ba năm Ất Tỵ",  # no such month
        "Tháng Tư nhuận năm Ất Tỵ",  # Ất Tỵ's leap month is the sixth
        "Mùa mưa năm Ất Tỵ",  # no such season
        "Từ 31/02/2025 đến 04/03/2025",  # no such day
        "tháng giêng năm ất tỵ",  # not as the book writes it
    ],
)
def test_a_label_that_is_not_a_computed_one_stays_as_written(typed: str) -> None:
    text = LEDGER["close"].format(close=typed)
    with translation.override("en"):
        assert stored_label_shown(typed) == typed
        assert reason(text) == f"Period close {typed}"
    with translation.override("vi"):
        assert reason(text) == text


@pytest.fixture
def world(club: Any, organiser: Any) -> dict[str, Any]:
    return a_season(club, organiser)


def _as(user: Any, **headers: str) -> Client:
    client = Client(**headers)
    client.force_login(user)
    return client


def _text(response: Any) -> str:
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return body.decode("utf-8-sig")


@pytest.mark.django_db
def test_the_statement_page_and_its_csv_show_the_close_in_the_reader_s_language(
    world: dict[str, Any], club: Any, treasurer: Any
) -> None:
    assert world["kept"].label == "Tháng Giêng năm Ất Tỵ"
    cu_tu = Player.objects.get(club=club, name="Cụ Tư")
    page = f"/lang/{club.slug}/so/nguoi-choi/{cu_tu.pk}/?ky=nam-2025"
    client = _as(treasurer)
    english = client.get(f"/en{page}").content.decode()
    assert EN in english and "Tháng Giêng" not in english
    vietnamese = client.get(page).content.decode()
    assert VI in vietnamese and "1st month" not in vietnamese
    csv = client.get(f"/en/lang/{club.slug}/so/nguoi-choi/{cu_tu.pk}/sao-ke.csv?ky=nam-2025")
    text = csv.content.decode("utf-8-sig")
    assert EN in text and "Tháng Giêng" not in text


@pytest.mark.django_db
def test_the_api_shows_the_close_in_the_language_asked_for(
    world: dict[str, Any], club: Any, treasurer: Any, organiser: Any
) -> None:
    tet = world["canh"]["tet"].pk
    english = _as(organiser, HTTP_ACCEPT_LANGUAGE="en").get(f"/api/v1/sittings/{tet}/history").json()
    reasons = [e["reason"] for e in english if e["event"] == "but_toan"]
    assert any(r.startswith(EN) for r in reasons) and not any("Tháng Giêng" in r for r in reasons)
    vietnamese = _as(organiser).get(f"/api/v1/sittings/{tet}/history").json()
    assert any(e.get("reason", "").startswith(VI) for e in vietnamese if e["event"] == "but_toan")

    statement = f"/api/v1/clubs/{club.slug}/members/Cụ Tư/statement?from=2025-01-29&to=2026-02-16"
    body = _as(treasurer, HTTP_ACCEPT_LANGUAGE="en").get(statement).json()
    settled = [s for c in body["canh"] for s in c["settlements"]]
    whys = [line["why"] for s in settled for line in s["lines"]]
    assert any(s["reason"] == EN for s in settled) and any(w.startswith(EN + ":") for w in whys)
    assert not any("Tháng Giêng" in s["reason"] for s in settled)
    body = _as(treasurer).get(statement).json()
    assert any(s["reason"] == VI for c in body["canh"] for s in c["settlements"])


@pytest.mark.django_db
def test_the_so_diem_its_audit_trail_and_its_ledger_export_show_the_close_in_the_reader_s_language(
    world: dict[str, Any], club: Any, organiser: Any
) -> None:
    tet = world["canh"]["tet"].pk
    client = _as(organiser)
    for page in (f"/so-diem/{tet}/", f"/so-diem/{tet}/nhat-ky/", f"/so-diem/{tet}/xuat/so-cai.csv"):
        english = _text(client.get(f"/en{page}"))
        assert EN in english and "Tháng Giêng" not in english, page
        assert VI in _text(client.get(page)), page


@pytest.mark.django_db
def test_a_refused_close_names_its_period_in_the_reader_s_language(
    world: dict[str, Any], club: Any, treasurer: Any
) -> None:
    client = _as(treasurer)
    again = {"ky": "thang-2025-01", "key": new_key()}
    english = client.post(f"/en/lang/{club.slug}/so/chot/", again).content.decode()
    assert "Nothing to close in 1st month of Ất Tỵ" in english and "Tháng Giêng" not in english
    vietnamese = client.post(f"/lang/{club.slug}/so/chot/", {**again, "key": new_key()}).content.decode()
    assert "Không có gì để chốt trong kỳ Tháng Giêng năm Ất Tỵ" in vietnamese
    undone = f"/lang/{club.slug}/so/chot/{world['undone'].pk}/dao/"
    english = client.post(f"/en{undone}", {"reason": "Lại", "key": new_key()}, follow=True).content.decode()
    assert "The close of 5th month of Ất Tỵ has already been undone." in english
    vietnamese = client.post(undone, {"reason": "Lại", "key": new_key()}, follow=True).content.decode()
    assert "Lần chốt sổ Tháng Năm năm Ất Tỵ đã được đảo rồi." in vietnamese


@pytest.mark.django_db
def test_a_close_made_from_dates_reads_in_the_reader_s_language(club: Any, treasurer: Any) -> None:
    """The close page posts dates when its period has no key: the label stored is the dates' own,
    even when those dates are a lunar month's."""
    canh(club, dt.date(2025, 9, 5), FIVE_C, [{"winner": "Anh Bảy", "cuoc": ["chi_nay"]}])
    client = _as(treasurer)
    form = {"from": "2025-08-23", "to": "2025-09-21", "key": new_key()}
    assert client.post(f"/lang/{club.slug}/so/chot/", form).status_code == 302
    assert PeriodClose.objects.get().label == "Từ 23/08/2025 đến 21/09/2025"
    english = client.get(f"/en/lang/{club.slug}/so/?ky=nam-2025").content.decode()
    closes = re.search(r'data-testid="closes">(.*?)</ul>', english, re.S).group(1)
    assert "<b>From 23/08/2025 to 21/09/2025</b>" in closes and "Từ" not in closes
    vietnamese = client.get(f"/lang/{club.slug}/so/?ky=nam-2025").content.decode()
    assert "<b>Từ 23/08/2025 đến 21/09/2025</b>" in vietnamese
