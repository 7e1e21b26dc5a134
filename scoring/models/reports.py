"""A report rendered on the bulk lane (a PDF or an XLSX too big to build inside a request).

One row per report *and* ledger version it shows (``subject`` names the report, its parameters and
its language; ``version`` the state of the ledger it was asked at): the same report of the same
version is served from the stored file, a new ván makes a new version and so a new row. The file
itself is kept in the row (``data``), so every app server and every worker reads the same file,
on PostgreSQL as on the embedded SQLite, with nothing to clean on disk. Old rows are deleted
(:mod:`scoring.services.report_files`).

At most ``REPORT_MAX_RENDERS`` rows are ``running`` at once: each running row holds one of that many
``slot`` numbers, unique among the rows (a database constraint), so two workers can never take the
same slot whatever the number of workers.
"""

from __future__ import annotations

from django.db import models


class ReportFileState(models.TextChoices):
    QUEUED = "queued", "Đang chờ"
    RUNNING = "running", "Đang dựng"
    DONE = "done", "Xong"
    FAILED = "failed", "Lỗi"


class ReportFile(models.Model):
    #: The renderer (a key of :data:`scoring.reports.jobs.RENDERERS`), e.g. "sitting.report_pdf".
    kind = models.CharField("loại báo cáo", max_length=60)
    #: What the renderer is given (ids, a player's position…).
    params = models.JSONField("tham số", default=dict)
    language = models.CharField("ngôn ngữ", max_length=8)
    #: ``kind``, ``params`` and ``language`` in one string: which report this is.
    subject = models.CharField("báo cáo", max_length=200)
    #: The ledger's state the report shows (see :func:`scoring.reports.jobs.sitting_version`).
    version = models.CharField("phiên bản sổ", max_length=80)
    filename = models.CharField("tên tệp", max_length=200)
    content_type = models.CharField("kiểu tệp", max_length=100)
    #: Shown in the browser (a PDF) rather than downloaded (an XLSX).
    inline = models.BooleanField("mở trong trình duyệt", default=False)
    state = models.CharField(
        "trạng thái", max_length=10, choices=ReportFileState.choices, default=ReportFileState.QUEUED
    )
    #: Which of the ``REPORT_MAX_RENDERS`` render slots a running row holds.
    slot = models.PositiveSmallIntegerField("chỗ dựng", null=True, blank=True)
    #: Progress: a stage code (see :data:`scoring.reports.jobs.STAGES`) and ``done`` of ``total``.
    stage = models.CharField("bước", max_length=20, blank=True)
    done = models.PositiveIntegerField("đã xong", default=0)
    total = models.PositiveIntegerField("tổng", default=0)
    data = models.BinaryField("tệp", null=True, blank=True, editable=False)
    size = models.PositiveIntegerField("cỡ tệp (byte)", default=0)
    error = models.TextField("lỗi", blank=True)
    created_at = models.DateTimeField("yêu cầu lúc", auto_now_add=True)
    started_at = models.DateTimeField("bắt đầu dựng lúc", null=True, blank=True)
    finished_at = models.DateTimeField("xong lúc", null=True, blank=True)
    #: Last sign of life of the render (progress): a running row silent for too long is taken over.
    updated_at = models.DateTimeField("cập nhật lúc", auto_now=True)

    class Meta:
        verbose_name = "tệp báo cáo"
        verbose_name_plural = "tệp báo cáo"
        constraints = [
            models.UniqueConstraint(fields=["subject", "version"], name="scoring_reportfile_one_per_version"),
            models.UniqueConstraint(
                fields=["slot"], condition=models.Q(slot__isnull=False), name="scoring_reportfile_slot_once"
            ),
        ]
        indexes = [models.Index(fields=["state", "created_at"], name="scoring_reportfile_state")]

    def __str__(self) -> str:
        return f"{self.filename} ({self.version})"
