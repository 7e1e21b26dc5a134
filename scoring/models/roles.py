"""Who may do what in a club's sổ điểm: roles per club, and the atomic counter behind lock-outs.

A role is granted to a user in one club (or village). Roles are rows, never flags on the user, so
a person can keep score in one club and only play in another; every grant and revocation is kept
in the role's history (django-simple-history) for the organisers' audit page.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from scoring.models.people import Club


class ClubRoleKind(models.TextChoices):
    ORGANISER = "to_chuc", _("Chủ sổ (ban tổ chức)")
    SCOREKEEPER = "ghi_diem", _("Thư ký ghi điểm")
    PLAYER = "nguoi_choi", _("Người chơi")
    #: Keeps the club's book: sees every member's balances and statements, closes periods.
    TREASURER = "thu_quy", _("Thủ quỹ")


class ClubRole(models.Model):
    """``user`` holds ``role`` in ``club``. Revoking deletes the row; the history keeps it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="tài khoản",
        on_delete=models.CASCADE,
        related_name="club_roles",
    )
    club = models.ForeignKey(
        Club, verbose_name="làng / câu lạc bộ", on_delete=models.CASCADE, related_name="roles"
    )
    role = models.CharField("vai trò", max_length=12, choices=ClubRoleKind.choices)
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
        verbose_name = "vai trò trong làng / câu lạc bộ"
        verbose_name_plural = "vai trò trong làng / câu lạc bộ"
        ordering = ("club", "role", "user")
        constraints = [
            models.UniqueConstraint(fields=["user", "club", "role"], name="scoring_clubrole_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.get_role_display()} · {self.club}"


class AccessThrottle(models.Model):
    """Wrong tries against one secret (a table's PIN, an account's password), counted atomically.

    ``failures`` is only ever changed by a single ``UPDATE … SET failures = failures + 1`` (see
    :mod:`scoring.services.throttle`), so concurrent guesses cannot slip past the limit; when it
    reaches the limit the key is locked until ``locked_until`` and the count starts again.
    """

    key = models.CharField("khóa", max_length=160, unique=True)
    failures = models.PositiveIntegerField("số lần sai", default=0)
    locked_until = models.DateTimeField("khóa đến", null=True, blank=True)
    updated_at = models.DateTimeField("cập nhật lúc", auto_now=True)

    class Meta:
        verbose_name = "giới hạn thử mã"
        verbose_name_plural = "giới hạn thử mã"

    def __str__(self) -> str:
        return self.key
