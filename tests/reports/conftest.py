"""Fixtures of the report tests: a Tổ Tôm sitting with a Thập Điều, a streak, a draw and a
correction (written through the services), and helpers that read PDFs back with poppler."""

from __future__ import annotations

import io
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from tests.factories import new_key, open_sitting, record_all

#: Ván of the sitting, in order (5 players, luật 2005, đánh quăng).
RECORDS = [
    {"winner": "An", "cuoc": ["tom"], "discarder": "Bình"},  # 8
    {"winner": "An", "cuoc": ["leo"]},  # Lèo + Thông: 12
    {"result": "hoa"},
    {"winner": "Dũng", "cuoc": ["thap_dieu"]},  # 18
]


@pytest.fixture
def sitting(keeper: Any) -> Any:
    """The sitting (opened by ``keeper``), with ván 1 first recorded wrong (Chi ù) then corrected
    to An ù Tôm."""
    from scoring.services.sittings import van_correct

    s = open_sitting(title="Canh bài đình làng Đông Ngạc", created_by=keeper)
    first = record_all(s, [{"winner": "Chi", "cuoc": ["tom"]}])[0]
    van_correct(
        van=first.pk,
        record=RECORDS[0],
        reason="ghi nhầm người ù",
        corrected_by=None,
        idempotency_key=new_key(),
    )
    record_all(s, RECORDS[1:])
    return s


def pdf_text(data: bytes) -> str:
    """The PDF's text as poppler's pdftotext reads it (layout kept)."""
    assert data.startswith(b"%PDF-")
    out = subprocess.run(["pdftotext", "-layout", "-", "-"], input=data, capture_output=True, check=True)
    return out.stdout.decode("utf-8")


def pdf_page_png(data: bytes, page: int = 1, dpi: int = 60) -> Image.Image:
    """One page rendered by poppler's pdftoppm."""
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "in.pdf"
        source.write_bytes(data)
        subprocess.run(
            [
                "pdftoppm",
                "-png",
                "-r",
                str(dpi),
                "-f",
                str(page),
                "-l",
                str(page),
                str(source),
                str(Path(tmp) / "page"),
            ],
            check=True,
        )
        png = next(Path(tmp).glob("page*.png"))
        return Image.open(io.BytesIO(png.read_bytes())).convert("RGB")


def pdf_pages(data: bytes) -> int:
    out = subprocess.run(["pdfinfo", "-"], input=data, capture_output=True, check=True).stdout.decode()
    return int(next(line for line in out.splitlines() if line.startswith("Pages:")).split()[1])


@pytest.fixture(scope="session")
def report_worker(django_db_setup: Any, django_db_blocker: Any) -> Any:
    """A real Celery worker (``celery -A totom_site worker --pool=solo``) on the suite's broker and
    test database: it renders the big reports (``bulk.render_report``). Started once a session."""
    from tests.subprocesses import celery_worker

    with celery_worker("reports-tests", "Các bài kiểm tra báo cáo lớn") as proc:
        yield proc
