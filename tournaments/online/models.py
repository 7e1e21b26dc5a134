"""Platform tokens, webhooks and their deliveries, and the record of a sitting imported whole.

Each token and each webhook belongs to exactly one club (village) or one event (a database
constraint). Tokens are stored as a SHA-256 digest only (the token itself is shown once, at
creation); a webhook's secret is kept, since every delivery is signed with it, but never shown
again and never copied into the history. Revoking a token or switching off a webhook keeps its row
(and the history says who did it and when).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.conf import settings
from django.db import models
from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from scoring.models import Club, Sitting
from tournaments.models import Event, Table

ONE_OWNER = Q(club__isnull=False, event__isnull=True) | Q(club__isnull=True, event__isnull=False)


class Access(models.TextChoices):
    READ = "doc", _("Chỉ đọc")
    WRITE = "ghi", _("Đọc và ghi")


@dataclass(frozen=True, slots=True)
class TokenScope:
    """A platform token's reach (:class:`scoring.permissions.CredentialScope`): the sittings of its
    club, or of its event's tables; writes only with a write token."""

    club_id: int | None
    event_id: int | None
    writes: bool

    def narrow(self, sittings: QuerySet[Sitting]) -> QuerySet[Sitting]:
        if self.club_id is not None:
            return sittings.filter(club_id=self.club_id)
        return sittings.filter(event_canh__event_id=self.event_id)

    def allows_club(self, club_id: int | None) -> bool:
        return club_id is not None and club_id == self.club_id

    def allows_event(self, event_id: int | None) -> bool:
        return event_id is not None and event_id == self.event_id


