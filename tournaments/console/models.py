"""The Trung Quân console of Tổ Tôm Điếm: the signal catalogue, festival tables and every signal given.

A festival table is one sitting of the ledger (game ``to-tom-diem``, five seats), optionally the
chiếu of an event. Its live state (nọc, dealer, turn, ván timer, last announcement) is kept on the
row; flags and bất thực counts are derived from the ván's signals, which are never edited.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from tournaments.console.catalogue import TRUNG_QUAN

__all__ = [
    "TRUNG_QUAN",
    "DisplayEvent",
    "FestivalTable",
    "Signal",
    "SignalEffect",
    "SignalEvent",
    "SignalKind",
]


class SignalKind(models.TextChoices):
    DRUM = "drum", "Trống con"
    BIG_DRUM = "big_drum", "Trống cái"
    FLAG = "flag", "Cờ"


class SignalEffect(models.TextChoices):
    """What the console does with a signal."""

    NONE = "none", "Không"
    U = "u", "Ù (mở phiếu ghi ván)"
    CHIU = "chiu", "Chịu (bỏ ván)"
    BAT_THUC = "bat_thuc", "Xin bất thực (+1)"
    TRA_CHEN = "tra_chen", "Trả chén (bất thực −1)"


class Signal(models.Model):
    """One drum, big-drum or flag signal; a village adds its own rows (``club``)."""

    slug = models.SlugField("mã", max_length=40, unique=True)
    label = models.CharField("tên hiệu", max_length=60, help_text="Như người chơi gọi: “Tùng tùng”.")
    display = models.CharField("chữ trên màn hình", max_length=60, help_text="Chữ lớn cho khán giả: “Phỗng”.")
    meaning = models.CharField("ý nghĩa", max_length=200)
    kind = models.CharField("loại", max_length=10, choices=SignalKind.choices)
    pattern = models.CharField(
        "nhịp trống",
        max_length=20,
        blank=True,
        help_text="T = tùng, C = cắc, R = hồi dài, B = trống cái, dấu cách = nghỉ. Để trống: không có tiếng.",
    )
    icon = models.CharField("biểu tượng", max_length=8, blank=True)
    color = models.CharField("màu cờ", max_length=9, blank=True, help_text="Mã màu như #d0202a (cho cờ).")
    effect = models.CharField(
        "tác dụng", max_length=10, choices=SignalEffect.choices, default=SignalEffect.NONE
    )
    order = models.PositiveSmallIntegerField("thứ tự", default=100)
    club = models.ForeignKey(
        "scoring.Club",
        verbose_name="lệ làng của",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="festival_signals",
        help_text="Để trống: hiệu chung cho mọi làng.",
    )
    is_active = models.BooleanField("đang dùng", default=True)

    class Meta:
        verbose_name = "hiệu trống / cờ"
        verbose_name_plural = "hiệu trống / cờ"
        ordering = ("order", "id")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(pattern__regex=r"^[TCRB ]*$"), name="console_signal_pattern_alphabet"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.label} ({self.display})"


class FestivalTable(models.Model):
    """A chiếu of Tổ Tôm Điếm run by a Trung Quân: one sitting, its console and its public display."""

    sitting = models.OneToOneField(
        "scoring.Sitting", verbose_name="canh bài", on_delete=models.PROTECT, related_name="festival_table"
    )
    event_table = models.OneToOneField(
        "tournaments.Table",
        verbose_name="chiếu của giải",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="festival_table",
    )
    name = models.CharField("tên chiếu", max_length=160)
    trung_quan = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="Trung Quân",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="festival_tables",
    )
    #: The ván under way (the sitting's next ván number).
    van_seq = models.PositiveIntegerField("ván đang chơi", default=1)
    dealer = models.PositiveSmallIntegerField("nhà cái", null=True, blank=True)
    turn = models.PositiveSmallIntegerField("lượt", null=True, blank=True)
    noc_left = models.PositiveSmallIntegerField("nọc còn", default=19)
    van_started_at = models.DateTimeField("ván bắt đầu lúc", null=True, blank=True)
    #: The last win announced (winner, cước, points, balances), shown until the next ván starts.
    announcement = models.JSONField("thông báo", null=True, blank=True)
    #: The number of the table's last display event (:class:`DisplayEvent`): bumped in the same
    #: UPDATE that locks the row, so the events of a table are numbered in commit order.
    stream_seq = models.PositiveBigIntegerField("sự kiện màn hình cuối", default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="người mở",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField("mở lúc", auto_now_add=True)

    class Meta:
        verbose_name = "chiếu Tổ Tôm Điếm"
        verbose_name_plural = "chiếu Tổ Tôm Điếm"
        ordering = ("-created_at", "-id")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(dealer__isnull=True) | models.Q(dealer__gte=1, dealer__lte=5),
                name="console_table_dealer_seat",
            ),
            models.CheckConstraint(
                condition=models.Q(turn__isnull=True) | models.Q(turn__gte=1, turn__lte=5),
                name="console_table_turn_seat",
            ),
            models.CheckConstraint(condition=models.Q(van_seq__gte=1), name="console_table_van_seq_positive"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def channel(self) -> str:
        """The SSE channel of this table's display."""
        return f"ban-{self.pk}"


