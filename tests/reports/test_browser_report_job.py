"""The progress page of a big report on a phone (issue 29, item 3), in real Chromium with a real
Celery worker: while every render slot is taken the report waits its turn (the page says so),
then the worker renders it, the page shows the link without a reload, and the file downloads."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook
from playwright.sync_api import expect

from tests.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def _hold_every_slot() -> list[Any]:
    """Rows rendering elsewhere, holding both of the worker's render slots (REPORT_MAX_RENDERS=2)."""
    from scoring.models import ReportFile

    return [
        ReportFile.objects.create(
            kind="sitting.report_pdf",
            params={},
            language="vi",
            subject=f"elsewhere-{slot}",
            version="v",
            filename="x.pdf",
            content_type="application/pdf",
            state="running",
            slot=slot,
        )
        for slot in range(2)
    ]


def test_progress_then_download_on_a_phone(
    report_worker: Any, settings: Any, phone: Any, live_server: Any, keeper: Any, sitting: Any, tmp_path: Path
) -> None:
    from scoring.models import ReportFile

    settings.REPORT_JOB_MIN_VAN = 3
    held = _hold_every_slot()
    sign_in(phone.context, live_server.url, keeper)
    phone.goto(f"{live_server.url}/so-diem/{sitting.pk}/in-xuat/")
    phone.locator('a[href$="/xuat/cac-van.xlsx"]').click()  # the ván list
    job = phone.locator("[data-testid=report-job]")
    expect(job).to_have_attribute("data-state", "queued")
    expect(phone.get_by_test_id("report-stage")).to_contain_text("Đang chờ đến lượt: 2 báo cáo")
    expect(phone.locator("progress.report-progress")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.screenshot(path=str(tmp_path / "queued.png"), full_page=True)

    for row in held:  # the other renders end: the worker takes this one within its next try
        ReportFile.objects.filter(pk=row.pk).delete()
    link = phone.get_by_test_id("report-file")
    expect(link).to_be_visible(timeout=60_000)
    expect(job).to_have_attribute("data-state", "done")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.screenshot(path=str(tmp_path / "done.png"), full_page=True)
    with phone.expect_download() as download:
        link.click()
    assert download.value.suggested_filename == f"canh-bai-{sitting.pk}-cac-van.xlsx"
    book = load_workbook(io.BytesIO(Path(download.value.path()).read_bytes()), read_only=True)
    rows = list(book.worksheets[0].iter_rows(values_only=True))
    assert rows[0][0] == "Ván" and [r[0] for r in rows[1:5]] == [1, 2, 3, 4]
