"""Idempotency keys (Stripe-like): a repeated write returns the first answer and writes nothing."""

from __future__ import annotations

from django.db import models


class IdempotencyKey(models.Model):
    #: Whose key it is (:func:`scoring.services.idempotency.caller_scope`): an account
    #: (``user:<id>``), a device without an account (``device:<hash of its session>``, e.g. a table
    #: PIN's phone), or ``""`` for writes outside any request (commands, tasks). A key is looked up
    #: in its caller's scope only, so nobody is answered with someone else's answer.
    scope = models.CharField("phạm vi", max_length=80, default="", blank=True)
    #: Unique per scope by a constraint (one index), not ``unique=True``, which on PostgreSQL adds a second,
    #: ``LIKE`` index that no query uses and every write pays for.
    key = models.CharField("khóa", max_length=255)
    #: The operation the key was first used for ("van_record", "van_correct" …).
    operation = models.CharField("thao tác", max_length=40)
    #: sha256 of the canonical JSON of the operation, its target and its body.
    request_hash = models.CharField("mã yêu cầu", max_length=64)
    status = models.PositiveSmallIntegerField("mã trạng thái")
    response = models.JSONField("câu trả lời")
    created_at = models.DateTimeField("lúc", auto_now_add=True)

    class Meta:
        verbose_name = "khóa chống gửi lặp"
        verbose_name_plural = "khóa chống gửi lặp"
        constraints = [
            models.UniqueConstraint(fields=["scope", "key"], name="scoring_idempotencykey_scope_key_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.operation} · {self.key}"
