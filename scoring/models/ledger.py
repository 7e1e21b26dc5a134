"""The append-only points ledger: transactions of postings that sum to zero.

Every movement of points is a :class:`LedgerTransaction` whose :class:`Posting` rows sum to
zero. Postings and transactions are never updated or deleted: a correction is a reversing
transaction (``reverses``) plus new ones. On PostgreSQL the database enforces it (migration
``0003_ledger_triggers``): zero-sum per transaction and non-negative pool and gà pot at commit,
no UPDATE or DELETE.

Accounts are a player's seat, the village pool (``pool``) and the gà trong pot (``ga_trong``),
the engine's account names. Each transfer of the engine becomes two postings sharing a ``line``:
the payer's (−amount) and the payee's (+amount).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from scoring.engine import GA_TRONG as ENGINE_GA_TRONG
from scoring.engine import POOL as ENGINE_POOL
from scoring.models.sitting import Seat, Sitting, Van


class TransactionKind(models.TextChoices):
    #: Gom (and gà đầu hội) collected when a hội opens.
    GOM = "gom", "Gom đầu hội"
    #: The transfers of one ván.
    VAN = "van", "Ván"
    #: A correction's reversal of an earlier transaction.
    REVERSAL = "dao", "Đảo bút toán (sửa ván)"
    #: Settling up at the end of the sitting: separate from play.
    SETTLEMENT = "thanh_toan", "Thanh toán cuối canh"


#: Kinds whose postings make the balances of play (settlement entries are kept apart).
PLAY_KINDS = (TransactionKind.GOM, TransactionKind.VAN, TransactionKind.REVERSAL)


class Account(models.TextChoices):
    PLAYER = "player", "Người chơi"
    POOL = ENGINE_POOL, "Điểm làng"
    GA_TRONG = ENGINE_GA_TRONG, "Gà trong"


class LedgerTransaction(models.Model):
    sitting = models.ForeignKey(Sitting, on_delete=models.PROTECT, related_name="transactions")
    van = models.ForeignKey(Van, on_delete=models.PROTECT, null=True, blank=True, related_name="transactions")
    kind = models.CharField("loại", max_length=12, choices=TransactionKind.choices)
    reason = models.TextField("lý do")
    reverses = models.OneToOneField(
        "self",
        verbose_name="đảo bút toán",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reversed_by",
    )
    created_by = models.ForeignKey(  # not indexed: see Van.winner
        settings.AUTH_USER_MODEL,
        verbose_name="người ghi",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        db_index=False,
    )
    created_at = models.DateTimeField("ghi lúc", auto_now_add=True)

    class Meta:
        verbose_name = "bút toán"
        verbose_name_plural = "bút toán"
        ordering = ("sitting", "id")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(kind=TransactionKind.REVERSAL, reverses__isnull=False)
                | (~models.Q(kind=TransactionKind.REVERSAL) & models.Q(reverses__isnull=True)),
                name="scoring_txn_reversal_links_original",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.get_kind_display()}: {self.reason}"


class Posting(models.Model):
    transaction = models.ForeignKey(LedgerTransaction, on_delete=models.PROTECT, related_name="postings")
    #: Denormalised from the transaction so the database can check a sitting's pots cheaply.
    #: Indexed by ``scoring_posting_sitting_acct`` (sitting, account), which starts with it.
    sitting = models.ForeignKey(Sitting, on_delete=models.PROTECT, related_name="postings", db_index=False)
    account = models.CharField("tài khoản", max_length=10, choices=Account.choices)
    seat = models.ForeignKey(
        Seat, on_delete=models.PROTECT, null=True, blank=True, related_name="postings", db_index=False
    )  # not indexed: see Van.winner
    #: Signed: negative for the payer, positive for the payee. 64-bit; the
    #: bounds a ván is checked against before it is written: scoring.services.ledger.MAX_BALANCE.
    amount = models.BigIntegerField("số điểm")
    #: The transfer this posting belongs to (the payer's and the payee's share a line).
    line = models.PositiveSmallIntegerField("dòng")
    why = models.TextField("vì sao")

    class Meta:
        verbose_name = "dòng bút toán"
        verbose_name_plural = "dòng bút toán"
        ordering = ("transaction", "line", "amount")
        indexes = [models.Index(fields=["sitting", "account"], name="scoring_posting_sitting_acct")]
        constraints = [
            models.CheckConstraint(condition=~models.Q(amount=0), name="scoring_posting_amount_nonzero"),
            models.CheckConstraint(
                condition=models.Q(account=Account.PLAYER, seat__isnull=False)
                | (~models.Q(account=Account.PLAYER) & models.Q(seat__isnull=True)),
                name="scoring_posting_seat_iff_player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.account_name}: {self.amount:+d}"

    @property
    def account_name(self) -> str:
        """The engine's name of the account: the seat's name, ``pool`` or ``ga_trong``."""
        return self.seat.name if self.seat_id else self.account
