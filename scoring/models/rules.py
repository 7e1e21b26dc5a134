"""Rule sets as stored data.

A :class:`RuleSetSnapshot` is the exact, immutable rule set a ván was scored under (keyed by the
engine's fingerprint), so changing a village's rules later never rewrites history. A
:class:`VillageRuleSet` is a named, editable *lệ làng*: a preset plus the village's own numbers;
every save points it at a (possibly new) snapshot.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from simple_history.models import HistoricalRecords

from scoring.engine.rules import RuleSet


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

    def __str__(self) -> str:
        return self.name

    def spec(self) -> dict[str, Any]:
        return {"preset": self.preset, **self.overrides}

    def rules(self) -> RuleSet:
        return self.snapshot.rules()
