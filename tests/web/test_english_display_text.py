"""The display text built in Python reads in English under ``/en/`` (issue 19, item 10): the ván
lines and the history of the sitting page, the audit trail, the club book's lunar periods and the
lệ làng page's row labels. The same pages without ``/en/`` stay Vietnamese.

Names of people, cước (Tôm, Lèo), years of the sexagenary cycle (Ất Tỵ) and rule sets stay as they
are in both languages. Needs the compiled English catalogue (``make messages``).
"""

from __future__ import annotations

import html as htmllib
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from scoring.models import Club, Sitting
from scoring.services.roles import club_open
from scoring.services.sittings import sitting_open, van_correct, van_record

pytestmark = pytest.mark.django_db

PLAYERS = ["An", "Bình", "Chi", "Dũng", "Em"]


def text(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return htmllib.unescape(response.content.decode())


def named(sitting: Sitting, language: str) -> str:
    """An untitled canh's name in ``language``: when it was opened, never its id (issue 31)."""
    with translation.override(language):
        return htmllib.escape(sitting.display_name)


def shows(page: str, present: list[str], absent: list[str]) -> None:
    assert [s for s in present if s not in page] == []
    assert [s for s in absent if s in page] == []


@pytest.fixture
def organiser(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("chu-so", password="mat-khau-dai-123")


@pytest.fixture
def club(organiser: Any) -> Club:
    return club_open(name="Làng Đông", slug="lang-dong", organiser=organiser).obj


@pytest.fixture
def client(organiser: Any) -> Client:
    c = Client()
    c.force_login(organiser)
    return c


@pytest.fixture
def sitting(club: Club, organiser: Any) -> Sitting:
    """Ván 1 (Bình ù Tôm, Chi đánh ra quân ù) corrected to An ù Lèo; ván 2 a draw."""
    sitting = sitting_open(
        game="to-tom-5",
        rules="luat-2005",
        mode="quang",
        players=PLAYERS,
        club=club,
        created_by=organiser,
        idempotency_key=None,
    ).obj
    van_record(
        sitting=sitting,
        seq=1,
        record={"winner": "Bình", "cuoc": ["tom"], "discarder": "Chi"},
        entered_by=organiser,
        idempotency_key=None,
    )
    van_correct(
        van=sitting.van.get(seq=1),
        record={"winner": "An", "cuoc": ["leo"]},
        reason="ghi nhầm người ù",
        corrected_by=organiser,
        idempotency_key=None,
    )
    van_record(sitting=sitting, seq=2, record={"result": "hoa"}, entered_by=organiser, idempotency_key=None)
    return sitting


def test_the_van_lines_and_history_of_a_sitting_in_english(client: Client, sitting: Sitting) -> None:
    english = text(client, f"/en/so-diem/{sitting.pk}/")
    shows(
        english,
        [
            "An wins: Lèo",  # the current ván 1
            "Bình wins: Tôm · Chi discarded the winning card",  # its struck-through older version
            "entered ván 1",
            "corrected ván 1",
            "entered ván 2",
            "Whole sitting",
            f"<h1>{named(sitting, 'en')}</h1>",
        ],
        ["An ù: Lèo", "Bình ù: Tôm", "đánh ra quân ù", "ghi ván 1", "sửa ván 1", "ghi ván 2", "Cả canh"],
    )
    vietnamese = text(client, f"/so-diem/{sitting.pk}/")
    shows(
        vietnamese,
        [
            "An ù: Lèo",
            "Bình ù: Tôm · Chi đánh ra quân ù",
            "ghi ván 1",
            "sửa ván 1",
            "ghi ván 2",
            "Cả canh",
            f"<h1>{named(sitting, 'vi')}</h1>",
        ],
        ["An wins", "Bình wins", "entered ván", "corrected ván", "Whole sitting"],
    )


def test_the_audit_trail_in_english(client: Client, sitting: Sitting) -> None:
    english = text(client, f"/en/so-diem/{sitting.pk}/nhat-ky/")
    shows(
        english,
        [
            "Opened the sitting",
            "Entered ván 1",
            "Corrected ván 1: ghi nhầm người ù",
            "Entered ván 2",
            "Draw",
            named(sitting, "en"),
        ],
        ["Mở canh bài", "Ghi ván 1", "Sửa ván 1", "Ghi ván 2", " điểm", named(sitting, "vi")],
    )
    vietnamese = text(client, f"/so-diem/{sitting.pk}/nhat-ky/")
    shows(
        vietnamese,
        [
            "Mở canh bài",
            "Ghi ván 1",
            "Sửa ván 1: ghi nhầm người ù",
            "Ghi ván 2",
            "Hòa",
            named(sitting, "vi"),
        ],
        ["Opened the sitting", "Entered ván", "Corrected ván"],
    )


def test_the_club_book_s_lunar_periods_in_english(client: Client, club: Club) -> None:
    english = text(client, f"/en/lang/{club.slug}/so/?ky=thang-2025-02")
    shows(
        english,
        [
            "2nd month of Ất Tỵ",  # the period's heading
            "leap 6th month of Ất Tỵ",  # 2025 has a leap sixth month, offered in the month list
            "12th month of Ất Tỵ",
            "day 1 of the 2nd month of Ất Tỵ",  # the period's first day, as a lunar date
        ],
        ["Tháng Hai năm Ất Tỵ", "Tháng Sáu nhuận", "Tháng Chạp", "mùng 1 tháng Hai", "Lunar month"],
    )
    vietnamese = text(client, f"/lang/{club.slug}/so/?ky=thang-2025-02")
    shows(
        vietnamese,
        [
            "Tháng Hai năm Ất Tỵ",
            "Tháng Sáu nhuận năm Ất Tỵ",
            "Tháng Chạp năm Ất Tỵ",
            "mùng 1 tháng Hai năm Ất Tỵ",
        ],
        ["2nd month", "leap 6th month", "day 1 of"],
    )


def test_the_rules_pages_labels_in_english(client: Client) -> None:
    english = text(client, "/en/le-lang/")
    shows(
        english,
        ["Gom per player (5 players)", "1st/2nd/3rd/last pay", "Win: each player pays", "<td>yes</td>"],
        [
            "Gom mỗi người (5 người)",
            "Nhất/nhì/ba/bét trả",
            "Ù: mỗi người trả",
            "<td>không</td>",
            "<td>có</td>",
        ],
    )
    vietnamese = text(client, "/le-lang/")
    shows(
        vietnamese,
        ["Gom mỗi người (5 người)", "Nhất/nhì/ba/bét trả", "Ù: mỗi người trả", "<td>có</td>"],
        ["Gom per player", "1st/2nd/3rd/last pay", "<td>yes</td>"],
    )
    form = text(client, "/en/le-lang/moi/")
    shows(
        form,
        ["Kính Tứ Cố when playing gom", "Outside pot (gà ngoài)", "Stake N (Tài Bàn)", "Báo during play"],
        ["Kính Tứ Cố khi đánh gom", "Tiền cược N (Tài Bàn)", "Báo trong khi chơi", "gà ngoài chồng"],
    )
    assert "Kính Tứ Cố khi đánh gom" in text(client, "/le-lang/moi/")
