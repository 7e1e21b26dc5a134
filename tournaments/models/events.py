"""Events (a festival or a club season) and their registrations."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from scoring.models import Mode, Player, RuleSetSnapshot
from scoring.models.sitting import GAME_CHOICES


class EventKind(models.TextChoices):
    FESTIVAL = "hoi", _("Hội làng / giải đấu")
    SEASON = "mua", _("Mùa giải câu lạc bộ")


class RoundFormat(models.TextChoices):
    """How long a round lasts: a fixed number of ván, or a time limit (the table page shows the clock)."""

    VAN = "van", _("Số ván cố định")
    TIME = "gio", _("Giới hạn thời gian")


class TieBreak(models.TextChoices):
    POINTS = "points", _("Tổng điểm")
    WINS = "wins", _("Số ván ù")
    BEST_WIN = "best_win", _("Ván ù lớn nhất")
    PER_VAN = "per_van", _("Điểm mỗi ván")
    FEWER_VAN = "fewer_van", _("Ít ván hơn")


DEFAULT_TIE_BREAKS = [TieBreak.POINTS.value, TieBreak.WINS.value, TieBreak.BEST_WIN.value]


def default_tie_breaks() -> list[str]:
    return list(DEFAULT_TIE_BREAKS)


def new_token() -> str:
    return secrets.token_urlsafe(16)


class Event(models.Model):
    name = models.CharField("tên giải", max_length=160)
    slug = models.SlugField("mã", max_length=80, unique=True)
    kind = models.CharField("loại", max_length=4, choices=EventKind.choices, default=EventKind.FESTIVAL)
    date = models.DateField("ngày")
    #: "mùng 6 tháng Giêng": computed from ``date`` when left empty (:mod:`tournaments.lunar`).
    lunar_label = models.CharField("ngày âm lịch", max_length=60, blank=True)
    game = models.CharField("trò chơi", max_length=20, choices=GAME_CHOICES)
    rules = models.ForeignKey(
        RuleSetSnapshot, verbose_name="lệ làng", on_delete=models.PROTECT, related_name="events"
    )
    mode = models.CharField("cách tính", max_length=8, choices=Mode.choices, default=Mode.QUANG)
    is_public = models.BooleanField("bảng điểm công khai", default=True)
    round_format = models.CharField(
        "thể thức vòng", max_length=4, choices=RoundFormat.choices, default=RoundFormat.VAN
    )
    van_per_round = models.PositiveSmallIntegerField("số ván mỗi vòng", default=8)
    minutes_per_round = models.PositiveSmallIntegerField("số phút mỗi vòng", default=45)
    #: A table's round is played as several canh (sittings of the ledger) of this many ván each:
    #: a new canh opens when one reaches the count. 0: the whole round is one canh.
    van_per_sitting = models.PositiveSmallIntegerField("số ván mỗi canh (0: cả vòng một canh)", default=0)
    #: Ranking keys in order (values of :class:`TieBreak`); the player's name settles the rest.
    tie_breaks = models.JSONField("thứ tự xếp hạng", default=default_tie_breaks)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, verbose_name="ban tổ chức", related_name="organised_events", blank=True
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="người tạo",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField("tạo lúc", auto_now_add=True)
    #: Results are final (no longer provisional) once set.
    finished_at = models.DateTimeField("kết thúc lúc", null=True, blank=True)
    #: Bumped in the same transaction as every change the standings read (a ván written at one of
    #: the event's tables, a registration): a leaderboard built from a snapshot that read
    #: ``ledger_seq = n`` holds every change up to n.
    ledger_seq = models.BigIntegerField("số lần sổ thay đổi", default=0)
    #: Debounce marker: a recompute is already queued to run at this time (see services.leaderboard).
    recompute_due_at = models.DateTimeField("tính lại lúc", null=True, blank=True)
    #: Two-person confirmation (like Tabbycat's ballots): a ván stays provisional until someone
    #: other than its scorekeeper (a player at the table, another scorekeeper) confirms it.
    confirmation_required = models.BooleanField("ván cần người thứ hai xác nhận", default=False)
    #: The standings count confirmed ván only (provisional ones are shown as such, not counted).
    count_confirmed_only = models.BooleanField("bảng xếp hạng chỉ tính ván đã xác nhận", default=False)
    history = HistoricalRecords(
        verbose_name="lịch sử giải",
        excluded_fields=["ledger_seq", "recompute_due_at"],
        m2m_fields=[organisers],
    )

    class Meta:
        verbose_name = "giải đấu"
        verbose_name_plural = "giải đấu"
        ordering = ("-date", "-id")

    def __str__(self) -> str:
        return self.name

    @property
    def lunar_shown(self) -> str:
        """The lunar date to show: in the reader's language when it is the computed default."""
        from scoring.periods import lunar_shown

        return lunar_shown(self.date, self.lunar_label)


class RegistrationStatus(models.TextChoices):
    REGISTERED = "dang_ky", _("Đã đăng ký")
    CHECKED_IN = "co_mat", _("Đã điểm danh")
    WITHDRAWN = "rut", _("Đã rút")


class Registration(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, verbose_name="người chơi", on_delete=models.PROTECT, related_name="+")
    #: Village, hamlet (giáp) or team the player stands for; standings are also summed by it.
    team = models.CharField("làng / giáp / đội", max_length=120, blank=True)
    status = models.CharField(
        "trạng thái", max_length=8, choices=RegistrationStatus.choices, default=RegistrationStatus.REGISTERED
    )
    #: The secret of the player's personal check-in link (shown as a QR code at the gate).
    token = models.CharField("mã điểm danh", max_length=40, unique=True, default=new_token)
    checked_in_at = models.DateTimeField("điểm danh lúc", null=True, blank=True)
    created_at = models.DateTimeField("đăng ký lúc", auto_now_add=True)
    #: Who registered, checked in and withdrew the player (None: nobody signed in, e.g. the
    #: player's own check-in link, or before these were recorded).
    registered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="người đăng ký",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    checked_in_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="người điểm danh",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    #: Checked in through the player's own link (the QR code at the gate), not by an organiser.
    checked_in_own_link = models.BooleanField("tự điểm danh bằng mã QR", default=False)
    withdrawn_at = models.DateTimeField("rút lúc", null=True, blank=True)
    withdrawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="người cho rút",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    #: The event's :attr:`Event.ledger_seq` at the registration's last change the standings read.
    changed_seq = models.BigIntegerField("đổi ở lần sổ thay đổi số", default=0)

    class Meta:
        verbose_name = "đăng ký"
        verbose_name_plural = "đăng ký"
        ordering = ("event", "id")
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="tournaments_registration_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} · {self.event}"