class SignalEvent(models.Model):
    """A signal given at a table: who, what, when, during which ván. Append-only."""

    table = models.ForeignKey(FestivalTable, on_delete=models.CASCADE, related_name="signals")
    #: The canh (sitting) under way: an event's chiếu plays several, each from ván 1, each with its
    #: own seating, so a signal is read against its own canh's ván and seats.
    sitting = models.ForeignKey(
        "scoring.Sitting", verbose_name="canh bài", on_delete=models.PROTECT, related_name="+"
    )
    van_seq = models.PositiveIntegerField("ván số")
    #: 1–5 a player's seat (counter-clockwise), 0 the Trung Quân.
    seat = models.PositiveSmallIntegerField("chỗ")
    signal = models.ForeignKey(Signal, verbose_name="hiệu", on_delete=models.PROTECT, related_name="events")
    noc_left = models.PositiveSmallIntegerField("nọc còn")
    created_at = models.DateTimeField("lúc", auto_now_add=True, db_index=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="người gửi",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    idempotency_key = models.CharField("khóa chống gửi lặp", max_length=255, blank=True)

    class Meta:
        verbose_name = "hiệu đã đánh"
        verbose_name_plural = "hiệu đã đánh"
        ordering = ("table", "id")
        indexes = [models.Index(fields=["sitting", "van_seq", "id"], name="console_signal_canh_van")]
        constraints = [
            models.CheckConstraint(condition=models.Q(seat__lte=5), name="console_signalevent_seat"),
            models.UniqueConstraint(
                fields=["table", "idempotency_key"],
                condition=~models.Q(idempotency_key=""),
                name="console_signalevent_key_once",
            ),
        ]

    def __str__(self) -> str:
        who = "Trung Quân" if self.seat == TRUNG_QUAN else f"chỗ {self.seat}"
        return f"Ván {self.van_seq} · {who} · {self.signal_id}"


class DisplayEvent(models.Model):
    """An event sent to a table's displays, stored in the transaction of the write that caused it
    (numbered by :attr:`FestivalTable.stream_seq`), so a display that reconnects with
    ``Last-Event-ID`` is sent every event it missed, in order. Trimmed by age
    (``DISPLAY_EVENT_RETENTION``); a display that missed a trimmed event is sent a snapshot."""

    table = models.ForeignKey(FestivalTable, on_delete=models.CASCADE, related_name="display_events")
    seq = models.PositiveBigIntegerField("số thứ tự")
    type = models.CharField("loại", max_length=20)
    #: The event's JSON, as sent.
    data = models.TextField("nội dung")
    created_at = models.DateTimeField("lúc", default=timezone.now, db_index=True)

    class Meta:
        verbose_name = "sự kiện màn hình"
        verbose_name_plural = "sự kiện màn hình"
        ordering = ("table", "seq")
        constraints = [models.UniqueConstraint(fields=["table", "seq"], name="console_displayevent_seq_once")]

    def __str__(self) -> str:
        return f"{self.table_id}:{self.seq} {self.type}"
