"""The club book (sổ câu lạc bộ): period closes and ratings. The book itself is never stored: it is
read from the ledger (:mod:`scoring.selectors.book`).

* A :class:`PeriodClose` is a treasurer's close of a period (a month, a season…): the fewest
  transfers between members that clear every open balance of the period's canh. Its money is in
  the ledger, as settlement transactions in each canh it cleared (:class:`PeriodCloseEntry` links
  them); the row keeps the plan (who pays whom) and the canh it ended. Rows are written once and
  never changed nor deleted (the database refuses both); a close is undone by a correction: the
  reversing transactions, linked here too with ``reversal``.
* :class:`ClubRating` is a member's OpenSkill rating from the club's ván, derived data rebuilt
  from the ván at will (:mod:`scoring.services.ratings`); :class:`ClubRatingBoard` says which ván
  it was built from and carries the recompute's debounce marker and its failure, if any.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from scoring.models.ledger import LedgerTransaction
from scoring.models.people import Club, Player


class PeriodClose(models.Model):
    club = models.ForeignKey(
        Club, verbose_name="làng / câu lạc bộ", on_delete=models.PROTECT, related_name="period_closes"
    )
    date_from = models.DateField("từ ngày")
    date_to = models.DateField("đến ngày")
    label = models.CharField("kỳ", max_length=120)
    #: The member-to-member transfers of the plan: [{"from", "from_player", "to", "to_player", "amount"}].
    transfers = models.JSONField("các khoản chuyển", default=list)
    #: The member's open balances the plan cleared: {player_id: amount}.
    balances = models.JSONField("số dư được thanh toán", default=dict)
    #: The canh this close ended (a correction of the close opens them again).
    ended = models.JSONField("canh được kết thúc", default=list)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="người chốt",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        db_index=False,
    )
    created_at = models.DateTimeField("chốt lúc", auto_now_add=True)

    class Meta:
        verbose_name = "chốt sổ kỳ"
        verbose_name_plural = "chốt sổ kỳ"
        ordering = ("club", "-created_at", "-id")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(date_to__gte=models.F("date_from")),
                name="scoring_periodclose_dates_in_order",
            ),
        ]

    def __str__(self) -> str:
        return f"Chốt sổ {self.label} · {self.club}"


class PeriodCloseEntry(models.Model):
    """One ledger transaction of a close (``reversal``: of the correction that undid it)."""

    close = models.ForeignKey(PeriodClose, on_delete=models.PROTECT, related_name="entries")
    transaction = models.OneToOneField(
        LedgerTransaction, on_delete=models.PROTECT, related_name="period_close_entry"
    )
    reversal = models.BooleanField("bút toán đảo", default=False)

    class Meta:
        verbose_name = "bút toán chốt sổ"
        verbose_name_plural = "bút toán chốt sổ"
        ordering = ("close", "id")

    def __str__(self) -> str:
        return f"{self.close} · #{self.transaction_id}"


class ClubRatingBoard(models.Model):
    club = models.OneToOneField(Club, on_delete=models.CASCADE, related_name="rating_board")
    #: Only grows: +1 at every stored result.
    version = models.PositiveIntegerField("phiên bản", default=0)
    #: How many ván rows (every version) the club's canh had in the snapshot the ratings were built
    #: from. Rows are only ever added, so a larger count is a later snapshot: a result from an
    #: older one is never stored over a newer one.
    seen = models.PositiveIntegerField("số bản ván đã thấy", default=0)
    #: The current ván folded, in order, and the sha256 of their ids: the next update continues
    #: from the stored ratings when these are still the first ván (else it rebuilds).
    folded = models.PositiveIntegerField("số ván đã tính", default=0)
    fingerprint = models.CharField("dấu các ván đã tính", max_length=64, blank=True)
    computed_at = models.DateTimeField("tính lúc", null=True, blank=True)
    duration_ms = models.PositiveIntegerField("thời gian tính (ms)", default=0)
    built_by = models.CharField("cách tính", max_length=12, blank=True)
    recompute_due_at = models.DateTimeField("hẹn tính lại lúc", null=True, blank=True)
    failed_at = models.DateTimeField("lần tính lỗi", null=True, blank=True)
    failure = models.TextField("lỗi", blank=True)

    class Meta:
        verbose_name = "bảng trình độ của làng"
        verbose_name_plural = "bảng trình độ của làng"

    def __str__(self) -> str:
        return f"Trình độ · {self.club}"


class ClubRating(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="club_ratings")
    mu = models.FloatField("μ (ước lượng)")
    sigma = models.FloatField("σ (độ bất định)")
    #: Rated ván (a win, a loss or a place; draws and faults change nothing and are not counted).
    van = models.PositiveIntegerField("số ván được tính", default=0)
    #: After each canh the member played: [[sitting_id, "YYYY-MM-DD", mu, sigma], …].
    history = models.JSONField("diễn biến", default=list)

    class Meta:
        verbose_name = "trình độ"
        verbose_name_plural = "trình độ"
        ordering = ("club", "-mu")
        constraints = [models.UniqueConstraint(fields=["club", "player"], name="scoring_clubrating_once")]

    def __str__(self) -> str:
        return f"{self.player} · {self.mu:.1f} ± {self.sigma:.1f}"

    @property
    def ordinal(self) -> float:
        """The conservative rating shown and ranked by: μ − 3σ."""
        return self.mu - 3 * self.sigma
