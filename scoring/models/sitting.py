"""A sitting (canh bài): its seats, its hội and its ván.

A ván row holds what the scorekeeper recorded (``record``, in the engine's ``VanRecord`` JSON
shape) and, as a cache of the engine's fold over the sitting's current ván, its points and
streak. A correction never edits a ván: it supersedes it by a new version (``replaces``) and
the ledger reverses and re-posts (see :mod:`scoring.services.sittings`).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring.engine import GAMES, MAX_PLAYER_NAME, Fault
from scoring.models.people import Club, Player
from scoring.models.rules import RuleSetSnapshot
from scoring.text import canh_name

GAME_CHOICES = [(slug.value, game.name_vi) for slug, game in GAMES.items()]


class Mode(models.TextChoices):
    """How wins are paid (docs/rules.md §8); the values are the engine's ``Mode``."""

    QUANG = "quang", _("Đánh quăng")
    GOM = "gom", _("Đánh gom")


class VanOutcome(models.TextChoices):
    """What a ván came to, derived from its record (docs/rules.md §7)."""

    U = "u", pgettext_lazy("van outcome", "Ù")
    U_LANH_LANG = "u_lanh_lang", pgettext_lazy("van outcome", "Ù lành làng")
    U_BAO = "u_bao", pgettext_lazy("van outcome", "Ù báo")
    HOA = "hoa", pgettext_lazy("van outcome", "Hòa")
    BAO = "bao", pgettext_lazy("van outcome", "Báo")
    XEP_HANG = "xep_hang", pgettext_lazy("van outcome", "Xếp hạng (Phỏm)")
    PHAT = "phat", pgettext_lazy("van outcome", "Chỉ phạt")


class VanFault(models.TextChoices):
    """A fault recorded on a win; the values are the engine's ``Fault``."""

    LANH_LANG = Fault.LANH_LANG.value, "Ù lành làng"
    U_BAO = Fault.U_BAO.value, "Ù báo"
    XUONG_THUA = Fault.XUONG_THUA.value, "Xướng thừa"
    DANH_U_DEN = Fault.DANH_U_DEN.value, "Đánh ù đền"
    DEN_CHONG = Fault.DEN_CHONG.value, "Đền chồng"


