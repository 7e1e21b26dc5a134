"""Big reports as jobs on the bulk lane (issue 29, item 3): a PDF or XLSX of a sitting or an event
with more ván than ``REPORT_JOB_MIN_VAN`` is rendered by a real Celery worker, never in the request;
its page shows the progress, then the same address serves the file; the same report of the same
ledger version is served from the stored file; a new ván makes a new render; only who may see the
report gets the file."""

from __future__ import annotations

import io
import time
from typing import Any

import pytest
from openpyxl import load_workbook

from tests.factories import record_all
from tests.reports.conftest import pdf_text
from tests.tournaments.conftest import make_event, seated, wait_for  # noqa: F401 - fixtures

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def big(settings: Any) -> None:
    """The fixture sitting (4 ván) counts as big here: above 3 ván, reports are jobs."""
    settings.REPORT_JOB_MIN_VAN = 3


@pytest.fixture
def no_render_here(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every renderer, and the PDF and XLSX writers, refuse to run in this (the web) process: only
    the worker, a subprocess, may render a big report."""
    from scoring.reports import jobs, pdf, tabular, views

    calls: list[str] = []

    def refuse(name: str) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            calls.append(name)
            raise AssertionError(f"{name} ran in the web process")

        return call

    for kind in list(jobs.RENDERERS):
        monkeypatch.setitem(jobs.RENDERERS, kind, refuse(kind))
    monkeypatch.setattr(pdf, "pdf_bytes", refuse("pdf_bytes"))
    monkeypatch.setattr(views, "pdf_response", refuse("pdf_response"))
    monkeypatch.setattr(tabular, "xlsx_file", refuse("xlsx_file"))
    monkeypatch.setattr(views, "sheet_stream_response", refuse("sheet_stream_response"))
    return calls


def _rows(sitting: Any) -> list[Any]:
    from scoring.models import ReportFile

    return list(ReportFile.objects.filter(params__sitting=sitting.pk).defer("data").order_by("pk"))


def _done(sitting: Any) -> Any:
    def check() -> Any:
        rows = [r for r in _rows(sitting) if r.state == "done"]
        failed = [r.error for r in _rows(sitting) if r.state == "failed"]
        assert not failed, failed
        return rows and rows[-1]

    return wait_for(check, timeout=60)


@pytest.mark.sqlite
def test_big_pdf_is_rendered_by_the_worker_then_served_then_rendered_again_after_a_van(
    report_worker: Any, big: None, no_render_here: list[str], client: Any, keeper: Any, sitting: Any
) -> None:
    client.force_login(keeper)
    url = f"/so-diem/{sitting.pk}/bao-cao.pdf"
    assert client.get(f"/so-diem/{sitting.pk}/in-xuat/").status_code == 200  # URLs, templates loaded
    started = time.monotonic()
    first = client.get(url)
    took = time.monotonic() - started
    # The request answers at once with the progress page; nothing rendered here.
    assert first.status_code == 202 and first["Content-Type"].startswith("text/html")
    assert took < 2.0, took
    page = first.content.decode()
    assert 'data-testid="report-job"' in page and "Đang dựng báo cáo" in page
    assert '<meta http-equiv="refresh" content="2">' in page  # without JavaScript: it refreshes
    assert no_render_here == []
    row = _done(sitting)
    assert row.version and row.size > 1000 and row.filename == f"canh-bai-{sitting.pk}-bao-cao.pdf"

    served = client.get(url)
    assert served.status_code == 200 and served["Content-Type"] == "application/pdf"
    text = pdf_text(served.content)
    assert "Canh bài đình làng Đông Ngạc" in text and "Thập Điều" in text
    # Again: the same file, no second render.
    again = client.get(url)
    assert again.content == served.content
    rows = _rows(sitting)
    assert [(r.pk, r.started_at) for r in rows] == [(row.pk, row.started_at)]

    # A new ván: a new version, a new render, and the old file goes once the new one is done.
    record_all(sitting, [{"winner": "Em", "cuoc": ["tom"]}])
    third = client.get(url)
    assert third.status_code == 202
    newer = wait_for(
        lambda: next((r for r in _rows(sitting) if r.state == "done" and r.pk != row.pk), None), timeout=60
    )
    assert [r.pk for r in _rows(sitting)] == [newer.pk]  # the older version's file is deleted
    assert newer.version != row.version
    fresh = client.get(url)
    assert fresh.status_code == 200 and fresh.content != served.content
    assert pdf_text(fresh.content).count("Em") > text.count("Em")
    assert no_render_here == []


def test_progress_partial_then_file_and_only_for_who_may_see_it(
    report_worker: Any, big: None, client: Any, keeper: Any, sitting: Any, django_user_model: Any
) -> None:
    client.force_login(keeper)
    url = f"/so-diem/{sitting.pk}/xuat/cac-van.xlsx"
    assert client.get(url).status_code == 202
    partial = client.get(url + "?tien-do=1", HTTP_HX_REQUEST="true")
    body = partial.content.decode()
    assert body.lstrip().startswith("<section") and 'hx-trigger="every 1s"' in body
    _done(sitting)
    # The poll now shows the link to the file and stops polling.
    done = client.get(url + "?tien-do=1", HTTP_HX_REQUEST="true").content.decode()
    assert 'data-testid="report-file"' in done and "hx-trigger" not in done and "Tải tệp về" in done
    served = client.get(url)
    assert served.status_code == 200 and "attachment" in served["Content-Disposition"]
    book = load_workbook(io.BytesIO(served.content), read_only=True)
    sheet = book.worksheets[0]
    values = [row for row in sheet.iter_rows(values_only=True)]
    assert values[0][0] == "Ván" and len(values) == 1 + 4 + 1  # header, 4 ván, the total

    # Someone who may not see the sitting gets no file, even though it is stored.
    client.force_login(django_user_model.objects.create_user("nguoi-la", password="mat-khau-dai-123"))
    refused = client.get(url)
    assert refused.status_code in (403, 404) and b"PK" not in refused.content[:2]
    client.logout()
    anonymous = client.get(url)
    assert anonymous.status_code in (302, 403, 404) and not anonymous.content.startswith(b"PK")


def test_english_progress_page(report_worker: Any, big: None, client: Any, keeper: Any, sitting: Any) -> None:
    client.force_login(keeper)
    page = client.get(f"/en/so-diem/{sitting.pk}/bao-cao.pdf")
    assert page.status_code == 202
    text = page.content.decode()
    assert "Building the report" in text and "Đang dựng báo cáo" not in text
    row = _done(sitting)
    assert row.language == "en"


@pytest.mark.sqlite
def test_small_report_stays_inline(client: Any, keeper: Any, sitting: Any) -> None:
    from scoring.models import ReportFile

    client.force_login(keeper)
    answer = client.get(f"/so-diem/{sitting.pk}/bao-cao.pdf")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"
    assert not ReportFile.objects.exists()


def test_big_event_standings_and_statement(
    report_worker: Any,
    settings: Any,
    client: Any,
    seated: Any,  # noqa: F811 - the imported fixture
    django_user_model: Any,
) -> None:
    """An event's standings (public) and a player's statement (theirs, the organisers') as jobs."""
    from scoring.models import ReportFile
    from tests.tournaments.conftest import record
    from tournaments.services.leaderboard import rebuild_leaderboard

    settings.REPORT_JOB_MIN_VAN = 1
    event, tables = seated
    organiser = django_user_model.objects.create_user("btc-bao-cao", password="mat-khau-dai-123")
    event.organisers.add(organiser)
    names = [s.name for s in tables[0].sitting.seats.order_by("position")]
    record(tables[0], 1, names[0], ["tom"])
    record(tables[0], 2, names[1], ["leo"])
    rebuild_leaderboard(event_id=event.pk)

    url = f"/giai/{event.slug}/xuat/bang-xep-hang.pdf"
    assert client.get(url).status_code == 202
    wait_for(lambda: ReportFile.objects.filter(kind="event.standings_pdf", state="done").exists(), timeout=60)
    pdf = client.get(url)
    assert pdf.status_code == 200 and names[0] in pdf_text(pdf.content)

    reg = event.registrations.select_related("player").get(player__name=names[0])
    statement = f"/giai/{event.slug}/xuat/sao-ke/{reg.player_id}.xlsx"
    assert client.get(statement).status_code == 302  # a visitor is sent to sign in, as before
    client.force_login(organiser)
    assert client.get(statement).status_code == 202
    wait_for(
        lambda: ReportFile.objects.filter(kind="event.statement_xlsx", state="done").exists(), timeout=60
    )
    sheet = load_workbook(io.BytesIO(client.get(statement).content), read_only=True).worksheets[0]
    assert [r[0] for r in sheet.iter_rows(values_only=True)][-1] == "Tổng"


@pytest.mark.sqlite
def test_at_most_n_renders_at_once_and_a_dead_render_is_taken_over(settings: Any) -> None:
    """Render slots are rows' ``slot`` numbers, unique in the database: with one slot, a second
    report waits until the first is done; a render silent for too long gives its slot back."""
    from datetime import timedelta

    from django.utils import timezone

    from scoring.models import ReportFile
    from scoring.services.report_files import report_file_claim, report_file_finish

    settings.REPORT_MAX_RENDERS = 1
    a, b = (
        ReportFile.objects.create(
            kind="sitting.report_pdf",
            params={},
            language="vi",
            subject=f"s{i}",
            version="v1",
            filename="a.pdf",
            content_type="application/pdf",
        )
        for i in range(2)
    )
    assert report_file_claim(file_id=a.pk).render
    assert report_file_claim(file_id=a.pk).render is False  # a task delivered twice
    second = report_file_claim(file_id=b.pk)
    assert second.render is False and second.wait  # queued, not rendered
    report_file_finish(file_id=a.pk, data=b"%PDF-1.7")
    assert report_file_claim(file_id=b.pk).render
    # b's worker dies: no progress for longer than REPORT_RENDER_TIMEOUT; another report takes over.
    c = ReportFile.objects.create(
        kind="sitting.report_pdf",
        params={},
        language="vi",
        subject="s3",
        version="v1",
        filename="c.pdf",
        content_type="application/pdf",
    )
    assert report_file_claim(file_id=c.pk).wait
    silent = timezone.now() - timedelta(seconds=settings.REPORT_RENDER_TIMEOUT + 1)
    ReportFile.objects.filter(pk=b.pk).update(updated_at=silent)
    assert report_file_claim(file_id=c.pk).render
    assert ReportFile.objects.get(pk=b.pk).state == "queued"