class PlatformToken(models.Model):
    """Lets an online platform call the API for one club or one event (``Authorization: Bearer …``),
    acting as the account that created it, within that scope only."""

    club = models.ForeignKey(
        Club,
        verbose_name=_("làng / câu lạc bộ"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
    )
    event = models.ForeignKey(
        Event, verbose_name=_("giải"), on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    label = models.CharField(_("nền tảng"), max_length=80)
    access = models.CharField(_("quyền"), max_length=4, choices=Access.choices, default=Access.READ)
    #: The first characters of the token, to tell tokens apart on the page (not a secret).
    prefix = models.CharField(_("đầu mã"), max_length=16)
    #: SHA-256 of the token (hex): the token itself is never stored.
    digest = models.CharField(_("mã băm"), max_length=64)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("người tạo"), on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(_("tạo lúc"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("dùng lần cuối"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("thu hồi lúc"), null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("người thu hồi"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    history = HistoricalRecords(
        verbose_name=_("lịch sử mã nền tảng"), excluded_fields=["last_used_at", "digest"]
    )

    class Meta:
        verbose_name = _("mã nền tảng")
        verbose_name_plural = _("mã nền tảng")
        ordering = ("-id",)
        constraints = [
            models.UniqueConstraint(fields=["digest"], name="online_platformtoken_digest_unique"),
            models.CheckConstraint(condition=ONE_OWNER, name="online_platformtoken_one_owner"),
        ]

    def __str__(self) -> str:
        return f"{self.label} ({self.prefix}…)"

    @property
    def active(self) -> bool:
        return self.revoked_at is None

    @property
    def writes(self) -> bool:
        return self.access == Access.WRITE

    @property
    def credential_scope(self) -> TokenScope:
        """What :func:`scoring.permissions.credential_scope` reads from ``request.auth``."""
        return TokenScope(self.club_id, self.event_id, self.writes)


class HookEvent(models.TextChoices):
    VAN_RECORDED = "van.recorded", _("Ván được ghi")
    VAN_CORRECTED = "van.corrected", _("Ván được sửa")
    STANDINGS_CHANGED = "standings.changed", _("Bảng xếp hạng thay đổi")
    ROUND_SEATED = "round.seated", _("Xếp chỗ một vòng")
    EVENT_FINISHED = "event.finished", _("Giải kết thúc")


#: The kind of the "send test" delivery (not an event one subscribes to).
PING = "ping"


class Webhook(models.Model):
    """A URL told of the chosen events of one club or one event, each delivery signed with ``secret``."""

    club = models.ForeignKey(
        Club,
        verbose_name=_("làng / câu lạc bộ"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
    )
    event = models.ForeignKey(
        Event, verbose_name=_("giải"), on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    url = models.URLField(_("địa chỉ nhận"), max_length=500)
    #: Values of :class:`HookEvent`.
    events = models.JSONField(_("sự kiện"), default=list)
    secret = models.CharField(_("khóa ký"), max_length=80)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("người tạo"), on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(_("tạo lúc"), auto_now_add=True)
    disabled_at = models.DateTimeField(_("tắt lúc"), null=True, blank=True)
    disabled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("người tắt"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    #: Failed attempts in a row (any delivery, the test one included); a delivery received sets it to 0.
    failures = models.PositiveIntegerField(_("lần hỏng liên tiếp"), default=0)
    #: Set when ``failures`` reached ``WEBHOOK_PAUSE_AFTER`` (the circuit breaker): nothing is sent
    #: then (new events are recorded as skipped) until the owner resumes it or a test send is received.
    paused_at = models.DateTimeField(_("tạm dừng lúc"), null=True, blank=True)
    pause_reason = models.CharField(_("lý do tạm dừng"), max_length=300, blank=True)
    history = HistoricalRecords(verbose_name=_("lịch sử webhook"), excluded_fields=["secret", "failures"])

    class Meta:
        verbose_name = _("webhook")
        verbose_name_plural = _("webhook")
        ordering = ("-id",)
        constraints = [models.CheckConstraint(condition=ONE_OWNER, name="online_webhook_one_owner")]

    def __str__(self) -> str:
        return self.url

    @property
    def active(self) -> bool:
        return self.disabled_at is None

    @property
    def paused(self) -> bool:
        return self.active and self.paused_at is not None

    def event_labels(self) -> list[str]:
        labels = dict(HookEvent.choices)
        return [str(labels.get(e, e)) for e in self.events]


class DeliveryStatus(models.TextChoices):
    PENDING = "cho", _("Đang chờ gửi")
    RETRYING = "thu_lai", _("Sẽ gửi lại")
    DELIVERED = "da_gui", _("Đã gửi")
    FAILED = "that_bai", _("Thất bại")
    #: Not sent: the hook was paused (circuit breaker) when its turn came. Never sent later.
    SKIPPED = "bo_qua", _("Bỏ qua (webhook tạm dừng)")


class WebhookDelivery(models.Model):
    """One event sent (or to be sent) to one webhook: the exact body signed, and how it went."""

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries", db_index=False)
    #: Sent as ``X-SoTom-Delivery``: a receiver that saw it already ignores the repeat.
    uuid = models.UUIDField(_("mã lần gửi"), default=uuid.uuid4, unique=True, editable=False)
    kind = models.CharField(_("sự kiện"), max_length=40)
    body = models.TextField(_("nội dung"))
    status = models.CharField(
        _("trạng thái"), max_length=8, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    attempts = models.PositiveSmallIntegerField(_("số lần gửi"), default=0)
    response_code = models.PositiveSmallIntegerField(_("mã trả lời"), null=True, blank=True)
    error = models.CharField(_("lỗi"), max_length=300, blank=True)
    created_at = models.DateTimeField(_("tạo lúc"), auto_now_add=True)
    last_attempt_at = models.DateTimeField(_("gửi lần cuối lúc"), null=True, blank=True)
    next_attempt_at = models.DateTimeField(_("gửi lại lúc"), null=True, blank=True)
    delivered_at = models.DateTimeField(_("nhận lúc"), null=True, blank=True)
    duration_ms = models.PositiveIntegerField(_("thời gian (ms)"), null=True, blank=True)

    class Meta:
        verbose_name = _("lần gửi webhook")
        verbose_name_plural = _("các lần gửi webhook")
        ordering = ("-id",)
        indexes = [models.Index(fields=["webhook", "-id"], name="online_delivery_by_hook")]

    def __str__(self) -> str:
        return f"{self.kind} → {self.webhook_id}"


class SittingImport(models.Model):
    """A sitting recorded whole from an online platform (``POST /api/v1/sittings/import``): who
    imported it, from which platform, through which token, into which club or event table."""

    sitting = models.OneToOneField(Sitting, on_delete=models.PROTECT, related_name="+")
    platform = models.CharField(_("nền tảng"), max_length=80)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("người nhập"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    token = models.ForeignKey(
        PlatformToken,
        verbose_name=_("mã nền tảng"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    table = models.ForeignKey(
        Table, verbose_name=_("chiếu"), null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    van_count = models.PositiveIntegerField(_("số ván"))
    #: The id of the last ván the import wrote: ván recorded later, one by one, are announced as usual.
    last_van_id = models.BigIntegerField(_("ván cuối"), null=True, blank=True)
    created_at = models.DateTimeField(_("nhập lúc"), auto_now_add=True)

    class Meta:
        verbose_name = _("canh bài nhập từ nền tảng")
        verbose_name_plural = _("canh bài nhập từ nền tảng")

    def __str__(self) -> str:
        return f"{self.sitting_id} ← {self.platform}"


class JobState(models.TextChoices):
    QUEUED = "queued", _("chờ nhập")
    RUNNING = "running", _("đang nhập")
    DONE = "done", _("đã nhập xong")
    FAILED = "failed", _("nhập không thành")


class ImportJob(models.Model):
    """A big import (``POST /api/v1/sittings/import`` above ``IMPORT_JOB_THRESHOLD`` ván) run on the
    bulk lane (task ``bulk.import_sitting``; :mod:`tournaments.online.services.import_jobs`).

    ``staged``: the sitting being written, ván by ván in short transactions, seated by players of
    its own and in no club, so nobody sees it (no list, page, board or balance counts it); the last
    transaction gives it its club and its players and makes it visible (``sitting``), all at once.
    Seen by its owner only (``GET /api/v1/jobs/{id}``)."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("người nhập"), on_delete=models.CASCADE, related_name="+"
    )
    state = models.CharField(_("trạng thái"), max_length=8, choices=JobState.choices, default=JobState.QUEUED)
    #: The import's request as sent (the replay's JSON plus where it belongs).
    request = models.JSONField(_("yêu cầu nhập"))
    language = models.CharField(_("ngôn ngữ của người nhập"), max_length=8, default="vi")
    club = models.ForeignKey(
        Club,
        verbose_name=_("làng nhận canh"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
    )
    table = models.ForeignKey(
        Table, verbose_name=_("chiếu"), null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    token = models.ForeignKey(
        PlatformToken,
        verbose_name=_("mã nền tảng"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    total = models.PositiveIntegerField(_("số ván"))
    done = models.PositiveIntegerField(_("số ván đã nhập"), default=0)
    staged = models.ForeignKey(
        Sitting,
        verbose_name=_("canh đang nhập (chưa hiện)"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    sitting = models.ForeignKey(
        Sitting,
        verbose_name=_("canh bài"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    #: When done: the answer a small import gets (201's body); when failed: the refusal's body
    #: (``{"error": …, "van": n}``) and its HTTP status.
    result = models.JSONField(_("kết quả nhập"), null=True, blank=True)
    error = models.JSONField(_("lỗi"), null=True, blank=True)
    error_status = models.PositiveSmallIntegerField(_("mã lỗi HTTP"), null=True, blank=True)
    created_at = models.DateTimeField(_("tạo lúc"), auto_now_add=True)
    started_at = models.DateTimeField(_("bắt đầu nhập lúc"), null=True, blank=True)
    #: When a run last wrote (each chunk): a run that stopped touching it for LEASE seconds is dead.
    touched_at = models.DateTimeField(_("ghi lần cuối lúc"), null=True, blank=True)
    finished_at = models.DateTimeField(_("nhập xong lúc"), null=True, blank=True)

    class Meta:
        verbose_name = _("lần nhập canh bài (việc nền)")
        verbose_name_plural = _("các lần nhập canh bài (việc nền)")
        ordering = ("-id",)

    def __str__(self) -> str:
        return f"import job {self.pk} ({self.state} {self.done}/{self.total})"