class Sitting(models.Model):
    """A canh bài: one game, the exact rule set it is scored under, one money mode."""

    game = models.CharField("trò chơi", max_length=20, choices=GAME_CHOICES)
    rules = models.ForeignKey(
        RuleSetSnapshot, verbose_name="lệ làng", on_delete=models.PROTECT, related_name="sittings"
    )
    mode = models.CharField("cách tính", max_length=8, choices=Mode.choices, default=Mode.QUANG)
    title = models.CharField("tên canh bài", max_length=160, blank=True)
    club = models.ForeignKey(
        Club,
        verbose_name="làng / câu lạc bộ",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="sittings",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="người mở",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField("mở lúc", auto_now_add=True)
    #: Two-person confirmation: a ván stays provisional until someone other than its scorekeeper
    #: confirms it (see :class:`VanStatus`).
    needs_confirmation = models.BooleanField("cần người thứ hai xác nhận ván", default=False)
    #: The engine's state after the current ván, and which ván it was folded from
    #: (``{"key": [count, newest ván id], "state": SittingState JSON, "seats": …}``): the next ván
    #: starts from it instead of replaying every ván. Valid only while the key still matches (any
    #: new ván or correction makes a newer id, so it is simply refolded); derived data, never the
    #: record.
    state_snapshot = models.JSONField(
        "trạng thái sau ván cuối (tính sẵn)", null=True, blank=True, editable=False
    )
    ended_at = models.DateTimeField("kết thúc lúc", null=True, blank=True)
    #: The results were made final by whoever owns the sitting (an event's official results): from
    #: then on no ván is recorded, corrected, confirmed or rejected and nothing is settled in it.
    final_at = models.DateTimeField("chốt kết quả lúc", null=True, blank=True)

    class Meta:
        verbose_name = "canh bài"
        verbose_name_plural = "canh bài"
        ordering = ("-created_at", "-id")

    def __str__(self) -> str:
        return canh_name(self.title, self.created_at, translate=False)

    @property
    def display_name(self) -> str:
        """How pages name the sitting: its title, else when it was opened ("Canh 28/11/26 19:30")
        in the active language (``str`` stays Vietnamese: it is also stored, e.g. as
        a festival table's name)."""
        return canh_name(self.title, self.created_at)


class Seat(models.Model):
    """A player's seat; ``position`` 1, 2, … runs counter-clockwise (each plays after the one before).

    ``name`` is the player's name in this sitting: the account the ledger and the records use.
    """

    sitting = models.ForeignKey(Sitting, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(
        Player, verbose_name="người chơi", on_delete=models.PROTECT, related_name="seats"
    )
    position = models.PositiveSmallIntegerField("chỗ ngồi")
    name = models.CharField("tên trong canh", max_length=MAX_PLAYER_NAME)

    class Meta:
        verbose_name = "chỗ ngồi"
        verbose_name_plural = "chỗ ngồi"
        ordering = ("sitting", "position")
        constraints = [
            models.UniqueConstraint(fields=["sitting", "position"], name="scoring_seat_unique_position"),
            models.UniqueConstraint(fields=["sitting", "player"], name="scoring_seat_unique_player"),
            models.UniqueConstraint(fields=["sitting", "name"], name="scoring_seat_unique_name"),
            models.CheckConstraint(
                condition=models.Q(position__gte=1), name="scoring_seat_position_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.position}. {self.name}"


class Hoi(models.Model):
    """A hội (pool period): a projection of the engine's fold, refreshed on every write."""

    sitting = models.ForeignKey(Sitting, on_delete=models.CASCADE, related_name="hoi")
    index = models.PositiveSmallIntegerField("hội số")
    opened_before_van = models.PositiveIntegerField("mở trước ván")
    closed_after_van = models.PositiveIntegerField("đóng sau ván", null=True, blank=True)

    class Meta:
        verbose_name = "hội"
        verbose_name_plural = "hội"
        ordering = ("sitting", "index")
        constraints = [models.UniqueConstraint(fields=["sitting", "index"], name="scoring_hoi_unique_index")]

    def __str__(self) -> str:
        return f"Hội {self.index}"

    def to_dict(self) -> dict[str, int | None]:
        return {
            "index": self.index,
            "opened_before_van": self.opened_before_van,
            "closed_after_van": self.closed_after_van,
        }


class VanStatus(models.TextChoices):
    #: The sitting does not ask for confirmation: the ván counts as entered.
    NOT_NEEDED = "khong_can", _("Không cần xác nhận")
    PROVISIONAL = "tam", _("Tạm tính (chờ xác nhận)")
    CONFIRMED = "xac_nhan", _("Đã xác nhận")
    REJECTED = "bac_bo", _("Bị bác (chờ sửa)")
    #: A later version (a correction) replaced it.
    SUPERSEDED = "da_sua", _("Đã được sửa")


class Van(models.Model):
    """One ván as recorded; a correction supersedes it by a new version (``replaces``)."""

    # Indexed with the id (``scoring_van_sitting_newest``), which also serves the foreign key.
    sitting = models.ForeignKey(Sitting, on_delete=models.CASCADE, related_name="van", db_index=False)
    seq = models.PositiveIntegerField("ván số")
    record = models.JSONField("ghi nhận")
    outcome = models.CharField("kết quả", max_length=12, choices=VanOutcome.choices)
    # No index on winner, entered_by, confirmed_by (nor on the ledger's created_by and seat): no
    # query looks ván up by them, and an index costs every ván's insert and every new database
    # connection's first insert (docs/reliability.md, "Load"); deleting a user or a seat, which the
    # PROTECT rules all but forbid, scans instead.
    winner = models.ForeignKey(
        Seat,
        verbose_name="người ù",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        db_index=False,
    )
    fault = models.CharField("lỗi", max_length=12, choices=VanFault.choices, blank=True)
    cuoc = models.JSONField("cước thực có", default=list, blank=True)
    declared = models.JSONField("cước đã xướng", null=True, blank=True)
    #: Computed by the engine from the sitting's history, never typed in.
    streak = models.PositiveSmallIntegerField("ù liền", default=0)
    #: Computed by the engine: points of the win (0 when nobody won).
    points = models.IntegerField("điểm", default=0)
    cards = models.TextField("quân bài", blank=True)
    kiem_bai = models.JSONField("kiểm bài", null=True, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="người ghi",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        db_index=False,
    )
    #: Entered through a grant a device held rather than (or besides) an account: which grant
    #: (``"token:12"``: a table's PIN or QR link) and the account that issued it; and the device
    #: (a digest of its own id). Two-person confirmation refuses all three as the confirmer.
    entered_grant = models.CharField("ghi bằng mã", max_length=40, blank=True, default="")
    entered_grant_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="người cấp mã ghi",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        db_index=False,
    )
    entered_device = models.CharField("ghi từ thiết bị", max_length=64, blank=True, default="")
    #: Who held the device that entered it, as the device named them: one of the seated players
    #: (a table's PIN or QR link names its holder). With ``entered_by`` (and the seated players
    #: linked to that account) it is who entered the ván; none of them confirms it.
    entered_player = models.ForeignKey(
        Player,
        verbose_name="người cầm máy ghi",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        db_index=False,
    )
    created_at = models.DateTimeField("ghi lúc", auto_now_add=True)
    is_current = models.BooleanField("bản hiện hành", default=True)
    replaces = models.OneToOneField(
        "self",
        verbose_name="sửa bản",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="replaced_by",
    )
    correction_reason = models.TextField("lý do sửa", blank=True)
    status = models.CharField(
        "xác nhận", max_length=10, choices=VanStatus.choices, default=VanStatus.NOT_NEEDED
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="người xác nhận",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        db_index=False,
    )
    confirmed_at = models.DateTimeField("xác nhận lúc", null=True, blank=True)
    #: The seated player the confirming account is linked to (None: a scorekeeper not playing).
    confirmed_player = models.ForeignKey(
        Player,
        verbose_name="người chơi xác nhận",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        db_index=False,
    )

    class Meta:
        verbose_name = "ván"
        verbose_name_plural = "ván"
        ordering = ("sitting", "seq", "id")
        # The sitting's ván, and its newest row, for the state snapshot's key (services/ledger.py).
        indexes = [models.Index(fields=["sitting", "id"], name="scoring_van_sitting_newest")]
        constraints = [
            models.UniqueConstraint(
                fields=["sitting", "seq"], condition=models.Q(is_current=True), name="scoring_van_current_seq"
            ),
            models.CheckConstraint(condition=models.Q(seq__gte=1), name="scoring_van_seq_positive"),
            models.CheckConstraint(
                condition=models.Q(replaces__isnull=True) | ~models.Q(correction_reason=""),
                name="scoring_van_correction_has_reason",
            ),
            # Two-person confirmation, held by the database: one confirmed version per ván, the
            # confirmer is never the scorekeeper who entered it, and "confirmed" names who did.
            models.UniqueConstraint(
                fields=["sitting", "seq"],
                condition=models.Q(status="xac_nhan"),
                name="scoring_van_one_confirmed",
            ),
            models.CheckConstraint(
                condition=models.Q(confirmed_by__isnull=True)
                | models.Q(entered_by__isnull=True)
                | ~models.Q(confirmed_by=models.F("entered_by")),
                name="scoring_van_confirmer_not_submitter",
            ),
            models.CheckConstraint(
                condition=~models.Q(status="xac_nhan") | models.Q(confirmed_by__isnull=False),
                name="scoring_van_confirmed_has_confirmer",
            ),
            # Nor the account that issued the PIN or QR link the ván was entered with.
            models.CheckConstraint(
                condition=models.Q(confirmed_by__isnull=True)
                | models.Q(entered_grant_by__isnull=True)
                | ~models.Q(confirmed_by=models.F("entered_grant_by")),
                name="scoring_van_confirmer_not_grant_issuer",
            ),
            # Nor the seated player who held the device that entered it (by identity, whatever
            # account or session the confirmation comes through).
            models.CheckConstraint(
                condition=models.Q(confirmed_player__isnull=True)
                | models.Q(entered_player__isnull=True)
                | ~models.Q(confirmed_player=models.F("entered_player")),
                name="scoring_van_confirmer_not_entering_player",
            ),
        ]

    def __str__(self) -> str:
        return f"Ván {self.seq}" + ("" if self.is_current else " (đã sửa)")


class VanReviewDecision(models.TextChoices):
    CONFIRM = "xac_nhan", _("Xác nhận")
    REJECT = "bac_bo", _("Bác")


class VanReview(models.Model):
    """One person's decision on one version of a ván (append-only: the audit of confirmations).

    The reviewer only confirms or rejects; a rejected ván is put right by a correction (a new
    version), which is provisional again.
    """

    van = models.ForeignKey(Van, on_delete=models.PROTECT, related_name="reviews")
    decision = models.CharField("quyết định", max_length=10, choices=VanReviewDecision.choices)
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name="người xét", on_delete=models.PROTECT, related_name="+"
    )
    #: Copied from the ván so the database can refuse a self-confirmation on this row too.
    submitter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="người ghi",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    #: The seated players behind the reviewer's account and behind the ván's entry (its device's
    #: named holder, or the submitter's own seat), so the database refuses one person on both sides.
    reviewer_player = models.ForeignKey(
        Player,
        verbose_name="người chơi xét",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    submitter_player = models.ForeignKey(
        Player,
        verbose_name="người chơi ghi",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    reason = models.TextField("lý do", blank=True)
    created_at = models.DateTimeField("lúc", auto_now_add=True)

    class Meta:
        verbose_name = "xác nhận ván"
        verbose_name_plural = "xác nhận ván"
        ordering = ("van", "id")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(submitter__isnull=True) | ~models.Q(reviewer=models.F("submitter")),
                name="scoring_vanreview_not_self",
            ),
            models.CheckConstraint(
                condition=models.Q(submitter_player__isnull=True)
                | models.Q(reviewer_player__isnull=True)
                | ~models.Q(reviewer_player=models.F("submitter_player")),
                name="scoring_vanreview_not_same_player",
            ),
            models.CheckConstraint(
                condition=~models.Q(decision="bac_bo") | ~models.Q(reason=""),
                name="scoring_vanreview_reject_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.van} · {self.get_decision_display()} · {self.reviewer}"
