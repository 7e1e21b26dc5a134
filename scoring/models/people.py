"""People: the clubs and villages players belong to, and the players themselves."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ClubKind(models.TextChoices):
    VILLAGE = "lang", _("Làng")
    CLUB = "clb", _("Câu lạc bộ")


class Club(models.Model):
    """A village (làng) or a club whose members sit at the mat together."""

    name = models.CharField("tên", max_length=120)
    slug = models.SlugField("mã", max_length=60, unique=True)
    kind = models.CharField("loại", max_length=8, choices=ClubKind.choices, default=ClubKind.VILLAGE)
    created_at = models.DateTimeField("tạo lúc", auto_now_add=True)

    class Meta:
        verbose_name = "làng / câu lạc bộ"
        verbose_name_plural = "làng / câu lạc bộ"
        ordering = ("name",)

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """A person who plays; the village or club is optional (a guest at the mat has none)."""

    name = models.CharField("tên", max_length=80)
    club = models.ForeignKey(
        Club, verbose_name="làng / câu lạc bộ", on_delete=models.PROTECT, null=True, blank=True,
        related_name="players",
    )
    #: The person's own account, if they have one: they see their statements and confirm ván.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name="tài khoản", on_delete=models.SET_NULL, null=True, blank=True,
        related_name="players",
    )
    created_at = models.DateTimeField("tạo lúc", auto_now_add=True)

    class Meta:
        verbose_name = "người chơi"
        verbose_name_plural = "người chơi"
        ordering = ("name", "id")

    def __str__(self) -> str:
        return f"{self.name} ({self.club})" if self.club_id else self.name
