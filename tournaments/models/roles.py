"""Roles in an event beyond its organisers (:attr:`Event.organisers`): scorekeepers, for the whole
event or one table, and the Trung Quân. Grants and revocations are kept in the history."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from tournaments.models.events import Event
from tournaments.models.tables import Table


class EventRoleKind(models.TextChoices):
    SCOREKEEPER = "ghi_diem", _("Thư ký ghi điểm")
    TRUNG_QUAN = "trung_quan", _("Trung Quân")


class EventRole(models.Model):
    """``user`` holds ``role`` in ``event``: at every table, or only at ``table``."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="tài khoản",
        on_delete=models.CASCADE,
        related_name="event_roles",
    )
    event = models.ForeignKey(Event, verbose_name="giải", on_delete=models.CASCADE, related_name="roles")
    role = models.CharField("vai trò", max_length=12, choices=EventRoleKind.choices)
    table = models.ForeignKey(
        Table,
        verbose_name="chiếu (để trống: mọi chiếu)",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="roles",
    )
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="người cấp",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField("cấp lúc", auto_now_add=True)
    history = HistoricalRecords(verbose_name="lịch sử vai trò")

    class Meta:
        verbose_name = "vai trò trong giải"
        verbose_name_plural = "vai trò trong giải"
        ordering = ("event", "role", "table", "user")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "event", "role"],
                condition=models.Q(table__isnull=True),
                name="tournaments_eventrole_once_event_wide",
            ),
            models.UniqueConstraint(
                fields=["user", "event", "role", "table"],
                condition=models.Q(table__isnull=False),
                name="tournaments_eventrole_once_per_table",
            ),
        ]

    def __str__(self) -> str:
        where = f" · chiếu {self.table.number}" if self.table_id else ""  # type: ignore[union-attr]
        return f"{self.user} · {self.get_role_display()} · {self.event}{where}"
