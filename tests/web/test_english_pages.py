"""The English side (/en/) of the pages added with accounts, roles and audit: their headings,
buttons, labels and table headings are in English (only the game's own words, Trung Quân and the
people's and places' names stay Vietnamese), and the links to the club's and the village rules'
audit logs show only to those who may read them.

Needs the compiled English catalogue (``make messages``, which ``make test`` runs first).
"""

from __future__ import annotations

import datetime as dt
import html as htmllib
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from scoring.models import Club, Sitting
from scoring.services.roles import club_open, role_grant
from scoring.services.sittings import sitting_open, van_record
from tournaments.models import Event
from tournaments.services.events import event_create
from tournaments.services.roles import role_grant as event_role_grant

pytestmark = pytest.mark.django_db

PLAYERS = ["An", "Bình", "Chi", "Dũng", "Em"]
#: Vietnamese words an English page keeps on purpose: game terms, the language switch.
KEPT = ("Trung Quân", "Tiếng Việt", "chiếu", "ván")
#: Letters only Vietnamese uses (an English heading with one of them was left untranslated).
VIETNAMESE = re.compile("[àáạảãâầấậẩẫăằắặẳẵèéẹẻẽêềếệểễìíịỉĩòóọỏõôồốộổỗơờớợởỡùúụủũưừứựửữỳýỵỷỹđ]", re.I)


class _Visible(HTMLParser):
    """The texts of the headings, buttons, labels, table headings and summaries of a page."""

    TAGS = frozenset({"h1", "h2", "h3", "button", "label", "th", "summary", "legend"})

    def __init__(self) -> None:
        super().__init__()
        self.open: list[list[str]] = []
        self.texts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.TAGS:
            self.open.append([])

    def handle_endtag(self, tag: str) -> None:
        if tag in self.TAGS and self.open:
            text = " ".join("".join(self.open.pop()).split())
            if text:
                self.texts.append(text)

    def handle_data(self, data: str) -> None:
        for parts in self.open:
            parts.append(data)


def page_text(response: Any) -> str:
    assert response.status_code == 200, response.status_code
    return htmllib.unescape(response.content.decode())


def untranslated(response: Any, *names: str) -> list[str]:
    """Visible headings/buttons/labels still in Vietnamese, once game terms and ``names`` (data) are set aside."""
    parser = _Visible()
    parser.feed(response.content.decode())
    left = []
    for text in parser.texts:
        rest = text
        for kept in (*names, *KEPT):
            rest = rest.replace(kept, "")
        if VIETNAMESE.search(rest):
            left.append(text)
    return left


def english(response: Any, shown: list[str], hidden: list[str], *names: str) -> str:
    """Assert the page shows the English ``shown``, none of the Vietnamese ``hidden`` and no
    untranslated heading or button; return its text."""
    text = page_text(response)
    assert 'lang="en"' in text
    assert [s for s in shown if s not in text] == []
    assert [s for s in hidden if s in text] == []
    assert untranslated(response, *names) == []
    return text


