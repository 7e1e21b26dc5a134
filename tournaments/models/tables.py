"""Rounds, tables (chiếu), the canh (sittings of the ledger) played at a table, and the tokens
that let a scorekeeper enter ván at a table without an organiser's login."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.models import Sitting
from tournaments.models.events import Event
from tournaments.seating import Method, Remainder


class Round(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField("vòng số")
    method = models.CharField(
        "cách xếp chỗ",
        max_length=10,
        choices=[
            (Method.RANDOM.value, _("Bốc thăm")),
            (Method.ROTATION.value, _("Xoay vòng, tránh gặp lại")),
            (Method.STANDINGS.value, _("Theo bảng điểm")),
            (Method.RATING.value, _("Theo trình độ")),
        ],
    )
    remainder = models.CharField(
        "người dư",
        max_length=8,
        choices=[
            (Remainder.BYE.value, _("Nghỉ vòng này")),
            (Remainder.SMALLER.value, _("Chiếu ít người hơn")),
        ],
        default=Remainder.BYE.value,
    )
    seed = models.BigIntegerField("hạt giống bốc thăm", default=0)
    #: Ids of the players who sit out this round.
    byes = models.JSONField("người nghỉ", default=list, blank=True)
    created_at = models.DateTimeField("xếp lúc", auto_now_add=True)

    class Meta:
        verbose_name = "vòng"
        verbose_name_plural = "vòng"
        ordering = ("event", "number")
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="tournaments_round_number_once"),
            models.CheckConstraint(
                condition=models.Q(number__gte=1), name="tournaments_round_number_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"Vòng {self.number}"


class Table(models.Model):
    """A chiếu of a round. ``sitting`` is its current canh (sitting of the ledger); every canh
    played at the table, the current one included, is a :class:`TableSitting`."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField("chiếu số")
    sitting = models.OneToOneField(
        Sitting, verbose_name="canh đang chơi", on_delete=models.PROTECT, related_name="event_table"
    )
    #: Denormalised from the round, so the event's sittings are one indexed look-up.
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="tables")
    started_at = models.DateTimeField("bắt đầu lúc", auto_now_add=True)
    #: Rounds with a time limit: when the table's time is up (the page's clock counts down to it).
    ends_at = models.DateTimeField("hết giờ lúc", null=True, blank=True)
    #: Closed by the organiser (every canh settled up): no more ván.
    closed_at = models.DateTimeField("đóng lúc", null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="người đóng",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        verbose_name = "chiếu"
        verbose_name_plural = "chiếu"
        ordering = ("round", "number")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="tournaments_table_number_once"),
        ]

    def __str__(self) -> str:
        return f"Chiếu {self.number}"


class TableSitting(models.Model):
    """One canh played at a table in its round: a sitting of the ledger (canh 1, 2, …)."""

    #: Indexed by ``tournaments_canh_number_once`` (table, number), which starts with it.
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="canh", db_index=False)
    sitting = models.OneToOneField(
        Sitting, verbose_name="canh bài", on_delete=models.PROTECT, related_name="event_canh"
    )
    #: Denormalised from the table: the event's sittings are one indexed look-up (by
    #: ``tournaments_canh_changed`` (event, changed_seq), which starts with it).
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+", db_index=False)
    number = models.PositiveSmallIntegerField("canh số")
    #: The event's :attr:`Event.ledger_seq` at this canh's last change (a ván, a correction, a
    #: settle-up): the incremental leaderboard rebuilds the canh changed after its base.
    changed_seq = models.BigIntegerField("đổi ở lần sổ thay đổi số", default=0)
    #: The canh's current ván, counted from its own ván when its ``changed_seq`` was
    #: ``van_stamp`` (a count of an older state is stale; see :mod:`tournaments.selectors.tallies`).
    van = models.PositiveIntegerField("số ván", default=0)
    van_stamp = models.BigIntegerField("đếm ở lần đổi số", null=True, blank=True)

    class Meta:
        verbose_name = "canh của chiếu"
        verbose_name_plural = "canh của chiếu"
        ordering = ("table", "number")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="tournaments_canh_number_once"),
        ]
        indexes = [models.Index(fields=["event", "changed_seq"], name="tournaments_canh_changed")]

    def __str__(self) -> str:
        return f"{self.table} · canh {self.number}"


def new_secret() -> str:
    return secrets.token_urlsafe(16)


def new_pin() -> str:
    return f"{secrets.randbelow(10**6):06d}"


class ScorekeeperToken(models.Model):
    """Lets whoever holds it enter ván at one table without an organiser's login: the link (QR
    code) carries ``secret``; ``pin`` is the same permission typed at the table's page.
    Revoked tokens are kept (who could enter, until when)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="tokens")
    secret = models.CharField("mã liên kết", max_length=40, unique=True, default=new_secret)
    pin = models.CharField("mã PIN", max_length=6, default=new_pin)
    label = models.CharField("người giữ", max_length=80, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="người cấp",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField("cấp lúc", auto_now_add=True)
    revoked_at = models.DateTimeField("thu hồi lúc", null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="người thu hồi",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        verbose_name = "mã ghi điểm"
        verbose_name_plural = "mã ghi điểm"
        ordering = ("table", "-id")

    def __str__(self) -> str:
        return f"{self.table} · {self.label or self.pin}"

    @property
    def active(self) -> bool:
        return self.revoked_at is None
