"""Rule sets as stored data.

A :class:`RuleSetSnapshot` is the exact, immutable rule set a ván was scored under (keyed by the
engine's fingerprint): a sitting points at the snapshot it was opened with (``Sitting.rules``), so
changing a village's rules later never rewrites history. A :class:`VillageRuleSet` is a named
*lệ làng* with an owner (a club, or a person) whose managers alone change it; every change is a new
:class:`VillageRuleSetVersion` (numbered 1, 2, …, never edited nor deleted: the database refuses
it, migration 0011), and the rule set shows its newest version's preset, changes and snapshot.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from simple_history.models import HistoricalRecords

from scoring.engine import RuleSet
from scoring.models.people import Club, keyed_save
from scoring.names import KEY_LENGTH


class RuleSetSnapshot(models.Model):
    fingerprint = models.CharField("dấu vân tay", max_length=64, unique=True)
    preset = models.CharField("bộ luật gốc", max_length=40)
    spec = models.JSONField("nội dung")
    created_at = models.DateTimeField("tạo lúc", auto_now_add=True)

    class Meta:
        verbose_name = "bản chụp lệ làng"
        verbose_name_plural = "bản chụp lệ làng"

    def __str__(self) -> str:
        return f"{self.preset} · {self.fingerprint}"

    def rules(self) -> RuleSet:
        """The engine's rule set (parsed once per process for each fingerprint: a snapshot is the
        content its fingerprint hashes, and a :class:`RuleSet` is frozen)."""
        parsed = _PARSED.get(self.fingerprint)
        if parsed is None:
            parsed = RuleSet.from_dict(self.spec, bounded=False)  # history: read back as stored
            if len(_PARSED) >= 256:
                _PARSED.clear()
            _PARSED[self.fingerprint] = parsed
        return parsed


#: Parsed rule sets by fingerprint (see :meth:`RuleSetSnapshot.rules`).
_PARSED: dict[str, RuleSet] = {}


class VillageRuleSet(models.Model):
    name = models.CharField("tên", max_length=120)
    slug = models.SlugField("mã", max_length=60, unique=True)
    #: :func:`scoring.names.name_key` of ``name``: a name people read as another set's is refused.
    name_key = models.CharField(
        "khóa so tên", max_length=KEY_LENGTH, editable=False, db_index=True, default=""
    )
    #: The owner: a club (its organisers change the set) or a person (they alone do); staff may
    #: change any. A set saved before owners were kept may have neither: staff only.
    owner_club = models.ForeignKey(
        Club,
        verbose_name="của làng / câu lạc bộ",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="rule_sets",
    )
    owner_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="của người",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    #: The newest version's number; ``description``, ``preset``, ``overrides`` and ``snapshot`` are
    #: that version's (what a new sitting opened with the set's slug is scored under).
    version = models.PositiveIntegerField("phiên bản", default=1)
    description = models.TextField("ghi chú", blank=True)
    preset = models.CharField("bộ luật gốc", max_length=40)
    overrides = models.JSONField("thay đổi so với bộ luật gốc", default=dict, blank=True)
    snapshot = models.ForeignKey(RuleSetSnapshot, on_delete=models.PROTECT, related_name="village_rule_sets")
    created_at = models.DateTimeField("tạo lúc", auto_now_add=True)
    updated_at = models.DateTimeField("sửa lúc", auto_now=True)
    history = HistoricalRecords(verbose_name="lịch sử lệ làng")

    class Meta:
        verbose_name = "lệ làng"
        verbose_name_plural = "lệ làng"
        ordering = ("name",)
        constraints = [
            models.CheckConstraint(
                condition=models.Q(owner_club__isnull=True) | models.Q(owner_user__isnull=True),
                name="scoring_villageruleset_one_owner",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        keyed_save(self, super().save, *args, **kwargs)

    @property
    def owner_name(self) -> str:
        """Who owns the set, as pages show it ("" when nobody does)."""
        if self.owner_club_id is not None:
            return self.owner_club.name
        if self.owner_user_id is not None:
            return self.owner_user.get_username()
        return ""

    def spec(self) -> dict[str, Any]:
        return {"preset": self.preset, **self.overrides}

    def rules(self) -> RuleSet:
        return self.snapshot.rules()


class VillageRuleSetVersion(models.Model):
    """One saved version of a village rule set, as it was saved: never edited, never deleted."""

    rule_set = models.ForeignKey(
        VillageRuleSet, verbose_name="lệ làng", on_delete=models.PROTECT, related_name="versions"
    )
    number = models.PositiveIntegerField("phiên bản")
    description = models.TextField("ghi chú", blank=True)
    preset = models.CharField("bộ luật gốc", max_length=40)
    overrides = models.JSONField("thay đổi so với bộ luật gốc", default=dict, blank=True)
    snapshot = models.ForeignKey(RuleSetSnapshot, on_delete=models.PROTECT, related_name="+")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="người lưu",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        db_index=False,
    )
    created_at = models.DateTimeField("lưu lúc", auto_now_add=True)

    class Meta:
        verbose_name = "phiên bản lệ làng"
        verbose_name_plural = "phiên bản lệ làng"
        ordering = ("rule_set", "number")
        constraints = [
            models.UniqueConstraint(fields=["rule_set", "number"], name="scoring_rulesetversion_once"),
            models.CheckConstraint(
                condition=models.Q(number__gte=1), name="scoring_rulesetversion_number_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.rule_set} · phiên bản {self.number}"