def as_user(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def people(django_user_model: Any) -> dict[str, Any]:
    names = ("chu-so", "thu-ky", "an", "quan-tri")
    made = {name: django_user_model.objects.create_user(name, password="mat-khau-dai-123") for name in names}
    made["quan-tri"].is_staff = True
    made["quan-tri"].save()
    return made


@pytest.fixture
def club(people: dict[str, Any]) -> Club:
    """Làng Đông, organised by ``chu-so``; ``thu-ky`` keeps score there and ``an`` plays."""
    club = club_open(name="Làng Đông", organiser=people["chu-so"]).obj
    role_grant(club=club, username="thu-ky", role="ghi_diem", granted_by=people["chu-so"])
    role_grant(club=club, username="an", role="nguoi_choi", granted_by=people["chu-so"])
    return club


@pytest.fixture
def sitting(club: Club, people: dict[str, Any]) -> Sitting:
    """A sitting of the club opened by its scorekeeper, with one ván recorded."""
    sitting = sitting_open(
        game="to-tom-5",
        rules="luat-2005",
        mode="quang",
        players=PLAYERS,
        club=club,
        created_by=people["thu-ky"],
        idempotency_key=None,
    ).obj
    van_record(
        sitting=sitting,
        seq=1,
        record={"winner": "Bình", "cuoc": ["tom"]},
        entered_by=people["thu-ky"],
        idempotency_key=None,
    )
    return sitting


# -- the English pages ----------------------------------------------------------------------------


def test_the_login_page_in_english(client) -> None:
    english(
        client.get("/en/dang-nhap/"),
        [
            "<h1>Log in</h1>",
            "Username",
            "Password",
            "No account yet?",
            ">Register</a>",
            "Scoreboards and the audience",
        ],
        ["Đăng nhập", "Tên đăng nhập", "Mật khẩu", "Chưa có tài khoản?", "Đăng ký"],
    )


def test_the_sign_up_page_in_english_and_its_errors(client) -> None:
    english(
        client.get("/en/dang-ky/"),
        [
            "<h1>Create an account</h1>",
            "Username",
            "Password again",
            "Up to 150 characters",
            "Create the account and log in",
            "Already have an account?",
        ],
        [
            "Đăng ký tài khoản",
            "Tên đăng nhập",
            "Nhập lại mật khẩu",
            "Đăng ký và đăng nhập",
            "Đã có tài khoản?",
        ],
    )
    refused = client.post(
        "/en/dang-ky/", {"username": "moi", "password1": "mat-khau-dai-123", "password2": "mat-khau-khac-456"}
    )
    assert refused.status_code == 400
    assert "The two passwords don't match." in htmllib.unescape(refused.content.decode())


def test_my_villages_and_clubs_in_english(people: dict[str, Any], club: Club) -> None:
    english(
        as_user(people["chu-so"]).get("/en/lang/"),
        [
            "<h1>My villages and clubs</h1>",
            "Start a new village or club",
            "Start it and be its organiser",
            ">Name</label>",
            ">Kind</label>",
            "Log out (chu-so)",
        ],
        ["Làng và câu lạc bộ của tôi", "Lập làng hoặc câu lạc bộ mới", "Lập và làm chủ sổ", "Đăng xuất"],
        "Làng Đông",
    )


def test_a_club_page_in_english_for_its_organiser(
    people: dict[str, Any], club: Club, sitting: Sitting
) -> None:
    english(
        as_user(people["chu-so"]).get(f"/en/lang/{club.slug}/"),
        [
            "Members and roles",
            "Grant a role",
            ">Grant</button>",
            "The village's players",
            ">Link</button>",
            "granted by chu-so",
            f'href="/en/lang/{club.slug}/nhat-ky/"',
            ">Audit log</a>",
            "last organiser",
        ],
        [
            "Thành viên và vai trò",
            "Cấp vai trò",
            "Người chơi của làng",
            "Gắn",
            "cấp bởi",
            "Nhật ký",
            "chủ sổ cuối",
        ],
        "Làng Đông",
    )


def test_a_sitting_s_audit_log_in_english_for_the_club_organiser(
    people: dict[str, Any], sitting: Sitting
) -> None:
    text = english(
        as_user(people["chu-so"]).get(f"/en/so-diem/{sitting.pk}/nhat-ky/"),
        [
            "Audit log ·",
            "<th>Time</th>",
            "<th>Who</th>",
            "<th>Action</th>",
            "<th>Item</th>",
            "<th>Details</th>",
            "Download (CSV, opens in Excel)",
            "Who did what and when (Vietnam time)",
        ],
        [
            "Nhật ký",
            "<th>Thời gian</th>",
            "<th>Người làm</th>",
            "<th>Việc</th>",
            "<th>Đối tượng</th>",
            "Tải về",
        ],
        str(sitting),
    )
    assert text.count('data-testid="audit-row"') >= 2  # the sitting opened, ván 1 recorded


def test_an_event_s_roles_panel_in_english_for_its_organiser(people: dict[str, Any]) -> None:
    cache.clear()
    event: Event = event_create(
        name="Hội làng Xuân",
        date=dt.date(2025, 2, 3),
        game="to-tom-5",
        rules="luat-2005",
        created_by=people["chu-so"],
    )
    event_role_grant(event=event, username="thu-ky", role="ghi_diem", by=people["chu-so"])
    text = english(
        as_user(people["chu-so"]).get(f"/en/giai/{event.slug}/quan-ly/"),
        [
            "<h2>Roles</h2>",
            "Grant a role",
            "Scorekeepers and Trung Quân",
            ">Username</label>",
            ">At chiếu</label>",
            "The whole tournament (every chiếu)",
            "whole tournament",
            "granted by",
            "Revoke this role?",
            ">Revoke</button>",
        ],
        [
            "Cấp vai trò",
            "Thư ký ghi điểm và Trung Quân",
            "Tên tài khoản",
            "Ở chiếu",
            "Cả giải",
            "cấp bởi",
            "Thu hồi vai trò này?",
        ],
        "Hội làng Xuân",
    )
    assert "No roles granted yet." not in text  # thu-ky's grant is listed


def test_the_refusal_page_in_english(people: dict[str, Any], club: Club) -> None:
    refused = as_user(people["an"]).get(f"/en/lang/{club.slug}/nhat-ky/")
    assert refused.status_code == 403
    text = htmllib.unescape(refused.content.decode())
    assert "<h1>No access</h1>" in text and "You are logged in as an." in text
    assert "Only the village's organisers can see the village's audit log." in text
    assert "Không có quyền" not in text and "Bạn đang đăng nhập" not in text


# -- links to the audit logs ----------------------------------------------------------------------


def test_the_club_page_links_its_audit_log_for_the_organiser_only(people: dict[str, Any], club: Club) -> None:
    link = 'data-testid="club-audit-link"'
    organiser_page = page_text(as_user(people["chu-so"]).get(f"/lang/{club.slug}/"))
    assert f'href="/lang/{club.slug}/nhat-ky/" {link}>Nhật ký</a>' in organiser_page
    assert as_user(people["chu-so"]).get(f"/lang/{club.slug}/nhat-ky/").status_code == 200
    for member in ("thu-ky", "an"):
        assert link not in page_text(as_user(people[member]).get(f"/lang/{club.slug}/"))


def test_the_rules_page_links_the_rules_audit_log_for_staff_only(client, people: dict[str, Any]) -> None:
    link = 'href="/le-lang/nhat-ky/"'
    staff_page = page_text(as_user(people["quan-tri"]).get("/le-lang/"))
    assert f'{link} data-testid="rules-audit-link">Nhật ký lệ làng</a>' in staff_page
    assert 'href="/en/le-lang/nhat-ky/"' in page_text(as_user(people["quan-tri"]).get("/en/le-lang/"))
    assert link not in page_text(as_user(people["chu-so"]).get("/le-lang/"))
    assert link not in page_text(client.get("/le-lang/"))
