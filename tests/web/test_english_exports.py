"""A sitting's exports read in English on ``/en/`` (issue 33, item 2): the ledger and ván CSV and
XLSX, the report and statement PDFs (their text through pdftotext), the API's ván and history with
``Accept-Language: en``, and the offline pack's JavaScript catalogue. Vietnamese letters are found
only in the players' names and the game words (tests/web/vietnamese_text.py). The Vietnamese
exports are unchanged: the stored reasons, word for word."""

from __future__ import annotations

import io
import json
import re
import subprocess
from typing import Any

import pytest
from django.test import Client
from openpyxl import load_workbook
from rest_framework.test import APIClient

from scoring.models import Club, Posting, Sitting
from scoring.services.roles import club_open
from scoring.services.sittings import sitting_open, sitting_settle_up, van_correct, van_record
from tests.web.vietnamese_text import all_vietnamese, vietnamese_words

pytestmark = pytest.mark.django_db

PLAYERS = ["An", "Binh", "Chi", "Dung", "Em"]
#: Words the project's English keeps on purpose: the brand, and the places and pots its glossary
#: leaves in Vietnamese (the English catalogue's own choice before this test).
KEPT = ("Sổ Tôm", "chiếu", "gà")


@pytest.fixture
def organiser(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("chu-so", password="mat-khau-dai-123")


@pytest.fixture
def club(organiser: Any) -> Club:
    return club_open(name="Lang Dong", slug="lang-dong", organiser=organiser).obj


def _sitting(club: Club, organiser: Any, mode: str) -> Sitting:
    """Ván 1 (Binh ù Tôm on Chi's discard) corrected to An ù Lèo; ván 2 Chi ù Thập Điều; ván 3 a
    draw; then settled up (pots returned, debts cleared)."""
    sitting = sitting_open(
        game="to-tom-5",
        rules="luat-2005",
        mode=mode,
        players=PLAYERS,
        club=club,
        created_by=organiser,
        idempotency_key=None,
    ).obj
    record = dict(entered_by=organiser, idempotency_key=None)
    van_record(
        sitting=sitting, seq=1, record={"winner": "Binh", "cuoc": ["tom"], "discarder": "Chi"}, **record
    )
    van_correct(
        van=sitting.van.get(seq=1),
        record={"winner": "An", "cuoc": ["leo"]},
        reason="ghi nhầm người ù",
        corrected_by=organiser,
        idempotency_key=None,
    )
    van_record(sitting=sitting, seq=2, record={"winner": "Chi", "cuoc": ["thap_dieu"]}, **record)
    van_record(sitting=sitting, seq=3, record={"result": "hoa"}, **record)
    sitting_settle_up(sitting=sitting, settled_by=organiser, idempotency_key=None)
    return sitting


@pytest.fixture(params=["quang", "gom"])
def sitting(request: Any, club: Club, organiser: Any) -> Sitting:
    return _sitting(club, organiser, request.param)


@pytest.fixture
def client(organiser: Any) -> Client:
    c = Client()
    c.force_login(organiser)
    return c


def _get(client: Client, url: str) -> bytes:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return b"".join(response.streaming_content) if response.streaming else response.content


def _xlsx_text(data: bytes) -> str:
    book = load_workbook(io.BytesIO(data), read_only=True)
    cells = [str(c) for ws in book.worksheets for row in ws.iter_rows(values_only=True) for c in row if c]
    return "\n".join([*book.sheetnames, *cells])


def _pdf_text(data: bytes) -> str:
    assert data.startswith(b"%PDF")
    text = subprocess.run(["pdftotext", "-", "-"], input=data, capture_output=True, check=True).stdout
    return " ".join(text.decode().split())  # a name broken across lines reads whole


def _exports(client: Client, sitting: Sitting, prefix: str) -> dict[str, str]:
    base = f"{prefix}/so-diem/{sitting.pk}"
    return {
        "ledger.csv": _get(client, f"{base}/xuat/so-cai.csv").decode("utf-8-sig"),
        "van.csv": _get(client, f"{base}/xuat/cac-van.csv").decode("utf-8-sig"),
        "statement.csv": _get(client, f"{base}/xuat/sao-ke/1.csv").decode("utf-8-sig"),
        "ledger.xlsx": _xlsx_text(_get(client, f"{base}/xuat/so-cai.xlsx")),
        "van.xlsx": _xlsx_text(_get(client, f"{base}/xuat/cac-van.xlsx")),
        "statement.xlsx": _xlsx_text(_get(client, f"{base}/xuat/sao-ke/2.xlsx")),
        "report.pdf": _pdf_text(_get(client, f"{base}/bao-cao.pdf")),
        "statement.pdf": _pdf_text(_get(client, f"{base}/xuat/sao-ke/3.pdf")),
        "sheet.pdf": _pdf_text(_get(client, f"{base}/phieu-ghi.pdf")),
    }


def _names(sitting: Sitting) -> list[str]:
    from django.utils import translation

    with translation.override("en"):
        return [*PLAYERS, sitting.display_name, "ghi nhầm người ù", *KEPT]  # the scorekeeper's own words


def test_a_sitting_s_exports_in_english(client: Client, sitting: Sitting) -> None:
    exports = _exports(client, sitting, "/en")
    found = {name: all_vietnamese([text], *_names(sitting)) for name, text in exports.items()}
    assert {name: words for name, words in found.items() if words} == {}
    assert "Why" in exports["ledger.csv"] and "pays" in exports["ledger.csv"]
    assert "Reversed: " in exports["ledger.csv"]  # the correction's reversal
    assert "Sitting report" in exports["report.pdf"] and "Statement" in exports["statement.pdf"]


def test_the_vietnamese_exports_are_unchanged(client: Client, sitting: Sitting) -> None:
    exports = _exports(client, sitting, "")
    stored = set(Posting.objects.filter(sitting=sitting).values_list("why", flat=True))
    assert stored and all(why in exports["ledger.csv"] for why in stored)
    assert "Bút toán,Loại,Ván" in exports["ledger.csv"]
    assert "Đảo: " in exports["ledger.csv"]
    assert "Báo cáo canh bài" in exports["report.pdf"]
    assert "Sao kê" in exports["statement.pdf"] and "Bảng điểm ghi tay" in exports["sheet.pdf"]
    assert " pays " not in exports["ledger.csv"] + exports["report.pdf"]


def test_the_api_ledger_in_english_and_in_vietnamese(organiser: Any, sitting: Sitting) -> None:
    api = APIClient()
    api.force_authenticate(organiser)
    texts = {}
    for language in ("en", "vi"):
        answers = [
            api.get(f"/api/v1/sittings/{sitting.pk}/{path}", HTTP_ACCEPT_LANGUAGE=language)
            for path in ("van", "history")
        ]
        assert [a.status_code for a in answers] == [200, 200]
        texts[language] = json.dumps([a.json() for a in answers], ensure_ascii=False)
    assert vietnamese_words(texts["en"], *_names(sitting)) == []
    assert "pays" in texts["en"] and "Reversed" not in texts["vi"]
    assert "trả" in texts["vi"] and " pays " not in texts["vi"]


#: Glossary words the scripts' English shares with the pages' (scoring.selectors.sitting; the
#: console's name and its signal "Bất thực").
SCRIPT_KEPT = ("chịu", "đầu kê", "báo", "Bất thực", "Trung Quân")


def _catalog(client: Client, url: str) -> dict[str, Any]:
    body = _get(client, url).decode()
    found = re.search(r"const newcatalog = (\{.*?\});\n", body, re.S)
    return json.loads(found.group(1)) if found else {}


def test_the_offline_pack_s_script_text_in_english_and_kept_for_both_languages() -> None:
    client = Client()
    english = _catalog(client, "/en/jsi18n/")
    assert english["%(winner)s ù: %(cuoc)s"] == "%(winner)s wins: %(cuoc)s"  # the preview's ván line
    texts = [t for v in english.values() for t in ([v] if isinstance(v, str) else v)]
    assert all_vietnamese(texts, *KEPT, *SCRIPT_KEPT) == []
    assert "%(winner)s ù: %(cuoc)s" not in _catalog(client, "/jsi18n/")  # Vietnamese: the scripts' own text
    worker = _get(client, "/sw.js").decode()
    catalogs = json.loads(re.search(r"const SOTOM = (\{.*?\});\n", worker).group(1))["catalogs"]
    assert sorted(catalogs) == ["/en/jsi18n/", "/jsi18n/"]  # both kept at install, served offline


def test_the_audit_csv_s_headers_in_english_and_in_vietnamese(client: Client, sitting: Sitting) -> None:
    """The sitting's audit trail as CSV (nhật ký): its columns in the page's language."""
    heads = {}
    for prefix in ("/en", ""):
        text = _get(client, f"{prefix}/so-diem/{sitting.pk}/nhat-ky/?dinh-dang=csv").decode("utf-8-sig")
        heads[prefix] = text.splitlines()[0]
    assert heads["/en"] == "Time,Who,Action,Item,Details"
    assert heads[""] == "Thời gian,Người làm,Việc,Đối tượng,Chi tiết"
