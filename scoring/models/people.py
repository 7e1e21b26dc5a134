"""People: the clubs and villages players belong to, and the players themselves.

Names are cleaned where they enter (:func:`scoring.names.clean_name`, in the services); each row
also keeps its name's comparison key (:func:`scoring.names.name_key`), so "Bình", "bình" and
"Bình" typed in decomposed form find one another in a query. The key is derived in ``save()``,
the one path every row takes (services, the backup import, the admin, factories), so no writer
can store a name without its key; it is data derived from the name, not a rule.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.engine import MAX_PLAYER_NAME
from scoring.names import KEY_LENGTH, name_key


def keyed_save(obj: Any, save: Callable[..., None], *args: Any, **kwargs: Any) -> None:
    """``save`` (the model's own) with ``obj.name_key`` derived from ``obj.name`` first."""
    obj.name_key = name_key(obj.name)
    fields = kwargs.get("update_fields")
    if fields is not None and "name" in fields:
        kwargs["update_fields"] = {*fields, "name_key"}
    save(*args, **kwargs)


class ClubKind(models.TextChoices):
    VILLAGE = "lang", _("Làng")
    CLUB = "clb", _("Câu lạc bộ")


class Club(models.Model):
    """A village (làng) or a club whose members sit at the mat together."""

    name = models.CharField("tên", max_length=120)
    slug = models.SlugField("mã", max_length=60, unique=True)
    kind = models.CharField("loại", max_length=8, choices=ClubKind.choices, default=ClubKind.VILLAGE)
    #: :func:`scoring.names.name_key` of ``name`` (two clubs people would read as one share it).
    name_key = models.CharField(
        "khóa so tên", max_length=KEY_LENGTH, editable=False, db_index=True, default=""
    )
    created_at = models.DateTimeField("tạo lúc", auto_now_add=True)

    class Meta:
        verbose_name = "làng / câu lạc bộ"
        verbose_name_plural = "làng / câu lạc bộ"
        ordering = ("name",)

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        keyed_save(self, super().save, *args, **kwargs)


class Player(models.Model):
    """A person who plays; the village or club is optional (a guest at the mat has none)."""

    name = models.CharField("tên", max_length=MAX_PLAYER_NAME)
    club = models.ForeignKey(
        Club,
        verbose_name="làng / câu lạc bộ",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="players",
    )
    #: The person's own account, if they have one: they see their statements and confirm ván.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="tài khoản",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
    )
    #: :func:`scoring.names.name_key` of ``name``: how a name typed again finds the player.
    name_key = models.CharField("khóa so tên", max_length=KEY_LENGTH, editable=False, default="")
    created_at = models.DateTimeField("tạo lúc", auto_now_add=True)

    class Meta:
        verbose_name = "người chơi"
        verbose_name_plural = "người chơi"
        ordering = ("name", "id")
        indexes = [models.Index(fields=["club", "name_key"], name="scoring_player_club_name_key")]

    def __str__(self) -> str:
        return f"{self.name} ({self.club})" if self.club_id else self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        keyed_save(self, super().save, *args, **kwargs)
